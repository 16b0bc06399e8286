#!/usr/bin/env python3
"""Tables and figures of the BLEnD "beyond the paper" campaigns (beyond-*.toml).

    beyond.py [--figures DIR] [-o REPORT.md]

Reads the shared store experiments/blend/results/beyond through each spec, groups the runs by
configuration (mean of the seeds, 95% Student-t half-width), and writes one markdown section
per campaign:

Every gain is against one baseline (issue 31), "paper's BLEnD" in the tables: the paper's
configuration as Fig. 7 runs it (Profile = "ndnsim": ndnSIM 2.7's consumers, BI 15, ndnlab's
reading of the encoder), with the paper's rules as written beside it; "BI 15" is ndncatchunks'
consumer with ndnlab's encoder at the paper's interval.

- beyond-a: encoder-side options against the paper's BLEnD on one hop, % of the bound;
- beyond-b: the paced consumer against window bursts, with timeouts and duplicate Data
  (premature timeouts: Data received for a segment already satisfied);
- beyond-best: the paper's BLEnD, ndnlab's BI 15 and the best configuration beside the one-Interest bound in both
  addressing modes, with the issue's 95% target;
- beyond-chain, beyond-hidden: the multi-hop scenarios, every configuration against no
  bundling and the paper's BLEnD.

Figures (PNG, one per campaign) go to --figures (default: the store directory).
"""

import argparse
import math
import pathlib

from ndnlab import metrics, profiles
from ndnlab.store import open_source

HERE = pathlib.Path(__file__).resolve().parent
STD = {"80211b": "802.11b", "80211n": "802.11n"}
# the baseline of every gain: the paper's BLEnD as Fig. 7 runs it (ndnSIM 2.7's consumers, BI 15,
# ndnlab's reading of the encoder, the one the reproduction keeps); beside it the rules as written
PAPER = "paper's BLEnD"
WRITTEN = "paper's BLEnD, rules as written"
# a stored run keeps its profile's knobs, not its name: ndnSIM's CWA gate is that profile's alone
NDNSIM_GATE = profiles.PRESETS["ndnsim"]["CwaGate"]


def mean_ci(values):
    """(mean, 95 % CI half-width, n) of the finite values (ndnlab.metrics.mean_ci); the
    half-width is NaN below two values."""
    finite = [float(x) for x in values if x is not None and math.isfinite(float(x))]
    m, ci = metrics.mean_ci(finite)
    return m, (ci if len(finite) >= 2 else math.nan), len(finite)


def flag(row, key, default=False):
    """A boolean parameter of a run; absent (NaN in a store that mixes grids) is `default`."""
    v = row.get(key, default)
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return default
    return bool(v)


def variant(row):
    """Short name of a run's BLEnD / consumer configuration."""
    if row["Consumer"] == "one-interest":
        return "one-Interest bound"
    bi = int(row["BundleInterval"])
    if bi == 0:
        name = "no bundling"
    elif row.get("CwaGate") == NDNSIM_GATE:  # Profile = "ndnsim": the paper's consumers
        written = flag(row, "BundlePaperEncoder") and not flag(row, "BundleHoldEarlyData", True)
        name = (WRITTEN if written else PAPER) + ("" if bi == 15 else f", BI {bi}")
    else:
        name = f"BI {bi}"
        if flag(row, "BundleDynamicInterval"):
            share = float(row.get("BundleCwndShare", 0.5))
            name = f"dyn {share:g} cwnd, BI <= {bi}"
        if flag(row, "BundleLossDetection"):
            name += " + LD"
    if flag(row, "Pacing"):
        gain = float(row.get("PacingGain", 1.25))
        name += " + pacing" + ("" if abs(gain - 1.25) < 1e-9 else f" x{gain:g}")
    return name


def link(row):
    """Link mode: addressing, and the HT mode / A-MPDU when set."""
    parts = [row["Addressing"]]
    if row.get("DataMode"):
        parts.append(str(row["DataMode"]))
    if flag(row, "Ampdu"):
        parts.append("A-MPDU")
    return " ".join(parts)


def load_runs(spec_name):
    store, spec = open_source(str(HERE / f"{spec_name}.toml"))
    df = store.load(spec=spec)
    if len(df) == 0:
        return df
    df = df.copy()
    df["variant"] = df.apply(variant, axis=1)
    df["link"] = df.apply(link, axis=1)
    if "segments" not in df and "flows.b_from_a.segments" in df:  # wifi-hidden: two flows
        df["segments"] = df["flows.b_from_a.segments"] + df["flows.c_from_d.segments"]
    flows = 2 if "flows.b_from_a.segments" in df else 1
    df["duplicates"] = df.apply(lambda r: metrics.duplicate_data(r["data_received"], r["segments"], r, flows), axis=1)
    return df


