// plain-wifi: the NDN-free baseline of the simulation-speed benchmark (docs/results/simulator.md).
//
// It builds the same one-hop Wi-Fi as the wifi-one-hop scenario of ndnlab-sim (one station,
// one access point, 5 m, Yans defaults, ConstantRateWifiManager, NonUnicastMode = the data
// mode, A-MPDU off, RTS off, Wi-Fi streams from 2 000 000: the configuration of
// ns3/ndnlab/helper/wifi-one-hop.cpp, repeated here so that this program links no NDN code)
// and replays a frame log of an NDN run (wifi-one-hop --FrameLog=true writes frames.csv): every
// frame the NDN run handed to a Wi-Fi MAC is sent again by the same node at the same simulated
// time with the same size, through NetDevice::Send to the broadcast address (or the peer's
// address with --addressing=unicast), EtherType 0x8624. Receivers only count. So both programs
// put the same frames on the same channel; the difference in wall time is the NDN layer.
//
//   plain-wifi --frames=frames.csv --standard=80211b --addressing=broadcast --stop=210.5 [--seed=1]
//
// Prints one JSON object: frames sent/received per node, PHY transmissions, events, simulated
// time and wall time (set-up and run, frame log parsing excluded).

#include <ns3/boolean.h>
#include <ns3/command-line.h>
#include <ns3/mobility-helper.h>
#include <ns3/node-container.h>
#include <ns3/packet.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/ssid.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>
#include <ns3/vector.h>
#include <ns3/wifi-helper.h>
#include <ns3/wifi-mac-helper.h>
#include <ns3/wifi-net-device.h>
#include <ns3/wifi-phy.h>
#include <ns3/wifi-psdu.h>
#include <ns3/yans-wifi-helper.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace {

constexpr uint16_t EtherType = 0x8624;
constexpr uint32_t LlcSnapBytes = 8; // MacTx sizes include the LLC/SNAP header

struct Frame
{
  int64_t timeNs;
  uint32_t node;
  uint32_t bytes;
};

[[noreturn]] void usageError(const std::string& message)
{
  std::cerr << "plain-wifi: " << message << "\n";
  std::exit(2);
}

/// The frame log of wifi-one-hop --FrameLog=true: the header `time_ns,node,bytes`, then one
/// frame per line (node 0 = station, 1 = access point); anything else is an error, exit 2.
std::vector<Frame> readFrames(const std::string& file)
{
  std::ifstream in(file);
  if (!in)
    usageError("cannot read " + file);
  std::vector<Frame> frames;
  std::string line;
  if (!std::getline(in, line) || line != "time_ns,node,bytes")
    usageError(file + ": not a frame log (its first line must be time_ns,node,bytes)");
  for (size_t number = 2; std::getline(in, line); ++number) {
    Frame f{};
    int consumed = 0;
    if (std::sscanf(line.c_str(), "%ld,%u,%u%n", &f.timeNs, &f.node, &f.bytes, &consumed) != 3 ||
        static_cast<size_t>(consumed) != line.size() || f.timeNs < 0 || f.node > 1 || f.bytes == 0)
      usageError(file + ":" + std::to_string(number) + ": expected time_ns,node,bytes with node 0 or 1, got '" + line +
                 "'");
    frames.push_back(f);
  }
  if (frames.empty())
    usageError(file + ": no frames");
  return frames;
}

/// `text` as a finite number > 0, else a usage error naming `option`.
double positiveSeconds(const std::string& option, const std::string& text)
{
  char* end = nullptr;
  double x = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(x) || x <= 0)
    usageError("--" + option + "=" + text + ": expected a positive number of seconds");
  return x;
}

/// `text` as a seed ns-3 accepts: 1 .. 4294944442 (MRG32k3a's second modulus minus one).
uint32_t seedValue(const std::string& text)
{
  bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  unsigned long long n = digits && text.size() <= 10 ? std::strtoull(text.c_str(), nullptr, 10) : 0;
  if (n < 1 || n > 4294944442ULL)
    usageError("--seed=" + text + ": expected an integer from 1 to 4294944442");
  return static_cast<uint32_t>(n);
}

/// Sends one node's frames at their recorded times, one pending event at a time.
struct Replay
{
  std::vector<Frame> frames;
  size_t next = 0;
  Ptr<NetDevice> device;
  Address destination;
  uint64_t sent = 0;

  void scheduleNext()
  {
    if (next >= frames.size())
      return;
    Time at = NanoSeconds(frames[next].timeNs) - Simulator::Now();
    Simulator::Schedule(at, &Replay::fire, this);
  }

  void fire()
  {
    const Frame& f = frames[next++];
    uint32_t payload = f.bytes > LlcSnapBytes ? f.bytes - LlcSnapBytes : 1;
    device->Send(Create<Packet>(payload), destination, EtherType);
    ++sent;
    scheduleNext();
  }
};

struct PhyCounts
{
  uint64_t all = 0, data = 0;
};

} // namespace

