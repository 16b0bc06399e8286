#include "core/app/constant-rate-consumer.hpp"
#include "core/codec/tlv.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndnlab::app {

void ConstantRateConsumerOptions::validate() const
{
  if (!(frequency > 0) || !std::isfinite(frequency))
    throw std::invalid_argument("frequency must be positive");
  if (randomize != "none" && randomize != "uniform" && randomize != "exponential")
    throw std::invalid_argument("randomize must be none, uniform or exponential");
  if (lifetime <= Duration::zero())
    throw std::invalid_argument("lifetime must be positive");
  if (tick < Duration::zero())
    throw std::invalid_argument("tick must not be negative");
  if (smoothening && tick == Duration::zero())
    throw std::invalid_argument("smoothening needs a tick");
}

ConstantRateConsumer::ConstantRateConsumer(Env& env, Endpoint& endpoint, Options opts)
  : m_env(env), m_ep(endpoint), m_opts(std::move(opts)), m_frequency(m_opts.frequency)
{
  m_opts.validate();
  m_ep.onData = [this](const Data& d) { handleData(d); };
  m_ep.onNack = [this](const Nack& n) { handleNack(n); };
}

ConstantRateConsumer::~ConstantRateConsumer()
{
  stop();
  m_ep.onData = nullptr;
  m_ep.onNack = nullptr;
}

void ConstantRateConsumer::start(const Name& prefix)
{
  if (m_running)
    return;
  m_prefix = prefix;
  m_nextSeg = m_opts.firstSegment;
  m_running = true;
  if (m_opts.tick > Duration::zero())
    m_tickTimer = m_env.timers().schedule(m_opts.tick, [this] { onTick(); });
  sendNext();
}

void ConstantRateConsumer::stopSending()
{
  m_running = false;
  if (m_sendTimer != 0)
    m_env.timers().cancel(m_sendTimer);
  m_sendTimer = 0;
  if (m_tickTimer != 0)
    m_env.timers().cancel(m_tickTimer);
  m_tickTimer = 0;
  m_held.clear();
}

void ConstantRateConsumer::stop()
{
  stopSending();
  for (auto& [seg, p] : m_pending) {
    if (p.timer != 0)
      m_env.timers().cancel(p.timer);
  }
  m_pending.clear();
}

Duration ConstantRateConsumer::nextGap()
{
  double mean = 1.0 / m_frequency;
  double gap = mean;
  if (m_opts.randomize == "uniform")
    gap = m_env.rng().uniform() * 2.0 * mean;
  else if (m_opts.randomize == "exponential")
    gap = -std::log(1.0 - m_env.rng().uniform()) * mean;
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(gap));
}

void ConstantRateConsumer::sendNext()
{
  m_sendTimer = 0;
  if (!m_running)
    return;
  uint64_t seg;
  bool retx = false;
  if (!m_retxQueue.empty()) {
    seg = m_retxQueue.front();
    m_retxQueue.pop_front();
    retx = true;
  }
  else if (m_opts.maxCount == 0 || m_newSent < m_opts.maxCount) {
    seg = m_nextSeg++;
    ++m_newSent;
  }
  else {
    return; // all sent; retransmissions restart the clock when they are queued
  }

  Name name = m_prefix;
  name.appendSegment(seg);
  Interest interest(std::move(name));
  interest.setMustBeFresh(m_opts.mustBeFresh).setLifetime(m_opts.lifetime);
  interest.setNonce(m_env.rng().next32());
  interest.tags.bundle = BundleTag{retx, 1};

  if (retx)
    ++m_counters.retransmissions;
  // The next Interest is due one gap after this one was due, not after this timer fired: a
  // real clock's late timers would otherwise add up and send below the frequency (2-4 % at
  // 2,500 Interests/s on a loaded host). Late by more than kMaxCatchUp (a stall, or the clock
  // stopped after maxCount), the schedule starts again from now instead of bursting.
  const TimePoint now = m_env.now();
  if (m_due == TimePoint{} || now - m_due > kMaxCatchUp)
    m_due = now;
  m_due += nextGap();
  m_sendTimer = m_env.timers().schedule(std::max(Duration::zero(), m_due - now), [this] { sendNext(); });
  if (m_opts.tick > Duration::zero())
    m_held.push_back(std::move(interest)); // fell due: leaves at the next tick
  else
    send(std::move(interest));
}

void ConstantRateConsumer::send(Interest&& interest)
{
  // the segment's lifetime runs from when its Interest really leaves
  const uint64_t seg = *segmentOf(interest.name());
  Pending& p = m_pending[seg];
  if (p.timer != 0)
    m_env.timers().cancel(p.timer);
  p.sent = m_env.now();
  p.nonce = *interest.nonce();
  p.timer = m_env.timers().schedule(m_opts.lifetime, [this, seg] { onTimeout(seg); });
  ++m_counters.interestsSent;
  m_ep.expressInterest(interest);
}

