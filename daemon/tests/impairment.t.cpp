// [face_system.udp.impair]: config parsing and the face system wrapping UDP unicast faces.

#include "daemon/config.hpp"
#include "daemon/face-system.hpp"

#include "core/face/impaired-transport.hpp"
#include "io/asio-env.hpp"
#include "io/client-connector.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace ndnlab::daemon {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

std::string errorOf(std::string_view text)
{
  try {
    parseConfig(text, "test.toml");
  }
  catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ImpairmentConfig, DefaultsImpairNothing)
{
  DaemonOptions o = parseConfig("");
  EXPECT_FALSE(o.faceSystem.udpImpair.enabled());
}

TEST(ImpairmentConfig, MultihopTestSnippetParses)
{
  // The fallback tests/integration/test_multihop.py writes when sch_netem is missing.
  DaemonOptions o = parseConfig("[face_system.udp.impair]\nloss = 0.02\ndelay = \"5ms\"\n");
  EXPECT_DOUBLE_EQ(o.faceSystem.udpImpair.loss, 0.02);
  EXPECT_EQ(o.faceSystem.udpImpair.delay, 5ms);
  EXPECT_EQ(o.faceSystem.udpImpair.jitter, 0ms);
  EXPECT_TRUE(o.faceSystem.udpImpair.enabled());
  // Integer probabilities are accepted too.
  EXPECT_DOUBLE_EQ(parseConfig("[face_system.udp.impair]\nloss = 1\n").faceSystem.udpImpair.loss, 1.0);
}

TEST(ImpairmentConfig, BadValues)
{
  EXPECT_NE(errorOf("[face_system.udp.impair]\nloss = 1.5\n").find("probability"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nloss = \"2%\"\n").find("expected a number"),
            std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nrate = \"fast\"\n").find("bad rate"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nrate = 100\n").find("expected a rate string"),
            std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nqueue_limit = 0\n").find("out of range"),
            std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nlag = \"1ms\"\n").find("unknown key"), std::string::npos);
}

TEST(ImpairmentConfig, Rates)
{
  Rate r;
  ASSERT_TRUE(parseRate("100Mbit", r));
  EXPECT_DOUBLE_EQ(r.bps(), 100e6);
  ASSERT_TRUE(parseRate("1.5gbit", r));
  EXPECT_DOUBLE_EQ(r.bps(), 1.5e9);
  ASSERT_TRUE(parseRate("64 kbit", r));
  EXPECT_DOUBLE_EQ(r.bps(), 64e3);
  ASSERT_TRUE(parseRate("0", r));
  EXPECT_DOUBLE_EQ(r.bps(), 0);
  EXPECT_FALSE(parseRate("", r));
  EXPECT_FALSE(parseRate("10", r)); // unit required (except for 0)
  EXPECT_FALSE(parseRate("10MB", r));
  EXPECT_FALSE(parseRate("-1Mbit", r));

  EXPECT_EQ(formatRate(Rate()), "0");
  EXPECT_EQ(formatRate(Rate::mbps(100)), "100Mbit");
  EXPECT_EQ(formatRate(Rate::mbps(1.5)), "1500kbit");
  EXPECT_EQ(formatRate(Rate::gbps(2)), "2Gbit");
  for (const char* text : {"100Mbit", "1500kbit", "2Gbit", "7bit"}) {
    ASSERT_TRUE(parseRate(text, r));
    EXPECT_EQ(formatRate(r), text);
  }
}

bool runUntil(asio::io_context& io, const std::function<bool()>& pred,
              std::chrono::milliseconds timeout = 3000ms)
{
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    io.restart();
    io.run_one_for(5ms);
  }
  return true;
}

class ImpairedFaceSystemTest : public ::testing::Test
{
protected:
  ImpairedFaceSystemTest()
  {
    dir = fs::temp_directory_path() / ("ndnlab-impair-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    options.unixSocket.path = (dir / "nfd.sock").string();
    options.tcpEnabled = false;
    options.udp.address = "127.0.0.1";
    options.udp.port = 0;
    asio::ip::udp::socket probe(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    options.udp.port = probe.local_endpoint().port();
  }
  ~ImpairedFaceSystemTest() override { fs::remove_all(dir); }

  void start()
  {
    system = std::make_unique<FaceSystem>(env, io, forwarder, options, LimitsOptions{});
    system->start();
  }

  face::FaceId create(const std::string& uri, face::FacePersistency p)
  {
    FaceSystem::CreateResult result{0, "pending"};
    FaceSystem::FaceParams params;
    params.persistency = p;
    system->createFace(uri, std::nullopt, params, [&](const FaceSystem::CreateResult& r) { result = r; });
    EXPECT_TRUE(runUntil(io, [&] { return result.code != 0; }));
    EXPECT_TRUE(result.code == 200 || result.code == 409) << result.code << " " << result.text;
    return result.faceId;
  }

  asio::io_context io;
  io::AsioEnv env{io, io::AsioEnvOptions{.seed = 1, .logLevel = LogLevel::Off}};
  fw::Forwarder forwarder{env};
  face::FaceTable& faces = forwarder.faceTable();
  fs::path dir;
  FaceSystemOptions options;
  std::unique_ptr<FaceSystem> system;
};

TEST_F(ImpairedFaceSystemTest, UdpFacesAreImpairedOthersAreNot)
{
  options.udpImpair.loss = 1.0; // everything sent on UDP faces is lost
  options.udpImpair.delay = 2ms;
  start();
  asio::ip::udp::socket peer(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  std::string uri = "udp4://127.0.0.1:" + std::to_string(peer.local_endpoint().port());

  face::FaceId id = create(uri, face::FacePersistency::Persistent);
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
  EXPECT_EQ(create(uri, face::FacePersistency::Permanent), id);
  EXPECT_EQ(f->persistency(), face::FacePersistency::Permanent);

  Interest i{Name("/x")};
  i.setNonce(1);
  f->sendInterest(i);
  EXPECT_EQ(impaired->impairmentCounters().nLost, 1u);
  EXPECT_EQ(impaired->inner().counters().nOutPackets, 0u);

  // An on-demand face from an unknown endpoint is impaired as well.
  asio::ip::udp::socket other(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  Buffer wire = *i.wireEncode();
  other.send_to(asio::buffer(wire),
                asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), options.udp.port));
  ASSERT_TRUE(runUntil(io, [&] { return faces.size() == 2; }));
  for (auto& face : faces) {
    EXPECT_NE(dynamic_cast<face::ImpairedTransport*>(&face.transport()), nullptr) << face.remoteUri();
    EXPECT_TRUE(system->expirationPeriod(face).has_value() ==
                (face.persistency() == face::FacePersistency::OnDemand));
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

TEST_F(ImpairedFaceSystemTest, DelayedDatagramsArrive)
{
  options.udpImpair.delay = 30ms;
  start();
  asio::ip::udp::socket peer(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  std::string uri = "udp4://127.0.0.1:" + std::to_string(peer.local_endpoint().port());
  face::Face* f = faces.get(create(uri, face::FacePersistency::Persistent));
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
