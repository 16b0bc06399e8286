#include "core/app/ping.hpp"
#include "core/app/fetch-stats.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ndnlab::app {

void PingClientOptions::validate() const
{
  if (interval <= Duration::zero())
    throw std::invalid_argument("ping interval must be positive");
  if (timeout <= Duration::zero())
    throw std::invalid_argument("ping timeout must be positive");
}

double PingStats::rttMdevMs() const
{
  if (received == 0)
    return 0;
  double avg = rttAvgMs();
  double var = rttSumSqMs / static_cast<double>(received) - avg * avg;
  return var > 0 ? std::sqrt(var) : 0;
}

// --- client --------------------------------------------------------------------------------------

PingClient::PingClient(Env& env, Endpoint& endpoint, const Name& prefix, Options opts)
  : m_env(env), m_ep(endpoint), m_pingPrefix(prefix), m_opts(std::move(opts))
{
  m_opts.validate();
  m_pingPrefix.append("ping");
  if (!m_opts.clientId.empty())
    m_pingPrefix.append(m_opts.clientId);
  m_ep.onData = [this](const Data& d) { handleData(d); };
  m_ep.onNack = [this](const Nack& n) { handleNack(n); };
}

PingClient::~PingClient()
{
  stop();
  m_ep.onData = nullptr;
  m_ep.onNack = nullptr;
}

Name PingClient::makeName(uint64_t seq) const
{
  Name n = m_pingPrefix;
  n.append(std::to_string(seq));
  return n;
}

void PingClient::start()
{
  m_running = true;
  m_start = m_env.now();
  m_nextSeq = m_opts.startSeq ? *m_opts.startSeq : m_env.rng().next64() >> 1;
  sendPing();
}

void PingClient::stop()
{
  m_running = false;
  if (m_sendTimer)
    m_env.timers().cancel(std::exchange(m_sendTimer, 0));
  for (auto& [seq, p] : m_pending)
    m_env.timers().cancel(p.timer);
  m_pending.clear();
}

void PingClient::sendPing()
{
  m_sendTimer = 0;
  if (!m_running)
    return;
  if (m_opts.count > 0 && m_nSent >= m_opts.count)
    return;

  const uint64_t seq = m_nextSeq++;
  Interest interest(makeName(seq));
  interest.setMustBeFresh(!m_opts.allowStale).setLifetime(m_opts.timeout);
  uint32_t nonce = m_env.rng().next32();
  interest.setNonce(nonce);

  TimerId t = m_env.timers().schedule(m_opts.timeout, [this, seq] {
    auto it = m_pending.find(seq);
    if (it == m_pending.end())
      return;
    m_pending.erase(it);
    ++m_stats.timeouts;
    m_env.emit({EventKind::PingTimeout, 0, {}, static_cast<int64_t>(seq), 0});
    if (onTimeout)
      onTimeout(seq);
    resolved();
  });
  m_pending[seq] = Pending{m_env.now(), nonce, t};
  ++m_nSent;
  ++m_stats.sent;
  m_ep.expressInterest(interest);

  if (m_running && (m_opts.count == 0 || m_nSent < m_opts.count)) {
    m_sendTimer = m_env.timers().schedule(m_opts.interval, [this] { sendPing(); });
  }
}

std::optional<uint64_t> PingClient::seqOf(const Name& name) const
{
  if (name.size() != m_pingPrefix.size() + 1 || !m_pingPrefix.isPrefixOf(name))
    return std::nullopt;
  auto c = name[-1];
  if (!c.isGeneric() || c.value().empty() || c.value().size() > 20)
    return std::nullopt;
  uint64_t v = 0;
  for (uint8_t ch : c.value()) {
    if (ch < '0' || ch > '9')
      return std::nullopt;
    v = v * 10 + (ch - '0');
  }
  // only the name a ping of ours carried: no leading zero, no value that wrapped around
  if (makeName(v) != name)
    return std::nullopt;
  return v;
}

void PingClient::handleData(const Data& data)
{
  auto seq = seqOf(data.name());
  if (!seq)
    return;
  auto it = m_pending.find(*seq);
  if (it == m_pending.end())
    return;
  Duration rtt = m_env.now() - it->second.sent;
  m_env.timers().cancel(it->second.timer);
  m_pending.erase(it);

  ++m_stats.received;
  double ms = toMillis(rtt);
  if (m_stats.received == 1 || rtt < m_stats.rttMin)
    m_stats.rttMin = rtt;
  if (rtt > m_stats.rttMax)
    m_stats.rttMax = rtt;
  m_stats.rttSumMs += ms;
  m_stats.rttSumSqMs += ms * ms;
  m_env.emit({EventKind::PingReply, 0, {}, static_cast<int64_t>(*seq), toSeconds(rtt)});
  if (onReply)
    onReply(*seq, rtt);
  resolved();
}

void PingClient::handleNack(const Nack& nack)
{
  auto seq = seqOf(nack.interest.name());
  if (!seq)
    return;
  auto it = m_pending.find(*seq);
  if (it == m_pending.end() || nack.interest.nonce() != it->second.nonce)
    return;
  Duration rtt = m_env.now() - it->second.sent;
  m_env.timers().cancel(it->second.timer);
  m_pending.erase(it);
  ++m_stats.nacked;
  m_env.emit({EventKind::PingNack, 0, toString(nack.reason), static_cast<int64_t>(*seq), toSeconds(rtt)});
  if (onNackReply)
    onNackReply(*seq, rtt, nack.reason);
  resolved();
}

void PingClient::resolved()
{
  if (m_opts.count > 0 && m_nSent >= m_opts.count && m_pending.empty()) {
    m_running = false;
    if (onFinish)
      onFinish();
  }
}

// --- server --------------------------------------------------------------------------------------

void PingServerOptions::validate() const
{
  if (payloadSize > 8800)
    throw std::invalid_argument("ping payload size must be at most 8800");
  if (freshness < Duration::zero())
    throw std::invalid_argument("freshness must not be negative");
}

PingServer::PingServer(Env& env, Endpoint& endpoint, const Name& prefix, const security::Signer& signer, Options opts)
  : m_env(env), m_ep(endpoint), m_signer(signer), m_pingPrefix(prefix), m_opts(std::move(opts))
{
  m_opts.validate();
  m_pingPrefix.append("ping");
  m_payload = std::make_shared<const Buffer>(m_opts.payloadSize, static_cast<uint8_t>('a'));
  m_ep.onInterest = [this](const Interest& i) { handleInterest(i); };
}

PingServer::~PingServer()
{
  m_ep.onInterest = nullptr;
}

void PingServer::handleInterest(const Interest& interest)
{
  if (!m_pingPrefix.isPrefixOf(interest.name()) || interest.name().size() <= m_pingPrefix.size())
    return;
  if (m_opts.maxPings > 0 && m_answered >= m_opts.maxPings)
    return;

  Data data(interest.name());
  data.setFreshnessPeriod(m_opts.freshness);
  data.setContent(m_payload);
  security::signData(data, m_signer);
  data.tags.pitToken = interest.tags.pitToken;
  ++m_answered;
  m_env.emit({EventKind::PingServed, 0, {}, static_cast<int64_t>(m_answered), 0});
  m_ep.putData(data);
  if (onPing)
    onPing(interest.name());
  if (m_opts.maxPings > 0 && m_answered >= m_opts.maxPings && onFinish)
    onFinish();
}

} // namespace ndnlab::app
