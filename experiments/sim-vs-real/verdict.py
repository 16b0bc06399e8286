#!/usr/bin/env python3
"""The sim-vs-real verdict (issue 27 item 5), computed from the stored runs of chain.toml and
dumbbell.toml: per cell, the median goodput of the ns-3 runs and of the emulated runs, their
spread over the seeds, the difference, and whether the emulation kept up. The target: goodput
within 10 % between backends in every cell where the emulation was not CPU-saturated. A cell
whose emulated runs saturated the machine, or whose ns-3 real-time link fell behind, is reported
as such and not judged.

Each cell is judged against ns-3 over a band of link delays, the nominal one +-100 us (the
emulated link's delay uncertainty; docs/decisions/0007): within 10 % when the emulated median lies
between 0.9 x the band's lowest ns-3 goodput and 1.1 x its highest. The band's ns-3 runs are the
campaigns band-chain.toml and band-dumbbell.toml. The comparison at the nominal delay alone is
reported beside it.

Usage: verdict.py [--out FILE.md] [--json FILE.json] [SPEC.toml ...]
Writes the table (Markdown) to --out (default: stdout). Exit 0, or 1 when a spec's store lacks
runs of either backend.
"""
import argparse
import json
import math
import pathlib
import re
import statistics
import sys

from ndnlab.data import load

HERE = pathlib.Path(__file__).resolve().parent
TOLERANCE = 0.10  # the issue's: goodput within 10 %
METRIC = "goodput_mbps"
RTT = "rtt_avg_ms"
DECREASES = "loss_decreases"  # the consumer's window decreases on loss (not in the dumbbell's metrics)
RETX = "retransmissions"
BAND_S = 100e-6  # the band's half-width: one emulated link's delay uncertainty (decisions/0007)
# each two-backend spec, its ns-3 band spec and the delay parameter the band varies
BANDS = {"chain.toml": ("band-chain.toml", "Delay"),
         "dumbbell.toml": ("band-dumbbell.toml", "BottleneckDelay")}
_UNIT_S = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def cells(df, spec):
    """{cell label: {backend: [rows]}} over the parameters the spec varies."""
    varying = [p for p in spec.varying_params()]
    out = {}
    for _, row in df.iterrows():
        label = ", ".join(f"{p}={row[p]}" for p in varying) or spec.scenario
        out.setdefault(label, {}).setdefault(row["backend"], []).append(row)
    return out


def seconds(text):
    """A parameter's time ("10ms", "9925us") in seconds."""
    m = re.fullmatch(r"([0-9.]+)\s*(s|ms|us|ns)", str(text).strip())
    if not m:
        raise ValueError(f"not a time: {text!r}")
    return float(m[1]) * _UNIT_S[m[2]]


def band_goodputs(band_df, params, delay_param, row):
    """The goodputs of the ns-3 runs in band_df with row's parameters but for the delay, which
    lies within BAND_S of row's."""
    nominal = seconds(row[delay_param])
    same = [p for p in params if p != delay_param]
    return [float(b[METRIC]) for _, b in band_df.iterrows()
            if all(str(b[p]) == str(row[p]) for p in same)
            and abs(seconds(b[delay_param]) - nominal) <= BAND_S + 1e-12]


def pct(x):
    return "-" if math.isnan(x) else f"{x:+.1%}"


def ratio(rows, *metrics):
    """The emulated median over the simulated one, minus 1, of the product of `metrics` per run
    (NaN when the scenario has no such metric: the dumbbell's RTTs are per flow)."""
    if any(m not in rows["ns3"][0] for m in metrics):
        return float("nan")

    def med(backend):
        return statistics.median(math.prod(float(r[m]) for m in metrics) for r in rows[backend])
    base = med("ns3")
    return med("emu") / base - 1 if base > 0 else float("nan")


def _missing(x):
    return isinstance(x, float) and math.isnan(x)


def median_of(rows, backend, metric):
    """The median of `metric` over `backend`'s runs that have it, or None."""
    values = [float(r[metric]) for r in rows[backend] if metric in r and not _missing(r[metric])]
    return statistics.median(values) if values else None


