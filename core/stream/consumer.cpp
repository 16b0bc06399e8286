#include "core/stream/consumer.hpp"

#include "core/fec/reed-solomon.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <stdexcept>

namespace ndnlab::stream {

namespace {
constexpr std::string_view kModule = "stream-consumer";
/// The challenge's back-off after a refused one doubles up to this (a first-version bound).
constexpr Duration kMaxChallengeInterval = std::chrono::seconds(60);
/// ARC's jitter allowance on the DRD comparison (mechanism-facts.md 3.2: 10 ms).
constexpr Duration kDrdJitterAllowance = std::chrono::milliseconds(10);
/// bitrateFromRate: a MIRCC rate heard counts this long (routers restamp every Data; a cache's
/// Data carry none, and a path that stops stamping is back to the Challenge after it).
constexpr Duration kRateLifetime = std::chrono::seconds(1);
/// Adaptive: a (re-)bootstrap that rendered nothing this long, with segments lost, switches down
/// (the paper's bootstraps take 0.7-3.8 s, Table 1; a GOP is 1 s at the paper's 30 frames/s).
constexpr Duration kStuckBootstrap = std::chrono::seconds(8);
/// spreadRoom: the frames whose capture-to-whole delays the playout target's spread is taken
/// over (two GOPs of 30).
constexpr size_t kSpreadFrames = 60;
/// bitrateFromRate: weight of each segment in the decaying sums of the wire overhead.
constexpr double kOverheadGain = 1.0 / 64;

size_t ceilMean(const std::deque<size_t>& v)
{
  const double sum = std::accumulate(v.begin(), v.end(), 0.0);
  return static_cast<size_t>(std::ceil(sum / static_cast<double>(v.size()) - 1e-9));
}

Duration scaled(Duration d, double x)
{
  return Duration(static_cast<int64_t>(std::llround(static_cast<double>(d.count()) * x)));
}

double percentile(std::vector<double> v, double p)
{
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  // nearest rank
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}
} // namespace

std::string_view toString(StreamConsumer::State s)
{
  switch (s) {
    case StreamConsumer::State::Inactive: return "inactive";
    case StreamConsumer::State::WaitInitial: return "wait-initial";
    case StreamConsumer::State::Chasing: return "chasing";
    case StreamConsumer::State::Adjust: return "adjust";
    case StreamConsumer::State::Fetching: return "fetching";
    case StreamConsumer::State::Challenge: return "challenge";
    case StreamConsumer::State::Ended: return "ended";
    case StreamConsumer::State::Failed: return "failed";
    case StreamConsumer::State::Stopped: return "stopped";
  }
  return "?";
}

void StreamConsumerOptions::validate() const
{
  if (stream.empty())
    throw std::invalid_argument("stream name must not be empty");
  StabilityParams::named(stability);
  if (initialDrd <= Duration::zero() || drdWindow <= Duration::zero())
    throw std::invalid_argument("initial DRD and DRD window must be positive");
  if (detectionPeriod < Duration::zero())
    throw std::invalid_argument("detection period must not be negative");
  if (maxPipeline < 1 || initialPipeline > maxPipeline)
    throw std::invalid_argument("max pipeline must be at least 1 and at least the initial pipeline");
  if (!(alpha >= 0) || !(beta >= 0) || !std::isfinite(alpha) || !std::isfinite(beta))
    throw std::invalid_argument("alpha and beta must not be negative");
  if (!(gamma > 0) || gamma > std::min(1.0, beta))
    throw std::invalid_argument("gamma must be in (0, min(1, beta)]");
  if (interestLifetime <= Duration::zero() || metadataLifetime <= Duration::zero())
    throw std::invalid_argument("Interest lifetimes must be positive");
  if (assumedPayload < 1 || segmentHistory < 1)
    throw std::invalid_argument("assumed payload and segment history must be at least 1");
  if (!(parityRatio >= 0 && parityRatio <= 1))
    throw std::invalid_argument("parity ratio must be in [0, 1]");
  if (challengeInterval <= Duration::zero() || challengeDuration <= Duration::zero() ||
      congestionWindow <= Duration::zero())
    throw std::invalid_argument("challenge interval, challenge duration and congestion window must be positive");
  if (recovery != "checkpoint" && recovery != "repeat")
    throw std::invalid_argument("recovery must be checkpoint or repeat");
  if (!(residualLoss >= 0 && residualLoss <= 0.5) || maxPlayout <= Duration::zero())
    throw std::invalid_argument("residual loss must be in [0, 0.5], max playout positive");
  if (challengeProbe != "full" && challengeProbe != "increment")
    throw std::invalid_argument("challenge probe must be full or increment");
  if (!(challengeDrdRise >= 0) || congestionEvents < 1)
    throw std::invalid_argument("challenge DRD rise must not be negative, congestion events at least 1");
  if (bitrateFromRate && !adaptive)
    throw std::invalid_argument("bitrate from rate needs adaptive");
}

// --- per-frame and per-thread state ---------------------------------------------------------

struct StreamConsumer::Frame
{
  struct Seg
  {
    std::optional<TimePoint> sent; ///< first transmission (DRD' samples only from it)
    TimePoint last{};              ///< the last transmission
    bool retx = false;             ///< sent more than once
    bool recovery = false;         ///< re-sent to recover a loss (not only because the lifetime ran out)
    bool have = false;
    TimerId timer = 0;
    uint64_t timeoutId = 0;
  };

  FrameType type = FrameType::Delta;
  uint64_t number = 0;
  bool pipelined = false; ///< counts in lambda_p until its first segment arrives
  bool inflight = false;
  TimePoint requested{};
  std::optional<TimePoint> firstArrival;
  std::optional<SegmentHeader> header;
  std::vector<Seg> data, parity;
  std::vector<Buffer> dataShards, parityShards;
  size_t dataHave = 0, parityHave = 0;
  bool complete = false;
  Buffer payload;
  bool fec = false, rtx = false, rtxDone = false;
  TimerId checkTimer = 0; ///< the checkpoint, or (recovery = repeat) the next recovery round

  std::vector<Seg>& segs(SegmentKind k) { return k == SegmentKind::Data ? data : parity; }
};

struct StreamConsumer::Fetch
{
  size_t thread = 0;
  std::string name;
  bool played = true; ///< false: the additional media of a Challenge
  double share = 1;   ///< the share of each frame's segments asked for (challengeProbe = increment)
  std::map<std::pair<FrameType, uint64_t>, Frame> frames;
  std::map<uint64_t, std::pair<FrameType, uint64_t>> byPlayback;
  uint64_t nextDelta = 0;
  uint64_t startDelta = 0;
  std::optional<uint64_t> bootstrapKey;
  size_t inflight = 0;
  std::deque<size_t> kHistory[2], mHistory[2]; ///< by FrameType
  size_t initialM[2] = {1, 1};
  std::optional<uint64_t> passed[2];   ///< frames of a type at or below this were played or skipped
  std::optional<uint64_t> renderedKey; ///< the last key frame rendered

