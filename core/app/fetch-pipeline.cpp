#include "core/app/fetch-pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace ndnlab::app {

namespace {
constexpr std::string_view kModule = "fetcher";
} // namespace

// --- fixed: ndncatchunks' DataFetcher -------------------------------------------------------------

class FixedPipeline final : public FetchPipeline
{
public:
  using FetchPipeline::FetchPipeline;

  void onData(uint64_t seg, Segment& info, Duration rtt, const Data& data) override;
  void onNack(uint64_t seg, Segment& info, const Nack& nack, const std::string& reason) override;
  void scanTimeouts(TimePoint now) override;
};

void FixedPipeline::onData(uint64_t, Segment&, Duration, const Data& data)
{
  if (data.tags.congestionMark > 0)
    ++m_f.m_stats.marks;
}

void FixedPipeline::onNack(uint64_t seg, Segment& info, const Nack& nack, const std::string& reason)
{
  ++info.nackRetries;
  if (m_f.retriesExceeded(info.nackRetries)) {
    m_f.handleSegmentFailure(seg,
                             strcat("Reached the maximum number of nack retries (", m_f.m_opts.retries,
                                    ") while retrieving data for ", nack.interest.name().toUri()),
                             FetchErrc::RetriesExhausted);
    return;
  }
  switch (nack.reason) {
    case NackReason::Duplicate: m_f.transmit(seg, info, true); break;
    case NackReason::Congestion: {
      Duration backoff = std::chrono::milliseconds(uint64_t{1} << std::min<uint32_t>(info.congestionBackoffs, 20));
      if (backoff >= MaxCongestionBackoff)
        backoff = MaxCongestionBackoff;
      else
        ++info.congestionBackoffs;
      info.state = SegmentFetcher::SegState::Backoff;
      SegmentFetcher& f = m_f;
      info.backoffTimer = f.m_env.timers().schedule(backoff, [&f, seg] {
        auto i = f.m_segs.find(seg);
        if (i == f.m_segs.end() || f.m_state != SegmentFetcher::State::Fetching)
          return;
        i->second.backoffTimer = 0;
        f.transmit(seg, i->second, true);
      });
      break;
    }
    default: m_f.handleSegmentFailure(seg, reason, FetchErrc::Nack); break;
  }
}

void FixedPipeline::scanTimeouts(TimePoint now)
{
  std::vector<uint64_t> expired;
  for (auto& [seg, info] : m_f.m_segs) {
    if (info.state == SegmentFetcher::SegState::InFlight && now - info.lastSent >= m_f.m_opts.lifetime)
      expired.push_back(seg);
  }
  for (uint64_t seg : expired) {
    if (m_f.m_state != SegmentFetcher::State::Fetching)
      return;
    auto it = m_f.m_segs.find(seg);
    if (it == m_f.m_segs.end())
      continue;
    ++m_f.m_stats.timeouts;
    m_f.m_env.emit({EventKind::FetchTimeout, 0, {}, static_cast<int64_t>(seg), toSeconds(now - it->second.lastSent)});
    ++it->second.timeoutRetries;
    if (m_f.retriesExceeded(it->second.timeoutRetries)) {
      Name n = m_f.m_prefix;
      n.appendSegment(seg);
      m_f.handleSegmentFailure(seg,
                               strcat("Reached the maximum number of timeout retries (", m_f.m_opts.retries,
                                      ") while retrieving data for ", n.toUri()),
                               FetchErrc::RetriesExhausted);
      continue;
    }
    m_f.transmit(seg, it->second, true);
  }
}

// --- adaptive: a congestion window moved by loss events ------------------------------------------

class AdaptivePipeline : public FetchPipeline
{
public:
  using FetchPipeline::FetchPipeline;

