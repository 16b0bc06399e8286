#pragma once
// StreamConsumer: the real-time stream consumer of issue 29 item 1 as a sans-I/O engine, after
// the paper's consumer (Gusev et al., shared/papers/ndn-rtc-realtime-streaming.txt, Sect. 3.3,
// 3.4, 4.1.2-4.1.5: Interest pipeline, Data buffer, playout) with NDN-RTC's numbers where the
// paper gives none (shared/reference/mechanism-facts.md 3.3). Names and wire formats:
// core/stream/wire.hpp; the producer: core/stream/producer.hpp. Every difference from the paper
// and the code: docs/mechanisms/streaming.md "Consumer".
//
// States (Fig. 10):
// - Inactive: constructed; start() issues the metadata Interest ("issue RM").
// - WaitInitial: waits for the metadata (`<base>/_meta`, CanBePrefix, MustBeFresh); re-issued
//   when its lifetime runs out (a Nack, e.g. no route yet, waits for that too), at most
//   `metadataRetries` times, so a consumer started before its producer finds it; no reply,
//   malformed metadata or no such thread -> Failed (onError says why).
// - Chasing: the key frame the metadata names and a pipeline of lambda_p^0 delta frames from
//   the latest on (Eq. 1 from `initialDrd` unless given); once the key frame arrives, the delta
//   frames of its GOP before the pipeline's first are fetched too. After each detection period
//   in which the stability estimator (Eq. 3) had its 2N + K arrivals and did not report the
//   latest data, the pipeline is burst (x2). K stable frame arrivals in a row -> Adjust. With
//   chaseAtDemand, an arrival that finds lambda_p below Eq. (1)'s demand from the measured
//   DRD_est raises it to the demand at once (the estimator starts over). With earlyPlayout,
//   rendering may begin in Chasing once fresh data came (a frame the producer made after its
//   Interest: the pipeline has reached the live edge).
// - Adjust: rendering may begin; each detection period the pipeline is withheld (x3/4, not
//   below the demand lambda_d of Eq. 1). Stale data (a delta frame the producer had made
//   before its Interest came: d_gen = 0) after a withholding restores the previous size ->
//   Fetching; before any, the detection was false -> burst, Chasing. lambda_p = lambda_d ->
//   Fetching.
// - Fetching: the pipeline is kept; stale data, or a low buffer (S_pl below half the target,
//   or a stall) while frames arrive, burst it -> Adjust. With `adaptive`: congestion (at least
//   `congestionEvents` losses, timeouts, Nacks or stalls in `congestionWindow`) switches to the
//   next lower thread; `challengeInterval` without it -> Challenge. With `bitrateFromRate`, while
//   the path stamps MIRCC's explicit rate on the Data (PacketTags::mirccRate), the rate picks the
//   thread instead (below) and neither the Challenge nor the switch down on congestion runs.
// - Challenge (Sect. 4.1.5): the next higher thread's delta frames are fetched beside the
//   current ones, with the same pipeline (threads are assumed published in lockstep: the same
//   frame numbers), measured and never played. After `challengeDuration`, when no Interest of
//   either was lost and DRD_est stayed within `challengeDrdRise` (+10 ms) of the value before,
//   the consumer switches up; congestion, or a failed test, -> Fetching with the interval
//   doubled. With challengeProbe = increment, only the share (B_h - B_c) / B_h of each of the
//   higher thread's frames' segments is asked for (data first), so that current + additional
//   load the path as the higher thread alone would. A switch re-bootstraps on the new thread (WaitInitial) and drops
//   the old one's buffered frames.
// - Bitrate from the explicit rate (`bitrateFromRate`, ndnlab's, issue 29 item 5(e); needs
//   `adaptive`): the rate is the latest one a Data or Nack carried, current for kRateLifetime
//   (1 s; a cache's Data carry none). The demand of a thread on the path is its bitrate x (1 +
//   its parity share) x the wire overhead, all measured: the parity share from the segment
//   headers of the thread's frames (before any came: parityCount of the segments a frame of
//   B x T makes), the overhead as Data octets per payload octet of the segments received. The
//   target is the highest thread whose demand fits under the rate (the lowest when none does);
//   the switch to it happens at the next key frame of the played thread that arrives, or at
//   once while nothing of the played thread is rendered yet.
// - Ended: the producer ended the stream (the end-of-stream marker, core/stream/wire.hpp: in
//   the metadata, or answering an Interest for a frame past the last) and playout passed its
//   last frame; nothing more is sent. Once the end is known no frame past it is asked for, no
//   Challenge or switch starts, playout starts even below its target, and a frame still missing
//   at the playout point is skipped after one Interest lifetime of stall.
// - Failed: nothing more is sent. stop() ends any state (Stopped, no callback).
// Pipeline decisions are taken once per detection period (automatic: (2N + K) x T in Chasing,
// DRD_est + 2T after), never inside a packet handler.
//
// Frames: each delta frame of the pipeline gets M_delta data and ceil-ratio parity Interests
// (M_key for the one key frame kept requested ahead); the segment counts of the first segment
// that arrives add the Interests that were missing. A frame is complete with its k data
// segments; at its retransmission checkpoint (P_RTX = gamma x DRD_est before its playout
// deadline) an incomplete frame is decoded from any k of its data and parity segments (FEC),
// else its missing data segments are asked for again, once. A delta frame with nothing back
// when a later one arrives is asked for again whole. With recovery = repeat (ndnlab's) there is
// no checkpoint: missing segments are asked for again in rounds until playout passes the frame
// (StreamConsumerOptions::recovery). Segment Interests whose lifetime runs out
// are re-expressed (a paused producer resumes into a waiting pipeline).
//
// Playout (Fig. 8) starts at the newest complete key frame once S_pl (complete frames ahead x
// T) reaches the target S_tpl = alpha x jitter + beta x DRD_est (jitter: RFC 3550's, over the
// frames that waited for production), then takes one frame per sample period T, twice as fast
// while S_pl exceeds S_tpl by more than 1.5 frames (catching up from an old key frame): a
// complete frame is rendered (onFrame); a missing one is skipped and counted lost when a
// later frame is ready; a delta frame whose GOP key frame was not rendered is skipped and
// counted lost (it cannot be decoded); with nothing ready playback stalls until the buffer is
// back at the target.
// Trace events: none in the catalogue yet (core/runtime/events.hpp has no stream kinds); state
// changes go to onStateChange and the log, each arrival of a frame of the played thread that
// the stability estimator sees (pipelined delta frames and key frames) to onArrival, a
// FrameArrival whose fields visitArrival lists (Fig. 21's D_arr and DRD').

