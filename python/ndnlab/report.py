"""`ndnlab report SPEC.toml|STORE [--paper EXPERIMENT] -o REPORT.md`: markdown tables of a
campaign's results (mean, stddev, 95% CI and number of seeds per group) with the paper's
published numbers beside ours and the relative difference. When the runs are on both backends
(ns3 and emu), the results are per backend too, and a table puts the two side by side per grid
cell: each backend's median and their difference."""

import argparse
import datetime
import math
import pathlib
import sys

from ndnlab import data, metrics, paper
from ndnlab.spec import EMU, NS3, PaperMapping, SpecError
from ndnlab.store import STATUS_OK, StoreError, is_number, write_whole


def _cell(value):
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


class _Notes:
    """Footnotes for the paper's sources: each distinct (source, note) gets a number."""

    def __init__(self):
        self.items = {}

    def mark(self, source, note):
        if not note:
            return source
        key = (source, note)
        number = self.items.setdefault(key, len(self.items) + 1)
        return f"{source} [{number}]"

    def lines(self):
        return [f"{n}. {source}: {note}" for (source, note), n in self.items.items()]


def paper_metrics(exp, mapping, metric_columns):
    """Our metric columns that the experiment has numbers for, in the paper's order."""
    names = [r.metric for r in exp.references] + [c.metric for c in exp.comparisons]
    found = []
    for name in dict.fromkeys(names):
        column = paper.resolve_name(name, metric_columns, mapping.metrics)
        if column is not None and column not in found:
            found.append(column)
    return found


def results_table(df, by, metric_names, exp, mapping, notes, spec=None):
    params = df.attrs.get("params", [])
    metric_columns = df.attrs.get("metrics", [])
    header = list(by) + ["metric", "mean", "stddev", "95% CI ±", "n"]
    if exp is not None:
        header += ["paper", "ours vs paper", "paper source"]
    rows, matched = [], 0
    groups = _groups(df, by, spec)
    for key, group in groups:
        group_params = data.constant_values(group, params)
        for metric in metric_names:
            values = [float(v) for v in group[metric] if is_number(v)]
            if not values:
                continue
            mean, ci = metrics.mean_ci(values)
            row = [data.fmt(v) for v in key]
            row += [metric, data.fmt(mean), data.fmt(metrics.stddev(values)), data.fmt(ci),
                    str(len(values))]
            if exp is not None:
                ref = paper.best_reference(exp, metric, metric_columns, group_params, mapping)
                if ref is None:
                    row += ["", "", ""]
                else:
                    matched += 1
                    row += [str(ref.value) + (f" {ref.unit}" if ref.unit else ""),
                            data.fmt_pct(metrics.relative_diff(mean, ref.value)),
                            notes.mark(ref.source, ref.note)]
            rows.append(row)
    return header, rows, matched


def wide_table(df, by, metric_names, exp, mapping, spec=None):
    """One row per group: the number of runs, then per metric the mean with its 95% CI
    half-width ("mean ± ci") and, where the paper experiment has a number for that metric,
    the paper's value beside it."""
    params = df.attrs.get("params", [])
    metric_columns = df.attrs.get("metrics", [])
    groups = _groups(df, by, spec)
    refs = {}
    for key, group in groups:
        group_params = data.constant_values(group, params)
        for metric in metric_names:
            if exp is not None:
                refs[key, metric] = paper.best_reference(exp, metric, metric_columns,
                                                         group_params, mapping)
    with_paper = [m for m in metric_names if any(refs.get((k, m)) for k, _ in groups)]
    header = list(by) + ["n"]
    for metric in metric_names:
        header.append(metric)
        if metric in with_paper:
            header.append(f"paper {metric}")
    rows, matched = [], 0
    for key, group in groups:
        row = [data.fmt(v) for v in key] + [str(len(group))]
        for metric in metric_names:
            values = [float(v) for v in group[metric] if is_number(v)]
            if values:
                mean, ci = metrics.mean_ci(values)
                row.append(f"{data.fmt(mean)} ± {data.fmt(ci)}" if len(values) > 1
                           else data.fmt(mean))
            else:
                row.append("-")
            if metric in with_paper:
                ref = refs.get((key, metric))
                matched += ref is not None
                row.append("" if ref is None else data.fmt(ref.value))
        rows.append(row)
    return header, rows, matched


def _groups(df, by, spec):
    """(values tuple, sub-DataFrame) per combination of `by`, in value_order of each column."""
    if not by:
        return [((), df)]
    orders = [data.value_order(df, column, spec) for column in by]
    out = []

    def rec(i, sub, key):
        if not len(sub):  # no run has this prefix: skip its whole subtree (grids are sparse)
            return
        if i == len(by):
            out.append((tuple(key), sub))
            return
        for value in orders[i]:
            rec(i + 1, sub[sub[by[i]] == value], key + [value])

    rec(0, df, [])
    return out


