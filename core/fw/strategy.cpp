#include "core/fw/strategy.hpp"

#include "core/fw/algorithm.hpp"
#include "core/fw/forwarder.hpp"
#include "core/fw/strategies/best-route-strategy.hpp"
#include "core/fw/strategies/multicast-strategy.hpp"

#include <algorithm>
#include <stdexcept>

namespace ndnlab::fw {

// --- Strategy -------------------------------------------------------------------------------

Strategy::Strategy(Forwarder& forwarder, Name instanceName)
  : table::StrategyBase(std::move(instanceName)), m_forwarder(forwarder)
{}

Strategy::~Strategy() = default;

Env& Strategy::env() const
{
  return m_forwarder.env();
}

TimePoint Strategy::now() const
{
  return m_forwarder.env().now();
}

void Strategy::onInterestLoop(const Interest& interest, const FaceEndpoint& ingress,
                              const std::optional<PitToken>& pitToken)
{
  Nack nack{interest, NackReason::Duplicate};
  nack.interest.tags = PacketTags{};
  nack.interest.tags.pitToken = pitToken;
  ingress.face.sendNack(nack);
  ++m_forwarder.m_counters.nOutNacks;
  m_forwarder.m_env.emit(
    {.kind = EventKind::NackOut, .face = ingress.face.id(), .reason = toString(NackReason::Duplicate)});
}

void Strategy::afterContentStoreHit(const Data& data, const FaceEndpoint& ingress, table::PitEntry& pitEntry)
{
  sendData(data, ingress.face, pitEntry);
}

void Strategy::beforeSatisfyInterest(const Data&, const FaceEndpoint&, table::PitEntry&)
{}

void Strategy::afterReceiveData(const Data& data, const FaceEndpoint& ingress, table::PitEntry& pitEntry)
{
  beforeSatisfyInterest(data, ingress, pitEntry);
  sendDataToAll(data, pitEntry, ingress.face);
}

void Strategy::afterReceiveNack(const Nack&, const FaceEndpoint&, table::PitEntry&)
{}

void Strategy::onDroppedInterest(face::Face&, const Interest&)
{}

void Strategy::afterNewNextHop(const table::NextHop&, table::PitEntry&)
{}

table::PitOutRecord* Strategy::sendInterest(const Interest& interest, face::Face& egress, table::PitEntry& pitEntry)
{
  if (interest.tags.pitToken) {
    // A PitToken is meaningful only to the downstream that sent it: never forward it upstream.
    Interest stripped = interest;
    stripped.tags.pitToken.reset();
    return m_forwarder.onOutgoingInterest(stripped, egress, pitEntry);
  }
  return m_forwarder.onOutgoingInterest(interest, egress, pitEntry);
}

bool Strategy::sendData(const Data& data, face::Face& egress, table::PitEntry& pitEntry)
{
  std::optional<PitToken> token = data.tags.pitToken;
  if (const table::PitInRecord* r = pitEntry.findInRecord(egress)) {
    token = r->pitToken;
    // the Data answers this downstream's Interest: its in-record is done
    m_forwarder.m_pit.deleteInRecord(pitEntry, egress);
  }
  return m_forwarder.onOutgoingData(data, egress, token);
}

void Strategy::sendDataToAll(const Data& data, table::PitEntry& pitEntry, const face::Face& ingress)
{
  TimePoint t = now();
  table::SmallVector<face::Face*, 4> downstreams;
  for (const table::PitInRecord& r : pitEntry.inRecords()) {
    if (r.expiry <= t)
      continue;
    if (r.face == &ingress && r.face->linkType() != face::LinkType::AdHoc)
      continue;
    if (std::find(downstreams.begin(), downstreams.end(), r.face) == downstreams.end())
      downstreams.push_back(r.face);
  }
  // sendData deletes in-records: never iterate the records while sending
  for (face::Face* f : downstreams)
    sendData(data, *f, pitEntry);
}

void Strategy::rejectPendingInterest(table::PitEntry& pitEntry)
{
  m_forwarder.setExpiryTimer(pitEntry, Duration::zero());
}

bool Strategy::sendNack(NackReason reason, face::Face& egress, table::PitEntry& pitEntry)
{
  return m_forwarder.onOutgoingNack(reason, egress, pitEntry);
}

void Strategy::sendNacks(NackReason reason, table::PitEntry& pitEntry, std::initializer_list<const face::Face*> except)
{
  table::SmallVector<face::Face*, 4> downstreams;
  for (const table::PitInRecord& r : pitEntry.inRecords()) {
    if (std::find(except.begin(), except.end(), r.face) != except.end())
      continue;
    if (std::find(downstreams.begin(), downstreams.end(), r.face) == downstreams.end())
      downstreams.push_back(r.face);
  }
  for (face::Face* f : downstreams)
    sendNack(reason, *f, pitEntry);
}

const table::FibEntry& Strategy::lookupFib(const table::PitEntry& pitEntry) const
{
  const table::Fib& fib = m_forwarder.fib();
  const Interest& interest = pitEntry.interest();
  if (interest.forwardingHint().empty())
    return fib.findLongestPrefixMatch(pitEntry);
  // Consumer region / default-free zone: the first delegation with a route wins; the empty
  // root entry when none has one (the forwarder strips hints in the producer region).
  const table::FibEntry* entry = nullptr;
  for (const Name& delegation : interest.forwardingHint()) {
    entry = &fib.findLongestPrefixMatch(delegation);
    if (entry->hasNextHops())
      return *entry;
  }
  return *entry;
}

// --- StrategyInstanceName -------------------------------------------------------------------

Result<StrategyInstanceName, std::string> StrategyInstanceName::parse(const Name& instanceName)
{
  StrategyInstanceName out;
  ptrdiff_t versionAt = -1;
  for (size_t i = 0; i < instanceName.size(); ++i) {
    if (instanceName[static_cast<ptrdiff_t>(i)].isVersion())
      versionAt = static_cast<ptrdiff_t>(i);
  }
  if (versionAt < 0) {
    out.strategyName = instanceName;
    return out;
  }
  out.strategyName = instanceName.getPrefix(versionAt);
  out.version = *instanceName[versionAt].toNumber();
  for (size_t i = static_cast<size_t>(versionAt) + 1; i < instanceName.size(); ++i) {
    ComponentRef c = instanceName[static_cast<ptrdiff_t>(i)];
    out.parameterComponents.append(c);
    std::string text(reinterpret_cast<const char*>(c.value().data()), c.value().size());
    auto tilde = text.find('~');
    if (!c.isGeneric() || tilde == std::string::npos || tilde == 0)
      return fail("strategy parameter '" + c.toUri() + "' is not key~value");
    out.parameters.emplace_back(text.substr(0, tilde), text.substr(tilde + 1));
  }
  return out;
}

// --- StrategyRegistry -----------------------------------------------------------------------

void StrategyRegistry::add(const Name& versionedName, Factory factory)
{
  if (versionedName.empty() || !versionedName[-1].isVersion())
    throw std::invalid_argument("strategy name must end with a version: " + versionedName.toUri());
  if (!m_factories.emplace(versionedName, std::move(factory)).second)
    throw std::invalid_argument("strategy already registered: " + versionedName.toUri());
}

namespace {

template<typename S>
StrategyRegistry::Factory makeFactory()
{
  return [](Forwarder& fw, const Name& instanceName,
            const StrategyInstanceName& parsed) -> Result<std::unique_ptr<Strategy>, std::string> {
    RetxSuppressionOptions retx;
    for (const auto& [k, v] : parsed.parameters) {
      std::string err = retx.applyParameter(k, v);
      if (!err.empty())
        return fail(err);
    }
    if (std::string err = retx.validate(); !err.empty())
      return fail(err);
    return std::unique_ptr<Strategy>(std::make_unique<S>(fw, instanceName, retx));
  };
}

} // namespace

StrategyRegistry StrategyRegistry::withBuiltins()
{
  StrategyRegistry r;
  r.add(BestRouteStrategy::versionedName(), makeFactory<BestRouteStrategy>());
  r.add(MulticastStrategy::versionedName(), makeFactory<MulticastStrategy>());
  return r;
}

Result<std::unique_ptr<Strategy>, std::string> StrategyRegistry::create(Forwarder& forwarder,
                                                                        const Name& instanceName) const
{
  auto parsed = StrategyInstanceName::parse(instanceName);
  if (!parsed)
    return fail(parsed.error());
  const Name* chosen = nullptr;
  const Factory* factory = nullptr;
  for (const auto& [name, f] : m_factories) {
    if (name.getPrefix(-1) != parsed->strategyName)
      continue;
    uint64_t v = *name[-1].toNumber();
    if (parsed->version) {
      if (v == *parsed->version) {
        chosen = &name;
        factory = &f;
      }
    }
    else if (chosen == nullptr || v > *(*chosen)[-1].toNumber()) {
      chosen = &name;
      factory = &f;
    }
  }
  if (chosen == nullptr)
    return fail("strategy not registered: " + instanceName.toUri());
  Name effective = *chosen;
  effective.append(parsed->parameterComponents);
  return (*factory)(forwarder, effective, *parsed);
}

bool StrategyRegistry::contains(const Name& instanceName) const
{
  auto parsed = StrategyInstanceName::parse(instanceName);
  if (!parsed)
    return false;
  for (const auto& [name, f] : m_factories) {
    if (name.getPrefix(-1) == parsed->strategyName && (!parsed->version || *name[-1].toNumber() == *parsed->version))
      return true;
  }
  return false;
}

std::vector<Name> StrategyRegistry::names() const
{
  std::vector<Name> out;
  for (const auto& [name, f] : m_factories)
    out.push_back(name);
  return out;
}

} // namespace ndnlab::fw