int main(int argc, char** argv)
{
  std::string framesFile, standardName = "80211b", addressing = "broadcast", stopText, seedText = "1";
  CommandLine cmd(__FILE__);
  cmd.AddValue("frames", "frames.csv of a wifi-one-hop run with --FrameLog=true", framesFile);
  cmd.AddValue("standard", "80211b | 80211n (5 GHz, OfdmRate24Mbps) | 80211n-2.4", standardName);
  cmd.AddValue("addressing", "broadcast | unicast (the peer's MAC address)", addressing);
  cmd.AddValue("stop", "simulated stop time in s (the NDN run's simulated_s)", stopText);
  cmd.AddValue("seed", "RngSeedManager seed, 1..4294944442", seedText);
  cmd.Parse(argc, argv);
  if (framesFile.empty())
    usageError("--frames is required");
  if (stopText.empty())
    usageError("--stop is required");
  const double stop = positiveSeconds("stop", stopText);
  const uint32_t seed = seedValue(seedText);
  if (addressing != "broadcast" && addressing != "unicast")
    usageError("--addressing=" + addressing + ": expected broadcast or unicast");
  if (standardName != "80211b" && standardName != "80211n" && standardName != "80211n-2.4")
    usageError("--standard=" + standardName + ": expected 80211b, 80211n or 80211n-2.4");
  std::vector<Frame> frames = readFrames(framesFile);

  auto t0 = std::chrono::steady_clock::now();
  RngSeedManager::SetSeed(seed);
  RngSeedManager::SetRun(1);

  WifiStandard standard = WIFI_STANDARD_80211b;
  std::string mode = "DsssRate11Mbps", channelSettings;
  if (standardName == "80211n") {
    standard = WIFI_STANDARD_80211n;
    mode = "OfdmRate24Mbps";
    channelSettings = "{0, 20, BAND_5GHZ, 0}";
  }
  else if (standardName == "80211n-2.4") {
    standard = WIFI_STANDARD_80211n;
    mode = "ErpOfdmRate24Mbps";
  }

  NodeContainer nodes;
  nodes.Create(2);
  WifiHelper wifi;
  wifi.SetStandard(standard);
  wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", StringValue(mode), "ControlMode",
                               StringValue(mode), "NonUnicastMode", StringValue(mode));
  YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
  YansWifiPhyHelper phy;
  phy.SetChannel(channel.Create());
  if (!channelSettings.empty())
    phy.Set("ChannelSettings", StringValue(channelSettings));
  WifiMacHelper mac;
  Ssid ssid("ndnlab");
  mac.SetType("ns3::StaWifiMac", "Ssid", SsidValue(ssid), "ActiveProbing", BooleanValue(false), "BE_MaxAmpduSize",
              UintegerValue(0));
  NetDeviceContainer devices = wifi.Install(phy, mac, nodes.Get(0));
  mac.SetType("ns3::ApWifiMac", "Ssid", SsidValue(ssid), "BE_MaxAmpduSize", UintegerValue(0));
  devices.Add(wifi.Install(phy, mac, nodes.Get(1)));
  MobilityHelper mobility;
  auto positions = CreateObject<ListPositionAllocator>();
  positions->Add(Vector(0, 0, 0));
  positions->Add(Vector(5, 0, 0));
  mobility.SetPositionAllocator(positions);
  mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
  mobility.Install(nodes);
  wifi.AssignStreams(devices, 2'000'000);

  // senders: the frame log split by node (ids 0 = station, 1 = access point, as in the NDN run)
  std::vector<Replay> replays(2);
  std::vector<uint64_t> received(2, 0);
  std::vector<PhyCounts> phyCounts(2);
  for (uint32_t i = 0; i < 2; ++i) {
    replays[i].device = devices.Get(i);
    replays[i].destination =
      addressing == "unicast" ? devices.Get(1 - i)->GetAddress() : devices.Get(i)->GetBroadcast();
    nodes.Get(i)->RegisterProtocolHandler(MakeCallback(+[](uint64_t* count, Ptr<NetDevice>, Ptr<const Packet>, uint16_t,
                                                           const Address&, const Address&, NetDevice::PacketType) {
                                            ++*count;
                                          }).Bind(&received[i]),
                                          EtherType, devices.Get(i), false);
    PhyCounts* pc = &phyCounts[i];
    DynamicCast<WifiNetDevice>(devices.Get(i))
      ->GetPhy()
      ->TraceConnectWithoutContext("PhyTxPsduBegin", Callback<void, WifiConstPsduMap, WifiTxVector, double>(
                                                       [pc](WifiConstPsduMap psdus, WifiTxVector, double) {
                                                         for (const auto& [id, psdu] : psdus) {
                                                           for (size_t m = 0; m < psdu->GetNMpdus(); ++m) {
                                                             ++pc->all;
                                                             if (psdu->GetHeader(m).IsData())
                                                               ++pc->data;
                                                           }
                                                         }
                                                       }));
  }
  for (const Frame& f : frames) {
    if (f.node < 2)
      replays[f.node].frames.push_back(f);
  }
  for (auto& r : replays)
    r.scheduleNext();

  Simulator::Stop(Seconds(stop));
  Simulator::Run();
  uint64_t events = Simulator::GetEventCount();
  double simulated = Simulator::Now().GetSeconds();
  Simulator::Destroy();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::ostringstream os;
  os << "{\"program\": \"plain-wifi\", \"standard\": \"" << standardName << "\", \"addressing\": \"" << addressing
     << "\", \"frames_in_log\": " << frames.size() << ", \"sent\": [" << replays[0].sent << ", " << replays[1].sent
     << "], \"received\": [" << received[0] << ", " << received[1] << "], \"phy_tx\": [" << phyCounts[0].all << ", "
     << phyCounts[1].all << "], \"phy_tx_data\": [" << phyCounts[0].data << ", " << phyCounts[1].data
     << "], \"event_count\": " << events << ", \"simulated_s\": " << simulated << ", \"wall_time_s\": " << wall << "}";
  std::cout << os.str() << std::endl;
  return 0;
}
