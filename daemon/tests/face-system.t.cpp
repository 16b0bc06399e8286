#include "daemon/face-system.hpp"
#include "daemon/tests/daemon-test-util.hpp"

#include "core/face/generic-link-service.hpp"
#include "core/face/impaired-transport.hpp"
#include "io/asio-env.hpp"
#include "io/client-connector.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace ndnlab::daemon {
namespace {

using namespace std::chrono_literals;
using face::FacePersistency;
using face::FaceScope;
namespace fs = std::filesystem;
using test::freePort;
using test::runUntil;

class FaceSystemTest : public ::testing::Test
{
protected:
  FaceSystemTest()
  {
    dir = fs::temp_directory_path() / ("ndnlab-fs-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    options.unixSocket.path = (dir / "nfd.sock").string();
    options.tcp.address = "127.0.0.1";
    options.tcp.port = freePort<asio::ip::tcp>(io);
    options.udp.address = "127.0.0.1";
    options.udp.port = freePort<asio::ip::udp>(io);
  }
  ~FaceSystemTest() override { fs::remove_all(dir); }

  void start()
  {
    system = std::make_unique<FaceSystem>(env, io, forwarder, options);
    system->start();
  }

  FaceSystem::CreateResult create(const std::string& uri, FacePersistency p = FacePersistency::Persistent)
  {
    FaceSystem::CreateResult result{0, "pending"};
    FaceSystem::FaceParams params;
    params.persistency = p;
    system->createFace(uri, std::nullopt, params, [&](const FaceSystem::CreateResult& r) { result = r; });
    EXPECT_TRUE(runUntil(io, [&] { return result.code != 0; }));
    return result;
  }

  asio::io_context io;
  io::AsioEnv env{io, io::AsioEnvOptions{.seed = 1, .logLevel = LogLevel::Off}};
  fw::Forwarder forwarder{env};
  face::FaceTable& faces = forwarder.faceTable();
  fs::path dir;
  FaceSystemOptions options;
  std::unique_ptr<FaceSystem> system;
};

TEST_F(FaceSystemTest, ChannelsOpenAndUnixClientGetsLocalFace)
{
  options.localFieldsOnLocalFaces = true;
  start();
  EXPECT_TRUE(fs::is_socket(options.unixSocket.path));
  auto uris = system->channelUris();
  ASSERT_EQ(uris.size(), 3u);
  EXPECT_EQ(uris[0], "unix://" + options.unixSocket.path);
  EXPECT_EQ(uris[1], "tcp4://127.0.0.1:" + std::to_string(options.tcp.port));
  EXPECT_EQ(uris[2], "udp4://127.0.0.1:" + std::to_string(options.udp.port));

  auto client = io::connectToForwarder(env, io, "unix://" + options.unixSocket.path);
  ASSERT_TRUE(client.ok()) << client.error();
  ASSERT_TRUE(runUntil(io, [&] { return faces.size() == 1; }));
  face::Face& f = *faces.begin();
  EXPECT_GE(f.id(), face::FirstRegularFaceId);
  EXPECT_EQ(f.scope(), FaceScope::Local);
  EXPECT_EQ(f.persistency(), FacePersistency::OnDemand);
  EXPECT_TRUE(f.linkService().options().allowLocalFields);
  EXPECT_FALSE(f.linkService().options().allowFragmentation);

  // Client disconnects: the face is removed from the table.
  (*client)->close();
  ASSERT_TRUE(runUntil(io, [&] { return faces.size() == 0; }));

  system->stop();
  EXPECT_FALSE(fs::exists(options.unixSocket.path));
}

TEST_F(FaceSystemTest, WebSocketChannelWhenEnabled)
{
  options.websocketEnabled = true;
  options.websocket.address = "127.0.0.1";
  options.websocket.port = freePort<asio::ip::tcp>(io);
  options.stream.maxFrameSize = 5000;
  start();
  auto uris = system->channelUris();
  ASSERT_EQ(uris.size(), 4u);
  EXPECT_EQ(uris[3], "ws://127.0.0.1:" + std::to_string(options.websocket.port));
  // ws:// is not a scheme faces/create accepts: a WebSocket face is made by its client only.
  EXPECT_EQ(create("ws://127.0.0.1:9696").code, 406u);
}

TEST_F(FaceSystemTest, DisabledChannels)
{
  options.unixEnabled = false;
  options.tcp.port = 0;
  options.udpEnabled = false;
  start();
  EXPECT_TRUE(system->channelUris().empty());
  EXPECT_FALSE(fs::exists(options.unixSocket.path));
  EXPECT_EQ(create("udp4://127.0.0.1:9").code, 406u);
}

TEST_F(FaceSystemTest, UdpFacesCreate)
{
  start();
  asio::ip::udp::socket peer(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  std::string uri = "udp4://127.0.0.1:" + std::to_string(peer.local_endpoint().port());

  auto r = create(uri);
  ASSERT_EQ(r.code, 200u) << r.text;
  face::Face* f = faces.get(r.faceId);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->remoteUri(), uri);
  EXPECT_EQ(f->scope(), FaceScope::NonLocal);
  EXPECT_EQ(f->persistency(), FacePersistency::Persistent);
  const auto& lso = f->linkService().options();
  EXPECT_TRUE(lso.allowFragmentation);
  EXPECT_TRUE(lso.allowReassembly);
  EXPECT_FALSE(lso.allowLocalFields);
  EXPECT_EQ(lso.overrideMtu, 8800u);
  EXPECT_EQ(static_cast<face::GenericLinkService&>(f->linkService()).effectiveMtu(), 8800u);

  auto again = create(uri, FacePersistency::Permanent);
  EXPECT_EQ(again.code, 409u);
  EXPECT_EQ(again.faceId, r.faceId);
  EXPECT_EQ(f->persistency(), FacePersistency::Permanent);

  EXPECT_EQ(create("udp4://127.0.0.1:9", FacePersistency::OnDemand).code, 406u);
  EXPECT_EQ(create("udp4://localhost:6363").code, 400u);
  EXPECT_EQ(create("udp4://127.0.0.1").code, 400u);
  EXPECT_EQ(create("udp6://127.0.0.1:6363").code, 400u);
  EXPECT_EQ(create("udp6://[::1]:6363").code, 406u);           // the channel is IPv4
  EXPECT_EQ(create("ether://[01:02:03:04:05:06]").code, 406u); // no LocalUri, and a multicast MAC
  EXPECT_EQ(create("foo://127.0.0.1:6363").code, 400u);
  EXPECT_EQ(create("unix:///tmp/x.sock").code, 406u);
}

TEST_F(FaceSystemTest, EtherFacesCreateAnswersWithReasons)
{
  // no interface carries Ethernet faces (loopback only): start() logs a warning, nothing fails
  options.etherEnabled = true;
  options.etherWhitelist = {"lo"};
  start();
  EXPECT_TRUE(system->etherInterfaces().empty());
  auto createOn = [&](const std::string& uri, std::optional<std::string> local) {
    FaceSystem::CreateResult result{0, "pending"};
    system->createFace(uri, local, {}, [&](const FaceSystem::CreateResult& r) { result = r; });
    EXPECT_TRUE(runUntil(io, [&] { return result.code != 0; }));
    return result;
  };
  auto r = createOn("ether://[02:00:00:00:00:01]", std::nullopt);
  EXPECT_EQ(r.code, 406u);
  EXPECT_NE(r.text.find("requires a LocalUri dev://IFNAME"), std::string::npos) << r.text;
  r = createOn("ether://[02:00:00:00:00:01]", "udp4://127.0.0.1:6363");
  EXPECT_EQ(r.code, 406u);
  EXPECT_NE(r.text.find("must be dev://IFNAME"), std::string::npos) << r.text;
  r = createOn("ether://[02:00:00:00:00:01]", "dev://lo");
  EXPECT_EQ(r.code, 406u);
  EXPECT_NE(r.text.find("No Ethernet channel on dev://lo (interface not selected"), std::string::npos) << r.text;
  r = createOn("ether://[02:00:00:00:00:01]", "dev://nosuchif0");
  EXPECT_NE(r.text.find("(no such interface)"), std::string::npos) << r.text;
  r = createOn("ether://[01:00:5e:00:17:aa]", "dev://lo");
  EXPECT_EQ(r.code, 406u);
  EXPECT_NE(r.text.find("multicast"), std::string::npos) << r.text;
  EXPECT_EQ(createOn("ether://[02:00:00:00:00]", "dev://lo").code, 400u);
  EXPECT_EQ(create("dev://lo").code, 406u);
}

TEST_F(FaceSystemTest, EtherDisabledByDefault)
{
  start();
  EXPECT_TRUE(system->etherInterfaces().empty());
  FaceSystem::CreateResult result{0, "pending"};
  system->createFace("ether://[02:00:00:00:00:01]", "dev://lo", {},
                     [&](const FaceSystem::CreateResult& r) { result = r; });
  ASSERT_TRUE(runUntil(io, [&] { return result.code != 0; }));
  EXPECT_EQ(result.code, 406u);
  EXPECT_NE(result.text.find("face_system.ether is disabled"), std::string::npos) << result.text;
}

TEST_F(FaceSystemTest, DualStackUdpChannel)
{
  options.udp.address = "::";
  start();
  asio::ip::udp::socket peer4(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  auto r = create("udp4://127.0.0.1:" + std::to_string(peer4.local_endpoint().port()));
  ASSERT_EQ(r.code, 200u) << r.text;
  EXPECT_EQ(faces.get(r.faceId)->remoteUri(), "udp4://127.0.0.1:" + std::to_string(peer4.local_endpoint().port()));
  auto r6 = create("udp6://[::1]:9");
  EXPECT_EQ(r6.code, 200u) << r6.text;
  EXPECT_EQ(faces.get(r6.faceId)->remoteUri(), "udp6://[::1]:9");

  // An IPv4 peer's datagram reaches the face created for it.
  Buffer frame;
  appendTlv(frame, tlv::Interest, Buffer{0x07, 0x03, 0x08, 0x01, 0x61, 0x0a, 0x04, 1, 2, 3, 4});
  peer4.send_to(asio::buffer(frame), asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), system->udpPort()));
  ASSERT_TRUE(runUntil(io, [&] { return faces.get(r.faceId)->transport().counters().nInPackets == 1; }));
  EXPECT_EQ(faces.size(), 2u);
}

TEST_F(FaceSystemTest, TcpFacesCreateToLoopbackIsLocal)
{
  start();
  std::string uri = "tcp4://127.0.0.1:" + std::to_string(options.tcp.port);
  auto r = create(uri);
  ASSERT_EQ(r.code, 200u) << r.text;
  // Our own listener accepted it too: two faces, both local.
  ASSERT_TRUE(runUntil(io, [&] { return faces.size() == 2; }));
  face::Face* f = faces.get(r.faceId);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->remoteUri(), uri);
  EXPECT_EQ(f->scope(), FaceScope::Local);
  // Local fields are off unless configured (NFD enables them only on request).
  EXPECT_FALSE(f->linkService().options().allowLocalFields);
  EXPECT_EQ(create(uri).code, 409u);

