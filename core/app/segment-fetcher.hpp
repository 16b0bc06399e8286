#pragma once
// SegmentFetcher: the consumer of ndncatchunks/ndnget as a sans-I/O engine.
//
// 1. Version discovery (VersionDiscoverer, version-discovery.hpp): by the RDR metadata
//    protocol, an Interest `<name>/32=metadata` with CanBePrefix and MustBeFresh whose reply's
//    Content starts with the versioned Name; or (VersionDiscovery::FirstSegment) `<name>` with
//    CanBePrefix, whose reply is taken as segment 0 of `<reply name>.getPrefix(-1)`. Skipped
//    when the name already ends with a version component or discovery is disabled (then the
//    name is used as given).
// 2. Pipelined retrieval of `<versioned>/seg=N` under a congestion window from the cc registry
//    ("fixed", "aimd", "cubic"). Profiles (fetcherProfile(); "ndnsim" below them):
//    - "ndnlab" (default): losses are found from the order in which Data return, as TCP's
//      RACK (RFC 8985) does: Interests leave in order, so Data for an Interest sent later is
//      evidence about those sent earlier; one still outstanding that was sent more than a
//      reorder window (a share of the minimum RTT) before the latest answered Interest is
//      lost and retransmitted at once, without waiting for its RTO. A loss decreases the
//      window when the lost Interest was sent after the last decrease (CwaGate::Transmission),
//      so an episode whose retransmissions are lost again keeps reducing the window once per
//      round trip. The RTO and lifetime scan stays for tail losses and stalls; a scan that finds
//      timeouts with no Data since their Interests left backs off the RTO, and `retries` + 1 of
//      them in a row end the fetch, as TCP gives up after consecutive RTOs (a congestion loss
//      while Data flow is not a failure).
//    - "ndncatchunks": ndncatchunks' semantics (pipeline-interests-adaptive.cpp): losses only
//      by timeout (a scan every rtoCheckInterval: RTO expiry and Interest lifetime expiry); one
//      loss event per scan; Conservative Window Adaptation on the lost segment number; every
//      retransmission counts toward the retry limit.
//    Both: retransmission queue served first; congestion marks; Nack Duplicate ignored, Nack
//    Congestion = loss, other Nacks = failure of that segment; FinalBlockId learned from the
//    first Data that carries it. "fixed" keeps N Interests outstanding and retries like
//    ndncatchunks' DataFetcher: on lifetime expiry and Nack Duplicate at once, on Nack
//    Congestion after an exponential backoff (2^n ms, at most 10 s).
//    The fixed and the adaptive loss policies are FetchPipeline implementations
//    (fetch-pipeline.hpp); the fetcher keeps the segment table, the retransmission queue, the
//    window and the RTT estimate they share. With pacing, Interests leave through cc::Pacer
//    (pacer.hpp) at gain x cwnd / SRTT.
// 3. In-order delivery of content bytes through onBytes (InOrderBuffer, in-order-buffer.hpp),
//    the reorder buffer bounded: no new segment is requested beyond nextToDeliver +
//    maxReorderSegments.
//
// Every Interest carries a BundleTag {retransmission, floor(cwnd)} in tags.bundle, the window
// capped at the segments left (final segment - this segment + 1) once FinalBlockId is known.
// Trace events (Env::emit): fetch_data (value = segment, value2 = delay since the first
// Interest for it in s, reason "first"|"retx"), fetch_data_retx (value = segment, value2 =
// retransmissions), fetch_rtt (value = segment, value2 = RTT sample in s), fetch_timeout
// (value = segment), fetch_lost (value = segment found lost by Data order, value2 = its age in
// s), fetch_nack (value = segment, reason = Nack reason), fetch_cwnd
// (value2 = cwnd after a change), fetch_interest (value = segment, reason "retx" for a
// retransmission), fetch_done / fetch_fail (value = bytes, value2 = elapsed s, fail reason =
// FetchErrc name).
//
// Differences from ndncatchunks, each deliberate: Interest lifetime expiry is detected by the
// timeout scan (up to rtoCheckInterval late) instead of a timer per Interest; a Nack is only
// honoured when its Nonce matches the latest Interest for that segment; a fetch whose remaining
// segments are all resolved after a failure before FinalBlockId is known fails instead of
// waiting forever; the congestion-Nack backoff of "fixed" grows per segment (ndncatchunks
// resets its counter on every re-expression).

