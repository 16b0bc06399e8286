#pragma once
// Strategy: forwarding decisions only (NFD daemon/fw/strategy.hpp). The forwarder calls the
// triggers; a strategy answers with the actions. One instance exists per strategy-choice entry.
//
// Instance names: `/localhost/nfd/strategy/<name>/v=<version>[/<param>~<value>...]`. The
// registry creates an instance from a name with or without version (no version = the highest
// registered one); the instance reports the versioned name.

#include "core/face/face.hpp"
#include "core/table/fib.hpp"
#include "core/table/pit.hpp"
#include "core/table/strategy-choice.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace ndnlab::fw {

class Forwarder;

/// A face plus the remote endpoint a packet came from (multi-access faces).
struct FaceEndpoint
{
  face::Face& face;
  face::EndpointId endpoint = 0;
};

class Strategy : public table::StrategyBase
{
public:
  Strategy(Forwarder& forwarder, Name instanceName);
  ~Strategy() override;

  // --- triggers (called by the forwarder) ---

  /// A new Interest, aggregated Interest or retransmission, after the CS missed and the
  /// in-record was written. Must forward, Nack, reject, or deliberately do nothing.
  virtual void afterReceiveInterest(const Interest& interest, const FaceEndpoint& ingress,
                                    table::PitEntry& pitEntry) = 0;

  /// A looping Interest (duplicate Nonce) arrived on a point-to-point face. Default: Nack
  /// Duplicate to the ingress (NFD).
  virtual void onInterestLoop(const Interest& interest, const FaceEndpoint& ingress,
                              const std::optional<PitToken>& pitToken);

  /// The CS has Data for the Interest. Default: send it to the ingress.
  virtual void afterContentStoreHit(const Data& data, const FaceEndpoint& ingress, table::PitEntry& pitEntry);

  /// Data satisfies an entry that is one of several matches. Default: nothing.
  virtual void beforeSatisfyInterest(const Data& data, const FaceEndpoint& ingress, table::PitEntry& pitEntry);

  /// Data satisfies the only matching entry. Default: beforeSatisfyInterest, then send the
  /// Data to every pending downstream except the ingress.
  virtual void afterReceiveData(const Data& data, const FaceEndpoint& ingress, table::PitEntry& pitEntry);

  /// A Nack for an out-record (already recorded on it). Default: nothing.
  virtual void afterReceiveNack(const Nack& nack, const FaceEndpoint& ingress, table::PitEntry& pitEntry);

  /// The face dropped an Interest (e.g. LP reliability gave up). Default: nothing.
  virtual void onDroppedInterest(face::Face& egress, const Interest& interest);

  /// A nexthop was added to the FIB entry serving `pitEntry`. Default: nothing. Called only
  /// when wantsNewNextHop() (finding the affected PIT entries scans the PIT).
  virtual void afterNewNextHop(const table::NextHop& nexthop, table::PitEntry& pitEntry);
  virtual bool wantsNewNextHop() const { return false; }

protected:
  // --- actions ---

  /// Outgoing Interest pipeline; returns the out-record, or nullptr if the Interest was
  /// dropped (HopLimit 0 towards a non-local face).
  table::PitOutRecord* sendInterest(const Interest& interest, face::Face& egress, table::PitEntry& pitEntry);
  /// Outgoing Data pipeline to one downstream (re-attaching its PitToken); deletes its
  /// in-record. Returns false if dropped.
  bool sendData(const Data& data, face::Face& egress, table::PitEntry& pitEntry);
  /// sendData to every unexpired downstream except `ingress` (unless ad hoc).
  void sendDataToAll(const Data& data, table::PitEntry& pitEntry, const face::Face& ingress);
  /// Gives up on the entry: it is finalized when the current pipeline ends.
  void rejectPendingInterest(table::PitEntry& pitEntry);
  /// Outgoing Nack pipeline to one downstream; deletes its in-record. False if not sent.
  bool sendNack(NackReason reason, face::Face& egress, table::PitEntry& pitEntry);
  /// sendNack to every downstream except `except`.
  void sendNacks(NackReason reason, table::PitEntry& pitEntry, std::initializer_list<const face::Face*> except = {});

  /// FIB entry for the PIT entry (forwarding hint aware, NFD Strategy::lookupFib).
  const table::FibEntry& lookupFib(const table::PitEntry& pitEntry) const;

  Forwarder& forwarder() const { return m_forwarder; }
  Env& env() const;
  TimePoint now() const;

  /// Per-entry state owned by this strategy instance.
  template<typename T>
  T* getInfo(const table::PitEntry& e) const
  {
    return e.strategyInfo.get<T>(serial());
  }
  template<typename T, typename... Args>
  T& getOrCreateInfo(table::PitEntry& e, Args&&... args)
  {
    return e.strategyInfo.getOrCreate<T>(serial(), std::forward<Args>(args)...);
  }
  template<typename T, typename... Args>
  T& getOrCreateInfo(table::PitOutRecord& r, Args&&... args)
  {
    return r.strategyInfo.getOrCreate<T>(serial(), std::forward<Args>(args)...);
  }

private:
  Forwarder& m_forwarder;
};

/// Parsed `/localhost/nfd/strategy/<name>/v=<n>/<param>~<value>...`.
struct StrategyInstanceName
{
  Name strategyName; ///< without version and parameters
  std::optional<uint64_t> version;
  std::vector<std::pair<std::string, std::string>> parameters; ///< key~value components
  Name parameterComponents;                                    ///< the parameter components as given

  /// Splits an instance name; an error if a component after the version is not key~value.
  static Result<StrategyInstanceName, std::string> parse(const Name& instanceName);
};

/// Strategy types known to one forwarder, by versioned name. Not global: each Forwarder owns
/// one (pre-filled with the built-in strategies), so ns-3 nodes never share state.
class StrategyRegistry
{
public:
  /// Creates an instance; `params` are the key~value parameter components (already parsed).
  /// Returns an error string for invalid parameters.
  using Factory = std::function<Result<std::unique_ptr<Strategy>, std::string>(Forwarder&, const Name& instanceName,
                                                                               const StrategyInstanceName& parsed)>;

  /// Registers a strategy under its versioned name (e.g. /localhost/nfd/strategy/x/v=1).
  /// Throws std::invalid_argument if the name has no version or is already registered.
  void add(const Name& versionedName, Factory factory);
  /// Registry with best-route (v=5) and multicast (v=4).
  static StrategyRegistry withBuiltins();

  /// Creates the strategy named by `instanceName` (exact version, or the highest version when
  /// none is given).
  Result<std::unique_ptr<Strategy>, std::string> create(Forwarder& forwarder, const Name& instanceName) const;
  bool contains(const Name& instanceName) const;
  /// All registered versioned names.
  std::vector<Name> names() const;

private:
  std::map<Name, Factory> m_factories; ///< versioned name -> factory
};

} // namespace ndnlab::fw
