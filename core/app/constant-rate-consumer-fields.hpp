#pragma once
// The fields of ConstantRateConsumerOptions, declared once (core/runtime/fields.hpp): the
// attributes of ndnlab::ConstantRateConsumerApp (docs/mechanisms/ns3.md) come from this list.

#include "core/app/constant-rate-consumer.hpp"
#include "core/runtime/fields.hpp"

namespace ndnlab::app {

/// Calls `v` with every field of ConstantRateConsumerOptions.
template<typename Visitor>
void visitFields(std::type_identity<ConstantRateConsumerOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = ConstantRateConsumerOptions;
  constexpr double MaxMs = 1e12;
  v(field<O>({.name = "frequency", .doc = "Interests per second", .range = Range::positive(1e9), .hosts = Ns3},
             NDNLAB_FIELD_REF(o.frequency)));
  v(field<O>({.name = "randomize", .doc = "Gaps between Interests: none | uniform | exponential", .hosts = Ns3},
             NDNLAB_FIELD_REF(o.randomize), {"none", "uniform", "exponential"}));
  v(field<O>({.name = "lifetime", .doc = "InterestLifetime", .range = Range::positive(MaxMs), .hosts = Ns3},
             NDNLAB_FIELD_REF(o.lifetime)));
  v(field<O>({.name = "max-count", .doc = "Distinct segments to request; 0 = unlimited", .hosts = Ns3},
             NDNLAB_FIELD_REF(o.maxCount)));
  v(field<O>({.name = "first-segment", .doc = "First segment number", .hosts = Ns3}, NDNLAB_FIELD_REF(o.firstSegment)));
  v(field<O>({.name = "retransmit", .doc = "Re-express timed-out or Nacked segments", .hosts = Ns3},
             NDNLAB_FIELD_REF(o.retransmit)));
  v(field<O>({.name = "must-be-fresh", .doc = "MustBeFresh on every Interest", .hosts = Ns3},
             NDNLAB_FIELD_REF(o.mustBeFresh)));
  v(field<O>({.name = "follow-rate",
              .doc = "MIRCC: send at the rate stamped in the latest Data or Nack (Frequency until the first)",
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.followRate)));
  v(field<O>({.name = "rate-data-size",
              .doc = "FollowRate: bytes of one Data that turn the stamped rate into Interests per second; 0 = the "
                     "Data's own wire size",
              .unit = "bytes",
              .range = Range::closed(0, 1e9),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.rateDataSize)));
  v(field<O>({.name = "tick",
              .doc = "the consumer's clock: 0 = each Interest leaves when due; > 0 = those due are held until the "
                     "next tick",
              .range = Range::nonNegative(MaxMs),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.tick)));
  v(field<O>({.name = "smoothening",
              .doc = "with a tick, held Interests also leave whenever a Data or Nack arrives (Kato et al., Sec. V)",
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.smoothening)));
  v(field<O>({.name = "ramp-up",
              .doc = "FollowRate, beyond the paper: a higher stamped rate is taken at most doubling per smoothed RTT",
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.rampUp)));
}

} // namespace ndnlab::app