#include "core/app/endpoint.hpp"
#include "core/runtime/env.hpp"
#include "core/runtime/fields.hpp"
#include "core/stream/estimators.hpp"
#include "core/stream/wire.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ndnlab::stream {

struct StreamConsumerOptions
{
  std::string stream = "camera"; ///< the stream's name component under the prefix
  /// The thread to start on; empty: the lowest bitrate the metadata lists.
  std::string thread;
  /// lambda_p^0, frames in the pipeline at the start of Chasing; 0: Eq. (1) from `initialDrd`.
  size_t initialPipeline = 0;
  /// DRD_est before any sample (NDN-RTC's 150 ms); also the start of the DRD' average.
  Duration initialDrd = std::chrono::milliseconds(150);
  Duration drdWindow = std::chrono::milliseconds(200); ///< DRD' averaging window (the code)
  std::string stability = "medium";                    ///< Eq. (3) parameter set: low, medium, high
  /// Chasing never runs below the Interest demand of Eq. (1) from the measured DRD_est: the
  /// first arrivals raise a smaller lambda_p^0 at once (ndnlab's; the paper waits for a
  /// detection period to burst).
  bool chaseAtDemand = false;
  /// Rendering may begin in Chasing once a fresh frame came (made after its Interest came: the
  /// pipeline is at the live edge) and the buffer holds its target, instead of only once the
  /// stability estimator ends Chasing (ndnlab's; the paper renders from Adjust on).
  bool earlyPlayout = false;
  /// Wait after each pipeline change before the next; 0: automatic (Chasing: the 2N + K
  /// arrivals the stability estimator needs; Adjust and Fetching: DRD_est + 2T).
  Duration detectionPeriod{0};
  size_t maxPipeline = 64; ///< bursting stops at this many frames (> 0; the code: 1 s worth)
  double alpha = 1;        ///< S_tpl = alpha x jitter + beta x DRD_est (Sect. 4.1.4)
  double beta = 2;
  double gamma = 1; ///< P_RTX = gamma x DRD_est, in (0, min(1, beta)]
  /// How lost segments are asked for again: "checkpoint" (the paper's Sect. 4.1.4: once, at
  /// P_RTX before the frame's playout deadline; FEC decoded there too) or "repeat" (ndnlab's:
  /// a segment missing T/2 after its frame's first segment came, or DRD_est + T/2 after its
  /// last Interest, is asked for again, and again each DRD_est + T/2, until playout passes the
  /// frame; FEC decoded as soon as any k segments are there).
  std::string recovery = "checkpoint";
  /// 0: the paper's playout target. Else the target is raised to alpha x jitter + n x (DRD_est
  /// + T/2), n = ceil(ln(this) / ln(p)) Interest rounds, p the measured share of segment
  /// Interests that were retransmissions: room for enough rounds that a segment is still
  /// missing at its deadline with at most this probability (at most `maxPlayout`).
  double residualLoss = 0;
  Duration maxPlayout = std::chrono::milliseconds(2000); ///< the raised target's bound
  /// ndnlab's: the playout target also holds the spread (largest less smallest) of the delays
  /// from capture to a whole frame over the last kSpreadFrames frames that waited for
  /// production. Near the path's rate a key frame takes several frame periods on the
  /// bottleneck and the delta frames behind it queue; the paper's alpha x jitter (a mean over
  /// all frames) does not hold that once-per-GOP excess. Off: the paper's target.
  bool spreadRoom = false;
  /// ndnlab's: playback may begin up to this far behind capture, at the oldest complete key
  /// frame captured within it (the one the consumer joined at, when a lossy start-up took
  /// longer than a GOP), and catches up at twice the sample rate as after any start. 0: the
  /// newest complete key frame, skipping the GOPs the start-up took (lower latency).
  Duration catchUp{0};
  Duration interestLifetime = std::chrono::milliseconds(2000); ///< segment Interests (the code's)
  Duration metadataLifetime = std::chrono::milliseconds(1000); ///< metadata Interests; re-issued after it
  size_t metadataRetries = 3;                                  ///< re-issues before Failed
  /// Octets per segment assumed for the first M estimates (from the metadata's bitrate);
  /// the first segment of each frame corrects them.
  size_t assumedPayload = 1000;
  size_t segmentHistory = 8; ///< M_key, M_delta: ceil of the mean of this many last frames
  /// Parity ratio asked for before a frame says its own (the code's 0.2); 0 = no parity Interests.
  double parityRatio = 0.2;
  bool adaptive = false;                                        ///< Sect. 4.1.5 bitrate adaptation
  Duration challengeInterval = std::chrono::milliseconds(2000); ///< Fetching without congestion before Challenge
  Duration challengeDuration = std::chrono::milliseconds(4000); ///< one Challenge
  double challengeDrdRise = 0.2;                                ///< DRD_est may grow this much (share) in a Challenge
  /// What a Challenge fetches of the higher thread: "full" (the paper's Sect. 4.1.5: all of it,
  /// beside the current one) or "increment" (of each frame the share (B_h - B_c) / B_h of its
  /// segments, so that the Challenge adds what the switch would add: it tests the higher
  /// bitrate B_h, not B_h + B_c).
  std::string challengeProbe = "full";
  Duration congestionWindow = std::chrono::milliseconds(1000); ///< timeouts/Nacks counted over this window
  size_t congestionEvents = 3;                                 ///< this many in the window: switch down
  /// With `adaptive`: while the Data carry MIRCC's explicit rate (PacketTags::mirccRate), the
  /// thread is the highest whose demand on the path (bitrate x (1 + parity share) x measured
  /// wire overhead) fits under the rate, switched to at the next key frame, instead of the
  /// Challenge (ndnlab's, beyond the paper; issue 29 item 5(e)). Without a rate: the Challenge.
  bool bitrateFromRate = false;

