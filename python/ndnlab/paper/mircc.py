"""MIRCC under a coarse-grained clock, with and without Interest-sending smoothening (Kato,
Enda, Yamamoto, Ohzahata, FedCSIS 2020; shared/papers/mircc-coarse-grained-clock.txt): the
dumbbell of Sec. IV-A (scenario `mircc-dumbbell`), clock ticks of 100, 250, 500 and 750 ms.

The stored text lost the figures and Tables 4-5; what remains are the sentences of Sec. IV-B
and V-B, each kept below with the claim it makes, declared as ndnlab.repro claims and judged
two-sided by experiments/mircc/report.py on the median over the seeds:
- `absolute`: the paper's value within a relative tolerance, both ways (above the band is
  over-reproduction, below it under-reproduction);
- `bound`: the paper states only a bound ("larger than 0.5");
- `direction`: the paper states a direction against the original MIRCC of the same tick
  ("slightly smaller", "much better"), judged on the per-seed differences.

Conditions: Tick (the paper's "time interval" of consumers and routers, ms), Smoothening.
Metrics are the scenario's result keys. The paper's rates ("go to 600", "keep 1,000", "tuned to
the half") describe the level its figures reach, so they are judged on rate_pps_end, the mean
over the last second both consumers send (7-8 s; in whole ticks, 6.5-8 s at 750 ms); the time to get there is the convergence claim.
"""

from ndnlab.repro import Claim

CITATION = ("T. Kato, K. Enda, M. Yamamoto, S. Ohzahata, \"A Study on Performance of Explicit "
            "Rate Report based Congestion Control under Coarse-grained Clock Management\", "
            "FedCSIS 2020 (shared/papers/mircc-coarse-grained-clock.txt)")

# Tolerances the paper's words allow, stated once: "around 1,000", "go to 600" and "about 2 s"
# are read as +-15 % (rates) and +-50 % (the convergence time and the two loss rates of 250 ms,
# the only loss values the text prints).
RATE_TOLERANCE = 0.15
LOOSE_TOLERANCE = 0.50

# The paper's definitions of its metrics, in words (Sec. III-IV).
RATE = ("Interest sending rate of the consumer, packets/sec, the level its figure reaches "
        "(Figs. 5, 7); ours: Interests sent per second over the last second both consumers send")
RATE_ALONE = ("Interest sending rate of C1 before C2 starts, packets/sec (Fig. 5); ours: "
              "Interests sent per second over [2 s, 3 s)")
LOSS = ("overall loss rate of the flow's original Interests, no retransmission (Tables 4, 5): "
        "1 - Data delivered / Interests sent (the text says \"the number of delivered Data packets "
        "divided by the number of sent Interest packets\", the delivery ratio; with a \"small\" "
        "loss rate at 100 ms its complement is meant)")
CONVERGENCE = ("time after C2 starts until the two rates converge to 600 packets/sec (Fig. 5(b)); "
               "ours: until both rates, averaged over whole ticks, stay within 10 % of 600")


def _cell(tick, smooth):
    return {"Tick": tick, "Smoothening": smooth}


def _c(id, label, metric, kind, tick, smooth, value=float("nan"), tol=0.0, baseline=False,
       expect="", source="", definition=""):
    return Claim(id=id, source=source, metric=metric, definition=definition, kind=kind,
                 paper=value, tolerance=tol, where=_cell(tick, smooth),
                 baseline=_cell(tick, False) if baseline else {}, expect=expect,
                 campaign="paper", label=label)


def _rate(id, label, metric, tick, smooth, value, source):
    return _c(id, label, metric, "absolute", tick, smooth, value, RATE_TOLERANCE, source=source,
              definition=RATE_ALONE if metric.endswith("alone") else RATE)


