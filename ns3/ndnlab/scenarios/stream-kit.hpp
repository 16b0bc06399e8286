#pragma once
// Real-time stream pieces shared by the rtsd-* scenarios (issue 29): the stream's parameters
// (the producer's synthetic threads and the fields of StreamProducerOptions and
// StreamConsumerOptions declared once in core/stream/*-fields.hpp), the apps built from them,
// and the consumer's result fields under `stream` (stream::visitMetrics).

#include "ns3/ndnlab/apps/stream-apps.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"

#include "core/stream/trace.hpp"

#include <ns3/node.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace ndnlab::sim::scenarios {

/// Where the scenarios' producers publish: each under a name of its own below it, and the
/// consumers fetch `<that name>/<stream>`.
inline constexpr const char* StreamPrefix = "/lab/rtc";

/// Bitrates, Fps, Gop, StreamTime (s of stream before its end marker), Signing, the producer's
/// fields (PayloadSize, ParityRatio, ...) and the consumer's (InitialPipeline, Stability, ...;
/// its parity-ratio as ConsumerParityRatio), ConsumerStart (s).
std::vector<ParamSpec> streamParams();

/// Throws UsageError for a bad Bitrates list or options the core's validate() refuses.
void checkStreamParams(const Params& params);

/// A StreamProducerApp publishing under `prefix` on `node` from the parameters, started at 0.
ns3::Ptr<StreamProducerApp> installStreamProducer(const Params& params, const std::string& prefix,
                                                  ns3::Ptr<ns3::Node> node);
/// A StreamConsumerApp of the stream under `prefix` on `node` from the parameters, started at
/// ConsumerStart + `delay` s.
ns3::Ptr<StreamConsumerApp> installStreamConsumer(const Params& params, const std::string& prefix,
                                                  ns3::Ptr<ns3::Node> node, double delay = 0);

/// The same producer and consumer as `ndnlab emu` runs them (Scenario::network's "apps"):
/// `ndnlab stream publish --synthetic` under `prefix` on `producerNode` (stream-publish, until
/// the run ends) and `ndnlab stream play` of it on `consumerNode` from ConsumerStart + `delay` s
/// (stream-play), every knob passed on as the tools' flag of the same field.
nlohmann::json streamApps(const Params& params, const std::string& prefix, const std::string& producerNode,
                          const std::string& consumerNode, double delay = 0);

/// Stops the simulation once every consumer of `consumers` (null ones left out) has ended or
/// failed.
void stopWhenFinished(const std::vector<ns3::Ptr<StreamConsumerApp>>& consumers);

/// The StreamTrace parameter (bool): the consumer's series files (StreamTraceFiles).
ParamSpec streamTraceParam();

/// With StreamTrace=true and --out, the series files of one consumer, for NDN-RTC's Figs. 21
/// and 25 (core/stream/trace.hpp): stream-arrivals.csv, one row per frame arrival the stability
/// estimator sees (stream::visitArrival), and stream-series.csv, one row per second of the
/// consumer's run (stream::visitSecond), its `link_kbps` from `*linkOctets`, the scenario's count
/// of what the link toward the consumer sent, headers included. Nothing otherwise. `linkOctets`
/// must outlive the simulation.
class StreamTraceFiles
{
public:
  StreamTraceFiles(RunContext& ctx, ns3::Ptr<StreamConsumerApp> consumer, const uint64_t* linkOctets);
  ~StreamTraceFiles();
  StreamTraceFiles(const StreamTraceFiles&) = delete;
  StreamTraceFiles& operator=(const StreamTraceFiles&) = delete;

private:
  void arrival(const stream::FrameArrival& a);
  void sample();

  ns3::Ptr<StreamConsumerApp> m_consumer;
  const uint64_t* m_linkOctets;
  stream::SecondSeries m_series;
  std::unique_ptr<std::ofstream> m_arrivalsFile, m_seriesFile;
};

/// The consumer's result fields (stream::visitMetrics, numeric ones), its final `state` and,
/// when it failed, `error`.
nlohmann::json streamMetrics(const StreamConsumerApp& app);
/// The producer's counters: frames, segments, parity_segments, interests, answered_at_once,
/// answered_after_wait, expired, data_sent.
nlohmann::json producerMetrics(const StreamProducerApp& app);

} // namespace ndnlab::sim::scenarios