  /// Whether segment `i` of `kind` of a frame of k data and p parity segments is asked for:
  /// all of them, or the first share x (k + p), data first (at least one).
  bool wants(SegmentKind kind, size_t i, size_t k, size_t p) const
  {
    if (share >= 1)
      return true;
    const size_t n = std::max<size_t>(1, static_cast<size_t>(std::llround(share * static_cast<double>(k + p))));
    return kind == SegmentKind::Data ? i < n : k + i < n;
  }
  size_t estimateData(FrameType t) const
  {
    const auto& h = kHistory[static_cast<int>(t)];
    return h.empty() ? initialM[static_cast<int>(t)] : std::max<size_t>(1, ceilMean(h));
  }
  size_t estimateParity(FrameType t, double ratio) const
  {
    const auto& h = mHistory[static_cast<int>(t)];
    if (!h.empty())
      return ceilMean(h);
    return ratio > 0 ? fec::parityCount(estimateData(t), ratio) : 0;
  }
};

// --- construction, start, stop ------------------------------------------------------------

StreamConsumer::StreamConsumer(Env& env, app::Endpoint& endpoint, const Name& prefix, Options opts)
  : m_env(env),
    m_ep(endpoint),
    m_opts((opts.validate(), std::move(opts))),
    m_params(StabilityParams::named(m_opts.stability)),
    m_drd(m_opts.drdWindow, m_opts.initialDrd),
    m_drdEst(m_opts.drdWindow, m_opts.initialDrd),
    m_stability(m_params, std::chrono::milliseconds(33))
{
  m_base = streamBase(prefix, m_opts.stream);
  m_ep.onData = [this](const Data& d) { handleData(d); };
  m_ep.onNack = [this](const Nack& n) { handleNack(n); };
  m_challengeNext = m_opts.challengeInterval;
}

StreamConsumer::~StreamConsumer()
{
  m_ep.onData = nullptr;
  m_ep.onNack = nullptr;
  if (m_state != State::Stopped)
    stop();
}

void StreamConsumer::start()
{
  if (m_state != State::Inactive)
    return;
  m_startTime = m_env.now();
  setState(State::WaitInitial);
  sendMetadataInterest();
}

void StreamConsumer::cancelTimers(Frame& fr)
{
  for (auto* v : {&fr.data, &fr.parity})
    for (auto& s : *v) {
      m_env.timers().cancel(s.timer);
      s.timer = 0;
    }
  m_env.timers().cancel(fr.checkTimer);
  fr.checkTimer = 0;
}

void StreamConsumer::eraseFrame(Fetch& f, std::map<std::pair<FrameType, uint64_t>, Frame>::iterator it)
{
  cancelTimers(it->second);
  if (it->second.inflight)
    --f.inflight;
  f.frames.erase(it);
}

void StreamConsumer::cancelFetch(Fetch& f)
{
  for (auto& [key, fr] : f.frames)
    cancelTimers(fr);
  f.frames.clear();
  f.byPlayback.clear();
  f.inflight = 0;
}

void StreamConsumer::endStall()
{
  if (m_stallStart) {
    m_stats.stallTime += m_env.now() - *m_stallStart;
    m_stallStart.reset();
  }
}

void StreamConsumer::halt()
{
  for (TimerId t : {m_metaTimer, m_detectTimer, m_tickTimer})
    m_env.timers().cancel(t);
  m_metaTimer = m_detectTimer = m_tickTimer = 0;
  if (m_main)
    cancelFetch(*m_main);
  if (m_extra)
    cancelFetch(*m_extra);
  endStall();
  m_stopTime = m_env.now();
}

void StreamConsumer::stop()
{
  if (m_state == State::Stopped)
    return;
  halt();
  m_state = State::Stopped; // no callback: stop() is the owner's
}

void StreamConsumer::setState(State s)
{
  if (s == m_state)
    return;
  const State from = m_state;
  m_state = s;
  const TimePoint now = m_env.now();
  if (s == State::WaitInitial)
    m_bootstrapAt = now;
  if (s == State::Chasing && !m_chasingStart)
    m_chasingStart = now;
  if (s == State::Adjust && !m_adjustStart && m_chasingStart) {
    m_adjustStart = now;
    m_stats.chasingPeriod = now - *m_chasingStart;
  }
  if (s == State::Fetching) {
    m_fetchingSince = now;
    if (from == State::Adjust) // losses while bootstrapping say nothing of the steady rate
      m_congestion.clear();
    if (!m_reachedFetching) {
      m_reachedFetching = true;
      m_stats.backoffPeriod = m_adjustStart ? now - *m_adjustStart : Duration::zero();
      m_stats.lambdaFinal = m_lambda;
    }
  }
  NDNLAB_LOG(m_env, LogLevel::Debug, kModule, m_base, ": ", toString(from), " -> ", toString(s), " lambda_p ",
             m_lambda);
  if (onStateChange)
    onStateChange(from, s);
}

void StreamConsumer::fail(std::string why)
{
  NDNLAB_LOG(m_env, LogLevel::Warn, kModule, m_base, ": ", why);
  m_error = std::move(why);
  halt();
  setState(State::Failed);
  if (onError)
    onError(m_error);
}

Duration StreamConsumer::period() const
{
  const double rate = m_meta.sampleRate > 0 ? m_meta.sampleRate : 30;
  return Duration(static_cast<int64_t>(std::llround(1e9 / rate)));
}

// --- WaitInitial: the metadata --------------------------------------------------------------

void StreamConsumer::sendMetadataInterest()
{
  // after a stuck bootstrap the metadata comes back behind what the path still carries of the
  // old thread (the producer answers the Interests it holds for it): twice DRD_est at least
  const Duration lifetime = m_clogged ? std::max(m_opts.metadataLifetime, 2 * drdEst()) : m_opts.metadataLifetime;
  Interest i(metaName(m_base));
  i.setCanBePrefix(true).setMustBeFresh(true).setNonce(m_env.rng().next32()).setLifetime(lifetime);
  ++m_metaSends;
  m_env.timers().cancel(m_metaTimer);
  m_metaTimer = m_env.timers().schedule(lifetime, [this] {
    m_metaTimer = 0;
    onMetadataTimeout();
  });
  m_ep.expressInterest(i);
}

void StreamConsumer::onMetadataTimeout()
{
  if (m_state != State::WaitInitial)
    return;
  if (m_metaSends > m_opts.metadataRetries) {
    fail(strcat("no stream metadata for ", metaName(m_base), " after ", m_metaSends, " Interests"));
    return;
  }
  sendMetadataInterest();
}

void StreamConsumer::handleMetadata(const Data& data)
{
  if (m_state != State::WaitInitial)
    return;
  m_clogged = false;
  auto meta = decodeStreamMeta(data.content());
  if (!meta) {
    fail(strcat("stream metadata ", data.name(), " refused: ", meta.error().message));
    return;
  }
  m_env.timers().cancel(m_metaTimer);
  m_metaTimer = 0;
  const bool first = m_meta.threads.empty();
  std::string wanted = m_main ? m_main->name : m_opts.thread;
  m_meta = std::move(meta.value());
  size_t thread = 0;
  if (wanted.empty()) {
    for (size_t i = 1; i < m_meta.threads.size(); ++i)
      if (m_meta.threads[i].bitrate < m_meta.threads[thread].bitrate)
        thread = i;
  }
  else {
    auto it =
      std::find_if(m_meta.threads.begin(), m_meta.threads.end(), [&](const ThreadMeta& t) { return t.name == wanted; });
    if (it == m_meta.threads.end()) {
      fail(strcat("stream ", m_base, " has no thread ", wanted));
      return;
    }
    thread = static_cast<size_t>(it - m_meta.threads.begin());
  }
  if (m_meta.threads[thread].frameCount && !m_end) {
    m_end = m_meta.threads[thread];
    NDNLAB_LOG(m_env, LogLevel::Info, kModule, m_base, ": the stream ended at ", *m_end->frameCount, " frames");
  }
  m_stability.setPeriod(period());
  if (first && m_opts.initialPipeline == 0)
    m_lambda = interestDemand(m_opts.initialDrd, period());
  else if (first)
    m_lambda = m_opts.initialPipeline;
  else
    m_lambda = std::min(demand(), m_opts.maxPipeline);
  if (first)
    m_stats.lambdaInitial = m_lambda;
  bootstrap(thread);
}

void StreamConsumer::bootstrap(size_t thread)
{
  const ThreadMeta& t = m_meta.threads.at(thread);
  m_main = std::make_unique<Fetch>();
  m_main->thread = thread;
  m_main->name = t.name;
  m_main->startDelta = m_main->nextDelta = t.latestDelta ? *t.latestDelta + 1 : 0;
  m_main->bootstrapKey = t.latestKey.value_or(0);
  // first M estimates from the bitrate: a delta frame of bitrate x T, a key frame three of them
  const double frameBytes = t.bitrate.bps() / 8 / (m_meta.sampleRate > 0 ? m_meta.sampleRate : 30);
  const size_t m = std::max<size_t>(1, static_cast<size_t>(std::ceil(frameBytes / double(m_opts.assumedPayload))));
  m_main->initialM[static_cast<int>(FrameType::Delta)] = m;
  m_main->initialM[static_cast<int>(FrameType::Key)] = 3 * m;
  m_lambdaPrev = 0;
  m_stability.reset();
  m_arrivalsSinceChange = 0;
  m_freshSeen = false;
  m_lastArrival.reset();
  m_playing = false;
  m_renderedSinceBootstrap = false;
  m_stats.thread = t.name;
  setState(State::Chasing);
  requestFrame(*m_main, FrameType::Key, *m_main->bootstrapKey, false);
  fillPipeline(*m_main);
  armDetection(detectionPeriod(State::Chasing));
  checkEnd();
}

// --- Interests ------------------------------------------------------------------------------

void StreamConsumer::fillPipeline(Fetch& f)
{
  while (f.inflight < m_lambda && !(f.played && pastEnd(FrameType::Delta, f.nextDelta))) {
    const uint64_t n = f.nextDelta++;
    requestFrame(f, FrameType::Delta, n, true);
  }
  if (!f.played) { // the additional media keeps nothing it does not need
    while (!f.frames.empty() && f.frames.begin()->first.second + 2 * m_opts.maxPipeline < f.nextDelta)
      eraseFrame(f, f.frames.begin());
  }
}

void StreamConsumer::requestFrame(Fetch& f, FrameType type, uint64_t number, bool pipelined)
{
  if (f.played && pastEnd(type, number))
    return;
  auto [it, inserted] = f.frames.try_emplace({type, number});
  if (!inserted)
    return;
  Frame& fr = it->second;
  fr.type = type;
  fr.number = number;
  fr.pipelined = pipelined;
  fr.inflight = pipelined;
  f.inflight += pipelined;
  fr.requested = m_env.now();
  if (f.played)
    ++m_stats.framesRequested;
  const size_t k = f.estimateData(type);
  const size_t p = f.estimateParity(type, m_opts.parityRatio);
  fr.data.resize(k);
  fr.parity.resize(p);
  expressRun(f, fr, SegmentKind::Data, 0, k, k, p);
  expressRun(f, fr, SegmentKind::Parity, 0, p, k, p);
}

void StreamConsumer::expressRun(Fetch& f, Frame& fr, SegmentKind kind, size_t from, size_t to, size_t k, size_t p)
{
  // the segments wanted of [from, to) are one run (Fetch::wants keeps a prefix of each kind);
  // each Interest's BundleTag spans the rest of it, so that a BLEnD link can send the run as
  // one bundle (docs/mechanisms/bundling.md)
  size_t end = from;
  for (size_t i = from; i < to; ++i)
    if (f.wants(kind, i, k, p))
      end = i + 1;
  for (size_t i = from; i < end; ++i)
    if (f.wants(kind, i, k, p))
      expressSegment(f, fr, kind, i, false, static_cast<uint32_t>(end - i));
}

void StreamConsumer::expressSegment(Fetch& f, Frame& fr, SegmentKind kind, uint64_t seg, bool retx, uint32_t span)
{
  auto& segs = fr.segs(kind);
  if (seg >= segs.size())
    segs.resize(seg + 1);
  Frame::Seg& s = segs[seg];
  if (s.have)
    return;
  Interest i(segmentName(m_base, f.name, fr.type, fr.number, kind, seg));
  i.setNonce(m_env.rng().next32()).setLifetime(m_opts.interestLifetime);
  if (s.sent)
    s.retx = true;
  else
    s.sent = m_env.now();
  s.last = m_env.now();
  s.recovery = s.recovery || retx;
  // a segment asked again goes alone (BLEnD's fast recovery)
  i.tags.bundle = BundleTag{s.retx, s.retx ? 1 : span};
  m_env.timers().cancel(s.timer);
  s.timeoutId = m_nextTimeoutId++;
  Fetch* fp = &f;
  s.timer = m_env.timers().schedule(m_opts.interestLifetime,
                                    [this, fp, type = fr.type, number = fr.number, kind, seg, id = s.timeoutId] {
                                      onSegmentTimeout(fp, type, number, kind, seg, id);
                                    });
  ++m_stats.interestsSent;
  m_stats.retransmissions += s.retx;
  m_ep.expressInterest(i);
}

void StreamConsumer::onSegmentTimeout(Fetch* f, FrameType type, uint64_t number, SegmentKind kind, uint64_t seg,
                                      uint64_t id)
{
  auto it = f->frames.find({type, number});
  if (it == f->frames.end())
    return;
  Frame& fr = it->second;
  auto& segs = fr.segs(kind);
  if (seg >= segs.size() || segs[seg].timeoutId != id || segs[seg].have)
    return;
  segs[seg].timer = 0;
  ++m_stats.timeouts;
  if (fr.header) { // the frame exists: a lost segment, a sign of congestion
    if (f == m_extra.get())
      m_challengeLoss = true;
    congestion();
  }
  Frame& again = it->second;
  if (again.complete)
    return;
  // a segment lost (the frame exists), or a frame not made yet (the producer paused): ask again
  expressSegment(*f, again, kind, seg, again.header.has_value());
}

// --- Data -----------------------------------------------------------------------------------

void StreamConsumer::handleData(const Data& data)
{
  if (m_state == State::Inactive || m_state == State::Ended || m_state == State::Failed || m_state == State::Stopped)
    return;
  if (!m_base.isPrefixOf(data.name()))
    return;
  auto sn = parseStreamName(m_base, data.name());
  if (!sn) {
    ++m_stats.malformedData;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, sn.error().message, " DROP");
    return;
  }
  takeRate(data.tags.mirccRate);
  if (sn->meta) {
    handleMetadata(data);
    return;
  }
  m_keyFrameCame = false;
  if (m_main && sn->thread == m_main->name)
    handleSegment(*m_main, *sn, data);
  else if (m_extra && sn->thread == m_extra->name)
    handleSegment(*m_extra, *sn, data);
  else
    return;
  // last: a switch re-bootstraps, dropping the frames the handler worked on
  decideFromRate();
}