  void onSent(uint64_t seg, uint64_t previous, uint64_t transmission) override
  {
    m_sendOrder.erase(previous); // sent again: only its latest Interest counts
    m_sendOrder.emplace(transmission, seg);
  }
  void onLeaveFlight(uint64_t transmission) override { m_sendOrder.erase(transmission); }
  void onData(uint64_t seg, Segment& info, Duration rtt, const Data& data) override;
  void afterData() override;
  void onNack(uint64_t seg, Segment& info, const Nack& nack, const std::string& reason) override;
  void scanTimeouts(TimePoint now) override;
  void addStats(FetchStats& s) const override;

private:
  /// A loss event (segment, transmission: the highest affected).
  void recordLoss(uint64_t seg, uint64_t transmission);
  /// Rack: marks lost and queues every outstanding Interest sent more than the reorder window
  /// before the latest answered one; one loss event for them.
  void detectLossesByOrder();
  /// Rack + tailLossProbe: one probe when no Data arrived for a probe timeout.
  void probeTail(TimePoint now);
  /// Rack: the reorder window, reorderWindow x the minimum RTT times the multiplier, which
  /// segments answered too soon after their loss raise (RFC 8985 6.2 step 4; a raised window
  /// is at most SRTT).
  Duration reorderWindow() const;
  /// Rack: a segment declared lost by order answered too soon after (late Data, or a nearer
  /// cache's copy); with reorderAdapt the window widens, at most once per SRTT, for the next 16
  /// loss recoveries.
  void onLateOrderLoss(TimePoint now);

  std::map<uint64_t, uint64_t> m_sendOrder; ///< in flight: transmission -> segment
  // RACK state (RFC 8985 section 6): the latest-sent Interest answered so far
  uint64_t m_rackTransmission = 0;
  Duration m_rackRtt{0};
  TimePoint m_lastDataTime{};       ///< when the latest segment Data arrived
  bool m_probeUnanswered = false;   ///< a probe left and no Data arrived since: no second one
  uint32_t m_consecutiveStalls = 0; ///< timeout scans in a row that found the path silent
  // RFC 8985's adaptive reordering window (reo_wnd_mult, reo_wnd_persist)
  uint32_t m_reorderMult = 1;
  uint32_t m_reorderPersist = 0;
  std::optional<TimePoint> m_reorderRaised; ///< when the multiplier last grew
};

void AdaptivePipeline::onData(uint64_t seg, Segment& info, Duration rtt, const Data& data)
{
  const bool marked = data.tags.congestionMark > 0;
  const TimePoint now = m_f.m_env.now();
  m_lastDataTime = now;
  m_probeUnanswered = false;
  m_consecutiveStalls = 0;
  // a segment declared lost by order whose Data comes while its retransmission waits, or
  // sooner than any round trip after it left, was late, not lost (RFC 8985's DSACK case)
  if (info.lostByOrder &&
      (info.state == SegmentFetcher::SegState::InRetxQueue || (info.retx > 0 && rtt < m_f.m_rtt.minRtt())))
    onLateOrderLoss(now);
  info.lostByOrder = false;
  // RACK (RFC 8985 6.2): the latest-sent Interest answered; a retransmitted segment answered
  // sooner than the minimum RTT may be the answer to an earlier Interest, so it does not count.
  if (info.state == SegmentFetcher::SegState::InFlight && info.transmission > m_rackTransmission &&
      (info.retx == 0 || rtt >= m_f.m_rtt.minRtt())) {
    m_rackTransmission = info.transmission;
    m_rackRtt = rtt;
  }
  const double before = m_f.m_ctl->cwnd();
  m_f.m_ctl->onData(seg, marked, now, m_f.m_rtt.srtt(), info.retx == 0 ? std::optional<Duration>(rtt) : std::nullopt,
                    info.transmission);
  if (m_f.m_ctl->cwnd() != before)
    m_f.emitCwnd();
}

void AdaptivePipeline::afterData()
{
  if (m_f.m_opts.lossDetection == LossDetection::Rack)
    detectLossesByOrder();
}

void AdaptivePipeline::onNack(uint64_t seg, Segment& info, const Nack& nack, const std::string& reason)
{
  switch (nack.reason) {
    case NackReason::Duplicate: break; // the segment stays in flight until its RTO
    case NackReason::Congestion: {
      if (m_lastDataTime <= info.lastSent)
        ++info.stalls; // the path answers, but nothing of the fetch gets through
      const uint64_t transmission = info.transmission;
      m_f.enqueueForRetransmission(seg, info);
      recordLoss(seg, transmission);
      m_f.schedulePackets();
      break;
    }
    default:
      m_f.handleSegmentFailure(seg, reason, FetchErrc::Nack);
      m_f.next(); // its window slot is free for the segments waiting to be retransmitted
      break;
  }
}

