#include "core/table/strategy-choice.hpp"

#include "core/table/pit.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace ndnlab::table {

namespace {
// Process-wide counter for instance serials: serials only need to be unique, never shared state
// between forwarders beyond that.
std::atomic<uint64_t> g_lastSerial{0};
} // namespace

StrategyBase::StrategyBase(Name instanceName) : m_instanceName(std::move(instanceName)), m_serial(++g_lastSerial)
{}

StrategyChoice::StrategyChoice(NameTree& nameTree, Factory factory)
  : m_nameTree(nameTree), m_factory(std::move(factory))
{}

StrategyChoice::~StrategyChoice() = default;

void StrategyChoice::setDefaultStrategy(const Name& strategyName)
{
  auto r = insert(Name(), strategyName);
  if (!r)
    throw std::invalid_argument("cannot set default strategy " + strategyName.toUri() + ": " + r.error);
}

StrategyChoice::InsertResult StrategyChoice::insert(const Name& prefix, const Name& strategyName)
{
  if (prefix.size() > NameTree::MaxDepth)
    return {false, "prefix has more than 32 components"};
  auto created = m_factory(strategyName);
  if (!created)
    return {false, created.error()};
  NameTreeEntry& nte = m_nameTree.lookup(prefix);
  if (nte.m_strategyChoiceEntry) {
    m_retired.push_back(std::move(nte.m_strategyChoiceEntry->m_strategy));
    nte.m_strategyChoiceEntry->m_strategy = std::move(*created);
  }
  else {
    nte.m_strategyChoiceEntry = std::make_unique<StrategyChoiceEntry>(prefix, std::move(*created));
    m_entries.push_back(nte.m_strategyChoiceEntry.get());
    ++m_nItems;
  }
  return {true, {}};
}

bool StrategyChoice::erase(const Name& prefix)
{
  if (prefix.empty() || prefix.size() > NameTree::MaxDepth)
    return false;
  NameTreeEntry* nte = m_nameTree.findExactMatch(prefix);
  if (nte == nullptr || !nte->m_strategyChoiceEntry)
    return false;
  m_retired.push_back(std::move(nte->m_strategyChoiceEntry->m_strategy));
  std::erase(m_entries, nte->m_strategyChoiceEntry.get());
  nte->m_strategyChoiceEntry.reset();
  --m_nItems;
  m_nameTree.eraseIfEmpty(nte);
  return true;
}

std::optional<Name> StrategyChoice::get(const Name& prefix) const
{
  if (prefix.size() > NameTree::MaxDepth)
    return std::nullopt;
  NameTreeEntry* nte = m_nameTree.findExactMatch(prefix);
  if (nte == nullptr || nte->strategyChoiceEntry() == nullptr)
    return std::nullopt;
  return nte->strategyChoiceEntry()->strategyName();
}

StrategyBase& StrategyChoice::findEffectiveStrategy(const NameTreeEntry& nte) const
{
  NameTreeEntry* found = NameTree::findAncestor(
    const_cast<NameTreeEntry*>(&nte), [](const NameTreeEntry& e) { return e.strategyChoiceEntry() != nullptr; });
  if (found == nullptr)
    throw std::logic_error("StrategyChoice: no default strategy installed");
  return found->strategyChoiceEntry()->strategy();
}

StrategyBase& StrategyChoice::findEffectiveStrategy(const Name& name) const
{
  NameTreeEntry* nte = m_nameTree.findLongestPrefixMatch(name);
  if (nte == nullptr)
    throw std::logic_error("StrategyChoice: no default strategy installed");
  return findEffectiveStrategy(*nte);
}

StrategyBase& StrategyChoice::findEffectiveStrategy(const PitEntry& pitEntry) const
{
  return findEffectiveStrategy(*pitEntry.nameTreeEntry());
}

std::vector<const StrategyChoiceEntry*> StrategyChoice::entries() const
{
  std::vector<const StrategyChoiceEntry*> out = m_entries;
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->prefix() < b->prefix(); });
  return out;
}

} // namespace ndnlab::table
