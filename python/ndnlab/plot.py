"""`ndnlab plot SPEC.toml|STORE --x PARAM --y METRIC`: a figure of a campaign's results.

bar and line plots show the mean over seeds with 95% confidence intervals (Student t) as
error bars; cdf plots the empirical distribution of the metric over runs (list-valued metrics,
e.g. per-flow completion times, contribute every element). Runs on both backends (ns3 and emu)
are overlaid: one series per backend in the hue's colour, emu dashed with square markers
(hatched bars)."""

import argparse
import pathlib
import sys

from ndnlab import data, metrics, paper
from ndnlab.spec import PaperMapping
from ndnlab.store import is_number, write_whole

KINDS = ("bar", "line", "cdf")
# How each backend's series look when a figure has both: line style, marker, bar hatch.
BACKEND_STYLE = {"ns3": ("-", "o", None), "emu": ("--", "s", "//")}
FORMATS = (".png", ".svg", ".pdf")


def _label(name, value):
    return f"{name}={data.fmt(value)}"


def _series(df, hue, hues):
    """(hue index, hue value, backend or None, sub-DataFrame, label) of every series: one per
    hue value, and per backend when df has runs of more than one."""
    backends = data.backends(df)
    split = len(backends) > 1
    out = []
    for i, h in enumerate(hues):
        sub = df if h is None else df[df[hue] == h]
        for b in (backends if split else [None]):
            part = sub if b is None else sub[sub["backend"] == b]
            names = ([] if h is None else [_label(hue, h)]) + ([] if b is None else [b])
            out.append((i, h, b, part, " ".join(names) or None))
    return out


