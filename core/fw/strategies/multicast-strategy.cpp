#include "core/fw/strategies/multicast-strategy.hpp"

#include "core/fw/algorithm.hpp"
#include "core/fw/forwarder.hpp"

namespace ndnlab::fw {

MulticastStrategy::MulticastStrategy(Forwarder& forwarder, Name instanceName, RetxSuppressionOptions retx)
  : Strategy(forwarder, std::move(instanceName)), m_retx(retx)
{}

const Name& MulticastStrategy::versionedName()
{
  static const Name name = Name("/localhost/nfd/strategy/multicast").appendVersion(4);
  return name;
}

void MulticastStrategy::afterReceiveInterest(const Interest& interest, const FaceEndpoint& ingress,
                                             table::PitEntry& pitEntry)
{
  TimePoint t = now();
  // copy: sending may not change the FIB, but keep the loop independent of it anyway
  std::vector<table::NextHop> nexthops = lookupFib(pitEntry).nextHops();
  int nEligible = 0;
  bool isSuppressed = false;
  for (const table::NextHop& nh : nexthops) {
    RetxSuppressionResult r = m_retx.decidePerUpstream(pitEntry, *nh.face, serial(), t);
    if (r == RetxSuppressionResult::Suppress) {
      isSuppressed = true;
      continue;
    }
    if (!isNextHopEligible(ingress.face, interest, nh, pitEntry))
      continue;
    table::PitOutRecord* out = sendInterest(interest, *nh.face, pitEntry);
    if (out != nullptr && r == RetxSuppressionResult::Forward)
      m_retx.incrementIntervalForOutRecord(*out, serial());
    ++nEligible;
  }
  if (nEligible == 0 && !isSuppressed) {
    sendNack(NackReason::NoRoute, ingress.face, pitEntry);
    rejectPendingInterest(pitEntry);
  }
}

void MulticastStrategy::afterNewNextHop(const table::NextHop& nexthop, table::PitEntry& pitEntry)
{
  TimePoint t = now();
  for (const table::PitInRecord& r : pitEntry.inRecords()) {
    if (r.face == nexthop.face || r.expiry <= t)
      continue;
    if (isNextHopEligible(*r.face, pitEntry.interest(), nexthop, pitEntry))
      sendInterest(pitEntry.interest(), *nexthop.face, pitEntry);
    return;
  }
}

} // namespace ndnlab::fw
