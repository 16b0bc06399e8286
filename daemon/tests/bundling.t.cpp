// BLEnD in the daemon: config keys ([face_system.udp] medium, [face_system.link] bundling,
// bundle_*), the options UDP faces get, and faces/create with the ndnlab ControlParameters
// extension (Medium, BundleInterval, Flags bit 8). faces/update and faces/list: core/mgmt tests.

#include "daemon/config.hpp"
#include "daemon/face-system.hpp"
#include "daemon/tests/daemon-test-util.hpp"

#include "core/face/generic-link-service.hpp"
#include "core/face/impaired-transport.hpp"
#include "io/asio-env.hpp"

#include <gtest/gtest.h>

#include <list>

namespace ndnlab::daemon {
namespace {

using namespace std::chrono_literals;
using test::freePort;
using test::runUntil;

std::string errorOf(std::string_view toml)
{
  try {
    parseConfig(toml);
  }
  catch (const ConfigError& e) {
    return e.what();
  }
  return {};
}

TEST(BundlingConfig, DefaultsAreOffAndWired)
{
  DaemonOptions o = parseConfig("");
  EXPECT_FALSE(o.faceSystem.link.bundling);
  EXPECT_EQ(o.faceSystem.link.bundler.bundleInterval, 15u);
  EXPECT_EQ(o.faceSystem.udpMedium, face::Medium::Wired);
  EXPECT_EQ(o.faceSystem.multicastMedium, face::Medium::Wired);
  face::LinkServiceOptions lso;
  EXPECT_EQ(o.faceSystem.link.bundling, lso.bundling);
  EXPECT_EQ(o.faceSystem.link.bundler.maxEntries, lso.bundler.maxEntries);
  EXPECT_EQ(o.faceSystem.link.bundler.entryLifetime, lso.bundler.entryLifetime);
}

TEST(BundlingConfig, KeysParse)
{
  DaemonOptions o = parseConfig("[face_system.udp]\nmedium = \"wireless\"\n"
                                "[face_system.multicast]\nmedium = \"wireless\"\n"
                                "[face_system.link]\nbundling = true\nbundle_interval = 10\n"
                                "bundle_max_entries = 8\nbundle_entry_lifetime = \"3s\"\n");
  EXPECT_EQ(o.faceSystem.udpMedium, face::Medium::Wireless);
  EXPECT_EQ(o.faceSystem.multicastMedium, face::Medium::Wireless);
  EXPECT_TRUE(o.faceSystem.link.bundling);
  EXPECT_EQ(o.faceSystem.link.bundler.bundleInterval, 10u);
  EXPECT_EQ(o.faceSystem.link.bundler.maxEntries, 8u);
  EXPECT_EQ(o.faceSystem.link.bundler.entryLifetime, 3s);
  EXPECT_EQ(parseConfig("[face_system.link]\nbundle_interval = 0\n").faceSystem.link.bundler.bundleInterval, 0u);
}

TEST(BundlingConfig, BadValues)
{
  EXPECT_NE(errorOf("[face_system.udp]\nmedium = \"radio\"\n").find("unknown medium"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp]\nmedium = 1\n").find("expected a string"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.link]\nbundle_interval = 257\n").find("out of range"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.link]\nbundle_max_entries = 0\n").find("out of range"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.link]\nbundling = 1\n").find("expected a boolean"), std::string::npos);
}

class BundlingFaceSystemTest : public ::testing::Test
{
protected:
  BundlingFaceSystemTest()
  {
    options.unixEnabled = false;
    options.tcp.port = 0;
    options.udp.address = "127.0.0.1";
    options.udp.port = freePort<asio::ip::udp>(io);
  }

  void start()
  {
    system = std::make_unique<FaceSystem>(env, io, forwarder, options);
    system->start();
  }