def judge(rows, store, band):
    """The verdict of one cell: rows {backend: [rows]} at the nominal delay, band the goodputs
    of ns-3 over the delay band (decisions/0007)."""
    ns3 = [float(r[METRIC]) for r in rows.get("ns3", [])]
    emu = [float(r[METRIC]) for r in rows.get("emu", [])]
    if not ns3 or not emu or not band:
        return None
    # what each emulated run recorded about itself (result.json: cpu, saturated, links)
    own = [json.loads((store.run_dir(r["key"]) / "result.json").read_text()) for r in rows["emu"]]
    saturated = any(o["saturated"] for o in own)
    late = any(not o["kept_up"] for o in own)
    m_ns3, m_emu = statistics.median(ns3), statistics.median(emu)
    diff = m_emu / m_ns3 - 1 if m_ns3 > 0 else float("nan")
    # the links lose the same frames in both backends (paired draws), so what is left is timing:
    # the emulated RTT (daemons, taps and tools take real time), and goodput x RTT, the mean
    # data in flight, which a loss-limited window sets whatever the RTT
    rtt = ratio(rows, RTT)
    window = ratio(rows, METRIC, RTT)
    cpu = max(o["cpu"]["mean_busy_percent"] for o in own)
    # how long the emulation's processes waited for a CPU, per Data fetched: latency the
    # network they stand for does not have (runs from before this was measured have none)
    waits = [1e3 * o["cpu"]["run_queue_wait_s"] / r["data_received"] for o, r in zip(own, rows["emu"])
             if "run_queue_wait_s" in o["cpu"] and float(r.get("data_received", 0) or 0) > 0]
    policies = sorted({o.get("scheduling", {}).get("policy", "normal") for o in own})
    # what the calibration took off the ns-3 real-time links' delay (docs/emulation.md; runs
    # from before it have no latency_offset_s)
    offsets = [lk["latency_offset_s"] for o in own if o.get("link_calibration")
               for lk in o["links"] if "latency_offset_s" in lk]
    # a lossless transfer that is mostly slow start turns on how many times the first queue
    # overflow cuts the window: when the backends' counts differ, that is the difference
    dec = (median_of(rows, "ns3", DECREASES), median_of(rows, "emu", DECREASES))
    lo, hi = min(band), max(band)
    at_point = abs(diff) <= TOLERANCE
    in_band = (1 - TOLERANCE) * lo <= m_emu <= (1 + TOLERANCE) * hi
    why = ""
    if None not in dec and dec[0] != dec[1]:
        why = f"; window decreases differ ({dec[0]:g} in ns-3, {dec[1]:g} in emu)"
    if saturated:
        verdict = "saturated: not judged"
    elif late:
        verdict = "link fell behind: not judged"
    elif at_point:
        verdict = "within 10 %"
    elif in_band:
        # beyond at the nominal delay, within what ns-3 gives over the emulation's delay
        # uncertainty: a knife-edge outcome (decisions/0007)
        verdict = f"within 10 % of the band, not at the nominal delay{why}"
    elif abs(window) <= TOLERANCE:
        # the goodput differs, the window does not: the longer emulated RTT is the difference
        verdict = "differs by more than 10 %; the RTT accounts for it"
    elif why:
        verdict = f"differs by more than 10 %{why}"
    elif min(emu) <= max(ns3) and min(ns3) <= max(emu):
        # a few seeds of a cell with random loss: the medians differ, the outcomes do not
        # separate (docs/results/emulation.md, "The 1 %-loss 10 ms cells")
        verdict = "differs by more than 10 %, spreads overlap"
    else:
        verdict = "differs by more than 10 %"
    return {"ns3_median": m_ns3, "ns3_min": min(ns3), "ns3_max": max(ns3), "n_ns3": len(ns3),
            "emu_median": m_emu, "emu_min": min(emu), "emu_max": max(emu), "n_emu": len(emu),
            "difference": diff, "rtt_difference": rtt, "window_difference": window,
            "ns3_decreases_median": dec[0], "emu_decreases_median": dec[1],
            "ns3_band_median": statistics.median(band), "ns3_band_min": lo, "ns3_band_max": hi,
            "n_ns3_band": len(band), "within_at_nominal_delay": at_point, "within_band": in_band,
            "ns3_retransmissions_median": median_of(rows, "ns3", RETX),
            "emu_retransmissions_median": median_of(rows, "emu", RETX),
            "saturated": saturated, "link_fell_behind": late,
            "emu_cpu_max_mean_busy_percent": cpu,
            "emu_cpu_wait_ms_per_data": statistics.median(waits) if waits else None,
            "emu_scheduling": policies,
            "emu_latency_offset_us": [1e6 * min(offsets), 1e6 * max(offsets)] if offsets else None,
            "verdict": verdict}


