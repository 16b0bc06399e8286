#include "ns3/ndnlab/model/options-attributes.hpp"

#include "core/app/constant-rate-consumer-fields.hpp"
#include "core/app/perf-client-fields.hpp"
#include "core/app/perf-server-fields.hpp"
#include "core/app/push-consumer-fields.hpp"
#include "core/app/push-producer-fields.hpp"
#include "core/app/segment-fetcher-fields.hpp"
#include "core/app/segment-server-fields.hpp"
#include "core/face/link-service-fields.hpp"
#include "core/fw/forwarder-fields.hpp"
#include "core/stream/consumer-fields.hpp"
#include "core/stream/producer-fields.hpp"
#include "core/cc/congestion-window.hpp"

#include <algorithm>

namespace ndnlab::sim {

// Member reference for optionField: NDNLAB_REF(o.window.initCwnd) -> a lambda returning o.window.initCwnd&
#define NDNLAB_REF(expr) [](auto& o) -> decltype(auto) { return (expr); }

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
    for (auto& own : attributeFields<O>()) // core/app/push-producer-fields.hpp
      f.push_back(std::move(own));
    return f;
  }();
  return fields;
}

const std::vector<OptionField<app::PushConsumerOptions>>& pushConsumerFields()
{
  static const std::vector<OptionField<app::PushConsumerOptions>> fields =
    attributeFields<app::PushConsumerOptions>(); // core/app/push-consumer-fields.hpp
  return fields;
}

const std::vector<OptionField<app::ConstantRateConsumerOptions>>& constantRateFields()
{
  static const std::vector<OptionField<app::ConstantRateConsumerOptions>> fields =
    attributeFields<app::ConstantRateConsumerOptions>(); // core/app/constant-rate-consumer-fields.hpp
  return fields;
}

const std::vector<OptionField<app::PerfClientOptions>>& perfClientFields()
{
  static const std::vector<OptionField<app::PerfClientOptions>> fields =
    attributeFields<app::PerfClientOptions>(); // core/app/perf-client-fields.hpp
  return fields;
}

const std::vector<OptionField<app::PerfServerOptions>>& perfServerFields()
{
  static const std::vector<OptionField<app::PerfServerOptions>> fields =
    attributeFields<app::PerfServerOptions>(); // core/app/perf-server-fields.hpp
  return fields;
}

const std::vector<OptionField<stream::StreamProducerOptions>>& streamProducerFields()
{
  static const std::vector<OptionField<stream::StreamProducerOptions>> fields =
    attributeFields<stream::StreamProducerOptions>(); // core/stream/producer-fields.hpp
  return fields;
}

const std::vector<OptionField<stream::StreamConsumerOptions>>& streamConsumerFields()
{
  static const std::vector<OptionField<stream::StreamConsumerOptions>> fields =
    attributeFields<stream::StreamConsumerOptions>(); // core/stream/consumer-fields.hpp
  return fields;
}

#undef NDNLAB_REF

} // namespace ndnlab::sim
