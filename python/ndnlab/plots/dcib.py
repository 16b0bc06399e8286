"""DCIB figures and the paper-vs-ours table (experiments/dcib).

    python3 -m ndnlab.plots.dcib [EXPERIMENT_DIR] [-o FIGURE_DIR] [--table TABLE.md]

reads the campaign specs of experiments/dcib (artificial-loss, no-loss, limited-buffer, fct,
and the more-seeds reruns artificial-loss-noncoop, artificial-loss-coop, no-loss-8, no-loss-bbr
and no-loss-bbr-32; any that has no runs yet is skipped) and writes:

  fig10-throughput-time-<tcp>.png   DCI goodput over time with and without DCIB (IV-A, Fig. 10b/c)
  fig10-throughput-cdf.png          CDF of the 10 ms goodput samples (Fig. 10d/e)
  fig11-no-loss.png                 average goodput, no artificial loss (Fig. 11)
  fig12-throughput-vs-rtt.png       average goodput against end-to-end RTT (Fig. 12)
  fig13-fct-cdf-<tcp>.png           FCT CDF with mean and p99 marked (Fig. 13)
  fairness.png                      Jain's index of the per-flow goodput
  retransmissions.png               host vs edge-router retransmissions

and a markdown table with the paper's factors beside ours (--table). Runs come from the result
stores through ndnlab.data.load; time series and per-flow files from each run's directory.
"""

import argparse
import math
import pathlib
import sys

import numpy as np

from ndnlab import data, metrics
from ndnlab.paper import dcib as paper_dcib

# The campaign of each of the paper's experiments (ndnlab.paper.dcib) and the condition it shows
# in the paper table (None: the comparison's wan_loss).
PAPER_CAMPAIGNS = [("artificial-loss", paper_dcib.IV_A, None),
                   ("no-loss", paper_dcib.IV_B, "none"),
                   ("limited-buffer", paper_dcib.IV_C, "RTT 10-30 ms"),
                   ("fct", paper_dcib.IV_D, "web search, 80% load")]

SPECS = ["artificial-loss", "no-loss", "limited-buffer", "fct", "artificial-loss-noncoop",
         "artificial-loss-coop", "no-loss-8", "no-loss-bbr", "no-loss-bbr-32"]
# campaigns that rerun one condition of another with more seeds: (name, table title)
MORE_SEEDS = [
    ("artificial-loss-noncoop", "Non-cooperative 5% WAN loss with 10 seeds"),
    ("artificial-loss-coop", "Cooperative 5% WAN loss with 8 seeds"),
    ("no-loss-8", "No artificial loss, Reno and Cubic, 8 seeds"),
    ("no-loss-bbr", "No artificial loss, BBR, 1-BDP RED queue, 8 seeds"),
    ("no-loss-bbr-32", "No artificial loss, BBR, 1-BDP RED queue, 32 seeds (ndnlab's DCIB)"),
]
# reruns that add seeds but no variant: the retransmissions figure leaves them out
SEEDS_ONLY = {"no-loss-8", "no-loss-bbr-32"}
TCP_ORDER = ["reno", "newreno", "cubic", "bbr"]
# the parameters that tell one DCIB variant from another (a table row, a bar, a legend entry)
VARIANT_COLS = ("Mode", "SelectionRatio", "AdaptiveRatio", "MarkAfterQueue", "InterceptDupAcks",
                "DupAckSackGaps", "DupAckLocalDrops", "DupAckRepair", "DupAckThreshold")


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _missing(v):
    """True for a value a run did not record (None, or NaN in a pandas column)."""
    return v is None or (isinstance(v, float) and math.isnan(v))


