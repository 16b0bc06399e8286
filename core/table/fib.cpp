#include "core/table/fib.hpp"

#include "core/table/pit.hpp"

#include <algorithm>

namespace ndnlab::table {

const NextHop* FibEntry::findNextHop(const face::Face& face) const
{
  for (const NextHop& nh : m_nextHops) {
    if (nh.face == &face)
      return &nh;
  }
  return nullptr;
}

bool FibEntry::addOrUpdateNextHop(face::Face& face, uint64_t cost)
{
  auto it = std::find_if(m_nextHops.begin(), m_nextHops.end(), [&](const NextHop& nh) { return nh.face == &face; });
  bool isNew = it == m_nextHops.end();
  if (isNew)
    m_nextHops.push_back({&face, cost});
  else
    it->cost = cost;
  std::stable_sort(m_nextHops.begin(), m_nextHops.end(),
                   [](const NextHop& a, const NextHop& b) { return a.cost < b.cost; });
  return isNew;
}

bool FibEntry::removeNextHop(const face::Face& face)
{
  auto it = std::find_if(m_nextHops.begin(), m_nextHops.end(), [&](const NextHop& nh) { return nh.face == &face; });
  if (it == m_nextHops.end())
    return false;
  m_nextHops.erase(it);
  return true;
}

Fib::Fib(NameTree& nameTree) : m_nameTree(nameTree)
{}

const FibEntry& Fib::findLongestPrefixMatch(const Name& name) const
{
  NameTreeEntry* nte = m_nameTree.findLongestPrefixMatch(name);
  NameTreeEntry* found = NameTree::findAncestor(nte, [](const NameTreeEntry& e) { return e.fibEntry() != nullptr; });
  return found != nullptr ? *found->fibEntry() : m_emptyEntry;
}

const FibEntry& Fib::findLongestPrefixMatch(const PitEntry& pitEntry) const
{
  NameTreeEntry* found =
    NameTree::findAncestor(pitEntry.nameTreeEntry(), [](const NameTreeEntry& e) { return e.fibEntry() != nullptr; });
  return found != nullptr ? *found->fibEntry() : m_emptyEntry;
}

FibEntry* Fib::findExactMatch(const Name& prefix) const
{
  if (prefix.size() > NameTree::MaxDepth)
    return nullptr;
  NameTreeEntry* nte = m_nameTree.findExactMatch(prefix);
  return nte != nullptr ? nte->fibEntry() : nullptr;
}

std::pair<FibEntry*, bool> Fib::insert(const Name& prefix)
{
  if (prefix.size() > NameTree::MaxDepth)
    return {nullptr, false};
  NameTreeEntry& nte = m_nameTree.lookup(prefix);
  if (nte.m_fibEntry)
    return {nte.m_fibEntry.get(), false};
  nte.m_fibEntry = std::make_unique<FibEntry>(prefix);
  nte.m_fibEntry->m_nte = &nte;
  ++m_nItems;
  return {nte.m_fibEntry.get(), true};
}

bool Fib::addOrUpdateNextHop(FibEntry& entry, face::Face& face, uint64_t cost)
{
  bool isNew = entry.addOrUpdateNextHop(face, cost);
  if (isNew && afterNewNextHop) {
    const NextHop* nh = entry.findNextHop(face);
    afterNewNextHop(entry.prefix(), *nh);
  }
  return isNew;
}

bool Fib::removeNextHop(FibEntry& entry, const face::Face& face)
{
  bool removed = entry.removeNextHop(face);
  if (!entry.hasNextHops())
    erase(entry);
  return removed;
}

void Fib::erase(FibEntry& entry)
{
  if (&entry == &m_emptyEntry)
    return;
  NameTreeEntry* nte = entry.m_nte;
  nte->m_fibEntry.reset();
  --m_nItems;
  m_nameTree.eraseIfEmpty(nte);
}

bool Fib::erase(const Name& prefix)
{
  FibEntry* e = findExactMatch(prefix);
  if (e == nullptr)
    return false;
  erase(*e);
  return true;
}

size_t Fib::removeNextHopFromAllEntries(const face::Face& face)
{
  // Erasing during NameTree iteration is not allowed: collect first, erase after.
  std::vector<Name> emptied;
  size_t n = 0;
  m_nameTree.forEach([&](NameTreeEntry& nte) {
    if (nte.m_fibEntry && nte.m_fibEntry->removeNextHop(face)) {
      ++n;
      if (!nte.m_fibEntry->hasNextHops())
        emptied.push_back(nte.m_fibEntry->prefix());
    }
  });
  for (const Name& prefix : emptied)
    erase(prefix);
  return n;
}

std::vector<const FibEntry*> Fib::entries() const
{
  std::vector<const FibEntry*> out;
  out.reserve(m_nItems);
  m_nameTree.forEach([&](const NameTreeEntry& nte) {
    if (nte.fibEntry() != nullptr)
      out.push_back(nte.fibEntry());
  });
  return out;
}

} // namespace ndnlab::table
