// The NDN scenarios of ndnlab-sim (ns3/ndnlab/scenarios), run through the runner's command line
// as `ndnlab-sim` runs them: results are bit-exact, reproducible per seed, and traces land in
// --out. Small files keep every run well under a second.

#include "ns3/ndnlab/apps/content.hpp"
#include "ns3/ndnlab/helper/frame-loss.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"
#include "ns3/runner/run-context.hpp"
#include "ns3/runner/tests/run-cli.hpp"

#include <ns3/config.h>
#include <ns3/simulator.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace ndnlab::sim::test {
namespace {

using simtest::expectUsageError;
using simtest::runCli;

TEST(Scenarios, ContentMatchesAtAnyOffsetAndCatchesOneFlippedByte)
{
  for (uint64_t offset : {0ull, 1ull, 7ull, 8ull, 13ull, 1460ull * 3}) {
    for (size_t n : {0ul, 1ul, 5ul, 8ul, 9ul, 1460ul}) {
      Buffer b(n);
      fillContent(42, offset, b.data(), n);
      EXPECT_TRUE(scenarios::contentMatches(42, offset, b.data(), n)) << offset << " " << n;
      if (n == 0)
        continue;
      EXPECT_FALSE(scenarios::contentMatches(43, offset, b.data(), n)) << offset << " " << n;
      for (size_t at : {size_t(0), n / 2, n - 1}) {
        Buffer c = b;
        c[at] ^= 0x01;
        EXPECT_FALSE(scenarios::contentMatches(42, offset, c.data(), n)) << offset << " " << n << " " << at;
      }
    }
  }
}

TEST(Scenarios, AreRegistered)
{
  for (const char* name : {"wifi-one-hop", "p2p-chain", "dumbbell"})
    EXPECT_NE(runner::Registry::instance().find(name), nullptr) << name;
}

TEST(Scenarios, WifiOneHopEveryConsumerIsBitExact)
{
  for (std::string consumer : {"one-interest", "aimd", "cubic", "fixed"}) {
    for (std::string addressing : {"broadcast", "unicast"}) {
      SCOPED_TRACE(consumer + " " + addressing);
      auto r = runCli({"wifi-one-hop", "--Consumer=" + consumer, "--Addressing=" + addressing, "--FileSize=150kB",
                       "--FixedWindow=4"});
      ASSERT_EQ(r.exitCode, 0) << r.result.dump();
      const auto& m = r.result["metrics"];
      EXPECT_TRUE(m["completed"].get<bool>());
      EXPECT_TRUE(m["bit_exact"].get<bool>());
      EXPECT_EQ(m["bytes"], 150'000);
      EXPECT_EQ(m["segments"], 103); // ceil(150000 / 1460)
      double g = m["goodput_mbps"];
      // "fixed" retries a lost Data only after the Interest lifetime (ndncatchunks), so one
      // broadcast collision stalls it for 4 s
      EXPECT_GT(g, consumer == "fixed" ? 0.05 : 0.5);
      EXPECT_LT(g, 11.0); // 802.11b at 11 Mbit/s
      // the producer's NDN frames went out of its Wi-Fi device, and the PHY sent them
      const auto& p = m["nodes"]["producer"];
      EXPECT_GE(p["data_out"].get<uint64_t>(), 103u);
      EXPECT_GE(p["phy_tx_data"].get<uint64_t>(), p["tx_frames"].get<uint64_t>());
      EXPECT_GE(m["data_received"].get<uint64_t>(), 103u);
      if (consumer == "one-interest") {
        EXPECT_EQ(m["interests_sent"], 1);
      }
    }
  }
}

TEST(Scenarios, WifiOneHopSameSeedSameMetricsOtherSeedDiffers)
{
  std::vector<std::string> args = {"wifi-one-hop", "--Consumer=aimd", "--FileSize=300kB", "--Traces=none"};
  auto withSeed = [&](const char* seed) {
    auto a = args;
    a.push_back(std::string("--seed=") + seed);
    auto r = runCli(a);
    EXPECT_EQ(r.exitCode, 0) << r.result.dump();
    return r.result;
  };
  auto a = withSeed("1");
  auto b = withSeed("1");
  auto c = withSeed("2");
  ASSERT_TRUE(a["metrics"]["bit_exact"].get<bool>());
  EXPECT_EQ(a["metrics"], b["metrics"]);
  EXPECT_EQ(a["event_count"], b["event_count"]);
  EXPECT_EQ(a["simulated_s"], b["simulated_s"]);
  // Wi-Fi backoff draws differ with the seed
  EXPECT_NE(a["event_count"], c["event_count"]);
  EXPECT_NE(a["metrics"]["completion_time_s"], c["metrics"]["completion_time_s"]);
  EXPECT_TRUE(c["metrics"]["bit_exact"].get<bool>());
}

TEST(Scenarios, WifiOneHopBundleInterval)
{
  auto run = [](const char* bi) {
    auto r = runCli(
      {"wifi-one-hop", "--Consumer=aimd", "--FileSize=300kB", "--Traces=none", std::string("--BundleInterval=") + bi});
    EXPECT_EQ(r.exitCode, 0) << r.result.dump();
    return r.result["metrics"];
  };
  auto off = run("0");
  auto on = run("15");
  ASSERT_TRUE(off["bit_exact"].get<bool>());
  ASSERT_TRUE(on["bit_exact"].get<bool>());
  EXPECT_EQ(off["bundling"]["consumer"]["interests_absorbed"], 0);
  EXPECT_GT(on["bundling"]["consumer"]["interests_absorbed"].get<uint64_t>(), 0u);
  EXPECT_GT(on["bundling"]["producer"]["interests_regenerated"].get<uint64_t>(), 0u);
  // the station sends fewer frames: Interests are absorbed into bundles
  EXPECT_LT(on["nodes"]["consumer"]["tx_frames"].get<uint64_t>(),
            off["nodes"]["consumer"]["tx_frames"].get<uint64_t>() / 3);
  EXPECT_EQ(runCli({"wifi-one-hop", "--BundleInterval=300"}).exitCode, 2);
}

TEST(Scenarios, LossyChainCompletesBitExactAndIsReproducible)
{
  std::vector<std::string> args = {
    "p2p-chain",        "--Hops=3",         "--Loss=0,0.02,0", "--Rate=20Mbps,5Mbps,20Mbps",
    "--Consumer=cubic", "--FileSize=200kB", "--Traces=none"};
  auto a = runCli(args);
  ASSERT_EQ(a.exitCode, 0) << a.result.dump();
  const auto& m = a.result["metrics"];
  EXPECT_TRUE(m["completed"].get<bool>());
  EXPECT_TRUE(m["bit_exact"].get<bool>());
  EXPECT_GT(m["retransmissions"].get<uint64_t>(), 0u); // losses were recovered
  EXPECT_GT(m["nodes"]["n1"]["loss_drops"].get<uint64_t>() + m["nodes"]["n2"]["loss_drops"].get<uint64_t>(), 0u);
  EXPECT_EQ(m["nodes"]["n0"]["loss_drops"], 0);    // lossless first link
  EXPECT_LT(m["goodput_mbps"].get<double>(), 5.0); // the 5 Mbit/s middle link

  auto b = runCli(args);
  ASSERT_EQ(b.exitCode, 0);
  EXPECT_EQ(a.result["metrics"], b.result["metrics"]);
  args.push_back("--seed=7");
  auto c = runCli(args);
  ASSERT_EQ(c.exitCode, 0);
  EXPECT_NE(a.result["metrics"], c.result["metrics"]); // other losses: other counters and times
}

TEST(Scenarios, ChainPingsAcrossWithItsDelayAndLosesPingsToItsLoss)
{
  // App=ping: n0 pings n2's ping server over two 5 ms links, the second losing 30 % of the
  // frames each way; the keys are `ndnlab ping --json`'s
  std::vector<std::string> args = {"p2p-chain",         "--Hops=2",          "--Delay=5ms",
                                   "--Loss=0,0.3",      "--App=ping",        "--PingCount=40",
                                   "--PingInterval=50", "--PingTimeout=500", "--Traces=none"};
  auto r = runCli(args);
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& m = r.result["metrics"];
  EXPECT_EQ(m["pings_sent"], 40);
  const auto received = m["pings_received"].get<uint64_t>();
  EXPECT_GT(received, 0u);
  EXPECT_LT(received, 40u);
  EXPECT_EQ(m["pings_timed_out"].get<uint64_t>() + received, 40u);
  EXPECT_DOUBLE_EQ(m["loss_percent"].get<double>(), 100.0 * static_cast<double>(40 - received) / 40);
  EXPECT_GE(m["rtt_min_ms"].get<double>(), 20.0); // four 5 ms crossings
  EXPECT_LT(m["rtt_max_ms"].get<double>(), 25.0); // an idle 10 Mbit/s chain: little more
  EXPECT_GT(m["nodes"]["n1"]["loss_drops"].get<uint64_t>() + m["nodes"]["n2"]["loss_drops"].get<uint64_t>(), 0u);
  EXPECT_FALSE(m.contains("completed")); // no fetch ran

  auto lossless = runCli({"p2p-chain", "--Hops=2", "--App=ping", "--PingCount=5", "--Traces=none"});
  ASSERT_EQ(lossless.exitCode, 0) << lossless.result.dump();
  EXPECT_EQ(lossless.result["metrics"]["pings_received"], 5);
  EXPECT_EQ(lossless.result["metrics"]["loss_percent"], 0.0);

  // ndnlab emu runs the tools with the same values
  args.push_back("--network");
  auto n = runCli(args);
  ASSERT_EQ(n.exitCode, 0) << n.result.dump();
  const auto& apps = n.result["apps"];
  EXPECT_EQ(apps[0]["tool"], "pingserver");
  EXPECT_EQ(apps[0]["registers"], "/lab/ping");
  EXPECT_EQ(apps[1]["tool"], "ping");
  EXPECT_EQ(apps[1]["args"], nlohmann::json({"--count", "40", "--interval", "50", "--timeout", "500"}));
}

TEST(Scenarios, ChainMeasuresThePathWithPerfWindowedAndPaced)
{
  // App=perf: `ndnlab perf client` against `ndnlab perf server` over one 20 Mbit/s link, the
  // figures of the client's iperf3 JSON under flat keys
  auto window = runCli({"p2p-chain", "--Hops=1", "--Rate=20Mbps", "--App=perf", "--PerfTime=2", "--PerfInterval=0.5",
                        "--PerfLength=1000", "--Consumer=cubic", "--Traces=none"});
  ASSERT_EQ(window.exitCode, 0) << window.result.dump();
  const auto& w = window.result["metrics"];
  EXPECT_TRUE(w["completed"].get<bool>());
  EXPECT_EQ(w["mode"], "window");
  EXPECT_DOUBLE_EQ(w["elapsed_s"].get<double>(), 2.0);
  EXPECT_EQ(w["intervals_mbps"].size(), 4u);
  EXPECT_GT(w["goodput_mbps"].get<double>(), 10.0); // content of a 20 Mbit/s link after slow start
  EXPECT_LT(w["goodput_mbps"].get<double>(), 20.0);
  EXPECT_EQ(w["bytes"].get<uint64_t>(), w["data"].get<uint64_t>() * 1000);
  EXPECT_GE(w["server_bytes"].get<uint64_t>(), w["bytes"].get<uint64_t>());
  EXPECT_TRUE(w["cpu_host_percent"].is_null()); // simulated hosts have no CPU

  // paced above the link's rate: what does not fit is lost, nothing retransmitted
  auto paced = runCli({"p2p-chain", "--Hops=1", "--Rate=20Mbps", "--App=perf", "--PerfTime=2", "--PerfLength=1000",
                       "--PerfBitRate=30e6", "--Traces=none"});
  ASSERT_EQ(paced.exitCode, 0) << paced.result.dump();
  const auto& p = paced.result["metrics"];
  EXPECT_EQ(p["mode"], "paced");
  EXPECT_EQ(p["retransmissions"], 0);
  EXPECT_GT(p["lost_percent"].get<double>(), 20.0); // at least 1 - 20/30 of it, less the headers
  EXPECT_LT(p["goodput_mbps"].get<double>(), 20.0);

  // ndnlab emu runs the tools with the same values
  auto n = runCli({"p2p-chain", "--Hops=1", "--App=perf", "--PerfTime=2", "--PerfBitRate=30e6", "--network"});
  ASSERT_EQ(n.exitCode, 0) << n.result.dump();
  const auto& apps = n.result["apps"];
  EXPECT_EQ(apps[0]["tool"], "perf-server");
  EXPECT_EQ(apps[1]["tool"], "perf-client");
  EXPECT_EQ(apps[1]["args"], nlohmann::json({"-J", "-t", "2", "-P", "1", "-l", "1200", "-i", "1", "-b", "30000000"}));
  expectUsageError({"p2p-chain", "--Hops=1", "--App=perf", "--Consumer=one-interest"}, "one-interest");
}

TEST(Scenarios, ProfileSetsTheKnobsItNamesAndAGivenKnobWins)
{
  // --Profile=ndnsim runs exactly as the BLEnD specs' sixteen ConsumerPcon values given one by
  // one (experiments/blend/fig7.toml), and differently from the default profile
  const std::vector<std::string> base = {"p2p-chain",       "--Hops=2",         "--Loss=0,0.03",
                                         "--Consumer=aimd", "--FileSize=300kB", "--Traces=none"};
  auto with = [&base](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = runCli(args);
    EXPECT_EQ(r.exitCode, 0) << r.result.dump();
    return r.result["metrics"];
  };
  const auto profile = with({"--Profile=ndnsim"});
  const auto explicitValues =
    with({"--LossDetection=timeout", "--RetriesCountStallsOnly=false", "--RetxHoldoff=0", "--HyStart=false", "--RtoK=4",
          "--InitCwnd=1", "--CubicBeta=0.8", "--Lifetime=2000", "--RtoCheckInterval=50", "--CwaGate=high-data",
          "--AimdMinSsthresh=1", "--AimdFloorIncrease=false", "--CubicTcpFriendly=false", "--CeilWindow=true",
          "--RtoBackoffPerTimeout=true", "--RttFullGains=true"});
  EXPECT_TRUE(profile["completed"].get<bool>());
  EXPECT_EQ(profile, explicitValues);
  EXPECT_NE(profile, with({}));
  // a knob given beside the profile wins over the profile's value
  EXPECT_NE(with({"--Profile=ndnsim", "--InitCwnd=8"}), profile);
  expectUsageError({"p2p-chain", "--Profile=nope"}, "--Profile");
}

TEST(Scenarios, NetworkDescribesWhatTheRunBuilds)
{
  // the chain as ndnlab emu builds it: the run's checked links, the route, and the tools'
  // arguments for the consumer kind, the profile and each knob given (in declaration order)
  auto r = runCli({"p2p-chain", "--Hops=2", "--Rate=50Mbps,20Mbps", "--Delay=1ms", "--Loss=0,0.01", "--Queue=64p",
                   "--Profile=ndnsim", "--RtoK=8", "--HyStart=true", "--Lifetime=1500", "--network"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& n = r.result;
  EXPECT_EQ(n["nodes"], nlohmann::json({"n0", "n1", "n2"}));
  ASSERT_EQ(n["links"].size(), 2u);
  EXPECT_EQ(n["links"][1]["a"], "n1");
  EXPECT_EQ(n["links"][1]["b"], "n2");
  EXPECT_EQ(n["links"][1]["rate_bps"], 20e6);
  EXPECT_EQ(n["links"][0]["delay_s"], 0.001);
  EXPECT_EQ(n["links"][1]["loss"], 0.01);
  EXPECT_EQ(n["links"][0]["queue"], "64p");
  // each link's losses come from streams of its own, whatever the other links lose; the emulated
  // link draws from the same ones
  EXPECT_EQ(n["links"][0]["loss_stream"], sim::linkLossStream(0));
  EXPECT_EQ(n["links"][1]["loss_stream"], sim::linkLossStream(1));
  EXPECT_GE(sim::linkLossStream(1), sim::linkLossStream(0) + 2);
  EXPECT_EQ(n["routes"][0]["origin"], "n2");
  const auto& get = n["apps"][1];
  EXPECT_EQ(get["node"], "n0");
  EXPECT_EQ(get["args"],
            nlohmann::json({"--cc", "aimd", "--profile", "ndnsim", "--rto-k", "8", "--lifetime", "1500", "--hystart"}));
  EXPECT_EQ(n["apps"][0]["file_size"], 10 * 1024 * 1024);
  // a value the tools cannot run, a bad value: usage errors (a scenario without a description,
  // every one of this binary has one: tests/integration/test_emu.py, with dcib-no-loss)
  expectUsageError({"p2p-chain", "--Consumer=one-interest", "--Hops=1", "--network"}, "one-interest");
  expectUsageError({"p2p-chain", "--Rate=fast", "--network"}, "--Rate");
  auto d = runCli({"dumbbell", "--Consumer1Delay=2", "--network"});
  ASSERT_EQ(d.exitCode, 0) << d.result.dump();
  EXPECT_EQ(d.result["links"].size(), 5u);
  EXPECT_EQ(d.result["apps"][3]["start_s"], 3.0); // c1 after StartTime 1 s + 2 s
}

TEST(Scenarios, WifiNetworkDescribesTheRadioAndTheDaemonsBundling)
{
  // the BSS as ndnlab-emu-link builds it, and BLEnD as ndnlabd's [face_system.link] keys
  auto r = runCli({"wifi-one-hop", "--Addressing=unicast", "--Distance=12", "--FrameLoss=0.01", "--BundleInterval=8",
                   "--BundleLossDetection=true", "--BundleGapMin=5", "--network"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& n = r.result;
  EXPECT_EQ(n["nodes"], nlohmann::json({"consumer", "producer"}));
  ASSERT_EQ(n["links"].size(), 1u);
  const auto& link = n["links"][0];
  EXPECT_EQ(link["kind"], "wifi");
  EXPECT_EQ(link["a"], "consumer"); // the station
  EXPECT_EQ(link["standard"], "11b");
  EXPECT_EQ(link["data_mode"], "DsssRate11Mbps");
  EXPECT_EQ(link["distance_m"], 12.0);
  EXPECT_EQ(link["frame_loss"], 0.01);
  EXPECT_EQ(link["addressing"], "unicast");
  EXPECT_EQ(link["mtu"], 2296); // ns-3's WifiNetDevice: one Data of 1460 bytes per frame
  const auto& keys = n["daemon_config"]["face_system.link"];
  EXPECT_EQ(keys["bundling"], true);
  EXPECT_EQ(keys["bundle_interval"], 8);
  EXPECT_EQ(keys["bundle_loss_detection"], true);
  EXPECT_EQ(keys["bundle_gap_min"], "5000000ns");
  EXPECT_EQ(n["routes"][0]["origin"], "producer");
  // what emu cannot run: a mode of another standard (checked on the built radio), captures
  expectUsageError({"wifi-one-hop", "--DataMode=HtMcs3", "--network"}, "not a mode of --Standard=80211b");
  expectUsageError({"wifi-one-hop", "--Pcap=true", "--network"}, "--Pcap");
  auto off = runCli({"wifi-one-hop", "--network"});
  ASSERT_EQ(off.exitCode, 0);
  EXPECT_EQ(off.result["daemon_config"]["face_system.link"]["bundling"], false);
}

TEST(Scenarios, StackOverridesReachTheDaemonsByTheirKeys)
{
  // an NdnStack attribute that is a daemon key too reaches every daemon of `ndnlab emu`, over
  // the scenario's own key; an override the daemons have no key for is listed, not dropped
  auto r = runCli(
    {"wifi-one-hop", "--BundleInterval=8", "--ns3::ndnlab::NdnStack::LpReliability=true",
     "--ns3::ndnlab::NdnStack::LpReliabilityIdleAckPeriod=10ms", "--ns3::ndnlab::NdnStack::LpBundleInterval=4",
     "--ns3::ndnlab::NetDeviceTransport::ReceiveDelay=ns3::ConstantRandomVariable[Constant=0.001]", "--network"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& keys = r.result["daemon_config"]["face_system.link"];
  EXPECT_EQ(keys["reliability"], true);
  EXPECT_EQ(keys["reliability_idle_ack_period"], "10000000ns");
  EXPECT_EQ(keys["bundle_interval"], 4);
  EXPECT_EQ(keys["bundling"], true);
  EXPECT_EQ(r.result["simulator_only"],
            nlohmann::json::array(
              {"--ns3::ndnlab::NetDeviceTransport::ReceiveDelay=ns3::ConstantRandomVariable[Constant=0.001]"}));
  auto plain = runCli({"wifi-one-hop", "--network"});
  ASSERT_EQ(plain.exitCode, 0);
  EXPECT_FALSE(plain.result["daemon_config"]["face_system.link"].contains("reliability"));
  EXPECT_FALSE(plain.result.contains("simulator_only"));
}

TEST(Scenarios, AdhocNetworksDescribeTheChannelRoutesAndFlows)
{
  // wifi-chain: three nodes on one ad hoc channel, Distance apart, the relay forwarding
  auto r = runCli({"wifi-chain", "--Distance=25", "--Range=40", "--BundleInterval=4", "--network"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& chain = r.result;
  EXPECT_EQ(chain["nodes"], nlohmann::json({"consumer", "relay", "producer"}));
  ASSERT_EQ(chain["links"].size(), 1u);
  const auto& link = chain["links"][0];
  EXPECT_EQ(link["kind"], "wifi-adhoc");
  EXPECT_EQ(link["nodes"], chain["nodes"]);
  EXPECT_EQ(link["positions_m"], nlohmann::json({0.0, 25.0, 50.0}));
  EXPECT_EQ(link["range_m"], 40.0);
  EXPECT_EQ(link["standard"], "11b");
  EXPECT_EQ(link["data_mode"], "DsssRate11Mbps");
  EXPECT_EQ(link["addressing"], "unicast"); // the scenario's default
  EXPECT_EQ(link["mtu"], 2296);
  EXPECT_EQ(chain["routes"][0]["next_hops"], nlohmann::json({{"consumer", "relay"}, {"relay", "producer"}}));
  EXPECT_EQ(chain["daemon_config"]["face_system.link"]["bundle_interval"], 4);
  EXPECT_EQ(chain["bundling_metrics"], chain["nodes"]);
  EXPECT_EQ(chain["apps"][1]["node"], "consumer");
  EXPECT_EQ(chain["apps"][0]["node"], "producer");

  // wifi-hidden: B, A, D, C on the line; B fetches from A, C from D (StartDelayC later)
  auto h = runCli({"wifi-hidden", "--StartDelayC=0.5", "--StartTime=1", "--network"});
  ASSERT_EQ(h.exitCode, 0) << h.result.dump();
  const auto& hidden = h.result;
  EXPECT_EQ(hidden["links"][0]["nodes"], nlohmann::json({"b", "a", "d", "c"}));
  EXPECT_EQ(hidden["links"][0]["positions_m"], nlohmann::json({0.0, 20.0, 40.0, 60.0}));
  EXPECT_EQ(hidden["links"][0]["addressing"], "broadcast");
  ASSERT_EQ(hidden["routes"].size(), 2u);
  EXPECT_EQ(hidden["routes"][1]["next_hops"], nlohmann::json({{"c", "d"}}));
  const auto& apps = hidden["apps"];
  ASSERT_EQ(apps.size(), 4u);
  EXPECT_EQ(apps[1]["flow"], "b_from_a");
  EXPECT_EQ(apps[1]["start_s"], 1.0);
  EXPECT_EQ(apps[3]["flow"], "c_from_d");
  EXPECT_EQ(apps[3]["start_s"], 1.5);
  EXPECT_EQ(apps[2]["content_seed"], 2);
  EXPECT_EQ(hidden["metrics"], "wifi-hidden");
  expectUsageError({"wifi-hidden", "--DataMode=HtMcs3", "--network"}, "not a mode of --Standard=80211b");
}

TEST(Scenarios, DumbbellSharesTheBottleneck)
{
  auto r = runCli({"dumbbell", "--Consumer=aimd", "--FileSize=400kB", "--BottleneckRate=4Mbps", "--Traces=none"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& m = r.result["metrics"];
  EXPECT_TRUE(m["completed"].get<bool>());
  EXPECT_TRUE(m["bit_exact"].get<bool>());
  EXPECT_TRUE(m["flows"]["c0"]["bit_exact"].get<bool>());
  EXPECT_TRUE(m["flows"]["c1"]["bit_exact"].get<bool>());
  EXPECT_LT(m["goodput_mbps"].get<double>(), 4.0);
  EXPECT_GT(m["goodput_mbps"].get<double>(), 1.0);
  EXPECT_GT(m["jain_index"].get<double>(), 0.5);
  // every Data crossed the bottleneck: r1 forwarded at least both files' segments
  EXPECT_GE(m["nodes"]["r1"]["data_out"].get<uint64_t>(), 2u * 274u);
}

TEST(Scenarios, TracesGoToOutAndAreListed)
{
  auto dir = std::filesystem::temp_directory_path() / ("ndnlab-scn-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto r = runCli({"p2p-chain", "--FileSize=100kB", "--Traces=all", "--TracePeriod=0.1", "--out=" + dir.string()});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  std::vector<std::string> traces = r.result["traces"];
  for (const char* f : {"rates.csv", "drops.csv", "goodput.csv", "tables.csv", "delays.csv"}) {
    EXPECT_NE(std::find(traces.begin(), traces.end(), f), traces.end()) << f;
    std::ifstream in(dir / f);
    std::string header;
    EXPECT_TRUE(std::getline(in, header)) << f;
    EXPECT_FALSE(header.empty());
  }
  // one delay row per segment
  std::ifstream delays(dir / "delays.csv");
  size_t rows = 0;
  for (std::string line; std::getline(delays, line);)
    ++rows;
  EXPECT_EQ(rows, 1u + 69u); // header + ceil(100000 / 1460)
  EXPECT_TRUE(std::filesystem::exists(dir / "result.json"));
  std::filesystem::remove_all(dir);
}

TEST(Scenarios, WifiOneHopFrameLossLosesBroadcastDataAndUnicastRetries)
{
  auto run = [](const std::string& addressing, const char* loss) {
    auto r = runCli({"wifi-one-hop", "--Consumer=one-interest", "--Addressing=" + addressing, "--FileSize=150kB",
                     "--Traces=none", std::string("--FrameLoss=") + loss});
    EXPECT_EQ(r.exitCode, 0) << r.result.dump();
    const auto& m = r.result["metrics"];
    EXPECT_TRUE(m["bit_exact"].get<bool>()) << addressing << " " << loss;
    return m;
  };
  // the pushed Data are group-addressed: a lost one is gone until the consumer asks again
  EXPECT_EQ(run("broadcast", "0")["retransmissions"], 0);
  EXPECT_GT(run("broadcast", "0.05")["retransmissions"].get<uint64_t>(), 0u);
  // unicast Data are retried by the access point's MAC, so the consumer never sees the losses
  const auto unicast = run("unicast", "0.05");
  EXPECT_EQ(unicast["retransmissions"], 0);
  const auto& ap = unicast["nodes"]["producer"];
  EXPECT_GT(ap["phy_tx_data"].get<uint64_t>(), ap["tx_frames"].get<uint64_t>());
}

TEST(Scenarios, BadParametersAreUsageErrors)
{
  EXPECT_EQ(runCli({"wifi-one-hop", "--FrameLoss=1"}).exitCode, 2);
  EXPECT_EQ(runCli({"wifi-one-hop", "--FrameLoss=-0.1"}).exitCode, 2);
  EXPECT_EQ(runCli({"wifi-one-hop", "--FileSize=12XB"}).exitCode, 2);
  EXPECT_EQ(runCli({"wifi-one-hop", "--Standard=80211ac"}).exitCode, 2);
  EXPECT_EQ(runCli({"p2p-chain", "--Hops=2", "--Rate=10Mbps,5Mbps,1Mbps"}).exitCode, 2);
  EXPECT_EQ(runCli({"p2p-chain", "--Hops=2", "--Consumer=one-interest"}).exitCode, 2);
  EXPECT_EQ(runCli({"dumbbell", "--AccessLoss=1.5"}).exitCode, 2);
}

TEST(Scenarios, ZeroAndHugeLinkValuesAreUsageErrors)
{
  expectUsageError({"p2p-chain", "--Rate=0Mbps"}, "--Rate: '0Mbps' is out of range");
  expectUsageError({"p2p-chain", "--Rate=0.5bps"}, "out of range");
  expectUsageError({"p2p-chain", "--Rate=2000Gbps"}, "out of range");
  expectUsageError({"dumbbell", "--AccessRate=0Mbps"}, "--AccessRate: '0Mbps' is out of range");
  expectUsageError({"dumbbell", "--BottleneckRate=0kbps"}, "--BottleneckRate");
  expectUsageError({"p2p-chain", "--Delay=99999999999999999999s"}, "--Delay");
  expectUsageError({"dumbbell", "--BottleneckDelay=2000000s"}, "--BottleneckDelay");
  expectUsageError({"p2p-chain", "--Queue=0p"}, "--Queue: '0p' is out of range");
  expectUsageError({"p2p-chain", "--Queue=0B"}, "--Queue: '0B' is out of range");
  expectUsageError({"p2p-chain", "--Queue=100B"}, "--Queue: '100B' is out of range");
  expectUsageError({"dumbbell", "--AccessQueue=0p"}, "--AccessQueue");
  expectUsageError({"p2p-chain", "--Queue=4294967296p"}, "out of range");
}

TEST(Scenarios, ConsumerOptionsAreCheckedByTheCoreBeforeTheRun)
{
  const auto dir = std::filesystem::temp_directory_path() / "ndnlab-scenarios-consumer-test";
  std::filesystem::remove_all(dir);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
    // the ranges the core declares (core/app/segment-fetcher-fields.hpp) reject before a run
    {{"--RtoK=-5"}, "--RtoK=-5: out of range [0, inf]"},
    {{"--InitCwnd=0"}, "--InitCwnd=0: out of range [1, 1000000000]"},
    {{"--CubicBeta=2"}, "--CubicBeta=2: out of range (0, 1)"},
    {{"--AimdBeta=0"}, "--AimdBeta=0: out of range (0, 1)"},
    {{"--Retries=-2"}, "--Retries=-2: out of range [-1, 1024]"},
    {{"--Retries=99999999999"}, "--Retries=99999999999: out of range"},
    {{"--Consumer=fixed", "--FixedWindow=0"}, "--FixedWindow=0: out of range [1, 65536]"},
    {{"--Pacing=true", "--PacingGain=0"}, "--PacingGain=0: out of range (0, inf]"},
    {{"--AimdMinSsthresh=-1"}, "--AimdMinSsthresh=-1: out of range [1, 1000000000]"},
    {{"--CwaRttSuppress=-1"}, "--CwaRttSuppress=-1"},
    {{"--MinRto=0"}, "--MinRto=0: out of range"},
    {{"--MinRto=1e300"}, "--MinRto=1e300: out of range"},
    // so do the attributes' checkers, built from the same ranges
    {{"--ns3::ndnlab::ConsumerApp::InitCwnd=0"}, "not a valid value of ns3::ndnlab::ConsumerApp::InitCwnd"},
    // and what a closed checker lets through, the core's validate() refuses
    {{"--ns3::ndnlab::ConsumerApp::PacingGain=0"}, "ns-3 defaults of ndnlab::ConsumerApp: pacing gain"},
  };
  for (const auto& [extra, fragment] : cases) {
    for (const char* scenario : {"p2p-chain", "dumbbell", "wifi-one-hop"}) {
      std::vector<std::string> args = {scenario, "--FileSize=100KiB", "--out", dir.string()};
      args.insert(args.end(), extra.begin(), extra.end());
      expectUsageError(args, fragment);
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir)); // rejected before the output directory is made
  // a valid ConsumerApp override is applied (its type is named like every ns-3 type)
  auto ok = runCli({"p2p-chain", "--FileSize=100KiB", "--ns3::ndnlab::ConsumerApp::InitCwnd=4"});
  ASSERT_EQ(ok.exitCode, 0) << ok.result;
  EXPECT_TRUE(ok.result["metrics"]["completed"].get<bool>());
}

TEST(Scenarios, TimesBeyondNs3TimeAndEmptyLimitsAreUsageErrors)
{
  expectUsageError({"p2p-chain", "--StartTime=1e300"}, "--StartTime=1e300: out of range [0, 1000000] s");
  expectUsageError({"p2p-chain", "--StartTime=-1"}, "--StartTime=-1: out of range");
  expectUsageError({"p2p-chain", "--MaxTime=1e300"}, "--MaxTime=1e300: out of range (0, 1000000] s");
  expectUsageError({"p2p-chain", "--MaxTime=-5"}, "--MaxTime=-5: out of range");
  expectUsageError({"p2p-chain", "--MaxTime=0"}, "--MaxTime=0: out of range");
  expectUsageError({"p2p-chain", "--TracePeriod=0"}, "--TracePeriod=0: out of range");
  expectUsageError({"p2p-chain", "--TracePeriod=1e-12"}, "--TracePeriod=1e-12: out of range");
  expectUsageError({"dumbbell", "--Consumer1Delay=1e300"}, "--Consumer1Delay");
  expectUsageError({"wifi-hidden", "--StartDelayC=-1"}, "--StartDelayC");
  expectUsageError({"wifi-one-hop", "--BundleGapMin=1e300"}, "--BundleGapMin");
}

TEST(Scenarios, ListsAndIntegersAreParsedStrictly)
{
  expectUsageError({"p2p-chain", "--Rate=10Mbps,"}, "--Rate=10Mbps,: empty value");
  expectUsageError({"p2p-chain", "--Rate=,10Mbps"}, "--Rate=,10Mbps: empty value");
  expectUsageError({"p2p-chain", "--Hops=2", "--Loss=0,,0"}, "empty value");
  expectUsageError({"p2p-chain", "--Hops= 3"}, "--Hops= 3: not a valid int");
  expectUsageError({"p2p-chain", "--Hops=+3"}, "--Hops=+3: not a valid int");
  expectUsageError({"p2p-chain", "--Hops=65"}, "--Hops=65: out of range [1, 64]");
  expectUsageError({"p2p-chain", "--Loss= 0.1"}, "not a probability");
  expectUsageError({"p2p-chain", "--FileSize=1MiB", "--FileSize=2MiB"}, "--FileSize given twice");
  expectUsageError({"p2p-chain", "--ns3::PointToPointNetDevice::Mtu=abc"}, "--ns3::PointToPointNetDevice::Mtu=abc");
  expectUsageError({"p2p-chain", "--ns3::PointToPointNetDevice::Mtu=99999"}, "uint16_t");
}

TEST(Scenarios, DataModeMustBeAModeOfTheStandard)
{
  expectUsageError({"wifi-one-hop", "--DataMode=Foo"},
                   "--DataMode=Foo: not a mode of --Standard=80211b; one of DsssRate1Mbps");
  expectUsageError({"wifi-one-hop", "--Standard=80211n", "--DataMode=DsssRate11Mbps"},
                   "not a mode of --Standard=80211n; one of OfdmRate6Mbps");
  expectUsageError({"wifi-one-hop", "--Standard=80211n", "--DataMode=HtMcs8"}, "HtMcs7");
  expectUsageError({"wifi-chain", "--DataMode=HtMcs3"}, "not a mode of --Standard=80211b");

  // Found only once the devices are built, but still before anything is simulated: an output
  // directory made for the run is removed again, one that was there is left alone.
  auto dir = std::filesystem::temp_directory_path() / ("ndnlab-datamode-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  expectUsageError({"wifi-one-hop", "--DataMode=Foo", "--out=" + dir.string()}, "not a mode");
  EXPECT_FALSE(std::filesystem::exists(dir));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "result.json") << "{\"of\": \"an earlier run\"}\n";
  expectUsageError({"wifi-one-hop", "--DataMode=Foo", "--out=" + dir.string()}, "not a mode");
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_FALSE(std::filesystem::exists(dir / "result.json")); // no result beside this run's traces
  std::filesystem::remove_all(dir);
  auto ok = runCli({"wifi-one-hop", "--FileSize=100KiB", "--Standard=80211n", "--DataMode=HtMcs3"});
  ASSERT_EQ(ok.exitCode, 0) << ok.result;
  EXPECT_EQ(ok.result["metrics"]["data_mode"], "HtMcs3");
}

} // namespace
} // namespace ndnlab::sim::test