  /// Throws std::invalid_argument naming the bad value.
  void validate() const;
};

/// A frame handed to the owner at its playout time.
struct RenderedFrame
{
  uint64_t playback; ///< position in the thread, key and delta together
  FrameType type;
  uint64_t number; ///< in its type's numbering
  std::string thread;
  ByteSpan data; ///< valid during the callback
  UnixMillis captureTime;
  bool recoveredByFec = false;
  bool recoveredByRtx = false;
};

/// The result of a run; visitMetrics lists it.
struct StreamConsumerStats
{
  std::string thread;                       ///< the thread fetched at the end
  Duration chasingPeriod{0};                ///< first Chasing to Adjust
  Duration backoffPeriod{0};                ///< first Adjust to Fetching
  size_t lambdaInitial = 0;                 ///< lambda_p^0
  size_t lambdaFinal = 0;                   ///< lambda_p on the first entry to Fetching
  Duration drdFinal{0};                     ///< resulting DRD': a window after the first Fetching pipeline drained
  Duration drdEst{0};                       ///< DRD_est at the end
  std::optional<Duration> timeToFirstFrame; ///< start() to the first rendered frame
  double latencyMedianMs = 0;               ///< capture to render
  double latencyP95Ms = 0;
  uint64_t framesRequested = 0; ///< frames of the played thread asked for
  uint64_t framesRendered = 0;
  uint64_t recoveredByFec = 0; ///< rendered frames that needed parity
  uint64_t recoveredByRtx = 0; ///< rendered frames that needed a retransmitted segment
  uint64_t framesLost = 0;     ///< frames that missed their playout deadline
  uint64_t stalls = 0;         ///< playback stopped with nothing ready
  Duration stallTime{0};       ///< in all, an ongoing stall up to now included
  uint64_t bitrateSwitches = 0;
  uint64_t challenges = 0;
  Bytes bytes;                  ///< segment payload octets received, every thread
  Bytes challengeBytes;         ///< of them, the additional media's of the Challenges
  Duration elapsed{0};          ///< start() to now (or to stop())
  uint64_t interestsSent = 0;   ///< segment Interests, retransmissions included
  uint64_t retransmissions = 0; ///< segment Interests that were retransmissions
  uint64_t timeouts = 0;        ///< segment Interests whose lifetime ran out unanswered
  uint64_t nacks = 0;
  uint64_t cachedData = 0;    ///< segments whose DRD' was below their d_gen (not the producer's reply)
  uint64_t staleFrames = 0;   ///< delta frames the producer had made before their Interest came
  uint64_t malformedData = 0; ///< segments refused: undecodable, or not a shard of their frame
  uint64_t rebootstraps = 0;  ///< WaitInitial entries after the first