def load(exp_dir, name):
    """(DataFrame, store) of one campaign of the experiment directory, or (None, None)."""
    spec = pathlib.Path(exp_dir) / f"{name}.toml"
    if not spec.exists():
        return None, None
    try:
        df, _, store = data.load(str(spec))
    except data.UsageError:
        return None, None
    if df.empty:
        return None, None
    # options added later: runs from before an option existed ran with the scenario default
    for column, default in (("InterceptDupAcks", False), ("AdaptiveRatio", False),
                            ("MarkAfterQueue", False), ("SelectionRatio", 0.1)):
        if column not in df.columns:
            df[column] = default
        else:
            df[column] = [default if _missing(v) else type(default)(v) for v in df[column]]
    if "DupAckSackGaps" in df.columns:  # default on; meaningless without interception
        df["DupAckSackGaps"] = [bool(i) and (True if _missing(g) else bool(g))
                                for i, g in zip(df["InterceptDupAcks"], df["DupAckSackGaps"])]
    else:
        df["DupAckSackGaps"] = list(df["InterceptDupAcks"])
    for column in ("DupAckLocalDrops", "DupAckRepair"):  # default off; need interception
        if column in df.columns:
            df[column] = [bool(i) and not _missing(g) and bool(g)
                          for i, g in zip(df["InterceptDupAcks"], df[column])]
        else:
            df[column] = False
    return df, store


def run_file(store, row, name):
    """Path of trace file `name` of the run in `row`."""
    return store.run_dir(row["key"]) / name


def read_csv(path):
    import pandas as pd
    return pd.read_csv(path) if path.exists() else None


def intercept_text(row):
    """What a DCIB variant adds to the paper's: a ratio other than 0.1, the adaptive ratio,
    marking after A's queue, dupACK interception (and whether SACK gaps were checked); or ''."""
    text = ""
    ratio = row.get("SelectionRatio", 0.1)
    if row.get("AdaptiveRatio"):
        text += f" + adaptive ratio <= {ratio:g}"
    elif not _missing(ratio) and ratio != 0.1:
        text += f", r = {ratio:g}"
    if row.get("MarkAfterQueue"):
        text += " + marking after A's queue"
    if not row.get("InterceptDupAcks"):
        return text
    notes = []
    if not row.get("DupAckSackGaps", True):
        notes.append("no SACK-gap check")
    if row.get("DupAckLocalDrops", False):
        notes.append("A's own drops held too")
    text += " + dupACK interception" + (f" [{', '.join(notes)}]" if notes else "")
    if row.get("DupAckRepair", False):
        text += " + repair on dupACK"
    return text


def variant_label(row):
    """Legend text of a run: DCIB off, or DCIB with its mode, duplicate-ACK interception and
    the hosts' dupACK threshold."""
    if not row.get("Dcib"):
        label = "no DCIB"
    else:
        mode = row.get("Mode", "stalled")
        if not isinstance(mode, str):
            mode = "stalled"
        label = f"DCIB ({mode}{intercept_text(row)})"
    thr = row.get("DupAckThreshold")
    if not _missing(thr) and int(thr) != 3:
        label += f", dupthresh {int(thr)}"
    return label


def mean_of(df, column):
    """Mean of the recorded (finite) values of `column`; NaN if there are none."""
    return metrics.mean_ci(df[column])[0]


def ratio_rows(df, metric, group_cols):
    """One row per (group, DCIB variant): mean metric with DCIB over the mean without it, the
    baseline being the runs with Dcib=false and the same group values (and the same
    DupAckThreshold when the campaign varies it)."""
    rows = []
    base = df[df["Dcib"] == False]  # noqa: E712 (pandas column)
    with_dcib = df[df["Dcib"] == True]  # noqa: E712
    variant_cols = [c for c in VARIANT_COLS if c in df.columns]
    keys = group_cols + variant_cols
    for values, cell in with_dcib.groupby(keys, dropna=False):
        values = values if isinstance(values, tuple) else (values,)
        cond = dict(zip(keys, values))
        b = base
        for c in group_cols:
            b = b[b[c] == cond[c]]
        if "DupAckThreshold" in cond:
            b = b[b["DupAckThreshold"] == cond["DupAckThreshold"]]
        ours, baseline = mean_of(cell, metric), mean_of(b, metric)
        rows.append({**cond, "dcib": ours, "base": baseline, "n": len(cell), "n_base": len(b)})
    return rows


