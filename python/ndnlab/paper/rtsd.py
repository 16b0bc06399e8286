"""Real-time streaming over NDN in the NDN-RTC design (Gusev, Wang, Burke, Zhang, Yoneda,
Ohnishi, Muramoto; shared/papers/ndn-rtc-realtime-streaming.txt; issue 29 item 4): Table 1, the
consumer's bootstrapping from six initial pipeline sizes lambda_p^0 at 100 ms RTT and 30
frames/s, in ns-3 (scenario `rtsd-star`, the paper's Fig. 20: CP1 -L1- R -L2- CP2, 25 ms per
link).

Each row of Table 1 gives four claims, judged two-sided by experiments/rtsd/report.py on the
median over the seeds (ndnlab.repro):
- resulting DRD' (ms): absolute, +-DRD_TOLERANCE of the paper's value;
- chasing period (ms): absolute, +-PERIOD_TOLERANCE of the paper's value;
- back-off period (ms): absolute, +-BACKOFF_TOLERANCE_MS (an absolute band: two of the paper's
  values are 0, where a relative band is empty);
- lambda_p^final: absolute, +-0.5 (the same whole number).
The paper's values are single test runs on real hosts shaped by tc (one run per row, no spread
given), so the tolerances are wide; they are stated once here, not per claim.

Fig. 22 (the chasing period against link latency for the Low, Medium and High estimator sets)
lost its values in the stored text; its sentences give directions only, judged as such
(FIG22_CLAIMS, campaign fig22.toml).
"""

from ndnlab.repro import Claim

CITATION = ("P. Gusev, Z. Wang, J. Burke, L. Zhang, T. Yoneda, R. Ohnishi, E. Muramoto, "
            "\"Real-Time Streaming Data Delivery over Named Data Networking\", IEICE Trans. Commun. "
            "E99-B(5), 2016 (shared/papers/ndn-rtc-realtime-streaming.txt)")

DRD_TOLERANCE = 0.25
PERIOD_TOLERANCE = 0.50
BACKOFF_TOLERANCE_MS = 500.0
LAMBDA_TOLERANCE = 0.5

# Table 1, "Bootstrapping test results": lambda_p^0 -> (resulting DRD' ms, chasing ms, back-off
# ms, lambda_p^final)
TABLE1 = {
    30: (110, 700, 1600, 4),
    15: (110, 700, 1500, 4),
    5: (140, 1100, 0, 5),
    4: (110, 2000, 400, 4),
    3: (110, 2500, 2000, 4),
    2: (110, 3800, 0, 4),
}
LAMBDA0 = tuple(TABLE1)

# (column, our result key, tolerance, relative, the paper's definition in words)
COLUMNS = (
    ("DRD'", "stream.drd_final_ms", DRD_TOLERANCE, True,
     "\"Resulting DRD'\": the data retrieval delay (Interest sent to Data back) the consumer measures "
     "by the end of bootstrapping, which \"should be close to the actual network DRD value\" (Sect. "
     "5.2.1); ours: DRD' averaged over its window once the first Fetching pipeline drained"),
    ("chasing", "stream.chasing_ms", PERIOD_TOLERANCE, True,
     "\"Chasing period\": from the first Interests of the Chasing phase until the stability "
     "estimator detects the latest data (Sect. 3.3.3, 4.1.3); ours: first Chasing to Adjust"),
    ("back-off", "stream.backoff_ms", BACKOFF_TOLERANCE_MS, False,
     "\"Backoff period\": the adjusting phase, in which the consumer decreases lambda_p until it "
     "receives stale data, then restores the last value and switches to Fetching (Sect. 5.2.1); "
     "ours: first Adjust to Fetching"),
    ("lambda_final", "stream.lambda_final", LAMBDA_TOLERANCE, False,
     "lambda_p^final: the pipeline size on entering Fetching (Sect. 5.2.1); the paper's Interest "
     "demand at 100 ms RTT and 30 frames/s is 4"),
)


def _claims():
    out = []
    for row, (lam, paper) in enumerate(TABLE1.items(), start=1):
        for col, ((name, metric, tol, rel, definition), value) in enumerate(zip(COLUMNS, paper)):
            out.append(Claim(id=f"t1.{row}.{col + 1}", source=f"Table 1, run {row}", metric=metric,
                             definition=definition, kind="absolute", paper=float(value), tolerance=tol,
                             relative=rel, where={"InitialPipeline": lam}, campaign="table1",
                             label=f"lambda_p^0 = {lam}: {name} {value}"))
    return tuple(out)


# Fig. 22 (its values are not in the stored text; only its sentences are): the chasing period
# against link latency for the three parameter sets of Eq. (3), judged as directions on the
# per-seed differences, with no difference within DIRECTION_BAND of the baseline's median.
FIG22_DELAYS = ("5ms", "10ms", "25ms", "50ms")
FIG22_SETS = ("low", "medium", "high")
DIRECTION_BAND = 0.05
CHASING_FIG22 = ("\"Chasing period duration\" (Fig. 22): from the start of Chasing until the stability estimator "
                 "detects the latest data arrival; ours: first Chasing to Adjust (stream.chasing_ms)")


