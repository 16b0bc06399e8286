#include "core/app/perf-client.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndnlab::app {

namespace {

constexpr std::string_view kModule = "perf-client";
constexpr int kStatsTries = 3;
constexpr size_t kMaxFlows = 128;
constexpr size_t kMaxPayload = 8400; // PerfServer's bound: the Data must fit 8800 octets

/// Counters of `now` minus those of `before`; the running figures (jitter, RTT, Cefore's,
/// cwnd) as they are `now`.
PerfFlowStats minus(const PerfFlowStats& now, const PerfFlowStats& before)
{
  PerfFlowStats d = now;
  d.bytes -= before.bytes;
  d.segments -= before.segments;
  d.interests -= before.interests;
  d.retransmissions -= before.retransmissions;
  d.timeouts -= before.timeouts;
  d.lost -= before.lost;
  d.nacks -= before.nacks;
  d.marks -= before.marks;
  return d;
}

/// Counters summed, RTT min/max over the flows and the mean weighted by samples, jitter the
/// mean over the flows that have samples (as iperf3 sums its streams' jitter).
PerfFlowStats sumOf(const std::vector<PerfFlowStats>& flows)
{
  PerfFlowStats s;
  double rttSum = 0;
  double jitterSum = 0;
  size_t jitterFlows = 0;
  for (const PerfFlowStats& f : flows) {
    s.bytes += f.bytes;
    s.segments += f.segments;
    s.interests += f.interests;
    s.retransmissions += f.retransmissions;
    s.timeouts += f.timeouts;
    s.lost += f.lost;
    s.nacks += f.nacks;
    s.marks += f.marks;
    s.cwnd += f.cwnd;
    s.frames += f.frames;
    if (f.rttSamples > 0) {
      s.rttMin = s.rttSamples == 0 ? f.rttMin : std::min(s.rttMin, f.rttMin);
      s.rttMax = std::max(s.rttMax, f.rttMax);
      s.rttSamples += f.rttSamples;
      rttSum += static_cast<double>(f.rttAvg.count()) * static_cast<double>(f.rttSamples);
    }
    if (f.jitterSamples > 0) {
      jitterSum += f.jitterMs;
      ++jitterFlows;
      s.jitterSamples += f.jitterSamples;
    }
  }
  if (s.rttSamples > 0)
    s.rttAvg = Duration(static_cast<int64_t>(rttSum / static_cast<double>(s.rttSamples)));
  if (jitterFlows > 0)
    s.jitterMs = jitterSum / static_cast<double>(jitterFlows);
  return s;
}

void setInterarrival(PerfFlowStats& s, const perf::CeforeInterarrival& c)
{
  s.frames = c.frames();
  s.interarrivalAveUs = c.averageUs();
  s.interarrivalMaxUs = c.maxUs();
  s.interarrivalVarUs2 = c.varianceUs2();
}

} // namespace

void PerfClientOptions::validate() const
{
  if (bitrate == 0)
    fetch.validate();
  if (fetch.lifetime <= Duration::zero())
    throw std::invalid_argument("Interest lifetime must be positive");
  if (bytes == 0 && duration <= Duration::zero())
    throw std::invalid_argument("the test needs a positive duration (-t) or a byte count (-n)");
  if (interval < Duration::zero())
    throw std::invalid_argument("the interval must not be negative");
  if (parallel < 1 || parallel > kMaxFlows)
    throw std::invalid_argument(strcat("parallel flows must be in [1, ", kMaxFlows, "]"));
  if (payload < perf::HeaderSize || payload > kMaxPayload)
    throw std::invalid_argument(strcat("payload must be in [", perf::HeaderSize, ", ", kMaxPayload, "] bytes"));
  if (bitrate > 0 && static_cast<double>(bitrate) / (8.0 * static_cast<double>(payload)) > 1e9)
    throw std::invalid_argument("bitrate asks for more than 10^9 Interests per second");
  if (statsTimeout <= Duration::zero())
    throw std::invalid_argument("stats timeout must be positive");
}