#include "core/app/endpoint.hpp"
#include "core/app/fetch-stats.hpp"
#include "core/app/in-order-buffer.hpp"
#include "core/app/version-discovery.hpp"
#include "core/cc/pacer.hpp"
#include "core/cc/rtt-estimator.hpp"
#include "core/cc/window-controller.hpp"
#include "core/runtime/env.hpp"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ndnlab::app {

class FetchPipeline;

/// How the adaptive pipelines find lost Interests.
enum class LossDetection : uint8_t {
  Timeout, ///< RTO and Interest lifetime expiry only (ndncatchunks, ndnSIM)
  Rack,    ///< also from the order Data return in (RFC 8985 RACK); timeouts remain for the tail
};

std::string_view toString(LossDetection d);
std::optional<LossDetection> parseLossDetection(std::string_view s); ///< "timeout" | "rack"

struct SegmentFetcherOptions
{
  std::string pipeline = "cubic";                      ///< congestion control (cc registry): fixed | aimd | cubic
  cc::WindowOptions window;                            ///< init cwnd/ssthresh, fixed size, AIMD and CUBIC parameters
  cc::WindowControllerOptions control;                 ///< ignore congestion marks, disable CWA
  cc::RttEstimatorOptions rtt;                         ///< RTO estimator (k, min/max/initial RTO, gains)
  Duration lifetime = std::chrono::milliseconds(4000); ///< InterestLifetime of every Interest
  int retries = 15;         ///< retransmissions per segment on timeout or Nack; -1 = unlimited
  bool mustBeFresh = false; ///< set MustBeFresh on segment Interests
  VersionDiscovery discovery = VersionDiscovery::Rdr;        ///< skipped when the name ends with a version
  Duration rtoCheckInterval = std::chrono::milliseconds(10); ///< period of the timeout scan
  size_t maxInFlight = 0;                                    ///< cap on outstanding Interests; 0 = the window alone
  /// Interests may be sent while fewer than ceil(cwnd) are outstanding (ndnSIM's
  /// ConsumerWindow: in flight < cwnd); default floor(cwnd), as ndncatchunks.
  bool ceilWindow = false;
  /// ndnSIM's Consumer timer rule (RttMeanDeviation's multiplier): every segment that times out
  /// doubles the RTO (at most 64x, until the next RTT sample), each scan applies the RTO in
  /// force then to every segment in flight, and only the RTO retransmits (an expired Interest
  /// lifetime is no loss event). Default (false): ndncatchunks, which backs the RTO off once per
  /// window decrease, times each segment against the RTO it was sent with, and also retransmits
  /// on lifetime expiry.
  bool rtoBackoffPerTimeout = false;
  /// ndnSIM's RttMeanDeviation: every RTT sample moves SRTT and RTTVAR by the full gains (1/8,
  /// 1/4). Default (false): ndncatchunks, which divides the gains by the samples expected per
  /// RTT (max((in flight + 1) / 2, 1)), so a window of samples moves the estimate like one.
  bool rttFullGains = false;
  size_t maxReorderSegments = 16384; ///< bound of the reorder buffer (segments)
  /// Paced sending (BLEnD section VI-A): once an RTT sample exists, Interests (new and
  /// retransmitted) leave at most one per SRTT / (cwnd x pacingGain) instead of in bursts as
  /// the window opens, which keeps RTT samples and thus the RTO from swinging with the burst
  /// pattern. Off = ndncatchunks behaviour.
  bool pacing = false;
  double pacingGain = 1.25;                          ///< paced rate = gain x cwnd / SRTT (> 1 leaves headroom)
  LossDetection lossDetection = LossDetection::Rack; ///< adaptive pipelines: how losses are found
  /// Rack: an outstanding Interest is lost once one sent this share of the minimum RTT after it
  /// has been answered (RFC 8985's reordering window, min_RTT / 4).
  double reorderWindow = 0.25;
  /// Rack: RFC 8985's adaptive reordering window. A segment declared lost by order whose Data
  /// then comes while its retransmission waits, or sooner than the minimum RTT after it left,
  /// was late (a link layer that retransmits, NDNLPv2 link reliability) or came from a nearer
  /// cache; either widens the window by its base, at most once per SRTT and up to SRTT, for
  /// the next 16 loss recoveries. Off: the window stays at its base.
  bool reorderAdapt = false;
  /// Rack: when no Data has arrived for a probe timeout (2 x SRTT, at least rtoCheckInterval)
  /// while Interests are outstanding, send one probe: the next new segment (beyond the window),
  /// else the latest outstanding one again; its Data reveals earlier losses by order (RFC 8985
  /// section 7, Tail Loss Probe) instead of waiting for the RTO. At most one probe until Data
  /// arrives again: a silent path is left to the RTO.
  bool tailLossProbe = true;
  /// No Interest for a segment is sent again sooner than this after its previous one: the
  /// forwarder's retransmission suppression (NFD's and ndnlabd's best-route: 10 ms at first)
  /// would drop it while the first one's PIT entry lives. New segments go first meanwhile.
  /// 0 = retransmit at once (ndncatchunks, whose RTO is never below 200 ms).
  Duration retxHoldoff = std::chrono::milliseconds(10);
  /// Adaptive pipelines: the fetch fails after `retries` + 1 timeout scans in a row with no Data
  /// arriving in between (the path stalled; each backs the RTO off, as TCP gives up after
  /// consecutive RTOs), and a segment after `retries` + 1 Nack Congestion with no Data since
  /// its Interest; losses while Data flow are congestion and never fail anything. false: every
  /// retransmission of a segment counts (ndncatchunks).
  bool retriesCountStallsOnly = true;