  // bitrate switches and MIRCC's explicit rate (bitrate-from-rate)
  std::optional<Duration> firstSwitchUp; ///< start() to the first switch to a higher thread
  Duration finalThreadAt{0};             ///< start() to the switch onto the thread fetched at the end (0: none)
  uint64_t ratesHeard = 0;               ///< Data and Nacks that carried a MIRCC rate
  std::optional<Rate> rateFinal;         ///< the last MIRCC rate heard
  std::optional<Rate> demandFinal;       ///< the played thread's demand on the path at the end (bitrateFromRate)

  /// Payload octets per elapsed time.
  Rate throughput() const { return Rate::of(bytes, elapsed); }
};

/// Calls v(metric, value) for each result field, in display order; `value` is a std::string,
/// uint64_t or double.
template<typename Visitor>
void visitMetrics(const StreamConsumerStats& s, Visitor&& v)
{
  using fields::Metric;
  v(Metric{"thread", "", "thread fetched at the end"}, s.thread);
  v(Metric{"chasing_ms", "ms", "first Chasing to Adjust"}, toMillis(s.chasingPeriod));
  v(Metric{"backoff_ms", "ms", "first Adjust to Fetching"}, toMillis(s.backoffPeriod));
  v(Metric{"lambda_initial", "", "pipeline size at the start of Chasing (frames)"}, uint64_t(s.lambdaInitial));
  v(Metric{"lambda_final", "", "pipeline size on the first entry to Fetching (frames)"}, uint64_t(s.lambdaFinal));
  v(Metric{"drd_final_ms", "ms", "resulting DRD': once the first Fetching pipeline drained"}, toMillis(s.drdFinal));
  v(Metric{"drd_est_ms", "ms", "DRD_est at the end"}, toMillis(s.drdEst));
  v(Metric{"first_frame_ms", "ms", "start to the first rendered frame; -1 if none"},
    s.timeToFirstFrame ? toMillis(*s.timeToFirstFrame) : -1.0);
  v(Metric{"latency_median_ms", "ms", "capture to render, median"}, s.latencyMedianMs);
  v(Metric{"latency_p95_ms", "ms", "capture to render, 95th percentile"}, s.latencyP95Ms);
  v(Metric{"frames_requested", "", "frames of the played thread asked for"}, s.framesRequested);
  v(Metric{"frames_rendered", "", "frames rendered"}, s.framesRendered);
  v(Metric{"frames_fec", "", "rendered frames recovered by FEC"}, s.recoveredByFec);
  v(Metric{"frames_rtx", "", "rendered frames recovered by retransmission"}, s.recoveredByRtx);
  v(Metric{"frames_lost", "", "frames that missed their playout deadline"}, s.framesLost);
  v(Metric{"stalls", "", "playback stops with nothing ready"}, s.stalls);
  v(Metric{"stall_ms", "ms", "time stalled"}, toMillis(s.stallTime));
  v(Metric{"bitrate_switches", "", "thread switches"}, s.bitrateSwitches);
  v(Metric{"challenges", "", "Challenge states entered"}, s.challenges);
  v(Metric{"bytes", "B", "segment payload received"}, s.bytes.count());
  v(Metric{"challenge_bytes", "B", "segment payload of the Challenges' additional media"}, s.challengeBytes.count());
  v(Metric{"throughput_mbps", "Mbit/s", "payload bits per elapsed time"}, s.throughput().mbps());
  v(Metric{"interests_sent", "", "segment Interests, retransmissions included"}, s.interestsSent);
  v(Metric{"retransmissions", "", "segment Interests that were retransmissions"}, s.retransmissions);
  v(Metric{"timeouts", "", "segment Interests unanswered within their lifetime"}, s.timeouts);
  v(Metric{"nacks", "", "Nacks received"}, s.nacks);
  v(Metric{"cached_data", "", "segments answered by a cache (DRD' < d_gen)"}, s.cachedData);
  v(Metric{"stale_frames", "", "delta frames made before their Interest came"}, s.staleFrames);
  v(Metric{"malformed_data", "", "segments refused: undecodable, or not a shard of their frame"}, s.malformedData);
  v(Metric{"rebootstraps", "", "re-bootstraps (thread switches)"}, s.rebootstraps);
  v(Metric{"first_up_ms", "ms", "start to the first switch to a higher thread; -1 if none"},
    s.firstSwitchUp ? toMillis(*s.firstSwitchUp) : -1.0);
  v(Metric{"final_thread_ms", "ms", "start to the switch onto the thread fetched at the end; 0 if none"},
    toMillis(s.finalThreadAt));
  v(Metric{"rates_heard", "", "Data and Nacks that carried a MIRCC rate"}, s.ratesHeard);
  v(Metric{"rate_final_kbps", "kbit/s", "the last MIRCC rate heard; -1 if none"},
    s.rateFinal ? s.rateFinal->bps() / 1e3 : -1.0);
  v(Metric{"demand_final_kbps", "kbit/s",
           "bitrate-from-rate: the played thread's demand on the path at the end; -1 if not measured"},
    s.demandFinal ? s.demandFinal->bps() / 1e3 : -1.0);
}