def fmt(v, digits=3):
    if _missing(v):
        return "-"
    return f"{v:.{digits}g}"


# --- figures -----------------------------------------------------------------------------------

def fig_throughput_time(df, store, out_dir, written):
    """Fig. 10b/c: goodput over time, cooperative loss, seed 1, per TCP."""
    plt = _plt()
    sel = df[(df["WanLoss"] == "cooperative") & (df["seed"] == 1)]
    for tcp in [t for t in TCP_ORDER if t in set(sel["Tcp"])]:
        fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
        for _, row in sel[sel["Tcp"] == tcp].sort_values(
                ["Dcib", *VARIANT_COLS]).iterrows():
            series = read_csv(run_file(store, row, "throughput.csv"))
            if series is None:
                continue
            ax.plot(series["time_s"], series["goodput_gbps"], label=variant_label(row), lw=1)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("goodput across the DCI (Gbps, 10 ms bins)")
        ax.set_title(f"{tcp}: 5% cooperative WAN loss (cf. paper Fig. 10)", fontsize="medium")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
        path = out_dir / f"fig10-throughput-time-{tcp}.png"
        fig.savefig(path, dpi=130)
        plt.close(fig)
        written.append(path)


def fig_throughput_cdf(df, store, out_dir, written):
    """Fig. 10d/e: CDF of the 10 ms goodput samples after warm-up, both WANs, per TCP."""
    plt = _plt()
    tcps = [t for t in TCP_ORDER if t in set(df["Tcp"])]
    wans = [w for w in ("cooperative", "non-cooperative") if w in set(df["WanLoss"])]
    fig, axes = plt.subplots(len(wans), len(tcps), figsize=(5 * len(tcps), 3.6 * len(wans)),
                             layout="constrained", squeeze=False)
    for i, wan in enumerate(wans):
        for j, tcp in enumerate(tcps):
            ax = axes[i][j]
            cell = df[(df["WanLoss"] == wan) & (df["Tcp"] == tcp)]
            groups = {}
            for _, row in cell.iterrows():
                series = read_csv(run_file(store, row, "throughput.csv"))
                if series is None:
                    continue
                warm = row.get("Warmup", 0.5)
                groups.setdefault(variant_label(row), []).extend(
                    series[series["time_s"] > warm]["goodput_gbps"].tolist())
            for label in sorted(groups):
                xs, fs = metrics.ecdf(groups[label])
                ax.step(xs, fs, where="post", label=label)
            ax.set_title(f"{tcp}, {wan} loss", fontsize="medium")
            ax.set_xlabel("goodput (Gbps, 10 ms bins)")
            ax.set_ylabel("CDF")
            ax.grid(alpha=0.3)
            if groups:
                ax.legend(fontsize="x-small")
    path = out_dir / "fig10-throughput-cdf.png"
    fig.savefig(path, dpi=130)
    _plt().close(fig)
    written.append(path)


def _bars(ax, groups, series_labels, values, errors):
    n = len(series_labels)
    width = 0.8 / max(n, 1)
    for k, label in enumerate(series_labels):
        xs = [g - 0.4 + width * (k + 0.5) for g in range(len(groups))]
        ax.bar(xs, values[k], width * 0.95, yerr=errors[k], capsize=3, label=label)
    ax.set_xticks(range(len(groups)), groups)


