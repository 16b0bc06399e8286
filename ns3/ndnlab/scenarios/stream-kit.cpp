#include "ns3/ndnlab/scenarios/stream-kit.hpp"
#include "ns3/ndnlab/scenarios/knobs.hpp"

#include "core/stream/consumer-fields.hpp"
#include "core/stream/producer-fields.hpp"
#include "core/stream/trace.hpp"

#include <ns3/double.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <cmath>
#include <stdexcept>
#include <type_traits>

namespace ndnlab::sim::scenarios {

namespace {

/// The producer's fields as parameters (the stream's name is the scenario's).
const std::vector<Knob>& producerKnobs()
{
  static const std::vector<Knob> list = [] {
    std::vector<Knob> k;
    for (Knob& x :
         scenarioKnobs<stream::StreamProducerOptions>([](const fields::Info& i) { return fields::camelCase(i.name); }))
      if (x.spec.name != "Stream")
        k.push_back(std::move(x));
    return k;
  }();
  return list;
}

/// The consumer's fields as parameters; its parity-ratio beside the producer's.
const std::vector<Knob>& consumerKnobs()
{
  static const std::vector<Knob> list = [] {
    std::vector<Knob> k;
    for (Knob& x : scenarioKnobs<stream::StreamConsumerOptions>([](const fields::Info& i) {
           const std::string n = fields::camelCase(i.name);
           return n == "ParityRatio" ? "Consumer" + n : n;
         }))
      if (x.spec.name != "Stream")
        k.push_back(std::move(x));
    return k;
  }();
  return list;
}

template<typename App>
void applyKnobs(const Params& params, App& app, const std::vector<Knob>& knobs)
{
  for (const Knob& k : knobs) {
    if (!app.SetAttributeFailSafe(k.attribute, ns3::StringValue(knobValue(params, k))))
      throw UsageError("--" + k.spec.name + "=" + knobText(params, k) + " is not a valid value");
  }
}

ns3::Ptr<StreamProducerApp> makeProducer(const Params& params)
{
  auto app = ns3::CreateObject<StreamProducerApp>();
  app->SetAttribute("Prefix", ns3::StringValue(StreamPrefix));
  app->SetAttribute("Bitrates", ns3::StringValue(params.getString("Bitrates")));
  app->SetAttribute("SampleRate", ns3::DoubleValue(params.getDouble("Fps")));
  app->SetAttribute("Gop", ns3::UintegerValue(static_cast<uint64_t>(params.getInt("Gop"))));
  app->SetAttribute("Signing", ns3::StringValue(params.getString("Signing")));
  const double frames = std::ceil(params.getDouble("StreamTime") * params.getDouble("Fps"));
  app->SetAttribute("Frames", ns3::UintegerValue(static_cast<uint64_t>(std::max(1.0, frames))));
  applyKnobs(params, *app, producerKnobs());
  return app;
}

ns3::Ptr<StreamConsumerApp> makeConsumer(const Params& params)
{
  auto app = ns3::CreateObject<StreamConsumerApp>();
  app->SetAttribute("Prefix", ns3::StringValue(StreamPrefix));
  applyKnobs(params, *app, consumerKnobs());
  return app;
}

} // namespace

std::vector<ParamSpec> streamParams()
{
  std::vector<ParamSpec> p = {
    {"Bitrates", ParamType::String, "1000k", "",
     "the producer's threads, one per bitrate (200k,1000k,3000k); the consumer starts on the lowest"},
    {"Fps",
     ParamType::Double,
     "30",
     "frames/s",
     "frames per second (the paper's T = 1/30 s)",
     {},
     runner::Range::closed(1, 240)},
    {"Gop", ParamType::Int, "30", "frames", "frames per GOP, a key frame first", {}, runner::Range::closed(1, 100000)},
    {"StreamTime",
     ParamType::Double,
     "20",
     "s",
     "seconds of stream before its end-of-stream marker",
     {},
     runner::Range::closed(0.1, runner::MaxTimeSeconds)},
    {"ConsumerStart",
     ParamType::Double,
     "1",
     "s",
     "when the consumer starts (the producer starts at 0)",
     {},
     runner::Range::nonNegative(runner::MaxTimeSeconds)},
    {"Signing", ParamType::String, "digest", "", "signature of the segments", {"digest", "hmac", "ecdsa", "null"}},
  };
  for (const Knob& k : producerKnobs())
    p.push_back(k.spec);
  for (const Knob& k : consumerKnobs())
    p.push_back(k.spec);
  return p;
}

void checkStreamParams(const Params& params)
{
  try {
    parseStreamBitrates(params.getString("Bitrates"));
    auto producer = makeProducer(params);
    stream::StreamProducerOptions po = producer->OptionsRef();
    po.threads = parseStreamBitrates(params.getString("Bitrates"));
    po.sampleRate = params.getDouble("Fps");
    po.validate();
    makeConsumer(params)->OptionsRef().validate();
  }
  catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

ns3::Ptr<StreamProducerApp> installStreamProducer(const Params& params, const std::string& prefix,
                                                  ns3::Ptr<ns3::Node> node)
{
  auto app = makeProducer(params);
  app->SetAttribute("Prefix", ns3::StringValue(prefix));
  node->AddApplication(app);
  app->SetStartTime(ns3::Seconds(0));
  return app;
}

ns3::Ptr<StreamConsumerApp> installStreamConsumer(const Params& params, const std::string& prefix,
                                                  ns3::Ptr<ns3::Node> node, double delay)
{
  auto app = makeConsumer(params);
  app->SetAttribute("Prefix", ns3::StringValue(prefix));
  node->AddApplication(app);
  app->SetStartTime(ns3::Seconds(params.getDouble("ConsumerStart") + delay));
  return app;
}

nlohmann::json streamApps(const Params& params, const std::string& prefix, const std::string& producerNode,
                          const std::string& consumerNode, double delay)
{
  const std::string maxTime = formatNumber(params.getDouble("MaxTime"));
  // the publisher answers until the run ends (as the simulated producer does), then prints
  // its counters; the player waits as long as the simulated consumer may
  std::vector<std::string> publish = {"--synthetic", params.getString("Bitrates"),
                                      "--fps",       formatNumber(params.getDouble("Fps")),
                                      "--gop",       std::to_string(params.getInt("Gop")),
                                      "--duration",  formatNumber(params.getDouble("StreamTime")),
                                      "--linger",    maxTime,
                                      "--signing",   params.getString("Signing"),
                                      "--json"};
  for (std::string& flag : knobFlags(params, producerKnobs(), "ndnlab stream publish"))
    publish.push_back(std::move(flag));
  std::vector<std::string> play = {"--json", "--stall-timeout", maxTime};
  for (std::string& flag : knobFlags(params, consumerKnobs(), "ndnlab stream play"))
    play.push_back(std::move(flag));
  return nlohmann::json::array({
    {{"node", producerNode},
     {"role", "producer"},
     {"tool", "stream-publish"},
     {"prefix", prefix},
     {"registers", prefix},
     {"start_s", 0.0},
     {"args", publish}},
    {{"node", consumerNode},
     {"role", "consumer"},
     {"tool", "stream-play"},
     {"name", prefix},
     {"start_s", params.getDouble("ConsumerStart") + delay},
     {"args", play}},
  });
}

void stopWhenFinished(const std::vector<ns3::Ptr<StreamConsumerApp>>& consumers)
{
  std::vector<ns3::Ptr<StreamConsumerApp>> all;
  for (const auto& c : consumers)
    if (c)
      all.push_back(c);
  auto finished = [all] {
    for (const auto& c : all)
      if (!c->IsFinished())
        return;
    ns3::Simulator::Stop();
  };
  for (const auto& c : all)
    c->onFinished = finished;
}

ParamSpec streamTraceParam()
{
  return {"StreamTrace", ParamType::Bool, "false", "",
          "with --out: stream-arrivals.csv (each frame arrival: D_arr, DRD', lambda_p) and stream-series.csv "
          "(kbit/s each second) of the consumer"};
}

StreamTraceFiles::StreamTraceFiles(RunContext& ctx, ns3::Ptr<StreamConsumerApp> consumer, const uint64_t* linkOctets)
  : m_consumer(consumer), m_linkOctets(linkOctets), m_series(*linkOctets)
{
  if (!ctx.hasOutDir() || !ctx.params().getBool("StreamTrace"))
    return;
  m_arrivalsFile = ctx.openTrace(std::string(stream::ArrivalsFile));
  m_seriesFile = ctx.openTrace(std::string(stream::SeriesFile));
  stream::writeArrivalsHeader(*m_arrivalsFile);
  stream::writeSeriesHeader(*m_seriesFile);
  consumer->TraceConnectWithoutContext("Arrival", ns3::MakeCallback(&StreamTraceFiles::arrival, this));
  ns3::Simulator::Schedule(ns3::Seconds(ctx.params().getDouble("ConsumerStart") + 1), &StreamTraceFiles::sample, this);
}

StreamTraceFiles::~StreamTraceFiles() = default;

void StreamTraceFiles::arrival(const stream::FrameArrival& a)
{
  stream::writeArrival(*m_arrivalsFile, a);
}

void StreamTraceFiles::sample()
{
  stream::writeSecond(*m_seriesFile,
                      m_series.next(m_consumer->GetStats(), toString(m_consumer->GetState()), *m_linkOctets));
  if (!m_consumer->IsFinished())
    ns3::Simulator::Schedule(ns3::Seconds(1), &StreamTraceFiles::sample, this);
}

nlohmann::json streamMetrics(const StreamConsumerApp& app)
{
  nlohmann::json j = nlohmann::json::object();
  stream::visitMetrics(app.GetStats(), [&j](const fields::Metric& m, const auto& v) {
    if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, std::string>)
      j[std::string(m.key)] = v;
  });
  j["state"] = std::string(toString(app.GetState()));
  if (!app.GetError().empty())
    j["error"] = app.GetError();
  return j;
}

nlohmann::json producerMetrics(const StreamProducerApp& app)
{
  const auto c = app.GetCounters();
  return {{"frames", c.frames},
          {"segments", c.segments},
          {"parity_segments", c.paritySegments},
          {"interests", c.interests},
          {"answered_at_once", c.answeredAtOnce},
          {"answered_after_wait", c.answeredAfterWait},
          {"expired", c.expired},
          {"data_sent", c.dataSent}};
}

} // namespace ndnlab::sim::scenarios
