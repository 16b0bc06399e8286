#!/usr/bin/env python3
"""DCIB section IV against the premise's baseline (issue 31 item 3): each paper claim of IV-A to
IV-D (ndnlab.paper.dcib.IV_PREMISE_CLAIMS) judged two-sided by ndnlab.repro twice, side by side:
the paper's DCIB alone (A; the low-priority buffer in IV-C and IV-D) and ndnlab's one variant
named before the runs (+I: duplicate-ACK interception at the source edge router), each against
the same TCP without DCIB on the premise's Linux-like hosts, paired by seed. A factor within 2 %
of x1 is a "tie"; a cell without runs is "not run". Below the verdicts, the receiver goodput
factors of the same cells (no verdict: the paper's metric is the DCI link's throughput).

Usage: claims.py [--out FILE.md] [--json FILE.json] [--from-json FILE.json]   (exit 1 when a claim
is not run; --from-json: judge the per-seed values of an earlier --json, not the stores)
"""
import argparse
import dataclasses
import json
import pathlib
import sys

from ndnlab import repro
from ndnlab.paper import dcib

HERE = pathlib.Path(__file__).resolve().parent
COMMAND = ("experiments/dcib/iv-premise/claims.py --out docs/results/dcib-iv-verdicts.md "
           "--json docs/results/dcib/iv-verdicts.json")
NAMES = ("paper's DCIB (A)", "+I")
TITLE = "DCIB section IV against the premise's baseline: the paper's DCIB and +I, judged"
INTRO = (f"Paper: {dcib.CITATION}. Runs: `experiments/dcib/iv-premise/*.toml` (`experiments/dcib/run.sh`), "
         f"{dcib.IV_PREMISE_SEEDS} seeds per cell. Hosts: the premise's Linux-like TCP (3 MB socket buffers, "
         "docs/results/dcib-premise.md), SACK, MinRto 200 ms, duplicate-ACK threshold 3; 9000-byte frames "
         "unless the claim says 1500 B; 1-BDP RED queue at A; 2 s simulated, measured over 0.5-2 s (IV-D: "
         "until all 1000 flows completed or 10 s). The paper's DCIB (A): `Mode=stalled`, r = 0.1, stock hosts; "
         "in IV-C and IV-D the low-priority buffer (`Mode=lowprio`, IV-C: B = 2 MB). +I: the same plus "
         "duplicate-ACK interception at the source edge router (`InterceptDupAcks=true`), the one variant "
         "named before the runs. Each factor is a run with DCIB over the run of the same seed without it; "
         "\"no DCIB: median\" is the baseline cell's median of the metric (DCI utilisation, or mean FCT in ms).")


def evaluations(judge):
    """[(id, label, [Evaluation of A, of +I])] of every paper claim, and the same for goodput;
    judge(claims) gives the Evaluations of claims."""
    groups, goodput = [], []
    for a, i in dcib.IV_PREMISE_CLAIMS:
        id, label = a.id[:-2], a.label.removesuffix(" (paper's DCIB)")
        groups.append((id, label, judge([a, i])))
        if a.metric == "dci_utilization":
            g = [dataclasses.replace(c, metric="goodput_gbps") for c in (a, i)]
            goodput.append((id, label, judge(g)))
    return groups, goodput


def goodput_table(goodput):
    lines = ["## Receiver goodput in the same cells (no verdict)", "",
             "Goodput with DCIB over goodput without it, same seed: median [min-max] over the seeds; "
             "what the hosts received in 0.5-2 s, without the edge's copies and retransmissions.", "",
             "| id | no DCIB: median goodput, Gbps | " + " | ".join(f"{n}: goodput factor" for n in NAMES) + " |",
             "|---|---|" + "---|" * len(NAMES)]
    for id, _, evs in goodput:
        base = next((ev.baseline_median for ev in evs if ev.verdict != "not run"), float("nan"))
        lines.append(f"| {id} | {repro.fmt(base)} | " + " | ".join(repro.ours_cell(ev, dcib.IV_PREMISE_SEEDS) for ev in evs) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=TITLE)
    ap.add_argument("--out", type=pathlib.Path, help="the verdict table (Markdown)")
    ap.add_argument("--json", type=pathlib.Path, help="the same verdicts as JSON")
    ap.add_argument("--from-json", type=pathlib.Path, metavar="FILE",
                    help="judge the per-seed values of FILE (an earlier --json) instead of the stores")
    args = ap.parse_args(argv)
    command = COMMAND
    if args.from_json:
        data = json.loads(args.from_json.read_text())
        stored = [entry[n] for entry in data["claims"] + data["goodput"] for n in NAMES]
        groups, goodput = evaluations(lambda claims: repro.rejudge_all(claims, stored))
        command += f" --from-json {args.from_json}"
    else:
        claims = [c for pair in dcib.IV_PREMISE_CLAIMS for c in pair]
        frames = repro.load_campaigns(HERE, sorted({c.campaign for c in claims}))
        groups, goodput = evaluations(lambda claims: repro.evaluate_all(claims, frames))
    text = repro.side_by_side(groups, NAMES, command, TITLE, INTRO, seeds=dcib.IV_PREMISE_SEEDS,
                              baseline_label="no DCIB: median")
    text += "\n" + goodput_table(goodput)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    if args.json:
        data = {"generated_by": command, "ci": repro.CI_METHOD, "setups": list(NAMES),
                "counts": {n: repro.counts([evs[k] for _, _, evs in groups]) for k, n in enumerate(NAMES)},
                "claims": [{"id": id, "label": label, **{n: ev.as_dict() for n, ev in zip(NAMES, evs)}}
                           for id, label, evs in groups],
                "goodput": [{"id": id, **{n: ev.as_dict() for n, ev in zip(NAMES, evs)}}
                            for id, _, evs in goodput]}
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    return 1 if any(ev.verdict == "not run" for _, _, evs in groups for ev in evs) else 0


if __name__ == "__main__":
    sys.exit(main())