void StreamConsumer::handleNack(const Nack& nack)
{
  if (m_state == State::Inactive || m_state == State::Ended || m_state == State::Failed || m_state == State::Stopped)
    return;
  ++m_stats.nacks;
  if (!m_base.isPrefixOf(nack.interest.name()))
    return;
  takeRate(nack.interest.tags.mirccRate);
  auto sn = parseStreamName(m_base, nack.interest.name());
  if (sn && sn->meta)
    return; // WaitInitial re-issues when the lifetime runs out: no route may mean no producer yet
  if (m_extra && sn && sn->thread == m_extra->name)
    m_challengeLoss = true;
  congestion(); // the checkpoint or the lifetime asks again
}

void StreamConsumer::handleSegment(Fetch& f, const StreamName& sn, const Data& data)
{
  if (!sn.kind || !sn.segment)
    return;
  auto it = f.frames.find({sn.type, sn.frame});
  if (it == f.frames.end())
    return;
  Frame& fr = it->second;
  if (isEndMarker(data.content())) {
    handleEndMarker(f, data);
    return;
  }
  auto content = decodeSegmentContent(data.content());
  if (!content) {
    ++m_stats.malformedData;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, data.name(), ": ", content.error().message, " DROP");
    return;
  }
  const SegmentHeader& h = content->header;
  // every segment of a frame is one equal shard of ceil(L / k) octets (what FEC and the join
  // of the shards rely on), with the frame's counts and length
  const uint64_t shardSize = h.frameLength == 0 ? 0 : (h.frameLength + h.dataSegments - 1) / h.dataSegments;
  if (content->payload.size() != shardSize ||
      (fr.header && (h.dataSegments != fr.header->dataSegments || h.paritySegments != fr.header->paritySegments ||
                     h.frameLength != fr.header->frameLength))) {
    ++m_stats.malformedData;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, data.name(), ": not a shard of the frame's size and counts DROP");
    return;
  }
  const SegmentKind kind = *sn.kind;
  const uint64_t seg = *sn.segment;
  if (seg >= (kind == SegmentKind::Data ? h.dataSegments : h.paritySegments))
    return;
  auto& segs = fr.segs(kind);
  if (seg < segs.size() && segs[seg].have)
    return; // duplicate
  const TimePoint now = m_env.now();
  m_stats.bytes += Bytes(content->payload.size());
  if (!f.played)
    m_stats.challengeBytes += Bytes(content->payload.size());
  measureSegment(f, data, content->payload.size(), fr.header ? std::nullopt : std::optional<SegmentHeader>(h));

  if (seg < segs.size() && segs[seg].sent && !segs[seg].retx) {
    const Duration drd = now - *segs[seg].sent;
    const bool cached = h.generationDelay > drd; // it waited at the producer longer than we did
    m_drd.add(now, drd, cached);
    m_drdEst.add(now, std::max(Duration::zero(), drd - h.generationDelay), cached);
    m_stats.cachedData += cached;
  }
  const auto key = it->first;
  if (!fr.header) {
    onFirstSegment(f, fr, h);
    it = f.frames.find(key); // playout may have passed it meanwhile
    if (it == f.frames.end())
      return;
  }
  Frame& fr2 = it->second;
  auto& segs2 = fr2.segs(kind); // onFirstSegment resized
  if (seg >= segs2.size())
    segs2.resize(seg + 1);
  Frame::Seg& s = segs2[seg];
  m_env.timers().cancel(s.timer);
  s.timer = 0;
  s.have = true;
  auto& shards = kind == SegmentKind::Data ? fr2.dataShards : fr2.parityShards;
  if (fr2.complete || seg >= shards.size())
    return; // late: the frame is whole already (its shards are gone), e.g. parity after the data
  shards[seg].assign(content->payload.begin(), content->payload.end());
  (kind == SegmentKind::Data ? fr2.dataHave : fr2.parityHave)++;
  if (s.recovery && kind == SegmentKind::Data)
    fr2.rtx = true;
  tryComplete(f, fr2, false);
}