/// A flow's view of the client's endpoint: the flow's engine sends through it, and the client
/// hands it the packets whose names belong to the flow.
class PerfClient::FlowEndpoint final : public Endpoint
{
public:
  explicit FlowEndpoint(Endpoint& up) : m_up(up) {}
  void expressInterest(const Interest& i) override { m_up.expressInterest(i); }
  void putData(const Data& d) override { m_up.putData(d); }
  void putNack(const Nack& n) override { m_up.putNack(n); }

private:
  Endpoint& m_up;
};

struct PerfClient::Flow
{
  explicit Flow(Endpoint& up) : ep(up) {}

  FlowEndpoint ep;
  Name name;
  uint64_t total = 0; ///< content bytes; 0 = endless
  std::unique_ptr<SegmentFetcher> fetcher;
  std::unique_ptr<ConstantRateConsumer> cbr;
  bool finished = false;
  uint64_t resolved = 0; ///< paced: Interests answered, Nacked or timed out
  uint64_t bytes = 0;
  uint64_t segments = 0;
  uint64_t marks = 0;
  perf::InterarrivalJitter jitter;
  perf::CeforeInterarrival arrivals;
  // paced: RTT of the answered Interests
  uint64_t rttSamples = 0;
  Duration rttMin{0};
  Duration rttMax{0};
  double rttSumNs = 0;
};

PerfClient::PerfClient(Env& env, Endpoint& endpoint, Options opts) : m_env(env), m_ep(endpoint), m_opts(std::move(opts))
{
  m_opts.validate();
  m_ep.onData = [this](const Data& d) { handleData(d); };
  m_ep.onNack = [this](const Nack& n) { handleNack(n); };
}

PerfClient::~PerfClient()
{
  cancelTimers();
  m_ep.onData = nullptr;
  m_ep.onNack = nullptr;
}

