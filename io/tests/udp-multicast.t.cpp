#include "io/asio-env.hpp"
#include "io/udp-multicast-transport.hpp"
#include "io/tests/io-test-util.hpp"

#include <gtest/gtest.h>

namespace ndnlab::io {
namespace {

using namespace std::chrono_literals;
using test::makeFrame;
using test::runUntil;

TEST(UdpMulticast, TwoMembersExchangeWithSenderEndpointIds)
{
  asio::io_context io;
  AsioEnv env(io, AsioEnvOptions{.seed = 1, .logLevel = LogLevel::Off});
  UdpMulticastOptions o;
  o.group = "239.255.77.77"; // administratively scoped, not NFD's group: tests must not leak
  o.port = static_cast<uint16_t>(40000 + ::getpid() % 20000);
  o.loopback = true; // both members live on this host
  std::unique_ptr<UdpMulticastTransport> a, b;
  try {
    a = std::make_unique<UdpMulticastTransport>(env, io, o);
    b = std::make_unique<UdpMulticastTransport>(env, io, o);
  }
  catch (const std::exception& e) {
    GTEST_SKIP() << "no multicast here: " << e.what();
  }
  EXPECT_EQ(a->linkType(), face::LinkType::MultiAccess);
  EXPECT_EQ(a->persistency(), face::FacePersistency::Permanent);
  EXPECT_EQ(a->scope(), face::FaceScope::NonLocal);
  EXPECT_EQ(a->remoteUri(), "udp4://239.255.77.77:" + std::to_string(o.port));

  std::vector<std::pair<Buffer, face::EndpointId>> atA, atB;
  a->onReceive = [&](ByteSpan f, face::EndpointId ep) { atA.push_back({Buffer(f.begin(), f.end()), ep}); };
  b->onReceive = [&](ByteSpan f, face::EndpointId ep) { atB.push_back({Buffer(f.begin(), f.end()), ep}); };

  Buffer f = makeFrame(tlv::Interest, 50);
  a->send(test::share(f));
  if (!runUntil(
        io, [&] { return !atB.empty(); }, 1000ms))
    GTEST_SKIP() << "multicast datagrams are not delivered on this host";
  EXPECT_EQ(atB[0].first, f);
  EXPECT_NE(atB[0].second, 0u);
  // The sender does not receive its own datagram.
  test::runFor(io, 50ms);
  EXPECT_TRUE(atA.empty());

  // A reply from B carries B's endpoint id at A, different from A's at B.
  Buffer g = makeFrame(tlv::Data, 80);
  b->send(test::share(g));
  ASSERT_TRUE(runUntil(io, [&] { return !atA.empty(); }));
  EXPECT_EQ(atA[0].first, g);
  EXPECT_NE(atA[0].second, atB[0].second);

  // Invalid datagrams are counted drops.
  asio::ip::udp::socket raw(io, asio::ip::udp::v4());
  Buffer junk{0x00, 0x01};
  raw.send_to(asio::buffer(junk), asio::ip::udp::endpoint(asio::ip::make_address(o.group), o.port));
  ASSERT_TRUE(runUntil(io, [&] { return b->ioCounters().nInvalidDatagram == 1; }));

  a->close();
  ASSERT_TRUE(runUntil(io, [&] { return a->state() == face::TransportState::Closed; }));
}

TEST(UdpMulticast, BadGroupThrows)
{
  asio::io_context io;
  AsioEnv env(io, AsioEnvOptions{.seed = 1, .logLevel = LogLevel::Off});
  UdpMulticastOptions o;
  o.group = "10.0.0.1";
  EXPECT_THROW(UdpMulticastTransport(env, io, o), std::runtime_error);
  o.group = "not-an-address";
  EXPECT_THROW(UdpMulticastTransport(env, io, o), std::runtime_error);
}

TEST(UdpMulticast, EndpointIdIsUniquePerEndpoint)
{
  using asio::ip::udp;
  auto id = [](const char* a, uint16_t p) {
    return UdpMulticastTransport::endpointIdOf(udp::endpoint(asio::ip::make_address(a), p));
  };
  EXPECT_NE(id("192.0.2.1", 6363), id("192.0.2.2", 6363));
  EXPECT_NE(id("192.0.2.1", 6363), id("192.0.2.1", 6364));
  EXPECT_EQ(id("192.0.2.1", 6363), id("192.0.2.1", 6363));
  EXPECT_NE(id("0.0.0.0", 1), 0u);
}

} // namespace
} // namespace ndnlab::io