void StreamConsumer::onFirstSegment(Fetch& f, Frame& fr, const SegmentHeader& h)
{
  const TimePoint now = m_env.now();
  fr.header = h;
  fr.firstArrival = now;
  const size_t k = h.dataSegments, m = h.paritySegments;
  // Interests for segments the frame does not have go unanswered (the paper accepts that)
  for (auto [v, n] : {std::pair{&fr.data, k}, std::pair{&fr.parity, m}}) {
    for (size_t i = n; i < v->size(); ++i)
      m_env.timers().cancel((*v)[i].timer);
    const size_t had = v->size();
    v->resize(n);
    const SegmentKind kind = v == &fr.data ? SegmentKind::Data : SegmentKind::Parity;
    expressRun(f, fr, kind, had, n, k, m);
  }
  fr.dataShards.resize(k);
  fr.parityShards.resize(m);
  const int t = static_cast<int>(fr.type);
  f.kHistory[t].push_back(k);
  f.mHistory[t].push_back(m);
  if (f.kHistory[t].size() > m_opts.segmentHistory) {
    f.kHistory[t].pop_front();
    f.mHistory[t].pop_front();
  }
  const bool wasInflight = fr.inflight;
  if (fr.inflight) {
    fr.inflight = false;
    --f.inflight;
  }
  if (!f.played) {
    if (wasInflight)
      fillPipeline(f);
    return;
  }
  f.byPlayback[h.playbackNumber] = {fr.type, fr.number};

  if (fr.type == FrameType::Key) {
    m_keyFrameCame = true;                                 // bitrateFromRate: a decided switch happens now
    requestFrame(f, FrameType::Key, fr.number + 1, false); // the next key frame, ahead
    if (f.bootstrapKey && fr.number == *f.bootstrapKey) {
      // the GOP's delta frames before the pipeline's first: playback P_k - k numbers them
      uint64_t first = h.playbackNumber >= fr.number ? h.playbackNumber - fr.number : f.startDelta;
      if (f.startDelta > m_opts.maxPipeline)
        first = std::max(first, f.startDelta - m_opts.maxPipeline);
      for (uint64_t d = first; d < f.startDelta; ++d)
        requestFrame(f, FrameType::Delta, d, false);
    }
  }

  // a delta frame asked for before this one with nothing back: its Interests were lost
  if (fr.type == FrameType::Delta) {
    for (auto& [key, other] : f.frames) {
      if (key.first != FrameType::Delta || key.second >= fr.number)
        continue;
      if (other.header || other.requested > fr.requested)
        continue;
      if (repeat() && f.played && !other.checkTimer)
        recover(f, other);
      else if (!repeat() && !other.rtxDone)
        retransmitMissing(f, other);
    }
    // recovery = repeat: the key frame of this one's GOP, made before it, likewise
    if (repeat() && f.played && h.gopKey)
      if (auto k = f.frames.find({FrameType::Key, *h.gopKey});
          k != f.frames.end() && !k->second.header && !k->second.checkTimer)
        recover(f, k->second);
  }

  if (repeat()) { // the first recovery round once the frame's other segments had time to come
    if (f.played)
      armRecovery(fr, now + period() / 2);
  }
  else { // the retransmission checkpoint, P_RTX = gamma x DRD_est before the playout deadline
    const TimePoint check = std::max(deadlineOf(fr) - scaled(drdEst(), m_opts.gamma), now + period() / 4);
    fr.checkTimer =
      m_env.timers().schedule(check - now, [this, type = fr.type, n = fr.number] { checkpoint(type, n); });
  }

  // last: these may play out (and forget) frames, this one included
  // (recovery = repeat: a frame asked for again before anything came may first answer a later
  // Interest, made before it came; that says nothing of the pipeline)
  const bool stale =
    fr.type == FrameType::Delta && fr.pipelined && h.generationDelay == Duration::zero() && !(repeat() && fr.rtxDone);
  if (fr.pipelined || fr.type == FrameType::Key)
    frameArrived(f, fr, stale);
  if (m_main.get() == &f && (m_state == State::Chasing || m_state == State::Adjust || m_state == State::Fetching ||
                             m_state == State::Challenge))
    fillPipeline(f);
}

