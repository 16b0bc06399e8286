#pragma once
// NameTree: a hash table of name prefixes with parent links (NFD daemon/table/name-tree*).
//
// Fib, Pit and StrategyChoice attach their entries to NameTree entries. An entry exists while
// it has a table entry or a child, so the ancestors of an existing entry always exist; a PIT
// entry finds its FIB and strategy-choice entries by walking parent links, without hashing.
// Names deeper than MaxDepth components are attached at their MaxDepth-component prefix.

#include "core/codec/name.hpp"
#include "core/table/small-vector.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace ndnlab::table {

class FibEntry;
class PitEntry;
class StrategyChoiceEntry;

/// 64-bit hash of a byte string (not cryptographic).
uint64_t hashBytes(ByteSpan bytes, uint64_t seed = 0);

/// The TLV-VALUE bytes of the first `n` components of `name` (n clamped to name.size()).
ByteSpan prefixBytes(const Name& name, size_t n);

class NameTreeEntry
{
public:
  explicit NameTreeEntry(Name name, uint64_t hash);
  ~NameTreeEntry();
  NameTreeEntry(const NameTreeEntry&) = delete;
  NameTreeEntry& operator=(const NameTreeEntry&) = delete;

  const Name& name() const { return m_name; }
  NameTreeEntry* parent() const { return m_parent; }
  size_t nChildren() const { return m_nChildren; }

  FibEntry* fibEntry() const { return m_fibEntry.get(); }
  const SmallVector<std::unique_ptr<PitEntry>, 1>& pitEntries() const { return m_pitEntries; }
  bool hasPitEntries() const { return !m_pitEntries.empty(); }
  StrategyChoiceEntry* strategyChoiceEntry() const { return m_strategyChoiceEntry.get(); }

  bool hasTableEntries() const { return m_fibEntry || !m_pitEntries.empty() || m_strategyChoiceEntry; }
  /// No table entries and no children: may be erased.
  bool isEmpty() const { return !hasTableEntries() && m_nChildren == 0; }

private:
  friend class NameTree;
  friend class Fib;
  friend class Pit;
  friend class StrategyChoice;

  Name m_name;
  uint64_t m_hash;
  NameTreeEntry* m_parent = nullptr;
  NameTreeEntry* m_nextInBucket = nullptr;
  size_t m_nChildren = 0;

  std::unique_ptr<FibEntry> m_fibEntry;
  SmallVector<std::unique_ptr<PitEntry>, 1> m_pitEntries;
  std::unique_ptr<StrategyChoiceEntry> m_strategyChoiceEntry;
};

class NameTree
{
public:
  /// NFD NameTree/FIB limit; names are truncated to this many components.
  static constexpr size_t MaxDepth = 32;
  static constexpr size_t npos = static_cast<size_t>(-1);

  explicit NameTree(size_t initialBuckets = 1024);
  ~NameTree();
  NameTree(const NameTree&) = delete;
  NameTree& operator=(const NameTree&) = delete;

  /// Finds or creates the entry of the first min(n, name.size(), MaxDepth) components, creating
  /// missing ancestors too.
  NameTreeEntry& lookup(const Name& name, size_t n = npos);

  /// The entry of exactly the first min(n, name.size(), MaxDepth) components, or nullptr.
  NameTreeEntry* findExactMatch(const Name& name, size_t n = npos) const;

  /// The deepest existing entry whose name is a prefix of the first min(n, ...) components of
  /// `name`; nullptr only when the tree is empty. O(log depth) hash probes.
  NameTreeEntry* findLongestPrefixMatch(const Name& name, size_t n = npos) const;

  /// Walks from `start` to the root and returns the first entry satisfying `pred`, or nullptr.
  template<typename Pred>
  static NameTreeEntry* findAncestor(NameTreeEntry* start, Pred&& pred)
  {
    for (NameTreeEntry* e = start; e != nullptr; e = e->m_parent) {
      if (pred(*e))
        return e;
    }
    return nullptr;
  }

  /// Erases `entry` if it is empty, then each ancestor that became empty. Returns how many
  /// entries were erased. `entry` must not be used afterwards when the result is > 0.
  size_t eraseIfEmpty(NameTreeEntry* entry);

  size_t size() const { return m_size; }
  size_t bucketCount() const { return m_buckets.size(); }

  /// Calls f(NameTreeEntry&) for every entry, in no particular order. `f` must not insert or
  /// erase entries.
  template<typename F>
  void forEach(F&& f) const
  {
    for (NameTreeEntry* head : m_buckets) {
      for (NameTreeEntry* e = head; e != nullptr; e = e->m_nextInBucket)
        f(*e);
    }
  }

  /// lookup() when the caller already knows the entry does not exist (n already clamped).
  NameTreeEntry& create(const Name& name, size_t n);

private:
  NameTreeEntry* findLongestPrefixMatchBelow(const Name& name, size_t n) const;
  NameTreeEntry* findInBucket(ByteSpan key, uint64_t hash) const;
  void insertIntoBucket(NameTreeEntry* e);
  void removeFromBucket(NameTreeEntry* e);
  void resize(size_t newBucketCount);

  std::vector<NameTreeEntry*> m_buckets;
  size_t m_size = 0;
  size_t m_minBuckets;
};

} // namespace ndnlab::table