void PerfClient::start(const Name& prefix)
{
  if (m_phase != Phase::Idle)
    throw std::logic_error("PerfClient::start called twice");
  m_prefix = prefix;
  m_session = m_env.rng().next64();
  m_start = m_env.now();
  if (cpuTimes)
    m_cpuAtStart = cpuTimes();
  m_phase = Phase::Running;
  m_report.session = m_session;
  m_report.prefix = prefix;
  m_report.mode = std::string(m_opts.mode());
  m_report.pipeline = m_opts.bitrate > 0 ? "cbr" : m_opts.fetch.pipeline;

  const uint64_t n = m_opts.parallel;
  for (uint64_t i = 0; i < n; ++i) {
    auto f = std::make_unique<Flow>(m_ep);
    if (m_opts.bytes > 0)
      f->total = m_opts.bytes / n + (i < m_opts.bytes % n ? 1 : 0);
    f->name = perf::flowName(prefix, m_session, i, m_opts.payload, f->total);
    m_flows.push_back(std::move(f));
  }
  m_atLastInterval.assign(n, PerfFlowStats{});

  // the end first: at a time shared with an interval boundary, the test ends before that
  // interval closes, and the end closes it (once)
  if (m_opts.bytes == 0)
    m_endTimer = m_env.timers().schedule(m_opts.duration, [this] {
      m_endTimer = 0;
      endTest();
    });
  if (m_opts.interval > Duration::zero())
    m_intervalTimer = m_env.timers().schedule(m_opts.interval, [this] {
      m_intervalTimer = 0;
      closeInterval(false);
    });
  NDNLAB_LOG(m_env, LogLevel::Info, kModule, "session ", perf::sessionText(m_session), ": ", n, " flow(s) under ",
             prefix, ", ", m_opts.mode());

  for (auto& fp : m_flows) {
    Flow& f = *fp;
    if (f.total == 0 && m_opts.bytes > 0) { // more flows than bytes: nothing to fetch
      f.finished = true;
      continue;
    }
    if (m_opts.bitrate > 0) {
      ConstantRateConsumerOptions c;
      c.frequency = static_cast<double>(m_opts.bitrate) / (8.0 * static_cast<double>(m_opts.payload));
      c.lifetime = m_opts.fetch.lifetime;
      c.maxCount = f.total > 0 ? (f.total + m_opts.payload - 1) / m_opts.payload : 0;
      c.mustBeFresh = m_opts.fetch.mustBeFresh;
      f.cbr = std::make_unique<ConstantRateConsumer>(m_env, f.ep, c);
      // onResolved comes before onData for a Data: the check for the end waits for the
      // Data's bytes
      auto afterResolved = [this, &f] {
        if (f.cbr->options().maxCount > 0 && f.resolved >= f.cbr->options().maxCount && !f.finished) {
          f.finished = true;
          flowFinished();
        }
        else if (m_phase == Phase::Draining && allResolved()) {
          drain();
        }
      };
      f.cbr->onData = [&f, afterResolved](uint64_t, Duration rtt, ByteSpan content) {
        ++f.segments;
        f.bytes += content.size();
        f.rttMin = f.rttSamples == 0 ? rtt : std::min(f.rttMin, rtt);
        f.rttMax = std::max(f.rttMax, rtt);
        f.rttSumNs += static_cast<double>(rtt.count());
        ++f.rttSamples;
        afterResolved();
      };
      f.cbr->onResolved = [&f, afterResolved](TimePoint, bool answered) {
        ++f.resolved;
        if (!answered)
          afterResolved();
      };
    }
    else {
      SegmentFetcherOptions fo = m_opts.fetch;
      fo.discovery = VersionDiscovery::None;
      f.fetcher = std::make_unique<SegmentFetcher>(m_env, f.ep, fo);
      // a Data for a segment past the flow's end (a server that answers beyond its FinalBlockId,
      // or leaves it out) is not the flow's: not counted (fuzz-perf found it counted)
      const uint64_t segmentsOfFlow = f.total > 0 ? (f.total + m_opts.payload - 1) / m_opts.payload : 0;
      f.fetcher->onSegment = [&f, segmentsOfFlow](const SegmentEvent& ev) {
        if (segmentsOfFlow > 0 && ev.segment >= segmentsOfFlow)
          return;
        ++f.segments;
        f.bytes += ev.size.count();
      };
      f.fetcher->onComplete = [this, &f] {
        f.finished = true;
        flowFinished();
      };
      f.fetcher->onError = [this](const FetchError& e) {
        if (!m_report.error)
          m_report.error = e.message;
        if (m_phase == Phase::Running)
          endTest();
      };
    }
  }
  for (auto& fp : m_flows) {
    if (m_phase != Phase::Running)
      break;
    if (fp->cbr)
      fp->cbr->start(fp->name);
    else if (fp->fetcher)
      fp->fetcher->start(fp->name);
  }
  if (m_phase == Phase::Running && m_opts.bytes > 0)
    flowFinished(); // every flow may be empty
}

void PerfClient::flowFinished()
{
  if (m_phase != Phase::Running)
    return;
  for (const auto& f : m_flows) {
    if (!f->finished)
      return;
  }
  endTest();
}

void PerfClient::handleData(const Data& data)
{
  if (m_phase == Phase::Stats && data.name() == perf::statsName(m_prefix, m_session)) {
    ByteSpan c = data.content();
    auto r = perf::decodeServerReport(std::string_view(reinterpret_cast<const char*>(c.data()), c.size()));
    if (!r)
      NDNLAB_LOG(m_env, LogLevel::Warn, kModule, "malformed stats reply from the server DROP");
    m_report.server = r;
    done();
    return;
  }
  if (m_phase != Phase::Running && m_phase != Phase::Draining)
    return;
  auto req = perf::parseRequest(m_prefix, data.name());
  if (!req || req->stats || req->session != m_session || req->flow >= m_flows.size())
    return; // not ours
  Flow& f = *m_flows[req->flow];
  if (m_phase == Phase::Draining && !f.cbr)
    return; // a stopped fetch: what comes after the test is not measured
  recordArrival(f, data);
  f.ep.deliverData(data);
}