void StreamConsumer::frameArrived(Fetch& f, Frame& fr, bool stale)
{
  const TimePoint now = m_env.now();
  if (stale) {
    m_staleInPeriod = true;
    ++m_stats.staleFrames;
  }
  else if (fr.pipelined) { // RFC 3550 interarrival jitter over the frames that waited for production
    const double transit = msSinceCapture(*fr.header);
    if (m_lastTransitMs)
      m_jitterMs += (std::abs(transit - *m_lastTransitMs) - m_jitterMs) / 16;
    m_lastTransitMs = transit;
  }
  if (!stale && fr.pipelined && !m_freshSeen) { // the old pipeline's stale data is behind us
    m_freshSeen = true;
    m_arrivalsSinceChange = 0;
  }
  // chase-at-demand: a pipeline below Eq. (1)'s demand from the measured DRD_est cannot keep up
  // with production, and no detection period would show the latest data: raise it now
  if (m_opts.chaseAtDemand && m_state == State::Chasing) {
    if (const size_t atDemand = std::min(demand(), m_opts.maxPipeline); m_lambda < atDemand) {
      m_lambda = atDemand;
      m_stability.reset();
      m_arrivalsSinceChange = 0;
      m_freshSeen = false;
    }
  }
  std::optional<Duration> dArr;
  if (m_lastArrival) {
    dArr = now - *m_lastArrival;
    m_stability.add(*dArr);
  }
  m_lastArrival = now;
  if (onArrival)
    onArrival(FrameArrival{.at = now - m_startTime,
                           .type = fr.type,
                           .number = fr.number,
                           .arrival = dArr,
                           .drd = m_drd.latest(now),
                           .drdEst = m_drdEst.latest(now),
                           .generationDelay = fr.header->generationDelay,
                           .pipeline = m_lambda,
                           .state = toString(m_state),
                           .stale = stale});
  ++m_arrivalsSinceChange;
  ++m_arrivalsInPeriod;
  if (m_state == State::Chasing && m_stability.latest()) {
    setState(State::Adjust);
    m_lambdaPrev = 0;
    m_staleInPeriod = false;
    armDetection(detectionPeriod(State::Adjust));
    maybeStartPlayout();
  }
}

// --- buffer: completion, FEC, retransmission ------------------------------------------------

void StreamConsumer::tryComplete(Fetch& f, Frame& fr, bool atCheckpoint)
{
  const size_t k = fr.header->dataSegments, m = fr.header->paritySegments;
  bool done = false;
  if (fr.dataHave == k) {
    fr.payload = fec::join(fr.dataShards, fr.header->frameLength);
    done = true;
  }
  else if (m > 0 && fr.dataHave + fr.parityHave >= k && (atCheckpoint || fr.rtxDone || repeat())) {
    std::vector<std::optional<fec::ShardView>> shards(k + m);
    for (size_t i = 0; i < k; ++i)
      if (fr.data[i].have)
        shards[i] = fec::ShardView(fr.dataShards[i]);
    for (size_t i = 0; i < m; ++i)
      if (fr.parity[i].have)
        shards[k + i] = fec::ShardView(fr.parityShards[i]);
    auto rec = fec::ReedSolomon(k, m).recover(shards);
    if (rec) {
      fr.payload = fec::join(*rec, fr.header->frameLength);
      fr.fec = true;
      done = true;
    }
  }
  if (!done) {
    if (atCheckpoint && !fr.rtxDone && !repeat())
      retransmitMissing(f, fr);
    return;
  }
  fr.complete = true;
  if (m_opts.spreadRoom && &f == m_main.get() && fr.pipelined && fr.header) {
    m_wholeTransitsMs.push_back(msSinceCapture(*fr.header));
    if (m_wholeTransitsMs.size() > kSpreadFrames)
      m_wholeTransitsMs.pop_front();
  }
  fr.dataShards.clear();
  fr.parityShards.clear();
  cancelTimers(fr);
  if (!f.played) {
    f.frames.erase({fr.type, fr.number}); // measured, never played
    return;
  }
  if (m_stallStart && (playable() >= targetPlayable() || m_end)) {
    endStall();
    m_nextTick = m_env.now();
    onPlayoutTick();
    return;
  }
  maybeStartPlayout();
}

StreamConsumer::Frame* StreamConsumer::firedCheck(FrameType type, uint64_t number)
{
  if (!m_main)
    return nullptr;
  auto it = m_main->frames.find({type, number});
  if (it == m_main->frames.end() || it->second.complete)
    return nullptr;
  it->second.checkTimer = 0;
  return &it->second;
}

void StreamConsumer::checkpoint(FrameType type, uint64_t number)
{
  if (Frame* fr = firedCheck(type, number))
    tryComplete(*m_main, *fr, true);
}

void StreamConsumer::retransmitMissing(Fetch& f, Frame& fr)
{
  fr.rtxDone = true;
  congestion(); // a loss
  for (size_t i = 0; i < fr.data.size(); ++i)
    if (!fr.data[i].have)
      expressSegment(f, fr, SegmentKind::Data, i, true);
  if (!fr.header) // nothing came: parity too, any k of them will do
    for (size_t i = 0; i < fr.parity.size(); ++i)
      expressSegment(f, fr, SegmentKind::Parity, i, true);
}

Duration StreamConsumer::recoveryInterval() const
{
  return drdEst() + period() / 2;
}

void StreamConsumer::armRecovery(Frame& fr, TimePoint at)
{
  m_env.timers().cancel(fr.checkTimer);
  const TimePoint now = m_env.now();
  fr.checkTimer = m_env.timers().schedule(std::max(at, now) - now, [this, type = fr.type, n = fr.number] {
    if (Frame* fired = firedCheck(type, n))
      recover(*m_main, *fired);
  });
}

void StreamConsumer::recover(Fetch& f, Frame& fr)
{
  const TimePoint now = m_env.now();
  const Duration rto = recoveryInterval();
  // a segment is overdue DRD_est + T/2 after its last Interest; one whose Interest waited for
  // the frame's production, T/2 after the frame's first segment came (they leave together)
  const size_t k = fr.header ? fr.header->dataSegments : fr.data.size();
  const size_t m = fr.header ? fr.header->paritySegments : fr.parity.size();
  std::optional<TimePoint> next;
  bool asked = false;
  for (SegmentKind kind : {SegmentKind::Data, SegmentKind::Parity}) {
    auto& segs = fr.segs(kind);
    for (size_t i = 0; i < segs.size(); ++i) {
      if (segs[i].have || !f.wants(kind, i, k, m))
        continue;
      TimePoint due = segs[i].last + rto;
      if (fr.firstArrival && segs[i].last <= *fr.firstArrival)
        due = std::min(due, *fr.firstArrival + period() / 2);
      if (due <= now) {
        expressSegment(f, fr, kind, i, true);
        asked = true;
        due = now + rto;
      }
      next = next ? std::min(*next, due) : due;
    }
  }
  if (asked && !fr.rtxDone) {
    fr.rtxDone = true;
    congestion(); // a loss, once per frame
  }
  if (next)
    armRecovery(fr, *next);
}

// --- the pipeline: detection periods and states ---------------------------------------------

Duration StreamConsumer::drdEst() const
{
  return m_drdEst.latest(m_env.now());
}

size_t StreamConsumer::demand() const
{
  return interestDemand(drdEst(), period());
}

Duration StreamConsumer::detectionPeriod(State s)
{
  if (m_opts.detectionPeriod > Duration::zero())
    return m_opts.detectionPeriod;
  if (s == State::Chasing)
    return static_cast<int64_t>(2 * m_params.n + m_params.k) * period();
  return drdEst() + 2 * period();
}

void StreamConsumer::armDetection(Duration d)
{
  m_env.timers().cancel(m_detectTimer);
  m_detectTimer = m_env.timers().schedule(d, [this] {
    m_detectTimer = 0;
    onDetectionTimer();
  });
}

