#include "core/app/segment-fetcher.hpp"

#include "core/app/fetch-pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndnlab::app {

namespace {
constexpr std::string_view kModule = "fetcher";
} // namespace

void SegmentFetcherOptions::validate() const
{
  if (pipeline != RatePipelineName && !cc::isWindowAlgorithm(pipeline)) {
    std::string known;
    for (const auto& n : fetcherPipelines())
      known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown congestion control '" + pipeline + "' (known: " + known + ")");
  }
  if (!(rateInitial > 0) || !std::isfinite(rateInitial))
    throw std::invalid_argument("initial rate must be a positive number of Interests per second");
  if (rateTick < Duration::zero())
    throw std::invalid_argument("rate tick must not be negative");
  window.validate();
  control.validate();
  rtt.validate();
  if (lifetime <= Duration::zero())
    throw std::invalid_argument("Interest lifetime must be positive");
  if (retries < -1)
    throw std::invalid_argument("retries must be >= -1");
  if (rtoCheckInterval <= Duration::zero())
    throw std::invalid_argument("RTO check interval must be positive");
  if (maxReorderSegments == 0)
    throw std::invalid_argument("reorder buffer must hold at least one segment");
  if (!(pacingGain > 0) || !std::isfinite(pacingGain))
    throw std::invalid_argument("pacing gain must be a positive number");
  if (retxHoldoff < Duration::zero())
    throw std::invalid_argument("retransmission hold-off must not be negative");
  if (!(reorderWindow >= 0) || !std::isfinite(reorderWindow))
    throw std::invalid_argument("reorder window must be a number >= 0 (a share of the minimum RTT)");
}

const std::vector<std::string>& fetcherPipelines()
{
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = cc::windowAlgorithms();
    v.emplace_back(RatePipelineName);
    return v;
  }();
  return names;
}

std::string_view toString(LossDetection d)
{
  switch (d) {
    case LossDetection::Timeout: return "timeout";
    case LossDetection::Rack: return "rack";
  }
  return "?";
}

std::optional<LossDetection> parseLossDetection(std::string_view s)
{
  if (s == "timeout")
    return LossDetection::Timeout;
  if (s == "rack")
    return LossDetection::Rack;
  return std::nullopt;
}

const std::vector<std::string>& fetcherProfiles()
{
  static const std::vector<std::string> names = {"ndnlab", "ndncatchunks", "ndnsim"};
  return names;
}

std::optional<SegmentFetcherOptions> fetcherProfile(std::string_view name)
{
  SegmentFetcherOptions o;
  if (name == "ndnlab")
    return o;
  if (name == "ndncatchunks") {
    o.lossDetection = LossDetection::Timeout;
    o.control.cwaGate = cc::CwaGate::LostSegment;
    o.control.hystart = false;
    o.retriesCountStallsOnly = false;
    o.pacing = false;
    o.retxHoldoff = Duration::zero();
    return o;
  }
  if (name == "ndnsim") {
    // ndnSIM 2.7's ConsumerPcon with its defaults, as the BLEnD paper ran it
    // (experiments/blend/*.toml pin the same values one by one)
    o.lossDetection = LossDetection::Timeout;
    o.retriesCountStallsOnly = false;
    o.retxHoldoff = Duration::zero();
    o.control.hystart = false;
    o.control.cwaGate = cc::CwaGate::HighData;
    o.pacing = false;
    o.rtt.k = 4;                                        // RttMeanDeviation: SRTT + 4 RTTVAR
    o.window.initCwnd = 1;                              // ConsumerWindow "Window"
    o.window.cubic.beta = 0.8;                          // ConsumerPcon "CubicBeta"
    o.window.cubic.tcpFriendly = false;                 // no TCP-friendly region
    o.window.aimd.minSsthresh = 1;                      // windows fall to 1
    o.window.aimd.floorIncrease = false;                // 1/cwnd growth
    o.lifetime = std::chrono::seconds(2);               // Consumer "LifeTime"
    o.rtoCheckInterval = std::chrono::milliseconds(50); // Consumer "RetxTimer"
    o.ceilWindow = true;                                // in flight < cwnd
    o.rtoBackoffPerTimeout = true;                      // one RTO per scan, doubled per timeout
    o.rttFullGains = true;                              // full estimator gains on every sample
    return o;
  }
  return std::nullopt;
}