def fmt(m, ci=math.nan, digits=2):
    if isinstance(m, float) and math.isnan(m):
        return "–"
    s = f"{m:.{digits}f}"
    if not math.isnan(ci):
        s += f" ± {ci:.{digits}f}"
    return s


def groups(df, keys):
    out = {}
    for k, g in df.groupby(keys, sort=False):
        out[k if isinstance(k, tuple) else (k,)] = g
    return out


def bound_of(df):
    """(Standard, link) -> mean one-Interest goodput."""
    b = df[df["Consumer"] == "one-interest"]
    return {k: mean_ci(g["goodput_mbps"])[0] for k, g in groups(b, ["Standard", "link"]).items()}


def variant_order(df, first=("no bundling", PAPER, WRITTEN, "BI 15")):
    seen = []
    for v in first:
        if v in set(df["variant"]):
            seen.append(v)
    for v in df["variant"]:
        if v not in seen and v != "one-Interest bound":
            seen.append(v)
    return seen


def one_hop_table(df, metrics, with_bound=True):
    """Rows (Standard, link, Consumer, variant): goodput (% of bound, against the paper's
    BLEnD) and metrics."""
    bounds = bound_of(df) if with_bound else {}
    runs = df[df["Consumer"] != "one-interest"]
    order = variant_order(runs)
    head = ["Standard", "addressing", "Consumer", "configuration", "goodput (Mbit/s)", "n"]
    if with_bound:
        head += ["% of bound"]
    head += [f"vs {PAPER}"] + [m[0] for m in metrics]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    g = groups(runs, ["Standard", "link", "Consumer", "variant"])
    for std in ["80211b", "80211n"]:
        for lk in sorted(set(runs["link"])):
            for cc in ["aimd", "cubic"]:
                plain = g.get((std, lk, cc, PAPER))
                plain_m = mean_ci(plain["goodput_mbps"])[0] if plain is not None else math.nan
                for v in order:
                    rows = g.get((std, lk, cc, v))
                    if rows is None:
                        continue
                    m, ci, n = mean_ci(rows["goodput_mbps"])
                    cells = [STD.get(std, std), lk, cc, v, fmt(m, ci, 3), str(n)]
                    if with_bound:
                        b = bounds.get((std, lk), math.nan)
                        cells.append(fmt(100 * m / b, digits=1) + "%" if b == b else "–")
                    cells.append("–" if v == PAPER or plain_m != plain_m else f"{100 * (m / plain_m - 1):+.1f}%")
                    for _, col, digits in metrics:
                        cells.append(fmt(mean_ci(rows[col])[0], digits=digits))
                    lines.append("| " + " | ".join(cells) + " |")
    if with_bound and bounds:
        lines.append("")
        lines.append("One-Interest bound (mean of the seeds): " + "; ".join(
            f"{STD.get(s, s)} {lk}: {b:.3f} Mbit/s" for (s, lk), b in sorted(bounds.items())))
    return "\n".join(lines)


