#pragma once
// Dead Nonce List (NFD daemon/table/dead-nonce-list*): remembers Name+Nonce of Interests that
// left the PIT, so a looping Interest that comes back after its PIT entry is gone is still
// detected. NFD stores a 64-bit hash of (Name, Nonce) with an auto-tuned capacity; here each
// entry is the same 64-bit hash plus its insertion time, kept in insertion order. Entries older
// than `lifetime` are dropped lazily, and the list never holds more than `capacity` entries
// (the oldest are evicted early, counted in nEvictedEarly), so memory is bounded:
// about 32 bytes per entry.

#include "core/codec/name.hpp"
#include "core/runtime/env.hpp"

#include <deque>
#include <vector>

namespace ndnlab::table {

struct DeadNonceListOptions
{
  /// How long an entry is remembered (NFD default 6 s; at least 50 ms).
  Duration lifetime = std::chrono::seconds(6);
  /// Maximum number of entries (oldest evicted first).
  size_t capacity = 1 << 19;
};

class DeadNonceList
{
public:
  static constexpr Duration MinLifetime = std::chrono::milliseconds(50);

  /// Throws std::invalid_argument if lifetime < MinLifetime or capacity is 0.
  DeadNonceList(Env& env, DeadNonceListOptions options = {});

  /// True if (name, nonce) was added less than `lifetime` ago.
  bool has(const Name& name, uint32_t nonce);
  void add(const Name& name, uint32_t nonce);

  size_t size() const { return m_queue.size(); }
  Duration lifetime() const { return m_options.lifetime; }
  size_t capacity() const { return m_options.capacity; }
  /// Entries evicted before their lifetime ended because the list was full.
  uint64_t nEvictedEarly() const { return m_nEvictedEarly; }

private:
  static uint64_t makeKey(const Name& name, uint32_t nonce);
  void expire(TimePoint now);
  void popFront();
  // open-addressing multiset of keys (linear probing, backward-shift deletion)
  bool setContains(uint64_t key) const;
  void setInsert(uint64_t key);
  void setErase(uint64_t key);
  void setRehash(size_t newSize);

  struct Item
  {
    uint64_t key;
    TimePoint added;
  };

  Env& m_env;
  DeadNonceListOptions m_options;
  std::deque<Item> m_queue;
  std::vector<uint64_t> m_slots; ///< 0 = empty; power-of-two size
  size_t m_nSlotsUsed = 0;
  uint64_t m_nEvictedEarly = 0;
};

} // namespace ndnlab::table