std::string_view toString(FetchErrc e)
{
  switch (e) {
    case FetchErrc::Nack: return "nack";
    case FetchErrc::RetriesExhausted: return "retries-exhausted";
    case FetchErrc::ApplicationNack: return "application-nack";
    case FetchErrc::BadMetadata: return "bad-metadata";
    case FetchErrc::NoFinalBlock: return "no-final-block";
    case FetchErrc::BadFinalBlock: return "bad-final-block";
  }
  return "unknown";
}

SegmentFetcher::SegmentFetcher(Env& env, Endpoint& endpoint, Options opts)
  : m_env(env),
    m_ep(endpoint),
    m_opts(std::move(opts)),
    m_rtt((m_opts.validate(), m_opts.rtt)),
    m_pacer(m_opts.pacingGain)
{
  m_ep.onData = [this](const Data& d) { handleData(d); };
  m_ep.onNack = [this](const Nack& n) { handleNack(n); };
  m_stats.pipeline = m_opts.pipeline;
}

SegmentFetcher::~SegmentFetcher()
{
  cancelTimers();
  m_ep.onData = nullptr;
  m_ep.onNack = nullptr;
}

void SegmentFetcher::start(const Name& name)
{
  if (m_state != State::Idle)
    throw std::logic_error("SegmentFetcher::start called twice");
  m_discoveryStart = m_env.now();
  bool hasVersion = !name.empty() && name[-1].isVersion();
  if (m_opts.discovery != VersionDiscovery::None && !hasVersion) {
    m_state = State::Discovering;
    m_discovery = std::make_unique<VersionDiscoverer>(
      m_env, m_ep, VersionDiscoverer::Options{m_opts.discovery, m_opts.lifetime, m_opts.retries});
    m_discovery->onFound = [this](const Name& versioned, const Data* firstSegment) {
      m_stats.discoveryTime = m_env.now() - m_discoveryStart;
      startPipeline(versioned, firstSegment);
    };
    m_discovery->onFailure = [this](VersionDiscoverer::Failure f, std::string message) {
      using F = VersionDiscoverer::Failure;
      fail(f == F::BadMetadata        ? FetchErrc::BadMetadata
           : f == F::RetriesExhausted ? FetchErrc::RetriesExhausted
                                      : FetchErrc::Nack,
           std::move(message));
    };
    m_discovery->start(name);
  }
  else {
    startPipeline(name);
  }
}

void SegmentFetcher::stop()
{
  if (m_state == State::Done || m_state == State::Failed || m_state == State::Stopped)
    return;
  if (m_state == State::Fetching)
    m_stats.elapsed = m_env.now() - m_pipelineStart; // the statistics of a stopped fetch stay true
  m_state = State::Stopped;
  cancelTimers();
}

void SegmentFetcher::cancelTimers()
{
  auto& t = m_env.timers();
  if (m_discovery)
    m_discovery->stop();
  if (m_pipeline)
    m_pipeline->stop();
  if (m_checkTimer)
    t.cancel(std::exchange(m_checkTimer, 0));
  if (m_paceTimer)
    t.cancel(std::exchange(m_paceTimer, 0));
  if (m_holdoffTimer)
    t.cancel(std::exchange(m_holdoffTimer, 0));
  for (auto& [seg, info] : m_segs) {
    if (info.backoffTimer)
      t.cancel(std::exchange(info.backoffTimer, 0));
  }
}

std::optional<uint64_t> SegmentFetcher::segmentOf(const Name& name) const
{
  if (name.size() != m_prefix.size() + 1 || !m_prefix.isPrefixOf(name))
    return std::nullopt;
  auto c = name[-1];
  if (c.type() != tlv::SegmentNameComponent)
    return std::nullopt;
  return c.toNumber();
}

// --- network input ----------------------------------------------------------------------------