/// One frame arrival the stability estimator sees (the first segment of a pipelined delta
/// frame or of a key frame of the played thread): the series of the paper's Fig. 21.
struct FrameArrival
{
  Duration at{0}; ///< since start()
  FrameType type = FrameType::Delta;
  uint64_t number = 0;             ///< in its type's numbering
  std::optional<Duration> arrival; ///< D_arr: since the previous arrival (none for the first after a (re)bootstrap)
  Duration drd{0};                 ///< DRD': the mean of the DRD' window at this arrival
  Duration drdEst{0};              ///< DRD_est: DRD' - d_gen, averaged the same way
  Duration generationDelay{0};     ///< d_gen of this segment: how long its Interest waited at the producer
  size_t pipeline = 0;             ///< lambda_p
  std::string_view state;          ///< the state before this arrival's effect (toString)
  bool stale = false;              ///< made before its Interest came (d_gen = 0)
};

/// Calls v(column, value) for each field of a FrameArrival, in column order; `value` is a
/// double, uint64_t or std::string_view. D_arr is -1 when there is none.
template<typename Visitor>
void visitArrival(const FrameArrival& a, Visitor&& v)
{
  using fields::Metric;
  v(Metric{"time_ms", "ms", "since the consumer started"}, toMillis(a.at));
  v(Metric{"type", "", "key or delta"}, std::string_view(a.type == FrameType::Key ? "key" : "delta"));
  v(Metric{"frame", "", "frame number in its type's numbering"}, a.number);
  v(Metric{"d_arr_ms", "ms", "D_arr, since the previous arrival; -1 for none"},
    a.arrival ? toMillis(*a.arrival) : -1.0);
  v(Metric{"drd_ms", "ms", "DRD', mean of its window"}, toMillis(a.drd));
  v(Metric{"drd_est_ms", "ms", "DRD_est (DRD' - d_gen)"}, toMillis(a.drdEst));
  v(Metric{"d_gen_ms", "ms", "generation delay of the frame's first segment"}, toMillis(a.generationDelay));
  v(Metric{"lambda", "", "lambda_p, frames"}, uint64_t(a.pipeline));
  v(Metric{"state", "", "consumer state at the arrival"}, a.state);
  v(Metric{"stale", "", "1: made before its Interest came"}, uint64_t(a.stale));
}

