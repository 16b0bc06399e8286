#include "ns3/ndnlab/model/options-attributes.hpp"

#include "core/app/segment-fetcher-fields.hpp"
#include "core/fw/forwarder-fields.hpp"
#include "core/cc/congestion-window.hpp"

#include <algorithm>

namespace ndnlab::sim {

// Member reference for optionField: MEMBER(o.window.initCwnd) -> [](Options& o) -> auto& {...}
#define NDNLAB_REF(expr) [](auto& o) -> auto& { return expr; }

const std::vector<OptionField<fw::ForwarderOptions>>&
forwarderFields()
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

const std::vector<OptionField<face::LinkServiceOptions>>&
linkServiceFields()
{
  using O = face::LinkServiceOptions;
  static const std::vector<OptionField<O>> fields = {
    optionField<O>("LpMaxFragments", "Maximum fragments per packet, both directions", NDNLAB_REF(o.maxFragments)),
    optionField<O>("LpReassemblyTimeout", "Partial packets are dropped after this long",
                   NDNLAB_REF(o.reassemblyTimeout)),
    optionField<O>("LpCongestionMarking", "CoDel-like congestion marking on the device queue",
                   NDNLAB_REF(o.allowCongestionMarking)),
    optionField<O>("LpCongestionMarkingInterval", "Base congestion marking interval",
                   NDNLAB_REF(o.baseCongestionMarkingInterval)),
    optionField<O>("LpCongestionThreshold", "Queue length (bytes) above which packets are marked",
                   NDNLAB_REF(o.defaultCongestionThreshold)),
    optionField<O>("LpAlwaysUseLpPacket", "Wrap every packet in an LpPacket", NDNLAB_REF(o.alwaysUseLpPacket)),
    optionField<O>("LpOverrideMtu", "Frame size limit below the device MTU (bytes); 0 = device MTU",
                   NDNLAB_REF(o.overrideMtu)),
    optionField<O>("LpBundling", "BLEnD Interest bundling on wireless faces (bundles are decoded on every face)",
                   NDNLAB_REF(o.bundling)),
    optionField<O>("LpBundleInterval", "BLEnD bundle interval BI, 0..256 (0 = no bundling)",
                   NDNLAB_REF(o.bundleInterval)),
    optionField<O>("LpBundleMaxEntries", "Name prefixes the bundle encoder and decoder of a face remember (each)",
                   NDNLAB_REF(o.bundleMaxEntries)),
    optionField<O>("LpBundleEntryLifetime", "The bundle encoder and decoder forget a prefix unused this long",
                   NDNLAB_REF(o.bundleEntryLifetime)),
    optionField<O>("LpBundleLossDetection",
                   "Beyond BLEnD: re-request a prefix's unanswered bundled range when its Data stall "
                   "(inter-Data gap and link round-trip estimates)",
                   NDNLAB_REF(o.bundleLossDetection)),
    optionField<O>("LpBundleGapK", "Loss detection: stall threshold = mean + k x mean deviation of the gaps",
                   NDNLAB_REF(o.bundleGapK)),
    optionField<O>("LpBundleGapMin", "Loss detection: lower bound of the stall threshold",
                   NDNLAB_REF(o.bundleGapMin)),
    optionField<O>("LpBundleMaxRecoveries", "Loss detection: recovery bundles per stall (the wait doubles after each)",
                   NDNLAB_REF(o.bundleMaxRecoveries)),
    optionField<O>("LpBundleDynamicInterval",
                   "Beyond BLEnD: bundles of ceil(cwnd x LpBundleCwndShare) Interests within "
                   "[LpBundleIntervalMin, LpBundleInterval]",
                   NDNLAB_REF(o.bundleDynamicInterval)),
    optionField<O>("LpBundleIntervalMin", "Dynamic interval: smallest bundle when the window allows it",
                   NDNLAB_REF(o.bundleIntervalMin)),
    optionField<O>("LpBundleCwndShare", "Dynamic interval: share of the consumer's window one bundle stands for",
                   NDNLAB_REF(o.bundleCwndShare)),
  };
  return fields;
}

const std::vector<OptionField<app::SegmentFetcherOptions>>&
fetcherFields()
{
  static const std::vector<OptionField<app::SegmentFetcherOptions>> fields =
    attributeFields<app::SegmentFetcherOptions>();
  return fields;
}

const std::vector<OptionField<app::SegmentServerOptions>>&
serverFields()
{
  using O = app::SegmentServerOptions;
  static const std::vector<OptionField<O>> fields = {
    optionField<O>("PayloadSize", "Content bytes per segment (1..8800)", NDNLAB_REF(o.segmentSize)),
    optionField<O>("Freshness", "FreshnessPeriod of segments", NDNLAB_REF(o.freshness)),
    optionField<O>("MetadataFreshness", "FreshnessPeriod of RDR metadata replies", NDNLAB_REF(o.metadataFreshness)),
    optionField<O>("Version", "Version number; 0 = the simulated Unix time in ms at start", NDNLAB_REF(o.version)),
    optionField<O>("NackUnsatisfiable", "Nack Interests under the prefix that match no segment",
                   NDNLAB_REF(o.nackUnsatisfiable)),
  };
  return fields;
}

const std::vector<OptionField<app::PushProducerOptions>>&
pushProducerFields()
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
    f.push_back(optionField<O>("MaxBurst", "Segments put per turn; 0 = until the queue is full",
                               NDNLAB_REF(o.maxBurst)));
    return f;
  }();
  return fields;
}

const std::vector<OptionField<app::PushConsumerOptions>>&
pushConsumerFields()
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

const std::vector<OptionField<app::ConstantRateConsumerOptions>>&
constantRateFields()
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