def backend_table(df, by, metric_names, spec=None):
    """ns3 and emu side by side: per group of `by` (a grid cell, or cells pooled over the
    parameters not in `by`) and metric, the median over each backend's runs and
    (emu - ns3) / ns3 (0 when equal, also both 0; '-' when ns3 is 0 alone). A metric without
    numbers on either backend in a group has no row."""
    header = list(by) + ["metric", "ns3 median", "emu median", "emu vs ns3", "n ns3 / emu"]
    rows = []
    for key, group in _groups(df, by, spec):
        sides = [group[group["backend"] == b] for b in (NS3, EMU)]
        for metric in metric_names:
            values = [[float(v) for v in side[metric] if is_number(v)] for side in sides]
            if not any(values):
                continue
            ns3, emu = (metrics.percentile(v, 50) if v else math.nan for v in values)
            rows.append([data.fmt(v) for v in key]
                        + [metric, data.fmt(ns3), data.fmt(emu),
                           data.fmt_pct(0.0 if emu == ns3 else metrics.relative_diff(emu, ns3)),
                           f"{len(values[0])} / {len(values[1])}"])
    return header, rows


def comparison_table(df, varying_params, exp, mapping, notes):
    """Rows for the experiment's published relative changes, per combination of the varying
    parameters the comparison does not mention."""
    params = df.attrs.get("params", [])
    metric_columns = df.attrs.get("metrics", [])
    records = df[params].to_dict("records") if params else [{} for _ in range(len(df))]
    rows = []
    for comp in exp.comparisons:
        metric = paper.resolve_name(comp.metric, metric_columns, mapping.metrics)
        if metric is None:
            continue
        named = set(paper.condition_columns(comp.where, params, mapping.params)
                    + paper.condition_columns(comp.baseline, params, mapping.params))
        context = [p for p in varying_params if p not in named]
        contexts = {}
        values = df[metric].tolist()  # Python scalars (iloc gives numpy integers)
        for i, record in enumerate(records):
            ctx = tuple((p, record[p]) for p in context)
            side = None
            if paper.matches(comp.where, record, exp, mapping.params, mapping.values):
                side = 0
            elif paper.matches(comp.baseline, record, exp, mapping.params, mapping.values):
                side = 1
            if side is not None and is_number(values[i]):
                contexts.setdefault(ctx, ([], []))[side].append(float(values[i]))
        for ctx, (ours, base) in contexts.items():
            if not ours or not base:
                continue
            mean_a, mean_b = metrics.mean_ci(ours)[0], metrics.mean_ci(base)[0]
            change = (mean_a / mean_b - 1) * 100 if mean_b else math.nan
            where = ", ".join(f"{p}={data.fmt(v)}" for p, v in ctx) or "all runs"
            rows.append([comp.label, where, metric, f"{len(ours)} / {len(base)}",
                         f"{change:+.1f}%", f"{comp.value_pct:+.1f}%",
                         f"{change - comp.value_pct:+.1f} pp", notes.mark(comp.source, comp.note)])
    header = ["comparison", "runs", "metric", "n (ours / baseline)", "ours", "paper",
              "difference", "paper source"]
    return header, rows


