#include "core/lp/reassembler.hpp"

#include <memory>

namespace ndnlab::lp {

DropReason dropReason(ReassemblyErrc e)
{
  switch (e) {
    case ReassemblyErrc::MissingSequence: return DropReason::FragMissingSequence;
    case ReassemblyErrc::BadFragIndex: return DropReason::FragIndexOutOfRange;
    case ReassemblyErrc::TooManyFragments: return DropReason::FragCountOverLimit;
    case ReassemblyErrc::FragCountChanged: return DropReason::FragCountChanged;
    case ReassemblyErrc::Duplicate: return DropReason::FragDuplicate;
    case ReassemblyErrc::MemoryLimit: return DropReason::ReassemblyMemoryLimit;
    case ReassemblyErrc::PacketTooLarge: return DropReason::PacketTooLarge;
    case ReassemblyErrc::Timeout: return DropReason::ReassemblyTimeout;
  }
  return DropReason::FragDuplicate;
}

Reassembler::Reassembler(Env& env, ReassemblerOptions options) : m_env(env), m_options(options)
{}

Reassembler::~Reassembler()
{
  for (auto& [key, p] : m_partials)
    m_env.timers().cancel(p.timer);
}

size_t Reassembler::bookkeepingCost(size_t fragCount)
{
  // Map node, list node and the per-index slots; payload bytes are added per fragment.
  return sizeof(Partial) + 64 + fragCount * (sizeof(Buffer) + 1);
}

static Reassembler::Outcome dropped(ReassemblyErrc e)
{
  Reassembler::Outcome o;
  o.status = Reassembler::Outcome::Status::Dropped;
  o.error = e;
  return o;
}

Reassembler::Outcome Reassembler::receive(Endpoint endpoint, const LpPacket& pkt)
{
  ByteSpan payload = pkt.fragment.value_or(ByteSpan{});
  uint64_t fragIndex = pkt.fragIndex.value_or(0);
  uint64_t fragCount = pkt.fragCount.value_or(1);

  if (fragIndex >= fragCount)
    return dropped(ReassemblyErrc::BadFragIndex);
  if (fragCount > m_options.maxFragments)
    return dropped(ReassemblyErrc::TooManyFragments);

  if (fragCount == 1) {
    Outcome o;
    o.status = Outcome::Status::Complete;
    o.header = pkt;
    o.header.sequence.reset();
    o.header.fragIndex.reset();
    o.header.fragCount.reset();
    o.header.fragment.reset();
    o.header.bare = false;
    o.packet = std::make_shared<Buffer>(payload.begin(), payload.end());
    return o;
  }

  if (!pkt.sequence)
    return dropped(ReassemblyErrc::MissingSequence);

  Key key{endpoint, *pkt.sequence - fragIndex};
  auto it = m_partials.find(key);
  if (it == m_partials.end()) {
    size_t cost = bookkeepingCost(fragCount);
    size_t keep = payload.size() > m_options.maxPacketSize ? 0 : payload.size();
    if (!makeRoom(cost + keep, nullptr))
      return dropped(ReassemblyErrc::MemoryLimit);
    it = m_partials.emplace(key, Partial{}).first;
    Partial& p = it->second;
    p.fragCount = fragCount;
    p.payloads.resize(fragCount);
    p.received.resize(fragCount, false);
    p.heldBytes = cost;
    p.age = m_ageOrder.insert(m_ageOrder.end(), key);
    m_bytesHeld += cost;
  }
  else {
    Partial& p = it->second;
    if (p.fragCount != fragCount)
      return dropped(ReassemblyErrc::FragCountChanged);
    if (p.received[fragIndex])
      return dropped(ReassemblyErrc::Duplicate);
    if (!p.tooLarge && p.payloadBytes + payload.size() <= m_options.maxPacketSize && !makeRoom(payload.size(), &p)) {
      erase(it);
      return dropped(ReassemblyErrc::MemoryLimit);
    }
  }

  if (it->second.tooLarge || it->second.payloadBytes + payload.size() > m_options.maxPacketSize) {
    // Oversized: the payload is released at once and the entry stays as a marker until the
    // packet's last fragment or the timeout, so its remaining fragments are absorbed instead
    // of starting a new partial packet: one counted drop per packet.
    Partial& p = it->second;
    bool first = !p.tooLarge;
    if (first) {
      p.tooLarge = true;
      p.heldBytes -= p.payloadBytes;
      m_bytesHeld -= p.payloadBytes;
      p.payloadBytes = 0;
      std::vector<Buffer>().swap(p.payloads);
    }
    p.received[fragIndex] = true;
    ++p.nReceived;
    if (p.nReceived == p.fragCount)
      erase(it);
    else {
      m_env.timers().cancel(p.timer);
      p.timer = m_env.timers().schedule(m_options.timeout, [this, key] { onTimeout(key); });
    }
    return first ? dropped(ReassemblyErrc::PacketTooLarge) : Outcome{};
  }

  Partial& p = it->second;
  p.payloads[fragIndex].assign(payload.begin(), payload.end());
  p.received[fragIndex] = true;
  ++p.nReceived;
  p.heldBytes += payload.size();
  p.payloadBytes += payload.size();
  m_bytesHeld += payload.size();
  if (fragIndex == 0) {
    p.header = pkt;
    p.header.sequence.reset();
    p.header.fragIndex.reset();
    p.header.fragCount.reset();
    p.header.fragment.reset();
    p.header.bare = false;
  }

  if (p.nReceived == p.fragCount) {
    size_t total = 0;
    for (const auto& b : p.payloads)
      total += b.size();
    auto packet = std::make_shared<Buffer>();
    packet->reserve(total);
    for (const auto& b : p.payloads)
      packet->insert(packet->end(), b.begin(), b.end());
    Outcome o;
    o.status = Outcome::Status::Complete;
    o.header = std::move(p.header);
    o.packet = std::move(packet);
    erase(it);
    return o;
  }

  m_env.timers().cancel(p.timer);
  p.timer = m_env.timers().schedule(m_options.timeout, [this, key] { onTimeout(key); });
  return Outcome{};
}

void Reassembler::erase(std::map<Key, Partial>::iterator it)
{
  m_env.timers().cancel(it->second.timer);
  m_bytesHeld -= it->second.heldBytes;
  m_ageOrder.erase(it->second.age);
  m_partials.erase(it);
}

void Reassembler::onTimeout(Key key)
{
  auto it = m_partials.find(key);
  if (it == m_partials.end())
    return;
  it->second.timer = 0; // fired; nothing to cancel
  size_t n = it->second.nReceived;
  bool counted = it->second.tooLarge; // its drop was reported when it became too large
  erase(it);
  if (onPartialDropped && !counted)
    onPartialDropped(ReassemblyErrc::Timeout, key.first, n);
}

bool Reassembler::makeRoom(size_t extra, const Partial* keep)
{
  if (extra + (keep ? keep->heldBytes : 0) > m_options.maxBytes)
    return false;
  auto ageIt = m_ageOrder.begin();
  while (m_bytesHeld + extra > m_options.maxBytes && ageIt != m_ageOrder.end()) {
    Key key = *ageIt;
    auto it = m_partials.find(key);
    if (&it->second == keep) {
      ++ageIt;
      continue;
    }
    ++ageIt;
    size_t n = it->second.nReceived;
    bool counted = it->second.tooLarge;
    erase(it);
    if (onPartialDropped && !counted)
      onPartialDropped(ReassemblyErrc::MemoryLimit, key.first, n);
  }
  return m_bytesHeld + extra <= m_options.maxBytes;
}

} // namespace ndnlab::lp
