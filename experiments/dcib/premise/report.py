#!/usr/bin/env python3
"""DCIB's premise (paper Figs. 2-4; issue 31 item 3): the report of experiments/dcib/premise/run.

Reads the stores of regime.toml, rtt.toml and loss.toml in this directory and writes
- a Markdown report: the paper's set-up beside ours, one table per sweep (median over the seeds
  with [min-max], and the rate a window of W bytes per flow allows, 2 W / RTT), and the verdicts
  of ndnlab.paper.dcib.PREMISE_CLAIMS computed by ndnlab.repro;
- the same verdicts as JSON;
- figures: utilisation against the socket buffer, a Fig. 2-like trace (DCI throughput and queue,
  two flows at RTT 2 ms), Fig. 3 (against the RTT) and Fig. 4 (against the loss rate).

Usage: report.py [--out FILE.md] [--json FILE.json] [--figures DIR]
Exit status: 0; 1 when a claim is "not run".
"""
import argparse
import json
import math
import os
import pathlib
import statistics
import sys

from ndnlab import data, repro
from ndnlab.paper import dcib

HERE = pathlib.Path(__file__).resolve().parent
COMMAND = "experiments/dcib/premise/run"
CAMPAIGNS = ("regime", "rtt", "loss")
TCPS = dcib.PREMISE_TCPS
CAPACITY_BPS = 10e9
FLOWS = 2

# What the paper states about the set-up of Figs. 2-4, and what we use (sources in the specs).
SETUP = [
    ("simulator", "ns-3 (Sec. II-A)", "ns-3.37"),
    ("topology", "two DCNs joined by a dedicated 10 Gbps link (Fig. 2a)",
     "one sender and one receiver host per flow, 10 Gbps / 5 us host links, 10 Gbps DCI"),
    ("flows", "two long-lived flows from DCN_A towards DCN_B (Fig. 2)", "2 (every sweep)"),
    ("RTT", "Fig. 2: \"latency 2 ms\", window steps every 2 ms (RTT 2 ms); abstract: RTT 10 ms; "
     "Fig. 3: increasing", "Fig. 2: 2 ms; Fig. 4 and the regime sweep: 10 ms; Fig. 3: 2-40 ms"),
    ("TCP", "NewReno, Cubic, BBR (Figs. 3, 4)", "ns-3 TcpNewReno, TcpCubic, TcpBbr (pacing on)"),
    ("loss", "0-3 % (Fig. 4)", "0, 0.5, 1, 2, 3 % random loss on the DCI (BBR: 0, 1, 3 %)"),
    ("socket buffers", "not stated",
     "swept: 128 KB (ns-3 default), 1, 3 (a default Linux window), 6 MB, 2 BDP (the DCIB scenarios' default; "
     "ndnlab's IV runs: 4 MB for 15 flows at RTT 6 ms)"),
    ("router queue", "not stated; Fig. 2: it fills and drops",
     "1.5 MB (ns-3's 1000-packet FIFO at 1500 B), nearly drop-tail (RED thresholds 0.9/1.0); "
     "1 BDP (ndnlab's IV runs)"),
    ("frame size", "not stated", "1500 B for Fig. 4, 9000 B for the other sweeps (cost); "
     "frame-size check at 0 % loss"),
    ("run length", "Fig. 2c runs past 1.25 s; others not stated",
     "0.8 s, measured over 0.3-0.8 s (Fig. 3: 1.2 s, over 0.6-1.2 s)"),
    ("delayed ACKs, min RTO", "not stated", "every 2nd segment or 40 ms; 200 ms (Linux-like)"),
]


def cell(df, where, metric):
    """Per-seed values of `metric` in the runs of df matching `where`."""
    return list(repro.per_seed(df, where, metric).values())


def stat(values, digits=3, pct=False):
    """`median [min-max]`, as % of the link with pct."""
    if not values:
        return "-"
    k = 100 if pct else 1
    m, lo, hi = statistics.median(values) * k, min(values) * k, max(values) * k
    f = f"{{:.{digits}g}}"
    return f"{f.format(m)} [{f.format(lo)}-{f.format(hi)}]" if lo != hi else f.format(m)


