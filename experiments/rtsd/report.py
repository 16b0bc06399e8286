#!/usr/bin/env python3
"""NDN-RTC Tables 1-2 and Figs. 19, 21-25 in ns-3 (issue 29 items 4, 5(a)-(d)), computed from the
stored runs of table1.toml, fig19.toml, fig21.toml, fig22.toml (and fig22-timing.toml), fig23.toml,
fig25.toml, abr.toml,
fit.toml, near-capacity.toml, startup.toml, recovery.toml, bundling.toml and mircc.toml: the paper's Table 1
beside ours (median
[min-max] over the seeds), the faces and consumers of the Fig. 18 tests, the chasing period
against link latency, loss recovery, D_arr and DRD' over the bootstrapping (from each run's
stream-arrivals.csv), Table 2's utilisation and Fig. 25's throughput per second
(stream-series.csv), the increment probe, the start-up and loss-recovery runs, and the stream
over a Wi-Fi hop with and without BLEnD bundling (item 5(d), also alone with --bundling FILE),
and the bitrate from MIRCC's explicit rate beside the probing consumer (item 5(e), mircc.toml);
beside them, when stored, the same from the runs on real daemons (table1-emu.toml, fig19-emu.toml,
fig21-emu.toml, fig22-emu.toml, fig23-emu.toml, fig25-emu.toml, near-capacity-emu.toml,
recovery-emu.toml, startup-emu.toml); with --figures the plots rtsd-fig21.png, rtsd-fig22.png and rtsd-fig25.png
(and rtsd-fig21-emu.png, rtsd-fig25-emu.png from the real daemons' runs);
the paper's claims (ndnlab.paper.rtsd.CLAIMS, and EMU_CLAIMS on the real daemons' runs) and items
5(a)-(c)'s targets (ABR_CLAIMS, NEAR_CAPACITY_CLAIMS, STARTUP_CLAIMS, RECOVERY_CLAIMS) judged two-sided by ndnlab.repro.

Usage: report.py [--specs DIR] [--out FILE.md] [--json FILE.json] [--figures DIR] [--bundling FILE.md]
       report.py --bundling-only [--bundling FILE.md]   # item 5(d)'s section alone
Exit 0, or 1 when a claim has no runs.
"""
import argparse
import csv
import json
import math
import pathlib
import statistics

from ndnlab import repro
from ndnlab.paper import rtsd

HERE = pathlib.Path(__file__).resolve().parent
COMMAND = ("sudo experiments/rtsd/run --emu (its step experiments/rtsd/report.py, from the stored runs of "
           "table1.toml, fig19.toml, fig21.toml, fig22.toml, fig22-timing.toml, fig23.toml, fig25.toml, abr.toml, "
           "fit.toml, near-capacity.toml, startup.toml, "
           "recovery.toml, bundling.toml, mircc.toml, "
           "table1-emu.toml, fig19-emu.toml, fig21-emu.toml, fig22-emu.toml, fig23-emu.toml, fig25-emu.toml, "
           "near-capacity-emu.toml, recovery-emu.toml and startup-emu.toml; "
           "without --emu and "
           "root, the same report "
           "but the real-daemon tables)")
# what else the runs say about each row, beside Table 1's columns
EXTRA = (("stream.first_frame_ms", "first frame (ms)"), ("stream.frames_rendered", "frames rendered"),
         ("stream.frames_lost", "frames lost"), ("stream.stalls", "stalls"),
         ("stream.latency_median_ms", "latency median (ms)"))


def save_figure(fig, figures, name):
    """Writes `fig` to figures/name and closes it; the report's line that links it."""
    import matplotlib.pyplot as plt
    fig.tight_layout()
    figures.mkdir(parents=True, exist_ok=True)
    fig.savefig(figures / name, dpi=90)
    plt.close(fig)
    return ["", f"Plot: [{name}]({name})."]


cell = repro.median_cell  # `median [min-max]` of the seeds' values, or `-`


def read_csv(path):
    """The rows of a run's trace file as dicts, or [] when the run wrote none."""
    if not path.exists():
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def arrivals_metrics(rows, drd_final_ms):
    """Fig. 21's metrics of one run from its stream-arrivals.csv (one row per frame arrival the
    stability estimator saw): trace.darr_sd_ratio (the standard deviation of D_arr over the
    arrivals in Chasing over that in Fetching), trace.darr_median_fetching_ms, and
    trace.drd_chasing_over_final (DRD' at the last arrival in Chasing over the resulting DRD')."""
    darr = {"chasing": [], "fetching": []}
    drd_chasing = math.nan
    for r in rows:
        d = float(r["d_arr_ms"])
        if r["state"] == "chasing":
            drd_chasing = float(r["drd_ms"])
        if d >= 0 and r["state"] in darr:
            darr[r["state"]].append(d)
    out = {}
    if len(darr["chasing"]) > 1 and len(darr["fetching"]) > 1:
        sd_f = statistics.pstdev(darr["fetching"])
        out["trace.darr_sd_ratio"] = statistics.pstdev(darr["chasing"]) / sd_f if sd_f > 0 else math.inf
    if darr["fetching"]:
        out["trace.darr_median_fetching_ms"] = statistics.median(darr["fetching"])
    if drd_final_ms and drd_final_ms > 0 and math.isfinite(drd_chasing):
        out["trace.drd_chasing_over_final"] = drd_chasing / drd_final_ms
    return out


def series_metrics(rows, stream_s, consumer_start_s):
    """Fig. 25's metrics of one run from its stream-series.csv (one row per second of the
    consumer's run): trace.first_challenge_s (the start of the first second with additional
    media), trace.switch_up_s (the start of the first second that ended on the middle thread,
    1000k), trace.final_thread_kbps (the thread played at the end), trace.late_link_kbps (mean
    link kbit/s over the seconds from 30 s to the end of the stream), and the mean payload and
    link kbit/s over the seconds that ended in Challenge or in Fetching
    (trace.<state>_<payload|link>_kbps)."""
    out = {}
    if not rows:
        return out
    first = [float(r["time_s"]) - 1 for r in rows if float(r["challenge_kbps"]) > 0]
    if first:
        out["trace.first_challenge_s"] = first[0]
    up = [float(r["time_s"]) - 1 for r in rows if r["thread"] == "1000k"]
    if up:
        out["trace.switch_up_s"] = up[0]
    thread = rows[-1]["thread"]
    if thread.endswith("k"):
        out["trace.final_thread_kbps"] = float(thread[:-1])
    end = stream_s - consumer_start_s
    late = [float(r["link_kbps"]) for r in rows if 30 < float(r["time_s"]) <= end]
    if late:
        out["trace.late_link_kbps"] = statistics.mean(late)
    for state in ("challenge", "fetching"):
        for col in ("payload", "link"):
            vs = [float(r[f"{col}_kbps"]) for r in rows if r["state"] == state and float(r["time_s"]) <= end]
            if vs:
                out[f"trace.{state}_{col}_kbps"] = statistics.mean(vs)
    if out.get("trace.fetching_payload_kbps"):
        out["trace.link_over_payload"] = out["trace.fetching_link_kbps"] / out["trace.fetching_payload_kbps"]
    return out


def param(row, name, default):
    """A run's numeric parameter, or the scenario's default when the run did not record it."""
    v = row.get(name)
    try:
        v = float(v)
    except (TypeError, ValueError):
        return default
    return default if math.isnan(v) else v


