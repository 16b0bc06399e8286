#!/usr/bin/env python3
"""Where a BLEnD run's time goes, compared with the one-Interest bound of the same link.

    analyze.py SPEC.toml [-o ANALYSIS.md]      (runs with Traces=all: fig7-traces.toml)

For every run with a delays.csv (one row per Data the consumer delivered), against the
one-Interest run of the same link mode (Standard, Addressing, DataMode, Ampdu):

- g: the bound's time per Data (transfer time / segments: the AP pushes back to back);
- excess = transfer time - segments x g: the time the run spends beyond the bound; excess / T
  is exactly 1 - goodput / bound;
- the gaps between consecutive Data arrivals, minus g each, split by length: gaps up to 2g
  (per-frame costs: Interest frames, their ACKs and re-broadcasts, backoff, collisions that
  cost one frame), 2g..10g (short stalls), longer than 10g (idle periods: the channel carries
  no Data for the consumer; with the count of idle periods that ended with a retransmitted
  segment, i.e. the consumer's RTO ended them);
- the start: from the consumer's first Interest to its first Data, and the slow-start time until
  the first second of Data (time above segments x g in the first 1 s of the transfer);
- consumer timeouts, duplicates (Data received - segments - the version-discovery Data: Data for an Interest already
  satisfied, i.e. a retransmission whose original Data was not lost: a premature RTO),
  losses (timeouts - duplicates), PHY receive drops at the consumer (collisions), the frames
  the access point's Wi-Fi MAC queue dropped (broadcast addressing only: Data and
  re-broadcasts the AP was given minus its PHY data transmissions; its 500-packet limit or
  500 ms lifetime), and the decoder's gap-filled Interests (lost bundles, paper Fig. 6).
"""

import csv
import math
import pathlib
import sys

from ndnlab import data, report
from ndnlab import metrics as ndnmetrics
from ndnlab.store import STATUS_OK, open_source

LINK = ("Standard", "Addressing", "DataMode", "Ampdu")
LABELS = {"80211b": "802.11b", "80211n": "802.11n"}


def _phy_drops(run_dir, node=0):
    path = run_dir / "drops.csv"
    if not path.exists():
        return math.nan
    total = 0
    with open(path) as f:
        for r in csv.DictReader(f):
            if int(r["node"]) == node and r["reason"] == "wifi_phy_rx_drop":
                total += int(r["count"])
    return total


def decompose(run_dir, metrics, params, g):
    """The quantities of the module docstring for one run; g = the bound's s per Data."""
    arrivals = data.delivered(run_dir)
    n = metrics["segments"]
    T = metrics["transfer_time_s"]
    start = float(params.get("StartTime", 1.0))
    out = {"segments": n, "T": T, "excess": T - n * g}
    times = [a[0] for a in arrivals]
    out["first_data"] = times[0] - start if times else math.nan
    small = short = idle = 0.0
    idle_count = idle_rtx = 0
    for (t0, _, _), (t1, _, retx) in zip(arrivals, arrivals[1:]):
        gap = t1 - t0
        extra = gap - g
        if gap <= 2 * g:
            small += extra
        elif gap <= 10 * g:
            short += extra
        else:
            idle += extra
            idle_count += 1
            idle_rtx += retx > 0
    out.update(small=small, short=short, idle=idle, idle_count=idle_count, idle_rtx=idle_rtx)
    # slow start: time beyond n x g for the Data of the first second
    first_second = [t for t in times if t - times[0] <= 1.0] if times else []
    out["startup"] = (first_second[-1] - start) - len(first_second) * g if first_second else 0.0
    out["timeouts"] = metrics.get("timeouts", 0)
    out["rtx"] = metrics.get("retransmissions", 0)
    dup = ndnmetrics.duplicate_data(metrics.get("data_received", n + ndnmetrics.discovery_data(params)), n, params)
    out["duplicates"] = dup
    out["losses"] = out["timeouts"] - dup
    out["phy_drops"] = _phy_drops(run_dir)
    bundling = metrics.get("bundling", {}).get("producer", {})
    out["gap_filled"] = bundling.get("interests_gap_filled", 0)
    nodes = metrics.get("nodes", {})
    out["station_frames"] = nodes.get("consumer", {}).get("tx_frames", 0)
    ap = nodes.get("producer", {})
    if params.get("Addressing", "broadcast") == "broadcast" and "phy_tx_data" in ap:
        # Every frame the AP's MAC queue took and did not drop goes on the air once (group
        # addressed: no retry): its own Data, and one re-broadcast per station frame it received.
        out["queue_drops"] = ap["data_out"] + ap["rx_frames"] - ap["phy_tx_data"]
    else:
        out["queue_drops"] = math.nan
    return out