CLAIMS = (
    # IV-B, Fig. 5(a): "In the beginning, the Interest sending rate at C1 takes the value around
    # 1,000 packets/sec ... When C2 starts the communication, the Interest sending rates at C1
    # and C2 go to 600 packets/sec"
    _rate("m1", "100 ms: C1 alone ~1000 pkt/s", "flows.C1.rate_pps_alone", 100, False, 1000,
          "IV-B, Fig. 5(a)"),
    _rate("m2", "100 ms: C1 shared ~600 pkt/s", "flows.C1.rate_pps_end", 100, False, 600,
          "IV-B, Fig. 5(a)"),
    _rate("m3", "100 ms: C2 shared ~600 pkt/s", "flows.C2.rate_pps_end", 100, False, 600,
          "IV-B, Fig. 5(a)"),
    # IV-B: "In the case that the time interval is 100 msec, the loss rate is small, and that for
    # 250 msec time interval is 0.1 for the C1-P1 flow and 0.24 for the C2-P2 flow" -> "small"
    # read as below 250 ms's smaller value
    *[_c(f"m{4 + i}", f"100 ms: {f} loss small (< 0.1)", f"flows.{f}.loss_rate", "bound", 100,
         False, 0.1, expect="below", source="IV-B, Table 4", definition=LOSS)
      for i, f in enumerate(("C1", "C2"))],
    # IV-B, Fig. 5(b): "similar with the case of 100 msec. The difference is that the convergence
    # to 600 packets/sec when C2 starts the communication takes larger period, around 2 sec."
    _rate("m6", "250 ms: C1 alone ~1000 pkt/s", "flows.C1.rate_pps_alone", 250, False, 1000,
          "IV-B, Fig. 5(b)"),
    _rate("m7", "250 ms: C1 shared ~600 pkt/s", "flows.C1.rate_pps_end", 250, False, 600,
          "IV-B, Fig. 5(b)"),
    _rate("m8", "250 ms: C2 shared ~600 pkt/s", "flows.C2.rate_pps_end", 250, False, 600,
          "IV-B, Fig. 5(b)"),
    _c("m9", "250 ms: convergence ~2 s", "convergence_s", "absolute", 250, False, 2.0,
       LOOSE_TOLERANCE, source="IV-B, Fig. 5(b)", definition=CONVERGENCE),
    _c("m10", "250 ms: C1 loss 0.1", "flows.C1.loss_rate", "absolute", 250, False, 0.10,
       LOOSE_TOLERANCE, source="IV-B, Table 4", definition=LOSS),
    _c("m11", "250 ms: C2 loss 0.24", "flows.C2.loss_rate", "absolute", 250, False, 0.24,
       LOOSE_TOLERANCE, source="IV-B, Table 4", definition=LOSS),
    # IV-B, Fig. 5(c)(d): "Even if C2 starts its session, the Interest sending rates in C1 and C2
    # keep 1,000 packets/sec as if the individual consumer communicates alone." Table 4: "the loss
    # rates for 500 msec and 750 msec time intervals is larger than 0.5."
    *[_rate(f"m{12 + i}", f"{t} ms: {f} shared stays ~1000 pkt/s", f"flows.{f}.rate_pps_end", t,
            False, 1000, f"IV-B, Fig. 5({'c' if t == 500 else 'd'})")
      for i, (t, f) in enumerate((t, f) for t in (500, 750) for f in ("C1", "C2"))],
    *[_c(f"m{16 + i}", f"{t} ms: {f} loss > 0.5", f"flows.{f}.loss_rate", "bound", t, False, 0.5,
         expect="above", source="IV-B, Table 4", definition=LOSS)
      for i, (t, f) in enumerate((t, f) for t in (500, 750) for f in ("C1", "C2"))],
    # V-B, Table 5: "the loss rates when the time interval is 100 msec and 250 msec are similar
    # for the original MIRCC and the MIRCC with Interest sending smoothening. More specifically,
    # the loss rate of the smoothing is slightly smaller than the original MIRCC."
    *[_c(f"m{20 + i}", f"{t} ms + smoothening: {f} loss below the original's",
         f"flows.{f}.loss_rate", "direction", t, True, baseline=True, expect="lower",
         source="V-B, Table 5", definition=LOSS)
      for i, (t, f) in enumerate((t, f) for t in (100, 250) for f in ("C1", "C2"))],
    # V-B, Fig. 7(c)(d): "the Interest sending rates of two flows could be tuned to the half of
    # the bottleneck link bandwidth" (600 pkt/s); Table 5: "the overall loss rate in the
    # smoothening is much better than the original MIRCC, whose loss rate was larger than 50%."
    *[_rate(f"m{24 + i}", f"{t} ms + smoothening: {f} shared ~600 pkt/s", f"flows.{f}.rate_pps_end",
            t, True, 600, f"V-B, Fig. 7({'c' if t == 500 else 'd'})")
      for i, (t, f) in enumerate((t, f) for t in (500, 750) for f in ("C1", "C2"))],
    *[_c(f"m{28 + i}", f"{t} ms + smoothening: {f} loss < 0.5", f"flows.{f}.loss_rate", "bound",
         t, True, 0.5, expect="below", source="V-B, Table 5", definition=LOSS)
      for i, (t, f) in enumerate((t, f) for t in (500, 750) for f in ("C1", "C2"))],
    *[_c(f"m{32 + i}", f"{t} ms + smoothening: {f} loss below the original's",
         f"flows.{f}.loss_rate", "direction", t, True, baseline=True, expect="lower",
         source="V-B, Table 5", definition=LOSS)
      for i, (t, f) in enumerate((t, f) for t in (500, 750) for f in ("C1", "C2"))],
)
