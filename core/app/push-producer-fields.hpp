#pragma once
// The fields of PushProducerOptions that are its own, declared once (core/runtime/fields.hpp);
// its `server` fields are SegmentServerOptions' (segment-server-fields.hpp). The attributes of
// ndnlab::OneInterestProducerApp (docs/mechanisms/ns3.md) come from both lists.

#include "core/app/push-producer.hpp"
#include "core/runtime/fields.hpp"

namespace ndnlab::app {

/// Calls `v` with every field of PushProducerOptions outside `server`.
template<typename Visitor>
void visitFields(std::type_identity<PushProducerOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = PushProducerOptions;
  v(field<O>({.name = "poll-interval",
              .doc = "Retry period while the device queue is above QueueThreshold",
              .range = Range::positive(1e12),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.pollInterval)));
  v(field<O>({.name = "max-burst",
              .doc = "Segments put per turn; 0 = until the queue is full",
              .range = Range::closed(0, 1e9),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.maxBurst)));
}

} // namespace ndnlab::app