void SegmentFetcher::handleData(const Data& data)
{
  if (m_state == State::Discovering) {
    m_discovery->handleData(data);
    return;
  }
  if (m_state != State::Fetching)
    return;

  auto segOpt = segmentOf(data.name());
  if (!segOpt) {
    ++m_stats.unexpectedData;
    return;
  }
  const uint64_t seg = *segOpt;

  if (data.contentType() == static_cast<uint64_t>(ContentType::Nack)) {
    fail(FetchErrc::ApplicationNack, strcat("Server returned an application-level Nack for segment #", seg));
    return;
  }

  bool learnedEnd = false;
  if (!m_lastSeg) {
    if (auto last = data.finalBlockSegment()) {
      // An end before a segment that exists: the producer contradicts itself, and no object
      // made of what arrived would be the one it published.
      uint64_t highest = std::max(seg, m_delivery.highestReceived().value_or(0));
      if (highest > *last) {
        fail(FetchErrc::BadFinalBlock, strcat("FinalBlockId ", *last, " in ", data.name().toUri(), " is below segment ",
                                              highest, ", already received"));
        return;
      }
      m_lastSeg = *last;
      learnedEnd = true;
      cancelSegmentsAfter(*last);
      if (m_hasFailure) {
        if (*last >= m_failedSeg) {
          fail(m_failureCode, m_failureReason);
          return;
        }
        m_hasFailure = false;
      }
    }
  }

  auto it = m_segs.find(seg);
  if (it == m_segs.end()) {
    ++m_stats.unexpectedData; // already received, cancelled, or beyond the end
    if (learnedEnd)
      next(); // the end it taught may lie before every outstanding segment
    return;
  }

  SegInfo& info = it->second;
  const TimePoint now = m_env.now();
  const Duration rtt = now - info.lastSent;
  const bool marked = data.tags.congestionMark > 0;

  leaveFlight(info);
  if (info.backoffTimer)
    m_env.timers().cancel(std::exchange(info.backoffTimer, 0));
  m_pipeline->onData(seg, info, rtt, data);

  SegmentEvent ev{seg, now - info.firstSent, rtt, info.retx, Bytes(data.content().size()), marked};
  const uint32_t retx = info.retx;

  // Karn: sample only segments never retransmitted; weight by the expected samples per RTT.
  if (retx == 0) {
    size_t expected = m_opts.rttFullGains ? 1 : std::max<size_t>((m_inFlight + 1) / 2, 1);
    m_rtt.addMeasurement(rtt, expected);
    m_env.emit({EventKind::FetchRtt, 0, {}, static_cast<int64_t>(seg), toSeconds(rtt)});
  }
  m_segs.erase(it);

  ++m_stats.segments;
  m_stats.bytes += ev.size;
  m_env.emit({EventKind::FetchData, 0, retx ? "retx" : "first", static_cast<int64_t>(seg), toSeconds(ev.fullDelay)});
  if (retx)
    m_env.emit({EventKind::FetchDataRetx, 0, {}, static_cast<int64_t>(seg), static_cast<double>(retx)});
  if (onSegment)
    onSegment(ev);

  deliver(seg, data);
  if (m_state != State::Fetching)
    return;
  m_pipeline->afterData();
  next();
}

void SegmentFetcher::next()
{
  if (m_state != State::Fetching)
    return;
  if (isComplete()) {
    finish();
    return;
  }
  if (m_hasFailure && m_segs.empty()) {
    failNoFinalBlock();
    return;
  }
  schedulePackets();
}

void SegmentFetcher::handleNack(const Nack& nack)
{
  if (m_state == State::Discovering) {
    m_discovery->handleNack(nack);
    return;
  }
  if (m_state != State::Fetching)
    return;

  auto segOpt = segmentOf(nack.interest.name());
  if (!segOpt)
    return;
  const uint64_t seg = *segOpt;
  auto it = m_segs.find(seg);
  if (it == m_segs.end())
    return;
  SegInfo& info = it->second;
  // Only the latest Interest for a segment is pending; Nacks of earlier ones are stale.
  if (info.state != SegState::InFlight || nack.interest.nonce() != info.nonce)
    return;

  ++m_stats.nacks;
  m_env.emit({EventKind::FetchNack, 0, toString(nack.reason), static_cast<int64_t>(seg), 0});
  NDNLAB_LOG(m_env, LogLevel::Debug, kModule, "Nack ", toString(nack.reason), " for segment #", seg);
  const std::string reason =
    strcat("Could not retrieve data for ", nack.interest.name().toUri(), ", reason: ", toString(nack.reason));

  m_pipeline->onNack(seg, info, nack, reason);
}

