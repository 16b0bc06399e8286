#!/usr/bin/env python3
"""NDN-RTC Table 1 and Figs. 19, 22-24 in ns-3 (issue 29 item 4), computed from the stored runs
of table1.toml, fig19.toml, fig22.toml and fig23.toml: the paper's Table 1 beside ours (median
[min-max] over the seeds), the faces and consumers of the Fig. 18 tests,
the chasing period against link latency for the three estimator sets (a table, and with
--figures the plot), and the paper's claims (ndnlab.paper.rtsd.CLAIMS: one per cell of Table 1,
and Fig. 22's directions) judged two-sided by ndnlab.repro.

Usage: report.py [--specs DIR] [--out FILE.md] [--json FILE.json] [--figures DIR]
Exit 0, or 1 when a claim has no runs.
"""
import argparse
import json
import pathlib
import statistics

from ndnlab import repro
from ndnlab.paper import rtsd

HERE = pathlib.Path(__file__).resolve().parent
COMMAND = ("sudo experiments/rtsd/run --emu (its step experiments/rtsd/report.py, from the stored runs of "
           "table1.toml, fig19.toml, fig22.toml, fig23.toml, table1-emu.toml and fig19-emu.toml; without --emu and "
           "root, the same report but the real-daemon tables)")
# what else the runs say about each row, beside Table 1's columns
EXTRA = (("stream.first_frame_ms", "first frame (ms)"), ("stream.frames_rendered", "frames rendered"),
         ("stream.frames_lost", "frames lost"), ("stream.stalls", "stalls"),
         ("stream.latency_median_ms", "latency median (ms)"))


def cell(vs):
    """`median [min-max]` of the seeds' values, or `-`."""
    if not vs:
        return "-"
    m, lo, hi = statistics.median(vs), min(vs), max(vs)
    return repro.fmt(m) if lo == hi else f"{repro.fmt(m)} [{repro.fmt(lo)}-{repro.fmt(hi)}]"


def emu_section(sim, emu):
    """Table 1's runs on real daemons (table1-emu.toml, `ndnlab emu`) beside the simulated ones:
    the same parameters and seeds, medians [min-max]; no claims are judged on them."""
    if emu is None:
        return ["", "## Table 1 on real daemons", "",
                "Not run here: `sudo experiments/rtsd/run --emu` adds table1-emu.toml (ndnlab emu)."]
    seeds = sorted(int(s) for s in emu["seed"].unique())
    lines = ["", "## Table 1 on real daemons", "",
             f"table1-emu.toml: the runs of table1.toml through `ndnlab emu` (three ndnlabd in network namespaces, "
             f"`ndnlab stream publish` and `play`, the links simulated by ns-3 in real time; seeds "
             f"{', '.join(map(str, seeds))}), beside the simulated runs: median [min-max].", "",
             "| lambda_p^0 | " + " | ".join(f"{name} ns-3 | emu" for name, *_ in rtsd.COLUMNS) + " |",
             "|---|" + "---|---|" * len(rtsd.COLUMNS)]
    for lam in rtsd.LAMBDA0:
        where = {"InitialPipeline": lam}
        cells = []
        for _, metric, *_ in rtsd.COLUMNS:
            for frame in (sim, emu):
                vs = list(repro.per_seed(frame, where, metric).values()) if frame is not None else []
                cells.append(cell(vs))
        lines.append(f"| {lam} | " + " | ".join(cells) + " |")
    return lines