void StreamConsumer::onDetectionTimer()
{
  const TimePoint now = m_env.now();
  const bool stale = m_staleInPeriod;
  const size_t arrivals = m_arrivalsInPeriod;
  m_staleInPeriod = false;
  m_arrivalsInPeriod = 0;
  // a thread that does not fit may never let its bootstrap end (its Data wait in a deep queue
  // until their Interests time out), and the switch down is looked for in Fetching: a bootstrap
  // that rendered nothing for kStuckBootstrap while segments were lost switches down here
  if ((m_state == State::Chasing || m_state == State::Adjust) && m_opts.adaptive && !rateDecides() &&
      !m_renderedSinceBootstrap && now - m_bootstrapAt >= kStuckBootstrap && !m_congestion.empty()) {
    m_clogged = true;
    if (switchDown())
      return;
    m_clogged = false;
  }
  switch (m_state) {
    case State::Chasing:
      // bursting, once the estimator had its 2N + K arrivals since the last change (or since
      // the first frame that waited for its production) and said no
      if (!m_stability.latest() && m_arrivalsSinceChange >= 2 * m_params.n + m_params.k) {
        m_lambda = std::min(burst(m_lambda), m_opts.maxPipeline);
        m_stability.reset();
        m_arrivalsSinceChange = 0;
        m_freshSeen = false;
        fillPipeline(*m_main);
      }
      armDetection(detectionPeriod(State::Chasing));
      return;
    case State::Adjust: {
      const size_t lambdaD = std::min(demand(), m_opts.maxPipeline);
      if (stale) {
        if (m_lambdaPrev > 0) { // withheld too far: the previous size, and done
          m_lambda = m_lambdaPrev;
          fillPipeline(*m_main);
          setState(State::Fetching);
        }
        else { // the "latest" data was not: chase again
          m_lambda = std::min(burst(m_lambda), m_opts.maxPipeline);
          m_stability.reset();
          m_arrivalsSinceChange = 0;
          m_freshSeen = false;
          fillPipeline(*m_main);
          setState(State::Chasing);
          armDetection(detectionPeriod(State::Chasing));
          return;
        }
      }
      else if (m_lambda > lambdaD) { // withholding, not below the demand
        m_lambdaPrev = m_lambda;
        m_lambda = std::max(withhold(m_lambda), lambdaD);
      }
      else {
        m_lambda = lambdaD;
        fillPipeline(*m_main);
        setState(State::Fetching);
      }
      armDetection(detectionPeriod(m_state));
      return;
    }
    case State::Fetching: {
      // with the path's explicit rate the rate picks the thread (decideFromRate)
      const bool probing = m_opts.adaptive && !rateDecides();
      if (probing && congested() && switchDown())
        return;
      // the resulting DRD' (Table 1): a DRD' window after the pipeline drained to lambda_p
      if (!m_drdFinalSet && m_main->inflight <= m_lambda) {
        if (!m_drainedAt)
          m_drainedAt = now;
        else if (now - *m_drainedAt >= m_opts.drdWindow) {
          m_stats.drdFinal = m_drd.latest(now);
          m_drdFinalSet = true;
        }
      }
      // a low buffer while frames arrive (none arriving: the producer paused, more Interests
      // would not help)
      const bool low = arrivals > 0 && (m_stallStart || (playing() && playable() < targetPlayable() / 2));
      if (stale || low) {
        m_lambda = std::min(burst(m_lambda), m_opts.maxPipeline);
        m_lambdaPrev = 0;
        fillPipeline(*m_main);
        setState(State::Adjust);
      }
      else if (probing && now - m_fetchingSince >= m_challengeNext) {
        startChallenge();
      }
      armDetection(detectionPeriod(m_state));
      return;
    }
    case State::Challenge:
      if (rateDecides()) { // the path began to stamp its rate: it decides instead
        abandonChallenge();
        armDetection(detectionPeriod(m_state));
        return;
      }
      // congestion: the additional media is too much, the current one stays
      if (congested() || now - m_challengeStart >= m_opts.challengeDuration) {
        endChallenge();
        if (m_state == State::WaitInitial)
          return;
      }
      armDetection(detectionPeriod(m_state));
      return;
    default: return;
  }
}

void StreamConsumer::congestion()
{
  const TimePoint now = m_env.now();
  std::erase_if(m_congestion, [&](TimePoint t) { return t < now - m_opts.congestionWindow; });
  m_congestion.push_back(now);
  if (m_state == State::Challenge)
    m_challengeLoss = true;
}

bool StreamConsumer::congested()
{
  const TimePoint now = m_env.now();
  std::erase_if(m_congestion, [&](TimePoint t) { return t < now - m_opts.congestionWindow; });
  return m_congestion.size() >= m_opts.congestionEvents;
}

bool StreamConsumer::switchDown()
{
  if (m_end)
    return false; // nothing to switch to: the stream ends
  const Rate cur = m_meta.threads[m_main->thread].bitrate;
  std::optional<size_t> lower;
  for (size_t i = 0; i < m_meta.threads.size(); ++i)
    if (m_meta.threads[i].bitrate < cur && (!lower || m_meta.threads[i].bitrate > m_meta.threads[*lower].bitrate))
      lower = i;
  if (!lower)
    return false;
  m_congestion.clear();
  m_challengeNext = std::min(2 * m_challengeNext, kMaxChallengeInterval);
  switchTo(*lower);
  return true;
}

void StreamConsumer::startChallenge()
{
  if (m_end)
    return;
  const Rate cur = m_meta.threads[m_main->thread].bitrate;
  std::optional<size_t> higher;
  for (size_t i = 0; i < m_meta.threads.size(); ++i)
    if (m_meta.threads[i].bitrate > cur && (!higher || m_meta.threads[i].bitrate < m_meta.threads[*higher].bitrate))
      higher = i;
  if (!higher)
    return;
  // threads are published in lockstep (one source, one GOP): the same delta numbers
  m_extra = std::make_unique<Fetch>();
  m_extra->thread = *higher;
  m_extra->name = m_meta.threads[*higher].name;
  m_extra->played = false;
  m_extra->startDelta = m_extra->nextDelta = m_main->nextDelta;
  if (m_opts.challengeProbe == "increment")
    m_extra->share = (m_meta.threads[*higher].bitrate.bps() - cur.bps()) / m_meta.threads[*higher].bitrate.bps();
  const double frameBytes = m_meta.threads[*higher].bitrate.bps() / 8 / m_meta.sampleRate;
  m_extra->initialM[static_cast<int>(FrameType::Delta)] =
    std::max<size_t>(1, static_cast<size_t>(std::ceil(frameBytes / double(m_opts.assumedPayload))));
  m_challengeStart = m_env.now();
  m_challengeBaseline = drdEst();
  m_challengeLoss = false;
  m_congestion.clear();
  ++m_stats.challenges;
  setState(State::Challenge);
  fillPipeline(*m_extra);
}

void StreamConsumer::endChallenge()
{
  const bool up =
    !m_challengeLoss && drdEst() <= m_challengeBaseline * (1 + m_opts.challengeDrdRise) + kDrdJitterAllowance;
  const size_t target = m_extra->thread;
  cancelFetch(*m_extra);
  m_extra.reset();
  NDNLAB_LOG(m_env, LogLevel::Debug, kModule, m_base, ": challenge ", up ? "passed" : "failed", ", DRD_est ",
             toMillis(drdEst()), " ms against ", toMillis(m_challengeBaseline), " ms");
  if (up) {
    m_challengeNext = m_opts.challengeInterval;
    switchTo(target);
    return;
  }
  m_challengeNext = std::min(2 * m_challengeNext, kMaxChallengeInterval);
  setState(State::Fetching);
}

void StreamConsumer::switchTo(size_t thread)
{
  ++m_stats.bitrateSwitches;
  ++m_stats.rebootstraps;
  const Duration at = m_env.now() - m_startTime;
  if (m_meta.threads[thread].bitrate > m_meta.threads[m_main->thread].bitrate && !m_stats.firstSwitchUp)
    m_stats.firstSwitchUp = at;
  m_stats.finalThreadAt = at;
  NDNLAB_LOG(m_env, LogLevel::Info, kModule, m_base, ": switching from ", m_main->name, " to ",
             m_meta.threads[thread].name);
  if (m_extra) {
    cancelFetch(*m_extra);
    m_extra.reset();
  }
  cancelFetch(*m_main);
  m_main->name = m_meta.threads[thread].name; // handleMetadata looks the thread up by name
  m_env.timers().cancel(m_tickTimer);
  m_env.timers().cancel(m_detectTimer);
  m_tickTimer = m_detectTimer = 0;
  endStall();
  m_playing = false;
  m_metaSends = 0;
  setState(State::WaitInitial);
  sendMetadataInterest();
}

