#pragma once
// The fields of PushConsumerOptions, declared once (core/runtime/fields.hpp): the attributes
// of ndnlab::OneInterestConsumerApp (docs/mechanisms/ns3.md) come from this list.

#include "core/app/push-consumer.hpp"
#include "core/runtime/fields.hpp"

namespace ndnlab::app {

/// Calls `v` with every field of PushConsumerOptions.
template<typename Visitor>
void visitFields(std::type_identity<PushConsumerOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = PushConsumerOptions;
  constexpr double MaxMs = 1e12;
  v(field<O>({.name = "lifetime",
              .doc = "InterestLifetime of the trigger and repair Interests",
              .range = Range::positive(MaxMs),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.lifetime)));
  v(field<O>({.name = "trigger-retries",
              .doc = "Trigger re-sends when no Data arrives; -1 = unlimited",
              .range = Range::closed(-1, 1e9),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.triggerRetries)));
  v(field<O>({.name = "must-be-fresh", .doc = "MustBeFresh on the trigger", .hosts = Ns3},
             NDNLAB_FIELD_REF(o.mustBeFresh)));
  v(field<O>({.name = "idle-timeout",
              .doc = "No Data for this long with segments missing starts the repair",
              .range = Range::positive(MaxMs),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.idleTimeout)));
  v(field<O>(
    {.name = "repair-window", .doc = "Repair Interests outstanding", .range = Range::closed(1, 1e9), .hosts = Ns3},
    NDNLAB_FIELD_REF(o.repairWindow)));
  v(field<O>({.name = "repair-timeout",
              .doc = "A repair Interest unanswered this long is re-sent",
              .range = Range::positive(MaxMs),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.repairTimeout)));
  v(field<O>({.name = "retries",
              .doc = "Repair re-sends per segment; -1 = unlimited",
              .range = Range::closed(-1, 1e9),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.retries)));
}

} // namespace ndnlab::app
