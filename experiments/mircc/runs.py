"""What report.py, beyond.py and emu.py share: selecting stored runs by their parameters, a
metric's values over the seeds and their median, and how a table cell writes them."""
import json
import statistics
import sys


def as_bool(v):
    """A boolean parameter as stored (a bool, or its text)."""
    return v if isinstance(v, bool) else str(v).lower() == "true"


def select(df, **where):
    """The runs whose parameters have the given values; none when a parameter is not stored."""
    rows = df
    for k, v in where.items():
        if k not in rows:
            return rows.iloc[0:0]
        if isinstance(v, bool):
            rows = rows[rows[k].map(as_bool) == v]
        elif isinstance(v, (int, float)):
            rows = rows[rows[k].astype(float) == float(v)]
        else:
            rows = rows[rows[k] == v]
    return rows


def values(rows, metric):
    """The metric of every run; a null (a convergence that never came) counts as +inf."""
    out = []
    for v in rows[metric] if metric in rows else []:
        out.append(float("inf") if v is None or (isinstance(v, float) and v != v) else float(v))
    return out


def median(vs):
    return statistics.median(vs) if vs else None


def fmt(vs, digits=4, collapse=False):
    """`median [min-max]` ("never" for +inf); with `collapse`, the median alone when all agree."""
    if not vs:
        return "-"

    def f(x):
        return "never" if x == float("inf") else f"{x:.{digits}g}"
    m = statistics.median(vs)
    if collapse and min(vs) == max(vs):
        return f(m)
    return f"{f(m)} [{f(min(vs))}-{f(max(vs))}]"


def write(args, text, data):
    """The table to --out (stdout without it) and `data` as JSON to --json, if given."""
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    if args.json:
        args.json.write_text(json.dumps(data, indent=2, default=str) + "\n")
