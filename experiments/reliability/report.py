#!/usr/bin/env python3
"""`ndnlab get` over lossy hops with and without NDNLPv2 link reliability, from the stored runs of
chain.toml: per loss, segment size and the fetcher's loss detection, the goodput, the fetcher's
retransmissions and timeouts, and the frames the link layer sent again (summed over the nodes),
median [min-max] over the seeds. The table of docs/mechanisms/reliability.md.

Usage: report.py [--spec FILE.toml] [--out FILE.md]    (docs/results/reliability-chain.md; always printed)
Exit 0, or 1 when the spec has no runs.
"""
import argparse
import pathlib
import sys

from ndnlab import repro
from ndnlab.data import report_main

HERE = pathlib.Path(__file__).resolve().parent
RELIABILITY = "ns3::ndnlab::NdnStack::LpReliability"
LOSSES = (0.01, 0.05, 0.1)
PAYLOADS = (1000, 8000)
# the fetcher's loss detection: (label, parameters)
DETECTION = (("rack", {"LossDetection": "rack", "ReorderWindow": 0.25, "ReorderAdapt": False}),
             ("rack, reorder window 1 RTT", {"LossDetection": "rack", "ReorderWindow": 1, "ReorderAdapt": False}),
             ("rack, adaptive reorder window", {"LossDetection": "rack", "ReorderWindow": 0.25, "ReorderAdapt": True}),
             ("timeout", {"LossDetection": "timeout"}))
DEFAULTS = {"ReorderWindow": 0.25, "ReorderAdapt": False}
KEYS = (("goodput_mbps", "goodput (Mbit/s)"), ("retransmissions", "Interest retx"), ("timeouts", "timeouts"))
NODES = ("n0", "n1", "n2")


cell = repro.median_cell  # `median [min-max]` of the seeds' values, or `-`


def table(df):
    seeds = ", ".join(str(int(s)) for s in sorted(df["seed"].unique()))
    lines = ["Runs: experiments/reliability/chain.toml (p2p-chain, Hops = 2: consumer, forwarder, producer; both "
             "links 10 Mbit/s, 10 ms, each frame lost with the given probability both ways; `ndnlab get`'s fetch of "
             "5 MiB, default pipeline (aimd); rack: losses also from the order Data return in, a segment lost once "
             "one sent a reorder window (a quarter of the minimum RTT by default) after it is answered; timeout: "
             "RTO and lifetime only; adaptive: `--ReorderAdapt=true` (the window widens, up to SRTT, when segments it "
             "declared lost are answered too soon after, RFC 8985); link reliability off and on at every node, "
             f"`--{RELIABILITY}=true`; runs {seeds}). Median [min-max]:", "",
             "| loss | segment (B) | loss detection | link reliability | "
             + " | ".join(label for _, label in KEYS) + " | frames sent again |",
             "|---|---|---|---|" + "---|" * (len(KEYS) + 1)]
    for loss in LOSSES:
        for payload in PAYLOADS:
            for detection, params in DETECTION:
                for on in (False, True):
                    where = {"Loss": loss, "PayloadSize": payload, **params, RELIABILITY: on}
                    cells = [cell(list(repro.per_seed(df, where, m, DEFAULTS).values())) for m, _ in KEYS]
                    cells.append(cell(list(repro.node_sum(df, where, NODES, "lp_retx_frames", DEFAULTS).values())) if on else "-")
                    lines.append(f"| {loss:g} | {payload} | {detection} | {'on' if on else 'off'} | "
                                 + " | ".join(cells) + " |")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", type=pathlib.Path, default=HERE / "chain.toml")
    ap.add_argument("--out", type=pathlib.Path)
    args = ap.parse_args(argv)
    return report_main("experiments/reliability/report.py", args.spec, "experiments/reliability/chain.toml",
                       lambda df: "\n".join(table(df)) + "\n", args.out,
                       "`ndnlab get` over lossy hops with NDNLPv2 link reliability")


if __name__ == "__main__":
    sys.exit(main())
