// NetDeviceTransport on ns-3 SimpleNetDevices sharing one SimpleChannel: EtherType framing,
// broadcast vs learned unicast destinations (seen by a promiscuous sniffer), link type ->
// medium, MTU and device queue length.

#include "ns3/ndnlab/tests/sim-fixture.hpp"

#include "ns3/ndnlab/model/net-device-transport.hpp"
#include "ns3/ndnlab/model/ns3-env.hpp"

#include <ns3/mac48-address.h>
#include <ns3/simple-channel.h>
#include <ns3/simple-net-device.h>

namespace ndnlab::sim::test {
namespace {

struct Frame
{
  uint32_t from; ///< sender node
  ns3::Mac48Address to;
  uint16_t protocol;
  Buffer bytes;
};

/// Nodes 0..n-1 with one SimpleNetDevice each on a shared channel, a transport on every
/// device, and a promiscuous sniffer on an extra node that records every frame.
class TransportTest : public SimTest
{
protected:
  void build(size_t n, std::vector<std::pair<std::string, std::string>> attrs = {})
  {
    channel = ns3::CreateObject<ns3::SimpleChannel>();
    nodes.Create(n + 1);
    for (size_t i = 0; i <= n; ++i) {
      auto dev = ns3::CreateObject<ns3::SimpleNetDevice>();
      dev->SetAddress(ns3::Mac48Address::Allocate());
      dev->SetChannel(channel);
      nodes.Get(i)->AddDevice(dev);
      devices.push_back(dev);
    }
    ns3::Ptr<ns3::Node> sniffer = nodes.Get(n);
    sniffer->RegisterProtocolHandler(ns3::MakeCallback(&TransportTest::sniff, this), 0, devices[n], true);
    for (size_t i = 0; i < n; ++i) {
      envs.push_back(std::make_unique<Ns3Env>(i));
      auto t = std::make_unique<NetDeviceTransport>(*envs[i], nodes.Get(i), devices[i]);
      for (const auto& [k, v] : attrs)
        t->SetAttribute(k, ns3::StringValue(v));
      t->onReceive = [this, i](ByteSpan f, face::EndpointId ep) {
        received[i].push_back({Buffer(f.begin(), f.end()), ep});
      };
      transports.push_back(std::move(t));
    }
    received.resize(n);
  }

  void sniff(ns3::Ptr<ns3::NetDevice>, ns3::Ptr<const ns3::Packet> p, uint16_t protocol, const ns3::Address& from,
             const ns3::Address& to, ns3::NetDevice::PacketType)
  {
    Frame f;
    f.from = 0xFFFF;
    for (size_t i = 0; i + 1 < devices.size(); ++i) {
      if (devices[i]->GetAddress() == from)
        f.from = static_cast<uint32_t>(i);
    }
    f.to = ns3::Mac48Address::ConvertFrom(to);
    f.protocol = protocol;
    f.bytes.resize(p->GetSize());
    p->CopyData(f.bytes.data(), f.bytes.size());
    sniffed.push_back(std::move(f));
  }

  void send(size_t i, Buffer bytes)
  {
    transports[i]->send(std::make_shared<const Buffer>(std::move(bytes)));
    ns3::Simulator::Run();
  }

  ns3::Mac48Address mac(size_t i) const { return ns3::Mac48Address::ConvertFrom(devices[i]->GetAddress()); }

  void TearDown() override
  {
    transports.clear();
    envs.clear();
    SimTest::TearDown();
  }

  struct Received
  {
    Buffer bytes;
    face::EndpointId endpoint;
  };

