#include "core/app/perf-server.hpp"

#include <stdexcept>

namespace ndnlab::app {

namespace {
constexpr std::string_view kModule = "perf-server";
/// Room for the name, metadata and signature within an 8800-octet packet.
constexpr size_t kMaxPayload = 8400;
} // namespace

void PerfServerOptions::validate() const
{
  if (maxPayload < 1 || maxPayload > kMaxPayload)
    throw std::invalid_argument(strcat("max payload must be in [1, ", kMaxPayload, "] bytes"));
  if (freshness < Duration::zero())
    throw std::invalid_argument("freshness must not be negative");
  if (maxSessions == 0)
    throw std::invalid_argument("the server must keep at least one session");
}

PerfServer::PerfServer(Env& env, Endpoint& endpoint, Name prefix, const security::Signer& signer, Options opts)
  : m_env(env), m_ep(endpoint), m_prefix(std::move(prefix)), m_signer(signer), m_opts((opts.validate(), opts))
{
  m_ep.onInterest = [this](const Interest& i) { handleInterest(i); };
}

PerfServer::~PerfServer()
{
  m_ep.onInterest = nullptr;
}

PerfServer::Session& PerfServer::session(uint64_t id)
{
  auto it = m_sessions.find(id);
  if (it != m_sessions.end())
    return it->second;
  while (m_sessions.size() >= m_opts.maxSessions && !m_sessionOrder.empty()) {
    m_sessions.erase(m_sessionOrder.front());
    m_sessionOrder.pop_front();
  }
  ++m_counters.sessions;
  m_sessionOrder.push_back(id);
  Session& s = m_sessions[id];
  s.start = m_env.now();
  if (cpuTimes)
    s.cpuAtStart = cpuTimes();
  return s;
}

void PerfServer::handleInterest(const Interest& interest)
{
  if (!m_prefix.isPrefixOf(interest.name())) {
    ++m_counters.ignored;
    return;
  }
  ++m_counters.interests;
  auto req = perf::parseRequest(m_prefix, interest.name());
  if (!req) {
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, "not a perf request: ", interest.name(), " DROP");
    nack(interest, m_counters.malformed, nullptr);
    return;
  }
  Session& s = session(req->session);
  ++s.interests;
  if (req->stats) {
    answerStats(interest, req->session, s);
    return;
  }
  if (req->payload > m_opts.maxPayload || req->payload == 0) {
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, "payload ", req->payload, " outside [1, ", m_opts.maxPayload,
               "]: ", interest.name(), " DROP");
    nack(interest, m_counters.tooLarge, &s);
    return;
  }

  // the segment's content: `payload` bytes, or what the flow's total leaves for its last one
  size_t size = req->payload;
  std::optional<uint64_t> last;
  if (req->total > 0) {
    last = (req->total - 1) / req->payload;
    if (req->segment > *last) {
      NDNLAB_LOG(m_env, LogLevel::Debug, kModule, "segment beyond the flow's end: ", interest.name(), " DROP");
      nack(interest, m_counters.beyondEnd, &s);
      return;
    }
    if (req->segment == *last)
      size = static_cast<size_t>(req->total - *last * req->payload);
  }

  Data data(interest.name());
  data.setFreshnessPeriod(m_opts.freshness);
  if (last) {
    Name end;
    end.appendSegment(*last);
    data.setFinalBlockId(end[0]);
  }
  auto content = std::make_shared<Buffer>(size);
  perf::writeHeader(content->data(), content->size(), m_env.now().time_since_epoch(), req->segment);
  data.setContent(SharedBuffer(std::move(content)));
  security::signData(data, m_signer);
  data.tags.pitToken = interest.tags.pitToken;
  ++m_counters.data;
  m_counters.bytes += size;
  ++s.data;
  s.bytes += size;
  if (s.flows.size() < perf::MaxReportedFlows || s.flows.count(req->flow) > 0) {
    auto& flow = s.flows[req->flow];
    ++flow.data;
    flow.bytes += size;
  }
  m_ep.putData(data);
}

void PerfServer::answerStats(const Interest& interest, uint64_t id, Session& s)
{
  perf::ServerReport r;
  r.interests = s.interests;
  r.data = s.data;
  r.bytes = s.bytes;
  r.nacks = s.nacks;
  r.flows = s.flows;
  r.elapsed = m_env.now() - s.start;
  if (cpuTimes && s.cpuAtStart) {
    const perf::CpuTimes now = cpuTimes();
    r.cpu = perf::CpuTimes{now.user - s.cpuAtStart->user, now.system - s.cpuAtStart->system};
  }
  Data data(interest.name());
  data.setFreshnessPeriod(Duration::zero());
  const std::string text = perf::encodeServerReport(r);
  data.setContent(ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  security::signData(data, m_signer);
  data.tags.pitToken = interest.tags.pitToken;
  ++m_counters.statsSent;
  m_ep.putData(data);
  if (onSessionStats)
    onSessionStats(id, r);
}

void PerfServer::nack(const Interest& interest, uint64_t& reasonCounter, Session* s)
{
  ++reasonCounter;
  ++m_counters.nacks;
  if (s != nullptr)
    ++s->nacks;
  m_ep.putNack(Nack{interest, NackReason::None});
}

} // namespace ndnlab::app