def multihop_table(df, metrics):
    runs = df
    order = variant_order(runs)
    head = ["Standard", "link", "Consumer", "configuration", "goodput (Mbit/s)", "n", "vs none", f"vs {PAPER}"]
    head += [m[0] for m in metrics]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    g = groups(runs, ["Standard", "link", "Consumer", "variant"])
    links = sorted(set(runs["link"]), key=lambda s: (("HtMcs" in s), s))
    for std in ["80211b", "80211n"]:
        for lk in links:
            for cc in ["aimd", "cubic"]:
                ref = {}
                for name in ("no bundling", PAPER):
                    r = g.get((std, lk, cc, name))
                    ref[name] = mean_ci(r["goodput_mbps"])[0] if r is not None else math.nan
                for v in order:
                    rows = g.get((std, lk, cc, v))
                    if rows is None:
                        continue
                    m, ci, n = mean_ci(rows["goodput_mbps"])
                    cells = [STD.get(std, std), lk, cc, v, fmt(m, ci, 3), str(n)]
                    for name in ("no bundling", PAPER):
                        r = ref[name]
                        cells.append("–" if v == name or r != r or r == 0 else f"{100 * (m / r - 1):+.1f}%")
                    for _, col, digits in metrics:
                        cells.append(fmt(mean_ci(rows[col])[0], digits=digits) if col in rows else "–")
                    lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def pivot_table(df, variants, ref=PAPER):
    """One row per (Standard, link, Consumer), one column per variant: mean goodput and, beside
    it, the change against `ref` (or "stalled" when no run of the group completed)."""
    runs = df[df["Consumer"] != "one-interest"]
    g = groups(runs, ["Standard", "link", "Consumer", "variant"])
    present = [v for v in variants if v in set(runs["variant"])]
    head = ["Standard", "link", "Consumer"] + present
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    links = sorted(set(runs["link"]), key=lambda s: (("HtMcs" in s), s))
    for std in ["80211b", "80211n"]:
        for lk in links:
            for cc in ["aimd", "cubic"]:
                r = g.get((std, lk, cc, ref))
                base = mean_ci(r["goodput_mbps"])[0] if r is not None else math.nan
                cells = [STD.get(std, std), lk, cc]
                any_cell = False
                for v in present:
                    rows = g.get((std, lk, cc, v))
                    if rows is None:
                        cells.append("")
                        continue
                    any_cell = True
                    m = mean_ci(rows["goodput_mbps"])[0]
                    cell = f"{m:.2f}"
                    if not rows["completed"].astype(bool).any():
                        cell += " (stalled)"
                    elif v != ref and base == base and base > 0:
                        cell += f" ({100 * (m / base - 1):+.0f}%)"
                    cells.append(cell)
                if any_cell:
                    lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def target_verdict(m, ci, bound, share=0.95):
    """The 95%-of-bound target, two-sided over the seeds: "met" when the whole 95% CI of the
    mean goodput is at or above share x bound, "not met" when it is all below, "within noise"
    when it spans the line (or has fewer than two seeds)."""
    line = share * bound
    if ci != ci:
        return "within noise (one seed)"
    if m - ci >= line:
        return "met"
    if m + ci < line:
        return "not met"
    return f"within noise ({100 * (m - ci) / bound:.1f}-{100 * (m + ci) / bound:.1f}%)"


