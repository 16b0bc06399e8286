// In-process ndnlabd: two clients over the Unix socket, a prefix registration through
// management, and an Interest/Data exchange through the forwarder.
#include "daemon/daemon.hpp"
#include "daemon/tests/daemon-test-util.hpp"

#include "core/face/generic-link-service.hpp"
#include "core/mgmt/command.hpp"
#include "core/mgmt/datasets.hpp"
#include "io/client-connector.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace ndnlab::daemon {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;
using test::runUntil;

struct Client
{
  Client(Env& env, asio::io_context& io, const std::string& path)
  {
    auto t = io::connectToForwarder(env, io, "unix://" + path);
    EXPECT_TRUE(t.ok());
    face::LinkServiceOptions o;
    face = std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env, o), std::move(*t));
    face->afterReceiveInterest = [this](face::Face&, Interest&& i, face::EndpointId) {
      interests.push_back(std::move(i));
    };
    face->afterReceiveData = [this](face::Face&, Data&& d, face::EndpointId) { data.push_back(std::move(d)); };
    face->afterReceiveNack = [this](face::Face&, Nack&& n, face::EndpointId) { nacks.push_back(std::move(n)); };
  }
  std::unique_ptr<face::Face> face;
  std::vector<Interest> interests;
  std::vector<Data> data;
  std::vector<Nack> nacks;
};

class DaemonTest : public ::testing::Test
{
protected:
  DaemonTest()
  {
    dir = fs::temp_directory_path() / ("ndnlab-daemon-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    options.general.logLevel = LogLevel::Off;
    options.faceSystem.unixSocket.path = (dir / "nfd.sock").string();
    options.faceSystem.tcpEnabled = false;
    options.faceSystem.udpEnabled = false;
    daemon = std::make_unique<Daemon>(io, options);
    daemon->start();
  }
  ~DaemonTest() override
  {
    daemon.reset();
    fs::remove_all(dir);
  }

  Interest command(const std::string& module, const std::string& verb, const mgmt::ControlParameters& p)
  {
    Interest i(mgmt::makeCommandName(Name("/localhost/nfd"), module, verb, p));
    i.setNonce(static_cast<uint32_t>(++nonce));
    i.setLifetime(1000ms);
    return i;
  }

  asio::io_context io;
  fs::path dir;
  DaemonOptions options;
  std::unique_ptr<Daemon> daemon;
  uint32_t nonce = 1000;
};

TEST_F(DaemonTest, RegisterAndExchange)
{
  Env& env = daemon->env();
  Client producer(env, io, options.faceSystem.unixSocket.path);
  Client consumer(env, io, options.faceSystem.unixSocket.path);
  ASSERT_TRUE(runUntil(io, [&] { return daemon->forwarder().faceTable().size() >= 3; }));

  mgmt::ControlParameters cp;
  cp.name = Name("/test/prefix");
  producer.face->sendInterest(command("rib", "register", cp));
  ASSERT_TRUE(runUntil(io, [&] { return producer.data.size() == 1; }));
  auto resp = mgmt::ControlResponse::decode(producer.data[0].content());
  ASSERT_TRUE(resp.ok());
  EXPECT_EQ(resp->code, 200u) << resp->text;

  Interest i(Name("/test/prefix/item"));
  i.setNonce(42);
  consumer.face->sendInterest(i);
  ASSERT_TRUE(runUntil(io, [&] { return producer.interests.size() == 1; }));
  EXPECT_EQ(producer.interests[0].name(), Name("/test/prefix/item"));

  Data d(Name("/test/prefix/item"));
  Buffer payload(1000, 0x5A);
  d.setContent(payload);
  producer.face->sendData(d);
  ASSERT_TRUE(runUntil(io, [&] { return consumer.data.size() == 1; }));
  EXPECT_EQ(consumer.data[0].name(), Name("/test/prefix/item"));
  EXPECT_EQ(consumer.data[0].content().size(), 1000u);

  // The producer leaves: its route goes with its face, and Interests get a Nack.
  producer.face->close();
  ASSERT_TRUE(runUntil(io, [&] { return daemon->management().rib().nRoutes() == 0; }));
  Interest j(Name("/test/prefix/other"));
  j.setNonce(43);
  consumer.face->sendInterest(j);
  ASSERT_TRUE(runUntil(io, [&] { return consumer.nacks.size() == 1; }));
}

TEST_F(DaemonTest, FacesCreateThroughManagement)
{
  // UDP is disabled in this daemon: faces/create answers 406; unix URIs are unsupported.
  Client client(daemon->env(), io, options.faceSystem.unixSocket.path);
  mgmt::ControlParameters cp;
  cp.uri = "udp4://127.0.0.1:6363";
  client.face->sendInterest(command("faces", "create", cp));
  ASSERT_TRUE(runUntil(io, [&] { return client.data.size() == 1; }));
  auto resp = mgmt::ControlResponse::decode(client.data[0].content());
  ASSERT_TRUE(resp.ok());
  EXPECT_EQ(resp->code, 406u) << resp->text;
}

TEST_F(DaemonTest, DropCountersAreReadableWhileRunning)
{
  // A client sends an oversized Interest (its own link service would refuse it: raw bytes),
  // a Nack without its Interest, then the ndnlab/drops dataset shows both drops by reason.
  Client client(daemon->env(), io, options.faceSystem.unixSocket.path);
  ASSERT_TRUE(runUntil(io, [&] { return daemon->forwarder().faceTable().size() == 2; }));
  auto* t = dynamic_cast<io::SocketTransport*>(&client.face->transport());
  ASSERT_NE(t, nullptr);
  Name big("/big");
  big.append(std::string(8900, 'x'));
  Interest oversized(big);
  oversized.setNonce(7);
  t->send(oversized.wireEncode());
  t->send(std::make_shared<const Buffer>(Buffer{0x64, 0x04, 0xfd, 0x03, 0x20, 0x00}));

  Interest i(Name("/localhost/nfd/ndnlab/drops"));
  i.setCanBePrefix(true);
  i.setMustBeFresh(true);
  i.setNonce(11);
  client.face->sendInterest(i);
  ASSERT_TRUE(runUntil(io, [&] { return client.data.size() == 1; }));
  auto list = mgmt::decodeList<mgmt::DropCounterStatus>(client.data[0].content());
  ASSERT_TRUE(list.ok());
  auto countOf = [&](std::string_view kind, std::string_view reason) -> uint64_t {
    for (const auto& c : *list)
      if (c.kind == kind && c.reason == reason)
        return c.count;
    return 0;
  };
  EXPECT_EQ(countOf("drop", "packet_too_large"), 1u);
  EXPECT_EQ(countOf("drop", "nack_without_fragment"), 1u);
  for (const auto& c : *list)
    EXPECT_TRUE(parseEventKind(c.kind) && info(*parseEventKind(c.kind)).isDrop) << c.kind;
  // The same counters make the shutdown summary.
  EXPECT_NE(daemon->summary().find("drop/packet_too_large: 1"), std::string::npos) << daemon->summary();
  EXPECT_TRUE(client.interests.empty());
}

TEST_F(DaemonTest, StopRemovesSocketAndClosesFaces)
{
  Client client(daemon->env(), io, options.faceSystem.unixSocket.path);
  ASSERT_TRUE(runUntil(io, [&] { return daemon->forwarder().faceTable().size() == 2; }));
  daemon->stop();
  EXPECT_FALSE(fs::exists(options.faceSystem.unixSocket.path));
  ASSERT_TRUE(runUntil(io, [&] { return client.face->state() == face::TransportState::Closed; }));
}

} // namespace
} // namespace ndnlab::daemon
