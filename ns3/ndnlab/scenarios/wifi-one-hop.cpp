// Scenario `wifi-one-hop`: the BLEnD paper's single-hop Wi-Fi set-up (Sec. II-A, Fig. 1): one
// station (the consumer) and one access point (the producer) in infrastructure mode, 5 m
// apart, the configurations of shared/reference/ns3-calibration.md 2.3 via WifiOneHop. The
// station fetches a file (App=fetch) or plays a real-time stream the access point publishes
// (App=stream: the NDN-RTC apps of stream-kit.hpp, issue 29 item 5(d)), BLEnD bundling or not.

#include "ns3/ndnlab/helper/route-helper.hpp"
#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/helper/tracers.hpp"
#include "ns3/ndnlab/helper/wifi-one-hop.hpp"
#include "ns3/ndnlab/scenarios/bundling-kit.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"
#include "ns3/ndnlab/scenarios/stream-kit.hpp"
#include "ns3/ndnlab/scenarios/wifi-kit.hpp"

#include "core/fw/forwarder.hpp"

#include <ns3/simulator.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-net-device.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>

namespace ndnlab::sim::scenarios {
namespace {

/// Where the access point publishes its stream (App=stream), under the route's /lab.
const std::string ApStreamPrefix = std::string(StreamPrefix) + "/ap";

bool streams(const Params& params)
{
  return params.getString("App") == "stream";
}

/// The fetch's parameters, then streamParams() but for those the fetch declares already
/// (PayloadSize, Signing): one parameter serves both apps, its doc extended by the stream's.
std::vector<ParamSpec> appParams()
{
  std::vector<ParamSpec> p = {{"App",
                               ParamType::String,
                               "fetch",
                               "",
                               "the station's application: fetch (a FileSize file, the Consumer's congestion control) "
                               "or stream (an NDN-RTC stream the access point publishes, the stream parameters from "
                               "Bitrates on; the fetch's are unused but PayloadSize and Signing)",
                               {"fetch", "stream"}}};
  for (ParamSpec& spec : consumerParams(true, "100MiB"))
    p.push_back(std::move(spec));
  for (ParamSpec& spec : streamParams()) {
    auto same = std::find_if(p.begin(), p.end(), [&](const ParamSpec& q) { return q.name == spec.name; });
    if (same == p.end()) {
      p.push_back(std::move(spec));
      continue;
    }
    if (same->type != spec.type)
      throw std::logic_error("wifi-one-hop: the fetch's and the stream's " + spec.name + " differ in type");
    same->doc += "; App=stream: " + spec.doc;
  }
  return p;
}

std::vector<ParamSpec> wifiParams()
{
  const std::vector<ParamSpec> radio = {
    {"Standard",
     ParamType::String,
     "80211b",
     "",
     "80211b = DsssRate11Mbps; 80211n = 5 GHz, OfdmRate24Mbps (the paper's 24 Mbps); 80211n-2.4 = 2.4 GHz, "
     "ErpOfdmRate24Mbps",
     {"80211b", "80211n", "80211n-2.4"}},
    {"Addressing",
     ParamType::String,
     "broadcast",
     "",
     "NDN frames to the broadcast MAC (ndnSIM, the paper) or to the learned neighbour (802.11 ACK/retry)",
     {"broadcast", "unicast"}},
    {"DataMode", ParamType::String, "", "",
     "override of the standard's data mode, e.g. HtMcs3 (80211n); a mode of that standard and band (a bad "
     "one is rejected with the list); empty = the standard's"},
    {"Ampdu", ParamType::Bool, "false", "",
     "A-MPDU aggregation (BE_MaxAmpduSize 65535); only HT unicast frames are aggregated"},
    {"BroadcastAtDataRate", ParamType::Bool, "true", "",
     "NonUnicastMode = the data mode (as the paper's numbers need); false = ns-3's lowest basic rate"},
    {"Distance", ParamType::Double, "5", "m", "station to access point", {}, runner::Range::positive(1e6)},
    {"FrameLoss",
     ParamType::Double,
     "0",
     "",
     "probability that a frame a node's PHY decoded is lost anyway (random link loss on top of collisions; "
     "unicast frames are retried, broadcast ones are not)",
     {},
     runner::Range{0, 1, false, true}},
    {"CsSize",
     ParamType::Int,
     "100",
     "packets",
     "Content Store capacity of both nodes (ndnSIM's default 100; one hop never needs more); 0 disables caching",
     {},
     runner::Range::nonNegative(std::numeric_limits<uint32_t>::max())},
    {"FrameLog", ParamType::Bool, "false", "",
     "write frames.csv: time_ns,node,bytes of every frame handed to a Wi-Fi MAC (bench/sim-speed replays it)"},
    {"Pcap", ParamType::Bool, "false", "", "radiotap pcap files of both devices"},
  };
  return joinParams({radio, bundlingParams(), appParams(), runParams(7200)});
}

WifiOneHopOptions radioOptions(const Params& params)
{
  WifiOneHopOptions opts;
  opts.standard = wifiStandard(params);
  opts.distance = params.getDouble("Distance");
  opts.broadcastAtDataRate = params.getBool("BroadcastAtDataRate");
  opts.frameLoss = params.getDouble("FrameLoss");
  return opts;
}

void checkWifiOneHop(const Params& params)
{
  checkConsumerParams(params);
  if (streams(params))
    checkStreamParams(params);
}

void runWifiOneHop(RunContext& ctx)
{
  const Params& params = ctx.params();
  WifiOneHop wifi(radioOptions(params));
  const std::string dataMode = applyRadioOverrides(params, wifi.devices, wifi.dataMode);

  wifiStack(params).Install(wifi.nodes);
  RouteHelper::AddRoute(wifi.station(), "/lab", wifi.accessPoint());

  std::optional<Fetch> fetch;
  ns3::Ptr<StreamProducerApp> publisher;
  ns3::Ptr<StreamConsumerApp> player;
  if (streams(params)) {
    publisher = installStreamProducer(params, ApStreamPrefix, wifi.accessPoint());
    player = installStreamConsumer(params, ApStreamPrefix, wifi.station());
    stopWhenFinished({player});
  }
  else {
    fetch.emplace(params, FetchSpec{}, wifi.station(), wifi.accessPoint(), [] { ns3::Simulator::Stop(); });
  }
  WifiPhyCounter phy(wifi.devices);
  ScenarioTraces traces(ctx, wifi.nodes);

  std::shared_ptr<std::ofstream> frameLog;
  if (params.getBool("FrameLog") && ctx.hasOutDir()) {
    frameLog = std::make_shared<std::ofstream>(tracePath(ctx, "frames.csv"));
    *frameLog << "time_ns,node,bytes\n";
    for (uint32_t i = 0; i < wifi.devices.GetN(); ++i) {
      auto dev = ns3::DynamicCast<ns3::WifiNetDevice>(wifi.devices.Get(i));
      uint32_t node = dev->GetNode()->GetId();
      // MacTx: a packet from the upper layer (LLC/SNAP header included), before queueing
      dev->GetMac()->TraceConnectWithoutContext(
        "MacTx", ns3::Callback<void, ns3::Ptr<const ns3::Packet>>([frameLog, node](ns3::Ptr<const ns3::Packet> p) {
          *frameLog << ns3::Simulator::Now().GetNanoSeconds() << ',' << node << ',' << p->GetSize() << '\n';
        }));
    }
  }
  if (params.getBool("Pcap") && ctx.hasOutDir()) {
    for (uint32_t i = 0; i < wifi.devices.GetN(); ++i)
      tracePath(ctx, "wifi-" + std::to_string(wifi.nodes.Get(i)->GetId()) + "-0.pcap");
    Tracers::EnablePcap((ctx.outDir() / "wifi").string(), wifi.devices);
  }

  ctx.runSimulation(ns3::Seconds(params.getDouble("MaxTime")));

  nlohmann::json m;
  if (fetch) {
    m = fetch->metrics();
  }
  else {
    m["stream"] = streamMetrics(*player);
    m["producer"] = producerMetrics(*publisher);
  }
  m["data_mode"] = dataMode;
  nlohmann::json consumer = nodeFrames(wifi.station());
  consumer.update(phyCounters(phy, 0));
  nlohmann::json producer = nodeFrames(wifi.accessPoint());
  producer.update(phyCounters(phy, 1));
  m["nodes"] = {{"consumer", consumer}, {"producer", producer}};
  m["bundling"] = {{"consumer", bundleCounters(wifi.station())}, {"producer", bundleCounters(wifi.accessPoint())}};
  if (nlohmann::json drops = traces.drops(); !drops.empty())
    m["drops"] = drops;
  ctx.metrics = m;
  if (frameLog)
    frameLog->flush();
}

/// The BSS as data (Scenario::network) for `ndnlab emu`: one link of kind "wifi" whose radio
/// ndnlab-emu-link builds with WifiOneHop from these same values (station = consumer, access
/// point = producer), the daemons' BLEnD keys, and the fetch or the stream tools (stream-kit's
/// streamApps, their metrics those of rtsd-star but l2_utilization).
nlohmann::json wifiNetwork(const Params& params)
{
  for (const char* output : {"Pcap", "FrameLog"}) {
    if (params.getBool(output))
      throw UsageError(std::string("--") + output +
                       "=true: ndnlab emu runs the radio inside ndnlab-emu-link, which writes no such file");
  }
  // the radio as the run builds it, so that a DataMode of another standard is refused here
  const WifiOneHopOptions opts = radioOptions(params);
  WifiOneHop wifi(opts);
  const std::string dataMode = applyRadioOverrides(params, wifi.devices, wifi.dataMode);
  const nlohmann::json link = {{"a", "consumer"},
                               {"b", "producer"},
                               {"kind", "wifi"},
                               {"standard", opts.standard},
                               {"data_mode", dataMode},
                               {"data_mode_override", params.getString("DataMode")},
                               {"distance_m", opts.distance},
                               {"frame_loss", opts.frameLoss},
                               {"broadcast_at_data_rate", opts.broadcastAtDataRate},
                               {"ampdu", params.getBool("Ampdu")},
                               {"addressing", params.getString("Addressing")},
                               {"mtu", wifi.devices.Get(0)->GetMtu()}};
  nlohmann::json network = {{"nodes", {"consumer", "producer"}},
                            {"links", {link}},
                            {"cs_size", params.getInt("CsSize")},
                            {"strategy", fw::ForwarderOptions{}.defaultStrategy.toUri()},
                            {"routes", nlohmann::json::array({{{"prefix", "/lab"}, {"origin", "producer"}}})},
                            {"apps", streams(params) ? streamApps(params, ApStreamPrefix, "producer", "consumer")
                                                     : fetchApps(params, FetchSpec{}, "consumer", "producer")},
                            {"daemon_config", bundlingDaemonConfig(params)},
                            {"extra_metrics", {{"data_mode", dataMode}}},
                            {"bundling_metrics", {"consumer", "producer"}},
                            {"max_time_s", params.getDouble("MaxTime")}};
  if (streams(params))
    network["metrics"] = "rtsd-star";
  return network;
}

const runner::Registration reg{runner::Scenario{
  "wifi-one-hop",
  "BLEnD Fig. 1 set-up: one Wi-Fi station (consumer) fetching a file from, or playing a stream of, the access point "
  "(producer)",
  wifiParams(), runWifiOneHop, checkWifiOneHop, wifiNetwork}};

} // namespace
} // namespace ndnlab::sim::scenarios