def best_table(df):
    """The paper's BLEnD, ndnlab's BI 15 and the best configuration as % of the bound, with the
    95% verdict."""
    bounds = bound_of(df)
    runs = df[df["Consumer"] != "one-interest"]
    g = groups(runs, ["Standard", "link", "Consumer", "variant"])
    variants = [v for v in variant_order(runs)]
    head = ["Standard", "addressing", "Consumer", "bound (Mbit/s)"]
    for v in variants:
        head += [f"{v} (Mbit/s)", f"{v}: % of bound"]
    head += ["target >= 95% (95% CI of the mean)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for std in ["80211b", "80211n"]:
        for lk in sorted(set(runs["link"])):
            for cc in ["aimd", "cubic"]:
                b = bounds.get((std, lk), math.nan)
                cells = [STD.get(std, std), lk, cc, fmt(b, digits=3)]
                verdicts = []
                for v in variants:
                    rows = g.get((std, lk, cc, v))
                    if rows is None:
                        cells += ["–", "–"]
                        continue
                    m, ci, _ = mean_ci(rows["goodput_mbps"])
                    pct = 100 * m / b
                    cells += [fmt(m, ci, 3), f"{pct:.1f}%"]
                    verdicts.append(f"{v}: {target_verdict(m, ci, b)}")
                cells.append("; ".join(verdicts) if b == b else "–")
                lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def figure(df, path, title, scenario_bound=True, relative=False):
    """Grouped bars, one panel per (Standard, link): goodput in Mbit/s, or with `relative` in
    % of the one-Interest bound of that link (y axis from 85%)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = df[df["Consumer"] != "one-interest"]
    order = variant_order(runs)
    panels = [(s, lk) for s in ["80211b", "80211n"] for lk in sorted(set(runs["link"]))
              if len(runs[(runs["Standard"] == s) & (runs["link"] == lk)])]
    bounds = bound_of(df) if scenario_bound else {}
    ncols = 2 if len(panels) == 4 else min(3, len(panels))
    nrows = (len(panels) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.6 * ncols, 3.6 * nrows + 0.9), squeeze=False)
    colors = plt.get_cmap("tab10" if len(order) <= 10 else "tab20")
    color = {v: colors(i) for i, v in enumerate(order)}
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, (std, lk) in zip(axes.flat, panels):
        sub = runs[(runs["Standard"] == std) & (runs["link"] == lk)]
        vs = [v for v in order if v in set(sub["variant"])]
        width = 0.8 / max(len(vs), 1)
        for i, v in enumerate(vs):
            xs, ms, cis = [], [], []
            for j, cc in enumerate(["aimd", "cubic"]):
                r = sub[(sub["variant"] == v) & (sub["Consumer"] == cc)]
                m, ci, _ = mean_ci(r["goodput_mbps"])
                if relative:
                    scale = 100 / bounds[(std, lk)]
                    m, ci = m * scale, ci * scale
                xs.append(j + (i - (len(vs) - 1) / 2) * width)
                ms.append(m)
                cis.append(0 if ci != ci else ci)
            ax.bar(xs, ms, width, yerr=cis, capsize=2, label=v, color=color[v])
        b = bounds.get((std, lk))
        if b and relative:
            ax.axhline(100, color="black", linestyle="--", linewidth=1, label="one-Interest bound")
            ax.axhline(95, color="grey", linestyle=":", linewidth=1, label="95% of the bound")
            ax.set_ylim(85, 101)
        elif b:
            ax.axhline(b, color="black", linestyle="--", linewidth=1, label="one-Interest bound")
            ax.axhline(0.95 * b, color="grey", linestyle=":", linewidth=1, label="95% of the bound")
        ax.set_xticks([0, 1])
        ax.set_xticklabels(["AIMD", "CUBIC"])
        ax.set_title(f"{STD.get(std, std)}, {lk}", fontsize=9)
        ax.set_ylabel("% of the one-Interest bound" if relative else "goodput (Mbit/s)")
    legend = {}
    for ax in axes.flat[:len(panels)]:
        for h, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, h)
    fig.legend(list(legend.values()), list(legend.keys()), loc="lower center", ncol=min(4, len(legend)),
               fontsize=8)
    fig.suptitle(title, fontsize=10)
    rows_of_legend = (len(legend) + 3) // 4
    fig.tight_layout(rect=(0, (0.035 * rows_of_legend + 0.02) * 2.5 / (nrows + 0.5), 1, 0.96))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", help="write the report here (default: stdout)")
    ap.add_argument("--figures", help="directory of the PNG figures (default: the store)")
    args = ap.parse_args()
    figdir = pathlib.Path(args.figures) if args.figures else HERE / "results" / "beyond"
    figdir.mkdir(parents=True, exist_ok=True)
    out = ["<!-- generated by experiments/blend/run beyond (experiments/blend/beyond.py); do not edit -->", "",
           "# Results: BLEnD beyond the paper", "",
           f"Every change is against one baseline, **{PAPER}**: the paper's configuration as Fig. 7 runs it "
           "(`Profile = \"ndnsim\"`: ndnSIM 2.7's ConsumerPcon and Consumer; BI 15; ndnlab's reading of the "
           "encoder, the one the reproduction keeps, docs/results/blend.md). Beside it, "
           f"**{WRITTEN}** (`BundlePaperEncoder = true`, `BundleHoldEarlyData = false`: a new bundle only "
           "at seq >= LSS + BI, every other Interest but a retransmission absorbed, early Data dropped). "
           "Every other configuration runs ndncatchunks' consumer (`Profile = \"ndncatchunks\"`), as the "
           "campaigns did before issue 31: \"BI 15\" is that consumer with ndnlab's encoder at the paper's "
           "interval; LD = "
           "`BundleLossDetection`, dyn = `BundleDynamicInterval`, pacing = `Pacing` (gain 1.25 unless "
           "stated). Goodput: mean ± 95 % Student-t half-width over the seeds (n). \"duplicates\": Data "
           "received less segments (premature timeouts), the version-discovery Data not counted.", ""]
    common = [("timeouts", "timeouts", 0), ("duplicates", "duplicates", 0)]

    a = load("beyond-a")
    if len(a):
        seeds = sorted({int(s) for s in a["seed"]})
        versions = sorted({str(v) for v in a.get("sim_version", [])} - {"nan"})
        out += [f"Seeds {', '.join(map(str, seeds))} unless the n column says more"
                + (f"; simulator {', '.join(versions)}." if versions else "."), ""]
        out += ["## (a) loss detection and bundle interval, one hop (beyond-a)", "",
                one_hop_table(a, common + [
                    ("recovery bundles", "bundling.consumer.bundle_recoveries", 0),
                    ("bundles", "bundling.consumer.bundles_out", 0),
                    ("gap-filled", "bundling.producer.interests_gap_filled", 0)]), ""]
        figure(a, figdir / "blend-beyond-a.png", "BLEnD beyond the paper (a): one hop, broadcast, 100 MiB",
               relative=True)
    b = load("beyond-b")
    if len(b):
        b = b.copy()
        b["consumer_rtt"] = b["rtt_avg_ms"]
        out += ["## (b) the paced consumer, one hop (beyond-b)", "",
                one_hop_table(b, common + [("retransmissions", "retransmissions", 0),
                                           ("mean RTT (ms)", "rtt_avg_ms", 1)], with_bound=False), ""]
        figure(b, figdir / "blend-beyond-b.png", "BLEnD beyond the paper (b): paced consumer, one hop, broadcast",
               scenario_bound=False)
    best = load("beyond-best")
    if len(best):
        out += ["## Best configuration against the 95% target (beyond-best)", "", best_table(best), "",
                one_hop_table(best, common + [("retransmissions", "retransmissions", 0)]), ""]
        figure(best, figdir / "blend-beyond-best.png",
               "The paper's BLEnD, ndnlab's and its best configuration against the one-Interest bound",
               relative=True)
    summary = ["no bundling", PAPER, WRITTEN, "BI 15", "BI 15 + LD", "BI 15 + pacing", "BI 15 + LD + pacing", "BI 64",
               "BI 64 + LD", "BI 64 + LD + pacing"]
    chain = load("beyond-chain")
    if len(chain):
        out += ["## (c) two hops: wifi-chain (beyond-chain)", "",
                "Goodput (Mbit/s), mean of 3 seeds, change against the paper's BLEnD:", "",
                pivot_table(chain, summary), "",
                multihop_table(chain, [("completed", "completed", 2)] + common + [
                    ("consumer Interest frames", "consumer_frames", 0),
                    ("relay Interest frames", "relay_frames", 0),
                    ("recoveries (consumer + relay)", "recoveries", 0)]), ""]
        figure(chain, figdir / "blend-beyond-chain.png", "BLEnD over two hops (wifi-chain), 20 MiB",
               scenario_bound=False)
    hidden = load("beyond-hidden")
    if len(hidden):
        out += ["## (c) hidden stations, Fig. 10: wifi-hidden (beyond-hidden)", "",
                "Goodput of both flows (Mbit/s), mean of 3 seeds, change against the paper's BLEnD:", "",
                pivot_table(hidden, summary), "",
                multihop_table(hidden, [("completed", "completed", 2), ("fairness", "fairness", 3), ("timeouts", "timeouts", 0),
                                        ("B + C Interest frames", "consumer_frames", 0),
                                        ("recoveries", "recoveries", 0)]), ""]
        figure(hidden, figdir / "blend-beyond-hidden.png", "BLEnD, Fig. 10 hidden stations (wifi-hidden), 20 MiB per flow",
               scenario_bound=False)
    text = "\n".join(out)
    if args.output:
        pathlib.Path(args.output).write_text(text + "\n")
    else:
        print(text)


def _frames(df, nodes, kind):
    """Sum over `nodes` of Interest frames (Interests sent minus absorbed) or recoveries."""
    total = 0
    for n in nodes:
        if kind == "frames":
            total = total + df[f"nodes.{n}.interests_out"] - df[f"nodes.{n}.bundling.interests_absorbed"] \
                + df[f"nodes.{n}.bundling.bundle_recoveries"]
        else:
            total = total + df[f"nodes.{n}.bundling.bundle_recoveries"]
    return total


def load(spec_name):
    """The runs of a spec, with the variant and link names and the multi-hop frame counts."""
    df = load_runs(spec_name)
    if len(df) == 0:
        return df
    if "nodes.relay.interests_out" in df:
        df["consumer_frames"] = _frames(df, ["consumer"], "frames")
        df["relay_frames"] = _frames(df, ["relay"], "frames")
        df["recoveries"] = _frames(df, ["consumer", "relay"], "rec")
    elif "nodes.b.interests_out" in df:
        df["consumer_frames"] = _frames(df, ["b", "c"], "frames")
        df["recoveries"] = _frames(df, ["b", "c"], "rec")
    return df


if __name__ == "__main__":
    main()
