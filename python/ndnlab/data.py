"""Shared by plot, report and the experiment scripts: loading a SPEC.toml or store, a run's
per-Data trace, --where filters, which parameters vary, value order and number formatting; and by
every command line (campaign too): output paths and file errors as one-line messages."""

import csv
import math
import pathlib
import sys

from ndnlab.paper import normalize
from ndnlab.spec import BACKENDS, SpecError, format_value
from ndnlab.store import StoreError, is_number, open_source


class UsageError(Exception):
    """Bad command-line input; the message says what to give instead."""


def load(source, include_failed=False):
    """(DataFrame of ok runs, spec or None, store) for a SPEC.toml or a store directory."""
    try:
        store, spec = open_source(source)
        df = store.load(spec=spec, include_failed=include_failed)
    except (SpecError, StoreError) as e:
        raise UsageError(str(e)) from None
    return df, spec, store


def delivered(run_dir, node=0):
    """(time_s, segment, retx) of every Data that `node`'s consumer delivered, by time, from the
    run's delays.csv (written with Traces=all); retx is 1 for a retransmitted segment."""
    rows = []
    with open(run_dir / "delays.csv") as f:
        for r in csv.DictReader(f):
            if int(r["node"]) == node:
                rows.append((float(r["time_s"]), int(r["segment"]), int(r["retx"])))
    rows.sort()
    return rows


def parse_where(items):
    """["Name=value", ...] -> {Name: [value, ...]}: the values given for one name, in order (a
    run is kept if it has any of them; different names must all hold)."""
    where = {}
    for item in items or []:
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise UsageError(f"--where {item!r}: expected NAME=VALUE")
        values = where.setdefault(name, [])
        if value not in values:
            values.append(value)
    return where


def format_where(where):
    """{Name: [value, ...]} as `Name=a or b, Other=c` (for a report's header)."""
    return ", ".join(f"{name}={' or '.join(values)}" for name, values in where.items())


def resolve_where(df, where):
    """parse_where's {Name: [value, ...]} with each name replaced by df's column: the name
    itself, else the parameter equal to it after paper.normalize (case, punctuation); names of
    one parameter are merged."""
    params = df.attrs.get("params", [])
    resolved = {}
    for name, values in where.items():
        column = name
        if column not in df.columns:
            column = next((p for p in params if normalize(p) == normalize(name)), name)
        if column not in df.columns:
            raise UsageError(f"--where {name}: no such parameter; parameters: "
                             f"{', '.join(params) or '(none)'}")
        merged = resolved.setdefault(column, [])
        merged += [v for v in values if v not in merged]
    return resolved


def apply_where(df, where):
    """Rows whose parameters match the --where values (compared after paper.normalize): for each
    parameter, any of its values (OR); across parameters, all of them (AND). Every value must
    occur in some run (a typo is an error, not an empty selection)."""
    for name, values in resolve_where(df, where).items():
        present = df[name].map(normalize)
        mask = None
        for value in values:
            hit = present == normalize(value)
            if not hit.any():
                seen = ", ".join(sorted({str(v) for v in df[name].dropna()}))
                raise UsageError(f"--where {name}={value}: no run has that value; values: {seen}")
            mask = hit if mask is None else mask | hit
        attrs = dict(df.attrs)
        df = df[mask]
        df.attrs.update(attrs)
    return df


def varying(df, columns):
    """The columns among `columns` that take more than one value in df."""
    out = []
    for column in columns:
        if column in df and df[column].map(_hashable).nunique(dropna=False) > 1:
            out.append(column)
    return out


def spec_order(names, spec):
    """Parameter names in the order the spec lists them (grid first, then fixed), others last."""
    if spec is None:
        return list(names)
    order = []
    for grid in spec.grids:
        order += [n for n in grid if n not in order]
    order += [n for n in spec.fixed if n not in order]
    rank = {n: i for i, n in enumerate(order)}
    return sorted(names, key=lambda n: (rank.get(n, len(rank)), n))


def constant_values(df, columns):
    """{column: value} for the columns that take a single value in df."""
    values = {}
    for column in columns:
        if column in df and len(df) and df[column].map(_hashable).nunique(dropna=False) == 1:
            values[column] = df[column].tolist()[0]  # a Python value, not a numpy scalar
    return values


def _hashable(value):
    return tuple(value) if isinstance(value, list) else value


def backends(df):
    """The backends df has runs of (its `backend` column, ns3 for a frame without one), ns3
    first (spec.BACKENDS order)."""
    present = set(df["backend"].dropna()) if "backend" in df else {BACKENDS[0]}
    return [b for b in BACKENDS if b in present] + sorted(present - set(BACKENDS))