def with_traces(spec_dir, name):
    """(DataFrame, store) of spec_dir/name.toml with the trace.* metrics of each run added, or
    (None, None) when it has no runs."""
    from ndnlab.data import UsageError, load
    try:
        df, _, store = load(str(spec_dir / f"{name}.toml"))
    except (UsageError, OSError):
        return None, None
    if df is None or not len(df):
        return None, None
    df = df.copy()
    for i, row in df.iterrows():
        run = store.run_dir(row["key"])
        m = arrivals_metrics(read_csv(run / "stream-arrivals.csv"), row.get("stream.drd_final_ms"))
        m.update(series_metrics(read_csv(run / "stream-series.csv"), param(row, "StreamTime", 20.0),
                                param(row, "ConsumerStart", 1.0)))
        for k, v in m.items():
            df.loc[i, k] = v
    return df, store


def joined_frames(row):
    """The frames of a run's stream from the key frame its consumer joins at (the latest at its
    start) to the end: StreamTime x Fps - floor(ConsumerStart x Fps / Gop) x Gop."""
    fps, gop = param(row, "Fps", 30.0), param(row, "Gop", 30.0)
    total = math.ceil(param(row, "StreamTime", 20.0) * fps)
    return total - math.floor(param(row, "ConsumerStart", 1.0) * fps / gop) * gop


def with_rendered_share(df):
    """df with stream.rendered_share (frames rendered over joined_frames) per run; None stays."""
    if df is None:
        return None
    df = df.copy()
    for i, row in df.iterrows():
        df.loc[i, "stream.rendered_share"] = row["stream.frames_rendered"] / joined_frames(row)
    return df


def emu_section(sim, emu):
    """Table 1's runs on real daemons (table1-emu.toml, `ndnlab emu`) beside the simulated ones:
    the same parameters and seeds, medians [min-max]; no claims are judged on them."""
    if emu is None:
        return ["", "## Table 1 on real daemons", "",
                "Not run here: `sudo experiments/rtsd/run --emu` adds table1-emu.toml (ndnlab emu)."]
    lines = ["", "## Table 1 on real daemons", "",
             f"table1-emu.toml: the runs of table1.toml through `ndnlab emu` (three ndnlabd in network namespaces, "
             f"`ndnlab stream publish` and `play`, the links simulated by ns-3 in real time; seeds "
             f"{seed_list(emu)}), beside the simulated runs: median [min-max].", "",
             "| lambda_p^0 | " + " | ".join(f"{name} ns-3 | emu" for name, *_ in rtsd.COLUMNS) + " |",
             "|---|" + "---|---|" * len(rtsd.COLUMNS)]
    for lam in rtsd.LAMBDA0:
        where = {"InitialPipeline": lam}
        cells = []
        for _, metric, *_ in rtsd.COLUMNS:
            for frame in (sim, emu):
                vs = list(repro.per_seed(frame, where, metric).values())
                cells.append(cell(vs))
        lines.append(f"| {lam} | " + " | ".join(cells) + " |")
    return lines


def fig19_section(df, emu=None):
    """The faces' Mbit/s before and after the event, and the consumers' stalls and losses; with
    `emu` (fig19-emu.toml), the runs on real daemons in rows of their own."""
    backends = [("ns-3", df)] + ([("emu", emu)] if emu is not None else [])
    lines = ["", "## Fig. 19: a second consumer, and failover (rtsd-scale)", "",
             "Runs: fig19.toml (scenario rtsd-scale, 10 Mbit/s and 10 ms links, one 1000 kbit/s stream at 30 "
             "frames/s for 30 s; the second consumer starts, or R1 dies, at 15 s; seeds "
             f"{seed_list(df)})"
             + (", and the same runs on real daemons (fig19-emu.toml, `ndnlab emu`: four ndnlabd in network "
                "namespaces, R1 isolated at 15 s; seeds " + seed_list(emu)
                + "; the emulated faces count Ethernet frames, 42 bytes of headers more per packet)"
                if emu is not None else "")
             + ". Median [min-max]; a face's `before` is the mean Mbit/s "
             "from 3 s after the first consumer started to the event, `after` from 5 s after the event to the "
             "end:", "",
             "| test | face | backend | before (Mbit/s) | after (Mbit/s) | after / before |", "|---|---|---|---|---|---|"]
    for test, faces in (("consumers", ("face1", "face2")), ("failover", ("r1", "r2"))):
        for face in faces:
            for name, frame in backends:
                cells = []
                for m in ("before_mbps", "after_mbps", "after_over_before"):
                    vs = list(repro.per_seed(frame, {"Test": test}, f"faces.{face}.{m}").values())
                    cells.append(cell(vs))
                lines.append(f"| {test} | {face} | {name} | " + " | ".join(cells) + " |")
    lines += ["", "| test | consumer | backend | frames rendered | frames lost | stalls | stall (ms) |",
              "|---|---|---|---|---|---|---|"]
    for test, consumers in (("consumers", ("stream", "stream2")), ("failover", ("stream",))):
        for c in consumers:
            for name, frame in backends:
                cells = []
                for m in ("frames_rendered", "frames_lost", "stalls", "stall_ms"):
                    vs = list(repro.per_seed(frame, {"Test": test}, f"{c}.{m}").values())
                    cells.append(cell(vs))
                lines.append(f"| {test} | {c} | {name} | " + " | ".join(cells) + " |")
    return lines


def fig22_rows(df):
    """Fig. 22's table rows from `df` (one backend's runs) and {(delay, set): median}."""
    rows, medians = [], {}
    for d in rtsd.FIG22_DELAYS:
        cells = []
        for st in rtsd.FIG22_SETS:
            vs = list(repro.per_seed(df, {"Delay": d, "Stability": st}, "stream.chasing_ms").values())
            if vs:
                medians[(d, st)] = statistics.median(vs)
            cells.append(cell(vs))
        rows.append(f"| {d} | " + " | ".join(cells) + " |")
    return rows, medians


def seed_list(df):
    """`1, 2, 3`: the seeds of a campaign's runs, or `none` without runs."""
    if df is None or not len(df):
        return "none"
    return ", ".join(str(int(s)) for s in sorted(df["seed"].unique()))


def fig22_section(df, figures, emu=None, timing=None):
    """The chasing period per link delay and estimator set (median [min-max]), and the plot;
    with `emu` (fig22-emu.toml), the same table from the runs on real daemons; with `timing`
    (fig22-timing.toml), from ns-3 with each received frame held 0-500 us."""
    lines = ["", "## Fig. 22: chasing period against link latency", "",
             "Runs: fig22.toml (rtsd-star, both links 10 Mbit/s with the delay below, RTT = 4 x delay, one "
             "1000 kbit/s stream at 30 frames/s for 20 s, lambda_p^0 from Eq. (1); seeds "
             f"{seed_list(df)}). The paper's figure lost its values in the stored text; "
             "its sentences are judged below as directions. Chasing period (ms), median [min-max]:", "",
             "| link delay | " + " | ".join(rtsd.FIG22_SETS) + " |", "|---|" + "---|" * len(rtsd.FIG22_SETS)]
    rows, medians = fig22_rows(df)
    lines += rows
    if emu is not None:
        lines += ["", "The same runs on real daemons (fig22-emu.toml, `ndnlab emu`: three ndnlabd in network namespaces, "
                  f"the links simulated by ns-3 in real time; seeds {seed_list(emu)}); chasing period (ms), median "
                  "[min-max]:", "",
                  "| link delay | " + " | ".join(rtsd.FIG22_SETS) + " |", "|---|" + "---|" * len(rtsd.FIG22_SETS)]
        lines += fig22_rows(emu)[0]
    if timing is not None and len(timing):
        lines += ["", "ns-3 again, every node holding each received frame 0-500 us (uniform) before its "
                  "forwarder sees it, as a real daemon's kernel and event loop do (fig22-timing.toml, "
                  "`--ns3::ndnlab::NetDeviceTransport::ReceiveDelay`; seeds "
                  f"{seed_list(timing)}); chasing period (ms), median [min-max]:", "",
                  "| link delay | " + " | ".join(rtsd.FIG22_SETS) + " |", "|---|" + "---|" * len(rtsd.FIG22_SETS)]
        lines += fig22_rows(timing)[0]
    if figures and medians:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        for st, marker in zip(rtsd.FIG22_SETS, ("o", "s", "^")):
            pts = [(float(d[:-2]), medians[(d, st)]) for d in rtsd.FIG22_DELAYS if (d, st) in medians]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, label=st)
        ax.set_xlabel("link delay (ms; RTT = 4 x delay)")
        ax.set_ylabel("chasing period (ms)")
        ax.set_title("rtsd-star in ns-3: chasing period per estimator set (Fig. 22)", fontsize=9)
        ax.legend()
        lines += save_figure(fig, figures, "rtsd-fig22.png")
    return lines