def fig19_section(df, emu=None):
    """The faces' Mbit/s before and after the event, and the consumers' stalls and losses; with
    `emu` (fig19-emu.toml), the runs on real daemons in rows of their own."""
    seeds = sorted(int(s) for s in df["seed"].unique()) if df is not None else []
    backends = [("ns-3", df)] + ([("emu", emu)] if emu is not None else [])
    lines = ["", "## Fig. 19: a second consumer, and failover (rtsd-scale)", "",
             "Runs: fig19.toml (scenario rtsd-scale, 10 Mbit/s and 10 ms links, one 1000 kbit/s stream at 30 "
             "frames/s for 30 s; the second consumer starts, or R1 dies, at 15 s; seeds "
             f"{', '.join(map(str, seeds)) or 'none'})"
             + (", and the same runs on real daemons (fig19-emu.toml, `ndnlab emu`: four ndnlabd in network "
                "namespaces, R1 isolated at 15 s; seeds " + ", ".join(str(int(s)) for s in sorted(emu["seed"].unique()))
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
                    vs = (list(repro.per_seed(frame, {"Test": test}, f"faces.{face}.{m}").values())
                          if frame is not None else [])
                    cells.append(cell(vs))
                lines.append(f"| {test} | {face} | {name} | " + " | ".join(cells) + " |")
    lines += ["", "| test | consumer | backend | frames rendered | frames lost | stalls | stall (ms) |",
              "|---|---|---|---|---|---|---|"]
    for test, consumers in (("consumers", ("stream", "stream2")), ("failover", ("stream",))):
        for c in consumers:
            for name, frame in backends:
                cells = []
                for m in ("frames_rendered", "frames_lost", "stalls", "stall_ms"):
                    vs = list(repro.per_seed(frame, {"Test": test}, f"{c}.{m}").values()) if frame is not None else []
                    cells.append(cell(vs))
                lines.append(f"| {test} | {c} | {name} | " + " | ".join(cells) + " |")
    return lines


def fig22_section(df, figures):
    """The chasing period per link delay and estimator set (median [min-max]), and the plot."""
    seeds = sorted(int(s) for s in df["seed"].unique()) if df is not None else []
    lines = ["", "## Fig. 22: chasing period against link latency", "",
             "Runs: fig22.toml (rtsd-star, both links 10 Mbit/s with the delay below, RTT = 4 x delay, one "
             "1000 kbit/s stream at 30 frames/s for 20 s, lambda_p^0 from Eq. (1); seeds "
             f"{', '.join(map(str, seeds)) or 'none'}). The paper's figure lost its values in the stored text; "
             "its sentences are judged below as directions. Chasing period (ms), median [min-max]:", "",
             "| link delay | " + " | ".join(rtsd.FIG22_SETS) + " |", "|---|" + "---|" * len(rtsd.FIG22_SETS)]
    medians = {}
    for d in rtsd.FIG22_DELAYS:
        cells = []
        for st in rtsd.FIG22_SETS:
            vs = list(repro.per_seed(df, {"Delay": d, "Stability": st}, "stream.chasing_ms").values()) \
                if df is not None else []
            if vs:
                medians[(d, st)] = statistics.median(vs)
            cells.append(cell(vs))
        lines.append(f"| {d} | " + " | ".join(cells) + " |")
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
        fig.tight_layout()
        figures.mkdir(parents=True, exist_ok=True)
        fig.savefig(figures / "rtsd-fig22.png", dpi=90)
        plt.close(fig)
        lines += ["", "Plot: [rtsd-fig22.png](rtsd-fig22.png)."]
    return lines


def fig23_section(df):
    """Frames rendered, requested, recovered by FEC and by retransmission, and lost, per link
    loss and payload size (median [min-max])."""
    seeds = sorted(int(s) for s in df["seed"].unique()) if df is not None else []
    keys = (("stream.frames_requested", "requested"), ("stream.frames_rendered", "rendered"),
            ("stream.frames_fec", "FEC"), ("stream.frames_rtx", "RTX"), ("stream.frames_lost", "lost"),
            ("stream.first_frame_ms", "first frame (ms)"))
    lines = ["", "## Figs. 23-24: loss recovery for 1000- and 8000-byte payloads", "",
             "Runs: fig23.toml (rtsd-star, 10 Mbit/s and 25 ms per link, each link losing the given share of "
             "frames both ways, one 1000 kbit/s stream at 30 frames/s for 20 s with 20 % parity; seeds "
             f"{', '.join(map(str, seeds)) or 'none'}). The paper's figures lost their values in the stored text. "
             "Frames, median [min-max]:", "",
             "| loss | payload (B) | " + " | ".join(label for _, label in keys) + " |",
             "|---|---|" + "---|" * len(keys)]
    for loss in rtsd.FIG23_LOSSES:
        for payload in rtsd.FIG23_PAYLOADS:
            cells = []
            for metric, _ in keys:
                vs = list(repro.per_seed(df, {"Loss": loss, "PayloadSize": payload}, metric).values()) \
                    if df is not None else []
                cells.append(cell(vs))
            lines.append(f"| {loss:g} | {payload} | " + " | ".join(cells) + " |")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--specs", type=pathlib.Path, default=HERE, help="the directory of table1.toml and fig22.toml")
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--json", type=pathlib.Path)
    ap.add_argument("--figures", type=pathlib.Path, help="directory for rtsd-fig22.png")
    args = ap.parse_args(argv)
    frames = repro.load_campaigns(args.specs, ["table1", "fig19", "fig22", "fig23", "table1-emu", "fig19-emu"])
    df = frames["table1"]
    evaluations = repro.evaluate_all(rtsd.CLAIMS, frames)
    seeds = sorted(int(s) for s in df["seed"].unique()) if df is not None else []
    by_cell = {(ev.claim.where["InitialPipeline"], ev.claim.metric): ev for ev in evaluations
               if ev.claim.campaign == "table1"}

    lines = [repro.generated_line(COMMAND), "",
             "# NDN-RTC Table 1 (consumer bootstrapping) in ns-3", "",
             f"Paper: {rtsd.CITATION}, Sect. 5.2.1, Table 1.", "",
             f"Runs: `experiments/rtsd/run` (table1.toml: scenario rtsd-star, the paper's Fig. 20 "
             f"topology CP1 -L1- R -L2- CP2, 10 Mbit/s and 25 ms per link (100 ms RTT), one 1000 kbit/s "
             f"stream at 30 frames/s, 1000-byte segments, 20 % FEC, Medium stability estimator; seeds "
             f"{', '.join(map(str, seeds)) or 'none'}). Ours: median [min-max] over the seeds; the "
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
        lam_final = repro.per_seed(df, where, "stream.lambda_final") if df is not None else {}
        fps = repro.per_seed(df, where, "Fps") if df is not None and "Fps" in df else {}
        ahead = [lam_final[s] * 1000 / fps.get(s, 30.0) for s in sorted(lam_final)]
        cells = [cell(ahead)]
        for metric, _ in EXTRA:
            vs = list(repro.per_seed(df, where, metric).values()) if df is not None else []
            cells.append(cell(vs))
        lines.append(f"| {lam} | " + " | ".join(cells) + " |")
    lines += emu_section(df, frames["table1-emu"])
    lines += fig19_section(frames["fig19"], frames["fig19-emu"])
    lines += fig22_section(frames["fig22"], args.figures)
    lines += fig23_section(frames["fig23"])
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
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    else:
        print(text, end="")
    if args.json:
        args.json.write_text(json.dumps(repro.as_json(evaluations, COMMAND), indent=2) + "\n")
    return 1 if any(ev.verdict == "not run" for ev in evaluations) else 0


if __name__ == "__main__":
    raise SystemExit(main())