def window_cap(socket_mb, rtt_ms):
    """Share of the link FLOWS windows of socket_mb MB allow at rtt_ms (0 MB: none, 1)."""
    if not socket_mb:
        return 1.0
    return min(1.0, FLOWS * socket_mb * 1e6 * 8 / (rtt_ms * 1e-3) / CAPACITY_BPS)


def sockets_text(mb):
    return {0.131072: "128 KB (ns-3 default)", 3.0: "3 MB (Linux default window)",
            0.0: "2 BDP = 25 MB (scenario default)"}.get(mb, f"{mb:g} MB")


def regime_table(df):
    lines = ["| TCP | socket buffer | router queue | 2 W / RTT | DCI utilisation, % | goodput, Gbps | "
             "host retransmissions | seeds |", "|---|---|---|---|---|---|---|---|"]
    points = [(sb, 0.12) for sb in (0.131072, 1.0, 3.0, 6.0, 0.0)] + [(0.0, 1.0)]
    for tcp in TCPS:
        for sb, buf in points:
            where = {"Tcp": tcp, "SocketBuffer": sb, "BufferBdp": buf}
            u = cell(df, where, "dci_utilization")
            if not u:
                continue
            queue = "1.5 MB" if buf == 0.12 else "1 BDP"
            lines.append(f"| {tcp} | {sockets_text(sb)} | {queue} | {window_cap(sb, 10) * 100:.0f} % | "
                         f"{stat(u, pct=True)} | {stat(cell(df, where, 'goodput_gbps'))} | "
                         f"{stat(cell(df, where, 'host_retransmissions'))} | {len(u)} |")
    return lines


def frame_table(regime, loss):
    lines = ["| TCP | 9000 B (regime.toml) | 1500 B (loss.toml, 0 % loss) |", "|---|---|---|"]
    for tcp in TCPS:
        jumbo = cell(regime, {"Tcp": tcp, **dcib.LINUX_HOSTS}, "dci_utilization")
        small = cell(loss, {"Tcp": tcp, "LossRate": 0.0}, "dci_utilization")
        lines.append(f"| {tcp} | {stat(jumbo, pct=True)} % | {stat(small, pct=True)} % |")
    return lines


def rtt_table(df):
    rtts = sorted({float(r) for r in df["Rtt"]}) if df is not None else []
    lines = ["| TCP | " + " | ".join(f"RTT {r:g} ms" for r in rtts) + " |", "|---" * (len(rtts) + 1) + "|",
             "| 2 W / RTT, W = 3 MB | " + " | ".join(f"{window_cap(3.0, r) * 100:.0f} %" for r in rtts) + " |"]
    for tcp in TCPS:
        lines.append(f"| {tcp} | " + " | ".join(
            f"{stat(cell(df, {'Tcp': tcp, 'Rtt': r}, 'dci_utilization'), pct=True)} %" for r in rtts) + " |")
    return lines


def iv_flows_table(df):
    """15 flows at IV's RTT with 3 MB sockets (iv-flows.toml)."""
    lines = ["| TCP | 15 W / RTT | DCI utilisation, % | goodput, Gbps | host retransmissions | RTO episodes | seeds |",
             "|---|---|---|---|---|---|---|"]
    for tcp in TCPS:
        where = {"Tcp": tcp}
        u = cell(df, where, "dci_utilization")
        if not u:
            continue
        rtt = statistics.median(cell(df, where, "base_rtt_ms"))
        cap = min(1.0, 15 * 3e6 * 8 / (rtt * 1e-3) / CAPACITY_BPS)
        lines.append(f"| {tcp} | {cap * 100:.0f} % | {stat(u, pct=True)} | {stat(cell(df, where, 'goodput_gbps'))} | "
                     f"{stat(cell(df, where, 'host_retransmissions'))} | {stat(cell(df, where, 'host_rto_episodes'))} | "
                     f"{len(u)} |")
    return lines


def mathis_share(p, mss=1448, rtt_s=0.01):
    """Share of the link FLOWS Reno flows get at random loss p (Mathis et al.: 1.22 MSS / (RTT sqrt p))."""
    return FLOWS * 1.22 * mss * 8 / (rtt_s * math.sqrt(p)) / CAPACITY_BPS if p > 0 else math.nan