void AdaptivePipeline::detectLossesByOrder()
{
  if (m_rackTransmission == 0)
    return;
  const TimePoint now = m_f.m_env.now();
  const Duration reorder = reorderWindow();
  uint64_t highSeg = 0;
  uint64_t highTransmission = 0;
  // m_sendOrder is in sending order, so the ages fall along it: stop at the first one too young.
  for (auto it = m_sendOrder.begin(); it != m_sendOrder.end() && it->first < m_rackTransmission;) {
    const uint64_t seg = it->second;
    Segment& info = m_f.m_segs.at(seg);
    const Duration age = now - info.lastSent;
    if (age < m_rackRtt + reorder)
      break;
    ++it; // enqueueForRetransmission erases this entry
    ++m_f.m_stats.lostByOrder;
    m_f.m_env.emit({EventKind::FetchLost, 0, {}, static_cast<int64_t>(seg), toSeconds(age)});
    highSeg = std::max(highSeg, seg);
    highTransmission = std::max(highTransmission, info.transmission);
    info.lostByOrder = true;
    m_f.enqueueForRetransmission(seg, info);
  }
  if (highTransmission > 0)
    recordLoss(highSeg, highTransmission);
}

Duration AdaptivePipeline::reorderWindow() const
{
  const auto window = std::chrono::duration_cast<Duration>(m_f.m_rtt.minRtt() * m_f.m_opts.reorderWindow);
  if (m_reorderMult == 1)
    return window;
  return std::min<Duration>(window * m_reorderMult, m_f.m_rtt.srtt());
}

void AdaptivePipeline::onLateOrderLoss(TimePoint now)
{
  ++m_f.m_stats.lateByOrder;
  if (!m_f.m_opts.reorderAdapt)
    return;
  if (m_reorderRaised && now - *m_reorderRaised < m_f.m_rtt.srtt())
    return; // once per round trip
  m_reorderRaised = now;
  ++m_reorderMult;
  m_reorderPersist = 16;
  m_f.m_env.emit(
    {EventKind::FetchReorderWindow, 0, {}, static_cast<int64_t>(m_reorderMult), toSeconds(reorderWindow())});
}

void AdaptivePipeline::scanTimeouts(TimePoint now)
{
  const SegmentFetcher::Options& opts = m_f.m_opts;
  cc::RttEstimator& rtt = m_f.m_rtt;
  const Duration scanRto = rtt.rto(); // the RTO in force, for rtoBackoffPerTimeout
  unsigned timedOut = 0;
  uint64_t highTimeoutSeg = 0;
  uint64_t highTimeoutTransmission = 0;
  bool stalled = false;                               // a timeout with no Data since its Interest left
  std::vector<std::pair<uint64_t, uint64_t>> expired; // lifetime expiries (segment, transmission): one loss event each
  for (auto& [seg, info] : m_f.m_segs) {
    if (info.state != SegmentFetcher::SegState::InFlight)
      continue;
    Duration elapsed = now - info.lastSent;
    if (elapsed > (opts.rtoBackoffPerTimeout ? scanRto : info.rto)) {
      ++timedOut;
      highTimeoutSeg = std::max(highTimeoutSeg, seg);
      highTimeoutTransmission = std::max(highTimeoutTransmission, info.transmission);
    }
    else if (elapsed >= opts.lifetime && !opts.rtoBackoffPerTimeout) {
      // ndnSIM's Consumer has no lifetime expiry: its RTO alone retransmits
      expired.emplace_back(seg, info.transmission);
    }
    else {
      continue;
    }
    if (m_lastDataTime <= info.lastSent)
      stalled = true;
    ++m_f.m_stats.timeouts;
    m_f.m_env.emit({EventKind::FetchTimeout, 0, {}, static_cast<int64_t>(seg), toSeconds(elapsed)});
    info.lostByOrder = false;
    m_f.enqueueForRetransmission(seg, info);
  }
  for (auto [seg, transmission] : expired)
    recordLoss(seg, transmission);
  if (timedOut > 0)
    recordLoss(highTimeoutSeg, highTimeoutTransmission);
  if (stalled && opts.lossDetection == LossDetection::Rack && !opts.rtoBackoffPerTimeout)
    rtt.backoffRto(); // every silent RTO, as TCP's, whether or not the window moved
  if (stalled && opts.retriesCountStallsOnly && m_f.retriesExceeded(++m_consecutiveStalls)) {
    const uint64_t seg = m_f.m_segs.begin()->first;
    m_f.handleSegmentFailure(seg,
                             strcat("Reached the maximum number of retries (", opts.retries,
                                    ") while retrieving segment #", seg, ": no Data for ", m_consecutiveStalls,
                                    " timeouts in a row"),
                             FetchErrc::RetriesExhausted);
    if (m_f.m_state != SegmentFetcher::State::Fetching)
      return;
  }
  if (opts.lossDetection == LossDetection::Rack) {
    detectLossesByOrder(); // the reorder window of the youngest candidates may have passed
    if (opts.tailLossProbe)
      probeTail(now);
  }
  if (opts.rtoBackoffPerTimeout) {
    constexpr unsigned kNdnsimMaxBackoffs = 6; // ndnSIM RttEstimator MaxMultiplier 64
    for (unsigned i = 0; i < timedOut && rtt.backoffsSinceSample() < kNdnsimMaxBackoffs; ++i)
      rtt.backoffRto();
  }
  if (timedOut > 0 || !expired.empty() || !m_f.m_retxQueue.empty())
    m_f.schedulePackets();
}

