#!/usr/bin/env python3
"""BLEnD's paper claims (ndnlab.paper.blend.CLAIMS: Figs. 1, 7, 8b and 9, both addressing readings,
and for the bundled cells both encoder readings) judged two-sided by the reproduction harness
ndnlab.repro from the stores of fig1.toml, fig7.toml, fig8.toml and fig9.toml; a claim whose
campaign has no runs here is "not run".

Usage: claims.py [--out FILE.md] [--json FILE.json] [--from-json FILE.json]   (exit 1 when a claim
is not run; --from-json: judge the per-seed values of an earlier --json, not the stores)
"""
import pathlib
import sys

from ndnlab import repro
from ndnlab.paper import blend

HERE = pathlib.Path(__file__).resolve().parent
COMMAND = "experiments/blend/claims.py --out docs/results/blend-verdicts.md --json docs/results/blend/verdicts.json"

if __name__ == "__main__":
    sys.exit(repro.cli(blend.CLAIMS, HERE, COMMAND, "BLEnD: the paper's claims, judged",
                       intro=f"Paper: {blend.CITATION}. Runs: `experiments/blend/run fig1`, `fig7`, `fig8`, `fig9`."))
