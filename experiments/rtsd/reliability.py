#!/usr/bin/env python3
"""NDN-RTC's stream over lossy links with and without NDNLPv2 link reliability
(docs/mechanisms/reliability.md), from the stored runs of reliability.toml: per payload, loss and
recovery configuration (the paper's, ndnlab's), the rendered share, frames lost, stalls, the
first frame and the latency, and the link layer's work (frames sent again, packets given up,
duplicate frames received), median [min-max] over the seeds.

Usage: reliability.py [--spec FILE.toml] [--out FILE.md]    (docs/results/rtsd-reliability.md; always printed)
  reliability.py --spec experiments/rtsd/reliability-emu.toml --out docs/results/rtsd-reliability-emu.md
  (the same runs on real daemons, ndnlab emu; runs made before the daemons reported the link
  layer's counters have none, and then the table has no such columns)
Exit 0, or 1 when the spec has no runs.
"""
import argparse
import pathlib
import sys

from ndnlab import repro
from ndnlab.data import report_main
from ndnlab.paper import rtsd

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from report import cell, count_cell, seed_list, with_rendered_share  # noqa: E402

RELIABILITY = "ns3::ndnlab::NdnStack::LpReliability"
STREAM_KEYS = (("stream.rendered_share", "rendered share", cell), ("stream.frames_lost", "lost", count_cell),
               ("stream.stalls", "stalls", count_cell), ("stream.first_frame_ms", "first frame (ms)", cell),
               ("stream.latency_median_ms", "latency median (ms)", cell),
               ("stream.latency_p95_ms", "latency p95 (ms)", cell),
               ("stream.retransmissions", "Interest retx", count_cell))
NODES = ("cp1", "r", "cp2")
# the link layer, summed over the three nodes
LP_KEYS = (("lp_retx_frames", "frames sent again"), ("lp_given_up", "packets given up"),
           ("lp_duplicates", "duplicate frames"))


def has_lp_counters(df):
    """Whether the runs report the link layer's counters (ns-3's do; ndnlab emu's since
    ndnlabd's faces/list carries them, 2026-11-28)."""
    return any(f"nodes.{n}.{k}" in df for n in NODES for k, _ in LP_KEYS)


def rows(df):
    lp_keys = LP_KEYS if has_lp_counters(df) else ()
    head = ([label for _, label, _ in STREAM_KEYS] + [label for _, label in lp_keys])
    lines = ["| payload (B) | loss | configuration | link reliability | " + " | ".join(head) + " |",
             "|---|---|---|---|" + "---|" * len(head)]
    for payload in rtsd.FIG23_PAYLOADS:
        for loss in rtsd.RECOVERY_LOSSES:
            for tag, config in rtsd.RECOVERY_TABLE_CONFIGS[:2]:  # these runs predate catch-up
                for on in (False, True):
                    where = {"PayloadSize": payload, "Loss": loss, **config, RELIABILITY: on}
                    defaults = rtsd.RECOVERY_DEFAULTS
                    cells = [fmt(list(repro.per_seed(df, where, m, defaults).values())) for m, _, fmt in STREAM_KEYS]
                    cells += [count_cell(list(repro.node_sum(df, where, NODES, k, defaults).values())) if on else "-"
                              for k, _ in lp_keys]
                    lines.append(f"| {payload} | {loss:g} | {tag} | {'on' if on else 'off'} | "
                                 + " | ".join(cells) + " |")
    return lines


def section(df, source="experiments/rtsd/reliability.toml"):
    emulated = "backend" in df and (df["backend"] == "emu").all()
    where = (" on real daemons (ndnlab emu: three ndnlabd in network namespaces, the links simulated by ns-3 "
             "in real time)" if emulated else "")
    lines = [f"## NDN-RTC's stream with NDNLPv2 link reliability{' on real daemons' if emulated else ''}", "",
             f"Runs: {source}{where} (recovery.toml's set-up: rtsd-star, both links 10 Mbit/s, "
             "25 ms, each frame lost with the given probability both ways; CP1 publishes 1000 kbit/s at 30 frames/s "
             "for 20 s with 20 % parity, CP2 plays from 1 s; the paper's recovery or ndnlab's, Recovery = repeat "
             "and ResidualLoss = 0.001), with link reliability off and on at every node "
             f"(`--{RELIABILITY}=true`: max-retx 3, idle Acks after 5 ms; seeds {seed_list(df)}). "
             "Rendered share: frames rendered over the 570 frames from the key frame the consumer joins at; "
             "Interest retx: the consumer's segment retransmissions"
             + ("; the last three columns summed over the three nodes" if has_lp_counters(df) else "")
             + ". Median [min-max]:", ""]
    return lines + rows(df)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", type=pathlib.Path, default=HERE / "reliability.toml")
    ap.add_argument("--out", type=pathlib.Path)
    args = ap.parse_args(argv)
    source = f"experiments/rtsd/{args.spec.name}"
    prog = "experiments/rtsd/reliability.py" + (f" --spec {source}" if args.spec.name != "reliability.toml" else "")
    return report_main(prog, args.spec, source,
                       lambda df: "\n".join(section(with_rendered_share(df), source)).replace("## ", "# ", 1) + "\n",
                       args.out)


if __name__ == "__main__":
    sys.exit(main())
