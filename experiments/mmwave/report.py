#!/usr/bin/env python3
"""The mmICWSN study's report (issue 30 items 5 and 6), from the runs study.py stored: the paper's
figures beside ours with verdicts computed two-sided by ndnlab.repro, the beyond-the-paper
target (ICN goodput >= 90 % of iperf3 TCP's in the same run), and figures like the paper's
Fig. 4 (a)-(f).

Usage: report.py [--results DIR] [--out FILE.md] [--json FILE.json] [--figures DIR]
Exit 0; 1 when a claim has no runs.
"""
import argparse
import json
import math
import pathlib
import statistics
import sys

import pandas as pd

from ndnlab import repro
from ndnlab.paper.mmicwsn import CLAIMS, PAPER

HERE = pathlib.Path(__file__).resolve().parent
COMMAND = "experiments/mmwave/run (report.py)"
TARGET = 0.90  # issue 30 item 6: ICN goodput at least 90 % of iperf3 TCP's, same run

def interval_mean(values):
    values = [v for v in values if v is not None]
    return statistics.fmean(values) if values else math.nan


def row_of(record):
    """One run's figures under flat keys."""
    length = record.get("perf_length", 1370)
    faces = record["faces"] if length == 1370 else f"{record['faces']}, {length} B Data"
    row = {"profile": record["profile"], "faces": faces, "seed": record["seed"]}
    tcp = record.get("iperf3_tcp", {}).get("client", {})
    row["tcp_mbps"] = interval_mean([iv["sum"]["bits_per_second"] / 1e6 for iv in tcp.get("intervals", [])])
    row["tcp_cwnd_mb"] = interval_mean([iv["streams"][0].get("snd_cwnd", 0) / 1e6 for iv in tcp.get("intervals", [])])
    row["tcp_retransmits"] = tcp.get("end", {}).get("sum_sent", {}).get("retransmits")
    row["tcp_rtt_ms"] = (tcp.get("end", {}).get("streams", [{}])[0].get("sender", {}).get("mean_rtt", math.nan)) / 1e3
    udp = record.get("iperf3_udp", {}).get("server", {})
    ivs = udp.get("intervals", [])
    full = [iv["sum"] for iv in ivs if iv["sum"].get("seconds", 0) >= 0.5]  # not the last partial one
    row["udp_mbps"] = interval_mean([s["bits_per_second"] / 1e6 for s in full])
    row["udp_error"] = interval_mean([s["lost_percent"] / 100 for s in full if s.get("packets")])
    row["udp_sent_mbps"] = record.get("iperf3_udp", {}).get("client", {}).get("end", {}).get("sum", {}).get(
        "bits_per_second", math.nan) / 1e6
    m = record["ndnlab_perf"]["metrics"]
    row["icn_mbps"] = interval_mean(m["intervals_mbps"])
    row["icn_goodput_mbps"] = m["goodput_mbps"]
    row["icn_interarrival_us"] = m["interarrival_ave_us"]
    row["icn_jitter_ms"] = m["jitter_ms"]
    row["icn_retransmissions"] = m["retransmissions"]
    row["icn_over_tcp"] = m["goodput_mbps"] / row["tcp_mbps"] if row["tcp_mbps"] else math.nan
    row["icn_cpu_client"] = m.get("cpu_host_percent")
    row["icn_cpu_server"] = m.get("cpu_remote_percent")
    row["cpu_busy_icn"] = record["ndnlab_perf"]["cpu"]["mean_busy_percent"]
    return row


def load(results):
    rows = [row_of(json.loads(p.read_text())) for p in sorted((results / "runs").glob("*.json"))]
    return pd.DataFrame(rows) if rows else None


def sim_goodputs(results):
    """{profile: [ns-3 ndnlab perf goodput (Mbit/s) per seed]} from study.py's ns-3 runs."""
    out = {}
    for path in sorted((results / "sim").glob("*.json")):
        profile = path.stem.rsplit("-s", 1)[0]
        out.setdefault(profile, []).append(json.loads(path.read_text())["metrics"]["goodput_mbps"])
    return out


