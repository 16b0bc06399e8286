#pragma once
// Forwarding Information Base (NFD daemon/table/fib*): name prefix -> nexthops with cost,
// longest-prefix match on the NameTree. Nexthops are kept sorted by cost (stable, so equal
// costs keep insertion order).

#include "core/face/face.hpp"
#include "core/table/name-tree.hpp"

#include <vector>

namespace ndnlab::table {

struct NextHop
{
  face::Face* face = nullptr;
  uint64_t cost = 0;
};

class FibEntry
{
public:
  explicit FibEntry(Name prefix) : m_prefix(std::move(prefix)) {}

  const Name& prefix() const { return m_prefix; }
  const std::vector<NextHop>& nextHops() const { return m_nextHops; }
  bool hasNextHops() const { return !m_nextHops.empty(); }
  bool hasNextHop(const face::Face& face) const { return findNextHop(face) != nullptr; }
  const NextHop* findNextHop(const face::Face& face) const;

private:
  friend class Fib;
  /// Returns true if a new nexthop was added (false: cost updated).
  bool addOrUpdateNextHop(face::Face& face, uint64_t cost);
  bool removeNextHop(const face::Face& face);

  Name m_prefix;
  std::vector<NextHop> m_nextHops;
  NameTreeEntry* m_nte = nullptr;
};

class Fib
{
public:
  explicit Fib(NameTree& nameTree);

  /// The longest-prefix-matching entry; an empty root entry ("/", no nexthops) when none.
  const FibEntry& findLongestPrefixMatch(const Name& name) const;
  /// Same, starting from a PIT entry's NameTree entry (no hashing).
  const FibEntry& findLongestPrefixMatch(const PitEntry& pitEntry) const;
  FibEntry* findExactMatch(const Name& prefix) const;

  /// Finds or creates the entry of `prefix`. {nullptr, false} if the prefix is longer than
  /// NameTree::MaxDepth components.
  std::pair<FibEntry*, bool> insert(const Name& prefix);
  /// Adds the nexthop or updates its cost; returns true if it is new.
  bool addOrUpdateNextHop(FibEntry& entry, face::Face& face, uint64_t cost);
  /// Removes a nexthop; erases the entry when no nexthop remains (`entry` is then invalid).
  /// Returns true if the nexthop existed.
  bool removeNextHop(FibEntry& entry, const face::Face& face);
  /// Removes `face` from every entry, erasing entries left empty. Returns how many nexthops
  /// were removed.
  size_t removeNextHopFromAllEntries(const face::Face& face);
  /// Erases the entry (all its nexthops).
  void erase(FibEntry& entry);
  bool erase(const Name& prefix);

  size_t size() const { return m_nItems; }

  /// Every entry, in no particular order.
  std::vector<const FibEntry*> entries() const;

  /// Called after a nexthop is added (not on cost updates); NFD afterNewNextHop.
  std::function<void(const Name& prefix, const NextHop& nexthop)> afterNewNextHop;

private:
  NameTree& m_nameTree;
  size_t m_nItems = 0;
  FibEntry m_emptyEntry{Name()};
};

} // namespace ndnlab::table
