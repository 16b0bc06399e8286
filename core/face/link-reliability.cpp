#include "core/face/link-reliability.hpp"

#include <algorithm>

namespace ndnlab::face {

namespace {

constexpr std::string_view LogModule = "LinkReliability";

// ndn-cxx RttEstimator's defaults (NFD's LpReliability uses them): RFC 6298 gains, k = 4.
constexpr Duration InitialRto = std::chrono::seconds(1);
constexpr Duration MinRto = std::chrono::milliseconds(200);
constexpr Duration MaxRto = std::chrono::seconds(60);

} // namespace

LinkReliability::LinkReliability(Env& env, const LinkService& owner, const ReliabilityOptions& options,
                                 LinkService::Counters& counters, Hooks hooks)
  : m_env(env), m_owner(owner), m_options(options), m_counters(counters), m_hooks(std::move(hooks)), m_rto(InitialRto)
{}

LinkReliability::~LinkReliability()
{
  for (auto& [txSeq, frame] : m_inFlight)
    m_env.timers().cancel(frame.rtoTimer);
  m_env.timers().cancel(m_idleAckTimer);
}

// --- send side ------------------------------------------------------------------------------

void LinkReliability::onSend(std::vector<lp::LpPacket>& frames, SharedBuffer wire, EndpointId endpoint)
{
  // Bound the octets held: the oldest packets go first (their frames lead the TxSequence order).
  const size_t size = wire->size();
  while (!m_inFlight.empty() && m_unackedBytes + size > m_options.maxUnackedBytes) {
    std::shared_ptr<Packet> oldest = m_inFlight.begin()->second.packet;
    giveUp(oldest, m_counters.nUnackedOverflow, DropReason::LpUnackedLimit);
  }

  auto packet = std::make_shared<Packet>();
  packet->wire = std::move(wire);
  packet->endpoint = endpoint;
  packet->txSeqs.reserve(frames.size());
  packet->unacked = frames.size();
  const TimePoint now = m_env.now();
  for (size_t i = 0; i < frames.size(); ++i) {
    lp::LpPacket& f = frames[i];
    const uint64_t txSeq = m_nextTxSeq++;
    packet->txSeqs.push_back(txSeq);
    Frame& held = m_inFlight.emplace_hint(m_inFlight.end(), txSeq, Frame{})->second;
    held.pkt = f; // without TxSequence: each transmission gets its own
    held.packet = packet;
    held.index = i;
    held.sentAt = now;
    held.rtoTimer = armRto(txSeq);
    f.txSequence = txSeq;
  }
  ++m_nPackets;
  m_unackedBytes += size;
}

void LinkReliability::piggyback(lp::LpPacket& frame, std::optional<size_t> mtu)
{
  if (m_ackQueue.empty())
    return;
  const size_t limit = mtu.value_or(MaxNdnPacketSize);
  size_t value = lp::headerFieldsSize(frame) + (frame.fragment ? tlvSize(tlv::Fragment, frame.fragment->size()) : 0);
  while (!m_ackQueue.empty() && frame.acks.size() < MaxAcksPerFrame &&
         tlvSize(tlv::LpPacket, value + AckFieldSize) <= limit) {
    frame.acks.push_back(m_ackQueue.front());
    m_ackQueue.pop_front();
    value += AckFieldSize;
    ++m_counters.nOutAcks;
  }
  if (m_ackQueue.empty() && m_idleAckTimer != 0) {
    m_env.timers().cancel(m_idleAckTimer);
    m_idleAckTimer = 0;
  }
}

TimerId LinkReliability::armRto(uint64_t txSeq)
{
  return m_env.timers().schedule(m_rto, [this, txSeq] { onRtoExpired(txSeq); });
}

void LinkReliability::onRtoExpired(uint64_t txSeq)
{
  auto it = m_inFlight.find(txSeq);
  if (it == m_inFlight.end())
    return; // defensive: its timer is cancelled whenever a frame leaves m_inFlight
  it->second.rtoTimer = 0;
  onLost(it, true);
}

void LinkReliability::onLost(InFlight::iterator it, bool timeout)
{
  Frame& f = it->second;
  if (f.retx >= m_options.maxRetx) {
    std::shared_ptr<Packet> packet = f.packet;
    giveUp(packet, m_counters.nRetxExhausted, DropReason::LpRetxExhausted);
    return;
  }
  m_env.timers().cancel(f.rtoTimer);
  // The frame moves to a new TxSequence; an Ack of the old one is an unknown Ack from now on.
  const uint64_t txSeq = m_nextTxSeq++;
  auto node = m_inFlight.extract(it);
  node.key() = txSeq;
  Frame& moved = m_inFlight.insert(m_inFlight.end(), std::move(node))->second;
  ++moved.retx;
  moved.sentAt = m_env.now();
  moved.rtoTimer = armRto(txSeq);
  moved.packet->txSeqs[moved.index] = txSeq;
  moved.packet->retransmitted = true;
  ++m_counters.nOutRetxFrames;
  NDNLAB_LOG(m_env, LogLevel::Trace, LogModule, "[face=", m_owner.faceId(),
             "] retx seq=", moved.pkt.sequence.value_or(0), " txseq=", txSeq, " retx=", moved.retx,
             timeout ? " timeout" : " gap");
  m_env.emit(TraceEvent{.kind = EventKind::LpRetx,
                        .face = m_owner.faceId(),
                        .reason = timeout ? "timeout" : "gap",
                        .value = static_cast<int64_t>(txSeq),
                        .value2 = static_cast<double>(moved.retx)});
  lp::LpPacket copy = moved.pkt;
  copy.txSequence = txSeq;
  m_hooks.send(std::move(copy), moved.packet->endpoint);
}

void LinkReliability::giveUp(const std::shared_ptr<Packet>& packet, uint64_t& counter, DropReason reason)
{
  for (uint64_t& txSeq : packet->txSeqs) {
    if (txSeq == Acked)
      continue;
    if (auto it = m_inFlight.find(txSeq); it != m_inFlight.end()) {
      m_env.timers().cancel(it->second.rtoTimer);
      m_inFlight.erase(it);
    }
    txSeq = Acked;
  }
  release(*packet);
  m_hooks.drop(counter, reason, packet->endpoint, packet->wire->size());
}

void LinkReliability::release(const Packet& packet)
{
  --m_nPackets;
  m_unackedBytes -= packet.wire->size();
}

// --- receive side ---------------------------------------------------------------------------

LinkReliability::Verdict LinkReliability::onReceive(const lp::LpPacket& frame, EndpointId endpoint)
{
  if (frame.acks.size() > MaxAcksPerFrame)
    return Verdict::TooManyAcks;

  if (!frame.acks.empty()) {
    for (uint64_t ack : frame.acks) {
      ++m_counters.nInAcks;
      auto it = m_inFlight.find(ack);
      if (it == m_inFlight.end()) {
        ++m_counters.nInAcksUnknown;
        continue;
      }
      m_largestAcked = std::max(m_largestAcked.value_or(0), ack);
      onAck(it);
    }
    detectGapLosses();
  }

  if (!frame.fragment || !frame.txSequence)
    return Verdict::Accept;
  m_ackQueue.push_back(*frame.txSequence);
  m_ackEndpoint = endpoint;
  armIdleAck();
  // A retransmission of a frame received already: its Ack (queued again) was lost or late.
  if (frame.sequence && seenBefore(*frame.sequence))
    return Verdict::Duplicate;
  return Verdict::Accept;
}

void LinkReliability::onAck(InFlight::iterator it)
{
  Frame& f = it->second;
  if (f.retx == 0) // Karn: a frame sent more than once gives no sample
    addRttSample(m_env.now() - f.sentAt);
  m_env.timers().cancel(f.rtoTimer);
  std::shared_ptr<Packet> packet = std::move(f.packet);
  packet->txSeqs[f.index] = Acked;
  m_inFlight.erase(it);
  if (--packet->unacked == 0) {
    ++(packet->retransmitted ? m_counters.nRetransmitted : m_counters.nAcknowledged);
    release(*packet);
  }
}

void LinkReliability::detectGapLosses()
{
  if (!m_largestAcked || *m_largestAcked < m_options.lossThreshold)
    return;
  // Frames sent again move past the largest Ack, so the loop ends.
  const uint64_t below = *m_largestAcked - m_options.lossThreshold; // lost: TxSequence <= below
  while (!m_inFlight.empty() && m_inFlight.begin()->first <= below)
    onLost(m_inFlight.begin(), false);
}

void LinkReliability::addRttSample(Duration rtt)
{
  if (!m_srtt) {
    m_srtt = rtt;
    m_rttvar = rtt / 2;
  }
  else {
    const Duration err = *m_srtt > rtt ? *m_srtt - rtt : rtt - *m_srtt;
    m_rttvar = (m_rttvar * 3 + err) / 4;
    m_srtt = (*m_srtt * 7 + rtt) / 8;
  }
  m_rto = std::clamp(*m_srtt + m_rttvar * 4, MinRto, MaxRto);
}

void LinkReliability::armIdleAck()
{
  if (m_idleAckTimer != 0)
    return;
  m_idleAckTimer = m_env.timers().schedule(m_options.idleAckPeriod, [this] {
    m_idleAckTimer = 0;
    sendIdleAcks();
  });
}

void LinkReliability::sendIdleAcks()
{
  const std::optional<size_t> mtu = m_hooks.mtu();
  while (!m_ackQueue.empty()) {
    lp::LpPacket idle;
    piggyback(idle, mtu);
    if (idle.acks.empty()) {
      // Not even one Ack fits in a frame: the peer's retransmissions will tell it.
      m_ackQueue.clear();
      return;
    }
    ++m_counters.nOutIdleAcks;
    m_hooks.send(std::move(idle), m_ackEndpoint);
  }
}

bool LinkReliability::seenBefore(uint64_t seq)
{
  auto bit = [&](uint64_t s) -> std::pair<uint64_t&, uint64_t> {
    const uint64_t slot = s % DuplicateWindow;
    return {m_seqBits[slot / 64], uint64_t{1} << (slot % 64)};
  };
  auto restart = [&] {
    m_seqBits.fill(0);
    m_highestSeq = seq;
    auto [word, mask] = bit(seq);
    word |= mask;
    return false;
  };
  if (!m_highestSeq)
    return restart();
  const uint64_t ahead = seq - *m_highestSeq; // serial arithmetic: Sequences wrap
  if (ahead != 0 && ahead < (uint64_t{1} << 63)) {
    if (ahead >= DuplicateWindow)
      return restart();
    for (uint64_t s = *m_highestSeq + 1; s != seq; ++s) {
      auto [word, mask] = bit(s);
      word &= ~mask;
    }
    m_highestSeq = seq;
    auto [word, mask] = bit(seq);
    word |= mask;
    return false;
  }
  const uint64_t behind = *m_highestSeq - seq;
  if (behind >= DuplicateWindow) // far older than the window: a restarted sender, not a duplicate
    return restart();
  auto [word, mask] = bit(seq);
  const bool seen = (word & mask) != 0;
  word |= mask;
  return seen;
}

} // namespace ndnlab::face