def beyond_rows(df, sim=None):
    """The target of item 6 per profile and face kind: ndnlab perf's goodput over iperf3 TCP's in
    the same run (median over the seeds), against Cefore's in the paper."""
    sim = sim or {}
    lines = ["| link | NDN faces | iperf3 TCP (Mbit/s) | ndnlab perf (Mbit/s) | ICN / TCP: median [min-max] | "
             "paper (Cefore) ICN / TCP | target >= 90 % | machine busy during perf (%) | client / server CPU (%) "
             "| ns-3 ndnlab perf (Mbit/s) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    verdicts = {}
    for (profile, faces), g in df.groupby(["profile", "faces"], sort=False):
        r = g["icn_over_tcp"]
        med = statistics.median(r)
        paper = PAPER[(profile, "icn_mbps")] / PAPER[(profile, "tcp_mbps")]
        met = "met" if med >= TARGET else "not met"
        # ns-3 ran the default Data size only
        sim_text = f"{statistics.median(sim[profile]):.1f}" if profile in sim and "B Data" not in faces else "-"
        verdicts[f"{profile}/{faces}"] = {"icn_over_tcp_median": med, "min": r.min(), "max": r.max(),
                                          "seeds": sorted(g["seed"]), "verdict": met}
        lines.append(f"| {profile} | {faces} | {statistics.median(g['tcp_mbps']):.1f} | "
                     f"{statistics.median(g['icn_goodput_mbps']):.1f} | {med:.1%} [{r.min():.1%}-{r.max():.1%}] | "
                     f"{paper:.1%} | {met} | {statistics.median(g['cpu_busy_icn']):.0f} | "
                     f"{statistics.median(g['icn_cpu_client']):.0f} / {statistics.median(g['icn_cpu_server']):.0f} | "
                     f"{sim_text} |")
    return lines, verdicts


def side_by_side(df):
    lines = ["| figure | link | paper | ours (median over the seeds; NDN over UDP faces) |", "|---|---|---|---|"]
    names = {"tcp_mbps": "4(a) TCP throughput (Mbit/s)", "tcp_cwnd_mb": "4(b) TCP cwnd (MB)",
             "udp_mbps": "4(c) UDP throughput (Mbit/s)", "udp_error": "4(d) UDP packet error",
             "icn_mbps": "4(e) ICN throughput (Mbit/s)", "icn_interarrival_us": "4(f) ICN jitter, Cefore's (us)"}
    for metric, name in names.items():
        for profile in ("matched", "mismatched"):
            g = df[(df.profile == profile) & (df.faces == "udp")]
            ours = f"{statistics.median(g[metric]):.4g}" if len(g) else "not run"
            lines.append(f"| {name} | {profile} | {PAPER[(profile, metric)]:g} | {ours} |")
    return lines


def figures(results, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 2, figsize=(11, 10))
    panels = [("(a) TCP throughput", "Mbit/s"), ("(b) TCP congestion window", "MB"),
              ("(c) UDP throughput", "Mbit/s"), ("(d) UDP packet error", "probability"),
              ("(e) ICN throughput (ndnlab perf, UDP faces)", "Mbit/s"), ("(f) ICN jitter (Cefore's definition)", "us")]
    for path in sorted((results / "runs").glob("*-udp-s1.json")):
        r = json.loads(path.read_text())
        label = f"{r['profile']} (ours)"
        tcp = r["iperf3_tcp"]["client"].get("intervals", [])
        udp = [iv for iv in r["iperf3_udp"]["server"].get("intervals", [])
               if iv["sum"].get("seconds", 0) >= 0.5]  # not the last, partial one
        icn = r["ndnlab_perf"]["report"].get("intervals", [])
        series = [
            [iv["sum"]["bits_per_second"] / 1e6 for iv in tcp],
            [iv["streams"][0].get("snd_cwnd", 0) / 1e6 for iv in tcp],
            [iv["sum"]["bits_per_second"] / 1e6 for iv in udp],
            [iv["sum"]["lost_percent"] / 100 for iv in udp],
            [iv["sum"]["bits_per_second"] / 1e6 for iv in icn],
            [iv["sum"].get("ndn", {}).get("interarrival_ave_us", math.nan) for iv in icn],
        ]
        for ax, ys in zip(axes.flat, series):
            ax.plot(range(1, len(ys) + 1), ys, label=label)
    for ax, (title, unit) in zip(axes.flat, panels):
        for profile, ls in (("matched", "--"), ("mismatched", ":")):
            key = {"(a)": "tcp_mbps", "(b)": "tcp_cwnd_mb", "(c)": "udp_mbps", "(d)": "udp_error",
                   "(e)": "icn_mbps", "(f)": "icn_interarrival_us"}[title[:3]]
            ax.axhline(PAPER[(profile, key)], linestyle=ls, color="grey", label=f"{profile} (paper's mean)")
        ax.set_title(title)
        ax.set_xlabel("time (s)")
        ax.set_ylabel(unit)
        ax.set_yscale("log" if title[:3] in ("(a)", "(c)", "(e)") else "linear")
    axes.flat[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", type=pathlib.Path, default=HERE / "results")
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--json", type=pathlib.Path)
    ap.add_argument("--figures", type=pathlib.Path, help="write mmwave-fig4.png there")
    args = ap.parse_args(argv)
    df = load(args.results)
    evaluations = repro.evaluate_all(CLAIMS, df)
    lines = [repro.generated_line(COMMAND), "",
             "The paper's Fig. 4 averages beside ours (one emulated network per link profile and seed; "
             f"seeds {sorted(set(df.seed)) if df is not None else []}):", ""]
    if df is not None:
        lines += side_by_side(df) + [""]
    lines += ["Verdicts on the paper's TCP and UDP figures (the network's regime; the paper's ICN figures are "
              "Cefore's, which this study replaces with ndnlab perf below):", ""]
    lines += repro.rows(evaluations) + ["", repro.summary(evaluations), "",
                                        f"CI: {repro.CI_METHOD}.", ""]
    lines += repro.definitions(CLAIMS) + [""]
    notes = [ev.claim for ev in evaluations if ev.claim.note]
    lines += [f"- {c.id}: {c.note}" for c in notes] + [""]
    beyond = {}
    if df is not None:
        rows, beyond = beyond_rows(df, sim_goodputs(args.results))
        lines += ["Beyond the paper (issue 30 item 6): ICN goodput against iperf3 TCP's in the same emulated "
                  "network, target at least 90 %:", ""] + rows + [""]
    text = "\n".join(lines)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    if args.json:
        args.json.write_text(json.dumps({"claims": repro.as_json(evaluations, COMMAND), "beyond": beyond},
                                        indent=2, default=float) + "\n")
    if args.figures and df is not None:
        args.figures.mkdir(parents=True, exist_ok=True)
        figures(args.results, args.figures / "mmwave-fig4.png")
    return 1 if df is None or any(ev.verdict == "not run" for ev in evaluations) else 0


if __name__ == "__main__":
    raise SystemExit(main())
