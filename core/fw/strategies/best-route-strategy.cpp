#include "core/fw/strategies/best-route-strategy.hpp"

#include "core/fw/algorithm.hpp"
#include "core/fw/forwarder.hpp"

#include <algorithm>

namespace ndnlab::fw {

BestRouteStrategy::BestRouteStrategy(Forwarder& forwarder, Name instanceName, RetxSuppressionOptions retx)
  : Strategy(forwarder, std::move(instanceName)), m_retx(retx)
{}

const Name& BestRouteStrategy::versionedName()
{
  static const Name name = Name("/localhost/nfd/strategy/best-route").appendVersion(5);
  return name;
}

void BestRouteStrategy::afterReceiveInterest(const Interest& interest, const FaceEndpoint& ingress,
                                             table::PitEntry& pitEntry)
{
  TimePoint t = now();
  RetxSuppressionResult suppression = m_retx.decidePerPitEntry(pitEntry, serial(), t);
  if (suppression == RetxSuppressionResult::Suppress)
    return;

  const table::FibEntry& fibEntry = lookupFib(pitEntry);
  const std::vector<table::NextHop>& nexthops = fibEntry.nextHops();

  if (suppression == RetxSuppressionResult::New) {
    auto it = std::find_if(nexthops.begin(), nexthops.end(), [&](const table::NextHop& nh) {
      return isNextHopEligible(ingress.face, interest, nh, pitEntry);
    });
    if (it == nexthops.end()) {
      sendNack(NackReason::NoRoute, ingress.face, pitEntry);
      rejectPendingInterest(pitEntry);
      return;
    }
    sendInterest(interest, *it->face, pitEntry);
    return;
  }

  // retransmission: an unused upstream first, else the one used longest ago
  auto it = std::find_if(nexthops.begin(), nexthops.end(), [&](const table::NextHop& nh) {
    return isNextHopEligible(ingress.face, interest, nh, pitEntry, true, t);
  });
  if (it != nexthops.end()) {
    sendInterest(interest, *it->face, pitEntry);
    return;
  }
  if (const table::NextHop* nh = findEligibleNextHopWithEarliestOutRecord(ingress.face, interest, nexthops, pitEntry))
    sendInterest(interest, *nh->face, pitEntry);
}

void BestRouteStrategy::afterReceiveNack(const Nack& nack, const FaceEndpoint& ingress, table::PitEntry& pitEntry)
{
  processNackAggregation(
    *this, nack, ingress.face, pitEntry, [&](NackReason r, face::Face& f) { return sendNack(r, f, pitEntry); },
    [&](NackReason r) { sendNacks(r, pitEntry); });
}

void processNackAggregation(Strategy&, const Nack&, const face::Face&, table::PitEntry& pitEntry,
                            const std::function<bool(NackReason, face::Face&)>& sendNack,
                            const std::function<void(NackReason)>& sendNacks)
{
  int nNotNacked = 0;
  face::Face* lastNotNacked = nullptr;
  NackReason leastSevere = NackReason::None;
  for (const table::PitOutRecord& r : pitEntry.outRecords()) {
    if (!r.incomingNack) {
      ++nNotNacked;
      lastNotNacked = r.face;
      continue;
    }
    if (isLessSevere(*r.incomingNack, leastSevere))
      leastSevere = *r.incomingNack;
  }

  if (nNotNacked == 1 && pitEntry.findInRecord(*lastNotNacked) != nullptr) {
    // the only upstream still pending is also a downstream: Nack it so it does not wait on
    // itself
    sendNack(leastSevere, *lastNotNacked);
    return;
  }
  if (nNotNacked > 0)
    return; // keep waiting for the other upstreams
  sendNacks(leastSevere);
}

} // namespace ndnlab::fw