void AdaptivePipeline::probeTail(TimePoint now)
{
  if (m_f.m_state != SegmentFetcher::State::Fetching || m_sendOrder.empty() || m_f.m_rtt.sampleCount() == 0 ||
      m_probeUnanswered)
    return;
  // (Since a probe is sent only when Data came after the previous one, the quiet period starts
  // at the latest Data or the latest Interest.)
  const uint64_t latest = m_sendOrder.rbegin()->second;
  Segment& info = m_f.m_segs.at(latest);
  const Duration pto = std::max<Duration>(2 * m_f.m_rtt.srtt(), m_f.m_opts.rtoCheckInterval);
  if (now - std::max(m_lastDataTime, info.lastSent) < pto)
    return;
  const bool newSegment = m_f.canSendNew();
  if (!newSegment && now - info.lastSent < m_f.m_opts.retxHoldoff)
    return; // the forwarder would suppress it
  m_probeUnanswered = true;
  ++m_f.m_stats.probes;
  if (newSegment)
    m_f.sendInterest(m_f.m_nextSeg++, false);
  else
    m_f.transmit(latest, info, true);
}

void AdaptivePipeline::recordLoss(uint64_t seg, uint64_t transmission)
{
  if (m_f.m_ctl->onLoss(seg, m_f.m_env.now(), transmission)) {
    // one loss recovery: a raised reorder window returns to its base after 16 of them
    if (m_reorderMult > 1 && --m_reorderPersist == 0)
      m_reorderMult = 1;
    // A loss found while Data flow says nothing about the RTO; ndncatchunks backs it off on
    // every decrease.
    if (!m_f.m_opts.rtoBackoffPerTimeout && m_f.m_opts.lossDetection == LossDetection::Timeout)
      m_f.m_rtt.backoffRto(); // (Rack: scanTimeouts backs off on every silent scan)
    m_f.emitCwnd();
    NDNLAB_LOG(m_f.m_env, LogLevel::Debug, kModule, "loss event, cwnd ", m_f.m_ctl->cwnd(), " ssthresh ",
               m_f.m_ctl->window().ssthresh(), " rto ", toMillis(m_f.m_rtt.rto()), " ms");
  }
}

void AdaptivePipeline::addStats(FetchStats& s) const
{
  const auto& c = m_f.m_ctl->counters();
  s.marks = c.marks;
  s.markDecreases = c.markDecreases;
  s.lossDecreases = c.lossDecreases;
  s.hystartExits = c.hystartExits;
}

// --- rate: the explicit rate of MIRCC -----------------------------------------------------------

class RatePipeline final : public AdaptivePipeline
{
public:
  explicit RatePipeline(SegmentFetcher& fetcher);
  ~RatePipeline() override { stop(); }

  void onData(uint64_t seg, Segment& info, Duration rtt, const Data& data) override;
  void afterData() override;
  void onNack(uint64_t seg, Segment& info, const Nack& nack, const std::string& reason) override;
  void onSent(uint64_t seg, uint64_t previous, uint64_t transmission) override;
  std::optional<size_t> sendAllowance() const override { return m_allowance; }
  void stop() override;
  void addStats(FetchStats& s) const override
  {
    AdaptivePipeline::addStats(s);
    s.ratesHeard = m_ratesHeard;
    s.rateFinal = m_rate;
  }

private:
  /// The Interests whose send times have come by `now` become the allowance (those not sent
  /// by the next release are forfeited: a rate, not a debt), then the fetcher sends them.
  void release(TimePoint now);
  /// The clock: every rateTick, or (rateTick 0) at the next Interest's send time.
  void arm();
  void takeRate(const std::optional<Rate>& stamped, size_t dataBytes);
  Duration interval() const
  {
    return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(1.0 / m_rate));
  }

  double m_rate;          ///< Interests per second
  size_t m_dataBytes = 0; ///< wire size of the latest Data (to turn a Nack's rate into Interests)
  TimePoint m_nextDue;    ///< send time of the next Interest
  size_t m_allowance = 0;
  TimerId m_timer = 0;
  uint64_t m_ratesHeard = 0;
  TimePoint m_lastRate{}; ///< when the rate was last taken (rateRamp)
};