STATE_COLOURS = {"chasing": "#f2d7d5", "adjust": "#fdebd0", "fetching": "#ffffff", "challenge": "#d6eaf8"}


FIG21_KEYS = (("stream.chasing_ms", "chasing (ms)"), ("stream.backoff_ms", "back-off (ms)"),
              ("stream.lambda_final", "lambda_p^final"), ("stream.drd_final_ms", "resulting DRD' (ms)"),
              ("trace.darr_sd_ratio", "sd D_arr chasing / fetching"),
              ("trace.darr_median_fetching_ms", "median D_arr fetching (ms)"),
              ("trace.drd_chasing_over_final", "DRD' end of chasing / resulting"))


def fig21_rows(df):
    """Fig. 21's table, header included, from `df` (one backend's runs)."""
    lines = ["| lambda_p^0 | " + " | ".join(label for _, label in FIG21_KEYS) + " |",
             "|---|" + "---|" * len(FIG21_KEYS)]
    for lam in (30, 0):
        cells = [cell(list(repro.per_seed(df, {"InitialPipeline": lam}, metric).values())) for metric, _ in FIG21_KEYS]
        lines.append(f"| {lam} | " + " | ".join(cells) + " |")
    return lines


def fig21_plot(df, store, figures, backend, name):
    """D_arr and DRD' of the first seed's run from lambda_p^0 = 30 and from Eq. (1), the states
    shaded; the report's line that links the plot."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    seed = min(int(s) for s in df["seed"].unique())
    fig, axes = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for ax, lam in zip(axes, (30, 0)):
        rows = df[(df["InitialPipeline"] == lam) & (df["seed"] == seed)]
        if not len(rows):
            continue
        arr = read_csv(store.run_dir(rows.iloc[0]["key"]) / "stream-arrivals.csv")
        if not arr:
            continue
        t = [float(r["time_ms"]) / 1000 for r in arr]
        # the state of each stretch as a band, chasing and adjust shaded (the paper's white areas)
        start = 0
        for i in range(1, len(arr) + 1):
            if i == len(arr) or arr[i]["state"] != arr[start]["state"]:
                end = t[i] if i < len(arr) else t[-1]
                ax.axvspan(t[start], end, color=STATE_COLOURS.get(arr[start]["state"], "#ffffff"), lw=0)
                start = i
        darr = [(x, float(r["d_arr_ms"])) for x, r in zip(t, arr) if float(r["d_arr_ms"]) >= 0]
        ax.plot([p[0] for p in darr], [p[1] for p in darr], ".", ms=3, label="D_arr (ms)")
        ax.plot(t, [float(r["drd_ms"]) for r in arr], "-", label="DRD' (ms)")
        ax.axhline(1000 / 30, color="grey", ls=":", lw=1, label="T = 33.3 ms")
        ax.set_yscale("log")
        ax.set_ylabel("ms")
        ax.set_title(f"lambda_p^0 = {lam or 'Eq. (1)'}, seed {seed}: chasing (red), adjust (orange), "
                     "fetching (white)", fontsize=8)
        ax.legend(fontsize=7, loc="upper right")
    axes[-1].set_xlabel("time since the consumer started (s)")
    fig.suptitle(f"rtsd-star {backend}: D_arr and DRD' during bootstrapping (Fig. 21)", fontsize=9)
    return save_figure(fig, figures, name)


def fig21_section(df, store, figures, emu=None, emu_store=None):
    """D_arr and DRD' over the bootstrapping (fig21.toml): the per-run summary metrics and the
    plot of one run from lambda_p^0 = 30 (the paper's Test Run #1) and one from Eq. (1); with
    `emu` (fig21-emu.toml), the same table and plot from the runs on real daemons."""
    lines = ["", "## Fig. 21: D_arr and DRD' during bootstrapping", "",
             "Runs: fig21.toml (table1.toml's set-up, the consumer's frame arrivals traced: StreamTrace, "
             f"stream-arrivals.csv; seeds {seed_list(df)}); lambda_p^0 = 30 is the paper's "
             "Test Run #1, 0 the pipeline of Eq. (1) (4). D_arr is the time between two frame arrivals the "
             "stability estimator sees; DRD' the mean of the DRD' window at each arrival. Median [min-max]:", ""]
    lines += fig21_rows(df)
    if figures and df is not None:
        lines += fig21_plot(df, store, figures, "in ns-3", "rtsd-fig21.png")
    if emu is not None:
        lines += ["", "The same runs on real daemons (fig21-emu.toml, `ndnlab emu`: three ndnlabd in network namespaces, "
                  "the links simulated by ns-3 in real time, the player's arrivals written by `ndnlab stream play "
                  f"--trace-dir`; seeds {seed_list(emu)}). Median [min-max]:", ""]
        lines += fig21_rows(emu)
        if figures:
            lines += fig21_plot(emu, emu_store, figures, "on real daemons (ndnlab emu)", "rtsd-fig21-emu.png")
    return lines


FIG25_KEYS = (("l2_utilization", "L2 utilisation"), ("stream.throughput_mbps", "payload Mbit/s"),
              ("stream.challenges", "Challenges"), ("stream.bitrate_switches", "switches"),
              ("trace.final_thread_kbps", "thread at the end (kbit/s)"), ("stream.stalls", "stalls"),
              ("stream.stall_ms", "stall (ms)"), ("stream.frames_lost", "frames lost"),
              ("stream.frames_rendered", "frames rendered"))
FIG25_MOMENTS = ("trace.first_challenge_s", "trace.switch_up_s", "trace.late_link_kbps", "trace.challenge_payload_kbps",
                 "trace.challenge_link_kbps", "trace.fetching_payload_kbps", "trace.fetching_link_kbps")


def table2_rows(df):
    """Table 2's rows, header included, from `df` (one backend's runs): per RTT the paper's
    utilisation and ours with FIG25_KEYS."""
    lines = ["| RTT (ms) | paper | " + " | ".join(label for _, label in FIG25_KEYS) + " |",
             "|---|---|" + "---|" * len(FIG25_KEYS)]
    for rtt, delay in rtsd.TABLE2_DELAYS.items():
        cells = [cell(list(repro.per_seed(df, {"Delay": delay}, metric).values())) for metric, _ in FIG25_KEYS]
        lines.append(f"| {rtt} | {rtsd.TABLE2[rtt]:.1%} | " + " | ".join(cells) + " |")
    return lines


def fig25_moments(df, link):
    """Fig. 25's moments at 0 ms from `df`, header included, and the sentence on what `link`
    (L2 as that backend counts it) carries beside the payload."""
    lines = ["| first Challenge (s) | on 1000k from (s) | L2 kbit/s from 30 s | kbit/s in Challenges: payload "
             "| L2 | kbit/s in Fetching: payload | L2 |", "|---|---|---|---|---|---|---|"]
    cells = [cell(list(repro.per_seed(df, {"Delay": "0ms"}, metric).values())) for metric in FIG25_MOMENTS]
    lines.append("| " + " | ".join(cells) + " |")
    ratio = list(repro.per_seed(df, {"Delay": "0ms"}, "trace.link_over_payload").values())
    if ratio:
        r = statistics.median(ratio)
        lines += ["", f"In Fetching, L2 carries {repro.fmt(r)} [{repro.fmt(min(ratio))}-{repro.fmt(max(ratio))}] times "
                  f"the segment payload ({link}): at that ratio "
                  f"the 3000 kbit/s thread with 20 % parity needs {3000 * 1.2 * r:.0f} kbit/s of L2, the 1000 kbit/s "
                  f"thread {1000 * 1.2 * r:.0f}, and 1000 + 3000 kbit/s in a Challenge {4000 * 1.2 * r:.0f}."]
    return lines


def series_panel(ax, frame, st, where, title):
    """One run's stream-series.csv (the first seed's of `where` in `frame`) on `ax`: L2's kbit/s,
    the payload of the current and the additional media, the states shaded."""
    sel = frame
    for k, v in where.items():
        sel = sel[sel[k] == v]
    sel = sel[sel["seed"] == sel["seed"].min()]
    if not len(sel):
        return
    rows = read_csv(st.run_dir(sel.iloc[0]["key"]) / "stream-series.csv")
    t = [float(r["time_s"]) for r in rows]
    for r, x in zip(rows, t):
        ax.axvspan(x - 1, x, color=STATE_COLOURS.get(r["state"], "#ffffff"), lw=0)
    ax.plot(t, [float(r["link_kbps"]) for r in rows], "-", label="L2 toward CP2 (kbit/s)")
    ax.plot(t, [float(r["payload_kbps"]) - float(r["challenge_kbps"]) for r in rows], "-",
            label="payload, current media")
    ax.plot(t, [float(r["challenge_kbps"]) for r in rows], "-", label="payload, additional media")
    ax.axhline(4000, color="grey", ls=":", lw=1)
    ax.set_ylabel("kbit/s")
    ax.set_title(f"{title}, seed {int(sel.iloc[0]['seed'])}: Challenge blue, chasing red, adjust orange", fontsize=8)
    ax.legend(fontsize=7, loc="center right")


def fig25_section(df, store, abr, abr_store, figures, emu=None, emu_store=None):
    """Table 2 (utilisation per RTT) and Fig. 25 (throughput per second at 0 ms), from
    fig25.toml, and the increment probe beside the paper's Challenge (abr.toml); with `emu`
    (fig25-emu.toml), Table 2 and Fig. 25's moments from the runs on real daemons and their plot."""
    keys = FIG25_KEYS
    lines = ["", "## Table 2 and Fig. 25: adaptive bitrate over a 4000 kbit/s bottleneck", "",
             "Runs: fig25.toml (rtsd-star, L1 10 Mbit/s, L2 4 Mbit/s, both links with the one-way delay RTT / 4; "
             "threads of 200, 1000 and 3000 kbit/s at 30 frames/s for 60 s, 20 % FEC, 1000-byte segments; the "
             "consumer from 1 s on the lowest, Adaptive, the paper's Challenge; seeds "
             f"{seed_list(df)}). Utilisation: octets L2 carried toward CP2 per second of the "
             "consumer's run over 4 Mbit/s. Median [min-max]:", ""]
    lines += table2_rows(df)
    lines += ["", "Fig. 25's moments at 0 ms (seconds since the consumer started, to the second; median [min-max]):",
              ""]
    lines += fig25_moments(df, "names, signatures, segment headers, NDNLPv2 and PPP framing")
    if emu is not None:
        lines += ["", "The same runs on real daemons (fig25-emu.toml, `ndnlab emu`: three ndnlabd in network namespaces, "
                  "the links simulated by ns-3 in real time, at 0 ms shaped by the kernel's tbf; the per-second series "
                  "written by `ndnlab stream play --trace-dir`; seeds "
                  f"{seed_list(emu)}). Utilisation and the series' L2 kbit/s count Ethernet frames, 12 bytes per "
                  "frame more than ns-3's point-to-point frames; utilisation: R's octets toward CP2, the series: "
                  "the octets CP2's end of L2 received each second. Median [min-max]:", ""]
        lines += table2_rows(emu)
        lines += ["", "Fig. 25's moments at 0 ms on real daemons:", ""]
        lines += fig25_moments(emu, "names, signatures, segment headers, NDNLPv2, UDP, IPv4 and Ethernet framing")
    if abr is not None:
        lines += ["", "### Beyond the paper: the increment probe (issue 29 item 5(a))", "",
                  "Runs: abr.toml (fig25.toml's set-up for ChallengeProbe = full, the paper's Challenge and the named "
                  "baseline, and increment; seeds "
                  f"{', '.join(str(int(s)) for s in sorted(abr['seed'].unique()))}). Median [min-max]:", "",
                  "| RTT (ms) | probe | " + " | ".join(label for _, label in keys) + " |",
                  "|---|---|" + "---|" * len(keys)]
        for rtt, delay in rtsd.TABLE2_DELAYS.items():
            for probe in ("full", "increment"):
                cells = []
                for metric, _ in keys:
                    vs = list(repro.per_seed(abr, {"Delay": delay, "ChallengeProbe": probe}, metric).values())
                    cells.append(cell(vs))
                lines.append(f"| {rtt} | {probe} | " + " | ".join(cells) + " |")
    if figures and df is not None:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
        series_panel(axes[0], df, store, {"Delay": "0ms"}, "paper's Challenge (fig25.toml), RTT 0 ms")
        if abr is not None:
            series_panel(axes[1], abr, abr_store, {"Delay": "0ms", "ChallengeProbe": "increment"},
                         "increment probe (abr.toml), RTT 0 ms")
        axes[-1].set_xlabel("time since the consumer started (s)")
        fig.suptitle("rtsd-star in ns-3: throughput per second over a 4000 kbit/s L2 (Fig. 25)", fontsize=9)
        lines += save_figure(fig, figures, "rtsd-fig25.png")
    if figures and emu is not None:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 3.4))
        series_panel(ax, emu, emu_store, {"Delay": "0ms"}, "paper's Challenge (fig25-emu.toml), RTT 0 ms")
        ax.set_xlabel("time since the consumer started (s)")
        fig.suptitle("rtsd-star on real daemons (ndnlab emu): throughput per second over a 4000 kbit/s L2 (Fig. 25)",
                     fontsize=9)
        lines += save_figure(fig, figures, "rtsd-fig25-emu.png")
    return lines