def _link(params):
    return tuple(str(params.get(p, "")) for p in LINK)


def build(spec_path):
    store, spec = open_source(spec_path)
    records = [r for r in store.select(spec) if r.get("status") == STATUS_OK]
    bounds = {}
    for r in records:
        params = {**r["result"].get("parameters", {}), **r["params"]}
        m = r["result"]["metrics"]
        if params.get("Consumer") == "one-interest":
            bounds.setdefault(_link(params), []).append(m["transfer_time_s"] / m["segments"])
    header = ["link", "consumer", "BI", "goodput (Mbit/s)", "of bound", "excess (s)",
              "per-frame (<=2g)", "short stalls (2g..10g)", "idle >10g: s (count, ended by RTx)",
              "slow start (s)", "timeouts", "duplicates (premature RTO)", "losses",
              "PHY rx drops", "AP queue drops", "gap-filled", "station frames"]
    rows = []
    order = {"80211b": 0, "80211n": 1, "aimd": 0, "cubic": 1, "one-interest": 2}
    records.sort(key=lambda r: (order.get(r["params"].get("Standard"), 9),
                                str(r["params"].get("Addressing", "")),
                                order.get(r["params"].get("Consumer"), 9),
                                r["params"].get("BundleInterval", 0)))
    for r in records:
        params = {**r["result"].get("parameters", {}), **r["params"]}
        if params.get("Consumer") == "one-interest":
            continue
        link = _link(params)
        if link not in bounds:
            continue
        g = sum(bounds[link]) / len(bounds[link])
        run_dir = store.run_dir(r["key"])
        if not (run_dir / "delays.csv").exists():
            continue
        m = r["result"]["metrics"]
        d = decompose(run_dir, m, params, g)
        T = d["T"]

        def part(x):
            return f"{x:.2f} ({x / T * 100:.1f}%)"

        label = LABELS.get(str(params.get("Standard")), str(params.get("Standard")))
        if params.get("Addressing", "broadcast") != "broadcast":
            label += ", " + str(params["Addressing"])
        rows.append([label, str(params["Consumer"]), str(params.get("BundleInterval", 0)),
                     f"{m['goodput_mbps']:.2f}", f"{(1 - d['excess'] / T) * 100:.1f}%",
                     part(d["excess"]), part(d["small"]), part(d["short"]),
                     f"{part(d['idle'])} ({d['idle_count']}, {d['idle_rtx']})",
                     f"{d['startup']:.2f}", str(d["timeouts"]), str(d["duplicates"]),
                     str(d["losses"]), str(d["phy_drops"]),
                     "-" if math.isnan(d["queue_drops"]) else str(d["queue_drops"]),
                     str(d["gap_filled"]),
                     str(d["station_frames"])])
    lines = [f"# Time decomposition: {pathlib.Path(spec_path).name}", "",
             "Against the one-Interest run of the same link (g = its time per Data). Percentages "
             "are of the run's transfer time T; excess = T - segments x g, so `of bound` = "
             "1 - excess / T. The three gap classes add up to the excess (up to the time before "
             "the first Data); slow start is the excess within the first second and overlaps "
             "them.", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def main(argv=None):
    return report.spec_script(build, __doc__, "ANALYSIS.md", argv)


if __name__ == "__main__":
    sys.exit(main())
