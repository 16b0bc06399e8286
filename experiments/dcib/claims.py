#!/usr/bin/env python3
"""DCIB's paper claims (ndnlab.paper.dcib.CLAIMS: the paper's own DCIB against the same TCP,
IV-A to IV-D) judged two-sided by the reproduction harness ndnlab.repro from the stores of the
specs in this directory; a ratio within 2 % of x1 is a "tie"; a claim whose campaign has no
runs here is "not run".

Usage: claims.py [--out FILE.md] [--json FILE.json] [--from-json FILE.json]   (exit 1 when a claim
is not run; --from-json: judge the per-seed values of an earlier --json, not the stores)
"""
import pathlib
import sys

from ndnlab import repro
from ndnlab.paper import dcib

HERE = pathlib.Path(__file__).resolve().parent
COMMAND = "experiments/dcib/claims.py --out docs/results/dcib-verdicts.md --json docs/results/dcib/verdicts.json"

if __name__ == "__main__":
    sys.exit(repro.cli(dcib.CLAIMS, HERE, COMMAND, "DCIB: the paper's claims, judged",
                       intro=f"Paper: {dcib.CITATION}. Runs: `experiments/dcib/run.sh`."))
