#include "core/table/cs.hpp"

#include "core/table/name-tree.hpp"

#include <cstring>

namespace ndnlab::table {

namespace {

/// Canonical order of two Name TLV-VALUEs (memcmp, a proper prefix first).
int compareValues(ByteSpan a, ByteSpan b)
{
  size_t n = std::min(a.size(), b.size());
  int r = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (r != 0)
    return r < 0 ? -1 : 1;
  if (a.size() == b.size())
    return 0;
  return a.size() < b.size() ? -1 : 1;
}

int compareDigests(ByteSpan a, const std::array<uint8_t, 32>& b)
{
  int r = std::memcmp(a.data(), b.data(), 32);
  return r < 0 ? -1 : (r > 0 ? 1 : 0);
}

bool isFullName(const Name& q)
{
  return !q.empty() && q[-1].isImplicitDigest();
}

/// Order of a lookup name against an entry (NFD cs::compareQueryWithData): a full name compares
/// as (name, digest); any other name sorts before every entry carrying that exact name.
int compareQuery(const Name& q, const CsEntry& e)
{
  if (isFullName(q)) {
    int c = compareValues(prefixBytes(q, q.size() - 1), e.name().value());
    if (c != 0)
      return c;
    return compareDigests(q[-1].value(), e.data().implicitDigest());
  }
  int c = compareValues(q.value(), e.name().value());
  return c != 0 ? c : -1;
}

} // namespace

bool Cs::Compare::operator()(const CsEntry& a, const CsEntry& b) const
{
  int c = compareValues(a.name().value(), b.name().value());
  if (c != 0)
    return c < 0;
  if (&a == &b)
    return false;
  return std::memcmp(a.data().implicitDigest().data(), b.data().implicitDigest().data(), 32) < 0;
}

bool Cs::Compare::operator()(const CsEntry& a, const Name& query) const
{
  return compareQuery(query, a) > 0;
}

bool Cs::Compare::operator()(const Name& query, const CsEntry& b) const
{
  return compareQuery(query, b) < 0;
}

Cs::Cs(Env& env, CsOptions options) : m_env(env), m_options(options) {}

Cs::~Cs() = default;

void Cs::lruUnlink(const CsEntry& e)
{
  if (e.m_prev != nullptr)
    e.m_prev->m_next = e.m_next;
  else
    m_lruHead = e.m_next;
  if (e.m_next != nullptr)
    e.m_next->m_prev = e.m_prev;
  else
    m_lruTail = e.m_prev;
  e.m_prev = e.m_next = nullptr;
}

void Cs::lruAppend(const CsEntry& e)
{
  e.m_prev = m_lruTail;
  e.m_next = nullptr;
  if (m_lruTail != nullptr)
    m_lruTail->m_next = &e;
  else
    m_lruHead = &e;
  m_lruTail = &e;
}

void Cs::eraseEntry(const CsEntry& e)
{
  lruUnlink(e);
  m_bytes -= e.m_bytes;
  auto it = m_table.find(e);
  if (it != m_table.end())
    m_table.erase(it);
}

void Cs::evict()
{
  while (m_lruHead != nullptr &&
         (m_table.size() > m_options.capacity ||
          (m_options.maxBytes > 0 && m_bytes > m_options.maxBytes))) {
    eraseEntry(*m_lruHead);
    ++m_counters.nEvictions;
  }
}

void Cs::insert(std::shared_ptr<Data> data, bool isUnsolicited)
{
  if (!m_options.admit || m_options.capacity == 0 || data->tags.noCache) {
    ++m_counters.nNotAdmitted;
    return;
  }
  TimePoint now = m_env.now();
  Duration fp = data->freshnessPeriod();
  size_t bytes = data->wireSize();
  auto [it, isNew] = m_table.emplace(std::move(data));
  const CsEntry& e = *it;
  if (isNew) {
    e.m_isUnsolicited = isUnsolicited;
    e.m_bytes = bytes;
    m_bytes += bytes;
    ++m_counters.nInserts;
  }
  else {
    // Same full name, so same bytes: keep the object, refresh freshness and LRU position.
    lruUnlink(e);
    e.m_isUnsolicited = e.m_isUnsolicited && isUnsolicited;
    ++m_counters.nRefreshes;
  }
  e.m_freshUntil = fp > Duration::zero() ? now + fp : now;
  lruAppend(e);
  evict();
}

std::shared_ptr<Data> Cs::find(const Interest& interest)
{
  if (!m_options.serve || m_table.empty()) {
    ++m_counters.nMisses;
    return nullptr;
  }
  TimePoint now = m_env.now();
  const Name& q = interest.name();
  const CsEntry* match = nullptr;

  if (isFullName(q)) {
    auto it = m_table.lower_bound(q);
    if (it != m_table.end() && compareQuery(q, *it) == 0 &&
        (!interest.mustBeFresh() || it->isFresh(now)) && interest.matchesData(it->data()))
      match = &*it;
  }
  else {
    size_t scanned = 0;
    for (auto it = m_table.lower_bound(q); it != m_table.end(); ++it) {
      const Name& n = it->name();
      if (!q.isPrefixOf(n))
        break;
      // Entries named exactly q come first; without CanBePrefix nothing after them matches.
      if (!interest.canBePrefix() && n.size() != q.size())
        break;
      if (m_options.scanLimit > 0 && ++scanned > m_options.scanLimit)
        break;
      if (interest.mustBeFresh() && !it->isFresh(now))
        continue;
      match = &*it;
      break;
    }
  }

  if (match == nullptr) {
    ++m_counters.nMisses;
    return nullptr;
  }
  ++m_counters.nHits;
  lruUnlink(*match);
  lruAppend(*match);
  return match->m_data;
}

size_t Cs::erase(const Name& prefix, size_t limit)
{
  std::vector<const CsEntry*> victims;
  for (auto it = m_table.lower_bound(prefix); it != m_table.end() && victims.size() < limit; ++it) {
    if (!prefix.isPrefixOf(it->name()))
      break;
    victims.push_back(&*it);
  }
  for (const CsEntry* e : victims)
    eraseEntry(*e);
  return victims.size();
}

void Cs::setCapacity(size_t packets)
{
  m_options.capacity = packets;
  evict();
}

void Cs::setMaxBytes(size_t bytes)
{
  m_options.maxBytes = bytes;
  evict();
}

} // namespace ndnlab::table
