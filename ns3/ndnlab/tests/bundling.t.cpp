// BLEnD in ns-3: the consumer's tag crosses the forwarder (a retransmission carries its own
// flag, not the PIT's), the LpBundling attributes reach the faces, and a one-hop Wi-Fi fetch
// with bundling arrives bit-exact with far fewer Interest frames, as the bundles tracer and
// the link-service counters report.

#include "ns3/ndnlab/tests/sim-fixture.hpp"

#include "ns3/ndnlab/helper/tracers.hpp"
#include "ns3/ndnlab/helper/wifi-one-hop.hpp"

#include <ns3/boolean.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ndnlab::sim::test {
namespace {

using namespace std::chrono_literals;

class BundlingSimTest : public SimTest
{};

Interest segInterest(uint64_t seq, uint32_t nonce, BundleTag tag)
{
  Name n("/lab/f");
  n.appendSegment(seq);
  Interest i(n);
  i.setNonce(nonce);
  i.tags.bundle = tag;
  return i;
}

TEST_F(BundlingSimTest, ForwarderPassesTheCurrentTag)
{
  Chain chain(2);
  StackHelper stack;
  stack.SetStackAttribute("LpBundling", ns3::BooleanValue(true));
  stack.SetStackAttribute("LpBundleInterval", ns3::UintegerValue(10));
  stack.SetTransportAttribute("LinkType", ns3::StringValue("wireless"));
  stack.Install(chain.nodes);
  auto s0 = chain.nodes.Get(0)->GetObject<NdnStack>();
  auto s1 = chain.nodes.Get(1)->GetObject<NdnStack>();
  face::FaceId radio0 = s0->GetNetDeviceFaces().at(0);
  face::FaceId radio1 = s1->GetNetDeviceFaces().at(0);
  s0->AddRoute("/lab", radio0);

  // node 1: an application that records Interests and never answers (PIT entries stay)
  auto sink = s1->CreateAppEndpoint("app://sink");
  s1->AddRoute("/lab", sink->faceId());
  std::vector<Interest> arrived;
  sink->onInterest = [&](const Interest& i) { arrived.push_back(i); };

  auto consumer = s0->CreateAppEndpoint("app://consumer");
  const auto& enc = s0->GetFace(radio0)->linkService().counters();
  const auto& dec = s1->GetFace(radio1)->linkService().counters();

  ns3::Simulator::Schedule(ns3::MilliSeconds(10), [&] {
    consumer->expressInterest(segInterest(0, 100, BundleTag{false, 10})); // bundle [0, 9]
    consumer->expressInterest(segInterest(3, 103, BundleTag{false, 10})); // absorbed
  });
  // 300 ms later (past retransmission suppression), seg 3 again, flagged as a retransmission:
  // its PIT entry still holds the first Interest and its tag.
  ns3::Simulator::Schedule(ns3::MilliSeconds(310), [&] {
    consumer->expressInterest(segInterest(3, 203, BundleTag{true, 10}));
  });
  ns3::Simulator::Stop(ns3::Seconds(1));
  ns3::Simulator::Run();

  EXPECT_EQ(enc.nOutBundles, 2u);           // the bundle, then the retransmission alone
  EXPECT_EQ(enc.nOutInterestsAbsorbed, 1u); // not the retransmission
  EXPECT_EQ(dec.nInBundles, 2u);
  EXPECT_EQ(dec.nInInterestsRegenerated, 9u);
  std::vector<uint64_t> segs;
  for (const Interest& i : arrived)
    segs.push_back(*i.name()[-1].toNumber());
  EXPECT_EQ(segs, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3}));
  EXPECT_EQ(arrived.back().nonce(), 203u); // the consumer's retransmission, as sent
  EXPECT_EQ(arrived.front().nonce(), 100u);
}

TEST_F(BundlingSimTest, WiredFacesDoNotBundle)
{
  Chain chain(2);
  StackHelper stack;
  stack.SetStackAttribute("LpBundling", ns3::BooleanValue(true));
  stack.Install(chain.nodes); // point-to-point: LinkType auto = wired
  auto s0 = chain.nodes.Get(0)->GetObject<NdnStack>();
  face::FaceId radio0 = s0->GetNetDeviceFaces().at(0);
  EXPECT_TRUE(s0->GetFace(radio0)->linkService().options().bundling);
  s0->AddRoute("/lab", radio0);
  auto consumer = s0->CreateAppEndpoint("app://consumer");
  ns3::Simulator::Schedule(ns3::MilliSeconds(10), [&] {
    for (uint64_t s = 0; s < 5; ++s)
      consumer->expressInterest(segInterest(s, 100 + s, BundleTag{false, 10}));
  });
  ns3::Simulator::Stop(ns3::Seconds(1));
  ns3::Simulator::Run();
  EXPECT_EQ(s0->GetFace(radio0)->linkService().counters().nOutBundles, 0u);
  EXPECT_EQ(s0->GetFace(radio0)->counters().nOutInterests, 5u);
}