  mgmt::ControlResponse createCp(const mgmt::ControlParameters& cp)
  {
    std::optional<mgmt::ControlResponse> out;
    system->createFace(cp, [&](mgmt::ControlResponse r) { out = std::move(r); });
    EXPECT_TRUE(runUntil(io, [&] { return out.has_value(); }));
    return out.value_or(mgmt::ControlResponse(0, "none"));
  }

  std::string peerUri()
  {
    peers.emplace_back(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    return "udp4://127.0.0.1:" + std::to_string(peers.back().local_endpoint().port());
  }

  asio::io_context io;
  io::AsioEnv env{io, io::AsioEnvOptions{.seed = 1, .logLevel = LogLevel::Off}};
  fw::Forwarder forwarder{env};
  face::FaceTable& faces = forwarder.faceTable();
  FaceSystemOptions options;
  std::unique_ptr<FaceSystem> system;
  std::list<asio::ip::udp::socket> peers;
};

TEST_F(BundlingFaceSystemTest, UdpFacesFollowTheConfig)
{
  options.udpMedium = face::Medium::Wireless;
  options.link.bundling = true;
  options.link.bundler.bundleInterval = 12;
  options.udpImpair.loss = 0.01; // the medium survives the impairment wrapper
  start();
  mgmt::ControlParameters cp;
  cp.uri = peerUri();
  auto r = createCp(cp);
  ASSERT_EQ(r.code, 200u) << r.text;
  auto body = mgmt::ControlParameters::decode(r.body);
  ASSERT_TRUE(body.ok());
  face::Face* f = faces.get(*body->faceId);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->transport().medium(), face::Medium::Wireless);
  EXPECT_NE(dynamic_cast<face::ImpairedTransport*>(&f->transport()), nullptr);
  EXPECT_TRUE(f->linkService().options().bundling);
  EXPECT_EQ(f->linkService().options().bundler.bundleInterval, 12u);
  EXPECT_TRUE(static_cast<face::GenericLinkService&>(f->linkService()).isBundlingActive());
  // the reply reports the BLEnD settings
  EXPECT_EQ(body->medium, 1u);
  EXPECT_EQ(body->bundleInterval, 12u);
  EXPECT_TRUE(*body->flags & mgmt::FaceFlagBundling);
}

TEST_F(BundlingFaceSystemTest, DefaultFacesAreWiredAndReplyWithoutExtension)
{
  start();
  mgmt::ControlParameters cp;
  cp.uri = peerUri();
  auto r = createCp(cp);
  ASSERT_EQ(r.code, 200u) << r.text;
  auto body = mgmt::ControlParameters::decode(r.body);
  ASSERT_TRUE(body.ok());
  face::Face* f = faces.get(*body->faceId);
  EXPECT_EQ(f->transport().medium(), face::Medium::Wired);
  EXPECT_FALSE(f->linkService().options().bundling);
  EXPECT_FALSE(body->medium);
  EXPECT_FALSE(body->bundleInterval);
}

TEST_F(BundlingFaceSystemTest, CreateWithExtensionParameters)
{
  start();
  mgmt::ControlParameters cp;
  cp.uri = peerUri();
  cp.medium = 1;
  cp.bundleInterval = 20;
  cp.flags = mgmt::FaceFlagBundling;
  cp.mask = mgmt::FaceFlagBundling;
  auto r = createCp(cp);
  ASSERT_EQ(r.code, 200u) << r.text;
  face::Face* f = faces.get(*mgmt::ControlParameters::decode(r.body)->faceId);
  EXPECT_EQ(f->transport().medium(), face::Medium::Wireless);
  EXPECT_TRUE(f->linkService().options().bundling);
  EXPECT_EQ(f->linkService().options().bundler.bundleInterval, 20u);

  mgmt::ControlParameters bad;
  bad.uri = peerUri();
  bad.medium = 2;
  EXPECT_EQ(createCp(bad).code, 400u);
  bad.medium.reset();
  bad.bundleInterval = 1000;
  EXPECT_EQ(createCp(bad).code, 400u);
}

} // namespace
} // namespace ndnlab::daemon