RatePipeline::RatePipeline(SegmentFetcher& fetcher)
  : AdaptivePipeline(fetcher), m_rate(fetcher.m_opts.rateInitial), m_nextDue(fetcher.m_env.now())
{
  release(m_f.m_env.now()); // the first Interest leaves at once, before the fetcher schedules
  arm();
}

void RatePipeline::stop()
{
  if (m_timer)
    m_f.m_env.timers().cancel(std::exchange(m_timer, 0));
}

void RatePipeline::arm()
{
  const Duration tick = m_f.m_opts.rateTick;
  const Duration wait = tick > Duration::zero() ? tick : std::max(m_nextDue - m_f.m_env.now(), Duration::zero());
  m_timer = m_f.m_env.timers().schedule(wait, [this] {
    m_timer = 0;
    if (m_f.m_state != SegmentFetcher::State::Fetching)
      return;
    release(m_f.m_env.now());
    m_f.schedulePackets();
    if (m_f.m_state == SegmentFetcher::State::Fetching)
      arm();
  });
}

void RatePipeline::release(TimePoint now)
{
  size_t due = 0;
  const Duration step = interval();
  // at most the Interests of one clock period plus one: a silent spell banks no burst
  const Duration period = std::max(m_f.m_opts.rateTick, step);
  const size_t cap = static_cast<size_t>(std::ceil(toSeconds(period) * m_rate)) + 1;
  while (m_nextDue <= now && due < cap) {
    ++due;
    m_nextDue += step;
  }
  if (m_nextDue <= now)
    m_nextDue = now + step;
  m_allowance = due;
}

void RatePipeline::onSent(uint64_t seg, uint64_t previous, uint64_t transmission)
{
  AdaptivePipeline::onSent(seg, previous, transmission);
  if (m_allowance > 0)
    --m_allowance;
}

void RatePipeline::takeRate(const std::optional<Rate>& stamped, size_t dataBytes)
{
  if (!stamped)
    return;
  ++m_ratesHeard;
  const size_t bytes = m_f.m_opts.rateDataSize > 0 ? m_f.m_opts.rateDataSize : dataBytes;
  if (bytes == 0)
    return;
  // Interests per second whose Data fit the stamped rate; at least one per second
  double target = std::max(stamped->bps() / (8.0 * static_cast<double>(bytes)), 1.0);
  const TimePoint now = m_f.m_env.now();
  const double srtt = toSeconds(m_f.m_rtt.srtt());
  if (m_f.m_opts.rateRamp && target > m_rate && srtt > 0) // up at most x2 per SRTT
    target = std::min(target, m_rate * std::exp2(toSeconds(now - m_lastRate) / srtt));
  m_lastRate = now;
  m_rate = target;
}

void RatePipeline::onData(uint64_t seg, Segment& info, Duration rtt, const Data& data)
{
  AdaptivePipeline::onData(seg, info, rtt, data);
  m_dataBytes = data.wireSize();
  takeRate(data.tags.mirccRate, m_dataBytes);
}

void RatePipeline::afterData()
{
  AdaptivePipeline::afterData();
  if (m_f.m_opts.rateSmoothening && m_f.m_opts.rateTick > Duration::zero())
    release(m_f.m_env.now()); // the fetcher's next() sends them
}

void RatePipeline::onNack(uint64_t seg, Segment& info, const Nack& nack, const std::string& reason)
{
  takeRate(nack.interest.tags.mirccRate, m_dataBytes);
  if (m_f.m_opts.rateSmoothening && m_f.m_opts.rateTick > Duration::zero())
    release(m_f.m_env.now());
  AdaptivePipeline::onNack(seg, info, nack, reason);
  m_f.schedulePackets();
}

std::unique_ptr<FetchPipeline> makeFetchPipeline(std::string_view pipeline, bool adaptive, SegmentFetcher& fetcher)
{
  if (pipeline == RatePipelineName)
    return std::make_unique<RatePipeline>(fetcher);
  if (adaptive)
    return std::make_unique<AdaptivePipeline>(fetcher);
  return std::make_unique<FixedPipeline>(fetcher);
}

} // namespace ndnlab::app