def loss_table(df):
    rates = sorted({float(r) for r in df["LossRate"]}) if df is not None else []
    lines = ["| TCP | " + " | ".join(f"{r * 100:g} % loss" for r in rates) + " |", "|---" * (len(rates) + 1) + "|",
             "| Mathis, 2 Reno flows | " + " | ".join("-" if r == 0 else f"{mathis_share(r) * 100:.2g} %"
                                                     for r in rates) + " |"]
    for tcp in TCPS:
        lines.append(f"| {tcp} | " + " | ".join(
            (lambda u: f"{stat(u, pct=True)} %" if u else "-")(cell(df, {"Tcp": tcp, "LossRate": r}, "dci_utilization"))
            for r in rates) + " |")
    return lines


def reductions(times, cwnd, after, share=0.0, span=0.005, gap=0.05):
    """Starts (s) of the window's reductions after `after`: the time of the largest window in the
    `span` before a sample that is more than `share` below it (any fall with share 0); then the
    next `gap` is skipped (one reduction: ns-3's proportional rate reduction lowers the window
    over about a round trip)."""
    out, lo, skip_until = [], 0, -math.inf
    for i, (t, w) in enumerate(zip(times, cwnd)):
        while times[lo] < t - span:
            lo += 1
        if t <= after or t < skip_until or i == lo:
            continue
        j = max(range(lo, i), key=lambda k: cwnd[k])
        if w < cwnd[j] * (1 - share) and cwnd[j] > w:
            out.append(times[j])
            skip_until = t + gap
    return out


def fig2_traces(df, store):
    """(TCP, its first run's row, throughput.csv, cwnd.csv) per TCP of fig2.toml whose run kept
    its window trace."""
    import pandas as pd
    for tcp in TCPS:
        rows = df[df["Tcp"] == tcp]
        if rows.empty:
            continue
        run = store.run_dir(rows.iloc[0]["key"])
        if not (run / "cwnd.csv").exists():
            continue
        yield tcp, rows.iloc[0], pd.read_csv(run / "throughput.csv"), pd.read_csv(run / "cwnd.csv")


def fig2_events(df, store):
    """Fig. 2's events per TCP, from fig2.toml's traces: when the queue first fills (>= 95 % of its
    limit), each flow's first window reduction after that, and the later reductions of more
    than 20 % (after 0.2 s: past slow start). Times in ms after 0.1 s, the flows' start."""
    lines = ["| | queue full | first reduction, flow 1 / flow 2 | later reductions > 20 %, flow 1 | flow 2 |",
             "|---|---|---|---|---|",
             "| paper, NewReno (Fig. 2b/2c) | t = 21 ms | not until t > 25 ms | t = 650 ms | t = 1250 ms |",
             "| paper, BBR (Fig. 2d) | t = 15 ms | t = 18 ms / 28 ms | | |"]
    for tcp, run, t, w in fig2_traces(df, store):
        limit = float(run["red_queue_limit_packets"])
        full = t[t["red_queue_packets"] >= 0.95 * limit]["time_s"]
        t_full = float(full.iloc[0]) if len(full) else math.inf
        ms = lambda x: f"{(x - 0.1) * 1e3:.1f} ms" if math.isfinite(x) else "never"  # noqa: E731
        first, later = [], []
        for col in (c for c in w.columns if c.startswith("cwnd_")):
            times, cwnd = list(w["time_s"]), list(w[col])
            r = reductions(times, cwnd, t_full)
            first.append(ms(r[0]) if r else "never")
            big = reductions(times, cwnd, 0.2, 0.2)
            later.append(", ".join(f"{(x - 0.1) * 1e3:.0f}" for x in big[:4]) + (" ms" if big else "none")
                         + (f" (+{len(big) - 4})" if len(big) > 4 else ""))
        lines.append(f"| ours, {tcp} | {ms(t_full)} | {' / '.join(first)} | {later[0]} | "
                     f"{later[1] if len(later) > 1 else ''} |")
    return lines


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def fig_regime(df, out):
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.6))
    sbs = [0.131072, 1.0, 3.0, 6.0, 25.0]
    for tcp, marker in zip(TCPS, "os^"):
        ys = [statistics.median(cell(df, {"Tcp": tcp, "SocketBuffer": 0.0 if sb == 25.0 else sb, "BufferBdp": 0.12},
                                     "dci_utilization") or [math.nan]) * 100 for sb in sbs]
        ax.plot(sbs, ys, marker=marker, label=tcp)
    ax.plot(sbs, [window_cap(sb, 10) * 100 for sb in sbs], "k:", label="2 W / RTT")
    ax.axhline(40, color="grey", lw=0.8, ls="--")
    ax.text(0.14, 42, "paper: 40 %", fontsize=8, color="grey")
    ax.set_xscale("log")
    ax.set_xlabel("socket send/receive buffer W per flow, MB (25 = 2 BDP)")
    ax.set_ylabel("DCI utilisation, %")
    ax.set_title("2 flows, 10 Gbit/s, RTT 10 ms, no loss, 1.5 MB queue", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "premise-regime.png", dpi=110)
    plt.close(fig)


