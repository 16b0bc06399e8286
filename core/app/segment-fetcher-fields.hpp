#pragma once
// The fields of SegmentFetcherOptions, declared once (core/runtime/fields.hpp): `ndnlab get`'s
// flags, ndnlab::ConsumerApp's ns-3 attributes, the consumer parameters of `ndnlab sim` and the
// options tables of docs/tools.md and docs/mechanisms/ns3.md all come from this list. A new
// consumer option is one entry here (its default is the member initialiser).

#include "core/app/segment-fetcher.hpp"
#include "core/cc/congestion-window.hpp"
#include "core/runtime/fields.hpp"

namespace ndnlab::app {

/// Calls `v` with every field of SegmentFetcherOptions, in the order of `ndnlab get --help`.
/// Hosts call it unqualified (argument-dependent lookup finds each struct's visitor).
template<typename Visitor>
void visitFields(std::type_identity<SegmentFetcherOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = SegmentFetcherOptions;
  const std::vector<std::string>& algorithms = fetcherPipelines(); // the cc registry's names, and mircc
  constexpr double MaxMs = 1e12;                                   // ns3::Time and Duration hold about 292 years
  v(field<O>({.name = "pipeline",
              .doc = "Congestion control / pipeline type",
              .flags = "--cc,--pipeline,--pipeline-type",
              .hosts = Cli | Ns3}, // the scenarios choose it with --Consumer
             NDNLAB_FIELD_REF(o.pipeline), {algorithms.begin(), algorithms.end()}));
  v(field<O>({.name = "pipeline-size",
              .doc = "Window of the fixed pipeline",
              .unit = "Interests",
              .range = Range::closed(1, 65536),
              .attribute = "FixedWindow",
              .flags = "-s,--pipeline-size"},
             NDNLAB_FIELD_REF(o.window.fixedSize)));
  v(field<O>({.name = "init-cwnd",
              .doc = "Initial congestion window, aimd/cubic",
              .unit = "segments",
              .range = Range::closed(1, 1e9)},
             NDNLAB_FIELD_REF(o.window.initCwnd)));
  v(field<O>({.name = "init-ssthresh",
              .doc = "Initial slow-start threshold; inf: none",
              .unit = "segments",
              .range = Range::positive(),
              .hosts = Cli | Ns3}, // its default (infinite) is no scenario value
             NDNLAB_FIELD_REF(o.window.initSsthresh)));
  v(field<O>({.name = "rto-k",
              .doc = "RTO = SRTT + k x RTTVAR (the BLEnD paper's gamma; RFC 6298 and ndnSIM: 4)",
              .range = Range::nonNegative()},
             NDNLAB_FIELD_REF(o.rtt.k)));
  v(field<O>({.name = "rto-alpha", .doc = "SRTT gain", .range = Range::fraction(true), .attribute = "RttAlpha"},
             NDNLAB_FIELD_REF(o.rtt.alpha)));
  v(field<O>({.name = "rto-beta", .doc = "RTTVAR gain", .range = Range::fraction(true), .attribute = "RttBeta"},
             NDNLAB_FIELD_REF(o.rtt.beta)));
  v(field<O>({.name = "initial-rto", .doc = "RTO before the first RTT sample", .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.rtt.initialRto)));
  v(field<O>({.name = "min-rto", .doc = "Lower clamp of the RTO", .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.rtt.minRto)));
  v(field<O>({.name = "max-rto", .doc = "Upper clamp of the RTO, not below min-rto", .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.rtt.maxRto)));
  v(field<O>({.name = "rto-backoff", .doc = "RTO multiplier on each backoff", .range = Range::closed(1, 1e6)},
             NDNLAB_FIELD_REF(o.rtt.backoffMultiplier)));
  v(field<O>({.name = "lifetime",
              .doc = "InterestLifetime of every Interest",
              .range = Range::positive(MaxMs),
              .flags = "-l,--lifetime"},
             NDNLAB_FIELD_REF(o.lifetime)));
  v(field<O>({.name = "retries",
              .doc = "Retries per segment on timeout or Nack (-1: unlimited); aimd/cubic under the ndnlab "
                     "profile fail only after this many + 1 timeouts in a row with no Data between",
              .range = Range::closed(-1, 1024),
              .flags = "-r,--retries"},
             NDNLAB_FIELD_REF(o.retries)));
  v(field<O>({.name = "retries-count-stalls-only",
              .doc = "aimd/cubic: the fetch fails after retries + 1 timeouts in a row with no Data between (a "
                     "segment after as many Nack Congestion); off: every retransmission counts (ndncatchunks)"},
             NDNLAB_FIELD_REF(o.retriesCountStallsOnly)));
  v(field<O>({.name = "ignore-marks", .doc = "Do not react to congestion marks"},
             NDNLAB_FIELD_REF(o.control.ignoreMarks)));
  v(field<O>({.name = "disable-cwa",
              .doc = "React to every loss and mark, not once per RTT (no Conservative "
                     "Window Adaptation)"},
             NDNLAB_FIELD_REF(o.control.disableCwa)));
  v(enumField<O>({.name = "cwa-gate",
                  .doc = "When a loss may decrease the window: transmission (the lost Interest was sent after "
                         "the last decrease, retransmissions included, as TCP), lost-segment (the lost segment "
                         "is past the recovery point, as ndncatchunks) or high-data (the highest Data is past "
                         "it, as ndnSIM's ConsumerPcon)"},
                 NDNLAB_FIELD_REF(o.control.cwaGate), &cc::toString, &cc::parseCwaGate,
                 {cc::CwaGate::Transmission, cc::CwaGate::LostSegment, cc::CwaGate::HighData}));
  v(field<O>({.name = "cwa-rtt-suppress",
              .doc = "high-data gate: recovery point = next segment + this x outstanding Interests "
                     "(ConsumerPcon's AddRttSuppress)",
              .range = Range::nonNegative()},
             NDNLAB_FIELD_REF(o.control.cwaRttSuppress)));
  v(enumField<O>({.name = "loss-detection",
                  .doc = "How aimd/cubic find losses: rack (also from the order Data return in, RFC 8985) or "
                         "timeout (RTO and lifetime expiry only, as ndncatchunks and ndnSIM)"},
                 NDNLAB_FIELD_REF(o.lossDetection), &toString, &parseLossDetection,
                 {LossDetection::Rack, LossDetection::Timeout}));
  v(field<O>({.name = "reorder-window",
              .doc = "rack: an Interest is lost once one sent this share of the minimum RTT after it is answered",
              .range = Range::nonNegative()},
             NDNLAB_FIELD_REF(o.reorderWindow)));
  v(field<O>({.name = "reorder-adapt",
              .doc = "rack: widen the reorder window, up to SRTT, when a segment declared lost comes late after "
                     "all (RFC 8985's adaptive window; for paths whose link layer retransmits, e.g. NDNLPv2 link "
                     "reliability)"},
             NDNLAB_FIELD_REF(o.reorderAdapt)));
  v(field<O>({.name = "retx-holdoff",
              .doc = "Send no Interest for a segment again sooner than this after the previous one: the "
                     "forwarder's retransmission suppression (10 ms at first) would drop it; 0: at once",
              .range = Range::nonNegative(MaxMs)},
             NDNLAB_FIELD_REF(o.retxHoldoff)));
  v(field<O>({.name = "tail-loss-probe",
              .doc = "rack: when no Data arrived for 2 x SRTT, send one probe Interest whose Data reveals "
                     "earlier losses (RFC 8985 Tail Loss Probe) instead of waiting for the RTO"},
             NDNLAB_FIELD_REF(o.tailLossProbe)));
  v(field<O>({.name = "hystart",
              .doc = "HyStart: leave slow start when the RTT rises, before queues overflow (docs/tools.md)",
              .attribute = "HyStart"},
             NDNLAB_FIELD_REF(o.control.hystart)));
  v(field<O>({.name = "hystart-css-rounds",
              .doc = "0: Linux's HyStart (the rise from the fetch's lowest RTT, then congestion avoidance); "
                     "N > 0: HyStart++ (RFC 9406: 5) with N Conservative Slow Start rounds",
              .unit = "rounds",
              .range = Range::closed(0, 1000),
              .attribute = "HyStartCssRounds"},
             NDNLAB_FIELD_REF(o.control.hystartCssRounds)));
  v(field<O>(
    {.name = "aimd-step", .doc = "AIMD additive increase per RTT", .unit = "segments", .range = Range::positive()},
    NDNLAB_FIELD_REF(o.window.aimd.step)));
  v(field<O>({.name = "aimd-beta", .doc = "AIMD multiplicative decrease factor", .range = Range::fraction(false)},
             NDNLAB_FIELD_REF(o.window.aimd.beta)));
  v(field<O>({.name = "reset-cwnd-to-init", .doc = "AIMD: back to init-cwnd on loss", .attribute = "AimdResetToInit"},
             NDNLAB_FIELD_REF(o.window.aimd.resetToInit)));
  v(field<O>({.name = "aimd-min-ssthresh",
              .doc = "AIMD: the window never falls below this on a decrease (ndncatchunks 2, ndnSIM's "
                     "ConsumerPcon 1)",
              .unit = "segments",
              .range = Range::closed(1, 1e9)},
             NDNLAB_FIELD_REF(o.window.aimd.minSsthresh)));
  v(field<O>({.name = "aimd-floor-increase",
              .doc = "AIMD congestion avoidance adds 1/floor(cwnd) per Data (ndncatchunks); off "
                     "(--aimd-exact-increase): 1/cwnd (ndnSIM's ConsumerPcon)",
              .flags = "--aimd-floor-increase,!--aimd-exact-increase"},
             NDNLAB_FIELD_REF(o.window.aimd.floorIncrease)));
  v(field<O>({.name = "cubic-beta",
              .doc = "CUBIC window decrease factor (ndnSIM's ConsumerPcon 0.8)",
              .range = Range::fraction(false)},
             NDNLAB_FIELD_REF(o.window.cubic.beta)));
  v(field<O>({.name = "cubic-c", .doc = "CUBIC scaling constant C", .range = Range::positive()},
             NDNLAB_FIELD_REF(o.window.cubic.c)));
  v(field<O>({.name = "cubic-fast-convergence",
              .doc = "CUBIC fast convergence",
              .flags = "--fast-conv,--cubic-fast-convergence,!--no-fast-conv"},
             NDNLAB_FIELD_REF(o.window.cubic.fastConvergence)));
  v(field<O>({.name = "cubic-tcp-friendly",
              .doc = "CUBIC's TCP-friendly region (RFC 8312 W_est, as ndncatchunks); off as in ndnSIM's "
                     "ConsumerPcon"},
             NDNLAB_FIELD_REF(o.window.cubic.tcpFriendly)));
  v(field<O>({.name = "ceil-window",
              .doc = "Send while fewer than ceil(cwnd) Interests are outstanding (ndnSIM's ConsumerWindow); "
                     "off: floor(cwnd), as ndncatchunks"},
             NDNLAB_FIELD_REF(o.ceilWindow)));
  v(field<O>({.name = "rto-backoff-per-timeout",
              .doc = "Every timed-out segment doubles the RTO (at most 64x, until the next RTT sample), "
                     "applied to all segments in flight (ndnSIM's Consumer); off: once per window decrease, "
                     "each segment against the RTO it was sent with (ndncatchunks)"},
             NDNLAB_FIELD_REF(o.rtoBackoffPerTimeout)));
  v(field<O>({.name = "rtt-full-gains",
              .doc = "Every RTT sample moves SRTT and RTTVAR by the full gains (ndnSIM's RttMeanDeviation); "
                     "off: the gains divided by the samples expected per RTT (ndncatchunks)"},
             NDNLAB_FIELD_REF(o.rttFullGains)));
  v(field<O>(
    {.name = "max-in-flight", .doc = "Cap on outstanding Interests (0: the window alone)", .unit = "Interests"},
    NDNLAB_FIELD_REF(o.maxInFlight)));
  v(field<O>({.name = "pacing",
              .doc = "Pace Interests at pacing-gain x cwnd / SRTT instead of window bursts (BLEnD section VI-A)"},
             NDNLAB_FIELD_REF(o.pacing)));
  v(field<O>({.name = "pacing-gain", .doc = "Paced rate = gain x cwnd / SRTT", .range = Range::positive()},
             NDNLAB_FIELD_REF(o.pacingGain)));
  v(field<O>({.name = "reorder-buffer",
              .doc = "Segments held for in-order output",
              .unit = "segments",
              .range = Range::closed(1, 1e9),
              .attribute = "MaxReorderSegments"},
             NDNLAB_FIELD_REF(o.maxReorderSegments)));
  v(field<O>({.name = "must-be-fresh",
              .doc = "Set MustBeFresh on segment Interests",
              .attribute = "MustBeFresh",
              .flags = "-f,--fresh,!--no-fresh"},
             NDNLAB_FIELD_REF(o.mustBeFresh)));
  v(enumField<O>(
    {.name = "version-discovery", .doc = "How the version is found: rdr, first-segment or none (the name as given)"},
    NDNLAB_FIELD_REF(o.discovery), &toString, &parseVersionDiscovery,
    {VersionDiscovery::Rdr, VersionDiscovery::FirstSegment, VersionDiscovery::None}));
  v(field<O>({.name = "rto-check-interval",
              .doc = "Period of the timeout scan (ndnSIM's RetxTimer: 50 ms)",
              .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.rtoCheckInterval)));
  v(field<O>({.name = "initial-rate",
              .doc = "mircc: Interests per second until a Data brings the path's rate",
              .unit = "Interests/s",
              .range = Range::positive(1e9),
              .attribute = "InitialRate"},
             NDNLAB_FIELD_REF(o.rateInitial)));
  v(field<O>({.name = "tick",
              .doc = "mircc: the consumer's clock; 0 = a timer per Interest, > 0 = the Interests that fell due "
                     "leave together at each tick (Kato et al., Fig. 3)",
              .range = Range::closed(0, MaxMs),
              .attribute = "ClockTick"},
             NDNLAB_FIELD_REF(o.rateTick)));
  v(field<O>(
    {.name = "smoothening",
     .doc = "mircc with a tick: due Interests also leave whenever a Data or Nack arrives (Kato et al., Sec. V)",
     .attribute = "Smoothening"},
    NDNLAB_FIELD_REF(o.rateSmoothening)));
  v(field<O>({.name = "rate-data-size",
              .doc = "mircc: Data size that turns the stamped rate into Interests per second; 0 = the latest "
                     "Data's",
              .unit = "B",
              .range = Range::closed(0, 1e9),
              .attribute = "RateDataSize"},
             NDNLAB_FIELD_REF(o.rateDataSize)));
  v(field<O>({.name = "rate-ramp",
              .doc = "mircc, beyond the paper: a higher stamped rate is taken at most doubling per smoothed RTT",
              .attribute = "RateRamp"},
             NDNLAB_FIELD_REF(o.rateRamp)));
}

} // namespace ndnlab::app