// --- bitrate from the explicit rate (bitrateFromRate) ----------------------------------------

void StreamConsumer::takeRate(const std::optional<Rate>& stamped)
{
  if (!stamped)
    return;
  ++m_stats.ratesHeard;
  m_rate = stamped;
  m_rateAt = m_env.now();
}

std::optional<Rate> StreamConsumer::pathRate() const
{
  if (m_rate && m_env.now() - m_rateAt <= kRateLifetime)
    return m_rate;
  return std::nullopt;
}

bool StreamConsumer::rateDecides() const
{
  return m_opts.adaptive && m_opts.bitrateFromRate && pathRate().has_value();
}

void StreamConsumer::measureSegment(const Fetch& f, const Data& data, size_t payload,
                                    const std::optional<SegmentHeader>& first)
{
  if (payload == 0)
    return;
  // the octets a Data takes per payload octet: name, segment header, signature, TLV framing
  m_wireOctets = m_wireOctets * (1 - kOverheadGain) + static_cast<double>(data.wireSize());
  m_payloadOctets = m_payloadOctets * (1 - kOverheadGain) + static_cast<double>(payload);
  m_largestShard = std::max(m_largestShard, payload);
  if (first) { // every shard of a frame has this size: k of data, m of parity
    ThreadLoad& l = m_loads[f.name];
    l.data += static_cast<double>(first->dataSegments * payload);
    l.parity += static_cast<double>(first->paritySegments * payload);
  }
}

std::optional<Rate> StreamConsumer::pathDemand(size_t thread) const
{
  if (m_payloadOctets <= 0)
    return std::nullopt;
  const ThreadMeta& t = m_meta.threads.at(thread);
  double parityShare = 0;
  if (auto it = m_loads.find(t.name); it != m_loads.end() && it->second.data > 0) {
    parityShare = it->second.parity / it->second.data;
  }
  else { // not fetched yet: the parity the producer adds to the segments of a frame of B x T
    const double frameBytes = t.bitrate.bps() / 8 / (m_meta.sampleRate > 0 ? m_meta.sampleRate : 30);
    const double shard = static_cast<double>(std::max(m_largestShard, m_opts.assumedPayload));
    const size_t k = std::max<size_t>(1, static_cast<size_t>(std::ceil(frameBytes / shard)));
    parityShare = static_cast<double>(fec::parityCount(k, m_opts.parityRatio)) / static_cast<double>(k);
  }
  return Rate::bitsPerSecond(t.bitrate.bps() * (1 + parityShare) * m_wireOctets / m_payloadOctets);
}

void StreamConsumer::decideFromRate()
{
  const bool keyFrame = std::exchange(m_keyFrameCame, false);
  if (!rateDecides() || !m_main || m_end ||
      !(m_state == State::Chasing || m_state == State::Adjust || m_state == State::Fetching ||
        m_state == State::Challenge))
    return;
  const std::optional<Rate> rate = pathRate();
  // the highest thread whose demand fits under the rate; the lowest when none does
  std::optional<size_t> fit, lowest;
  for (size_t i = 0; i < m_meta.threads.size(); ++i) {
    const Rate b = m_meta.threads[i].bitrate;
    if (!lowest || b < m_meta.threads[*lowest].bitrate)
      lowest = i;
    const std::optional<Rate> d = pathDemand(i);
    if (!d)
      return; // nothing measured yet
    if (*d <= *rate && (!fit || b > m_meta.threads[*fit].bitrate))
      fit = i;
  }
  const size_t target = fit.value_or(*lowest);
  if (target == m_main->thread) {
    m_rateTarget.reset();
    return;
  }
  if (m_rateTarget != target)
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, m_base, ": rate ", rate->bps() / 1e3,
               " kbit/s: ", m_meta.threads[target].name, " at the next key frame");
  m_rateTarget = target;
  // a switch starts the new thread at a key frame: wait for the next one while the played
  // thread is on screen; before that nothing is lost by switching now
  if (keyFrame || !m_renderedSinceBootstrap) {
    m_rateTarget.reset();
    switchTo(target);
  }
}

void StreamConsumer::abandonChallenge()
{
  cancelFetch(*m_extra);
  m_extra.reset();
  m_challengeNext = m_opts.challengeInterval;
  setState(State::Fetching);
}

// --- playout --------------------------------------------------------------------------------

Duration StreamConsumer::playable() const
{
  if (!m_main)
    return Duration::zero();
  int64_t n = 0;
  for (auto it = m_main->byPlayback.lower_bound(m_cursor); it != m_main->byPlayback.end(); ++it) {
    auto f = m_main->frames.find(it->second);
    n += f != m_main->frames.end() && f->second.complete;
  }
  return n * period();
}

double StreamConsumer::msSinceCapture(const SegmentHeader& h) const
{
  return static_cast<double>((m_env.clock().unixNow() - h.captureTime).count());
}

Duration StreamConsumer::targetPlayable() const
{
  const Duration jitter = scaled(std::chrono::milliseconds(1), m_jitterMs);
  Duration paper = scaled(jitter, m_opts.alpha) + scaled(drdEst(), m_opts.beta);
  if (m_opts.spreadRoom && m_wholeTransitsMs.size() >= 2) {
    const auto [lo, hi] = std::minmax_element(m_wholeTransitsMs.begin(), m_wholeTransitsMs.end());
    paper += scaled(std::chrono::milliseconds(1), *hi - *lo);
  }
  if (m_opts.residualLoss <= 0 || m_stats.interestsSent == 0)
    return paper;
  // the measured share of segment Interests that needed another one: the loss of one round
  const double p =
    std::clamp(static_cast<double>(m_stats.retransmissions) / static_cast<double>(m_stats.interestsSent), 1e-3, 0.95);
  const double rounds = std::ceil(std::log(m_opts.residualLoss) / std::log(p) - 1e-9);
  const Duration raised = scaled(jitter, m_opts.alpha) + scaled(recoveryInterval(), std::max(1.0, rounds));
  return std::max(paper, std::min(raised, m_opts.maxPlayout));
}

TimePoint StreamConsumer::deadlineOf(const Frame& fr) const
{
  if (m_playing && !m_stallStart && fr.header && fr.header->playbackNumber >= m_cursor)
    return m_nextTick + static_cast<int64_t>(fr.header->playbackNumber - m_cursor) * period();
  return m_env.now() + targetPlayable(); // not playing yet: as if played at the target level
}

void StreamConsumer::maybeStartPlayout()
{
  const bool liveInChasing = m_opts.earlyPlayout && m_state == State::Chasing && m_freshSeen;
  if (m_playing || !m_main ||
      !(m_end || liveInChasing || m_state == State::Adjust || m_state == State::Fetching ||
        m_state == State::Challenge))
    return;
  // from the newest key frame that is complete: the bootstrap's, or a later one when chasing
  // took longer than a GOP; with catch-up, the oldest complete one captured within it
  auto completeKey = [this](const auto& entry) -> const Frame* {
    if (entry.second.first != FrameType::Key)
      return nullptr;
    auto f = m_main->frames.find(entry.second);
    return f != m_main->frames.end() && f->second.complete ? &f->second : nullptr;
  };
  std::optional<uint64_t> start;
  if (m_opts.catchUp > Duration::zero()) {
    for (auto it = m_main->byPlayback.begin(); it != m_main->byPlayback.end() && !start; ++it)
      if (const Frame* key = completeKey(*it);
          key && key->header && msSinceCapture(*key->header) <= toMillis(m_opts.catchUp))
        start = it->first;
  }
  for (auto it = m_main->byPlayback.rbegin(); it != m_main->byPlayback.rend() && !start; ++it)
    if (completeKey(*it))
      start = it->first;
  if (!start)
    return;
  m_cursor = *start;
  if (playable() < targetPlayable() && !m_end) // an ended stream plays what it has
    return;
  m_playing = true;
  m_nextTick = m_env.now();
  onPlayoutTick();
}