def startup_section(table1, df, emu=None):
    """Start-up (issue 29 item 5(b)): lambda_p^final, the chasing period, the first frame and the
    device-queue drops at CP2 per lambda_p^0, with the scenario's 100-packet queues (table1.toml)
    and with 1000-packet ones (startup.toml), chase-at-demand off and on, and on with early
    playout."""
    keys = (("stream.lambda_final", "lambda_p^final"), ("stream.chasing_ms", "chasing (ms)"),
            ("stream.first_frame_ms", "first frame (ms)"), ("stream.stalls", "stalls"),
            ("stream.latency_median_ms", "latency median (ms)"), ("nodes.cp2.queue_drops", "CP2 queue drops"))
    lines = ["", "## Start-up (issue 29 item 5(b))", "",
             "Runs: table1.toml (100-packet device queues) and startup.toml (the same with 1000-packet queues, "
             "ChaseAtDemand off and on, and on with EarlyPlayout: rendering from Chasing on once a fresh frame "
             "came; seeds " f"{seed_list(df)}). Median [min-max]:", "",
             "| lambda_p^0 | queue | consumer | " + " | ".join(label for _, label in keys) + " |",
             "|---|---|---|" + "---|" * len(keys)]
    for lam in rtsd.LAMBDA0:
        rows = [("100p", table1, "the paper's chasing", {"InitialPipeline": lam})]
        rows += [("1000p", df, tag, {"InitialPipeline": lam, **config}) for tag, config in rtsd.STARTUP_CONFIGS]
        for queue, frame, tag, where in rows:
            cells = []
            for metric, _ in keys:
                vs = list(repro.per_seed(frame, where, metric, rtsd.STARTUP_DEFAULTS).values())
                cells.append(cell(vs))
            lines.append(f"| {lam} | {queue} | {tag} | " + " | ".join(cells) + " |")
    if emu is not None:
        lines += ["", "Chase-at-demand with early playout on real daemons (startup-emu.toml, `ndnlab emu`: three "
                  "ndnlabd in network namespaces, the links simulated by ns-3 in real time with 1000-packet queues; "
                  f"seeds {seed_list(emu)}). Median [min-max]:", "",
                  "| lambda_p^0 | " + " | ".join(label for _, label in keys) + " |", "|---|" + "---|" * len(keys)]
        for lam in rtsd.LAMBDA0:
            cells = [cell(list(repro.per_seed(emu, {"InitialPipeline": lam}, m).values())) for m, _ in keys]
            lines.append(f"| {lam} | " + " | ".join(cells) + " |")
    return lines