def fig_bar_by_variant(df, metric, group_cols, ylabel, title, path, written):
    """Mean (95% CI over seeds) of `metric` per group, one bar per DCIB variant."""
    plt = _plt()
    df = df.copy()
    df["_variant"] = [variant_label(r) for _, r in df.iterrows()]
    df["_group"] = [", ".join(str(r[c]) for c in group_cols) for _, r in df.iterrows()]
    groups = list(dict.fromkeys(df.sort_values(group_cols)["_group"]))
    variants = sorted(set(df["_variant"]), key=lambda v: (v != "no DCIB", v))
    values, errors = [], []
    for v in variants:
        vs, es = [], []
        for g in groups:
            m, ci = metrics.mean_ci(df[(df["_variant"] == v) & (df["_group"] == g)][metric])
            vs.append(0 if math.isnan(m) else m)
            es.append(0 if math.isnan(ci) else ci)
        values.append(vs)
        errors.append(es)
    fig, ax = plt.subplots(figsize=(max(7, 1.2 * len(groups) * max(1, len(variants)) / 2), 4.2),
                           layout="constrained")
    _bars(ax, groups, variants, values, errors)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize="medium")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="x-small")
    fig.savefig(path, dpi=130)
    plt.close(fig)
    written.append(path)


def fig_throughput_vs_rtt(df, out_dir, written):
    """Fig. 12: mean goodput against RTT, per TCP, with and without DCIB."""
    plt = _plt()
    tcps = [t for t in TCP_ORDER if t in set(df["Tcp"])]
    fig, axes = plt.subplots(1, len(tcps), figsize=(5 * len(tcps), 3.8), layout="constrained",
                             squeeze=False)
    for j, tcp in enumerate(tcps):
        ax = axes[0][j]
        cell = df[df["Tcp"] == tcp].copy()
        cell["_variant"] = [variant_label(r) for _, r in cell.iterrows()]
        for label in sorted(set(cell["_variant"]), key=lambda v: (v != "no DCIB", v)):
            sub = cell[cell["_variant"] == label]
            rtts = sorted(set(sub["Rtt"]))
            means, cis = zip(*[metrics.mean_ci(sub[sub["Rtt"] == r]["goodput_gbps"]) for r in rtts]) \
                if rtts else ((), ())
            ax.errorbar(rtts, means, yerr=cis, marker="o", capsize=3, label=label)
        ax.set_xlabel("end-to-end RTT (ms)")
        ax.set_ylabel("average goodput (Gbps)")
        ax.set_title(f"{tcp}: limited edge buffer, 5% cooperative loss", fontsize="medium")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    path = out_dir / "fig12-throughput-vs-rtt.png"
    fig.savefig(path, dpi=130)
    plt.close(fig)
    written.append(path)


def fig_fct_cdf(df, store, out_dir, written):
    """Fig. 13: CDF of flow completion times (all seeds), mean and p99 marked, per TCP."""
    plt = _plt()
    for tcp in [t for t in TCP_ORDER if t in set(df["Tcp"])]:
        fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
        cell = df[df["Tcp"] == tcp]
        groups = {}
        for _, row in cell.iterrows():
            table = read_csv(run_file(store, row, "fct.csv"))
            if table is None:
                continue
            done = table[table["completed"] == 1]
            groups.setdefault(variant_label(row), []).extend(done["fct_ms"].tolist())
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        for k, label in enumerate(sorted(groups, key=lambda v: (v != "no DCIB", v))):
            xs, fs = metrics.ecdf(groups[label])
            if not xs:
                continue
            mean = float(np.mean(xs))
            p99 = metrics.percentile(xs, 99)
            c = colors[k % len(colors)]
            ax.step(xs, fs, where="post", color=c,
                    label=f"{label}: mean {mean:.0f} ms, p99 {p99:.0f} ms")
            ax.axvline(mean, color=c, ls="--", lw=0.8)
            ax.axvline(p99, color=c, ls=":", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("flow completion time (ms, log scale; dashed: mean, dotted: p99)")
        ax.set_ylabel("CDF")
        ax.set_title(f"{tcp}: 1000 web-search flows, 80% load, 5% cooperative loss", fontsize="medium")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="x-small", loc="lower right")
        path = out_dir / f"fig13-fct-cdf-{tcp}.png"
        fig.savefig(path, dpi=130)
        plt.close(fig)
        written.append(path)