// --- pipeline ------------------------------------------------------------------------------------

void SegmentFetcher::startPipeline(const Name& versioned, const Data* firstSegment)
{
  m_prefix = versioned;
  m_stats.versionedName = versioned;
  m_state = State::Fetching;
  m_stats.elapsed = Duration::zero();
  m_pipelineStart = m_env.now();
  // the rate pipeline keeps a window controller for its loss bookkeeping only
  const bool rate = m_opts.pipeline == RatePipelineName;
  auto window = cc::makeWindow(rate ? "aimd" : m_opts.pipeline, m_opts.window, m_env.now());
  m_pipeline = makeFetchPipeline(m_opts.pipeline, window->isAdaptive(), *this);
  m_ctl = std::make_unique<cc::WindowController>(std::move(window), m_opts.control);
  NDNLAB_LOG(m_env, LogLevel::Info, kModule, "fetching ", versioned, " with ", m_opts.pipeline);
  if (onVersion)
    onVersion(versioned);
  if (m_state != State::Fetching)
    return;
  m_checkTimer = m_env.timers().schedule(m_opts.rtoCheckInterval, [this] {
    m_checkTimer = 0;
    checkTimeouts();
  });
  if (firstSegment && firstSegment->name()[-1].toNumber() == 0u) {
    // the discovery reply is segment 0: account for it as if requested by the pipeline
    SegInfo& info = m_segs[0];
    info.firstSent = info.lastSent = m_discoveryStart;
    info.rto = m_rtt.rto();
    info.nonce = m_discovery->nonce();
    ++m_inFlight;
    ++m_stats.interestsSent;
    info.transmission = m_ctl->onInterestSent(0, false);
    m_pipeline->onSent(0, 0, info.transmission);
    m_nextSeg = 1;
    handleData(*firstSegment);
    return;
  }
  schedulePackets();
}

bool SegmentFetcher::canSendNew() const
{
  if (m_hasFailure)
    return false;
  if (m_lastSeg && m_nextSeg > *m_lastSeg)
    return false;
  return m_nextSeg < m_delivery.next() + m_opts.maxReorderSegments;
}

void SegmentFetcher::schedulePackets()
{
  while (m_state == State::Fetching) {
    if (const std::optional<size_t> allowance = m_pipeline->sendAllowance()) {
      if (*allowance == 0)
        return; // a rate: the pipeline's clock releases the next ones
    }
    else {
      const double cwnd = m_ctl->cwnd();
      int64_t window = static_cast<int64_t>(m_opts.ceilWindow ? std::ceil(cwnd) : std::floor(cwnd));
      if (m_opts.maxInFlight > 0)
        window = std::min<int64_t>(window, static_cast<int64_t>(m_opts.maxInFlight));
      if (window - static_cast<int64_t>(m_inFlight) <= 0)
        return;
    }

    if (!m_retxQueue.empty()) {
      uint64_t seg = m_retxQueue.front();
      auto it = m_segs.find(seg);
      if (it == m_segs.end() || it->second.state != SegState::InRetxQueue) {
        m_retxQueue.pop_front();
        ++m_stats.skippedRetx;
        continue;
      }
      const TimePoint eligible = it->second.lastSent + m_opts.retxHoldoff;
      if (m_env.now() < eligible) {
        // too soon for the forwarder to pass it on: new segments meanwhile, then back here
        if (m_holdoffTimer == 0) {
          m_holdoffTimer = m_env.timers().schedule(eligible - m_env.now(), [this] {
            m_holdoffTimer = 0;
            schedulePackets();
          });
        }
        if (!canSendNew() || !paceAllowsSend())
          return;
        sendInterest(m_nextSeg++, false);
        continue;
      }
      if (!paceAllowsSend())
        return; // the pacing timer resumes here; seg stays at the head of the queue
      m_retxQueue.pop_front();
      sendInterest(seg, true);
    }
    else if (canSendNew()) {
      if (!paceAllowsSend())
        return;
      sendInterest(m_nextSeg++, false);
    }
    else {
      return;
    }
  }
}

