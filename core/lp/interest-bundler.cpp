#include "core/lp/interest-bundler.hpp"

#include <algorithm>
#include <cmath>

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
{}

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
{}

uint32_t BundleEncoder::newFlow()
{
  uint32_t f = 0;
  while (f == 0)
    f = m_rng.next32();
  return f;
}

BundleEncoder::Decision BundleEncoder::onOutgoingInterest(const Interest& interest, const std::optional<BundleTag>& tag,
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
  if (tag->retransmission) { // IV-A: an RTx goes out alone, for fast recovery
    // Beyond the frontier the decoder takes the single as its new PES (same flow, SS > PES):
    // so does the entry, and nothing up to it starts a bundle any more (see below).
    if (e != nullptr && seq > e->frontier) {
      m_table.find(key, now, true);
      e->frontier = seq;
    }
    return {Action::Send, BundleHeader{seq, seq, e != nullptr ? e->flow : 0}};
  }
  if (e != nullptr)
    e->maxSeen = std::max(e->maxSeen.value_or(seq), seq);
  if (m_options.paperEncoder && e != nullptr && (seq < e->start || seq - e->start < e->interval)) {
    m_table.find(key, now, true); // IV-A: below LSS + BI, blocked
    return {Action::Absorb, {}};
  }
  if (e != nullptr && seq >= e->start && seq <= e->end) {
    m_table.find(key, now, true); // covered by the last bundle: absorbed
    return {Action::Absorb, {}};
  }
  if (e != nullptr && seq < e->start) // behind the last bundle: alone, state unchanged
    return {Action::Send, BundleHeader{seq, seq, e->flow}};
  // Past LES but not past a single the decoder took as its PES: a bundle from here would be
  // dropped as stale or regenerated only above that PES (a second consumer of the prefix
  // whose RTx went beyond LES, or a relay re-bundling a bundle of one). Alone, state unchanged.
  if (e != nullptr && seq <= e->frontier) {
    m_table.find(key, now, true);
    return {Action::Send, BundleHeader{seq, seq, e->flow}};
  }

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
  const uint64_t n = bundleSpan(tag->cwnd, e->interval, tag->decoded);
  const uint64_t end = seq > UINT64_MAX - (n - 1) ? UINT64_MAX : seq + (n - 1);
  if (m_options.lossDetection) {
    if (!isOutstanding(*e)) // the pipe was drained: the gap starts with this bundle
      e->gapStart = now;
    if (e->last == std::nullopt)
      e->origin = seq;
    e->last = interest;
    e->lastBundleAt = now;
    if (e->inFlight.size() >= MaxInFlightSamples)
      e->inFlight.pop_front();
    e->inFlight.emplace_back(seq, now);
  }
  e->start = seq;
  e->end = e->frontier = end;
  return {Action::Send, BundleHeader{seq, end, e->flow}};
}

uint64_t BundleEncoder::bundleSpan(uint32_t cwnd, uint32_t bi, bool decoded) const
{
  const uint64_t w = std::max<uint32_t>(cwnd, 1);
  if (!m_options.dynamicInterval || decoded) // a decoded bundle's span is re-bundled whole
    return std::min<uint64_t>(w, bi);
  const uint64_t hi = std::max<uint32_t>(bi, 1);
  const uint64_t lo = std::clamp<uint64_t>(m_options.intervalMin, 1, hi);
  const double share = std::clamp(m_options.cwndShare, 0.0, 1.0);
  const auto want = static_cast<uint64_t>(std::ceil(static_cast<double>(w) * share));
  return std::min(w, std::clamp(want, lo, hi));
}

bool BundleEncoder::isOutstanding(const detail::BundleStateTable::Entry& e)
{
  return e.last.has_value() && (!e.maxData || *e.maxData < e.end);
}

Duration BundleEncoder::threshold(const detail::BundleStateTable::Entry& e) const
{
  Duration t = m_options.gapMin;
  if (e.hasGap) {
    const auto dev = std::chrono::duration_cast<Duration>(e.gapDev * m_options.gapK);
    t = std::max(t, e.gapMean + dev);
  }
  return t;
}

Duration BundleEncoder::rttThreshold(const detail::BundleStateTable::Entry& e) const
{
  if (!e.hasRtt)
    return m_options.gapMin * 10;
  const auto dev = std::chrono::duration_cast<Duration>(e.rttDev * m_options.gapK);
  return std::max(m_options.gapMin, e.rttMean + dev);
}

