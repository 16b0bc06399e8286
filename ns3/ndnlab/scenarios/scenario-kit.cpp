#include "ns3/ndnlab/scenarios/scenario-kit.hpp"

#include "ns3/ndnlab/apps/consumer-app.hpp"
#include "ns3/ndnlab/apps/content.hpp"
#include "ns3/ndnlab/apps/one-interest-apps.hpp"
#include "ns3/ndnlab/apps/perf-apps.hpp"
#include "ns3/ndnlab/apps/ping-apps.hpp"
#include "ns3/ndnlab/helper/frame-loss.hpp"
#include "ns3/ndnlab/helper/app-helper.hpp"
#include "ns3/ndnlab/helper/tracers.hpp"
#include "ns3/ndnlab/helper/wifi-radio.hpp"
#include "ns3/ndnlab/model/ndn-stack.hpp"
#include "ns3/ndnlab/model/ns3-env.hpp"

#include "ns3/ndnlab/scenarios/knobs.hpp"

#include "core/app/segment-fetcher-fields.hpp"

#include <map>
#include <optional>
#include "core/runtime/units.hpp"

#include <ns3/data-rate.h>
#include <ns3/nstime.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <cstdlib>
#include <limits>
#include <regex>
#include <stdexcept>
#include <sstream>

namespace ndnlab::sim::scenarios {

std::string formatNumber(double v)
{
  std::ostringstream os;
  os << v;
  return os.str();
}

std::vector<ParamSpec> joinParams(std::initializer_list<std::vector<ParamSpec>> lists)
{
  std::vector<ParamSpec> p;
  for (const auto& list : lists)
    p.insert(p.end(), list.begin(), list.end());
  return p;
}

namespace {

/// Every consumer field the core declares for the scenarios, with the core's defaults; the
/// parameter is named as the ConsumerApp attribute.
const std::vector<Knob>& knobs()
{
  static const std::vector<Knob> list =
    scenarioKnobs<app::SegmentFetcherOptions>([](const fields::Info& i) { return i.attributeName(); });
  return list;
}

/// The knobs with the values of consumer profile `name` (one of fetcherProfiles(), as the
/// Profile parameter's choices ensure) as defaults; built once per profile.
const std::vector<Knob>& profileKnobs(const std::string& name)
{
  static std::map<std::string, std::vector<Knob>> byProfile;
  auto it = byProfile.find(name);
  if (it == byProfile.end())
    it = byProfile
           .emplace(name, scenarioKnobs<app::SegmentFetcherOptions>(
                            [](const fields::Info& info) { return info.attributeName(); }, *app::fetcherProfile(name)))
           .first;
  return it->second;
}

/// The attribute value of knob `i`: the parameter when given; else the Profile's value when
/// the profile is not ndnlab's (whose values are ConsumerApp's own defaults); else none.
std::optional<std::string> knobSetting(const Params& params, size_t i)
{
  const Knob& k = knobs()[i];
  if (params.isSet(k.spec.name))
    return knobValue(params, k);
  const std::string& profile = params.getString("Profile");
  if (profile == "ndnlab")
    return std::nullopt;
  const Knob& p = profileKnobs(profile)[i];
  return p.isMs ? p.spec.defaultValue + "ms" : p.spec.defaultValue;
}

} // namespace

std::vector<ParamSpec> consumerParams(bool withOneInterest, const std::string& defaultFileSize)
{
  std::vector<std::string> kinds = app::fetcherPipelines(); // fixed, aimd, cubic, mircc
  if (withOneInterest)
    kinds.insert(kinds.begin(), "one-interest");
  std::vector<ParamSpec> p = {
    {"Consumer", ParamType::String, "aimd", "",
     withOneInterest ? "consumer: the SegmentFetcher pipelines of `ndnlab get`, or the BLEnD one-Interest bound "
                       "(which ignores the consumer knobs below)"
                     : "consumer: the SegmentFetcher pipeline of `ndnlab get`",
     kinds},
    {"Profile", ParamType::String, "ndnlab", "",
     "consumer profile the knobs below start from, as `ndnlab get --profile`: ndnlab, ndncatchunks, or ndnsim "
     "(ndnSIM's ConsumerPcon, the BLEnD paper's); a knob given wins",
     app::fetcherProfiles()},
    {"FileSize", ParamType::String, defaultFileSize, "",
     "content size: bytes, or with a unit (10MB = 10^7, 100MiB = 100*2^20 = the BLEnD paper's 100 MB)"},
    {"PayloadSize",
     ParamType::Int,
     "1460",
     "B",
     "content bytes per Data (BLEnD: 1460)",
     {},
     runner::Range::closed(1, 8800)},
    {"Signing", ParamType::String, "digest", "", "signature of the Data", {"digest", "hmac", "null"}},
    {"StartTime",
     ParamType::Double,
     "1",
     "s",
     "consumer start time (Wi-Fi: after association)",
     {},
     runner::Range::nonNegative(runner::MaxTimeSeconds)},
  };
  // Profile stands for the knobs its profile sets apart from ndnlab's defaults.
  ParamSpec& profile = p[1];
  for (const auto& name : app::fetcherProfiles()) {
    auto& preset = profile.presets[name];
    for (size_t i = 0; i < knobs().size(); ++i) {
      if (profileKnobs(name)[i].spec.defaultValue != knobs()[i].spec.defaultValue)
        preset[knobs()[i].spec.name] = profileKnobs(name)[i].spec.defaultValue;
    }
  }
  for (const auto& k : knobs())
    p.push_back(k.spec);
  return p;
}

ParamSpec csSizeParam()
{
  return {"CsSize",
          ParamType::Int,
          "65536",
          "packets",
          "Content Store capacity of every node; 0 disables caching",
          {},
          runner::Range::nonNegative(std::numeric_limits<uint32_t>::max())};
}

std::vector<ParamSpec> runParams(double defaultMaxTime)
{
  return {
    {"Traces",
     ParamType::String,
     "periodic",
     "",
     "trace files in --out: none; periodic = rates, drops, goodput, tables per TracePeriod; all = also one "
     "delay row per Data",
     {"none", "periodic", "all"}},
    {"TracePeriod",
     ParamType::Double,
     "1",
     "s",
     "period of the periodic traces",
     {},
     runner::Range::closed(1e-6, runner::MaxTimeSeconds)},
    {"MaxTime",
     ParamType::Double,
     formatNumber(defaultMaxTime),
     "s",
     "simulated time limit (the run stops earlier when all fetches end)",
     {},
     runner::Range::positive(runner::MaxTimeSeconds)},
  };
}

void checkConsumerParams(const Params& params)
{
  parseByteSize("FileSize", params.getString("FileSize"));
  const std::string& kind = params.getString("Consumer");
  if (kind == "one-interest")
    return; // ignores the knobs
  // A ConsumerApp as Fetch installs it (ns-3 defaults, --ns3:: overrides included), one knob at
  // a time, so the first one the core rejects is named.
  auto app = ns3::CreateObject<ConsumerApp>();
  auto validate = [&app](const std::string& what) {
    try {
      app->GetOptions().validate();
    }
    catch (const std::invalid_argument& e) {
      throw UsageError(what + ": " + e.what());
    }
  };
  app->SetAttribute("Pipeline", ns3::StringValue(kind));
  validate("--Consumer=" + kind + " with the ns-3 defaults of ndnlab::ConsumerApp");
  for (size_t i = 0; i < knobs().size(); ++i) {
    const Knob& k = knobs()[i];
    const std::optional<std::string> value = knobSetting(params, i);
    if (!value)
      continue;
    const std::string arg = params.isSet(k.spec.name) ? "--" + k.spec.name + "=" + knobText(params, k)
                                                      : "--Profile=" + params.getString("Profile");
    if (!app->SetAttributeFailSafe(k.attribute, ns3::StringValue(*value)))
      throw UsageError(arg + ": out of range of ndnlab::ConsumerApp::" + k.attribute);
    validate(arg);
  }
}

// --- parsers ---

uint64_t parseByteSize(const std::string& name, const std::string& text)
{
  static const std::regex re(R"(^\s*([0-9]+(?:\.[0-9]+)?)\s*((?:[kKMGT]i?)?)B?\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, re))
    throw UsageError("--" + name + "=" + text + ": not a size (bytes, or e.g. 10MB, 100MiB)");
  double v = std::strtod(m[1].str().c_str(), nullptr);
  std::string unit = m[2].str();
  double mult = 1;
  if (!unit.empty()) {
    bool binary = unit.size() == 2;
    double base = binary ? 1024 : 1000;
    int power = std::string("kMGT").find(static_cast<char>(unit[0] == 'K' ? 'k' : unit[0])) + 1;
    mult = std::pow(base, power);
  }
  double bytes = std::round(v * mult);
  if (bytes < 1 || bytes > 1e15)
    throw UsageError("--" + name + "=" + text + ": out of range");
  return static_cast<uint64_t>(bytes);
}

std::vector<std::string> perElement(const std::string& name, const std::string& text, size_t n)
{
  std::vector<std::string> parts;
  for (size_t from = 0;;) {
    size_t comma = text.find(',', from);
    parts.push_back(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (parts.back().empty())
      throw UsageError("--" + name + "=" + text + ": empty value in the list");
    if (comma == std::string::npos)
      break;
    from = comma + 1;
  }
  if (parts.size() == 1)
    return std::vector<std::string>(n, parts[0]);
  if (parts.size() != n)
    throw UsageError("--" + name + "=" + text + ": expected one value or " + std::to_string(n) +
                     " comma-separated values");
  return parts;
}

std::string checkRate(const std::string& name, const std::string& text)
{
  static const std::regex re(R"(^([0-9]+(\.[0-9]+)?)([kKMG]?)(bps|b/s)$)");
  std::smatch m;
  if (!std::regex_match(text, m, re))
    throw UsageError("--" + name + ": '" + text + "' is not a data rate (e.g. 10Mbps)");
  const std::string prefix = m[3].str();
  const double scale = prefix.empty() ? 1 : prefix == "M" ? 1e6 : prefix == "G" ? 1e9 : 1e3; // else k or K
  const double bps = std::strtod(m[1].str().c_str(), nullptr) * scale;
  if (!(bps >= 1 && bps <= MaxRateBps))
    throw UsageError("--" + name + ": '" + text + "' is out of range (1bps..1000Gbps)");
  return text;
}

std::string checkTime(const std::string& name, const std::string& text)
{
  static const std::regex re(R"(^([0-9]+(\.[0-9]+)?)(s|ms|us|ns)$)");
  std::smatch m;
  if (!std::regex_match(text, m, re))
    throw UsageError("--" + name + ": '" + text + "' is not a time with unit (e.g. 2ms)");
  const std::string unit = m[3].str();
  const double scale = unit == "s" ? 1 : unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : 1e-9;
  if (!(std::strtod(m[1].str().c_str(), nullptr) * scale <= runner::MaxTimeSeconds))
    throw UsageError("--" + name + ": '" + text + "' is longer than " + formatNumber(runner::MaxTimeSeconds) + " s");
  return text;
}

std::string checkQueue(const std::string& name, const std::string& text)
{
  static const std::regex re(R"(^([0-9]+)(p|B)$)");
  std::smatch m;
  if (!std::regex_match(text, m, re))
    throw UsageError("--" + name + ": '" + text + "' is not a queue size (e.g. 100p or 64000B)");
  const bool bytes = m[2].str() == "B";
  const double n = std::strtod(m[1].str().c_str(), nullptr);
  const uint32_t max = std::numeric_limits<uint32_t>::max();
  if (!(n >= (bytes ? MinQueueBytes : 1) && n <= max))
    throw UsageError("--" + name + ": '" + text + "' is out of range (1p.." + std::to_string(max) + "p or " +
                     formatNumber(MinQueueBytes) + "B.." + std::to_string(max) + "B)");
  return text;
}

double parseProbability(const std::string& name, const std::string& text)
{
  double v = 0;
  if (!runner::parseDouble(text, v) || !(v >= 0 && v <= 1))
    throw UsageError("--" + name + ": '" + text + "' is not a probability in [0, 1]");
  return v;
}

// --- Fetch ---

bool contentMatches(uint64_t seed, uint64_t offset, const uint8_t* p, size_t n)
{
  // Whole 8-byte blocks are compared as one contentBlock() each: byte k of a block is bits
  // 8k..8k+7, so on a little-endian host the block's memory image is its 8 content bytes.
  size_t i = 0;
  if constexpr (std::endian::native == std::endian::little) {
    for (; i < n && ((offset + i) & 7) != 0; ++i) {
      if (p[i] != contentByte(seed, offset + i))
        return false;
    }
    for (; i + 8 <= n; i += 8) {
      uint64_t v;
      std::memcpy(&v, p + i, 8);
      if (v != contentBlock(seed, (offset + i) >> 3))
        return false;
    }
  }
  for (; i < n; ++i) {
    if (p[i] != contentByte(seed, offset + i))
      return false;
  }
  return true;
}

struct Fetch::State
{
  uint64_t seed = 1;
  uint64_t offset = 0;    ///< content bytes delivered so far
  bool bytesMatch = true; ///< every delivered byte equals the producer's content
  bool complete = false;
  bool failed = false;
  double doneAt = 0; ///< simulated time of completion/failure (s)
  std::string error;
  std::function<void()> onDone;

  void onBytes(const uint8_t* p, size_t n)
  {
    if (bytesMatch)
      bytesMatch = matches(p, n);
    offset += n;
  }

  bool matches(const uint8_t* p, size_t n) const { return contentMatches(seed, offset, p, n); }

  void finish(bool ok, std::string err = {})
  {
    if (complete || failed)
      return;
    (ok ? complete : failed) = true;
    error = std::move(err);
    doneAt = ns3::Simulator::Now().GetSeconds();
    if (onDone)
      onDone();
  }
};

nlohmann::json networkLink(size_t index, const std::string& a, const std::string& b, const std::string& rate,
                           const std::string& delay, double loss, const std::string& queue)
{
  return {{"a", a},         {"b", b},
          {"rate", rate},   {"rate_bps", static_cast<double>(ns3::DataRate(rate).GetBitRate())},
          {"delay", delay}, {"delay_s", ns3::Time(delay).GetSeconds()},
          {"loss", loss},   {"loss_stream", linkLossStream(index)},
          {"queue", queue}};
}

nlohmann::json fetchApps(const Params& params, const FetchSpec& spec, const std::string& consumerNode,
                         const std::string& producerNode)
{
  const std::string kind = params.getString("Consumer");
  if (kind == "one-interest")
    throw UsageError("--Consumer=one-interest is a simulated bound (a pushed stream) that ndnlab's tools do not run");
  std::vector<std::string> get = {"--cc", kind, "--profile", params.getString("Profile")};
  for (std::string& flag : knobFlags(params, knobs(), "ndnlab get"))
    get.push_back(std::move(flag));
  const std::vector<std::string> serve = {"--size",        std::to_string(params.getInt("PayloadSize")),
                                          "--packet-size", "0",
                                          "--signing",     params.getString("Signing")};
  return nlohmann::json::array({
    {{"node", producerNode},
     {"role", "producer"},
     {"tool", "serve"},
     {"prefix", spec.prefix},
     {"file_size", parseByteSize("FileSize", params.getString("FileSize"))},
     {"content_seed", spec.contentSeed},
     {"start_s", 0.0},
     {"args", serve}},
    {{"node", consumerNode},
     {"role", "consumer"},
     {"tool", "get"},
     {"name", spec.prefix},
     {"start_s", params.getDouble("StartTime") + spec.startDelay},
     {"args", get}},
  });
}

Fetch::Fetch(const Params& params, const FetchSpec& spec, ns3::Ptr<ns3::Node> consumerNode,
             ns3::Ptr<ns3::Node> producerNode, std::function<void()> onDone)
  : m_state(std::make_shared<State>()),
    m_kind(params.getString("Consumer")),
    m_fileSize(parseByteSize("FileSize", params.getString("FileSize"))),
    m_start(params.getDouble("StartTime") + spec.startDelay)
{
  int64_t payload = params.getInt("PayloadSize"); // 1..8800: its spec's range
  m_state->seed = spec.contentSeed;
  m_state->onDone = std::move(onDone);
  bool push = m_kind == "one-interest";

  AppHelper producer(push ? "ndnlab::OneInterestProducerApp" : "ndnlab::ProducerApp");
  producer.SetPrefix(spec.prefix);
  producer.SetAttribute("FileSize", ns3::UintegerValue(m_fileSize));
  producer.SetAttribute("PayloadSize", ns3::UintegerValue(static_cast<uint64_t>(payload)));
  producer.SetAttribute("ContentSeed", ns3::UintegerValue(spec.contentSeed));
  producer.SetAttribute("Signing", ns3::StringValue(params.getString("Signing")));
  m_producer = producer.Install(producerNode).Get(0);

  AppHelper consumer(push ? "ndnlab::OneInterestConsumerApp" : "ndnlab::ConsumerApp");
  consumer.SetPrefix(spec.prefix);
  consumer.SetAttribute("StartTime", ns3::TimeValue(ns3::Seconds(m_start)));
  consumer.SetAttribute("ExpectedSize", ns3::UintegerValue(m_fileSize));
  if (!push) {
    consumer.SetAttribute("Pipeline", ns3::StringValue(m_kind));
    // checkConsumerParams() has checked these values
    for (size_t i = 0; i < knobs().size(); ++i) {
      if (const std::optional<std::string> value = knobSetting(params, i))
        consumer.SetAttribute(knobs()[i].attribute, ns3::StringValue(*value));
    }
  }
  m_consumer = consumer.Install(consumerNode).Get(0);

  std::weak_ptr<State> weak = m_state;
  m_consumer->TraceConnectWithoutContext(
    "Bytes", ns3::Callback<void, const uint8_t*, size_t>([weak](const uint8_t* p, size_t n) {
      if (auto s = weak.lock())
        s->onBytes(p, n);
    }));
  m_consumer->TraceConnectWithoutContext("Complete",
                                         ns3::Callback<void, const app::FetchStats&>([weak](const app::FetchStats&) {
                                           if (auto s = weak.lock())
                                             s->finish(true);
                                         }));
  m_consumer->TraceConnectWithoutContext("Failed", ns3::Callback<void, const app::FetchStats&, const std::string&>(
                                                     [weak](const app::FetchStats&, const std::string& e) {
                                                       if (auto s = weak.lock())
                                                         s->finish(false, e);
                                                     }));
}

bool Fetch::done() const
{
  return m_state->complete || m_state->failed;
}

bool Fetch::complete() const
{
  return m_state->complete;
}

double Fetch::endTime() const
{
  return done() ? m_state->doneAt : ns3::Simulator::Now().GetSeconds();
}

uint64_t Fetch::deliveredBytes() const
{
  return m_state->offset;
}

app::FetchStats Fetch::stats() const
{
  if (auto c = ns3::DynamicCast<ConsumerApp>(m_consumer))
    return c->GetStats();
  return ns3::DynamicCast<OneInterestConsumerApp>(m_consumer)->GetStats();
}

nlohmann::json Fetch::metrics() const
{
  app::FetchStats s = stats();
  const State& st = *m_state;
  bool bitExact = st.complete && st.bytesMatch && st.offset == m_fileSize;
  // the fetch's result fields (app::visitMetrics: the keys of `ndnlab get --json`), numeric
  // ones only (the scenario's parameters name the consumer), then what the scenario knows
  nlohmann::json j;
  app::visitMetrics(s, [&j](const fields::Metric& m, const auto& v) {
    if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, std::string>)
      j[std::string(m.key)] = v;
  });
  j["completion_time_s"] = st.complete ? nlohmann::json(st.doneAt - m_start) : nlohmann::json(nullptr);
  j["completed"] = st.complete;
  j["bit_exact"] = bitExact;
  j["file_size_bytes"] = m_fileSize;
  j["bytes"] = st.offset; // bytes delivered in order (the fetch counts received ones)
  j["data_received"] = nodeFrames(m_consumer->GetNode())["data_in"];
  if (st.failed)
    j["error"] = st.error;
  return j;
}

// --- ping ---

std::vector<ParamSpec> pingParams()
{
  const app::PingClientOptions client;
  const app::PingServerOptions server;
  const double maxMs = runner::MaxTimeSeconds * 1e3;
  return {
    {"PingCount",
     ParamType::Int,
     "10",
     "",
     "App=ping: pings sent (ndnlab ping --count)",
     {},
     runner::Range::closed(1, 1e6)},
    {"PingInterval",
     ParamType::Double,
     formatNumber(toMillis(client.interval)),
     "ms",
     "App=ping: time between pings (--interval)",
     {},
     runner::Range::positive(maxMs)},
    {"PingTimeout",
     ParamType::Double,
     formatNumber(toMillis(client.timeout)),
     "ms",
     "App=ping: ping timeout = InterestLifetime (--timeout)",
     {},
     runner::Range::positive(maxMs)},
    {"PingSize",
     ParamType::Int,
     std::to_string(server.payloadSize),
     "B",
     "App=ping: payload bytes of each reply (ndnlab pingserver --size)",
     {},
     runner::Range::closed(0, 8800)},
  };
}

nlohmann::json pingApps(const Params& params, const std::string& prefix, const std::string& consumerNode,
                        const std::string& producerNode)
{
  const std::vector<std::string> server = {"--size", std::to_string(params.getInt("PingSize"))};
  const std::vector<std::string> client = {"--count",    std::to_string(params.getInt("PingCount")),
                                           "--interval", formatNumber(params.getDouble("PingInterval")),
                                           "--timeout",  formatNumber(params.getDouble("PingTimeout"))};
  return nlohmann::json::array({
    {{"node", producerNode},
     {"role", "producer"},
     {"tool", "pingserver"},
     {"prefix", prefix},
     {"registers", prefix + "/ping"},
     {"start_s", 0.0},
     {"args", server}},
    {{"node", consumerNode},
     {"role", "consumer"},
     {"tool", "ping"},
     {"name", prefix},
     {"start_s", params.getDouble("StartTime")},
     {"args", client}},
  });
}

Ping::Ping(const Params& params, const std::string& prefix, ns3::Ptr<ns3::Node> consumerNode,
           ns3::Ptr<ns3::Node> producerNode, std::function<void()> onDone)
  : m_onDone(std::make_shared<std::function<void()>>(std::move(onDone)))
{
  AppHelper server("ndnlab::PingServerApp");
  server.SetPrefix(prefix);
  server.SetAttribute("PayloadSize", ns3::UintegerValue(static_cast<uint64_t>(params.getInt("PingSize"))));
  server.Install(producerNode);

  AppHelper client("ndnlab::PingClientApp");
  client.SetPrefix(prefix);
  client.SetAttribute("StartTime", ns3::TimeValue(ns3::Seconds(params.getDouble("StartTime"))));
  client.SetAttribute("Count", ns3::UintegerValue(static_cast<uint64_t>(params.getInt("PingCount"))));
  client.SetAttribute("Interval", ns3::TimeValue(ns3::Seconds(params.getDouble("PingInterval") / 1e3)));
  client.SetAttribute("Timeout", ns3::TimeValue(ns3::Seconds(params.getDouble("PingTimeout") / 1e3)));
  m_client = client.Install(consumerNode).Get(0);
  std::weak_ptr<std::function<void()>> weak = m_onDone;
  m_client->TraceConnectWithoutContext("Finished", ns3::Callback<void>([weak] {
                                         if (auto f = weak.lock(); f && *f)
                                           std::exchange(*f, nullptr)();
                                       }));
}

nlohmann::json Ping::metrics() const
{
  auto c = ns3::DynamicCast<PingClientApp>(m_client);
  return pingMetrics(c->GetStats(), c->GetElapsed());
}

nlohmann::json pingMetrics(const app::PingStats& s, Duration elapsed)
{
  auto rtt = [&s](double ms) { return s.received > 0 ? nlohmann::json(ms) : nlohmann::json(nullptr); };
  return {{"pings_sent", s.sent},
          {"pings_received", s.received},
          {"pings_nacked", s.nacked},
          {"pings_timed_out", s.timeouts},
          {"loss_percent", s.lossPercent()},
          {"nack_percent", s.nackPercent()},
          {"rtt_min_ms", rtt(toMillis(s.rttMin))},
          {"rtt_avg_ms", rtt(s.rttAvgMs())},
          {"rtt_max_ms", rtt(toMillis(s.rttMax))},
          {"rtt_mdev_ms", rtt(s.rttMdevMs())},
          {"elapsed_s", toSeconds(elapsed)}};
}

// --- perf ---

std::vector<ParamSpec> perfParams()
{
  const app::PerfClientOptions client;
  return {
    {"PerfTime",
     ParamType::Double,
     formatNumber(toSeconds(client.duration)),
     "s",
     "App=perf: length of the test (ndnlab perf client -t)",
     {},
     runner::Range::positive(runner::MaxTimeSeconds)},
    {"PerfBitRate",
     ParamType::Double,
     "0",
     "bit/s",
     "App=perf: paced mode, content bits per second per flow, loss counted (-b); 0: the window pipeline of "
     "Consumer (--cc)",
     {},
     runner::Range::nonNegative(1e12)},
    {"PerfParallel",
     ParamType::Int,
     std::to_string(client.parallel),
     "flows",
     "App=perf: independent flows (-P)",
     {},
     runner::Range::closed(1, 128)},
    {"PerfLength",
     ParamType::Int,
     std::to_string(client.payload),
     "B",
     "App=perf: content bytes per Data (-l)",
     {},
     runner::Range::closed(16, 8400)},
    {"PerfInterval",
     ParamType::Double,
     "1",
     "s",
     "App=perf: period of the interval figures (-i)",
     {},
     runner::Range::positive(runner::MaxTimeSeconds)},
  };
}

nlohmann::json perfApps(const Params& params, const std::string& prefix, const std::string& consumerNode,
                        const std::string& producerNode)
{
  std::vector<std::string> client = {"-J",
                                     "-t",
                                     formatNumber(params.getDouble("PerfTime")),
                                     "-P",
                                     std::to_string(params.getInt("PerfParallel")),
                                     "-l",
                                     std::to_string(params.getInt("PerfLength")),
                                     "-i",
                                     formatNumber(params.getDouble("PerfInterval"))};
  const double bitRate = params.getDouble("PerfBitRate");
  if (bitRate > 0) {
    client.insert(client.end(), {"-b", std::to_string(static_cast<uint64_t>(bitRate))});
  }
  else {
    const std::string kind = params.getString("Consumer");
    if (kind == "one-interest")
      throw UsageError(
        "--App=perf runs the window pipelines of `ndnlab perf client --cc`, not --Consumer=one-interest");
    client.insert(client.end(), {"--cc", kind});
  }
  return nlohmann::json::array({
    {{"node", producerNode},
     {"role", "producer"},
     {"tool", "perf-server"},
     {"prefix", prefix},
     {"registers", prefix},
     {"start_s", 0.0},
     {"args", nlohmann::json::array()}},
    {{"node", consumerNode},
     {"role", "consumer"},
     {"tool", "perf-client"},
     {"name", prefix},
     {"start_s", params.getDouble("StartTime")},
     {"args", client}},
  });
}

Perf::Perf(const Params& params, const std::string& prefix, ns3::Ptr<ns3::Node> consumerNode,
           ns3::Ptr<ns3::Node> producerNode, std::function<void()> onDone)
  : m_onDone(std::make_shared<std::function<void()>>(std::move(onDone)))
{
  AppHelper server("ndnlab::PerfProducerApp");
  server.SetPrefix(prefix);
  server.Install(producerNode);

  AppHelper client("ndnlab::PerfConsumerApp");
  client.SetPrefix(prefix);
  client.SetAttribute("StartTime", ns3::TimeValue(ns3::Seconds(params.getDouble("StartTime"))));
  client.SetAttribute("Duration", ns3::StringValue(formatNumber(params.getDouble("PerfTime")) + "s"));
  client.SetAttribute("Interval", ns3::StringValue(formatNumber(params.getDouble("PerfInterval")) + "s"));
  client.SetAttribute("Parallel", ns3::StringValue(std::to_string(params.getInt("PerfParallel"))));
  client.SetAttribute("Payload", ns3::StringValue(std::to_string(params.getInt("PerfLength"))));
  const double bitRate = params.getDouble("PerfBitRate");
  client.SetAttribute("BitRate", ns3::StringValue(std::to_string(static_cast<uint64_t>(bitRate))));
  if (bitRate <= 0)
    client.SetAttribute("Pipeline", ns3::StringValue(params.getString("Consumer")));
  m_client = client.Install(consumerNode).Get(0);
  std::weak_ptr<std::function<void()>> weak = m_onDone;
  m_client->TraceConnectWithoutContext("Done",
                                       ns3::Callback<void, const app::PerfReport&>([weak](const app::PerfReport&) {
                                         if (auto f = weak.lock(); f && *f)
                                           std::exchange(*f, nullptr)();
                                       }));
}

nlohmann::json Perf::metrics() const
{
  const auto& report = ns3::DynamicCast<PerfConsumerApp>(m_client)->GetReport();
  return perfMetrics(report ? *report : app::PerfReport{});
}

nlohmann::json perfMetrics(const app::PerfReport& r)
{
  const double elapsed = toSeconds(r.elapsed);
  auto mbps = [](uint64_t bytes, double seconds) {
    return seconds > 0 ? static_cast<double>(bytes) * 8 / seconds / 1e6 : 0.0;
  };
  nlohmann::json intervals = nlohmann::json::array();
  for (const auto& iv : r.intervals)
    intervals.push_back(mbps(iv.sum.bytes, toSeconds(iv.end - iv.start)));
  const app::PerfFlowStats& s = r.sum;
  return {{"goodput_mbps", mbps(s.bytes, elapsed)},
          {"bytes", s.bytes},
          {"lost_packets", s.lost},
          {"lost_percent", s.lostPercent()},
          {"jitter_ms", s.jitterMs},
          {"retransmissions", s.retransmissions},
          {"interests", s.interests},
          {"data", s.segments},
          {"timeouts", s.timeouts},
          {"nacks", s.nacks},
          {"congestion_marks", s.marks},
          {"rtt_min_ms", toMillis(s.rttMin)},
          {"rtt_avg_ms", toMillis(s.rttAvg)},
          {"rtt_max_ms", toMillis(s.rttMax)},
          {"interarrival_ave_us", s.interarrivalAveUs},
          {"interarrival_max_us", s.interarrivalMaxUs},
          {"interarrival_var_us2", s.interarrivalVarUs2},
          {"elapsed_s", elapsed},
          {"server_bytes", r.server ? r.server->bytes : 0},
          {"intervals_mbps", intervals},
          {"mode", r.mode},
          {"completed", r.elapsed > Duration::zero() && !r.error},
          {"cpu_host_percent", nullptr},
          {"cpu_remote_percent", nullptr}};
}

// --- counters ---

nlohmann::json nodeFrames(ns3::Ptr<ns3::Node> node)
{
  uint64_t txFrames = 0, rxFrames = 0, txBytes = 0, rxBytes = 0;
  uint64_t iOut = 0, iIn = 0, dOut = 0, dIn = 0, nOut = 0, nIn = 0;
  bool reliable = false; // link reliability on some face of the node
  face::LinkService::Counters lp;
  auto stack = node->GetObject<NdnStack>();
  if (stack) {
    for (face::FaceId id : stack->GetNetDeviceFaces()) {
      if (const auto* t = stack->GetTransport(id)) {
        txFrames += t->counters().nOutPackets;
        rxFrames += t->counters().nInPackets;
        txBytes += t->counters().nOutBytes;
        rxBytes += t->counters().nInBytes;
      }
      if (const auto* f = stack->GetFace(id)) {
        const auto& c = f->counters();
        iOut += c.nOutInterests;
        iIn += c.nInInterests;
        dOut += c.nOutData;
        dIn += c.nInData;
        nOut += c.nOutNacks;
        nIn += c.nInNacks;
        const face::LinkService& ls = f->linkService();
        reliable = reliable || ls.options().reliability.enabled;
        const auto& l = ls.counters();
        lp.nOutRetxFrames += l.nOutRetxFrames;
        lp.nAcknowledged += l.nAcknowledged;
        lp.nRetransmitted += l.nRetransmitted;
        lp.nRetxExhausted += l.nRetxExhausted;
        lp.nUnackedOverflow += l.nUnackedOverflow;
        lp.nDuplicateSequence += l.nDuplicateSequence;
        lp.nOutAcks += l.nOutAcks;
        lp.nOutIdleAcks += l.nOutIdleAcks;
      }
    }
  }
  nlohmann::json j = {{"tx_frames", txFrames}, {"rx_frames", rxFrames}, {"tx_bytes", txBytes}, {"rx_bytes", rxBytes},
                      {"interests_out", iOut}, {"interests_in", iIn},   {"data_out", dOut},    {"data_in", dIn},
                      {"nacks_out", nOut},     {"nacks_in", nIn}};
  if (reliable) {
    // link reliability (LinkService::Counters), summed over the node's device faces
    j["lp_retx_frames"] = lp.nOutRetxFrames;
    j["lp_acknowledged"] = lp.nAcknowledged;
    j["lp_retransmitted"] = lp.nRetransmitted;
    j["lp_given_up"] = lp.nRetxExhausted + lp.nUnackedOverflow;
    j["lp_duplicates"] = lp.nDuplicateSequence;
    j["lp_acks_out"] = lp.nOutAcks;
    j["lp_idle_acks_out"] = lp.nOutIdleAcks;
  }
  return j;
}

P2pDropCounter::P2pDropCounter(const ns3::NetDeviceContainer& devices)
{
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    auto counts = std::make_shared<Counts>();
    counts->node = devices.Get(i)->GetNode()->GetId();
    m_counts.push_back(counts);
    devices.Get(i)->TraceConnectWithoutContext(
      "MacTxDrop",
      ns3::Callback<void, ns3::Ptr<const ns3::Packet>>([counts](ns3::Ptr<const ns3::Packet>) { ++counts->queue; }));
    devices.Get(i)->TraceConnectWithoutContext(
      "PhyRxDrop",
      ns3::Callback<void, ns3::Ptr<const ns3::Packet>>([counts](ns3::Ptr<const ns3::Packet>) { ++counts->loss; }));
  }
}

nlohmann::json nodeReport(ns3::Ptr<ns3::Node> node, const P2pDropCounter& drops)
{
  nlohmann::json j = nodeFrames(node);
  j.update(drops.forNode(node));
  return j;
}

nlohmann::json P2pDropCounter::forNode(ns3::Ptr<ns3::Node> node) const
{
  uint64_t queue = 0, loss = 0;
  for (const auto& c : m_counts) {
    if (c->node == node->GetId()) {
      queue += c->queue;
      loss += c->loss;
    }
  }
  return {{"queue_drops", queue}, {"loss_drops", loss}};
}

nlohmann::json phyCounters(const WifiPhyCounter& phy, size_t i)
{
  const WifiPhyCounts& c = phy.counts(i);
  return {{"phy_tx", c.all}, {"phy_tx_data", c.data}, {"phy_tx_ctl", c.ctl}, {"phy_tx_mgt", c.mgt}};
}

// --- traces ---

std::string tracePath(RunContext& ctx, const std::string& name)
{
  if (!ctx.hasOutDir())
    return {};
  ctx.openTrace(name).reset(); // registers the file in result.json; the writer reopens it
  return (ctx.outDir() / name).string();
}

ScenarioTraces::ScenarioTraces(RunContext& ctx, const ns3::NodeContainer& nodes)
{
  const std::string& mode = ctx.params().getString("Traces");
  double period = ctx.params().getDouble("TracePeriod"); // its spec's range: >= 1 us
  if (!ctx.hasOutDir() || mode == "none")
    return;
  m_tracers = std::make_unique<Tracers>(nodes);
  ns3::Time p = ns3::Seconds(period);
  m_tracers->EnableRates(tracePath(ctx, "rates.csv"), p);
  m_tracers->EnableDrops(tracePath(ctx, "drops.csv"), p);
  m_tracers->EnableGoodput(tracePath(ctx, "goodput.csv"), p);
  m_tracers->EnableTableSizes(tracePath(ctx, "tables.csv"), p);
  if (mode == "all")
    m_tracers->EnableAppDelays(tracePath(ctx, "delays.csv"));
}

ScenarioTraces::~ScenarioTraces() = default;

nlohmann::json ScenarioTraces::counts() const
{
  nlohmann::json j = nlohmann::json::object();
  if (m_tracers)
    for (const auto& [k, v] : m_tracers->Counts())
      j[k] = v;
  return j;
}

nlohmann::json ScenarioTraces::drops() const
{
  nlohmann::json j = nlohmann::json::object();
  const nlohmann::json all = counts();
  for (const auto& [k, v] : all.items())
    if (k.rfind("drop/", 0) == 0)
      j[k.substr(5)] = v;
  return j;
}

} // namespace ndnlab::sim::scenarios
