"""Statistics over runs: mean with a Student-t confidence interval, grouped summaries, ECDFs,
relative differences, a paired comparison over seeds, Jain's fairness index and goodput
conversion."""

import math

import numpy as np

# Two-sided 95% Student-t quantiles t(0.975, df) for df = 1..30 (standard tables).
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
# Beyond 30: (df, quantile) anchors, interpolated linearly in 1/df; 1.960 as df -> infinity.
_T975_TAIL = [(30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980)]


def t_quantile_975(df):
    """t(0.975, df): the multiplier of the standard error for a 95% two-sided interval."""
    if df < 1:
        raise ValueError("degrees of freedom must be at least 1")
    if df <= 30:
        return _T975[int(df) - 1]
    anchors = _T975_TAIL + [(math.inf, 1.960)]
    for (d0, q0), (d1, q1) in zip(anchors, anchors[1:]):
        if df <= d1:
            x0, x1, x = 1 / d0, 1 / d1 if d1 != math.inf else 0.0, 1 / df
            return q0 + (q1 - q0) * (x0 - x) / (x0 - x1)
    return 1.960


def mean_ci(values):
    """(mean, half-width of the 95% confidence interval of the mean) over finite values; the
    half-width is 0 for one value and NaN for none."""
    xs = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    n = len(xs)
    if n == 0:
        return math.nan, math.nan
    mean = sum(xs) / n
    if n == 1:
        return mean, 0.0
    return mean, t_quantile_975(n - 1) * stddev(xs) / math.sqrt(n)


def stddev(values):
    """Sample standard deviation (n - 1 in the denominator); 0 for fewer than two values."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))


def summarize(df, by, metrics):
    """Per group of `by` columns and per metric: mean, std, ci95 (half-width), n, min, max.
    Returns a long DataFrame with columns by + [metric, mean, std, ci95, n, min, max]."""
    import pandas as pd

    rows = []
    groups = df.groupby(list(by), sort=False, dropna=False) if by else [((), df)]
    for values, group in groups:
        values = values if isinstance(values, tuple) else (values,)
        for metric in metrics:
            if metric not in group:
                continue
            xs = [float(v) for v in group[metric] if _finite(v)]
            if not xs:
                continue
            mean, ci = mean_ci(xs)
            rows.append(dict(zip(by, values), metric=metric, mean=mean, std=stddev(xs), ci95=ci,
                             n=len(xs), min=min(xs), max=max(xs)))
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
    """(sorted values, cumulative fractions in (0, 1]) of the finite values."""
    xs = sorted(float(v) for v in values if _finite(v))
    n = len(xs)
    return xs, [(i + 1) / n for i in range(n)]


def percentile(values, q):
    """The q-th percentile (0..100), linear interpolation between order statistics."""
    xs = sorted(float(v) for v in values if _finite(v))
    if not xs:
        return math.nan
    pos = (len(xs) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


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
    - p: one-sided p-value of a sign-flip permutation test of "other is larger on average": the
      share of sign patterns of the differences whose sum is at least the observed one (every
      pattern up to 16 pairs, else `resamples` random ones drawn with a fixed seed, so the same
      data always give the same p).

    Empty or NaN-only input gives n = 0 and NaN elsewhere."""
    pairs = [(float(base[s]), float(other[s])) for s in sorted(set(base) & set(other))
             if math.isfinite(float(base[s])) and math.isfinite(float(other[s]))]
    n = len(pairs)
    if n == 0:
        return {"n": 0, "wins": 0, "mean_ratio": math.nan, "median_ratio": math.nan, "p": math.nan}
    diffs = np.array([o - b for b, o in pairs])
    magnitudes = np.abs(diffs)
    if n <= 16:
        # every sign pattern: row i flips the pairs whose bit is set in i
        signs = 1 - 2 * ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1)
    else:
        signs = np.random.default_rng(rng_seed).choice(np.array([-1, 1]), size=(resamples, n))
    tolerance = 1e-12 * max(1.0, float(magnitudes.sum()))
    p = float(np.mean(signs @ magnitudes >= diffs.sum() - tolerance))
    base_mean = sum(b for b, _ in pairs) / n
    ratios = [o / b for b, o in pairs if b != 0]
    return {"n": n, "wins": int((diffs > 0).sum()),
            "mean_ratio": (sum(o for _, o in pairs) / n) / base_mean if base_mean else math.nan,
            "median_ratio": percentile(ratios, 50) if ratios else math.nan,
            "p": p}


def jain_index(values):
    """Jain's fairness index (sum x)^2 / (n * sum x^2), 1 = perfectly fair."""
    xs = [float(v) for v in values]
    if not xs or not any(xs):
        return math.nan
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


def goodput_mbps(payload_bytes, seconds):
    """Application goodput in Mbit/s (10^6 bits per second)."""
    if seconds <= 0:
        return math.nan
    return payload_bytes * 8 / seconds / 1e6