def build_report(source, df, spec, store, exp=None, by=None, metric_names=None, failed=None,
                 where=None, wide=False):
    """The report as markdown text."""
    mapping = spec.paper if spec is not None else PaperMapping()
    params = df.attrs.get("params", [])
    vary = data.spec_order(data.varying(df, params), spec)
    by = list(by) if by is not None else vary
    if metric_names is None:
        metric_names = paper_metrics(exp, mapping, data.numeric_metrics(df)) if exp else []
        metric_names = metric_names or data.numeric_metrics(df)
    notes = _Notes()

    backends = data.backends(df)
    split = len(backends) > 1  # results per backend, and the two side by side
    title = spec.name if spec is not None else store.root.name
    lines = [f"# Results: {title}", ""]
    if spec is not None and spec.description:
        lines += [spec.description, ""]
    scenarios = sorted({str(s) for s in df["scenario"].dropna()})
    versions = sorted({str(v) for v in df["sim_version"].dropna()})
    n_failed = 0 if failed is None else len(failed)
    lines.append(f"- Source: `{source}` (store `{store.root}`)")
    lines.append(f"- Scenario: {', '.join(scenarios) or '-'}; simulator: "
                 f"{', '.join(versions) or '-'}")
    counts = f"- Runs: {len(df)} ok"
    if n_failed:
        counts += f", {n_failed} failed (listed below)"
    missing = df.attrs.get("missing", 0) - n_failed
    if spec is not None and missing > 0:
        counts += f", {missing} not run yet"
    lines.append(counts)
    if backends != [NS3]:
        counts = df["backend"].value_counts()
        lines.append("- Backends: " + ", ".join(f"{b} ({counts.get(b, 0)} runs)"
                                                for b in backends))
        flagged = _emu_flags(df)
        if flagged:
            lines.append(f"- Emu runs flagged: {flagged} (their real time may not be the "
                         "network's: see cpu and links in their result.json)")
    if where:
        lines.append("- Selected: " + data.format_where(where))
    fixed = {k: v for k, v in data.constant_values(df, params).items()}
    if fixed:
        lines.append("- Same in every run: "
                     + ", ".join(f"{k}={data.fmt(v)}" for k, v in fixed.items()))
    pooled = [p for p in vary if p not in by]
    if pooled:
        lines.append(f"- Pooled over: {', '.join(pooled)} (not in --by)")
    if exp is not None:
        lines.append(f"- Paper: {exp.title}; {exp.citation}")
    lines.append(f"- Generated: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}")
    lines.append("")
    lines.append("Mean over seeds; 95% CI is the half-width of the Student-t interval of the "
                 "mean; n is the number of runs (seeds) in the group."
                 + (" ours vs paper = (ours - paper) / paper." if exp is not None else ""))
    lines.append("")
    lines += ["## Results", ""]
    group_by = by + ["backend"] if split else by
    if wide:
        lines += ["One row per group: mean ± 95% CI half-width of each metric"
                  + (", the paper's value beside it." if exp is not None else "."), ""]
        header, rows, matched = wide_table(df, group_by, metric_names, exp, mapping, spec)
    else:
        header, rows, matched = results_table(df, group_by, metric_names, exp, mapping, notes,
                                              spec)
    lines += _table(header, rows) if rows else ["(no numeric metrics)"]
    if split:
        header, rows = backend_table(df, by, metric_names, spec)
        lines += ["", "## ns3 vs emu", "",
                  "Per group: the median over the runs (seeds) of each backend; emu vs ns3 = "
                  "(emu median - ns3 median) / ns3 median.", ""]
        lines += _table(header, rows) if rows else ["(no numeric metrics)"]
    if exp is not None and exp.comparisons:
        # the paper's changes are compared with the simulated runs when there are both
        paper_df = df[df["backend"] == NS3] if split else df
        header, rows = comparison_table(paper_df, vary, exp, mapping, notes)
        if rows:
            lines += ["", "## Relative changes", "",
                      "ours = 100 x (mean of the runs / mean of the baseline runs - 1); "
                      "difference in percentage points.", ""]
            lines += _table(header, rows)
    if exp is not None and exp.references and not matched:
        lines += ["", f"No group matched a reference of {exp.name}: check the `[paper]` "
                      "table of the spec (parameter, value and metric names)."]
    if notes.items:
        lines += ["", "## Notes", ""] + notes.lines()
    if failed is not None and len(failed):
        lines += ["", "## Failed runs", ""]
        rows = []
        for _, r in failed.iterrows():
            label = ", ".join(f"{p}={data.fmt(r[p])}" for p in params if p in r and p in vary)
            rows.append([label or "-", str(r["seed"]), str(r["status"]), str(r["error"] or ""),
                         str(r["key"])])
        lines += _table(["run", "seed", "status", "error", "key"], rows)
    return "\n".join(lines) + "\n"


def _emu_flags(df):
    """`2 with a saturated CPU, 1 with an ns-3 link that fell behind` for the emu runs whose
    result.json says so (ndnlab.emu.run), or ''."""
    emu = df[df["backend"] == EMU]
    parts = []
    for column, bad, text in (("saturated", True, "with a saturated CPU"),
                              ("kept_up", False, "with an ns-3 link that fell behind")):
        if column in emu:
            n = int((emu[column] == bad).sum())
            if n:
                parts.append(f"{n} {text}")
    return ", ".join(parts)


