// One-hop Wi-Fi (station consumer, access point producer) in both addressing modes, and the
// BLEnD "one Interest" pair over point-to-point and Wi-Fi.

#include "ns3/ndnlab/tests/sim-fixture.hpp"

#include "ns3/ndnlab/apps/one-interest-apps.hpp"
#include "ns3/ndnlab/helper/wifi-one-hop.hpp"

#include <ns3/double.h>

namespace ndnlab::sim::test {
namespace {

struct Result
{
  bool complete = false;
  Buffer bytes;
  app::FetchStats stats;
  double goodputMbps = 0;
};

/// Installs a consumer of `consumerType` on `consumerNode` fetching FileSize bytes from a
/// producer of `producerType` on `producerNode`, runs until completion (or 60 s).
template<typename ConsumerT>
Result fetch(ns3::Ptr<ns3::Node> consumerNode, ns3::Ptr<ns3::Node> producerNode, const std::string& consumerType,
             const std::string& producerType, uint64_t fileSize, double start,
             std::vector<std::pair<std::string, std::string>> consumerAttrs = {})
{
  AppHelper producer(producerType);
  producer.SetPrefix("/lab/file");
  producer.SetAttribute("FileSize", ns3::UintegerValue(fileSize));
  producer.SetAttribute("PayloadSize", ns3::UintegerValue(1460));
  producer.Install(producerNode);

  AppHelper consumer(consumerType);
  consumer.SetPrefix("/lab/file");
  consumer.SetAttribute("StartTime", ns3::TimeValue(ns3::Seconds(start)));
  for (const auto& [k, v] : consumerAttrs)
    consumer.SetAttribute(k, ns3::StringValue(v));
  auto app = ns3::DynamicCast<ConsumerT>(consumer.Install(consumerNode).Get(0));

  Result r;
  app->TraceConnectWithoutContext("Bytes",
                                  ns3::Callback<void, const uint8_t*, size_t>(
                                    [&r](const uint8_t* d, size_t n) { r.bytes.insert(r.bytes.end(), d, d + n); }));
  app->TraceConnectWithoutContext(
    "Complete", ns3::Callback<void, const app::FetchStats&>([](const app::FetchStats&) { ns3::Simulator::Stop(); }));
  ns3::Simulator::Stop(ns3::Seconds(60));
  ns3::Simulator::Run();
  r.complete = app->IsComplete();
  r.stats = app->GetStats();
  r.goodputMbps = r.stats.goodput().mbps();
  return r;
}

class WifiTest : public SimTest
{};

TEST_F(WifiTest, OneHopBroadcastAndUnicastFetchBitExact)
{
  for (std::string addressing : {"broadcast", "unicast"}) {
    SCOPED_TRACE(addressing);
    reset();
    WifiOneHop wifi;
    StackHelper stack;
    stack.SetTransportAttribute("Addressing", ns3::StringValue(addressing));
    stack.Install(wifi.nodes);
    RouteHelper::AddRoute(wifi.station(), "/lab", wifi.accessPoint());

    auto sta = wifi.station()->GetObject<NdnStack>();
    face::FaceId staFace = sta->GetNetDeviceFaces().at(0);
    EXPECT_EQ(sta->GetFace(staFace)->transport().medium(), face::Medium::Wireless); // LinkType auto
    EXPECT_EQ(sta->GetFace(staFace)->transport().mtu(), 2296);

    Result r = fetch<ConsumerApp>(wifi.station(), wifi.accessPoint(), "ndnlab::ConsumerApp", "ndnlab::ProducerApp",
                                  200'000, 1.0, {{"Pipeline", "aimd"}});
    ASSERT_TRUE(r.complete);
    EXPECT_EQ(r.bytes, makeContent(1, 200'000));
    // below the 11 Mbit/s PHY rate, and not absurdly low
    EXPECT_LT(r.goodputMbps, 11.0);
    EXPECT_GT(r.goodputMbps, 1.0);

    NetDeviceTransport* t = sta->GetTransport(staFace);
    if (addressing == "unicast") {
      EXPECT_EQ(t->neighbours().size(), 1u); // learned the access point
    }
    EXPECT_EQ(t->GetAddressing(), addressing == "unicast" ? Addressing::Unicast : Addressing::Broadcast);
  }
}

class PushTest : public SimTest
{};

TEST_F(PushTest, OneInterestOverPointToPointIsBitExact)
{
  Chain chain(2, "10Mbps", "2ms");
  StackHelper stack;
  stack.Install(chain.nodes);
  RouteHelper::AddRoute(chain.nodes.Get(0), "/lab", chain.nodes.Get(1));
  Result r = fetch<OneInterestConsumerApp>(chain.nodes.Get(0), chain.nodes.Get(1), "ndnlab::OneInterestConsumerApp",
                                           "ndnlab::OneInterestProducerApp", 500'000, 0.1);
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(r.bytes, makeContent(1, 500'000));
  EXPECT_EQ(r.stats.interestsSent, 1u); // one Interest for the whole file
  // back to back at 10 Mbit/s: 1460-byte payloads in ~1530-byte frames
  EXPECT_GT(r.goodputMbps, 8.5);
  EXPECT_LT(r.goodputMbps, 10.0);

  // the pushed Data never reached the consumer node's forwarder pipelines
  auto consumerStack = chain.nodes.Get(0)->GetObject<NdnStack>();
  EXPECT_EQ(consumerStack->GetForwarder().counters().nUnsolicitedData, 0u);
  EXPECT_EQ(consumerStack->GetForwarder().counters().nInData, 0u);
}

TEST_F(PushTest, LostPushedSegmentsAreRepaired)
{
  Chain chain(2, "10Mbps", "2ms");
  chain.addLoss(0, 0, 0.02, 77); // Data lost on their way into the consumer node
  StackHelper stack;
  stack.Install(chain.nodes);
  RouteHelper::AddRoute(chain.nodes.Get(0), "/lab", chain.nodes.Get(1));
  Result r = fetch<OneInterestConsumerApp>(chain.nodes.Get(0), chain.nodes.Get(1), "ndnlab::OneInterestConsumerApp",
                                           "ndnlab::OneInterestProducerApp", 300'000, 0.1);
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(r.bytes, makeContent(1, 300'000));
  EXPECT_GT(r.stats.retransmissions, 0u); // repairs
}

TEST_F(PushTest, OneInterestBeatsAimdOnWifiBroadcast)
{
  // the paper's Fig. 1 ordering on a small file: one Interest > default AIMD pipeline
  WifiOneHop wifi;
  StackHelper stack;
  stack.Install(wifi.nodes);
  RouteHelper::AddRoute(wifi.station(), "/lab", wifi.accessPoint());
  Result push = fetch<OneInterestConsumerApp>(wifi.station(), wifi.accessPoint(), "ndnlab::OneInterestConsumerApp",
                                              "ndnlab::OneInterestProducerApp", 300'000, 1.0);
  ASSERT_TRUE(push.complete);
  EXPECT_EQ(push.bytes, makeContent(1, 300'000));

  reset();
  WifiOneHop wifi2;
  stack.Install(wifi2.nodes);
  RouteHelper::AddRoute(wifi2.station(), "/lab", wifi2.accessPoint());
  Result aimd = fetch<ConsumerApp>(wifi2.station(), wifi2.accessPoint(), "ndnlab::ConsumerApp", "ndnlab::ProducerApp",
                                   300'000, 1.0, {{"Pipeline", "aimd"}});
  ASSERT_TRUE(aimd.complete);
  EXPECT_GT(push.goodputMbps, aimd.goodputMbps);
  EXPECT_LT(push.goodputMbps, 11.0);
}

} // namespace
} // namespace ndnlab::sim::test