class StreamConsumer
{
public:
  using Options = StreamConsumerOptions;
  enum class State : uint8_t { Inactive, WaitInitial, Chasing, Adjust, Fetching, Challenge, Ended, Failed, Stopped };

  /// Fetches `<prefix>/<opts.stream>`. Installs endpoint.onData and onNack (cleared by the
  /// destructor). std::invalid_argument for bad options.
  StreamConsumer(Env& env, app::Endpoint& endpoint, const Name& prefix, Options opts = {});
  ~StreamConsumer();
  StreamConsumer(const StreamConsumer&) = delete;
  StreamConsumer& operator=(const StreamConsumer&) = delete;

  /// Inactive -> WaitInitial. Call once.
  void start();
  /// Cancels every timer; no callback after it. The stats stay readable.
  void stop();

  /// Each rendered frame, in playout order.
  std::function<void(const RenderedFrame&)> onFrame;
  /// Every state change.
  std::function<void(State from, State to)> onStateChange;
  /// Each frame arrival the stability estimator sees (FrameArrival).
  std::function<void(const FrameArrival&)> onArrival;
  /// Once, on entering Failed.
  std::function<void(const std::string& why)> onError;

  void handleData(const Data& data);
  void handleNack(const Nack& nack);

  State state() const { return m_state; }
  const std::string& error() const { return m_error; }
  size_t pipeline() const { return m_lambda; }
  /// lambda_d of Eq. (1) from the current DRD_est.
  size_t demand() const;
  Duration drdEst() const;
  /// Milliseconds from the frame's capture (its segment header) to now, on the wall clock.
  double msSinceCapture(const SegmentHeader& h) const;
  /// S_pl: complete frames ahead of the playout point x T.
  Duration playable() const;
  /// S_tpl = alpha x jitter + beta x DRD_est.
  Duration targetPlayable() const;
  bool playing() const { return m_playing && !m_stallStart; }
  StreamConsumerStats stats() const;
  const Options& options() const { return m_opts; }
  const StreamMeta& metadata() const { return m_meta; }
  /// The played thread's frame count once the end-of-stream marker came.
  std::optional<uint64_t> endFrameCount() const { return m_end ? m_end->frameCount : std::nullopt; }

private:
  struct Frame;
  struct Fetch; // one thread being fetched: the played one, or the additional one of a Challenge