  // The rate pipeline ("mircc", fetch-pipeline.hpp): Interests at the rate stamped in the
  // latest Data (MIRCC), not under a window.
  double rateInitial = 100; ///< Interests per second until a Data brings a rate
  /// The consumer's clock (Kato et al., Fig. 3): 0 = a timer per Interest; > 0 = the Interests
  /// that fell due are released together at each tick
  Duration rateTick{0};
  /// With a tick: Interests that are due are also released whenever a Data or Nack arrives
  /// (Kato et al., Sec. V)
  bool rateSmoothening = false;
  /// Data size (bytes) that turns a stamped rate (bit/s) into Interests per second; 0 = the
  /// wire size of the latest Data
  size_t rateDataSize = 0;
  /// mircc, beyond the paper (issue 28 8(a)): a higher stamped rate is taken at most doubling
  /// per smoothed RTT, so a newcomer does not jump to a share computed before it came.
  bool rateRamp = false;

  /// Throws std::invalid_argument for an unknown pipeline or out-of-range values.
  void validate() const;
};

/// The rate pipeline's name ("mircc"), beside the cc registry's window algorithms.
inline constexpr std::string_view RatePipelineName = "mircc";
/// Every pipeline name `SegmentFetcherOptions::pipeline` accepts: the window algorithms
/// (cc::windowAlgorithms()) and "mircc".
const std::vector<std::string>& fetcherPipelines();