def value_order(df, column, spec=None):
    """Distinct values of a column: numeric ones ascending; others in the spec's grid order if
    known, else sorted as text; backends in spec.BACKENDS order (ns3 first)."""
    if column == "backend":
        return backends(df)
    values = list(dict.fromkeys(v for v in df[column].tolist() if v is not None))
    if values and all(is_number(v) for v in values):
        return sorted(values)
    if spec is not None:
        order = []
        for grid in spec.grids:
            order += [v for v in grid.get(column, []) if v not in order]
        if column in spec.fixed:
            order.append(spec.fixed[column])
        rank = {normalize(v): i for i, v in enumerate(order)}
        return sorted(values, key=lambda v: (rank.get(normalize(v), len(rank)), str(v)))
    return sorted(values, key=str)


def numeric_metrics(df, lists=False):
    """Metric columns holding numbers in at least one row (text excluded; lists of numbers only
    with `lists`, for a CDF over their elements)."""
    def numeric(value):
        if lists and isinstance(value, list):
            return bool(value) and all(is_number(v) for v in value)
        return is_number(value)

    return [m for m in df.attrs.get("metrics", []) if m in df and df[m].map(numeric).any()]


def check_column(df, name, what, options):
    """Raises UsageError unless `name` is one of `options` (the parameters or metrics `what`
    asks for); says what `name` is instead and lists the choices."""
    if name in options:
        return
    if name == "":
        problem = "empty name"
    elif name in df.attrs.get("params", []):
        problem = f"{name!r} is a parameter"
    elif name in df.attrs.get("metrics", []) and not what.endswith("metric"):
        problem = f"{name!r} is a metric"
    elif name in numeric_metrics(df, lists=True):
        problem = f"{name!r} holds a list of numbers per run, not one number"
    elif name in df.attrs.get("metrics", []):
        problem = f"{name!r} has no numeric values"
    elif name in df.columns:
        problem = f"{name!r} is neither a parameter nor a metric"
    else:
        problem = f"{name!r} is not in the results"
    raise UsageError(f"{what} {problem}; choices: {', '.join(options) or '(none)'}")


def split_names(text, option):
    """A comma-separated option value (--by, --metrics) as a list of names; None if the option
    was not given. An empty value or an empty name in the list is a UsageError."""
    if text is None:
        return None
    names = [t.strip() for t in text.split(",")]
    if not any(names):
        raise UsageError(f"{option} {text!r}: give one or more names separated by commas")
    if not all(names):
        raise UsageError(f"{option} {text!r}: empty name in the list")
    return names


def fmt(value):
    """A number for a table: integers as such, others with 4 significant digits."""
    if value is None:
        return "-"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return format_value(value)
    if isinstance(value, float) and math.isnan(value):
        return "-"
    if isinstance(value, int) or (abs(value) >= 1e4 and float(value).is_integer()):
        return str(int(value))
    if abs(value) >= 1e4:
        return f"{value:.0f}"
    return f"{value:.4g}"


def fmt_pct(fraction):
    """A fraction as a signed percentage (+4.3%); '-' for NaN."""
    if fraction is None or (isinstance(fraction, float) and math.isnan(fraction)):
        return "-"
    return f"{fraction * 100:+.1f}%"


def os_error_text(error):
    """An OSError as `path: reason` (e.g. `out/x.md: Permission denied`)."""
    if error.filename is None:
        return error.strerror or str(error)
    text = f"{error.filename}: {error.strerror or error}"
    return text + (f" (and {error.filename2})" if error.filename2 is not None else "")


def check_output(path, option="-o"):
    """Raises UsageError unless `path` can be a file to write: not a directory, and no
    existing ancestor that is not a directory (missing ones are created on writing)."""
    if str(path) == "":
        raise UsageError(f"{option}: empty file name")
    path = pathlib.Path(path)
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory; give a file name")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise UsageError(f"{option} {path}: {parent} is not a directory")
            break
    return path


def run_cli(name, parser, run, argv=None):
    """Parses argv and runs `run(args)` under one_line_errors(`ndnlab NAME`)."""
    args = parser.parse_args(argv)
    return one_line_errors(f"ndnlab {name}", lambda: run(args))


def one_line_errors(prog, call, usage_errors=(UsageError,)):
    """call()'s exit status; a `usage_errors` exception, or an OSError of a file it reads or
    writes, is printed as `PROG: message` and gives exit status 2; Ctrl-C prints
    `PROG: interrupted` and gives 130."""
    try:
        return call()
    except usage_errors as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"{prog}: {os_error_text(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