TimePoint BundleEncoder::deadline(const detail::BundleStateTable::Entry& e) const
{
  // no Data for a gap after the last Data, and none for a round trip after the last bundle;
  // the wait doubles after each recovery of the same stall
  const int64_t backoff = int64_t{1} << std::min<uint32_t>(e.recoveries, 16);
  return std::max(e.gapStart + threshold(e) * backoff, e.lastBundleAt + rttThreshold(e) * backoff);
}

namespace {

/// RFC 6298 moving average (gain 1/8) and mean deviation (gain 1/4).
void sampleInto(Duration s, Duration& mean, Duration& dev, bool& has)
{
  if (!has) {
    mean = s;
    dev = s / 2;
    has = true;
    return;
  }
  const Duration err = s > mean ? s - mean : mean - s;
  dev = (dev * 3 + err) / 4;
  mean = (mean * 7 + s) / 8;
}

} // namespace

void BundleEncoder::onIncomingData(const Name& dataName, TimePoint now)
{
  if (!m_options.lossDetection)
    return;
  std::optional<SegmentedName> seg = splitSegment(dataName);
  if (!seg)
    return;
  detail::BundleStateTable::Entry* e = m_table.find(asChars(seg->prefix), now, false);
  if (e == nullptr || !e->last)
    return;
  if (isOutstanding(*e)) // a gap sample: since the previous Data, or since the bundle that reopened the pipe
    sampleInto(now - e->gapStart, e->gapMean, e->gapDev, e->hasGap);
  // a round-trip sample when this is the first segment of a bundle in flight
  while (!e->inFlight.empty() && e->inFlight.front().first <= seg->seq) {
    if (e->inFlight.front().first == seg->seq)
      sampleInto(now - e->inFlight.front().second, e->rttMean, e->rttDev, e->hasRtt);
    e->inFlight.pop_front();
  }
  e->gapStart = now;
  e->recoveries = 0;
  e->maxData = std::max(e->maxData.value_or(seg->seq), seg->seq);
}

std::optional<TimePoint> BundleEncoder::nextDeadline(TimePoint now)
{
  std::optional<TimePoint> next;
  if (!m_options.lossDetection || m_options.maxRecoveries == 0)
    return next;
  m_table.forEachLive(now, [&](std::string_view, detail::BundleStateTable::Entry& e) {
    if (!isOutstanding(e) || e.recoveries >= m_options.maxRecoveries)
      return;
    const TimePoint d = deadline(e);
    if (!next || d < *next)
      next = d;
  });
  return next;
}

std::vector<BundleEncoder::Recovery> BundleEncoder::takeRecoveries(TimePoint now)
{
  std::vector<Recovery> out;
  if (!m_options.lossDetection)
    return out;
  m_table.forEachLive(now, [&](std::string_view, detail::BundleStateTable::Entry& e) {
    if (!isOutstanding(e) || e.recoveries >= m_options.maxRecoveries || deadline(e) > now)
      return;
    // [highest Data + 1, LES], at most MaxBundleSpan
    uint64_t first = e.maxData ? *e.maxData + 1 : e.origin;
    if (e.end - first >= MaxBundleSpan)
      first = e.end - (MaxBundleSpan - 1);
    e.flow = newFlow(); // the decoder restarts its entry at [first, LES]
    e.frontier = e.end; // and its PES at LES
    Interest i = regenerateInterest(*e.last, first);
    i.setNonce(m_rng.next32());
    out.push_back(Recovery{std::move(i), BundleHeader{first, e.end, e.flow}});
    ++e.recoveries;
    e.gapStart = now;
    e.lastBundleAt = now;
    e.inFlight.clear(); // Karn: no round-trip samples across a recovery
  });
  return out;
}

std::optional<Duration> BundleEncoder::gapThreshold(const Name& name, TimePoint now)
{
  std::optional<SegmentedName> seg = splitSegment(name);
  if (!seg)
    return std::nullopt;
  const detail::BundleStateTable::Entry* e = m_table.find(asChars(seg->prefix), now, false);
  if (e == nullptr)
    return std::nullopt;
  return threshold(*e);
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
{}

BundleDecoder::Outcome BundleDecoder::onIncomingBundle(const Interest& interest, const BundleHeader& h,
                                                       uint64_t endpoint, TimePoint now)
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