def _fig22():
    out = []
    n = 0
    for d in FIG22_DELAYS:
        # "the estimator with the highest precision required longer chasing periods ... whereas
        # lower precision provided faster chasing"
        for s, expect in (("high", "higher"), ("low", "lower")):
            n += 1
            out.append(Claim(id=f"f22.{n}", source="Sect. 5.2.1, Fig. 22", metric="stream.chasing_ms",
                             definition=CHASING_FIG22, kind="direction", tolerance=DIRECTION_BAND,
                             where={"Stability": s, "Delay": d}, baseline={"Stability": "medium", "Delay": d},
                             expect=expect, campaign="fig22",
                             label=f"{d} links: {s} chases {'longer' if expect == 'higher' else 'shorter'} than medium"))
    for s in FIG22_SETS:
        # "Overall, the chasing period duration increases as link latency increases"
        n += 1
        out.append(Claim(id=f"f22.{n}", source="Sect. 5.2.1, Fig. 22", metric="stream.chasing_ms",
                         definition=CHASING_FIG22, kind="direction", tolerance=DIRECTION_BAND,
                         where={"Stability": s, "Delay": FIG22_DELAYS[-1]},
                         baseline={"Stability": s, "Delay": FIG22_DELAYS[0]}, expect="higher", campaign="fig22",
                         label=f"{s}: longer chasing at {FIG22_DELAYS[-1]} than at {FIG22_DELAYS[0]} links"))
    return tuple(out)


# Figs. 23-24 (values lost in the stored text too): "a consumer with a larger segment size
# suffered more under lossy link conditions, and was unable to start playback at all for 5%
# and 10% loss ratios" (Sect. 5.2.2). Loss is the share of frames each link loses, both ways.
FIG23_LOSSES = (0, 0.01, 0.02, 0.05, 0.1)
FIG23_PAYLOADS = (1000, 8000)
RENDERED = ("Rendered frames (Fig. 23): frames the consumer played out in the test; ours: frames rendered "
            "over the 20 s stream (stream.frames_rendered)")


def _fig23():
    out = []
    n = 0
    for loss in FIG23_LOSSES[1:]:
        n += 1
        out.append(Claim(id=f"f23.{n}", source="Sect. 5.2.2, Fig. 23", metric="stream.frames_rendered",
                         definition=RENDERED, kind="direction", tolerance=DIRECTION_BAND,
                         where={"PayloadSize": 8000, "Loss": loss}, baseline={"PayloadSize": 1000, "Loss": loss},
                         expect="lower", campaign="fig23",
                         label=f"loss {loss:g}: 8000-byte payloads render fewer frames than 1000-byte"))
    for loss in (0.05, 0.1):
        n += 1
        out.append(Claim(id=f"f23.{n}", source="Sect. 5.2.2, Fig. 23", metric="stream.frames_rendered",
                         definition=RENDERED, kind="bound", paper=1.0, expect="below",
                         where={"PayloadSize": 8000, "Loss": loss}, campaign="fig23",
                         label=f"loss {loss:g}: 8000-byte payloads never start playback",
                         note="\"unable to start playback at all\" read as no frame rendered (below 1)"))
    return tuple(out)


# Fig. 19 (Sect. 5.1; values lost in the stored text): "even though the bandwidth through Face 2
# increased when consumer C2 started to fetch the stream ..., Face 1 throughput stayed
# unchanged"; after R1 was shut down "Data packets continued to flow from router R2; the
# transition did not cause any interruption in playback or packet loss at the consumer".
UNCHANGED_TOLERANCE = 0.10
FACE_RATIO = ("a face's throughput after the event over before it (Fig. 19); ours: Mbit/s the face sent per "
              "second, mean from 5 s after the event to the end over the mean from 3 s after the first consumer "
              "started to the event (faces.<face>.after_over_before)")


def _fig19():
    def c(n, label, metric, kind, test, definition, **kw):
        return Claim(id=f"f19.{n}", source="Sect. 5.1, Fig. 19", metric=metric, definition=definition, kind=kind,
                     where={"Test": test}, campaign="fig19", label=label, **kw)
    return (
        c(1, "consumers: face 1 (producer's) unchanged when C2 starts", "faces.face1.after_over_before",
          "absolute", "consumers", FACE_RATIO, paper=1.0, tolerance=UNCHANGED_TOLERANCE),
        c(2, "consumers: face 2 (toward the consumers) increases", "faces.face2.after_over_before", "bound",
          "consumers", FACE_RATIO, paper=1.0, expect="above"),
        c(3, "failover: no interruption of playback", "stream.stalls", "bound", "failover",
          "interruptions of playback at the consumer (Fig. 19(b)); ours: playback stalls (nothing ready to "
          "render), stream.stalls", paper=1.0, expect="below", note="\"no interruption\" read as no stall"),
        c(4, "failover: no loss at the consumer", "stream.frames_lost", "bound", "failover",
          "packet loss at the consumer (Fig. 19(b)); ours: frames that missed their playout deadline, "
          "stream.frames_lost", paper=1.0, expect="below", note="\"no packet loss\" read as no frame lost"),
        c(5, "failover: Data keep flowing from R2", "faces.r2.after_mbps", "bound", "failover",
          "throughput of R2's face toward the consumer after R1 died (Fig. 19(b)); ours: Mbit/s, mean from 5 s "
          "after the failure to the end (faces.r2.after_mbps)", paper=1.0, expect="above",
          note="the 1000 kbit/s stream read as the bound: R2 carries at least the stream"),
    )


TABLE1_CLAIMS = _claims()
FIG22_CLAIMS = _fig22()
FIG23_CLAIMS = _fig23()
FIG19_CLAIMS = _fig19()
CLAIMS = TABLE1_CLAIMS + FIG19_CLAIMS + FIG22_CLAIMS + FIG23_CLAIMS
