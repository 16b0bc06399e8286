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

bool CsCompare::operator()(const CsKey& a, const CsKey& b) const
{
  int c = compareValues(a.value(), b.value());
  if (c != 0)
    return c < 0;
  if (a.entry == b.entry)
    return false;
  return std::memcmp(a.entry->data().implicitDigest().data(), b.entry->data().implicitDigest().data(), 32) < 0;
}

bool CsCompare::operator()(const CsKey& a, const Name& query) const
{
  return compareQuery(query, *a.entry) > 0;
}

bool CsCompare::operator()(const Name& query, const CsKey& b) const
{
  return compareQuery(query, *b.entry) < 0;
}

Cs::Cs(Env& env, CsOptions options) : m_env(env), m_options(options)
{}

Cs::~Cs()
{
  for (const CsKey& k : m_table)
    delete k.entry;
}

void Cs::lruUnlink(CsEntry& e)
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

void Cs::lruAppend(CsEntry& e)
{
  e.m_prev = m_lruTail;
  e.m_next = nullptr;
  if (m_lruTail != nullptr)
    m_lruTail->m_next = &e;
  else
    m_lruHead = &e;
  m_lruTail = &e;
}

void Cs::eraseEntry(CsEntry& e)
{
  lruUnlink(e);
  m_bytes -= e.m_bytes;
  m_table.erase(e.m_self);
  delete &e;
}

void Cs::evict()
{
  while (m_lruHead != nullptr &&
         (m_table.size() > m_options.capacity || (m_options.maxBytes > 0 && m_bytes > m_options.maxBytes))) {
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
  ByteSpan name = data->name().value();

  auto owned = std::make_unique<CsEntry>(std::move(data));
  CsKey key{name.data(), name.size(), owned.get()};
  CsCompare less;
  // Names often arrive in increasing order (segments, sequence numbers): then the new entry
  // goes last and the end is an exact hint (amortized O(1) insertion).
  std::pair<Table::iterator, bool> ins;
  if (!m_table.empty() && less(*m_table.rbegin(), key))
    ins = {m_table.insert(m_table.end(), key), true};
  else
    ins = m_table.insert(key);

  CsEntry* e = ins.first->entry;
  if (ins.second) {
    owned.release();
    e->m_self = ins.first;
    e->m_isUnsolicited = isUnsolicited;
    e->m_bytes = e->m_data->wireSize();
    m_bytes += e->m_bytes;
    ++m_counters.nInserts;
  }
  else {
    // Same full name, so same bytes: keep the cached object, refresh freshness and LRU position.
    lruUnlink(*e);
    e->m_isUnsolicited = e->m_isUnsolicited && isUnsolicited;
    ++m_counters.nRefreshes;
  }
  e->m_freshUntil = fp > Duration::zero() ? now + fp : now;
  lruAppend(*e);
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
  CsEntry* match = nullptr;
  size_t scanned = 0;
  auto withinLimit = [&] { return m_options.scanLimit == 0 || ++scanned <= m_options.scanLimit; };

  // A name above every cached name (typical for new segments/sequence numbers) misses at once.
  auto it = compareQuery(q, *m_table.rbegin()->entry) > 0 ? m_table.end() : m_table.lower_bound(q);
  if (isFullName(q)) {
    // at most one entry has this full name
    if (it != m_table.end() && compareQuery(q, *it->entry) == 0 &&
        (!interest.mustBeFresh() || it->entry->isFresh(now)) && interest.matchesData(it->entry->data()))
      match = it->entry;
  }
  else {
    ByteSpan qv = q.value();
    for (; it != m_table.end() && withinLimit(); ++it) {
      ByteSpan v = it->value();
      if (v.size() < qv.size() || (!qv.empty() && std::memcmp(v.data(), qv.data(), qv.size()) != 0))
        break; // past the names under q
      // Entries named exactly q come first; without CanBePrefix nothing after them matches.
      if (!interest.canBePrefix() && v.size() != qv.size())
        break;
      if (interest.mustBeFresh() && !it->entry->isFresh(now))
        continue;
      match = it->entry;
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
  std::vector<CsEntry*> victims;
  for (auto it = m_table.lower_bound(prefix); it != m_table.end() && victims.size() < limit; ++it) {
    if (!prefix.isPrefixOf(it->entry->name()))
      break;
    victims.push_back(it->entry);
  }
  for (CsEntry* e : victims)
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
