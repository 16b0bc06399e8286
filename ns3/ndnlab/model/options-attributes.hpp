#pragma once
// The field lists that expose core Options structs as ns-3 attributes (see option-fields.hpp).
// Each list names every member an experiment may want to set; members left out are listed
// in docs/mechanisms/ns3.md with the reason.

#include "ns3/ndnlab/model/option-fields.hpp"

#include "core/app/constant-rate-consumer.hpp"
#include "core/app/perf-client.hpp"
#include "core/app/perf-server.hpp"
#include "core/app/push-consumer.hpp"
#include "core/app/push-producer.hpp"
#include "core/app/segment-fetcher.hpp"
#include "core/app/segment-server.hpp"
#include "core/face/link-service.hpp"
#include "core/fw/forwarder.hpp"
#include "core/stream/consumer.hpp"
#include "core/stream/producer.hpp"

namespace ndnlab::sim {

/// NdnStack: forwarder tables and limits (CsSize, PitMaxEntries, ...).
const std::vector<OptionField<fw::ForwarderOptions>>& forwarderFields();
/// NdnStack: link service of NetDevice faces (fragmentation is decided per device MTU).
const std::vector<OptionField<face::LinkServiceOptions>>& linkServiceFields();
/// ConsumerApp: SegmentFetcher (Pipeline, RtoK, InitCwnd, MinRto, MaxRto, Lifetime, ...).
const std::vector<OptionField<app::SegmentFetcherOptions>>& fetcherFields();
/// ProducerApp: SegmentServer (PayloadSize, Freshness, Version, ...).
const std::vector<OptionField<app::SegmentServerOptions>>& serverFields();
/// OneInterestProducerApp: PushProducer (the SegmentServer fields plus pacing).
const std::vector<OptionField<app::PushProducerOptions>>& pushProducerFields();
/// OneInterestConsumerApp: PushConsumer.
const std::vector<OptionField<app::PushConsumerOptions>>& pushConsumerFields();
/// ConstantRateConsumerApp.
const std::vector<OptionField<app::ConstantRateConsumerOptions>>& constantRateFields();
/// PerfConsumerApp: PerfClient's own fields (Duration, Bytes, Parallel, ...); its `fetch`
/// options are fetcherFields().
const std::vector<OptionField<app::PerfClientOptions>>& perfClientFields();
/// PerfProducerApp: PerfServer (MaxPayload, Freshness, MaxSessions).
const std::vector<OptionField<app::PerfServerOptions>>& perfServerFields();
/// StreamProducerApp: StreamProducer (PayloadSize, ParityRatio, freshness, History, PitLimit;
/// the threads and SampleRate are the app's own attributes).
const std::vector<OptionField<stream::StreamProducerOptions>>& streamProducerFields();
/// StreamConsumerApp: StreamConsumer (InitialPipeline, Stability, Alpha, Beta, Gamma, ...).
const std::vector<OptionField<stream::StreamConsumerOptions>>& streamConsumerFields();

} // namespace ndnlab::sim