def fig_retransmissions(frames, out_dir, written):
    """Host vs edge-router retransmissions per data segment, per campaign and variant."""
    plt = _plt()
    rows = []
    for name, df in frames.items():
        for _, row in df.iterrows():
            seg = row.get("host_data_segments") or 0
            if not seg:
                continue
            cond = row.get("WanLoss", "")
            rows.append((f"{name}\n{row['Tcp']} {cond}".strip(), variant_label(row),
                         row["host_retransmissions"] / seg, row["edge_retransmissions"] / seg,
                         (row.get("edge_idle_copies") or 0) / seg))
    if not rows:
        return
    import pandas as pd
    t = pd.DataFrame(rows, columns=["group", "variant", "host", "edge", "copies"])
    t = t.groupby(["group", "variant"], sort=False).mean().reset_index()
    # one horizontal bar per campaign x variant, labels on the left: the variant names are long
    # and there are many of them, so the figure grows downwards instead of sideways
    t = t.iloc[::-1].reset_index(drop=True)  # first row on top
    fig, ax = plt.subplots(figsize=(11, max(4.0, 0.22 * len(t) + 1.2)), layout="constrained")
    ys = range(len(t))
    ax.barh(ys, t["host"], label="host TCP retransmissions")
    ax.barh(ys, t["edge"], left=t["host"], label="edge retransmissions (router ACK gap)")
    ax.barh(ys, t["copies"], left=t["host"] + t["edge"], label="edge idle-time copies")
    labels = [f"{g.replace(chr(10), ': ')} | {v}" for g, v in zip(t["group"], t["variant"])]
    ax.set_yticks(list(ys), labels, fontsize="x-small")
    ax.set_ylim(-0.6, len(t) - 0.4)
    ax.set_xlabel("per data segment sent by the hosts")
    fig.suptitle("who retransmits: hosts vs the source edge router", fontsize="medium")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize="small", loc="lower right")
    path = out_dir / "retransmissions.png"
    fig.savefig(path, dpi=130)
    plt.close(fig)
    written.append(path)


