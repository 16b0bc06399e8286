#!/usr/bin/env python3
"""The tail of each transfer: time from the last Data of a first transmission to the end.

    tail.py SPEC.toml [-o TAIL.md]      (runs with Traces=all: fig1-tail.toml)

With ndnSIM's retransmission timer (RtoBackoffPerTimeout) the segments lost in a transfer's
last RTO time out with no new segment left to give an RTT sample; every timeout doubles the
RTO (up to 64x), so a retransmission lost again waits 0.2 s x 2^k. For every run with a
delays.csv (one row per Data the consumer delivered) this reports:

- tail: the time from the last Data that answered a first transmission to the last Data of the
  transfer (0 when the transfer ended on a first transmission);
- after: how many Data arrived in the tail (all of them retransmitted segments);
- the tail's share of the transfer time, and the goodput.

Then one row per configuration (every parameter but the seed): the mean, median and largest
tail over the seeds, and how many seeds had a tail of at least 1 s.
"""

import pathlib
import statistics
import sys

from ndnlab import data, report
from ndnlab.store import STATUS_OK, open_source

LABELS = {"80211b": "802.11b", "80211n": "802.11n"}
GROUP = ("Standard", "Consumer", "FileSize")


def tail_of(run_dir, node=0):
    """(tail seconds, Data in the tail) of one transfer, from its delays.csv.

    The tail starts at the last Data whose segment was never retransmitted and ends at the last
    Data of the node. A transfer without any first-transmission Data has no defined tail:
    (nan, count)."""
    arrivals = data.delivered(run_dir, node)
    firsts = [t for t, _, retx in arrivals if not retx]
    if not firsts:
        return float("nan"), len(arrivals)
    last_first = firsts[-1]
    return arrivals[-1][0] - last_first, sum(1 for t, _, _ in arrivals if t > last_first)


def build(spec_path):
    store, spec = open_source(spec_path)
    groups = {}
    runs = []
    for r in store.select(spec):
        if r.get("status") != STATUS_OK:
            continue
        run_dir = store.run_dir(r["key"])
        if not (run_dir / "delays.csv").exists():
            continue
        params = {**r["result"].get("parameters", {}), **r["params"]}
        m = r["result"]["metrics"]
        tail, after = tail_of(run_dir)
        key = tuple(str(params.get(p, "")) for p in GROUP)
        groups.setdefault(key, []).append(tail)
        runs.append((key, r.get("seed", params.get("seed", "")), tail, after,
                     m["transfer_time_s"], m["goodput_mbps"]))

    def label(key):
        return [LABELS.get(key[0], key[0]), key[1], key[2]]

    order = {"80211b": 0, "80211n": 1, "aimd": 0, "cubic": 1}

    def sort_key(key):  # file sizes in one unit sort by length first: 10MiB before 100MiB
        return (order.get(key[0], 9), order.get(key[1], 9), len(key[2]), key[2])

    lines = [f"# Transfer tails: {pathlib.Path(spec_path).name}", "",
             "tail = time from the last Data of a first transmission to the last Data of the "
             "transfer; after = Data in the tail (retransmitted segments).", "",
             "| standard | consumer | file | seeds | tail mean (s) | median (s) | largest (s) "
             "| seeds with tail >= 1 s |", "|---|---|---|---|---|---|---|---|"]
    for key in sorted(groups, key=sort_key):
        tails = groups[key]
        lines.append("| " + " | ".join(label(key) + [
            str(len(tails)), f"{statistics.fmean(tails):.2f}", f"{statistics.median(tails):.2f}",
            f"{max(tails):.2f}", str(sum(t >= 1.0 for t in tails))]) + " |")
    lines += ["", "| standard | consumer | file | seed | tail (s) | after | of transfer "
              "| goodput (Mbit/s) |", "|---|---|---|---|---|---|---|---|"]
    runs.sort(key=lambda x: (sort_key(x[0]), int(x[1]) if str(x[1]).isdigit() else 0))
    for key, seed, tail, after, transfer, goodput in runs:
        lines.append("| " + " | ".join(label(key) + [
            str(seed), f"{tail:.2f}", str(after), f"{tail / transfer * 100:.1f}%",
            f"{goodput:.2f}"]) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    return report.spec_script(build, __doc__, "TAIL.md", argv)


if __name__ == "__main__":
    sys.exit(main())
