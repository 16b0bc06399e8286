"""MIRCC under a coarse-grained clock, with and without Interest-sending smoothening (Kato,
Enda, Yamamoto, Ohzahata, FedCSIS 2020; shared/papers/mircc-coarse-grained-clock.txt): the
dumbbell of Sec. IV-A (scenario `mircc-dumbbell`), clock ticks of 100, 250, 500 and 750 ms.

The stored text lost the figures and Tables 4-5; what remains are the sentences of Sec. IV-B
and V-B, each kept below with the claim it makes. A claim is judged by
experiments/mircc/report.py on the median over the seeds:
- `approx`: the paper's value within a relative tolerance, both ways (above the band is
  over-reproduction, below it under-reproduction);
- `above` / `below`: the paper states only a bound ("larger than 0.5");
- `not_above_baseline`: the paper states a direction against the original MIRCC of the same
  tick ("slightly smaller", "much better").

Conditions: tick_ms (the paper's "time interval" of consumers and routers), smoothening.
Metrics are the scenario's result keys. The paper's rates ("go to 600", "keep 1,000", "tuned to
the half") describe the level its figures reach, so they are judged on rate_pps_end, the mean
over the last second both consumers send (7-8 s; in whole ticks, 6.5-8 s at 750 ms); the time to get there is the convergence claim.
"""

from dataclasses import dataclass, field

CITATION = ("T. Kato, K. Enda, M. Yamamoto, S. Ohzahata, \"A Study on Performance of Explicit "
            "Rate Report based Congestion Control under Coarse-grained Clock Management\", "
            "FedCSIS 2020 (shared/papers/mircc-coarse-grained-clock.txt)")

# Tolerances the paper's words allow, stated once: "around 1,000", "go to 600" and "about 2 s"
# are read as +-15 % (rates) and +-50 % (the convergence time and the two loss rates of 250 ms,
# the only loss values the text prints).
RATE_TOLERANCE = 0.15
LOOSE_TOLERANCE = 0.50


@dataclass(frozen=True)
class Claim:
    label: str
    metric: str          # result key, e.g. "flows.C1.rate_pps_shared"
    kind: str            # approx | above | below | not_above_baseline
    where: dict          # {"tick_ms": 100, "smoothening": False}
    value: float = 0.0   # the paper's value or bound (approx, above, below)
    tolerance: float = 0.0
    baseline: dict = field(default_factory=dict)  # not_above_baseline: the other condition
    source: str = ""


def _c(label, metric, kind, tick, smooth, value=0.0, tol=0.0, baseline=None, source=""):
    return Claim(label, metric, kind, {"tick_ms": tick, "smoothening": smooth}, value, tol,
                 baseline or {}, source)