def fit_section(df):
    """Each thread alone over the 4000 kbit/s L2 (fit.toml, Adaptive off): the bound on any
    consumer that only switches threads (issue 29 item 5(a))."""
    if df is None:
        return []
    keys = (("l2_utilization", "L2 utilisation"), ("stream.frames_rendered", "frames rendered"),
            ("stream.frames_lost", "frames lost"), ("stream.stalls", "stalls"))
    lines = ["", "Each thread alone (fit.toml: fig25.toml's set-up, Adaptive off, the consumer on one thread from the "
             f"start; seeds {seed_list(df)}), median [min-max]:", "",
             "| RTT (ms) | thread | " + " | ".join(label for _, label in keys) + " |", "|---|---|" + "---|" * len(keys)]
    for rtt, delay in rtsd.TABLE2_DELAYS.items():
        for thread in ("1000k", "3000k"):
            cells = [cell(list(repro.per_seed(df, {"Delay": delay, "Thread": thread}, m).values())) for m, _ in keys]
            lines.append(f"| {rtt} | {thread} | " + " | ".join(cells) + " |")
    return lines


NEAR_KEYS = (("l2_utilization", "L2 utilisation"), ("stream.stalls", "stalls"), ("stream.frames_lost", "frames lost"),
             ("stream.frames_rendered", "frames rendered"), ("stream.first_frame_ms", "first frame (ms)"),
             ("stream.latency_median_ms", "median latency (ms)"), ("stream.bitrate_switches", "switches"))
NEAR_CONFIGS = (
    ("the paper's configuration (fig25.toml's threads and runs)", "4000", rtsd.NEAR_PAPER),
    ("2600k alone, the paper's playout target", "4000", {"Thread": "2600k", "Adaptive": False, "SpreadRoom": False}),
    ("2600k alone, spread-room", "4000",
     {"Thread": "2600k", "Adaptive": False, "SpreadRoom": True, "ChaseAtDemand": False}),
    ("2600k alone, spread-room and 5(b)'s start-up", "4000",
     {"Thread": "2600k", "Adaptive": False, "SpreadRoom": True, "ChaseAtDemand": True}),
    ("adaptive from the lowest thread", "4000", {"Rate": rtsd.NEAR_L2, "Thread": "", "Adaptive": True,
                                                 "Bitrates": "200k,1000k,2600k"}),
    ("adaptive from the highest thread", "4000", rtsd.NEAR_OURS),
    ("adaptive from the lowest thread", "2000", {"Rate": "10Mbps,2Mbps", "Thread": "", "Adaptive": True}),
    ("adaptive from the highest thread", "2000", {"Rate": "10Mbps,2Mbps", "Thread": "2600k", "Adaptive": True}))
NEAR_EMU_CONFIGS = (("2600k alone, the paper's playout target", "4000", {"Adaptive": False}),
                    ("adaptive from the highest thread, 2500k", "4000", {"Adaptive": True}))


def near_capacity_section(df, emu=None):
    """Item 5(a) with a thread that fits L2 (near-capacity.toml; near-capacity-emu.toml on real
    daemons when stored): median [min-max] per configuration and RTT."""
    if df is None:
        return []
    lines = ["", "## Item 5(a) with a thread that fits: near-capacity.toml", "",
             "Runs: near-capacity.toml (fig25.toml's set-up with threads of 200, 1000 and 2600 kbit/s and "
             "1000-packet queues; the paper's configuration is fig25.toml's runs; every consumer but the paper's "
             "with the increment probe where it adapts, and spread-room, chase-at-demand and early playout where "
             f"named; seeds {seed_list(df)}), median [min-max]:", ""]

    def table(frame, configs):
        out = ["| configuration | L2 (kbit/s) | RTT (ms) | " + " | ".join(label for _, label in NEAR_KEYS) + " |",
               "|---|---|---|" + "---|" * len(NEAR_KEYS)]
        for name, l2, where in configs:
            for rtt, delay in rtsd.TABLE2_DELAYS.items():
                cells = [cell(list(repro.per_seed(frame, {"Delay": delay, **where}, m,
                                                  defaults=rtsd.NEAR_DEFAULTS).values())) for m, _ in NEAR_KEYS]
                out.append(f"| {name} | {l2} | {rtt} | " + " | ".join(cells) + " |")
        return out
    lines += table(df, NEAR_CONFIGS)
    if emu is not None:
        lines += ["", "On real daemons (near-capacity-emu.toml: `ndnlab emu`, 1000-packet queues on the ns-3 "
                  f"real-time links; seeds {seed_list(emu)}; the adaptive consumer's threads are 200, 1000 and 2500 "
                  "kbit/s, since each Data there also carries UDP/IP and Ethernet headers; the paper's configuration "
                  "there is fig25-emu.toml's runs):", ""]
        lines += table(emu, NEAR_EMU_CONFIGS)
    return lines


FIG23_KEYS = (("stream.frames_requested", "requested"), ("stream.frames_rendered", "rendered"),
              ("stream.frames_fec", "FEC"), ("stream.frames_rtx", "RTX"), ("stream.frames_lost", "lost"),
              ("stream.first_frame_ms", "first frame (ms)"))


def fig23_rows(df):
    """Figs. 23-24's table rows from `df` (one backend's runs)."""
    rows = []
    for loss in rtsd.FIG23_LOSSES:
        for payload in rtsd.FIG23_PAYLOADS:
            cells = []
            for metric, _ in FIG23_KEYS:
                vs = list(repro.per_seed(df, {"Loss": loss, "PayloadSize": payload}, metric).values())
                cells.append(cell(vs))
            rows.append(f"| {loss:g} | {payload} | " + " | ".join(cells) + " |")
    return rows


def fig23_section(df, emu=None):
    """Frames rendered, requested, recovered by FEC and by retransmission, and lost, per link
    loss and payload size (median [min-max]); with `emu` (fig23-emu.toml), the same table from
    the runs on real daemons."""
    keys = FIG23_KEYS
    lines = ["", "## Figs. 23-24: loss recovery for 1000- and 8000-byte payloads", "",
             "Runs: fig23.toml (rtsd-star, 10 Mbit/s and 25 ms per link, each link losing the given share of "
             "frames both ways, one 1000 kbit/s stream at 30 frames/s for 20 s with 20 % parity; seeds "
             f"{seed_list(df)}). The paper's figures lost their values in the stored text. "
             "Frames, median [min-max]:", "",
             "| loss | payload (B) | " + " | ".join(label for _, label in keys) + " |",
             "|---|---|" + "---|" * len(keys)]
    lines += fig23_rows(df)
    if emu is not None:
        lines += ["", "The same runs on real daemons (fig23-emu.toml, `ndnlab emu`: the links' losses drawn by ns-3 in "
                  f"real time from the simulator's streams; seeds {seed_list(emu)}). Frames, median [min-max]:", "",
                  "| loss | payload (B) | " + " | ".join(label for _, label in keys) + " |",
                  "|---|---|" + "---|" * len(keys)]
        lines += fig23_rows(emu)
    return lines