void PerfClient::handleNack(const Nack& nack)
{
  if (m_phase == Phase::Stats) {
    if (nack.interest.name() == perf::statsName(m_prefix, m_session) && nack.interest.nonce() == m_statsNonce) {
      m_env.timers().cancel(std::exchange(m_statsTimer, 0));
      askStats(); // the next try, or none
    }
    return;
  }
  if (m_phase != Phase::Running && m_phase != Phase::Draining)
    return;
  auto req = perf::parseRequest(m_prefix, nack.interest.name());
  if (!req || req->stats || req->session != m_session || req->flow >= m_flows.size())
    return;
  m_flows[req->flow]->ep.deliverNack(nack);
}

void PerfClient::recordArrival(Flow& f, const Data& data)
{
  const Duration arrival = m_env.now().time_since_epoch();
  if (data.tags.congestionMark > 0)
    ++f.marks;
  f.arrivals.add(arrival);
  m_allArrivals.add(arrival);
  if (auto sent = perf::readTimestamp(data.content()))
    f.jitter.add(arrival, *sent);
}

PerfFlowStats PerfClient::flowStats(size_t i) const
{
  const Flow& f = *m_flows.at(i);
  PerfFlowStats s;
  s.bytes = f.bytes;
  s.segments = f.segments;
  s.marks = f.marks;
  s.jitterMs = f.jitter.jitterMs();
  s.jitterSamples = f.jitter.samples();
  setInterarrival(s, f.arrivals);
  if (f.fetcher) {
    const FetchStats fs = f.fetcher->stats();
    s.interests = fs.interestsSent;
    s.retransmissions = fs.retransmissions;
    s.timeouts = fs.timeouts;
    s.nacks = fs.nacks;
    s.lost = fs.timeouts + fs.lostByOrder + fs.nacks;
    s.rttSamples = fs.rttSamples;
    s.rttMin = fs.rttMin;
    s.rttAvg = fs.rttAvg;
    s.rttMax = fs.rttMax;
    s.cwnd = fs.cwnd;
  }
  else if (f.cbr) {
    const auto& c = f.cbr->counters();
    s.interests = c.interestsSent;
    s.timeouts = c.timeouts;
    s.nacks = c.nacks;
    s.lost = c.timeouts + c.nacks;
    s.rttSamples = f.rttSamples;
    s.rttMin = f.rttMin;
    s.rttMax = f.rttMax;
    if (f.rttSamples > 0)
      s.rttAvg = Duration(static_cast<int64_t>(f.rttSumNs / static_cast<double>(f.rttSamples)));
  }
  return s;
}

PerfFlowStats PerfClient::sumStats() const
{
  std::vector<PerfFlowStats> flows;
  for (size_t i = 0; i < m_flows.size(); ++i)
    flows.push_back(flowStats(i));
  PerfFlowStats s = sumOf(flows);
  setInterarrival(s, m_allArrivals);
  return s;
}

void PerfClient::closeInterval(bool last)
{
  const Duration end = m_env.now() - m_start;
  if (!last && m_opts.interval > Duration::zero() && m_phase == Phase::Running)
    m_intervalTimer = m_env.timers().schedule(m_opts.interval, [this] {
      m_intervalTimer = 0;
      closeInterval(false);
    });
  if (end <= m_lastBoundary)
    return;
  PerfInterval iv;
  iv.start = m_lastBoundary;
  iv.end = end;
  for (size_t i = 0; i < m_flows.size(); ++i) {
    PerfFlowStats now = flowStats(i);
    iv.flows.push_back(minus(now, m_atLastInterval[i]));
    m_atLastInterval[i] = now;
  }
  iv.sum = sumOf(iv.flows);
  setInterarrival(iv.sum, m_allArrivals);
  m_lastBoundary = end;
  m_report.intervals.push_back(iv);
  if (onInterval)
    onInterval(m_report.intervals.back());
}