bool SegmentFetcher::paceAllowsSend()
{
  if (!m_opts.pacing || m_rtt.sampleCount() == 0)
    return true;
  const std::optional<Duration> wait = m_pacer.wait(m_env.now(), m_ctl->cwnd(), m_rtt.srtt());
  if (!wait)
    return true;
  if (m_paceTimer == 0) {
    m_paceTimer = m_env.timers().schedule(*wait, [this] {
      m_paceTimer = 0;
      schedulePackets();
    });
  }
  return false;
}

void SegmentFetcher::sendInterest(uint64_t seg, bool isRetransmission)
{
  if (!isRetransmission) {
    SegInfo& info = m_segs[seg];
    info.firstSent = m_env.now();
    transmit(seg, info, false);
    return;
  }

  auto it = m_segs.find(seg);
  SegInfo& info = it->second;
  if (retriesExceeded(m_opts.retriesCountStallsOnly ? info.stalls : info.retx + 1)) {
    // the segment leaves the retx queue; it is no longer in flight
    handleSegmentFailure(
      seg, strcat("Reached the maximum number of retries (", m_opts.retries, ") while retrieving segment #", seg),
      FetchErrc::RetriesExhausted);
    return;
  }
  transmit(seg, info, true);
}

void SegmentFetcher::transmit(uint64_t seg, SegInfo& info, bool isRetransmission)
{
  Name name = m_prefix;
  name.appendSegment(seg);
  Interest interest(std::move(name));
  interest.setMustBeFresh(m_opts.mustBeFresh).setLifetime(m_opts.lifetime);
  info.nonce = m_env.rng().next32();
  interest.setNonce(info.nonce);
  // The tag's window bounds the bundle a link may send for this Interest: never past the
  // final segment once it is known.
  uint64_t tagCwnd = static_cast<uint64_t>(std::max(1.0, std::floor(m_ctl->cwnd())));
  if (m_lastSeg && *m_lastSeg >= seg)
    tagCwnd = std::min<uint64_t>(tagCwnd, *m_lastSeg - seg + 1);
  interest.tags.bundle = BundleTag{isRetransmission, static_cast<uint32_t>(std::min<uint64_t>(tagCwnd, UINT32_MAX))};

  if (!isRetransmission || info.state == SegState::InRetxQueue)
    ++m_inFlight; // a new segment, or back from the retx queue (Backoff still counts as in flight)
  info.state = SegState::InFlight;
  info.lastSent = m_env.now();
  info.rto = m_rtt.rto();
  ++m_stats.interestsSent;
  if (isRetransmission) {
    ++info.retx;
    ++m_stats.retransmissions;
  }
  const uint64_t previous = std::exchange(info.transmission, m_ctl->onInterestSent(seg, isRetransmission));
  m_pipeline->onSent(seg, previous, info.transmission);
  m_env.emit({EventKind::FetchInterest, 0, isRetransmission ? "retx" : "", static_cast<int64_t>(seg), 0});
  m_ep.expressInterest(interest);
}

void SegmentFetcher::checkTimeouts()
{
  if (m_state != State::Fetching)
    return;
  m_pipeline->scanTimeouts(m_env.now());

  if (m_state == State::Fetching) {
    m_checkTimer = m_env.timers().schedule(m_opts.rtoCheckInterval, [this] {
      m_checkTimer = 0;
      checkTimeouts();
    });
  }
}

void SegmentFetcher::leaveFlight(const SegInfo& info)
{
  if (info.state == SegState::InFlight || info.state == SegState::Backoff)
    --m_inFlight;
  if (info.state == SegState::InFlight)
    m_pipeline->onLeaveFlight(info.transmission);
}