def fig2(df, store, out):
    """Each sender's congestion window and the router queue over time (fig2.toml, RTT 2 ms):
    the whole run, and the first 40 ms after the flows start (the paper's Fig. 2b/2d)."""
    plt = _plt()
    traces = [(tcp, t, w, float(run["Mtu"])) for tcp, run, t, w in fig2_traces(df, store)]
    written = []
    for name, window, title in (("premise-fig2.png", None, "whole run"),
                                ("premise-fig2-start.png", (0.095, 0.15), "slow start")):
        fig, axes = plt.subplots(len(traces), 1, figsize=(7, 2.2 * max(1, len(traces))), sharex=True, squeeze=False)
        for ax, (tcp, t, w, mtu) in zip(axes[:, 0], traces):
            if window:
                t = t[(t["time_s"] >= window[0]) & (t["time_s"] <= window[1])]
                w = w[(w["time_s"] >= window[0]) & (w["time_s"] <= window[1])]
            for i, col in enumerate(c for c in w.columns if c.startswith("cwnd_")):
                ax.plot(w["time_s"], w[col] / 1e6, lw=0.8, color=("C3", "C0")[i % 2], label=f"cwnd flow {i + 1}")
            ax.plot(t["time_s"], t["red_queue_packets"] * mtu / 1e6, lw=0.8, color="grey", label="queue")
            ax.set_ylabel(f"{tcp}\nMB")
        if traces:
            axes[0, 0].legend(fontsize=7, ncol=3)
            axes[0, 0].set_title(f"Fig. 2-like ({title}): 2 flows, 10 Gbit/s, RTT 2 ms, 3 MB sockets, 1.5 MB queue",
                                 fontsize=9)
        axes[-1, 0].set_xlabel("time, s (flows start at 0.1 s)")
        fig.tight_layout()
        fig.savefig(out / name, dpi=110)
        plt.close(fig)
        written.append(name)
    return written