void StreamConsumer::onPlayoutTick()
{
  m_env.timers().cancel(m_tickTimer); // a stall ended by a frame: the give-up timer goes
  m_tickTimer = 0;
  if (!m_playing || m_stallStart)
    return;
  const TimePoint now = m_env.now();
  Frame* at = nullptr;
  if (auto it = m_main->byPlayback.find(m_cursor); it != m_main->byPlayback.end()) {
    auto f = m_main->frames.find(it->second);
    if (f != m_main->frames.end())
      at = &f->second;
  }
  if (at && at->complete) {
    render(*at);
    ++m_cursor;
    if (checkEnd())
      return;
  }
  else {
    bool later = false;
    for (auto it = m_main->byPlayback.upper_bound(m_cursor); it != m_main->byPlayback.end() && !later; ++it) {
      auto f = m_main->frames.find(it->second);
      later = f != m_main->frames.end() && f->second.complete;
    }
    if (!later) { // nothing to play: stall until the buffer is back at its target
      m_stallStart = now;
      ++m_stats.stalls;
      NDNLAB_LOG(m_env, LogLevel::Debug, kModule, m_base, ": stall at playback ", m_cursor);
      congestion();
      armEndGiveUp();
      return;
    }
    skipCursor();
    if (checkEnd())
      return;
  }
  forgetPlayed();
  // catching up: twice the sample rate while the buffer holds more than 1.5 frames above its
  // target (the bootstrap starts at the GOP's key frame, up to a GOP old)
  const Duration next = playable() > targetPlayable() + 3 * period() / 2 ? period() / 2 : period();
  m_nextTick = now + next;
  m_tickTimer = m_env.timers().schedule(next, [this] { onPlayoutTick(); });
}

void StreamConsumer::skipCursor()
{
  ++m_stats.framesLost; // missed its playout deadline
  auto it = m_main->byPlayback.find(m_cursor);
  if (it == m_main->byPlayback.end()) {
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, m_base, ": playback ", m_cursor, " missed its deadline, nothing came");
  }
  else {
    m_main->passed[static_cast<int>(it->second.first)] = it->second.second;
    if (auto f = m_main->frames.find(it->second); f != m_main->frames.end() && f->second.header) {
      const Frame& fr = f->second;
      NDNLAB_LOG(m_env, LogLevel::Debug, kModule, m_base, ": playback ", m_cursor, " missed its deadline with ",
                 fr.dataHave, "/", fr.header->dataSegments, " data, ", fr.parityHave, "/", fr.header->paritySegments,
                 " parity, ", toMillis(m_env.now() - *fr.firstArrival), " ms after its first segment",
                 fr.rtxDone ? ", asked again" : "");
    }
  }
  ++m_cursor;
}

// --- the end of the stream ------------------------------------------------------------------

void StreamConsumer::handleEndMarker(Fetch& f, const Data& data)
{
  auto meta = decodeStreamMeta(data.content());
  const ThreadMeta* t = nullptr;
  if (meta)
    for (const auto& x : meta->threads)
      if (x.name == f.name && x.frameCount)
        t = &x;
  if (!t) {
    ++m_stats.malformedData;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, data.name(), ": an end marker without this thread's end DROP");
    return;
  }
  if (&f == m_main.get())
    noteEnd(*t);
  // the Challenge's thread: its Interests past the end go unanswered; the main one ends the run
}

void StreamConsumer::noteEnd(const ThreadMeta& t)
{
  if (m_end)
    return;
  m_end = t;
  NDNLAB_LOG(m_env, LogLevel::Info, kModule, m_base, ": the stream ended at ", *t.frameCount, " frames");
  Fetch& f = *m_main;
  for (auto it = f.frames.begin(); it != f.frames.end();) {
    if (pastEnd(it->first.first, it->first.second))
      eraseFrame(f, it++);
    else
      ++it;
  }
  if (checkEnd())
    return;
  if (!m_playing)
    maybeStartPlayout();
  else if (m_stallStart) {
    endStall();
    m_nextTick = m_env.now();
    onPlayoutTick();
  }
}

bool StreamConsumer::pastEnd(FrameType type, uint64_t number) const
{
  if (!m_end)
    return false;
  const auto& last = type == FrameType::Key ? m_end->latestKey : m_end->latestDelta;
  return !last || number > *last;
}

bool StreamConsumer::checkEnd()
{
  if (!m_end || m_state == State::Ended || !(m_playing ? m_cursor >= *m_end->frameCount : *m_end->frameCount == 0))
    return false;
  halt();
  setState(State::Ended);
  return true;
}

void StreamConsumer::armEndGiveUp()
{
  if (!m_end)
    return;
  m_tickTimer = m_env.timers().schedule(m_opts.interestLifetime, [this] {
    m_tickTimer = 0;
    if (!m_stallStart)
      return;
    endStall();
    skipCursor();
    if (checkEnd())
      return;
    m_nextTick = m_env.now();
    onPlayoutTick();
  });
}

void StreamConsumer::render(Frame& fr)
{
  const int t = static_cast<int>(fr.type);
  m_main->passed[t] = fr.number;
  // a delta frame whose GOP's key frame was not rendered cannot be decoded
  const auto& lastKey = m_main->renderedKey;
  if (fr.type == FrameType::Delta && (!fr.header->gopKey || !lastKey || *fr.header->gopKey != *lastKey)) {
    ++m_stats.framesLost;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, m_base, ": playback ", fr.header->playbackNumber,
               " lost: its GOP's key frame was not rendered");
    return;
  }
  if (fr.type == FrameType::Key)
    m_main->renderedKey = fr.number;
  const TimePoint now = m_env.now();
  m_renderedSinceBootstrap = true;
  if (!m_stats.timeToFirstFrame)
    m_stats.timeToFirstFrame = now - m_startTime;
  ++m_stats.framesRendered;
  m_stats.recoveredByFec += fr.fec;
  m_stats.recoveredByRtx += fr.rtx && !fr.fec;
  m_latencies.push_back(msSinceCapture(*fr.header));
  if (onFrame)
    onFrame(RenderedFrame{fr.header->playbackNumber, fr.type, fr.number, m_main->name, fr.payload,
                          fr.header->captureTime, fr.fec, fr.rtx && !fr.fec});
}

void StreamConsumer::forgetPlayed()
{
  Fetch& f = *m_main;
  while (!f.byPlayback.empty() && f.byPlayback.begin()->first < m_cursor)
    f.byPlayback.erase(f.byPlayback.begin());
  for (auto it = f.frames.begin(); it != f.frames.end();) {
    const auto& passed = f.passed[static_cast<int>(it->first.first)];
    const Frame& fr = it->second;
    const bool gone = (fr.header && fr.header->playbackNumber < m_cursor) || (passed && it->first.second <= *passed);
    if (!gone) {
      ++it;
      continue;
    }
    eraseFrame(f, it++);
  }
  fillPipeline(f);
}

StreamConsumerStats StreamConsumer::stats() const
{
  StreamConsumerStats s = m_stats;
  const TimePoint end = m_stopTime.value_or(m_env.now());
  if (m_stallStart)
    s.stallTime += end - *m_stallStart;
  s.elapsed = m_state == State::Inactive ? Duration::zero() : end - m_startTime;
  s.drdEst = m_drdEst.latest(end);
  s.latencyMedianMs = percentile(m_latencies, 0.5);
  s.latencyP95Ms = percentile(m_latencies, 0.95);
  s.rateFinal = m_rate;
  if (m_opts.bitrateFromRate && m_main && m_main->thread < m_meta.threads.size())
    s.demandFinal = pathDemand(m_main->thread);
  return s;
}

} // namespace ndnlab::stream
