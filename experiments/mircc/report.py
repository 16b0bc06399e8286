#!/usr/bin/env python3
"""MIRCC coarse-clock reproduction report (issue 28 item 6), computed from the stored runs of
paper.toml: the paper's claims (ndnlab.paper.mircc.CLAIMS, each with the sentence it comes
from) judged two-sided on the median over the seeds by the harness ndnlab.repro, a table of every cell (median [min-max]),
and the figures of the paper's Figs. 5-8 (Interest rate and loss rate per 100 ms, seed 1).

Usage: report.py [--spec paper.toml] [--out FILE.md] [--json FILE.json] [--figures DIR]
Exit 0, or 1 when a cell has no runs.
"""
import argparse
import csv
import pathlib
import statistics

from ndnlab import repro
from ndnlab.data import load
from ndnlab.paper import mircc
from runs import fmt, select, values, write

HERE = pathlib.Path(__file__).resolve().parent
COMMAND = "experiments/mircc/run (its step experiments/mircc/report.py, from the stored runs of paper.toml)"
TICKS = (100, 250, 500, 750)
METRICS = ("flows.C1.rate_pps_alone", "flows.C1.rate_pps_shared", "flows.C2.rate_pps_shared",
           "flows.C1.rate_pps_end", "flows.C2.rate_pps_end",
           "jain_index_shared", "convergence_s", "flows.C1.loss_rate", "flows.C2.loss_rate",
           "bottleneck_utilisation")


def cell_rows(df, tick, smooth):
    return select(df, Tick=tick, Smoothening=smooth)


def series(store, key):
    """{flow: ([t], [rate], [loss])} from a run's mircc-series.csv."""
    out = {}
    path = store.run_dir(key) / "mircc-series.csv"
    if not path.exists():
        return out
    with open(path) as f:
        for r in csv.DictReader(f):
            t, rate = float(r["time_s"]), float(r["interest_rate_pps"])
            loss = float(r["loss_rate"]) if r["loss_rate"] else None
            ts, rs, ls = out.setdefault(r["flow"], ([], [], []))
            ts.append(t)
            rs.append(rate)
            ls.append(loss)
    return out


def rolling_mean(ys, n):
    """Mean of each value and the n - 1 before it (fewer at the start)."""
    out = []
    for i in range(len(ys)):
        window = [y for y in ys[max(0, i - n + 1):i + 1] if y is not None]
        out.append(sum(window) / len(window) if window else None)
    return out