CLAIMS = (
    # IV-B, Fig. 5(a): "In the beginning, the Interest sending rate at C1 takes the value around
    # 1,000 packets/sec ... When C2 starts the communication, the Interest sending rates at C1
    # and C2 go to 600 packets/sec"
    _c("100 ms: C1 alone ~1000 pkt/s", "flows.C1.rate_pps_alone", "approx", 100, False, 1000,
       RATE_TOLERANCE, source="IV-B, Fig. 5(a)"),
    _c("100 ms: C1 shared ~600 pkt/s", "flows.C1.rate_pps_end", "approx", 100, False, 600,
       RATE_TOLERANCE, source="IV-B, Fig. 5(a)"),
    _c("100 ms: C2 shared ~600 pkt/s", "flows.C2.rate_pps_end", "approx", 100, False, 600,
       RATE_TOLERANCE, source="IV-B, Fig. 5(a)"),
    # IV-B: "In the case that the time interval is 100 msec, the loss rate is small, and that for
    # 250 msec time interval is 0.1 for the C1-P1 flow and 0.24 for the C2-P2 flow" -> "small"
    # read as below 250 ms's smaller value
    _c("100 ms: C1 loss small (< 0.1)", "flows.C1.loss_rate", "below", 100, False, 0.1,
       source="IV-B, Table 4"),
    _c("100 ms: C2 loss small (< 0.1)", "flows.C2.loss_rate", "below", 100, False, 0.1,
       source="IV-B, Table 4"),
    # IV-B, Fig. 5(b): "similar with the case of 100 msec. The difference is that the convergence
    # to 600 packets/sec when C2 starts the communication takes larger period, around 2 sec."
    _c("250 ms: C1 alone ~1000 pkt/s", "flows.C1.rate_pps_alone", "approx", 250, False, 1000,
       RATE_TOLERANCE, source="IV-B, Fig. 5(b)"),
    _c("250 ms: C1 shared ~600 pkt/s", "flows.C1.rate_pps_end", "approx", 250, False, 600,
       RATE_TOLERANCE, source="IV-B, Fig. 5(b)"),
    _c("250 ms: C2 shared ~600 pkt/s", "flows.C2.rate_pps_end", "approx", 250, False, 600,
       RATE_TOLERANCE, source="IV-B, Fig. 5(b)"),
    _c("250 ms: convergence ~2 s", "convergence_s", "approx", 250, False, 2.0, LOOSE_TOLERANCE,
       source="IV-B, Fig. 5(b)"),
    _c("250 ms: C1 loss 0.1", "flows.C1.loss_rate", "approx", 250, False, 0.10, LOOSE_TOLERANCE,
       source="IV-B, Table 4"),
    _c("250 ms: C2 loss 0.24", "flows.C2.loss_rate", "approx", 250, False, 0.24, LOOSE_TOLERANCE,
       source="IV-B, Table 4"),
    # IV-B, Fig. 5(c)(d): "Even if C2 starts its session, the Interest sending rates in C1 and C2
    # keep 1,000 packets/sec as if the individual consumer communicates alone." Table 4: "the loss
    # rates for 500 msec and 750 msec time intervals is larger than 0.5."
    *[_c(f"{t} ms: {f} shared stays ~1000 pkt/s", f"flows.{f}.rate_pps_end", "approx", t,
         False, 1000, RATE_TOLERANCE, source=f"IV-B, Fig. 5({'c' if t == 500 else 'd'})")
      for t in (500, 750) for f in ("C1", "C2")],
    *[_c(f"{t} ms: {f} loss > 0.5", f"flows.{f}.loss_rate", "above", t, False, 0.5,
         source="IV-B, Table 4") for t in (500, 750) for f in ("C1", "C2")],
    # V-B, Table 5: "the loss rates when the time interval is 100 msec and 250 msec are similar
    # for the original MIRCC and the MIRCC with Interest sending smoothening. More specifically,
    # the loss rate of the smoothing is slightly smaller than the original MIRCC."
    *[_c(f"{t} ms + smoothening: {f} loss not above the original's", f"flows.{f}.loss_rate",
         "not_above_baseline", t, True, baseline={"tick_ms": t, "smoothening": False},
         source="V-B, Table 5") for t in (100, 250) for f in ("C1", "C2")],
    # V-B, Fig. 7(c)(d): "the Interest sending rates of two flows could be tuned to the half of
    # the bottleneck link bandwidth" (600 pkt/s); Table 5: "the overall loss rate in the
    # smoothening is much better than the original MIRCC, whose loss rate was larger than 50%."
    *[_c(f"{t} ms + smoothening: {f} shared ~600 pkt/s", f"flows.{f}.rate_pps_end", "approx",
         t, True, 600, RATE_TOLERANCE, source=f"V-B, Fig. 7({'c' if t == 500 else 'd'})")
      for t in (500, 750) for f in ("C1", "C2")],
    *[_c(f"{t} ms + smoothening: {f} loss < 0.5", f"flows.{f}.loss_rate", "below", t, True, 0.5,
         source="V-B, Table 5") for t in (500, 750) for f in ("C1", "C2")],
    *[_c(f"{t} ms + smoothening: {f} loss below the original's", f"flows.{f}.loss_rate",
         "not_above_baseline", t, True, baseline={"tick_ms": t, "smoothening": False},
         source="V-B, Table 5") for t in (500, 750) for f in ("C1", "C2")],
)


def judge(claim, value, baseline_value=None):
    """(verdict, detail) of `claim` given our median `value` (and the baseline's median for
    not_above_baseline). Verdicts: reproduced, over-reproduced, under-reproduced, not reproduced,
    missing."""
    if value is None or (claim.kind == "not_above_baseline" and baseline_value is None):
        return "missing", "no runs"
    if claim.kind == "approx":
        lo, hi = claim.value * (1 - claim.tolerance), claim.value * (1 + claim.tolerance)
        band = f"paper {claim.value:g} +-{claim.tolerance:.0%} = [{lo:g}, {hi:g}]"
        if value > hi:
            return "over-reproduced", band
        if value < lo:
            return "under-reproduced", band
        return "reproduced", band
    if claim.kind == "above":
        return ("reproduced" if value > claim.value else "not reproduced"), f"paper > {claim.value:g}"
    if claim.kind == "below":
        return ("reproduced" if value < claim.value else "not reproduced"), f"paper < {claim.value:g}"
    if claim.kind == "not_above_baseline":
        ok = value <= baseline_value
        return ("reproduced" if ok else "not reproduced"), f"original MIRCC {baseline_value:.3g}"
    raise ValueError(f"unknown claim kind {claim.kind!r}")