void PerfClient::endTest()
{
  if (m_phase != Phase::Running)
    return;
  m_phase = Phase::Draining;
  m_report.elapsed = m_env.now() - m_start;
  if (m_endTimer)
    m_env.timers().cancel(std::exchange(m_endTimer, 0));
  if (m_intervalTimer)
    m_env.timers().cancel(std::exchange(m_intervalTimer, 0));
  if (m_opts.interval > Duration::zero())
    closeInterval(true);
  for (auto& f : m_flows) {
    if (f->fetcher)
      f->fetcher->stop();
    if (f->cbr)
      f->cbr->stopSending();
  }
  if (m_opts.bitrate > 0 && !allResolved()) {
    // the paced Interests in flight still end in Data, Nack or timeout: wait for them, so each
    // Interest sent is either received or lost
    m_drainTimer = m_env.timers().schedule(m_opts.fetch.lifetime + std::chrono::milliseconds(1), [this] {
      m_drainTimer = 0;
      drain();
    });
    return;
  }
  drain();
}

bool PerfClient::allResolved() const
{
  for (const auto& f : m_flows) {
    if (f->cbr && f->resolved < f->cbr->counters().interestsSent)
      return false;
  }
  return true;
}

void PerfClient::finishNow()
{
  if (m_phase == Phase::Running)
    endTest();
  else if (m_phase == Phase::Draining)
    drain();
}

void PerfClient::drain()
{
  if (m_phase != Phase::Draining)
    return;
  if (m_drainTimer)
    m_env.timers().cancel(std::exchange(m_drainTimer, 0));
  for (auto& f : m_flows) {
    if (f->cbr)
      f->cbr->stop();
  }
  m_phase = Phase::Stats;
  for (size_t i = 0; i < m_flows.size(); ++i)
    m_report.flows.push_back(flowStats(i));
  m_report.sum = sumOf(m_report.flows);
  setInterarrival(m_report.sum, m_allArrivals);
  if (cpuTimes && m_cpuAtStart) {
    const perf::CpuTimes now = cpuTimes();
    m_report.cpu = perf::CpuTimes{now.user - m_cpuAtStart->user, now.system - m_cpuAtStart->system};
  }
  askStats();
}

void PerfClient::askStats()
{
  if (m_statsTries >= kStatsTries) {
    NDNLAB_LOG(m_env, LogLevel::Warn, kModule, "no stats reply from the server after ", kStatsTries, " Interests");
    done();
    return;
  }
  ++m_statsTries;
  Interest i(perf::statsName(m_prefix, m_session));
  i.setMustBeFresh(true).setLifetime(m_opts.statsTimeout);
  m_statsNonce = m_env.rng().next32();
  i.setNonce(m_statsNonce);
  m_statsTimer = m_env.timers().schedule(m_opts.statsTimeout, [this] {
    m_statsTimer = 0;
    askStats();
  });
  m_ep.expressInterest(i);
}

void PerfClient::done()
{
  if (m_phase == Phase::Done)
    return;
  m_phase = Phase::Done;
  cancelTimers();
  if (onDone)
    onDone(m_report);
}

void PerfClient::stop()
{
  m_phase = Phase::Done;
  cancelTimers();
  for (auto& f : m_flows) {
    if (f->fetcher)
      f->fetcher->stop();
    if (f->cbr)
      f->cbr->stop();
  }
}

void PerfClient::cancelTimers()
{
  auto& t = m_env.timers();
  for (TimerId* id : {&m_endTimer, &m_intervalTimer, &m_drainTimer, &m_statsTimer}) {
    if (*id)
      t.cancel(std::exchange(*id, 0));
  }
}

} // namespace ndnlab::app