void ConstantRateConsumer::flushHeld()
{
  std::vector<Interest> held;
  held.swap(m_held);
  for (Interest& i : held)
    send(std::move(i));
}

void ConstantRateConsumer::onTick()
{
  m_tickTimer = m_env.timers().schedule(m_opts.tick, [this] { onTick(); });
  if (m_held.empty())
    return;
  ++m_counters.ticks;
  flushHeld();
}

void ConstantRateConsumer::afterAnswer(const std::optional<Rate>& rate, size_t wireSize)
{
  if (m_opts.followRate && rate && rate->bps() > 0) {
    if (wireSize > 0)
      m_lastDataSize = wireSize;
    const size_t bytes = m_opts.rateDataSize > 0 ? m_opts.rateDataSize : m_lastDataSize;
    if (bytes > 0) {
      double f = rate->bps() / (8.0 * static_cast<double>(bytes));
      const TimePoint now = m_env.now();
      if (m_opts.rampUp && f > m_frequency && m_srtt > Duration::zero()) // up at most x2 per SRTT
        f = std::min(f, m_frequency * std::exp2(toSeconds(now - m_lastRate) / toSeconds(m_srtt)));
      m_lastRate = now;
      if (f != m_frequency) {
        m_frequency = f;
        // the next Interest falls due one new gap after now, not after the old gap
        if (m_sendTimer != 0 && m_running) {
          m_env.timers().cancel(m_sendTimer);
          m_due = now + nextGap();
          m_sendTimer = m_env.timers().schedule(m_due - now, [this] { sendNext(); });
        }
      }
    }
  }
  if (m_opts.smoothening && m_running && !m_held.empty()) {
    m_counters.smoothenedSends += m_held.size();
    flushHeld();
  }
}

void ConstantRateConsumer::onTimeout(uint64_t seg)
{
  auto it = m_pending.find(seg);
  if (it == m_pending.end())
    return;
  const TimePoint sent = it->second.sent;
  m_pending.erase(it);
  ++m_counters.timeouts;
  if (onResolved)
    onResolved(sent, false);
  m_env.emit({EventKind::CbrTimeout, 0, {}, static_cast<int64_t>(seg), 0});
  if (m_opts.retransmit && m_running) {
    m_retxQueue.push_back(seg);
    if (m_sendTimer == 0)
      sendNext();
  }
}

std::optional<uint64_t> ConstantRateConsumer::segmentOf(const Name& name) const
{
  // the name an Interest of ours carried: the prefix and one segment number, minimally encoded
  if (name.size() != m_prefix.size() + 1 || !name[-1].isSegment() || !m_prefix.isPrefixOf(name))
    return std::nullopt;
  uint64_t seg = *name[-1].toNumber();
  if (nonNegIntSize(seg) != name[-1].value().size())
    return std::nullopt;
  return seg;
}

void ConstantRateConsumer::handleData(const Data& data)
{
  auto seg = segmentOf(data.name());
  auto it = seg ? m_pending.find(*seg) : m_pending.end();
  if (it == m_pending.end()) {
    ++m_counters.unexpectedData;
    return;
  }
  const TimePoint sent = it->second.sent;
  Duration rtt = m_env.now() - sent;
  m_srtt = m_srtt == Duration::zero() ? rtt : (7 * m_srtt + rtt) / 8;
  if (it->second.timer != 0)
    m_env.timers().cancel(it->second.timer);
  m_pending.erase(it);
  ++m_counters.data;
  if (onResolved)
    onResolved(sent, true);
  m_counters.bytes += Bytes(data.content().size());
  m_env.emit({EventKind::CbrData, 0, {}, static_cast<int64_t>(*seg), toSeconds(rtt)});
  if (onData)
    onData(*seg, rtt, data.content());
  afterAnswer(data.tags.mirccRate, data.wireSize());
}

void ConstantRateConsumer::handleNack(const Nack& nack)
{
  // a Nack of an earlier transmission of the segment (another Nonce) is not this one's answer
  auto seg = segmentOf(nack.interest.name());
  auto it = seg ? m_pending.find(*seg) : m_pending.end();
  if (it == m_pending.end() || nack.interest.nonce() != it->second.nonce)
    return;
  if (it->second.timer != 0)
    m_env.timers().cancel(it->second.timer);
  const TimePoint sent = it->second.sent;
  m_pending.erase(it);
  ++m_counters.nacks;
  if (onResolved)
    onResolved(sent, false);
  m_env.emit({EventKind::CbrNack, 0, toString(nack.reason), static_cast<int64_t>(*seg), 0});
  if (m_opts.retransmit && m_running) {
    m_retxQueue.push_back(*seg);
    if (m_sendTimer == 0)
      sendNext();
  }
  afterAnswer(nack.interest.tags.mirccRate, 0);
}

} // namespace ndnlab::app