RECOVERY_KEYS = (("stream.rendered_share", "rendered share"), ("stream.frames_rendered", "rendered"),
                 ("stream.frames_fec", "FEC"), ("stream.frames_rtx", "RTX"), ("stream.frames_lost", "lost"),
                 ("stream.stalls", "stalls"), ("stream.first_frame_ms", "first frame (ms)"),
                 ("stream.latency_median_ms", "latency median (ms)"), ("stream.retransmissions", "retransmissions"))


def recovery_rows(df):
    lines = ["| payload (B) | loss | configuration | " + " | ".join(label for _, label in RECOVERY_KEYS) + " |",
             "|---|---|---|" + "---|" * len(RECOVERY_KEYS)]
    for payload in rtsd.FIG23_PAYLOADS:
        for loss in rtsd.RECOVERY_LOSSES:
            for tag, config in rtsd.RECOVERY_TABLE_CONFIGS:
                where = {"PayloadSize": payload, "Loss": loss, **config}
                cells = [cell(list(repro.per_seed(df, where, m, rtsd.RECOVERY_DEFAULTS).values()))
                         for m, _ in RECOVERY_KEYS]
                lines.append(f"| {payload} | {loss:g} | {tag} | " + " | ".join(cells) + " |")
    return lines


def recovery_section(df, emu=None):
    """Item 5(c): the paper's configuration and ndnlab's recovery per payload and loss (median
    [min-max]); with `emu` (recovery-emu.toml), the same table from the runs on real daemons."""
    lines = ["", "## Item 5(c): loss recovery beyond the paper", "",
             "Runs: recovery.toml (fig23.toml's set-up at loss 0.05 and 0.1; the paper's configuration: Recovery = "
             "checkpoint, one retransmission gamma x DRD_est before the deadline, and the paper's playout target; "
             "ndnlab's: Recovery = repeat, each missing segment asked again every DRD_est + T/2 until playout "
             "passes its frame, ResidualLoss = 0.001, a playout target with room for the rounds the measured "
             "loss needs, the metadata Interest re-issued after 250 ms, up to 20 times, and CatchUp = 4000 ms, "
             "playback from the key frame joined at when the start-up took longer than a GOP, caught up at twice "
             "the sample rate (the row without catch-up: the same but CatchUp = 0, playback from the newest "
             "complete key frame); seeds "
             f"{seed_list(df)}). Rendered share: "
             "frames rendered over the 570 frames from the key frame the consumer joins at. Median [min-max]:", ""]
    lines += recovery_rows(df)
    if emu is None:
        lines += ["", "On real daemons: not run here (`sudo experiments/rtsd/run --emu` adds recovery-emu.toml)."]
    else:
        lines += ["", "The same runs on real daemons (recovery-emu.toml, `ndnlab emu`: three ndnlabd in network "
                  "namespaces, the links simulated by ns-3 in real time with the same loss draws; seeds "
                  f"{seed_list(emu)}). Median [min-max]:", ""]
        lines += recovery_rows(emu)
    return lines


BUNDLING_STANDARDS = ("80211b", "80211n")
BUNDLING_ADDRESSING = ("broadcast", "unicast")
BUNDLING_LOSSES = (0, 0.05)
BUNDLING_BI = (0, 15)
BUNDLING_KEYS = (("stream.rendered_share", "rendered share"), ("stream.frames_rendered", "rendered"),
                 ("stream.first_frame_ms", "first frame (ms)"), ("stream.latency_median_ms", "latency median (ms)"),
                 ("stream.drd_est_ms", "DRD_est (ms)"), ("stream.lambda_final", "lambda_p^final"),
                 ("stream.stalls", "stalls"), ("stream.retransmissions", "retransmissions"),
                 ("nodes.consumer.tx_frames", "station NDN frames"),
                 ("bundling.consumer.interests_absorbed", "Interests absorbed"))
# the columns that count (whole numbers, written as such)
BUNDLING_COUNTS = {"stream.frames_rendered", "stream.lambda_final", "stream.stalls", "stream.retransmissions",
                   "nodes.consumer.tx_frames", "bundling.consumer.interests_absorbed"}
BUNDLING_COMMAND = ("experiments/rtsd/report.py --bundling docs/results/rtsd-bundling.md (from the stored runs of "
                    "experiments/rtsd/bundling.toml; experiments/rtsd/run writes it)")


def count_cell(vs):
    """cell() of counts: whole numbers in full (a median of an even count of seeds may end in .5)."""
    if not vs:
        return "-"
    m, lo, hi = statistics.median(vs), min(vs), max(vs)
    f = lambda x: f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"  # noqa: E731
    return f(m) if lo == hi else f"{f(m)} [{f(lo)}-{f(hi)}]"


def bundling_rows(df):
    """Item 5(d)'s table rows: per Standard, Addressing, FrameLoss and BI, median [min-max] over
    the seeds of BUNDLING_KEYS and of the PHY frames both nodes sent (ACKs included)."""
    lines = ["| standard | addressing | frame loss | BI | " + " | ".join(label for _, label in BUNDLING_KEYS)
             + " | PHY frames |",
             "|---|---|---|---|" + "---|" * (len(BUNDLING_KEYS) + 1)]
    for standard in BUNDLING_STANDARDS:
        for addressing in BUNDLING_ADDRESSING:
            for loss in BUNDLING_LOSSES:
                for bi in BUNDLING_BI:
                    where = {"Standard": standard, "Addressing": addressing, "FrameLoss": loss,
                             "BundleInterval": bi}
                    cells = [(count_cell if m in BUNDLING_COUNTS else cell)(
                        list(repro.per_seed(df, where, m).values()))
                        for m, _ in BUNDLING_KEYS]
                    sta = repro.per_seed(df, where, "nodes.consumer.phy_tx")
                    ap = repro.per_seed(df, where, "nodes.producer.phy_tx")
                    cells.append(count_cell([sta[s] + ap[s] for s in sorted(sta) if s in ap]))
                    lines.append(f"| {standard} | {addressing} | {loss:g} | {bi} | " + " | ".join(cells) + " |")
    return lines


def bundling_section(df):
    """Item 5(d): NDN-RTC's stream over BLEnD's Wi-Fi hop, without bundling and with BI = 15
    (bundling.toml), median [min-max] over the seeds."""
    lines = ["", "## Item 5(d): the stream through BLEnD bundling on a Wi-Fi hop", "",
             "Runs: bundling.toml (wifi-one-hop with App=stream: the access point publishes one 1000 kbit/s stream "
             "at 30 frames/s for 20 s with 20 % parity in 1000-byte segments, the station 5 m away plays it from 1 s; "
             "802.11b at 11 Mbit/s and 802.11n at 24 Mbit/s, broadcast and unicast addressing, each decoded frame "
             "lost with the given probability; BLEnD off (BI = 0) or at the paper's BI = 15; seeds "
             f"{seed_list(df)}). Rendered share: frames rendered over the 570 frames from "
             "the key frame the consumer joins at; station NDN frames: the frames the station's NDN face sent "
             "(Interests, a bundle standing for several); Interests absorbed: the Interests the station's bundles stood "
             "for and its link did not send; PHY frames: every frame both radios sent (ACKs and management "
             "included). Median [min-max]:", ""]
    lines += bundling_rows(df)
    return lines