def fmt_pair(v, name):
    """`ns-3 / emu` of the medians v[ns3_NAME_median] and v[emu_NAME_median], or `-`."""
    a, b = v[f"ns3_{name}_median"], v[f"emu_{name}_median"]
    return "-" if a is None or b is None else f"{a:g} / {b:g}"


def fmt_wait(x):
    return "-" if x is None else f"{x:.3f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("specs", nargs="*", type=pathlib.Path,
                    default=[HERE / "chain.toml", HERE / "dumbbell.toml"])
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--json", type=pathlib.Path)
    args = ap.parse_args(argv)
    lines = ["<!-- generated by experiments/sim-vs-real/verdict.py from the stored runs; "
             "do not edit -->", "",
             f"Goodput ({METRIC}, Mbit/s): median over the seeds [min-max], ns-3 and ndnlab emu, "
             f"same parameters. Target: within {TOLERANCE:.0%} where the emulation was not "
             f"saturated, judged against ns-3 over the nominal link delay +-{BAND_S * 1e6:.0f} us "
             "(the band column; docs/decisions/0007).", ""]
    verdicts, missing = {}, False
    for path in args.specs:
        df, spec, store = load(path)
        band_spec, delay_param = BANDS[path.name]
        band_df = load(path.parent / band_spec)[0]
        band_df = band_df[band_df["backend"] == "ns3"]
        params = df.attrs.get("params", [])
        lines += [f"## {spec.name} ({spec.scenario}, seeds {', '.join(map(str, spec.seeds))})", "",
                  f"| cell | ns-3 | ns-3 over {delay_param} +-{BAND_S * 1e6:.0f} us | emu "
                  "| emu vs ns-3 | RTT emu vs ns-3 | goodput x RTT emu vs ns-3 "
                  "| window decreases ns-3 / emu | retransmissions ns-3 / emu "
                  "| emu CPU busy (highest run mean) | emu CPU wait per Data (ms) | verdict |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for label, rows in cells(df, spec).items():
            first = next(iter(rows.values()))[0]
            v = judge(rows, store, band_goodputs(band_df, params, delay_param, first))
            if v is None:
                missing = True
                lines.append(f"| {label} | | | | | | | | | | | missing runs |")
                continue
            verdicts[f"{spec.name}: {label}"] = v
            lines.append(
                f"| {label} | {v['ns3_median']:.2f} [{v['ns3_min']:.2f}-{v['ns3_max']:.2f}] "
                f"| {v['ns3_band_median']:.2f} [{v['ns3_band_min']:.2f}-{v['ns3_band_max']:.2f}] "
                f"| {v['emu_median']:.2f} [{v['emu_min']:.2f}-{v['emu_max']:.2f}] "
                f"| {v['difference']:+.1%} | {pct(v['rtt_difference'])} | {pct(v['window_difference'])} "
                f"| {fmt_pair(v, 'decreases')} | {fmt_pair(v, 'retransmissions')} | {v['emu_cpu_max_mean_busy_percent']:.0f} % "
                f"| {fmt_wait(v['emu_cpu_wait_ms_per_data'])} | {v['verdict']} |")
        lines.append("")
    judged = [v for v in verdicts.values() if not v["saturated"] and not v["link_fell_behind"]]
    in_band = sum(1 for v in judged if v["within_band"])
    at_point = sum(1 for v in judged if v["within_at_nominal_delay"])
    overlap = sum(1 for v in judged if v["verdict"].endswith("spreads overlap"))
    by_rtt = sum(1 for v in judged if v["verdict"].endswith("the RTT accounts for it"))
    by_decreases = sum(1 for v in judged
                       if not v["within_band"] and "window decreases differ" in v["verdict"])
    band_only = [v for v in judged if v["within_band"] and not v["within_at_nominal_delay"]]
    lines.append(f"**{in_band} of {len(judged)} judged cells within {TOLERANCE:.0%} of ns-3 over "
                 f"the delay band** ({at_point} of {len(judged)} at the nominal delay alone); "
                 f"{len(verdicts) - len(judged)} of {len(verdicts)} not judged (saturated or a "
                 "real-time link behind).")
    lines += ["", "The links lose the same frames in both backends (paired loss draws, "
              "docs/emulation.md). RTT: median `rtt_avg_ms`; goodput x RTT: the median of each "
              "run's product, the data in flight, which a loss-limited window sets whatever the RTT. "
              "Window decreases and retransmissions: the medians of the consumer's `loss_decreases` "
              "and `retransmissions`. The band: every ns-3 run of the cell at the nominal delay "
              f"and 8 more, -{BAND_S * 1e6:.0f} to +{BAND_S * 1e6:.0f} us in steps of 25 us, "
              "median [min-max]; one emulated link's delay is known to about that "
              "(docs/decisions/0007)."]
    policies = sorted({p for v in verdicts.values() for p in v["emu_scheduling"]})
    lines += ["", "Scheduling of the emulation's daemons, tools and link processes (result.json "
              f"`scheduling`): {', '.join({'rr': 'SCHED_RR (real time)'}.get(p, p) for p in policies)}. "
              "CPU wait per Data: the time the emulation's processes spent runnable but waiting for a "
              "core (`cpu.run_queue_wait_s`, summed over their threads) over the Data fetched, median over "
              "the seeds: latency the emulated network does not have."]
    offsets = [x for v in verdicts.values() if v["emu_latency_offset_us"] for x in v["emu_latency_offset_us"]]
    if offsets:
        lines += ["", f"Calibrated links (docs/emulation.md): each ns-3 real-time link took what its "
                  f"process adds to a frame by itself, measured before the run, off its modelled "
                  f"delay: {min(offsets):.0f}-{max(offsets):.0f} us (`links[].latency_offset_s`)."]
    if band_only:
        lines += ["", f"Beyond {TOLERANCE:.0%} at the nominal delay but within {TOLERANCE:.0%} of "
                  f"ns-3 over the band: {len(band_only)} cell(s). Their outcome turns over within "
                  "the emulated links' delay uncertainty, in ns-3 too (the band's spread; "
                  "docs/results/emulation.md)."]
    if by_rtt:
        lines += ["", f"{by_rtt} of the cells beyond {TOLERANCE:.0%} have goodput x RTT within "
                  f"{TOLERANCE:.0%}: the same windows over a longer emulated RTT (daemons, taps "
                  "and tools take real time that the simulator counts as zero)."]
    if by_decreases:
        lines += ["", f"{by_decreases} of the cells beyond {TOLERANCE:.0%} took a different median "
                  "number of window decreases in the two backends: a transfer that is mostly slow "
                  "start ends on whether the first queue overflow costs one decrease or two, an "
                  "outcome real timing flips and the simulator always decides the same way "
                  "(docs/results/emulation.md)."]
    if overlap:
        lines += ["", f"{overlap} of the cells beyond {TOLERANCE:.0%} have overlapping spreads: "
                  "their seeds do not separate the backends. There the outcome turns on one "
                  "event (the first queue overflow; with random loss, where the first losses of "
                  "slow start fall), and 3 seeds are 3 samples of a two-mode distribution "
                  "(docs/results/emulation.md)."]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    if args.json:
        args.json.write_text(json.dumps(verdicts, indent=2) + "\n")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