void SegmentFetcher::enqueueForRetransmission(uint64_t seg, SegInfo& info)
{
  leaveFlight(info);
  info.state = SegState::InRetxQueue;
  m_retxQueue.push_back(seg);
}

void SegmentFetcher::handleSegmentFailure(uint64_t seg, const std::string& reason, FetchErrc code)
{
  if (m_state != State::Fetching)
    return;

  if (m_lastSeg && seg <= *m_lastSeg) {
    fail(code, reason);
    return;
  }
  auto it = m_segs.find(seg);
  if (m_lastSeg) { // beyond the end: just forget it
    if (it != m_segs.end())
      eraseSegment(it);
    return;
  }

  if (it != m_segs.end())
    eraseSegment(it);
  cancelSegmentsAfter(seg);
  if (!m_hasFailure || seg < m_failedSeg) {
    m_failedSeg = seg;
    m_failureReason = reason;
    m_failureCode = code;
  }
  m_hasFailure = true;
  if (m_segs.empty())
    failNoFinalBlock();
}

void SegmentFetcher::failNoFinalBlock()
{
  fail(FetchErrc::NoFinalBlock,
       strcat("Fetching terminated but no final segment number has been found (", m_failureReason, ")"));
}

void SegmentFetcher::eraseSegment(std::map<uint64_t, SegInfo>::iterator it)
{
  leaveFlight(it->second);
  if (it->second.backoffTimer)
    m_env.timers().cancel(it->second.backoffTimer);
  m_segs.erase(it);
}

void SegmentFetcher::cancelSegmentsAfter(uint64_t seg)
{
  auto it = m_segs.upper_bound(seg);
  while (it != m_segs.end()) {
    auto next = std::next(it);
    eraseSegment(it);
    it = next;
  }
  // buffered segments beyond the end cannot be part of the content
  m_delivery.dropAfter(seg);
}

void SegmentFetcher::deliver(uint64_t seg, const Data& data)
{
  m_delivery.add(seg, data, [this](const Data& d) {
    if (onBytes)
      onBytes(d.content());
    return m_state == State::Fetching;
  });
}

void SegmentFetcher::emitCwnd()
{
  m_env.emit({EventKind::FetchCwnd, 0, {}, 0, m_ctl->cwnd()});
}

void SegmentFetcher::finish()
{
  m_state = State::Done;
  m_stats.elapsed = m_env.now() - m_pipelineStart;
  cancelTimers();
  m_env.emit({EventKind::FetchDone, 0, {}, static_cast<int64_t>(m_stats.bytes.count()), toSeconds(m_stats.elapsed)});
  NDNLAB_LOG(m_env, LogLevel::Info, kModule, "done: ", m_stats.segments, " segments, ", m_stats.bytes.count(),
             " bytes");
  if (onComplete)
    onComplete();
}

void SegmentFetcher::fail(FetchErrc code, std::string message)
{
  if (m_state == State::Done || m_state == State::Failed || m_state == State::Stopped)
    return;
  if (m_state == State::Fetching)
    m_stats.elapsed = m_env.now() - m_pipelineStart;
  m_state = State::Failed;
  cancelTimers();
  m_env.emit(
    {EventKind::FetchFail, 0, toString(code), static_cast<int64_t>(m_stats.bytes.count()), toSeconds(m_stats.elapsed)});
  NDNLAB_LOG(m_env, LogLevel::Info, kModule, "failed: ", message);
  if (onError)
    onError(FetchError{code, std::move(message)});
}

FetchStats SegmentFetcher::stats() const
{
  FetchStats s = m_stats;
  if (m_state == State::Fetching)
    s.elapsed = m_env.now() - m_pipelineStart;
  if (m_ctl) {
    s.cwnd = m_ctl->cwnd();
    m_pipeline->addStats(s);
  }
  s.rttSamples = m_rtt.sampleCount();
  s.rttMin = m_rtt.minRtt();
  s.rttAvg = m_rtt.avgRtt();
  s.rttMax = m_rtt.maxRtt();
  s.rto = m_rtt.rto();
  return s;
}

} // namespace ndnlab::app