struct WifiRun
{
  bool complete = false;
  Buffer bytes;
  uint64_t staOutInterests = 0, staAbsorbed = 0, apRegenerated = 0;
  uint64_t csvOutInterests = 0, csvAbsorbed = 0, csvRegenerated = 0;
  uint64_t bundleOutEvents = 0;
};

uint64_t csvColumnSum(const std::string& path, const std::string& col)
{
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream hs(line);
  for (std::string c; std::getline(hs, c, ',');)
    header.push_back(c);
  size_t idx = std::find(header.begin(), header.end(), col) - header.begin();
  uint64_t sum = 0;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    std::string cell;
    for (size_t k = 0; std::getline(ls, cell, ','); ++k)
      if (k == idx)
        sum += std::stoull(cell);
  }
  return sum;
}

WifiRun wifiFetch(bool bundling, uint64_t fileSize, const std::string& csv)
{
  WifiOneHop wifi;
  StackHelper stack;
  stack.SetStackAttribute("LpBundling", ns3::BooleanValue(bundling));
  stack.Install(wifi.nodes);
  RouteHelper::AddRoute(wifi.station(), "/lab", wifi.accessPoint());
  AppHelper producer("ndnlab::ProducerApp");
  producer.SetPrefix("/lab/file");
  producer.SetAttribute("FileSize", ns3::UintegerValue(fileSize));
  producer.SetAttribute("PayloadSize", ns3::UintegerValue(1460));
  producer.Install(wifi.accessPoint());
  AppHelper consumer("ndnlab::ConsumerApp");
  consumer.SetPrefix("/lab/file");
  consumer.SetAttribute("Pipeline", ns3::StringValue("aimd"));
  consumer.SetAttribute("StartTime", ns3::TimeValue(ns3::Seconds(1)));
  auto app = ns3::DynamicCast<ConsumerApp>(consumer.Install(wifi.station()).Get(0));

  WifiRun r;
  app->TraceConnectWithoutContext("Bytes",
                                  ns3::Callback<void, const uint8_t*, size_t>(
                                    [&r](const uint8_t* d, size_t n) { r.bytes.insert(r.bytes.end(), d, d + n); }));
  // run one tracer period past completion, so the last sample covers the whole fetch
  app->TraceConnectWithoutContext("Complete", ns3::Callback<void, const app::FetchStats&>([](const app::FetchStats&) {
                                    ns3::Simulator::Stop(ns3::MilliSeconds(600));
                                  }));
  {
    Tracers tracers;
    tracers.EnableBundles(csv, ns3::MilliSeconds(500));
    ns3::Simulator::Stop(ns3::Seconds(60));
    ns3::Simulator::Run();
    tracers.Flush();
    r.bundleOutEvents = tracers.Counts().count("bundle_out") ? tracers.Counts().at("bundle_out") : 0;
  }
  r.complete = app->IsComplete();
  auto sta = wifi.station()->GetObject<NdnStack>();
  auto ap = wifi.accessPoint()->GetObject<NdnStack>();
  const face::Face* staFace = sta->GetFace(sta->GetNetDeviceFaces().at(0));
  const face::Face* apFace = ap->GetFace(ap->GetNetDeviceFaces().at(0));
  r.staOutInterests = staFace->counters().nOutInterests;
  r.staAbsorbed = staFace->linkService().counters().nOutInterestsAbsorbed;
  r.apRegenerated = apFace->linkService().counters().nInInterestsRegenerated;
  r.csvOutInterests = csvColumnSum(csv, "out_interests");
  r.csvAbsorbed = csvColumnSum(csv, "out_absorbed");
  r.csvRegenerated = csvColumnSum(csv, "in_regenerated");
  return r;
}

TEST_F(BundlingSimTest, WifiFetchWithBundlingIsBitExactWithFewerInterestFrames)
{
  std::string dir = ::testing::TempDir() + "ndnlab-bundling-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const uint64_t size = 400'000;

  WifiRun off = wifiFetch(false, size, dir + "/off.csv");
  ASSERT_TRUE(off.complete);
  EXPECT_EQ(off.bytes, makeContent(1, size));
  EXPECT_EQ(off.staAbsorbed, 0u);
  EXPECT_EQ(off.bundleOutEvents, 0u);

  reset();
  WifiRun on = wifiFetch(true, size, dir + "/on.csv");
  ASSERT_TRUE(on.complete);
  EXPECT_EQ(on.bytes, makeContent(1, size));
  EXPECT_GT(on.staAbsorbed, 0u);
  EXPECT_GT(on.apRegenerated, 0u);
  EXPECT_GT(on.bundleOutEvents, 0u);
  // the tracer's per-period columns add up to the counters (both faces listed)
  EXPECT_EQ(on.csvAbsorbed, on.staAbsorbed);
  EXPECT_EQ(on.csvRegenerated, on.apRegenerated);
  EXPECT_GE(on.csvOutInterests, on.staOutInterests);
  // Interest frames on the air: at least 70% fewer with BI = 15
  uint64_t framesOn = on.staOutInterests - on.staAbsorbed;
  uint64_t framesOff = off.staOutInterests - off.staAbsorbed;
  EXPECT_LT(framesOn * 10, framesOff * 3) << framesOn << " vs " << framesOff;
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace ndnlab::sim::test