MIRCC_KEYS = (("l2_utilization", "L2 utilisation"), ("stream.stalls", "stalls"), ("stream.stall_ms", "stall (ms)"),
              ("stream.frames_lost", "frames lost"), ("stream.frames_rendered", "frames rendered"),
              ("stream.bitrate_switches", "switches"), ("stream.challenges", "Challenges"),
              ("trace.final_thread_kbps", "thread at the end (kbit/s)"))


def with_switch_times(df):
    """df with switch.first_up_s (stream.first_up_ms in s; +inf for a run that never switched up)
    and switch.final_thread_s (stream.final_thread_ms in s) per run, and switch.played_mbps: the
    segment payload of the played threads (the Challenges' additional media left out) per second
    of the run; None stays."""
    if df is None:
        return None
    df = df.copy()
    for i, row in df.iterrows():
        up = row.get("stream.first_up_ms")
        if up is not None and not math.isnan(up):
            df.loc[i, "switch.first_up_s"] = up / 1000 if up >= 0 else math.inf
        if "stream.final_thread_ms" in row and not math.isnan(row["stream.final_thread_ms"]):
            df.loc[i, "switch.final_thread_s"] = row["stream.final_thread_ms"] / 1000
        if row.get("stream.bytes", 0) > 0:
            df.loc[i, "switch.played_mbps"] = (row["stream.throughput_mbps"]
                                               * (1 - row["stream.challenge_bytes"] / row["stream.bytes"]))
    return df


