#pragma once
// Strategy Choice table (NFD daemon/table/strategy-choice*): which forwarding strategy serves
// each namespace, by longest-prefix match. The root "/" always has a choice and cannot be
// unset. Strategy instances are created by a factory from an instance name such as
// `/localhost/nfd/strategy/best-route` (latest version) or `/localhost/nfd/strategy/best-route/v=5`;
// the table reports the versioned instance name the factory returns. The table lives in table/
// and knows strategies only through StrategyBase; fw/ supplies the factory.

#include "core/table/name-tree.hpp"

#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <vector>

namespace ndnlab::table {

class PitEntry;

/// What the table knows of a strategy instance (fw::Strategy derives from it).
class StrategyBase
{
public:
  virtual ~StrategyBase() = default;
  /// Versioned instance name, including any parameters.
  const Name& instanceName() const { return m_instanceName; }
  /// Unique per instance within a process; keys the strategy-info slots it owns.
  uint64_t serial() const { return m_serial; }

protected:
  explicit StrategyBase(Name instanceName);
  void setInstanceName(Name n) { m_instanceName = std::move(n); }

private:
  Name m_instanceName;
  uint64_t m_serial;
};

class StrategyChoiceEntry
{
public:
  StrategyChoiceEntry(Name prefix, std::unique_ptr<StrategyBase> strategy)
    : m_prefix(std::move(prefix)), m_strategy(std::move(strategy))
  {}
  const Name& prefix() const { return m_prefix; }
  const Name& strategyName() const { return m_strategy->instanceName(); }
  StrategyBase& strategy() const { return *m_strategy; }

private:
  friend class StrategyChoice;
  Name m_prefix;
  std::unique_ptr<StrategyBase> m_strategy;
};

class StrategyChoice
{
public:
  /// Creates a strategy instance from a (possibly unversioned) instance name; an error string
  /// when the strategy is unknown or its parameters are invalid.
  using Factory = std::function<Result<std::unique_ptr<StrategyBase>, std::string>(const Name&)>;

  StrategyChoice(NameTree& nameTree, Factory factory);
  ~StrategyChoice();

  /// Installs the strategy for "/"; throws std::invalid_argument if the factory fails.
  void setDefaultStrategy(const Name& strategyName);

  struct InsertResult
  {
    bool ok = false;
    std::string error; ///< why not ok (unknown strategy, bad parameters, prefix too long)
    explicit operator bool() const { return ok; }
  };
  /// Sets the strategy of `prefix` (replacing any previous choice).
  InsertResult insert(const Name& prefix, const Name& strategyName);
  /// Unsets the choice of `prefix`; false if there was none or prefix is "/".
  bool erase(const Name& prefix);

  /// The instance name chosen exactly at `prefix`, if any.
  std::optional<Name> get(const Name& prefix) const;

  StrategyBase& findEffectiveStrategy(const Name& name) const;
  StrategyBase& findEffectiveStrategy(const PitEntry& pitEntry) const;
  StrategyBase& findEffectiveStrategy(const NameTreeEntry& nte) const;

  size_t size() const { return m_nItems; }
  /// Every entry, sorted by prefix (canonical order).
  std::vector<const StrategyChoiceEntry*> entries() const;
  /// Calls f(StrategyBase&) for every installed instance (no NameTree scan).
  template<typename F>
  void forEachStrategy(F&& f) const
  {
    for (const StrategyChoiceEntry* e : m_entries)
      f(e->strategy());
  }

  /// Destroys instances replaced or erased since the last call. The forwarder calls this when no
  /// pipeline is running, so a strategy replaced from inside its own trigger stays alive until
  /// the trigger returns.
  void clearRetired() { m_retired.clear(); }

private:
  NameTree& m_nameTree;
  Factory m_factory;
  size_t m_nItems = 0;
  std::vector<std::unique_ptr<StrategyBase>> m_retired;
  std::vector<const StrategyChoiceEntry*> m_entries; ///< unordered
};

} // namespace ndnlab::table