def build_parser(prog=None):
    parser = argparse.ArgumentParser(
        prog=prog or "ndnlab report",
        description="Write a markdown report of a campaign: per group of parameters the mean, "
                    "stddev, 95% CI and number of seeds of each metric, with the paper's "
                    "published number beside ours and the relative difference.")
    parser.add_argument("source", metavar="SPEC.toml|STORE", nargs="?",
                        help="campaign spec (its runs) or result-store directory (all runs)")
    parser.add_argument("--paper", metavar="EXPERIMENT",
                        help="paper experiment to compare with (default: the spec's "
                             "paper.experiment; 'none' for no paper columns); "
                             "--paper list shows the known ones")
    parser.add_argument("--by", metavar="P1,P2",
                        help="group by these parameters (default: every varying parameter)")
    parser.add_argument("--metrics", metavar="M1,M2",
                        help="metrics to report (default: the paper's, else every numeric one)")
    parser.add_argument("--where", action="append", metavar="NAME=VALUE",
                        help="keep only runs with this parameter value; repeatable: values of "
                             "one parameter are alternatives (OR), different parameters must "
                             "all match (AND)")
    parser.add_argument("--wide", action="store_true",
                        help="one row per group with a column per metric (and the paper's "
                             "value beside each) instead of one row per group and metric")
    parser.add_argument("-o", "--output", metavar="REPORT.md",
                        help="output file (default: standard output)")
    return parser


def command_line(args):
    """`ndnlab report ...` as these arguments ask for it (the output's generated-by line): paths
    inside the current directory relative to it, so that a committed report names no machine's
    directory."""
    def rel(path):
        p = pathlib.Path(path).resolve()
        try:
            return str(p.relative_to(pathlib.Path.cwd()))
        except ValueError:
            return str(path)

    words = ["ndnlab report", rel(args.source)]
    for flag, value in (("--paper", args.paper), ("--by", args.by), ("--metrics", args.metrics)):
        if value:
            words.append(f"{flag} {value}")
    words += [f"--where {w}" for w in args.where or []]
    if args.wide:
        words.append("--wide")
    if args.output is not None:
        words.append(f"-o {rel(args.output)}")
    return " ".join(words)


def run(args):
    if args.paper == "list":
        for name, exp in sorted(paper.experiments().items()):
            print(f"{name}: {exp.title}")
        return 0
    if not args.source:
        raise data.UsageError("give a SPEC.toml or a result-store directory")
    if args.paper == "":
        raise data.UsageError("--paper: empty name; give an experiment, 'none' or 'list'")
    if args.output is not None:
        data.check_output(args.output)
    by = data.split_names(args.by, "--by")
    metric_names = data.split_names(args.metrics, "--metrics")
    where = data.parse_where(args.where)
    df_all, spec, store = data.load(args.source, include_failed=True)
    if where and not df_all.empty:
        where = data.resolve_where(df_all, where)  # the parameters' own names, for the header
        df_all = data.apply_where(df_all, where)
    ok = df_all[df_all["status"] == STATUS_OK] if not df_all.empty else df_all
    failed = df_all[df_all["status"] != STATUS_OK] if not df_all.empty else None
    ok.attrs.update(df_all.attrs)
    if ok.empty:
        raise data.UsageError(f"no successful runs in {store.root} for {args.source}"
                              + (f" ({len(failed)} failed)" if failed is not None else ""))
    params = ok.attrs.get("params", [])
    for name in by or []:
        data.check_column(ok, name, "--by parameter", params)
    for name in metric_names or []:
        data.check_column(ok, name, "--metrics metric", data.numeric_metrics(ok))
    exp = None
    name = args.paper or (spec.paper.experiment if spec is not None else None)
    if name and name != "none":
        try:
            exp = paper.get_experiment(name)
        except KeyError as e:
            raise data.UsageError(str(e.args[0])) from None
    text = build_report(args.source, ok, spec, store, exp, by, metric_names, failed, where,
                        args.wide)
    text = f"<!-- generated by {command_line(args)}; do not edit -->\n\n" + text
    if args.output is not None:
        output = pathlib.Path(args.output)
        write_whole(output, lambda tmp: tmp.write_text(text))
        print(f"wrote {output} ({len(ok)} runs)")
    else:
        sys.stdout.write(text)
    return 0


def main(argv=None, prog=None):
    return data.run_cli("report", build_parser(prog), run, argv)


def spec_script(build, doc, metavar, argv=None):
    """The main() of an experiment's analysis script: `script SPEC.toml [-o FILE]`.

    build(spec_path) returns one markdown document, which is printed and, with -o, also
    written to FILE. doc is the script's docstring; its first paragraph is the --help text. A
    bad spec, a store without results or a file that cannot be read or written is an error
    message and exit status 2."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("spec", metavar="SPEC.toml")
    parser.add_argument("-o", "--output", metavar=metavar)
    args = parser.parse_args(argv)
    text = None

    def write():
        nonlocal text
        if args.output is not None:
            data.check_output(args.output)
        text = build(args.spec)
        if args.output is not None:
            write_whole(args.output, lambda tmp: tmp.write_text(text))
        return 0

    status = data.one_line_errors(parser.prog, write, (SpecError, StoreError, data.UsageError))
    if status == 0:
        sys.stdout.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
