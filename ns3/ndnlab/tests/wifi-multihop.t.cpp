// BLEnD beyond one hop (paper VI-D, VI-E): the ad hoc line of WifiAdhoc (range cut-off makes
// far nodes hidden), and the scenarios wifi-chain (consumer - relay - producer, bundling per
// hop) and wifi-hidden (Fig. 10) run through the runner's command line: bit-exact with and
// without bundling, and reproducible per seed.

#include "ns3/ndnlab/helper/wifi-adhoc.hpp"
#include "ns3/ndnlab/tests/sim-fixture.hpp"
#include "ns3/runner/run-context.hpp"
#include "ns3/runner/tests/run-cli.hpp"
#include "ns3/runner/scenario.hpp"

#include <ns3/mac48-address.h>
#include <ns3/packet.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-net-device.h>

#include <nlohmann/json.hpp>

namespace ndnlab::sim::test {
namespace {

using simtest::runCli;

class WifiAdhocTest : public SimTest
{};

TEST_F(WifiAdhocTest, NodesBeyondTheRangeNeitherReceiveNorInterfere)
{
  // 0 -- 20 m -- 1 -- 20 m -- 2, range 30 m: node 2 does not hear node 0
  WifiAdhocOptions o;
  o.positions = {{0, 0, 0}, {20, 0, 0}, {40, 0, 0}};
  o.range = 30;
  WifiAdhoc wifi(o);
  std::vector<int> received(3, 0);
  for (uint32_t i = 0; i < 3; ++i) {
    auto dev = ns3::DynamicCast<ns3::WifiNetDevice>(wifi.devices.Get(i));
    dev->GetMac()->TraceConnectWithoutContext(
      "MacRx",
      ns3::Callback<void, ns3::Ptr<const ns3::Packet>>([&received, i](ns3::Ptr<const ns3::Packet>) { ++received[i]; }));
  }
  auto send = [&](uint32_t from) {
    ns3::Simulator::Schedule(ns3::Seconds(0.1 * (from + 1)), [&wifi, from] {
      wifi.devices.Get(from)->Send(ns3::Create<ns3::Packet>(100), wifi.devices.Get(from)->GetBroadcast(), 0x8624);
    });
  };
  send(0);
  send(1);
  send(2);
  ns3::Simulator::Stop(ns3::Seconds(1));
  ns3::Simulator::Run();
  EXPECT_EQ(received[0], 1); // from 1
  EXPECT_EQ(received[1], 2); // from 0 and 2
  EXPECT_EQ(received[2], 1); // from 1
  EXPECT_EQ(wifi.dataMode, "DsssRate11Mbps");
}

TEST(WifiMultihop, ScenariosAreListed)
{
  for (const char* name : {"wifi-chain", "wifi-hidden"})
    EXPECT_NE(runner::Registry::instance().find(name), nullptr) << name;
}

TEST(WifiMultihop, ChainIsBitExactWithAndWithoutBundlingAndBundlesPerHop)
{
  auto run = [](const char* bi, const char* seed = "1") {
    auto r = runCli({"wifi-chain", "--Consumer=aimd", "--FileSize=300kB", "--Traces=none",
                     std::string("--BundleInterval=") + bi, std::string("--seed=") + seed});
    EXPECT_EQ(r.exitCode, 0) << r.result.dump();
    return r.result;
  };
  auto off = run("0");
  auto on = run("15");
  for (const auto* r : {&off, &on}) {
    const auto& m = (*r)["metrics"];
    ASSERT_TRUE(m["completed"].get<bool>()) << m.dump();
    EXPECT_TRUE(m["bit_exact"].get<bool>());
  }
  const auto& n = on["metrics"]["nodes"];
  // the consumer bundles; the relay decodes and bundles again; the producer decodes
  EXPECT_GT(n["consumer"]["bundling"]["interests_absorbed"].get<uint64_t>(), 0u);
  EXPECT_GT(n["relay"]["bundling"]["interests_regenerated"].get<uint64_t>(), 0u);
  EXPECT_GT(n["relay"]["bundling"]["bundles_out"].get<uint64_t>(), 0u);
  EXPECT_GT(n["relay"]["bundling"]["interests_absorbed"].get<uint64_t>(), 0u);
  EXPECT_GT(n["producer"]["bundling"]["interests_regenerated"].get<uint64_t>(), 0u);
  EXPECT_EQ(off["metrics"]["nodes"]["relay"]["bundling"]["bundles_out"], 0);
  // fewer Interest frames on both hops
  auto interestFrames = [](const nlohmann::json& node) {
    return node["interests_out"].get<uint64_t>() - node["bundling"]["interests_absorbed"].get<uint64_t>();
  };
  const auto& offNodes = off["metrics"]["nodes"];
  EXPECT_LT(interestFrames(n["consumer"]) * 3, interestFrames(offNodes["consumer"]));
  EXPECT_LT(interestFrames(n["relay"]) * 3, interestFrames(offNodes["relay"]));

  // reproducible: the same seed gives the same metrics and event count
  auto again = run("15");
  EXPECT_EQ(on["metrics"], again["metrics"]);
  EXPECT_EQ(on["event_count"], again["event_count"]);
  auto other = run("15", "2");
  EXPECT_NE(on["event_count"], other["event_count"]);
  EXPECT_TRUE(other["metrics"]["bit_exact"].get<bool>());
}

TEST(WifiMultihop, ChainWithLossDetectionAndDynamicIntervalIsBitExact)
{
  auto r = runCli({"wifi-chain", "--Consumer=cubic", "--FileSize=300kB", "--Traces=none", "--BundleInterval=32",
                   "--BundleLossDetection=true", "--BundleDynamicInterval=true"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  EXPECT_TRUE(r.result["metrics"]["completed"].get<bool>());
  EXPECT_TRUE(r.result["metrics"]["bit_exact"].get<bool>());
}

TEST(WifiMultihop, HiddenStationsBothFlowsAreBitExact)
{
  for (const char* bi : {"0", "15"}) {
    SCOPED_TRACE(bi);
    auto r = runCli(
      {"wifi-hidden", "--Consumer=aimd", "--FileSize=200kB", "--Traces=none", std::string("--BundleInterval=") + bi});
    ASSERT_EQ(r.exitCode, 0) << r.result.dump();
    const auto& m = r.result["metrics"];
    EXPECT_TRUE(m["completed"].get<bool>()) << m.dump();
    EXPECT_TRUE(m["bit_exact"].get<bool>());
    EXPECT_TRUE(m["flows"]["b_from_a"]["bit_exact"].get<bool>());
    EXPECT_TRUE(m["flows"]["c_from_d"]["bit_exact"].get<bool>());
    EXPECT_GT(m["goodput_mbps"].get<double>(), 0.0);
    EXPECT_LE(m["fairness"].get<double>(), 1.0);
    // B and C never hear each other: no Interest of one flow reaches the other consumer
    EXPECT_EQ(m["nodes"]["b"]["interests_in"], 0);
    EXPECT_EQ(m["nodes"]["c"]["interests_in"], 0);
  }
  EXPECT_EQ(runCli({"wifi-hidden", "--Range=-1"}).exitCode, 2);
}

} // namespace
} // namespace ndnlab::sim::test