/// Consumer profiles: "ndnlab" (the defaults), "ndncatchunks" (ndn-tools' consumer:
/// timeout-only loss detection, the lost-segment CWA gate, every retransmission counted toward
/// the retry limit, no HyStart++, no pacing) and "ndnsim" (ndnSIM 2.7's ConsumerPcon with its
/// defaults, as the BLEnD paper ran it: ndncatchunks' loss handling with the high-data gate,
/// gamma = 4, window 1, CUBIC beta 0.8 without TCP-friendly region, windows that fall to 1 and
/// grow by 1/cwnd, 2 s lifetime, a 50 ms timeout scan, and ndnSIM's retransmission timer).
/// Names in display order.
const std::vector<std::string>& fetcherProfiles();
/// The options of a profile; nullopt for an unknown name.
std::optional<SegmentFetcherOptions> fetcherProfile(std::string_view name);

enum class FetchErrc : uint8_t {
  Nack,             ///< a Nack (other than Duplicate/Congestion) for a segment of the content
  RetriesExhausted, ///< a segment timed out or was Nacked more than `retries` times
  ApplicationNack,  ///< a segment with ContentType NACK (ndncatchunks exit code 3)
  BadMetadata,      ///< the metadata reply is not a versioned Name
  NoFinalBlock,     ///< fetching stopped before any FinalBlockId was seen
  BadFinalBlock,    ///< the first FinalBlockId lies below a segment received (its own Data's included)
};

std::string_view toString(FetchErrc e);

struct FetchError
{
  FetchErrc code;
  std::string message;
};

/// What happened to one segment, for per-segment observers (ns-3 delay tracers, logs).
struct SegmentEvent
{
  uint64_t segment = 0;
  Duration fullDelay{0}; ///< first Interest -> Data
  Duration lastDelay{0}; ///< last Interest -> Data
  uint32_t retransmissions = 0;
  Bytes size;          ///< content bytes
  bool marked = false; ///< the Data carried a congestion mark
};

class SegmentFetcher
{
public:
  using Options = SegmentFetcherOptions;
  enum class State : uint8_t { Idle, Discovering, Fetching, Done, Failed, Stopped };

  /// Installs endpoint.onData and endpoint.onNack (cleared again by the destructor).
  /// Throws std::invalid_argument for invalid options.
  SegmentFetcher(Env& env, Endpoint& endpoint, Options opts = {});
  ~SegmentFetcher();
  SegmentFetcher(const SegmentFetcher&) = delete;
  SegmentFetcher& operator=(const SegmentFetcher&) = delete;

  /// Starts fetching `name` (versioned, or a prefix to discover). Call once.
  void start(const Name& name);
  /// Stops without further callbacks.
  void stop();

  /// Content bytes, in segment order, each call one segment's content. The callback must not
  /// destroy the fetcher; the view is valid during the call only.
  std::function<void(ByteSpan)> onBytes;
  /// The versioned name is known (after discovery, or at once).
  std::function<void(const Name&)> onVersion;
  /// All segments delivered.
  std::function<void()> onComplete;
  std::function<void(const FetchError&)> onError;
  /// Optional per-segment observer.
  std::function<void(const SegmentEvent&)> onSegment;

  /// Network input (installed on the endpoint; public for owners that demultiplex).
  void handleData(const Data& data);
  void handleNack(const Nack& nack);

  State state() const { return m_state; }
  /// Statistics so far (complete after onComplete/onError).
  FetchStats stats() const;
  const Options& options() const { return m_opts; }
  /// Current congestion window (segments).
  double cwnd() const { return m_ctl ? m_ctl->cwnd() : 0; }
  const cc::RttEstimator& rttEstimator() const { return m_rtt; }
  /// The versioned name, once known.
  const Name& versionedName() const { return m_prefix; }

private:
  // The pipelines (fetch-pipeline.hpp) are the fetcher's loss policy and work on its state.
  friend class FetchPipeline;
  friend class FixedPipeline;
  friend class AdaptivePipeline;
  friend class RatePipeline;

