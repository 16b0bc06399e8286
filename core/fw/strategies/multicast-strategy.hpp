#pragma once
// Multicast strategy v4 (NFD daemon/fw/multicast-strategy.*): every eligible nexthop gets the
// Interest, each upstream with its own exponential retransmission suppression. Nack NoRoute
// and reject when no nexthop was eligible and none was suppressed. A nexthop added while an
// Interest is pending receives it too.

#include "core/fw/retx-suppression.hpp"
#include "core/fw/strategy.hpp"

namespace ndnlab::fw {

class MulticastStrategy : public Strategy
{
public:
  MulticastStrategy(Forwarder& forwarder, Name instanceName, RetxSuppressionOptions retx = {});

  /// /localhost/nfd/strategy/multicast/v=4
  static const Name& versionedName();

  void afterReceiveInterest(const Interest& interest, const FaceEndpoint& ingress, table::PitEntry& pitEntry) override;
  void afterNewNextHop(const table::NextHop& nexthop, table::PitEntry& pitEntry) override;
  bool wantsNewNextHop() const override { return true; }

private:
  RetxSuppressionExponential m_retx;
};

} // namespace ndnlab::fw
