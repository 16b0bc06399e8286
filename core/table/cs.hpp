#pragma once
// Content Store (NFD daemon/table/cs*): a capacity-bounded LRU cache of Data.
//
// Entries are ordered by Data name, then implicit digest (the digest is computed only when two
// Data share a name). Lookup follows NFD Cs::find: the first entry, in that order, that the
// Interest can be satisfied with (exact name, CanBePrefix prefix, or full name with implicit
// digest), skipping stale entries when the Interest has MustBeFresh. A Data is fresh for
// FreshnessPeriod after its (latest) insertion; FreshnessPeriod 0 is never fresh. CachePolicy
// NoCache Data is not admitted. Memory is bounded by a packet count and a byte count.

#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "core/runtime/env.hpp"

#include <memory>
#include <set>

namespace ndnlab::table {

struct CsOptions
{
  /// Maximum number of cached Data packets (NFD tables.cs_max_packets); 0 disables caching.
  size_t capacity = 65536;
  /// Maximum total wire size of cached Data, bytes; 0 = no byte limit.
  size_t maxBytes = 256 * 1024 * 1024;
  /// CanBePrefix lookups examine at most this many candidates (bounds per-Interest work when
  /// many cached Data under a prefix are stale); 0 = unlimited.
  size_t scanLimit = 1024;
  /// NFD CS flag "admit": insert Data.
  bool admit = true;
  /// NFD CS flag "serve": answer Interests from the cache.
  bool serve = true;
};

class CsEntry;

/// Index key: a view of the entry's Data name TLV-VALUE (kept in the set node, so comparisons
/// touch the node and the name bytes only) plus the entry.
struct CsKey
{
  const uint8_t* name;
  size_t size;
  CsEntry* entry;
  ByteSpan value() const { return {name, size}; }
};

/// Canonical order of entries (name, then implicit digest) and of lookup names against entries.
struct CsCompare
{
  using is_transparent = void;
  bool operator()(const CsKey& a, const CsKey& b) const;
  bool operator()(const CsKey& a, const Name& query) const;
  bool operator()(const Name& query, const CsKey& b) const;
};

class CsEntry
{
public:
  explicit CsEntry(std::shared_ptr<Data> data) : m_data(std::move(data)) {}

  const Data& data() const { return *m_data; }
  const std::shared_ptr<Data>& dataPtr() const { return m_data; }
  const Name& name() const { return m_data->name(); }
  TimePoint freshUntil() const { return m_freshUntil; }
  bool isFresh(TimePoint now) const { return now < m_freshUntil; }
  bool isUnsolicited() const { return m_isUnsolicited; }

private:
  friend class Cs;
  std::shared_ptr<Data> m_data;
  TimePoint m_freshUntil{};
  bool m_isUnsolicited = false;
  size_t m_bytes = 0;
  CsEntry* m_prev = nullptr;                   ///< LRU list, towards least recently used
  CsEntry* m_next = nullptr;                   ///< LRU list, towards most recently used
  std::set<CsKey, CsCompare>::iterator m_self; ///< position in the ordered index
};

class Cs
{
public:
  struct Counters
  {
    uint64_t nHits = 0;
    uint64_t nMisses = 0;
    uint64_t nInserts = 0;   ///< new entries
    uint64_t nRefreshes = 0; ///< re-insertions of a cached Data
    uint64_t nEvictions = 0;
    uint64_t nNotAdmitted = 0; ///< NoCache, admit off, or capacity 0
  };

  Cs(Env& env, CsOptions options = {});
  ~Cs();
  Cs(const Cs&) = delete;
  Cs& operator=(const Cs&) = delete;

  /// Inserts `data`, or refreshes the freshness and LRU position of the same cached Data.
  void insert(std::shared_ptr<Data> data, bool isUnsolicited = false);

  /// The best cached Data for the Interest, or nullptr; counts a hit or a miss. A hit becomes
  /// the most recently used entry.
  std::shared_ptr<Data> find(const Interest& interest);

  /// Erases up to `limit` entries under `prefix`; returns how many were erased.
  size_t erase(const Name& prefix, size_t limit = static_cast<size_t>(-1));

  size_t size() const { return m_table.size(); }
  size_t bytes() const { return m_bytes; }
  size_t capacity() const { return m_options.capacity; }
  size_t maxBytes() const { return m_options.maxBytes; }
  /// Changing limits evicts immediately if needed.
  void setCapacity(size_t packets);
  void setMaxBytes(size_t bytes);
  bool shouldAdmit() const { return m_options.admit; }
  bool shouldServe() const { return m_options.serve; }
  void enableAdmit(bool on) { m_options.admit = on; }
  void enableServe(bool on) { m_options.serve = on; }
  const Counters& counters() const { return m_counters; }

  /// Entries from least to most recently used.
  template<typename F>
  void forEachLru(F&& f) const
  {
    for (const CsEntry* e = m_lruHead; e != nullptr; e = e->m_next)
      f(*e);
  }

private:
  /// Ordered index; owns the entries (deleted on erase).
  using Table = std::set<CsKey, CsCompare>;

  void lruUnlink(CsEntry& e);
  void lruAppend(CsEntry& e);
  void evict();
  void eraseEntry(CsEntry& e);

  Env& m_env;
  CsOptions m_options;
  Table m_table;
  size_t m_bytes = 0;
  CsEntry* m_lruHead = nullptr;
  CsEntry* m_lruTail = nullptr;
  Counters m_counters;
};

} // namespace ndnlab::table