  enum class SegState : uint8_t { InFlight, InRetxQueue, Backoff };
  struct SegInfo
  {
    TimePoint firstSent;
    TimePoint lastSent;
    uint64_t transmission = 0; ///< adaptive: number of the latest Interest (WindowController)
    Duration rto{0};
    uint32_t nonce = 0;
    SegState state = SegState::InFlight;
    uint32_t retx = 0;           ///< retransmissions (adaptive: all; fixed: sum of the two below)
    uint32_t stalls = 0;         ///< adaptive: Nack Congestion with no Data of the fetch since sent
    uint32_t timeoutRetries = 0; ///< fixed: retries after lifetime expiry
    uint32_t nackRetries = 0;    ///< fixed: retries after Nacks
    uint32_t congestionBackoffs = 0;
    TimerId backoffTimer = 0;
    bool lostByOrder = false; ///< adaptive, rack: its latest loss was found from the order Data return in
  };

  // pipeline
  void startPipeline(const Name& versioned, const Data* firstSegment = nullptr);
  void schedulePackets();
  bool canSendNew() const;
  /// Pacing gate: true when an Interest may leave now (then books the next slot); otherwise
  /// arms the pacing timer and returns false.
  bool paceAllowsSend();
  void sendInterest(uint64_t seg, bool isRetransmission);
  void transmit(uint64_t seg, SegInfo& info, bool isRetransmission);
  void checkTimeouts();
  void enqueueForRetransmission(uint64_t seg, SegInfo& info);
  /// The segment stops being outstanding (before its state changes): it leaves the count in
  /// flight (a fixed-pipeline backoff counts too), and the pipeline is told.
  void leaveFlight(const SegInfo& info);
  void handleSegmentFailure(uint64_t seg, const std::string& reason, FetchErrc code);
  void cancelSegmentsAfter(uint64_t seg);
  void failNoFinalBlock();
  void eraseSegment(std::map<uint64_t, SegInfo>::iterator it);
  void deliver(uint64_t seg, const Data& data);
  void emitCwnd();
  bool isComplete() const { return m_lastSeg && m_delivery.next() > *m_lastSeg; }
  /// After a segment arrived or the end became known: done, failed, or more Interests.
  void next();
  void finish();
  void fail(FetchErrc code, std::string message);
  void cancelTimers();
  bool retriesExceeded(uint32_t n) const { return m_opts.retries >= 0 && n > static_cast<uint32_t>(m_opts.retries); }
  std::optional<uint64_t> segmentOf(const Name& name) const;

  Env& m_env;
  Endpoint& m_ep;
  Options m_opts;
  State m_state = State::Idle;

  // discovery (while State::Discovering)
  std::unique_ptr<VersionDiscoverer> m_discovery;
  TimePoint m_discoveryStart;

  // pipeline
  Name m_prefix;
  TimePoint m_pipelineStart;
  std::unique_ptr<cc::WindowController> m_ctl;
  std::unique_ptr<FetchPipeline> m_pipeline; ///< fixed or adaptive loss policy
  cc::RttEstimator m_rtt;
  std::map<uint64_t, SegInfo> m_segs; ///< requested, not yet received
  std::deque<uint64_t> m_retxQueue;
  size_t m_inFlight = 0;
  uint64_t m_nextSeg = 0;
  std::optional<uint64_t> m_lastSeg;
  bool m_hasFailure = false;
  uint64_t m_failedSeg = 0;
  FetchErrc m_failureCode = FetchErrc::Nack;
  std::string m_failureReason;
  TimerId m_checkTimer = 0;
  TimerId m_paceTimer = 0;    ///< armed while pacing holds the next Interest back
  TimerId m_holdoffTimer = 0; ///< armed while the head of the retx queue waits for retxHoldoff
  cc::Pacer m_pacer;          ///< with options.pacing

  // delivery
  InOrderBuffer m_delivery;

  FetchStats m_stats;
};

} // namespace ndnlab::app