  void setState(State s);
  void fail(std::string why);
  void sendMetadataInterest();
  void onMetadataTimeout();
  void handleMetadata(const Data& data);
  void bootstrap(size_t thread);
  void cancelFetch(Fetch& f);
  void cancelTimers(Frame& fr);
  void eraseFrame(Fetch& f, std::map<std::pair<FrameType, uint64_t>, Frame>::iterator it);
  /// Cancels every timer, ends a stall, records the end of the run.
  void halt();
  void endStall();

  void fillPipeline(Fetch& f);
  void requestFrame(Fetch& f, FrameType type, uint64_t number, bool pipelined);
  /// One Interest for segment `seg` of `kind`; `span`: the segments of the frame's run it asks
  /// for from `seg` on (its BundleTag's window; 1 when asked again).
  void expressSegment(Fetch& f, Frame& fr, SegmentKind kind, uint64_t seg, bool retx, uint32_t span = 1);
  /// Interests for the wanted segments of `kind` in [from, to) of a frame of k data and p
  /// parity segments, each tagged with the rest of the run.
  void expressRun(Fetch& f, Frame& fr, SegmentKind kind, size_t from, size_t to, size_t k, size_t p);
  void onSegmentTimeout(Fetch* f, FrameType type, uint64_t number, SegmentKind kind, uint64_t seg, uint64_t id);
  void handleSegment(Fetch& f, const StreamName& sn, const Data& data);
  void onFirstSegment(Fetch& f, Frame& fr, const SegmentHeader& h);
  void tryComplete(Fetch& f, Frame& fr, bool checkpoint);
  /// The played thread's frame whose check timer (checkpoint or recovery round) just fired, its
  /// timer cleared; nullptr when the frame is complete or gone.
  Frame* firedCheck(FrameType type, uint64_t number);
  void checkpoint(FrameType type, uint64_t number);
  void retransmitMissing(Fetch& f, Frame& fr);
  // recovery = repeat
  bool repeat() const { return m_opts.recovery == "repeat"; }
  /// DRD_est + T/2: how long a segment Interest is given before it is asked again.
  Duration recoveryInterval() const;
  /// Asks again for the segments of `fr` (of the played thread) that are overdue, and arms the
  /// next round at the earliest one still pending.
  void recover(Fetch& f, Frame& fr);
  void armRecovery(Frame& fr, TimePoint at);
  void frameArrived(Fetch& f, Frame& fr, bool stale);

  // the end of the stream
  void handleEndMarker(Fetch& f, const Data& data);
  void noteEnd(const ThreadMeta& t);
  bool pastEnd(FrameType type, uint64_t number) const;
  /// Ended once playout passed the last frame (or the stream had none); true when it did.
  bool checkEnd();
  /// Stalled at a frame of an ended stream: skip it after one Interest lifetime.
  void armEndGiveUp();
  void skipCursor();

  void onDetectionTimer();
  void armDetection(Duration d);
  Duration detectionPeriod(State s);
  /// A loss, timeout, Nack or stall: counted; acted upon at the next detection period.
  void congestion();
  bool congested();
  bool switchDown();
  void startChallenge();
  void endChallenge();
  void switchTo(size_t thread);
  // bitrate from the explicit rate (bitrateFromRate)
  /// Takes the rate a Data or Nack carried (none: nothing changes).
  void takeRate(const std::optional<Rate>& stamped);
  /// The path's rate: the latest one heard, while current.
  std::optional<Rate> pathRate() const;
  bool rateDecides() const;
  /// A segment of `f` received: the wire overhead and, on a frame's first segment, the thread's
  /// parity share.
  void measureSegment(const Fetch& f, const Data& data, size_t payload, const std::optional<SegmentHeader>& first);
  /// The thread's demand on the path; none before the overhead is measured.
  std::optional<Rate> pathDemand(size_t thread) const;
  /// After a segment: the thread the rate picks, switched to when this segment was the first
  /// of a key frame of the played thread, or at once while nothing of it is rendered yet.
  void decideFromRate();
  void abandonChallenge();