def seeds_table(df, title):
    """Markdown lines: goodput per TCP and variant with its 95% CI and range over seeds, and each
    DCIB variant against the baseline seed by seed (metrics.paired_comparison)."""
    lines = [f"{title} (goodput, Gbps: mean, 95% CI of the mean, min-max over seeds; paired: the "
             "same seed without DCIB, with the share of seeds DCIB wins, the median of the "
             "per-seed ratios and the one-sided p of a sign-flip permutation test that DCIB is "
             "higher on average):", "",
             "| TCP | variant | seeds | goodput | 95% CI | min-max | vs no DCIB | paired wins | "
             "paired median | p |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    # conditions the campaign varies besides the TCP (each gets its own baseline)
    conds = [c for c in ("WanLoss", "BufferBdp", "Rtt") if c in df.columns and df[c].nunique() > 1]
    groups = sorted(df[df["Tcp"].isin(TCP_ORDER)].groupby(["Tcp", *conds]),
                    key=lambda group: TCP_ORDER.index(group[0][0]))  # stable: conditions stay sorted
    for key, cell in groups:
        tcp = ", ".join([key[0]] + [f"{c}={v:g}" if isinstance(v, float) else f"{c}={v}"
                                    for c, v in zip(conds, key[1:])])
        cell = cell.copy()
        cell["_variant"] = [variant_label(r) for _, r in cell.iterrows()]
        baseline = cell[cell["_variant"] == "no DCIB"]
        base, _ = metrics.mean_ci(baseline["goodput_gbps"])
        base_by_seed = dict(zip(baseline["seed"], baseline["goodput_gbps"]))
        for label in sorted(set(cell["_variant"]), key=lambda v: (v != "no DCIB", v)):
            runs = cell[cell["_variant"] == label]
            vals = list(runs["goodput_gbps"])
            m, ci = metrics.mean_ci(vals)
            row = f"| {tcp} | {label} | {len(vals)} | {m:.3f} | +-{ci:.3f} | {min(vals):.3f}-{max(vals):.3f} |"
            if label == "no DCIB":
                lines.append(row + " | | | |")
                continue
            paired = metrics.paired_comparison(base_by_seed, dict(zip(runs["seed"], runs["goodput_gbps"])))
            if paired["n"] == 0:
                lines.append(row + f" x{m / base:.2f} | - | - | - |")
                continue
            lines.append(row + f" x{m / base:.2f} | {paired['wins']}/{paired['n']} | "
                               f"x{paired['median_ratio']:.3f} | {paired['p']:.3f} |")
    return lines


# --- the paper table ---------------------------------------------------------------------------

def paper_rows():
    """(campaign, condition, tcp, ndnlab.paper Comparison) of every published factor."""
    for campaign, comparisons, condition in PAPER_CAMPAIGNS:
        for comparison in comparisons:
            yield (campaign, condition or comparison.where["wan_loss"], comparison.where["tcp"],
                   comparison)


def is_gain(comparison):
    """True for a throughput gain (shown as a factor), False for an FCT reduction (percent)."""
    return comparison.metric == "goodput_gbps"


def paper_factor_text(comparison):
    """The paper's number as the table shows it: x6 (IV-A, Fig. 10), -67% (Sec. VI)."""
    value = (f"x{paper_dcib.factor(comparison):g}" if is_gain(comparison)
             else f"{comparison.value_pct:.0f}%")
    source = comparison.source + (f" ({comparison.note})" if comparison.note else "")
    return f"{value} ({source})"


def paper_table(frames):
    """Markdown: the paper's factor beside ours for every published number (every DCIB variant
    and host setting we ran), plus our DCI utilisation under cooperative loss."""
    lines = ["| experiment | condition | TCP | our variant | paper | ours | no DCIB | with DCIB | n |",
             "|---|---|---|---|---|---|---|---|---|"]
    for exp, cond, tcp, comparison in paper_rows():
        df = frames.get(exp)
        metric, paper_text = comparison.metric, paper_factor_text(comparison)
        if df is None:
            lines.append(f"| {exp} | {cond} | {tcp} | not run | {paper_text} | - | - | - | 0 |")
            continue
        sub = df[df["Tcp"] == tcp]
        if exp == "artificial-loss":
            sub = sub[sub["WanLoss"] == cond]
        if sub.empty:
            lines.append(f"| {exp} | {cond} | {tcp} | not run | {paper_text} | - | - | - | 0 |")
            continue
        groups = [c for c in ("Rtt", "BufferBdp") if c in sub.columns and sub[c].nunique() > 1]
        rows = ratio_rows(sub, metric, groups)
        if not rows:
            lines.append(f"| {exp} | {cond} | {tcp} | no runs with DCIB yet | {paper_text} | - | - | - | 0 |")
        for r in rows:
            extra = ", ".join(f"{c}={r[c]:g}" if isinstance(r[c], float) else f"{c}={r[c]}"
                              for c in groups)
            variant = f"{r.get('Mode', 'stalled')}"
            variant += intercept_text(r)
            if "DupAckThreshold" in r:
                variant += f", dupthresh {int(r['DupAckThreshold'])}"
            if extra:
                variant += f", {extra}"
            if is_gain(comparison):
                ours = f"x{r['dcib'] / r['base']:.2f}" if r["base"] else "-"
            else:
                ours = f"{(r['dcib'] / r['base'] - 1) * 100:+.0f}%" if r["base"] else "-"
            lines.append(f"| {exp} | {cond} | {tcp} | {variant} | {paper_text} | {ours} | "
                         f"{fmt(r['base'])} | {fmt(r['dcib'])} | {r['n']}+{r['n_base']} |")
    lines.append("")
    lines.append("Metric: goodput_gbps (average over the measurement window) for the throughput "
                 "experiments, fct_mean_ms for the FCT experiment; n = runs with DCIB + runs "
                 "without.")
    df = frames.get("artificial-loss")
    if df is not None:
        lines += ["", "DCI link utilisation with DCIB under 5% cooperative loss (target >= 90%):", "",
                  "| TCP | variant | DCI utilisation | goodput / C |", "|---|---|---|---|"]
        sub = df[(df["Dcib"] == True) & (df["WanLoss"] == "cooperative")]  # noqa: E712
        keys = [c for c in ("Tcp", *VARIANT_COLS) if c in sub.columns]
        for values, cell in sub.groupby(keys):
            cond = dict(zip(keys, values))
            intercept = intercept_text(cond)
            lines.append(f"| {cond['Tcp']} | {cond.get('Mode')}{intercept}, dupthresh "
                         f"{int(cond.get('DupAckThreshold', 3))} | "
                         f"{mean_of(cell, 'dci_utilization') * 100:.1f}% | "
                         f"{mean_of(cell, 'goodput_utilization') * 100:.1f}% |")
    for name, title in MORE_SEEDS:
        if frames.get(name) is not None:
            lines += [""] + seeds_table(frames[name], title)
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m ndnlab.plots.dcib",
                                     description="DCIB figures and the paper-vs-ours table.")
    parser.add_argument("experiment", nargs="?", default="experiments/dcib",
                        help="directory with the campaign specs (default: %(default)s)")
    parser.add_argument("-o", "--output", default=None,
                        help="figure directory (default: EXPERIMENT/figures)")
    parser.add_argument("--table", default=None, help="write the paper table here (markdown)")
    args = parser.parse_args(argv)
    exp_dir = pathlib.Path(args.experiment)
    out_dir = pathlib.Path(args.output) if args.output else exp_dir / "figures"
    out_dir.mkdir(parents=True, exist_ok=True)

    frames, stores = {}, {}
    for name in SPECS:
        df, store = load(exp_dir, name)
        if df is not None:
            frames[name], stores[name] = df, store
    if not frames:
        print(f"no runs found under {exp_dir} (run the campaigns first)", file=sys.stderr)
        return 1
    written = []
    if "artificial-loss" in frames:
        fig_throughput_time(frames["artificial-loss"], stores["artificial-loss"], out_dir, written)
        fig_throughput_cdf(frames["artificial-loss"], stores["artificial-loss"], out_dir, written)
        fig_bar_by_variant(frames["artificial-loss"], "jain_index", ["Tcp", "WanLoss"],
                           "Jain's index of per-flow goodput", "fairness, 5% artificial loss",
                           out_dir / "fairness.png", written)
        fig_bar_by_variant(frames["artificial-loss"], "goodput_gbps", ["Tcp", "WanLoss"],
                           "average goodput (Gbps)", "15 long flows, 5% artificial WAN loss (Fig. 10)",
                           out_dir / "fig10-average.png", written)
    if "no-loss" in frames:
        fig_bar_by_variant(frames["no-loss"], "goodput_gbps", ["Tcp", "BufferBdp"],
                           "average goodput (Gbps)", "no artificial loss (Fig. 11); group: TCP, RED limit in BDP",
                           out_dir / "fig11-no-loss.png", written)
        fig_bar_by_variant(frames["no-loss"], "jain_index", ["Tcp", "BufferBdp"],
                           "Jain's index of per-flow goodput", "fairness, no artificial loss",
                           out_dir / "fairness-no-loss.png", written)
    if "limited-buffer" in frames:
        fig_throughput_vs_rtt(frames["limited-buffer"], out_dir, written)
    if "fct" in frames:
        fig_fct_cdf(frames["fct"], stores["fct"], out_dir, written)
    fig_retransmissions({k: v for k, v in frames.items() if k not in SEEDS_ONLY}, out_dir, written)
    table = paper_table(frames)
    if args.table:
        pathlib.Path(args.table).write_text(table)
        written.append(pathlib.Path(args.table))
    else:
        print(table)
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