  ns3::Ptr<ns3::SimpleChannel> channel;
  ns3::NodeContainer nodes;
  std::vector<ns3::Ptr<ns3::SimpleNetDevice>> devices;
  std::vector<std::unique_ptr<Ns3Env>> envs;
  std::vector<std::unique_ptr<NetDeviceTransport>> transports;
  std::vector<std::vector<Received>> received;
  std::vector<Frame> sniffed;
};

TEST_F(TransportTest, FramesCarryEtherType8624AndExactBytes)
{
  build(2);
  Buffer frame{0x05, 0x03, 0x07, 0x01, 0x08};
  send(0, frame);
  ASSERT_EQ(sniffed.size(), 1u);
  EXPECT_EQ(sniffed[0].protocol, 0x8624);
  EXPECT_EQ(sniffed[0].bytes, frame);
  ASSERT_EQ(received[1].size(), 1u);
  EXPECT_EQ(received[1][0].bytes, frame);
  EXPECT_EQ(received[1][0].endpoint, NetDeviceTransport::endpointOf(devices[0]->GetAddress()));
  EXPECT_EQ(transports[0]->counters().nOutPackets, 1u);
  EXPECT_EQ(transports[1]->counters().nInBytes, frame.size());
}

TEST_F(TransportTest, ReceiveDelayHoldsFramesInArrivalOrder)
{
  build(2, {{"ReceiveDelay", "ns3::UniformRandomVariable[Min=0|Max=0.001]"}});
  std::vector<std::pair<uint8_t, ns3::Time>> seen;
  transports[1]->onReceive = [&seen](ByteSpan f, face::EndpointId) { seen.emplace_back(f[0], ns3::Simulator::Now()); };
  // 20 frames, 10 us apart on a channel without delay: each waits up to 1 ms, none overtakes
  for (uint8_t i = 0; i < 20; ++i) {
    ns3::Simulator::Schedule(ns3::MicroSeconds(10 * i), [this, i] {
      transports[0]->send(std::make_shared<const Buffer>(Buffer{i, 0x00}));
    });
  }
  ns3::Simulator::Run();
  ASSERT_EQ(seen.size(), 20u);
  bool someHeld = false;
  for (uint8_t i = 0; i < 20; ++i) {
    EXPECT_EQ(seen[i].first, i);
    EXPECT_GE(seen[i].second, ns3::MicroSeconds(10 * i));
    EXPECT_LE(seen[i].second, ns3::MicroSeconds(10 * 19 + 1000));
    if (i > 0) {
      EXPECT_GE(seen[i].second, seen[i - 1].second);
    }
    someHeld = someHeld || seen[i].second > ns3::MicroSeconds(10 * i);
  }
  EXPECT_TRUE(someHeld);
}

TEST_F(TransportTest, WithoutReceiveDelayFramesArriveAtOnce)
{
  build(2);
  ns3::Time at = ns3::Seconds(-1);
  transports[1]->onReceive = [&at](ByteSpan, face::EndpointId) { at = ns3::Simulator::Now(); };
  ns3::Simulator::Schedule(ns3::MicroSeconds(7),
                           [this] { transports[0]->send(std::make_shared<const Buffer>(Buffer{1})); });
  ns3::Simulator::Run();
  EXPECT_EQ(at, ns3::MicroSeconds(7));
}

TEST_F(TransportTest, OtherEtherTypesAreIgnored)
{
  build(2);
  devices[0]->Send(ns3::Create<ns3::Packet>(10), devices[1]->GetAddress(), 0x0800);
  ns3::Simulator::Run();
  EXPECT_EQ(sniffed.size(), 1u);
  EXPECT_TRUE(received[1].empty());
}

TEST_F(TransportTest, BroadcastAddressingAlwaysSendsToBroadcast)
{
  build(2); // default Addressing = broadcast
  EXPECT_EQ(transports[0]->GetAddressing(), Addressing::Broadcast);
  send(0, {1});
  send(1, {2});
  send(0, {3}); // node 0 has heard node 1 by now, and still broadcasts
  ASSERT_EQ(sniffed.size(), 3u);
  for (const Frame& f : sniffed)
    EXPECT_TRUE(f.to.IsBroadcast()) << f.to;
  EXPECT_EQ(received[0].size(), 1u);
  EXPECT_EQ(received[1].size(), 2u);
}

TEST_F(TransportTest, UnicastAddressingLearnsTheNeighbour)
{
  build(3, {{"Addressing", "unicast"}});
  EXPECT_EQ(transports[0]->GetAddressing(), Addressing::Unicast);
  send(0, {1}); // nobody known yet: broadcast
  ASSERT_EQ(sniffed.size(), 1u);
  EXPECT_TRUE(sniffed[0].to.IsBroadcast());

  // node 1 and node 2 learned node 0 from that frame: they answer by unicast
  send(1, {2});
  ASSERT_EQ(sniffed.size(), 2u);
  EXPECT_EQ(sniffed[1].to, mac(0));
  EXPECT_EQ(received[0].size(), 1u);
  EXPECT_EQ(received[2].size(), 1u); // only the first broadcast: frame 2 was for node 0

  // node 0 now knows exactly one neighbour
  send(0, {3});
  EXPECT_EQ(sniffed[2].to, mac(1));
  EXPECT_EQ(received[1].size(), 2u);
  EXPECT_EQ(received[2].size(), 1u);

  // once node 2 is heard too, node 0 has two neighbours: broadcast unless told the endpoint
  send(2, {4});
  EXPECT_EQ(sniffed[3].to, mac(0));
  send(0, {5});
  EXPECT_TRUE(sniffed[4].to.IsBroadcast());
  transports[0]->send(std::make_shared<const Buffer>(Buffer{6}),
                      NetDeviceTransport::endpointOf(devices[2]->GetAddress()));
  ns3::Simulator::Run();
  EXPECT_EQ(sniffed[5].to, mac(2));
  EXPECT_EQ(transports[0]->neighbours().size(), 2u);
}

TEST_F(TransportTest, LinkTypeSetsMedium)
{
  build(1);
  NetDeviceTransport& t = *transports[0];
  EXPECT_EQ(t.GetLinkTypeChoice(), LinkTypeChoice::Auto);
  EXPECT_EQ(t.medium(), face::Medium::Wired); // auto on a non-Wi-Fi device
  t.SetAttribute("LinkType", ns3::StringValue("wireless"));
  EXPECT_EQ(t.medium(), face::Medium::Wireless);
  t.SetAttribute("LinkType", ns3::StringValue("wired"));
  EXPECT_EQ(t.medium(), face::Medium::Wired);
}

TEST_F(TransportTest, PropertiesFollowTheDevice)
{
  build(1);
  devices[0]->SetMtu(1400);
  Ns3Env env(0);
  NetDeviceTransport t(env, nodes.Get(0), devices[0]);
  EXPECT_EQ(t.mtu(), 1400);
  EXPECT_EQ(t.linkType(), face::LinkType::MultiAccess); // a shared channel
  EXPECT_EQ(t.scope(), face::FaceScope::NonLocal);
  EXPECT_EQ(t.persistency(), face::FacePersistency::Permanent);
}

TEST_F(TransportTest, PointToPointQueueAndLinkType)
{
  Chain chain(2, "1Mbps", "1ms", "50p");
  Ns3Env env(0);
  NetDeviceTransport t(env, chain.nodes.Get(0), chain.links[0].Get(0));
  EXPECT_EQ(t.linkType(), face::LinkType::PointToPoint);
  EXPECT_EQ(t.mtu(), 1500);
  for (int i = 0; i < 10; ++i)
    t.send(std::make_shared<const Buffer>(Buffer(1000, 0x42)));
  // one frame is on the wire, the other nine wait in the device queue
  EXPECT_EQ(t.sendQueueLength(), 9u * (1000 + 2)); // + PPP header
  ns3::Simulator::Run();
  EXPECT_EQ(t.sendQueueLength(), 0u);
}

} // namespace
} // namespace ndnlab::sim::test