  void maybeStartPlayout();
  void armPlayoutTick();
  void onPlayoutTick();
  void render(Frame& fr);
  TimePoint deadlineOf(const Frame& fr) const;
  void forgetPlayed();
  Duration period() const;

  Env& m_env;
  app::Endpoint& m_ep;
  Options m_opts;
  Name m_base;
  StabilityParams m_params;
  State m_state = State::Inactive;
  std::string m_error;

  StreamMeta m_meta;
  std::optional<ThreadMeta> m_end; ///< the played thread's metadata with the end-of-stream marker
  size_t m_metaSends = 0;
  TimerId m_metaTimer = 0;

  std::unique_ptr<Fetch> m_main;
  std::unique_ptr<Fetch> m_extra; ///< Challenge: the additional media
  size_t m_lambda = 1;
  size_t m_lambdaPrev = 0; ///< before the last withholding (Adjust restores it)
  bool m_staleInPeriod = false;
  TimerId m_detectTimer = 0;
  mutable DrdEstimator m_drd;    ///< DRD' (its window moves when read)
  mutable DrdEstimator m_drdEst; ///< DRD' - d_gen
  StabilityEstimator m_stability;
  size_t m_arrivalsSinceChange = 0;
  size_t m_arrivalsInPeriod = 0;
  bool m_freshSeen = false; ///< a frame that waited for its production arrived since the last change
  std::optional<TimePoint> m_lastArrival;
  double m_jitterMs = 0; ///< RFC 3550 interarrival jitter of frames
  std::optional<double> m_lastTransitMs;
  std::deque<double> m_wholeTransitsMs; ///< spreadRoom: capture to whole, the last frames that waited

  // playout
  bool m_playing = false;
  uint64_t m_cursor = 0; ///< next playback number
  TimerId m_tickTimer = 0;
  TimePoint m_nextTick{};
  std::optional<TimePoint> m_stallStart;

  // congestion and Challenge
  std::vector<TimePoint> m_congestion;
  TimePoint m_fetchingSince{};
  TimePoint m_challengeStart{};
  Duration m_challengeBaseline{0};
  Duration m_challengeNext{0};
  bool m_challengeLoss = false;

  // bitrate from the explicit rate
  std::optional<Rate> m_rate; ///< the latest MIRCC rate heard
  TimePoint m_rateAt{};
  std::optional<size_t> m_rateTarget; ///< the thread to switch to at the next key frame
  bool m_keyFrameCame = false;        ///< the Data being handled was a key frame's first segment (played thread)
  double m_wireOctets = 0, m_payloadOctets = 0; ///< decaying sums over the segments received
  size_t m_largestShard = 0;
  struct ThreadLoad
  {
    double data = 0, parity = 0; ///< octets of the frames whose first segment came (headers)
  };
  std::map<std::string, ThreadLoad> m_loads;
  bool m_renderedSinceBootstrap = false;
  TimePoint m_bootstrapAt{}; ///< when WaitInitial was last entered
  bool m_clogged = false;    ///< a stuck bootstrap switched down: the metadata Interests live longer

  // stats
  TimePoint m_startTime{};
  std::optional<TimePoint> m_stopTime;
  std::optional<TimePoint> m_chasingStart, m_adjustStart;
  bool m_reachedFetching = false;
  bool m_drdFinalSet = false;
  std::optional<TimePoint> m_drainedAt;
  std::vector<double> m_latencies; ///< ms
  StreamConsumerStats m_stats;
  uint64_t m_nextTimeoutId = 1;
};

std::string_view toString(StreamConsumer::State s);

} // namespace ndnlab::stream