def mircc_section(df):
    """Item 5(e): the paper's probing consumer without and with MIRCC, and the consumer that picks
    its bitrate from MIRCC's explicit rate (mircc.toml), per RTT: switch times, utilisation,
    stalls and frames lost, median [min-max] over the seeds."""
    keys = (("switch.first_up_s", "first switch up (s)"), ("switch.final_thread_s", "final thread from (s)"),
            ("switch.played_mbps", "played payload (Mbit/s)")) + MIRCC_KEYS
    lines = ["", "## Item 5(e): the bitrate from MIRCC's explicit rate", "",
             "Runs: mircc.toml (fig25.toml's set-up: rtsd-star, L1 10 Mbit/s, L2 4 Mbit/s, both links with the one-way "
             "delay RTT / 4, threads of 200, 1000 and 3000 kbit/s at 30 frames/s for 60 s, 20 % FEC, 1000-byte "
             "segments, the consumer from 1 s on the lowest, Adaptive; seeds "
             f"{seed_list(df)}). Configurations: the paper's probing consumer (Challenge) without MIRCC, the "
             "baseline and fig25.toml's runs; the same consumer with MIRCC on every face (`--Mircc=true`: each node "
             "shapes the Interests it forwards at the link's rate and stamps its rate on the Data); and the consumer "
             "that picks the highest thread whose demand fits under the stamped rate (`--BitrateFromRate=true`) on "
             "the MIRCC network. First switch up: the consumer's start to its first switch to a higher thread; "
             "final thread: to the switch onto the thread it played at the end (0: it never switched); played payload: "
             "segment payload of the played threads per second of the run (a Challenge's additional media left "
             "out). Median [min-max]:", "",
             "| RTT (ms) | configuration | " + " | ".join(label for _, label in keys) + " |",
             "|---|---|" + "---|" * len(keys)]
    for rtt, delay in rtsd.TABLE2_DELAYS.items():
        for label, config in rtsd.MIRCC_CONFIGS:
            where = {"Delay": delay, **config}
            cells = [cell(list(repro.per_seed(df, where, m, rtsd.MIRCC_DEFAULTS).values())) for m, _ in keys]
            lines.append(f"| {rtt} | {label} | " + " | ".join(cells) + " |")
    where = {"Mircc": True, "BitrateFromRate": True}
    rates, demands = [], []
    for delay in rtsd.TABLE2_DELAYS.values():
        rates += repro.per_seed(df, {"Delay": delay, **where}, "stream.rate_final_kbps").values()
        demands += repro.per_seed(df, {"Delay": delay, **where}, "stream.demand_final_kbps").values()
    if rates and demands:
        lines += ["", f"The explicit-rate consumer's last stamped rate, over every RTT: {cell(rates)} kbit/s; the "
                  f"demand it measured for the thread it played at the end: {cell(demands)} kbit/s (bitrate x (1 + "
                  "parity share) x Data octets per payload octet, NDNLPv2 and PPP framing not seen)."]
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--specs", type=pathlib.Path, default=HERE, help="the directory of table1.toml and fig22.toml")
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--json", type=pathlib.Path)
    ap.add_argument("--figures", type=pathlib.Path, help="directory for rtsd-fig21.png, -fig22.png, -fig25.png")
    ap.add_argument("--bundling", type=pathlib.Path,
                    help="also write item 5(d)'s section alone, as a generated file (docs/results/rtsd-bundling.md)")
    ap.add_argument("--bundling-only", action="store_true",
                    help="only item 5(d)'s section: to --bundling, else to stdout; exit 1 when it has no runs")
    args = ap.parse_args(argv)
    if args.bundling_only:
        return write_bundling(args.specs, args.bundling)
    frames = repro.load_campaigns(args.specs, ["table1", "fig19", "fig22", "fig23", "table1-emu", "fig19-emu",
                                               "fig22-emu", "fig22-timing", "fig23-emu", "startup", "fit", "recovery",
                                               "recovery-emu", "startup-emu", "bundling", "near-capacity",
                                               "near-capacity-emu"])
    for name in ("recovery", "recovery-emu", "bundling"):
        frames[name] = with_rendered_share(frames[name])
    if args.bundling:
        write_bundling(args.specs, args.bundling, frames["bundling"])
    stores = {}
    for name in ("fig21", "fig25", "abr", "mircc", "fig21-emu", "fig25-emu"):
        frames[name], stores[name] = with_traces(args.specs, name)
    frames["mircc"] = with_switch_times(frames["mircc"])
    df = frames["table1"]
    evaluations = repro.evaluate_all(rtsd.CLAIMS, frames)
    by_cell = {(ev.claim.where["InitialPipeline"], ev.claim.metric): ev for ev in evaluations
               if ev.claim.campaign == "table1"}

    lines = [repro.generated_line(COMMAND), "",
             "# NDN-RTC Tables 1-2 and Figs. 19, 21-25 in ns-3", "",
             f"Paper: {rtsd.CITATION}, Sect. 5.1-5.2.3, Tables 1-2, Figs. 19, 21-25.", "",
             f"Runs: `experiments/rtsd/run` (table1.toml: scenario rtsd-star, the paper's Fig. 20 "
             f"topology CP1 -L1- R -L2- CP2, 10 Mbit/s and 25 ms per link (100 ms RTT), one 1000 kbit/s "
             f"stream at 30 frames/s, 1000-byte segments, 20 % FEC, Medium stability estimator; seeds "
             f"{seed_list(df)}). Ours: median [min-max] over the seeds; the "
             "paper's: one test run per row on real hosts shaped by tc.", "",
             "## Table 1, the paper's values beside ours", "",
             "| run | lambda_p^0 | DRD' (ms) paper | ours | chasing (ms) paper | ours | back-off (ms) paper | ours "
             "| lambda_p^final paper | ours |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row, (lam, paper) in enumerate(rtsd.TABLE1.items(), start=1):
        cells = []
        for (name, metric, *_), p in zip(rtsd.COLUMNS, paper):
            ev = by_cell[(lam, metric)]
            cells += [str(p), cell(ev.values)]
        lines.append(f"| {row} | {lam} | " + " | ".join(cells) + " |")
    lines += ["", "Also measured in the same runs (median [min-max]); `lambda_p^final x T` is the final pipeline "
              "in milliseconds of stream (T = 1 / Fps):", "",
              "| lambda_p^0 | lambda_p^final x T (ms) | " + " | ".join(label for _, label in EXTRA) + " |",
              "|---|---|" + "---|" * len(EXTRA)]
    for lam in rtsd.LAMBDA0:
        where = {"InitialPipeline": lam}
        lam_final = repro.per_seed(df, where, "stream.lambda_final")
        fps = repro.per_seed(df, where, "Fps") if df is not None and "Fps" in df else {}
        ahead = [lam_final[s] * 1000 / fps.get(s, 30.0) for s in sorted(lam_final)]
        cells = [cell(ahead)]
        for metric, _ in EXTRA:
            vs = list(repro.per_seed(df, where, metric).values())
            cells.append(cell(vs))
        lines.append(f"| {lam} | " + " | ".join(cells) + " |")
    lines += emu_section(df, frames["table1-emu"])
    lines += fig19_section(frames["fig19"], frames["fig19-emu"])
    lines += fig22_section(frames["fig22"], args.figures, frames["fig22-emu"], frames["fig22-timing"])
    lines += fig23_section(frames["fig23"], frames["fig23-emu"])
    lines += fig21_section(frames["fig21"], stores["fig21"], args.figures, frames["fig21-emu"], stores["fig21-emu"])
    lines += fig25_section(frames["fig25"], stores["fig25"], frames["abr"], stores["abr"], args.figures,
                           frames["fig25-emu"], stores["fig25-emu"])
    lines += fit_section(frames["fit"])
    lines += near_capacity_section(frames["near-capacity"], frames["near-capacity-emu"])
    lines += startup_section(frames["table1"], frames["startup"], frames["startup-emu"])
    lines += recovery_section(frames["recovery"], frames["recovery-emu"])
    lines += bundling_section(frames["bundling"])
    lines += mircc_section(frames["mircc"])
    lines += ["", "## The claims, judged", ""]
    lines += repro.rows(evaluations)
    lines += ["", repro.summary(evaluations), "",
              f"Verdicts: two-sided, on the median over the seeds (ndnlab.repro); CI: {repro.CI_METHOD}. "
              f"Tolerances (python/ndnlab/paper/rtsd.py): DRD' +-{rtsd.DRD_TOLERANCE:.0%}, chasing "
              f"+-{rtsd.PERIOD_TOLERANCE:.0%}, back-off +-{rtsd.BACKOFF_TOLERANCE_MS:g} ms, lambda_p^final "
              f"+-{rtsd.LAMBDA_TOLERANCE:g}.", "", "The paper's definition of each metric:", ""]
    lines += repro.definitions(rtsd.CLAIMS)
    notes = [c for c in rtsd.CLAIMS if c.note]
    if notes:
        lines += ["", "Notes:", ""] + [f"- {c.id}: {c.note}" for c in notes]
    # the claims of Figs. 21, 25 and Table 2 on real daemons, each campaign's when its runs are stored
    emu_claims = tuple(c for c in rtsd.EMU_CLAIMS if frames[c.campaign] is not None)
    real = repro.evaluate_all(emu_claims, frames)
    if real:
        lines += ["", "## The claims of Figs. 21, 25 and Table 2 on real daemons, judged", "",
                  "The same claims, cells and tolerances as above (f21-emu.N, f25-emu.N, t2-emu.N), on the runs of "
                  "fig21-emu.toml and fig25-emu.toml (`ndnlab emu`); L2's octets are Ethernet frames there.", ""]
        lines += repro.rows(real)
        lines += ["", repro.summary(real)]
    targets = []
    for item, claims, what in (
            ("5(a)", rtsd.ABR_CLAIMS,
             "the issue's targets for an adaptive consumer that uses the link (utilisation "
             f">= {rtsd.ABR_TARGET:.0%} of L2 at every RTT, no stall after start-up), for the increment probe, and "
             "its utilisation against the paper's Challenge in the same campaign (abr.toml), two-sided."),
            ("5(a), a thread that fits", rtsd.NEAR_CAPACITY_CLAIMS
             + (rtsd.NEAR_CAPACITY_EMU_CLAIMS if frames["near-capacity-emu"] is not None else ()),
             "with threads of 200, 1000 and 2600 kbit/s (near-capacity.toml), the same targets for the adaptive "
             "consumer that starts on the highest thread with spread-room and 5(b)'s start-up, its utilisation and "
             "stalls against the paper's configuration (fig25.toml's runs), and spread-room against the paper's "
             "playout target on the 2600 kbit/s thread alone, two-sided (the targets also on real daemons, "
             "near-capacity-emu.toml, nc-emu.N, judged when its runs are stored)."),
            ("5(b)", rtsd.STARTUP_CLAIMS + (rtsd.STARTUP_EMU_CLAIMS if frames["startup-emu"] is not None else ()),
             "lambda_p^final equal to the Interest demand (4) from every lambda_p^0 of "
             f"Table 1, and the first frame within {rtsd.STARTUP_FIRST_FRAME_MS:g} ms of the consumer's start at "
             "100 ms RTT, on startup.toml (1000-packet queues), chase-at-demand off and on, and on with early "
             "playout (the last also on real daemons, startup-emu.toml, su-emu.N, judged when its runs are "
             "stored)."),
            ("5(c)", rtsd.RECOVERY_CLAIMS + (rtsd.RECOVERY_EMU_CLAIMS if frames["recovery-emu"] is not None else ()),
             f"1000-byte payloads render >= {rtsd.RECOVERY_TARGET_1000:.0%} of the frames at 5 % loss, and "
             f"8000-byte payloads play (playback starts and >= {rtsd.RECOVERY_PLAYS:.0%} of the frames rendered) "
             "at 5 % and 10 % loss, judged for the paper's configuration (the named baseline) and for ndnlab's "
             "recovery, and ndnlab's against the paper's two-sided (recovery.toml; the same claims on real daemons "
             "from recovery-emu.toml, rec-emu.N, judged when its runs are stored)."),
            ("5(e)", rtsd.MIRCC_CLAIMS,
             "the consumer that takes its bitrate from MIRCC's explicit rate against the paper's probing consumer "
             "without MIRCC (the named baseline, fig25.toml's set-up) and on the same MIRCC network, as directions "
             "judged two-sided (mircc.toml); no target was set.")):
        judged = repro.evaluate_all(claims, frames)
        lines += ["", f"## Beyond the paper: the targets of issue 29 item {item}, judged", "",
                  f"Not claims of the paper: {what}", ""]
        lines += repro.rows(judged)
        lines += ["", repro.summary(judged)]
        targets += judged
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    else:
        print(text, end="")
    if args.json:
        out = repro.as_json(evaluations, COMMAND)
        out["targets"] = repro.as_json(targets, COMMAND)
        out["real_daemons"] = repro.as_json(real, COMMAND)
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 1 if any(ev.verdict == "not run" for ev in evaluations + targets + real) else 0


def write_bundling(specs, out, df=None):
    """Item 5(d)'s section as a document of its own (the file docs/mechanisms/streaming.md
    quotes) to `out`, or stdout, from `df` (bundling.toml's runs with their rendered share; read
    from the store when not given); 1 when bundling.toml has no stored runs."""
    if df is None:
        df = with_rendered_share(repro.load_campaigns(specs, ["bundling"])["bundling"])
    lines = [repro.generated_line(BUNDLING_COMMAND), "",
             "# NDN-RTC's stream through BLEnD bundling on a Wi-Fi hop (issue 29 item 5(d))"]
    lines += bundling_section(df)[2:]
    text = "\n".join(lines) + "\n"
    if out:
        out.write_text(text)
    else:
        print(text, end="")
    return 0 if df is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