def figures(df, store, outdir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    written = []
    for what, column, ylabel in (("rate", 1, "Interest rate (pkt/s)"), ("loss", 2, "loss rate per 100 ms")):
        fig, axes = plt.subplots(2, 4, figsize=(16, 6.5), sharex=True, sharey=True)
        for row, smooth in enumerate((False, True)):
            for col, tick in enumerate(TICKS):
                ax = axes[row][col]
                rows = cell_rows(df, tick, smooth)
                rows = rows[rows["seed"] == rows["seed"].min()] if len(rows) else rows
                if len(rows):
                    s = series(store, rows.iloc[0]["key"])
                    for flow, style in (("C1", "-"), ("C2", "--")):
                        if flow in s:
                            ts, ys = s[flow][0], s[flow][column]
                            if what == "rate":  # sends averaged over one tick: the rate, not the bursts
                                ys = rolling_mean(ys, max(1, round(tick / 100)))
                            pts = [(t, y) for t, y in zip(ts, ys) if y is not None]
                            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=flow, lw=1)
                ax.set_title(f"{tick} ms, {'smoothening' if smooth else 'original MIRCC'}", fontsize=9)
                if what == "rate":
                    ax.axhline(600, color="grey", lw=0.5, ls=":")
                    ax.axhline(1000, color="grey", lw=0.5, ls=":")
                if row == 1:
                    ax.set_xlabel("time (s)")
                if col == 0:
                    ax.set_ylabel(ylabel)
        axes[0][0].legend(fontsize=8)
        fig.suptitle("mircc-dumbbell in ns-3, seed 1: Interests sent per second, averaged over one tick "
                     "(the paper's Figs. 5, 7)" if what == "rate" else
                     "mircc-dumbbell: share of each 100 ms's Interests without Data (Figs. 6, 8)")
        fig.tight_layout()
        path = outdir / f"mircc-{what}.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", type=pathlib.Path, default=HERE / "paper.toml")
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--json", type=pathlib.Path)
    ap.add_argument("--figures", type=pathlib.Path, help="directory for mircc-rate.png, mircc-loss.png")
    args = ap.parse_args(argv)
    df, spec, store = load(args.spec)
    seeds = sorted(int(s) for s in df["seed"].unique()) if len(df) else []

    lines = [repro.generated_line(COMMAND), "",
             "# MIRCC under a coarse-grained clock: the paper's claims, judged", "",
             f"Paper: {mircc.CITATION}.", "",
             f"Runs: `experiments/mircc/run` ({spec.name}: scenario {spec.scenario}, seeds "
             f"{', '.join(map(str, seeds))}). Every value is the median over the seeds [min-max]. "
             "Rates are Interests per second; `alone` is C1 over [2 s, 3 s), `shared` each consumer "
             "over [4 s, 8 s), `end` over [7 s, 8 s) ([6.5 s, 8 s) at 750 ms: whole ticks; the level "
             "reached, which the paper's rate claims describe); loss = 1 - Data / Interests over the whole flow (the paper's "
             "definition, no retransmission); convergence = time after C2 starts until both "
             "consumers' rates, averaged over whole ticks (250 ms: over 500 ms), stay within 10 % of the fair "
             "share (600 pkt/s). The scenario "
             "draws no random number that changes its course (only Nonces), so the seeds give "
             "identical runs: the spread is zero, and one run per cell would say the same.", "",
             "## Every cell", "",
             "| tick | smoothening | " + " | ".join(m.replace("flows.", "") for m in METRICS) + " |",
             "|---|---|" + "---|" * len(METRICS)]
    missing = False
    medians = {}
    for smooth in (False, True):
        for tick in TICKS:
            rows = cell_rows(df, tick, smooth)
            if not len(rows):
                missing = True
            cells = []
            for m in METRICS:
                vs = values(rows, m)
                if vs:
                    medians[(tick, smooth, m)] = statistics.median(vs)
                cells.append(fmt(vs))
            lines.append(f"| {tick} ms | {'on' if smooth else 'off'} | " + " | ".join(cells) + " |")

    evaluations = repro.evaluate_all(mircc.CLAIMS, {"paper": df})
    lines += ["", "## The paper's claims", "",
              "Judged by ndnlab.repro, two-sided, on the median over the seeds. Tolerances: rates "
              "+-15 %, the convergence time and the two printed loss rates +-50 % "
              "(ndnlab.paper.mircc states why); a bound (\"larger than 0.5\") or a direction "
              "(\"slightly smaller\") is judged as the paper words it, a direction on the "
              "per-seed differences against the original MIRCC of the same tick.", "",
              *repro.rows(evaluations), "", repro.summary(evaluations), "",
              f"CI: {repro.CI_METHOD}. The paper's definition of each metric:", "",
              *repro.definitions(mircc.CLAIMS), ""]
    clock = HERE.parents[1] / "docs" / "results" / "mircc-clock" / "table.md"
    if clock.exists():
        body = [ln for ln in clock.read_text().splitlines() if not ln.startswith("<!--")]
        lines += ["## Beyond the paper, 8(c): what the clock costs (bench/mircc-clock)", "",
                  "The paper's motivation measured on real daemons: `ndnlab get --cc mircc` through two "
                  "ndnlabd on a veth link shaped by tbf, MIRCC on the consumer host's face (capacity = "
                  "the link rate), a timer per Interest against a 10 ms tick with and without "
                  "smoothening; 3 repeats, medians, transfers of about 2 and 6 s. Command: `sudo "
                  "bench/mircc-clock/run --seconds 2 6 --out docs/results/mircc-clock` (rows in "
                  "`docs/results/mircc-clock/rows.json`; this table is its `table.md`).", *body, ""]
    if args.figures:
        args.figures.mkdir(parents=True, exist_ok=True)
        for p in figures(df, store, args.figures):
            lines.append(f"![{p.stem}]({p.name})")
        lines.append("")
    text = "\n".join(lines) + "\n"
    write(args, text, repro.as_json(evaluations, COMMAND))
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
