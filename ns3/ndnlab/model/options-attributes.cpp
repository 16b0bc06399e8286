#include "ns3/ndnlab/model/options-attributes.hpp"

#include "core/app/segment-fetcher-fields.hpp"
#include "core/app/segment-server-fields.hpp"
#include "core/face/link-service-fields.hpp"
#include "core/fw/forwarder-fields.hpp"
#include "core/cc/congestion-window.hpp"

#include <algorithm>

namespace ndnlab::sim {

// Member reference for optionField: MEMBER(o.window.initCwnd) -> [](Options& o) -> auto& {...}
#define NDNLAB_REF(expr)                                                                                               \
  [](auto& o) -> auto&                                                                                                 \
  {                                                                                                                    \
    return expr;                                                                                                       \
  }

const std::vector<OptionField<fw::ForwarderOptions>>& forwarderFields()
{
  using O = fw::ForwarderOptions;
  static const std::vector<OptionField<O>> fields = [] {
    auto f = attributeFields<O>(); // core/fw/forwarder-fields.hpp
    f.push_back(stringField<O>(
      "DefaultStrategy", "Strategy of / (e.g. /localhost/nfd/strategy/multicast)",
      [](const O& o) { return o.defaultStrategy.toUri(); },
      [](O& o, const std::string& s) {
        auto n = Name::parse(s);
        if (n)
          o.defaultStrategy = *n;
        return static_cast<bool>(n);
      }));
    return f;
  }();
  return fields;
}

const std::vector<OptionField<face::LinkServiceOptions>>& linkServiceFields()
{
  static const std::vector<OptionField<face::LinkServiceOptions>> fields =
    attributeFields<face::LinkServiceOptions>(); // core/face/link-service-fields.hpp
  return fields;
}

const std::vector<OptionField<app::SegmentFetcherOptions>>& fetcherFields()
{
  static const std::vector<OptionField<app::SegmentFetcherOptions>> fields =
    attributeFields<app::SegmentFetcherOptions>();
  return fields;
}

const std::vector<OptionField<app::SegmentServerOptions>>& serverFields()
{
  static const std::vector<OptionField<app::SegmentServerOptions>> fields =
    attributeFields<app::SegmentServerOptions>(); // core/app/segment-server-fields.hpp
  return fields;
}

const std::vector<OptionField<app::PushProducerOptions>>& pushProducerFields()
{
  using O = app::PushProducerOptions;
  static const std::vector<OptionField<O>> fields = [] {
    std::vector<OptionField<O>> f;
    // the SegmentServer fields, reached through PushProducerOptions::server
    for (const auto& s : serverFields()) {
      OptionField<O> g;
      g.name = s.name;
      g.help = s.help;
      g.checker = s.checker;
      g.value = [v = s.value](const O& o) { return v(o.server); };
      g.accessor = [a = s.accessor](OptionsResolver<O> resolve) {
        return a([resolve](ns3::ObjectBase* obj) -> app::SegmentServerOptions* {
          O* o = resolve(obj);
          return o ? &o->server : nullptr;
        });
      };
      f.push_back(std::move(g));
    }
    f.push_back(optionField<O>("PollInterval", "Retry period while the device queue is above QueueThreshold",
                               NDNLAB_REF(o.pollInterval)));
    f.push_back(
      optionField<O>("MaxBurst", "Segments put per turn; 0 = until the queue is full", NDNLAB_REF(o.maxBurst)));
    return f;
  }();
  return fields;
}

const std::vector<OptionField<app::PushConsumerOptions>>& pushConsumerFields()
{
  using O = app::PushConsumerOptions;
  static const std::vector<OptionField<O>> fields = {
    optionField<O>("Lifetime", "InterestLifetime of the trigger and repair Interests", NDNLAB_REF(o.lifetime)),
    optionField<O>("TriggerRetries", "Trigger re-sends when no Data arrives; -1 = unlimited",
                   NDNLAB_REF(o.triggerRetries)),
    optionField<O>("MustBeFresh", "MustBeFresh on the trigger", NDNLAB_REF(o.mustBeFresh)),
    optionField<O>("IdleTimeout", "No Data for this long with segments missing starts the repair",
                   NDNLAB_REF(o.idleTimeout)),
    optionField<O>("RepairWindow", "Repair Interests outstanding", NDNLAB_REF(o.repairWindow)),
    optionField<O>("RepairTimeout", "A repair Interest unanswered this long is re-sent", NDNLAB_REF(o.repairTimeout)),
    optionField<O>("Retries", "Repair re-sends per segment; -1 = unlimited", NDNLAB_REF(o.retries)),
  };
  return fields;
}

const std::vector<OptionField<app::ConstantRateConsumerOptions>>& constantRateFields()
{
  using O = app::ConstantRateConsumerOptions;
  static const std::vector<OptionField<O>> fields = {
    optionField<O>("Frequency", "Interests per second", NDNLAB_REF(o.frequency)),
    optionField<O>("Randomize", "Gaps between Interests: none | uniform | exponential", NDNLAB_REF(o.randomize)),
    optionField<O>("Lifetime", "InterestLifetime", NDNLAB_REF(o.lifetime)),
    optionField<O>("MaxCount", "Distinct segments to request; 0 = unlimited", NDNLAB_REF(o.maxCount)),
    optionField<O>("FirstSegment", "First segment number", NDNLAB_REF(o.firstSegment)),
    optionField<O>("Retransmit", "Re-express timed-out or Nacked segments", NDNLAB_REF(o.retransmit)),
    optionField<O>("MustBeFresh", "MustBeFresh on every Interest", NDNLAB_REF(o.mustBeFresh)),
  };
  return fields;
}

#undef NDNLAB_REF

} // namespace ndnlab::sim