def make_figure(df, y, x=None, hue=None, kind="bar", spec=None, experiment=None, title=None,
                col=None):
    """The matplotlib Figure for already filtered runs `df`; with `col`, one panel per value of
    that parameter, side by side on a shared y axis."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = data.value_order(df, col, spec) if col else [None]
    width = 7 if col is None else max(7, 3.6 * len(panels))
    fig, axes = plt.subplots(1, len(panels), figsize=(width, 4.5), layout="constrained",
                             sharey=True, squeeze=False)
    for i, (ax, value) in enumerate(zip(axes[0], panels)):
        sub = df if value is None else df[df[col] == value]
        sub.attrs.update(df.attrs)
        _draw(ax, sub, y, x, hue, kind, spec, experiment, legend=(i == len(panels) - 1),
              hues=data.value_order(df, hue, spec) if hue else [None],
              xs=data.value_order(df, x, spec) if x else None)
        if value is not None:
            ax.set_title(_label(col, value), fontsize="medium")
        if i:
            ax.set_ylabel("")
    heading = title or (spec.name if spec is not None else "")
    if col is None:
        axes[0][0].set_title(heading, fontsize="medium")
    elif heading:
        fig.suptitle(heading, fontsize="medium")
    return fig


def _draw(ax, df, y, x, hue, kind, spec, experiment, legend, hues, xs):
    """One panel: bars or lines of the mean with 95% CI per x and hue (the paper's values as
    diamonds), or the CDF of y per hue."""
    import matplotlib.pyplot as plt

    mapping = spec.paper if spec is not None else PaperMapping()
    params = df.attrs.get("params", [])
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]

    series = _series(df, hue, hues)
    if kind == "cdf":
        for i, h, b, sub, label in series:
            values = []
            for v in sub[y]:
                values.extend(v if isinstance(v, list) else [v])
            xs_, fs = metrics.ecdf(values)
            if xs_:
                ax.step(xs_, fs, where="post", color=colors[i % len(colors)],
                        linestyle=BACKEND_STYLE.get(b, ("-",))[0], label=label)
        ax.set_xlabel(y)
        ax.set_ylabel("fraction of samples (CDF)")
        ax.set_ylim(0, 1.02)
    else:
        paper_drawn = False
        width = 0.8 / len(series)
        for n, (i, h, b, sub, label) in enumerate(series):
            linestyle, marker, hatch = BACKEND_STYLE.get(b, ("-", "o", None))
            means, errs, positions, refs = [], [], [], []
            for j, xv in enumerate(xs):
                cell = sub[sub[x] == xv]
                if kind == "line" and not len(cell):
                    continue
                mean, ci = metrics.mean_ci(v for v in cell[y] if is_number(v))
                pos = (j - 0.4 + width * (n + 0.5)) if kind == "bar" else xv
                means.append(mean)
                errs.append(ci)
                positions.append(pos)
                ref = None
                if experiment is not None and len(cell):
                    ref = paper.best_reference(experiment, y, [y],
                                               data.constant_values(cell, params), mapping)
                refs.append((pos, ref.value if ref else None))
            color = colors[i % len(colors)]
            if kind == "bar":
                ax.bar(positions, means, width * 0.95, yerr=errs, capsize=3, color=color,
                       label=label, hatch=hatch, edgecolor="white" if hatch else None)
            elif positions:
                ax.errorbar(positions, means, yerr=errs, marker=marker, linestyle=linestyle,
                            capsize=3, color=color, label=label)
            for pos, value in refs:
                if value is None:
                    continue
                ax.plot([pos], [value], marker="D", markersize=7, markerfacecolor="none",
                        markeredgecolor="black", linestyle="none",
                        label=None if paper_drawn else f"paper ({experiment.name})")
                paper_drawn = True
        if kind == "bar":
            ax.set_xticks(range(len(xs)), [data.fmt(v) for v in xs])
        ax.set_xlabel(x)
        ax.set_ylabel(f"{y} (mean, 95% CI)")
        ax.grid(axis="y", alpha=0.3)
    if legend and (hue or ax.get_legend_handles_labels()[0]):
        # beside the last panel, not over it: bars fill the panel's lower part and the paper's
        # diamonds its upper part, so no corner inside is free
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)


def build_parser(prog=None):
    parser = argparse.ArgumentParser(
        prog=prog or "ndnlab plot",
        description="Plot a metric of a campaign's runs against a parameter (mean over seeds "
                    "with 95% confidence intervals), or its CDF.")
    parser.add_argument("source", metavar="SPEC.toml|STORE",
                        help="campaign spec (its runs) or result-store directory (all runs)")
    parser.add_argument("--x", metavar="PARAM", help="parameter on the x axis (bar, line)")
    parser.add_argument("--y", metavar="METRIC", required=True, help="metric to plot")
    parser.add_argument("--hue", metavar="PARAM", help="parameter that colours the series")
    parser.add_argument("--col", metavar="PARAM",
                        help="one panel per value of this parameter, side by side")
    parser.add_argument("--kind", choices=KINDS, default="bar", help="default: %(default)s")
    parser.add_argument("--where", action="append", metavar="NAME=VALUE",
                        help="keep only runs with this parameter value; repeatable: values of "
                             "one parameter are alternatives (OR), different parameters must "
                             "all match (AND)")
    parser.add_argument("--paper", metavar="EXPERIMENT",
                        help="mark the paper's values (default: the spec's paper.experiment; "
                             "'none' for no marks)")
    parser.add_argument("--title", help="figure title (default: the campaign name)")
    parser.add_argument("-o", "--output", metavar="FIG", required=True,
                        help=f"output file ({', '.join(FORMATS)})")
    return parser


def _follows(df, param, shown):
    """True when `param` has one value per combination of the plotted parameters `shown` (it
    varies only together with them, e.g. options that come with one hue value), so no bar or
    point mixes its values."""
    if not shown:
        return False
    keys = [df[c].astype(str) for c in shown]
    return bool((df[param].astype(str).groupby(keys).nunique() <= 1).all())


def run(args):
    data.check_output(args.output)
    output = pathlib.Path(args.output)
    if output.suffix.lower() not in FORMATS:
        raise data.UsageError(f"-o {output}: use a file name ending in {', '.join(FORMATS)}")
    if args.kind == "cdf" and args.x is not None:
        raise data.UsageError("--x is not used with --kind cdf (the metric is the x axis)")
    if args.kind != "cdf" and args.x is None:
        raise data.UsageError(f"--kind {args.kind} needs --x PARAM")
    if args.paper == "":
        raise data.UsageError("--paper: empty name; give an experiment or 'none'")
    where = data.parse_where(args.where)
    df, spec, store = data.load(args.source)
    if df.empty:
        raise data.UsageError(f"no successful runs in {store.root} for {args.source}")
    params = df.attrs.get("params", [])
    # a CDF takes every element of a list-valued metric; bars and lines need one number per run
    data.check_column(df, args.y, "--y metric", data.numeric_metrics(df, lists=args.kind == "cdf"))
    for option, name in (("--x", args.x), ("--hue", args.hue), ("--col", args.col)):
        if name is not None:
            data.check_column(df, name, f"{option} parameter", params)
    df = data.apply_where(df, where)
    shown = [c for c in (args.x, args.hue, args.col) if c is not None]
    others = [p for p in data.varying(df, params) if p not in shown
              and not _follows(df, p, shown)]
    if others:
        raise data.UsageError(
            "these parameters also vary and would be mixed: " + ", ".join(
                f"{p} ({', '.join(map(str, data.value_order(df, p, spec)))})" for p in others)
            + "; pick one with --where NAME=VALUE or use it as --hue")
    experiment = None
    name = args.paper or (spec.paper.experiment if spec is not None else None)
    if name and name != "none":
        try:
            experiment = paper.get_experiment(name)
        except KeyError as e:
            raise data.UsageError(str(e.args[0])) from None
    fig = make_figure(df, args.y, args.x, args.hue, args.kind, spec, experiment, args.title,
                      args.col)
    # the temporary file's name does not end in the format's suffix: name the format
    write_whole(output, lambda tmp: fig.savefig(tmp, dpi=150, format=output.suffix[1:].lower()))
    print(f"wrote {output} ({len(df)} runs)")
    return 0


def main(argv=None, prog=None):
    return data.run_cli("plot", build_parser(prog), run, argv)


if __name__ == "__main__":
    sys.exit(main())
