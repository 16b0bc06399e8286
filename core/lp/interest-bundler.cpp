#include "core/lp/interest-bundler.hpp"

#include <algorithm>

namespace ndnlab::lp {

namespace {

std::string_view asChars(ByteSpan b)
{
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

/// splitmix64 finalizer (Steele, Lea, Flood 2014): a bijective 64-bit mix.
uint64_t mix64(uint64_t x)
{
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

} // namespace

std::optional<SegmentedName> splitSegment(const Name& name)
{
  if (name.empty())
    return std::nullopt;
  ComponentRef last = name.at(-1);
  if (last.type() != tlv::SegmentNameComponent)
    return std::nullopt;
  std::optional<uint64_t> seq = last.toNumber();
  if (!seq)
    return std::nullopt;
  return SegmentedName{name.prefixValue(name.size() - 1), *seq};
}

uint32_t regeneratedNonce(uint32_t bundleNonce, uint64_t seq)
{
  return static_cast<uint32_t>(mix64((uint64_t{bundleNonce} << 32) ^ mix64(seq)) >> 32);
}

Interest regenerateInterest(const Interest& bundle, uint64_t seq)
{
  Interest i = bundle;
  Name name = bundle.name().getPrefix(-1);
  name.appendSegment(seq);
  i.setName(std::move(name));
  if (std::optional<uint32_t> n = bundle.nonce())
    i.setNonce(regeneratedNonce(*n, seq));
  i.tags = PacketTags{};
  return i;
}

// --- BundleStateTable -------------------------------------------------------------------------

namespace detail {

BundleStateTable::BundleStateTable(size_t maxEntries, Duration lifetime)
  : m_maxEntries(std::max<size_t>(maxEntries, 1)), m_lifetime(lifetime)
{
}

void BundleStateTable::touch(Node& n, TimePoint now)
{
  n.lastUsed = now;
  m_lru.splice(m_lru.begin(), m_lru, n.lru);
}

BundleStateTable::Entry* BundleStateTable::find(std::string_view key, TimePoint now, bool refresh)
{
  auto it = m_map.find(key);
  if (it == m_map.end())
    return nullptr;
  Node& n = it->second;
  if (now - n.lastUsed >= m_lifetime) {
    m_lru.erase(n.lru);
    m_map.erase(it);
    return nullptr;
  }
  if (refresh)
    touch(n, now);
  return &n.entry;
}

BundleStateTable::Entry& BundleStateTable::insert(std::string_view key, TimePoint now)
{
  auto it = m_map.find(key);
  if (it != m_map.end()) {
    it->second.entry = Entry{};
    touch(it->second, now);
    return it->second.entry;
  }
  while (m_map.size() >= m_maxEntries) {
    m_map.erase(m_lru.back());
    m_lru.pop_back();
    ++m_nEvicted;
  }
  m_lru.emplace_front(key);
  Node& n = m_map.emplace(m_lru.front(), Node{Entry{}, now, m_lru.begin()}).first->second;
  return n.entry;
}

} // namespace detail

// --- BundleEncoder ----------------------------------------------------------------------------

BundleEncoder::BundleEncoder(Rng& rng, InterestBundlerOptions options)
  : m_rng(rng), m_options(options), m_table(options.maxEntries, options.entryLifetime)
{
}

uint32_t BundleEncoder::newFlow()
{
  uint32_t f = 0;
  while (f == 0)
    f = m_rng.next32();
  return f;
}

BundleEncoder::Decision BundleEncoder::onOutgoingInterest(const Interest& interest,
                                                          const std::optional<BundleTag>& tag,
                                                          TimePoint now)
{
  if (!tag || m_options.bundleInterval == 0)
    return {};
  std::optional<SegmentedName> seg = splitSegment(interest.name());
  if (!seg)
    return {};
  const std::string_view key = asChars(seg->prefix);
  const uint64_t seq = seg->seq;

  detail::BundleStateTable::Entry* e = m_table.find(key, now, false);
  if (tag->retransmission) // IV-A: an RTx goes out alone, for fast recovery
    return {Action::Send, BundleHeader{seq, seq, e != nullptr ? e->flow : 0}};
  if (e != nullptr)
    e->maxSeen = std::max(e->maxSeen.value_or(seq), seq);
  if (e != nullptr && seq >= e->start && seq <= e->end) {
    m_table.find(key, now, true); // covered by the last bundle: absorbed
    return {Action::Absorb, {}};
  }
  if (e != nullptr && seq < e->start) // behind the last bundle: alone, state unchanged
    return {Action::Send, BundleHeader{seq, seq, e->flow}};

  // A new bundle: first Interest of the prefix, or beyond the last bundle.
  if (e == nullptr) {
    e = &m_table.insert(key, now);
    e->flow = newFlow();
    e->interval = std::min<uint64_t>(m_options.bundleInterval, MaxBundleSpan);
  }
  else {
    m_table.find(key, now, true);
  }
  e->maxSeen = std::max(e->maxSeen.value_or(seq), seq);
  const uint64_t n = std::min<uint64_t>(std::max<uint32_t>(tag->cwnd, 1), e->interval);
  const uint64_t end = seq > UINT64_MAX - (n - 1) ? UINT64_MAX : seq + (n - 1);
  e->start = seq;
  e->end = end;
  return {Action::Send, BundleHeader{seq, end, e->flow}};
}

bool BundleEncoder::isAhead(const Name& dataName, TimePoint now)
{
  std::optional<SegmentedName> seg = splitSegment(dataName);
  if (!seg)
    return false;
  const detail::BundleStateTable::Entry* e = m_table.find(asChars(seg->prefix), now, false);
  return e != nullptr && e->maxSeen && seg->seq > *e->maxSeen && seg->seq <= e->end;
}

// --- BundleDecoder ----------------------------------------------------------------------------

BundleDecoder::BundleDecoder(InterestBundlerOptions options)
  : m_options(options), m_table(options.maxEntries, options.entryLifetime)
{
}

BundleDecoder::Outcome BundleDecoder::onIncomingBundle(const Interest& interest,
                                                       const BundleHeader& h, uint64_t endpoint,
                                                       TimePoint now)
{
  Outcome out;
  std::optional<SegmentedName> seg = splitSegment(interest.name());
  if (!seg) {
    out.reason = "bundle-not-segmented";
    return out;
  }
  if (seg->seq != h.startSeq) {
    out.reason = "bundle-start-mismatch";
    return out;
  }
  if (h.endSeq < h.startSeq || h.span() > MaxBundleSpan) {
    out.reason = "bundle-too-large";
    return out;
  }

  m_key.assign(reinterpret_cast<const char*>(&endpoint), sizeof(endpoint));
  m_key.append(asChars(seg->prefix));
  detail::BundleStateTable::Entry* e = m_table.find(m_key, now, true);

  out.status = Status::Regenerate;
  if (h.isSingle()) { // a retransmission or a bundle of one: no gap fill
    out.first = out.last = h.startSeq;
    if (e != nullptr && e->flow == h.flow && h.startSeq > e->end)
      e->start = e->end = h.startSeq;
    return out;
  }
  if (e == nullptr || e->flow != h.flow) { // new, forgotten or restarted flow
    e = &m_table.insert(m_key, now);
    e->flow = h.flow;
    e->start = h.startSeq;
    e->end = h.endSeq;
    out.first = h.startSeq;
    out.last = h.endSeq;
    return out;
  }
  if (h.endSeq <= e->end) {
    out.status = Status::Stale;
    return out;
  }
  // DSS = PES + 1 fills the range of a lost bundle; at most MaxBundleSpan from one frame.
  const uint64_t lowest = h.endSeq >= MaxBundleSpan - 1 ? h.endSeq - (MaxBundleSpan - 1) : 0;
  out.first = std::max(e->end + 1, lowest);
  out.last = h.endSeq;
  out.gapFilled = out.first < h.startSeq ? h.startSeq - out.first : 0;
  e->start = h.startSeq;
  e->end = h.endSeq;
  return out;
}

} // namespace ndnlab::lp