  // Nobody listening: 504.
  uint16_t unused = freePort<asio::ip::tcp>(io);
  auto failed = create("tcp4://127.0.0.1:" + std::to_string(unused));
  EXPECT_EQ(failed.code, 504u) << failed.text;
}

TEST_F(FaceSystemTest, LinkReliabilityFromTheConfigOnUdpUnicastOnly)
{
  options.link.reliability.enabled = true;
  start();
  asio::ip::udp::socket peer(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  auto udp = create("udp4://127.0.0.1:" + std::to_string(peer.local_endpoint().port()));
  ASSERT_EQ(udp.code, 200u) << udp.text;
  auto& uls = static_cast<face::GenericLinkService&>(faces.get(udp.faceId)->linkService());
  EXPECT_TRUE(uls.isReliabilityActive());
  EXPECT_TRUE(*system->faceParameters(*faces.get(udp.faceId)).flags & mgmt::FaceFlagLpReliability);
  // a stream face is reliable already: not by default, only on request (NFD's LpReliability flag)
  auto tcp = create("tcp4://127.0.0.1:" + std::to_string(options.tcp.port));
  ASSERT_EQ(tcp.code, 200u) << tcp.text;
  EXPECT_FALSE(faces.get(tcp.faceId)->linkService().options().reliability.enabled);

  std::optional<mgmt::ControlResponse> reply;
  mgmt::ControlParameters cp;
  asio::ip::udp::socket peer2(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  cp.uri = "udp4://127.0.0.1:" + std::to_string(peer2.local_endpoint().port());
  cp.flags = 0;
  cp.mask = mgmt::FaceFlagLpReliability;
  system->createFace(cp, [&](mgmt::ControlResponse r) { reply = std::move(r); });
  ASSERT_TRUE(runUntil(io, [&] { return reply.has_value(); }));
  ASSERT_EQ(reply->code, 200u) << reply->text;
  auto body = mgmt::ControlParameters::decode(reply->body);
  ASSERT_TRUE(body.ok());
  EXPECT_FALSE(*body->flags & mgmt::FaceFlagLpReliability);
  EXPECT_EQ(faces.get(*body->faceId)->linkService().options().reliability.enabled, false);
}

TEST_F(FaceSystemTest, LinkReliabilityRecoversWhatTheUdpImpairmentLoses)
{
  // two daemons' face systems on loopback, link reliability on both (B's on-demand face takes it
  // from the config); A loses a fifth of what it sends, fragments of 4000-octet Data included
  options.link.reliability.enabled = true;
  options.link.reliability.maxRetx = 10; // a give-up would need 11 losses in a row
  options.udpMtu = 1400;
  options.udpImpair.loss = 0.2;
  start();
  FaceSystemOptions optionsB;
  optionsB.unixSocket.path = (dir / "b.sock").string();
  optionsB.tcp.port = 0;
  optionsB.udp.address = "127.0.0.1";
  optionsB.udp.port = freePort<asio::ip::udp>(io);
  optionsB.udpMtu = 1400;
  optionsB.link.reliability.enabled = true;
  fw::Forwarder forwarderB{env};
  FaceSystem systemB(env, io, forwarderB, optionsB);
  systemB.start();

  auto r = create("udp4://127.0.0.1:" + std::to_string(optionsB.udp.port));
  ASSERT_EQ(r.code, 200u) << r.text;
  face::Face* a = faces.get(r.faceId);
  constexpr uint64_t N = 30;
  for (uint64_t k = 0; k < N; ++k) {
    Data d{Name("/rel").appendSegment(k)};
    d.setContent(ByteSpan(Buffer(4000, static_cast<uint8_t>(k))));
    d.setSignatureValue(Buffer(32, 0));
    a->sendData(d);
  }
  auto received = [&] {
    uint64_t n = 0;
    for (const face::Face& f : forwarderB.faceTable())
      n += f.counters().nInData;
    return n;
  };
  const auto& c = a->linkService().counters();
  auto allReceived = [&] { return received() == N; };
  auto allAcknowledged = [&] { return c.nAcknowledged + c.nRetransmitted == N; };
  ASSERT_TRUE(runUntil(io, allReceived, 10s)) << received() << " of " << N;
  EXPECT_GT(c.nOutRetxFrames, 0u);
  EXPECT_EQ(c.nRetxExhausted, 0u);
  EXPECT_GT(c.nInAcks, 0u);
  EXPECT_TRUE(runUntil(io, allAcknowledged, 10s));
  systemB.stop();
}

TEST_F(FaceSystemTest, StaleSocketReplacedAndStopRemovesIt)
{
  start();
  system->stop();
  system.reset();
  EXPECT_FALSE(fs::exists(options.unixSocket.path));
  // A second daemon on the same path while the first runs: refused.
  start();
  FaceSystemOptions same = options;
  same.tcp.port = 0;
  same.udpEnabled = false;
  FaceSystem second(env, io, forwarder, same);
  EXPECT_THROW(second.start(), std::runtime_error);
  EXPECT_TRUE(fs::exists(options.unixSocket.path));
}

TEST_F(FaceSystemTest, UdpFacesAreImpairedOthersAreNot)
{
  options.udpImpair.loss = 1.0; // everything sent on UDP faces is lost
  options.udpImpair.delay = 2ms;
  start();
  asio::ip::udp::socket peer(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  std::string uri = "udp4://127.0.0.1:" + std::to_string(peer.local_endpoint().port());

  face::FaceId id = create(uri, face::FacePersistency::Persistent).faceId;
  face::Face* f = faces.get(id);
  ASSERT_NE(f, nullptr);
  auto* impaired = dynamic_cast<face::ImpairedTransport*>(&f->transport());
  ASSERT_NE(impaired, nullptr);
  EXPECT_EQ(impaired->options().loss, 1.0);
  EXPECT_EQ(f->remoteUri(), uri);
  EXPECT_EQ(f->persistency(), face::FacePersistency::Persistent);
  auto params = system->faceParameters(*f);
  EXPECT_EQ(params.mtu, 8800u);

  // A second faces/create finds the same face through the decorator and upgrades it.
  EXPECT_EQ(create(uri, face::FacePersistency::Permanent).faceId, id);
  EXPECT_EQ(f->persistency(), face::FacePersistency::Permanent);

  Interest i{Name("/x")};
  i.setNonce(1);
  f->sendInterest(i);
  EXPECT_EQ(impaired->impairmentCounters().nLost, 1u);
  EXPECT_EQ(impaired->inner().counters().nOutPackets, 0u);

  // An on-demand face from an unknown endpoint is impaired as well.
  asio::ip::udp::socket other(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  Buffer wire = *i.wireEncode();
  other.send_to(asio::buffer(wire), asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), options.udp.port));
  ASSERT_TRUE(runUntil(io, [&] { return faces.size() == 2; }));
  for (auto& face : faces) {
    EXPECT_NE(dynamic_cast<face::ImpairedTransport*>(&face.transport()), nullptr) << face.remoteUri();
    EXPECT_TRUE(system->expirationPeriod(face).has_value() == (face.persistency() == face::FacePersistency::OnDemand));
  }

  // Unix faces are never impaired.
  auto client = io::connectToForwarder(env, io, "unix://" + options.unixSocket.path);
  ASSERT_TRUE(client.ok()) << client.error();
  ASSERT_TRUE(runUntil(io, [&] { return faces.size() == 3; }));
  size_t plain = 0;
  for (auto& face : faces)
    plain += dynamic_cast<face::ImpairedTransport*>(&face.transport()) == nullptr;
  EXPECT_EQ(plain, 1u);

  system->stop();
  EXPECT_TRUE(runUntil(io, [&] { return faces.size() == 0; }));
}

TEST_F(FaceSystemTest, DelayedDatagramsArrive)
{
  options.udpImpair.delay = 30ms;
  start();
  asio::ip::udp::socket peer(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  std::string uri = "udp4://127.0.0.1:" + std::to_string(peer.local_endpoint().port());
  face::Face* f = faces.get(create(uri, face::FacePersistency::Persistent).faceId);
  ASSERT_NE(f, nullptr);

  Interest i{Name("/delayed")};
  i.setNonce(7);
  auto sentAt = std::chrono::steady_clock::now();
  f->sendInterest(i);
  Buffer rx(9000);
  size_t n = 0;
  asio::ip::udp::endpoint from;
  peer.async_receive_from(asio::buffer(rx), from, [&](std::error_code ec, size_t len) {
    if (!ec)
      n = len;
  });
  ASSERT_TRUE(runUntil(io, [&] { return n > 0; }));
  auto elapsed = std::chrono::steady_clock::now() - sentAt;
  EXPECT_GE(elapsed, 30ms);
  rx.resize(n);
  EXPECT_EQ(rx, *i.wireEncode());
  system->stop();
}

} // namespace
} // namespace ndnlab::daemon
