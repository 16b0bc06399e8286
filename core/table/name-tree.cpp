#include "core/table/name-tree.hpp"

#include "core/table/fib.hpp"
#include "core/table/pit.hpp"
#include "core/table/strategy-choice.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace ndnlab::table {

uint64_t hashBytes(ByteSpan bytes, uint64_t seed)
{
  // Multiply-xorshift over 8-octet words; good enough dispersion for table keys.
  constexpr uint64_t k1 = 0x9E3779B97F4A7C15ULL;
  constexpr uint64_t k2 = 0xBF58476D1CE4E5B9ULL;
  uint64_t h = (seed + 0x94D049BB133111EBULL) ^ (bytes.size() * k1);
  const uint8_t* p = bytes.data();
  size_t len = bytes.size();
  while (len >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * k2;
    h ^= h >> 31;
    p += 8;
    len -= 8;
  }
  if (len > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, len);
    h = (h ^ w) * k2;
    h ^= h >> 31;
  }
  h ^= h >> 30;
  h *= k1;
  h ^= h >> 27;
  return h;
}

ByteSpan prefixBytes(const Name& name, size_t n)
{
  return name.prefixValue(n);
}

NameTreeEntry::NameTreeEntry(Name name, uint64_t hash) : m_name(std::move(name)), m_hash(hash)
{}

NameTreeEntry::~NameTreeEntry() = default;

NameTree::NameTree(size_t initialBuckets)
  : m_buckets(std::max<size_t>(16, std::bit_ceil(initialBuckets)), nullptr), m_minBuckets(m_buckets.size())
{}

NameTree::~NameTree()
{
  for (NameTreeEntry*& head : m_buckets) {
    NameTreeEntry* e = head;
    while (e != nullptr) {
      NameTreeEntry* next = e->m_nextInBucket;
      delete e;
      e = next;
    }
    head = nullptr;
  }
}

NameTreeEntry* NameTree::findInBucket(ByteSpan key, uint64_t hash) const
{
  for (NameTreeEntry* e = m_buckets[hash & (m_buckets.size() - 1)]; e != nullptr; e = e->m_nextInBucket) {
    if (e->m_hash != hash)
      continue;
    ByteSpan v = e->m_name.value();
    if (v.size() == key.size() && (key.empty() || std::memcmp(v.data(), key.data(), key.size()) == 0))
      return e;
  }
  return nullptr;
}

void NameTree::insertIntoBucket(NameTreeEntry* e)
{
  NameTreeEntry*& head = m_buckets[e->m_hash & (m_buckets.size() - 1)];
  e->m_nextInBucket = head;
  head = e;
}

void NameTree::removeFromBucket(NameTreeEntry* e)
{
  NameTreeEntry** link = &m_buckets[e->m_hash & (m_buckets.size() - 1)];
  while (*link != e)
    link = &(*link)->m_nextInBucket;
  *link = e->m_nextInBucket;
  e->m_nextInBucket = nullptr;
}

void NameTree::resize(size_t newBucketCount)
{
  std::vector<NameTreeEntry*> old(newBucketCount, nullptr);
  old.swap(m_buckets);
  for (NameTreeEntry* head : old) {
    NameTreeEntry* e = head;
    while (e != nullptr) {
      NameTreeEntry* next = e->m_nextInBucket;
      insertIntoBucket(e);
      e = next;
    }
  }
}

NameTreeEntry* NameTree::findExactMatch(const Name& name, size_t n) const
{
  n = std::min({n, name.size(), MaxDepth});
  ByteSpan key = prefixBytes(name, n);
  return findInBucket(key, hashBytes(key));
}

NameTreeEntry* NameTree::findLongestPrefixMatch(const Name& name, size_t n) const
{
  n = std::min({n, name.size(), MaxDepth});
  // Existence is monotone in prefix length (ancestors of an entry exist), so binary search
  // for the longest existing prefix.
  if (NameTreeEntry* full = findExactMatch(name, n))
    return full;
  return findLongestPrefixMatchBelow(name, n);
}

NameTreeEntry* NameTree::findLongestPrefixMatchBelow(const Name& name, size_t n) const
{
  // precondition: the prefix of n components does not exist
  if (n == 0 || m_size == 0)
    return nullptr;
  NameTreeEntry* best = findExactMatch(name, 0);
  if (best == nullptr)
    return nullptr;
  size_t lo = 0, hi = n; // prefix lo exists, prefix hi does not
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (NameTreeEntry* e = findExactMatch(name, mid)) {
      lo = mid;
      best = e;
    }
    else {
      hi = mid;
    }
  }
  return best;
}

NameTreeEntry& NameTree::lookup(const Name& name, size_t n)
{
  n = std::min({n, name.size(), MaxDepth});
  if (NameTreeEntry* e = findExactMatch(name, n))
    return *e;
  return create(name, n);
}

NameTreeEntry& NameTree::create(const Name& name, size_t n)
{
  NameTreeEntry* parent = findLongestPrefixMatchBelow(name, n);
  size_t depth = parent == nullptr ? 0 : parent->m_name.size() + 1;
  NameTreeEntry* created = nullptr;
  for (size_t k = depth; k <= n; ++k) {
    ByteSpan key = prefixBytes(name, k);
    auto* e = new NameTreeEntry(name.getPrefix(static_cast<ptrdiff_t>(k)), hashBytes(key));
    e->m_parent = parent;
    if (parent != nullptr)
      ++parent->m_nChildren;
    insertIntoBucket(e);
    ++m_size;
    parent = e;
    created = e;
  }
  if (m_size > m_buckets.size())
    resize(m_buckets.size() * 2);
  return *created;
}

size_t NameTree::eraseIfEmpty(NameTreeEntry* entry)
{
  size_t n = 0;
  while (entry != nullptr && entry->isEmpty()) {
    NameTreeEntry* parent = entry->m_parent;
    if (parent != nullptr)
      --parent->m_nChildren;
    removeFromBucket(entry);
    delete entry;
    --m_size;
    ++n;
    entry = parent;
  }
  if (n > 0 && m_buckets.size() > m_minBuckets && m_size < m_buckets.size() / 8)
    resize(m_buckets.size() / 2);
  return n;
}

} // namespace ndnlab::table
