"""Published numbers of the papers ndnlab reproduces, so that reports put them beside ours.

An Experiment has absolute References (a metric's value under conditions on parameters) and
Comparisons (a published relative change between two conditions, in percent). Condition and
metric names are the paper's, written in one vocabulary per paper module; a campaign spec's
`[paper]` table maps them onto the scenario's parameter and metric names, and names that
differ only in case or punctuation (`802.11b` ~ `80211b`, `one-interest` ~ `OneInterest`)
match without a mapping.

One module per paper (ndnlab/paper/<paper>.py) defines EXPERIMENTS; add its name to _MODULES.
"""

import importlib
import re
from dataclasses import dataclass, field

_MODULES = ["blend", "dcib"]


@dataclass(frozen=True)
class Reference:
    """The paper's value of `metric` for runs whose parameters satisfy `where`.

    `where` maps a condition name to a value or a tuple of accepted values."""

    metric: str
    value: float
    where: dict
    unit: str = ""
    source: str = ""   # figure or table, e.g. "Fig. 1"
    note: str = ""     # how the number was obtained if it is not printed as such


@dataclass(frozen=True)
class Comparison:
    """A published relative change in percent: 100 * (mean(metric | where) /
    mean(metric | baseline) - 1), computed by the report within each combination of the other
    varying parameters."""

    label: str
    metric: str
    value_pct: float
    where: dict
    baseline: dict
    source: str = ""
    note: str = ""


@dataclass(frozen=True)
class Experiment:
    name: str
    title: str
    citation: str
    references: tuple = ()
    comparisons: tuple = ()
    # Value assumed for a condition the campaign does not have as a parameter (e.g. bundle
    # interval 0 = no bundling when the scenario has no such parameter).
    defaults: dict = field(default_factory=dict)


_registry = None


def experiments():
    """Every known experiment by name."""
    global _registry
    if _registry is None:
        found = {}
        for module in _MODULES:
            for exp in importlib.import_module(f"{__name__}.{module}").EXPERIMENTS:
                found[exp.name] = exp
        _registry = found
    return _registry


def get_experiment(name):
    """The experiment called `name`; KeyError naming the known ones otherwise."""
    known = experiments()
    if name not in known:
        raise KeyError(f"unknown paper experiment {name!r}; known: {', '.join(sorted(known))}")
    return known[name]


def normalize(value):
    """Comparison form of a name or value: lower case, without spaces, dots, dashes and
    underscores; booleans as true/false; integral floats as integers."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return re.sub(r"[\s._-]", "", str(value).lower())


def resolve_name(name, candidates, mapping):
    """Our column for the paper's `name`: mapping[name] if given (and present), else the
    candidate equal to it after normalize(); None if there is none."""
    if name in mapping:
        target = mapping[name]
        return target if target in candidates else None
    wanted = normalize(name)
    for candidate in candidates:
        if normalize(candidate) == wanted:
            return candidate
    return None


def matches(where, params, experiment, param_map=None, value_map=None):
    """True if our parameter values `params` ({our name: value}) satisfy every condition."""
    param_map = param_map or {}
    value_map = value_map or {}
    for condition, accepted in where.items():
        accepted = accepted if isinstance(accepted, tuple) else (accepted,)
        column = resolve_name(condition, list(params), param_map)
        if column is None:
            if condition not in experiment.defaults:
                return False
            ours = experiment.defaults[condition]
        else:
            ours = params[column]
        wanted = {normalize(value_map.get(str(a), a)) for a in accepted}
        if normalize(ours) not in wanted:
            return False
    return True


def condition_columns(where, params, param_map=None):
    """Our parameter columns named by the conditions in `where` (those that resolve)."""
    cols = []
    for condition in where:
        column = resolve_name(condition, list(params), param_map or {})
        if column is not None:
            cols.append(column)
    return cols


def best_reference(exp, metric, metric_columns, params, mapping):
    """The most specific reference (most conditions) of `exp` for our column `metric` under our
    parameter values `params`, or None. `mapping` is the spec's PaperMapping."""
    best = None
    for ref in exp.references:
        if resolve_name(ref.metric, metric_columns, mapping.metrics) != metric:
            continue
        if matches(ref.where, params, exp, mapping.params, mapping.values):
            if best is None or len(ref.where) > len(best.where):
                best = ref
    return best
