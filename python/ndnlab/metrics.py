"""Statistics over runs: mean with a Student-t confidence interval, grouped summaries, ECDFs,
relative differences, a paired comparison over seeds, Jain's fairness index and goodput
conversion. The statistics themselves come from numpy and scipy.stats; this module chooses
which values count (finite ones) and the shape of the result."""

import math

import numpy as np
from scipy import stats


def _finite_array(values):
    """The finite values of `values` (None, NaN, infinities and non-numbers left out), as a
    float array."""
    return np.array([float(v) for v in values if _finite(v)], dtype=float)


def mean_ci(values):
    """(mean, half-width of the 95% confidence interval of the mean) over finite values: the
    Student-t interval, scipy.stats.t.ppf(0.975, n - 1) standard errors. The half-width is 0
    for one value and NaN for none."""
    xs = _finite_array(values)
    n = len(xs)
    if n == 0:
        return math.nan, math.nan
    mean = float(np.mean(xs))
    if n == 1:
        return mean, 0.0
    return mean, float(stats.t.ppf(0.975, n - 1) * stats.sem(xs))


def stddev(values):
    """Sample standard deviation (n - 1 in the denominator); 0 for fewer than two values."""
    xs = np.asarray([float(v) for v in values], dtype=float)
    if len(xs) < 2:
        return 0.0
    return float(np.std(xs, ddof=1))


def summarize(df, by, metrics):
    """Per group of `by` columns and per metric: mean, std, ci95 (half-width), n, min, max over
    the finite values. Returns a long DataFrame with columns by + [metric, mean, std, ci95, n,
    min, max]."""
    import pandas as pd

    rows = []
    groups = df.groupby(list(by), sort=False, dropna=False) if by else [((), df)]
    for values, group in groups:
        values = values if isinstance(values, tuple) else (values,)
        for metric in metrics:
            if metric not in group:
                continue
            xs = _finite_array(group[metric])
            if not len(xs):
                continue
            mean, ci = mean_ci(xs)
            rows.append(dict(zip(by, values), metric=metric, mean=mean, std=stddev(xs), ci95=ci,
                             n=len(xs), min=float(xs.min()), max=float(xs.max())))
    return pd.DataFrame(rows, columns=list(by) + ["metric", "mean", "std", "ci95", "n", "min",
                                                  "max"])


def _finite(value):
    if isinstance(value, bool):
        return False
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def ecdf(values):
    """(sorted values, cumulative fractions in (0, 1]) of the finite values, as lists."""
    xs = np.sort(_finite_array(values))
    return xs.tolist(), (np.arange(1, len(xs) + 1) / len(xs)).tolist()


def percentile(values, q):
    """The q-th percentile (0..100) of the finite values, interpolated linearly between order
    statistics (numpy.percentile's default); NaN for none."""
    xs = _finite_array(values)
    return float(np.percentile(xs, q)) if len(xs) else math.nan


def relative_diff(ours, reference):
    """(ours - reference) / reference, as a fraction; NaN if the reference is 0 or missing."""
    if reference is None or ours is None or reference == 0:
        return math.nan
    return (ours - reference) / abs(reference)


def paired_comparison(base, other, resamples=200_000, rng_seed=1):
    """Compares `other` with `base` run by run, pairing the runs of the same seed (two dicts
    seed -> value; seeds in only one of them are left out). Returns a dict:

    - n: pairs; wins: pairs where other > base;
    - mean_ratio: mean(other) / mean(base) over the pairs; median_ratio: median of other / base;
    - p: one-sided p-value of a sign-flip permutation test of "other is larger on average"
      (scipy.stats.permutation_test, permutation_type="samples", on the differences): the
      share of sign patterns of the differences whose mean is at least the observed one. Every
      pattern while there are at most `resamples` of them (2^n; up to 17 pairs by default),
      else `resamples` random ones drawn from numpy.random.default_rng(rng_seed), so the same
      data always give the same p; a sampled p counts the observed pattern once more,
      (k + 1) / (resamples + 1), so it is never 0.

    Empty or NaN-only input gives n = 0 and NaN elsewhere."""
    pairs = np.array([(float(base[s]), float(other[s])) for s in sorted(set(base) & set(other))
                      if math.isfinite(float(base[s])) and math.isfinite(float(other[s]))])
    n = len(pairs)
    if n == 0:
        return {"n": 0, "wins": 0, "mean_ratio": math.nan, "median_ratio": math.nan, "p": math.nan}
    base_values, other_values = pairs[:, 0], pairs[:, 1]
    diffs = other_values - base_values
    if n == 1:
        # permutation_test wants two observations; one has two sign patterns, +d and -d
        p = 0.5 if diffs[0] > 0 else 1.0
    else:
        # Sign patterns whose means are equal in decimal can differ in binary (0.1 + 0.2 is not
        # 0.3), and scipy's tie tolerance is relative to the observed mean, which may be ~0.
        # So means are compared on a grid of 1e-12 of the differences' total size.
        grid = 1e-12 * max(1.0, float(np.abs(diffs).sum())) / n

        def mean_on_grid(x, axis):
            return np.round(np.mean(x, axis=axis) / grid)

        p = stats.permutation_test((diffs,), mean_on_grid, permutation_type="samples",
                                   alternative="greater", n_resamples=resamples,
                                   rng=np.random.default_rng(rng_seed)).pvalue
    base_mean = float(np.mean(base_values))
    nonzero = base_values != 0
    return {"n": n, "wins": int((diffs > 0).sum()),
            "mean_ratio": float(np.mean(other_values)) / base_mean if base_mean else math.nan,
            "median_ratio": (float(np.median(other_values[nonzero] / base_values[nonzero]))
                             if nonzero.any() else math.nan),
            "p": float(p)}


def jain_index(values):
    """Jain's fairness index (sum x)^2 / (n * sum x^2), 1 = perfectly fair."""
    xs = np.asarray([float(v) for v in values], dtype=float)
    if not len(xs) or not xs.any():
        return math.nan
    return float(xs.sum() ** 2 / (len(xs) * np.square(xs).sum()))


def goodput_mbps(payload_bytes, seconds):
    """Application goodput in Mbit/s (10^6 bits per second)."""
    if seconds <= 0:
        return math.nan
    return payload_bytes * 8 / seconds / 1e6


def discovery_data(params, flows=1):
    """Data a fetch takes in before its segments: one version-discovery (RDR metadata) Data per
    flow under VersionDiscovery=rdr, the scenarios' default; 0 otherwise."""
    mode = params.get("VersionDiscovery")
    if mode is None or (isinstance(mode, float) and math.isnan(mode)):
        mode = "rdr"  # not given: the default
    return flows if str(mode) == "rdr" else 0


def duplicate_data(data_received, segments, params, flows=1):
    """Data for an Interest already satisfied (a retransmission whose original Data was not
    lost: a premature timeout): the Data the consumer's node took in, minus the segments and
    the version-discovery Data (`data_received` counts both)."""
    return data_received - segments - discovery_data(params, flows)