def fig_sweep(df, column, xs, xlabel, title, path, scale=1.0, cap=None):
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for i, (tcp, marker) in enumerate(zip(TCPS, "os^")):
        med = []
        for x in xs:
            v = cell(df, {"Tcp": tcp, column: x}, "dci_utilization")
            ax.scatter([x * scale] * len(v), [u * 100 for u in v], marker=marker, s=12, alpha=0.5, color=f"C{i}")
            med.append(statistics.median(v) * 100 if v else math.nan)
        ax.plot([x * scale for x in xs], med, marker=marker, color=f"C{i}", label=f"{tcp} (median)")
    if cap:
        ax.plot([x * scale for x in xs], [cap(x) * 100 for x in xs], "k:", label="2 W / RTT")
    ax.axhline(40, color="grey", lw=0.8, ls="--")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("DCI utilisation, % (points: seeds)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=pathlib.Path, help="the report (Markdown); stdout without it")
    ap.add_argument("--json", type=pathlib.Path, help="the verdicts as JSON")
    ap.add_argument("--figures", type=pathlib.Path, help="directory for the figures")
    args = ap.parse_args(argv)

    frames = repro.load_campaigns(HERE, CAMPAIGNS)
    evaluations = repro.evaluate_all(dcib.PREMISE_CLAIMS, frames)
    regime, rtt, loss = (frames[c] for c in CAMPAIGNS)

    lines = [repro.generated_line(COMMAND), "", "# DCIB's premise: TCP alone on a 10 Gbit/s interconnect (paper Figs. 2-4)",
             "", f"Paper: {dcib.CITATION}. Specs: `experiments/dcib/premise/{{regime,rtt,loss}}.toml`; "
             "two long-lived flows without DCIB. Utilisation: bytes the source edge router's DCI device sent "
             "in the measurement window over 10 Gbit/s; medians over the seeds, [min-max].", "",
             "## Set-up: the paper's text and ours", "", "| | paper | ours |", "|---|---|---|"]
    lines += [f"| {k} | {p} | {o} |" for k, p, o in SETUP]
    if regime is not None:
        lines += ["", "## Which setting gives the paper's regime (RTT 10 ms, no loss, 9000 B)", "",
                  "2 W / RTT: the share of the link two windows of W bytes allow.", ""] + regime_table(regime)
    if regime is not None and loss is not None:
        lines += ["", "## Frame size (3 MB sockets, 1.5 MB queue, RTT 10 ms, no loss): DCI utilisation", ""]
        lines += frame_table(regime, loss)
    fig2_runs = repro.load_campaigns(HERE, ["fig2"])["fig2"]
    if fig2_runs is not None:
        _, _, fig2_store = data.load(str(HERE / "fig2.toml"))
        lines += ["", "## Fig. 2: two flows at RTT 2 ms (3 MB sockets, 1.5 MB queue, 9000 B, one seed)", "",
                  "The paper's times are from its simulation's start (not stated); ours from 0.1 s, when the flows "
                  "start (within 10 ms).", ""] + fig2_events(fig2_runs, fig2_store)
    if rtt is not None:
        lines += ["", "## Fig. 3: against the RTT (3 MB sockets, 1.5 MB queue, 9000 B): DCI utilisation", ""]
        lines += rtt_table(rtt)
    if loss is not None:
        lines += ["", "## Fig. 4: against random DCI loss (3 MB sockets, RTT 10 ms, 1500 B): DCI utilisation", ""]
        lines += loss_table(loss)
    iv = repro.load_campaigns(HERE, ["iv-flows"])["iv-flows"]
    if iv is not None:
        lines += ["", "## Section IV's 15 flows with the same hosts (3 MB sockets, RTT 6.02 ms, 1-BDP queue, 9000 B, "
                  "no loss)", "", "Not a claim of the paper: what the IV-B rerun starts from (iv-flows.toml).", ""]
        lines += iv_flows_table(iv)
    lines += ["", "## Verdicts", ""] + repro.rows(evaluations) + [
        "", repro.summary(evaluations), "",
        f"Verdicts: two-sided, on the median over the seeds (ndnlab.repro); CI: {repro.CI_METHOD}.", "",
        "The paper's definition of each metric:", ""] + repro.definitions(dcib.PREMISE_CLAIMS)
    notes = [c for c in dcib.PREMISE_CLAIMS if c.note]
    lines += ["", "Notes:", ""] + [f"- {c.id}: {c.note}" for c in notes]
    if args.figures:
        args.figures.mkdir(parents=True, exist_ok=True)
        written = []
        if regime is not None:
            fig_regime(regime, args.figures)
            written.append("premise-regime.png")
        if rtt is not None:
            rtts = sorted({float(r) for r in rtt["Rtt"]})
            fig_sweep(rtt, "Rtt", rtts, "end-to-end RTT, ms",
                      "Fig. 3-like: 2 flows, 10 Gbit/s, 3 MB sockets, 1.5 MB queue, no loss",
                      args.figures / "premise-fig3.png", cap=lambda r: window_cap(3.0, r))
            written.append("premise-fig3.png")
        if fig2_runs is not None:
            written += fig2(fig2_runs, fig2_store, args.figures)
        if loss is not None:
            rates = sorted({float(r) for r in loss["LossRate"]})
            fig_sweep(loss, "LossRate", rates, "random loss on the DCI, %",
                      "Fig. 4-like: 2 flows, 10 Gbit/s, RTT 10 ms, 3 MB sockets, 1500 B",
                      args.figures / "premise-fig4.png", scale=100)
            written.append("premise-fig4.png")
        rel = os.path.relpath(args.figures, args.out.parent if args.out else pathlib.Path.cwd())
        lines += ["", "## Figures", ""] + [f"![{w}]({rel}/{w})" for w in written]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    if args.json:
        args.json.write_text(json.dumps(repro.as_json(evaluations, COMMAND), indent=2) + "\n")
    return 1 if any(ev.verdict == "not run" for ev in evaluations) else 0


if __name__ == "__main__":
    sys.exit(main())
