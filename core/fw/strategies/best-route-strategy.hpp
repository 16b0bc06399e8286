#pragma once
// Best-route strategy v5 (NFD daemon/fw/best-route-strategy.*; ndn-spec-facts.md §4).
// A new Interest goes to the lowest-cost eligible nexthop, or is Nacked NoRoute and rejected
// when there is none. A retransmission within the exponential suppression interval is
// suppressed; otherwise it goes to the lowest-cost unused nexthop, else to the eligible
// nexthop used longest ago. Nacks are aggregated (NFD ProcessNackTraits): once every
// upstream Nacked, all downstreams get a Nack with the least severe reason.

#include "core/fw/retx-suppression.hpp"
#include "core/fw/strategy.hpp"

namespace ndnlab::fw {

class BestRouteStrategy : public Strategy
{
public:
  BestRouteStrategy(Forwarder& forwarder, Name instanceName, RetxSuppressionOptions retx = {});

  /// /localhost/nfd/strategy/best-route/v=5
  static const Name& versionedName();

  void afterReceiveInterest(const Interest& interest, const FaceEndpoint& ingress, table::PitEntry& pitEntry) override;
  void afterReceiveNack(const Nack& nack, const FaceEndpoint& ingress, table::PitEntry& pitEntry) override;

  const RetxSuppressionExponential& retxSuppression() const { return m_retx; }

private:
  RetxSuppressionExponential m_retx;
};

/// NFD ProcessNackTraits: shared Nack aggregation of best-route (and others).
void processNackAggregation(Strategy& strategy, const Nack& nack, const face::Face& inFace, table::PitEntry& pitEntry,
                            const std::function<bool(NackReason, face::Face&)>& sendNack,
                            const std::function<void(NackReason)>& sendNacks);

} // namespace ndnlab::fw
