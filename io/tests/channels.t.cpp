#include <cstring>
#include "core/codec/data.hpp"
#include "io/asio-env.hpp"
#include "io/client-connector.hpp"
#include "io/face-uri.hpp"
#include "io/tcp-channel.hpp"
#include "io/udp-channel.hpp"
#include "io/unix-stream-channel.hpp"
#include "io/tests/io-test-util.hpp"

#include <asio/write.hpp>
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <list>

namespace ndnlab::io {
namespace {

using namespace std::chrono_literals;
using face::FacePersistency;
using face::FaceScope;
using face::TransportState;
using test::makeFrame;
using test::runUntil;
using test::share;
namespace fs = std::filesystem;

/// Collects transports created by a channel and the frames each receives.
struct Sink
{
  struct Entry
  {
    std::unique_ptr<SocketTransport> transport;
    std::vector<Buffer> frames;
  };
  std::vector<std::unique_ptr<Entry>> entries;

  TransportCallback callback()
  {
    return [this](std::unique_ptr<SocketTransport> t) { add(std::move(t)); };
  }
  Entry& add(std::unique_ptr<SocketTransport> t)
  {
    auto e = std::make_unique<Entry>();
    Entry* raw = e.get();
    e->transport = std::move(t);
    e->transport->onReceive = [raw](ByteSpan f, face::EndpointId) { raw->frames.emplace_back(f.begin(), f.end()); };
    entries.push_back(std::move(e));
    return *raw;
  }
};

class ChannelTest : public ::testing::Test
{
protected:
  ChannelTest()
  {
    dir = fs::temp_directory_path() / ("ndnlab-io-test-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
  }
  ~ChannelTest() override { fs::remove_all(dir); }

  asio::io_context io;
  AsioEnv env{io, AsioEnvOptions{.seed = 1, .logLevel = LogLevel::Off}};
  fs::path dir;
};

// --- Unix ----------------------------------------------------------------------------------

TEST_F(ChannelTest, UnixLoopbackExchange)
{
  std::string path = (dir / "sub" / "nfd.sock").string(); // parent dirs are created
  UnixStreamChannel channel(env, io, UnixChannelOptions{.path = path});
  Sink server;
  channel.listen(server.callback());
  ASSERT_TRUE(channel.isListening());
  EXPECT_TRUE(fs::is_socket(path));
  EXPECT_EQ(channel.uri(), "unix://" + path);

  auto client = connectToForwarder(env, io, "unix://" + path);
  ASSERT_TRUE(client.ok()) << client.error();
  Sink clientSink;
  auto& c = clientSink.add(std::move(*client));
  EXPECT_EQ(c.transport->kind(), TransportKind::UnixStream);

  ASSERT_TRUE(runUntil(io, [&] { return server.entries.size() == 1; }));
  auto& s = *server.entries[0];
  EXPECT_EQ(s.transport->scope(), FaceScope::Local);
  EXPECT_EQ(s.transport->persistency(), FacePersistency::OnDemand);
  EXPECT_EQ(s.transport->localUri(), "unix://" + path);
  EXPECT_EQ(s.transport->remoteUri().rfind("fd://", 0), 0u);

  Buffer interest = makeFrame(tlv::Interest, 40, 1);
  Buffer data = makeFrame(tlv::Data, 1200, 2);
  c.transport->send(share(interest));
  ASSERT_TRUE(runUntil(io, [&] { return s.frames.size() == 1; }));
  EXPECT_EQ(s.frames[0], interest);
  s.transport->send(share(data));
  ASSERT_TRUE(runUntil(io, [&] { return c.frames.size() == 1; }));
  EXPECT_EQ(c.frames[0], data);

  // Client goes away: the server face closes with "eof".
  c.transport->close();
  ASSERT_TRUE(runUntil(io, [&] { return s.transport->state() == TransportState::Closed; }));
  EXPECT_EQ(s.transport->closeReason(), "eof");

  channel.close();
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(ChannelTest, UnixBarePathAndEnvironmentDefault)
{
  std::string path = (dir / "a.sock").string();
  UnixStreamChannel channel(env, io, UnixChannelOptions{.path = path});
  Sink server;
  channel.listen(server.callback());
  auto bare = connectToForwarder(env, io, path);
  ASSERT_TRUE(bare.ok()) << bare.error();
  ::setenv("NDN_CLIENT_TRANSPORT", ("unix://" + path).c_str(), 1);
  EXPECT_EQ(defaultClientTransportUri(), "unix://" + path);
  auto viaEnv = connectToForwarder(env, io);
  ::unsetenv("NDN_CLIENT_TRANSPORT");
  ASSERT_TRUE(viaEnv.ok()) << viaEnv.error();
  EXPECT_EQ(defaultClientTransportUri(), "unix:///run/nfd/nfd.sock");
  ASSERT_TRUE(runUntil(io, [&] { return server.entries.size() == 2; }));
}

TEST_F(ChannelTest, UnixConnectFailsWithMessage)
{
  auto r = connectToForwarder(env, io, "unix://" + (dir / "none.sock").string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("none.sock"), std::string::npos);
}

TEST_F(ChannelTest, UnixStaleSocketReplacedLiveSocketRefused)
{
  std::string path = (dir / "s.sock").string();
  {
    // Leave a stale socket file behind: bind without a channel that cleans up.
    fs::create_directories(dir);
    asio::local::stream_protocol::acceptor a(io, asio::local::stream_protocol::endpoint(path));
  }
  ASSERT_TRUE(fs::exists(path));
  UnixStreamChannel first(env, io, UnixChannelOptions{.path = path});
  Sink sink;
  EXPECT_NO_THROW(first.listen(sink.callback()));

  UnixStreamChannel second(env, io, UnixChannelOptions{.path = path});
  EXPECT_THROW(second.listen(sink.callback()), std::runtime_error);
  EXPECT_TRUE(fs::exists(path)); // the live one is untouched

  // A regular file at the path is not replaced.
  std::string file = (dir / "plain").string();
  std::ofstream(file) << "x";
  UnixStreamChannel third(env, io, UnixChannelOptions{.path = file});
  EXPECT_THROW(third.listen(sink.callback()), std::runtime_error);
  EXPECT_TRUE(fs::exists(file));
}

// --- TCP -----------------------------------------------------------------------------------

TEST_F(ChannelTest, TcpLoopbackIsLocal)
{
  TcpChannel channel(env, io, TcpChannelOptions{.address = "127.0.0.1", .port = 0});
  Sink server;
  channel.listen(server.callback());
  uint16_t port = channel.localEndpoint().port();
  ASSERT_NE(port, 0);
  EXPECT_EQ(channel.uri(), "tcp4://127.0.0.1:" + std::to_string(port));

  auto client = connectToForwarder(env, io, "tcp4://127.0.0.1:" + std::to_string(port));
  ASSERT_TRUE(client.ok()) << client.error();
  Sink clientSink;
  auto& c = clientSink.add(std::move(*client));
  ASSERT_TRUE(runUntil(io, [&] { return server.entries.size() == 1; }));
  auto& s = *server.entries[0];
  EXPECT_EQ(s.transport->kind(), TransportKind::Tcp);
  EXPECT_EQ(s.transport->scope(), FaceScope::Local);
  EXPECT_EQ(s.transport->persistency(), FacePersistency::OnDemand);
  EXPECT_EQ(s.transport->remoteUri().rfind("tcp4://127.0.0.1:", 0), 0u);
  EXPECT_EQ(s.transport->mtu(), face::MtuUnlimited);

  Buffer f = makeFrame(tlv::Interest, 100);
  c.transport->send(share(f));
  ASSERT_TRUE(runUntil(io, [&] { return s.frames.size() == 1; }));
  EXPECT_EQ(s.frames[0], f);
}

// --- bounds on stream faces ------------------------------------------------------------------

/// A plain TCP connection from `from` (a loopback address) to 127.0.0.1:`port`, kept open.
asio::ip::tcp::socket rawConnect(asio::io_context& io, const std::string& from, uint16_t port)
{
  asio::ip::tcp::socket s(io);
  s.open(asio::ip::tcp::v4());
  s.bind({asio::ip::make_address(from), 0});
  s.connect({asio::ip::make_address("127.0.0.1"), port});
  return s;
}

TEST_F(ChannelTest, TcpFacesPerAddressAreBoundedAndGivenBack)
{
  TcpChannel channel(
    env, io, TcpChannelOptions{.address = "127.0.0.1", .port = 0, .limits = {.maxFaces = 10, .maxFacesPerAddress = 2}});
  Sink server;
  channel.listen(server.callback());
  const uint16_t port = channel.localEndpoint().port();
  std::list<asio::ip::tcp::socket> clients;
  for (int i = 0; i < 4; ++i)
    clients.push_back(rawConnect(io, "127.0.0.1", port));
  clients.push_back(rawConnect(io, "127.0.0.2", port)); // another host: its own bound
  const FaceAdmission& a = *channel.admission();
  ASSERT_TRUE(runUntil(io, [&] { return server.entries.size() == 3 && a.counters().nTooManyFacesPerAddress == 2; }));
  EXPECT_EQ(a.facesFrom("127.0.0.1"), 2u);
  EXPECT_EQ(a.facesFrom("127.0.0.2"), 1u);
  EXPECT_EQ(env.countingTrace().count(EventKind::IoDrop, DropReason::TooManyFacesPerAddress), 2u);
  EXPECT_EQ(channel.nAccepted(), 3u);

  // a face's end gives its place back
  auto it = std::find_if(server.entries.begin(), server.entries.end(),
                         [](const auto& e) { return e->transport->remoteUri().rfind("tcp4://127.0.0.1:", 0) == 0; });
  ASSERT_NE(it, server.entries.end());
  server.entries.erase(it);
  EXPECT_EQ(a.facesFrom("127.0.0.1"), 1u);
  clients.push_back(rawConnect(io, "127.0.0.1", port));
  ASSERT_TRUE(runUntil(io, [&] { return server.entries.size() == 3; }));
  EXPECT_EQ(a.facesFrom("127.0.0.1"), 2u);
  EXPECT_EQ(a.counters().nTooManyFacesPerAddress, 2u);
}

TEST_F(ChannelTest, TcpAndUnixFacesAreBoundedInAll)
{
  TcpChannel tcp(
    env, io, TcpChannelOptions{.address = "127.0.0.1", .port = 0, .limits = {.maxFaces = 3, .maxFacesPerAddress = 0}});
  UnixStreamChannel local(env, io, UnixChannelOptions{.path = (dir / "nfd.sock").string(), .maxFaces = 2});
  Sink tcpSink;
  Sink unixSink;
  tcp.listen(tcpSink.callback());
  local.listen(unixSink.callback());
  std::list<asio::ip::tcp::socket> tcpClients;
  std::list<asio::local::stream_protocol::socket> unixClients;
  for (int i = 0; i < 5; ++i) {
    tcpClients.push_back(rawConnect(io, "127.0.0.1", tcp.localEndpoint().port()));
    unixClients.emplace_back(io).connect(asio::local::stream_protocol::endpoint((dir / "nfd.sock").string()));
  }
  ASSERT_TRUE(runUntil(io, [&] {
    return tcp.admission()->counters().nTooManyFaces == 2 && local.admission()->counters().nTooManyFaces == 3;
  }));
  EXPECT_EQ(tcpSink.entries.size(), 3u);
  EXPECT_EQ(unixSink.entries.size(), 2u);
  EXPECT_EQ(env.countingTrace().count(EventKind::IoDrop, DropReason::TooManyFaces), 5u);
}

TEST_F(ChannelTest, TcpFaceThatReceivesNothingIdlesOut)
{
  TcpChannel channel(env, io, TcpChannelOptions{.address = "127.0.0.1", .port = 0, .idleTimeout = 100ms});
  Sink server;
  channel.listen(server.callback());
  auto quiet = rawConnect(io, "127.0.0.1", channel.localEndpoint().port());
  ASSERT_TRUE(runUntil(io, [&] { return server.entries.size() == 1; }));
  auto& t = *server.entries[0]->transport;
  ASSERT_TRUE(runUntil(io, [&] { return t.state() == TransportState::Closed; }));
  EXPECT_EQ(t.closeReason(), "idle_timeout");
}

TEST_F(ChannelTest, IdleStreamFaceHoldsNoReceiveBuffer)
{
  TcpChannel channel(env, io, TcpChannelOptions{.address = "127.0.0.1", .port = 0});
  Sink server;
  channel.listen(server.callback());
  auto client = rawConnect(io, "127.0.0.1", channel.localEndpoint().port());
  ASSERT_TRUE(runUntil(io, [&] { return server.entries.size() == 1; }));
  auto& s = *server.entries[0];
  auto& t = dynamic_cast<StreamTransport<asio::ip::tcp>&>(*s.transport);
  EXPECT_EQ(t.receiveBufferCapacity(), 0u);

  // half a frame: held in a buffer until the rest comes, then the buffer is given back
  Buffer f = makeFrame(tlv::Data, 5000);
  asio::write(client, asio::buffer(f.data(), 2000));
  ASSERT_TRUE(runUntil(io, [&] { return t.receiveBufferCapacity() > 0; }));
  EXPECT_TRUE(s.frames.empty());
  asio::write(client, asio::buffer(f.data() + 2000, f.size() - 2000));
  ASSERT_TRUE(runUntil(io, [&] { return s.frames.size() == 1; }));
  EXPECT_EQ(s.frames[0], f);
  EXPECT_EQ(t.receiveBufferCapacity(), 0u);
}

TEST_F(ChannelTest, TcpOutgoingConnect)
{
  TcpChannel listener(env, io, TcpChannelOptions{.address = "127.0.0.1", .port = 0});
  Sink accepted;
  listener.listen(accepted.callback());
  TcpChannel dialer(env, io, TcpChannelOptions{.address = "127.0.0.1", .port = 0});
  Sink out;
  std::string error = "pending";
  dialer.connect(listener.localEndpoint(), FacePersistency::Persistent,
                 [&](std::unique_ptr<SocketTransport> t, std::string err) {
                   error = err;
                   if (t)
                     out.add(std::move(t));
                 });
  ASSERT_TRUE(runUntil(io, [&] { return out.entries.size() == 1 && accepted.entries.size() == 1; }));
  EXPECT_EQ(error, "");
  EXPECT_EQ(out.entries[0]->transport->persistency(), FacePersistency::Persistent);
  EXPECT_EQ(out.entries[0]->transport->remoteUri(), listener.uri());

  // Connection refused: an unused port (bind one and close it to find it).
  uint16_t unused;
  {
    asio::ip::tcp::acceptor a(io, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    unused = a.local_endpoint().port();
  }
  error = "pending";
  dialer.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), unused), FacePersistency::Persistent,
                 [&](std::unique_ptr<SocketTransport> t, std::string err) { error = err; });
  ASSERT_TRUE(runUntil(io, [&] { return error != "pending"; }));
  EXPECT_NE(error.find("connect failed"), std::string::npos) << error;
}

TEST_F(ChannelTest, TcpPermanentFaceReconnects)
{
  TcpChannelOptions opts{.address = "127.0.0.1", .port = 0};
  opts.reconnect.initialDelay = 20ms;
  TcpChannel listener(env, io, opts);
  Sink accepted;
  listener.listen(accepted.callback());
  TcpChannel dialer(env, io, opts);
  Sink out;
  dialer.connect(listener.localEndpoint(), FacePersistency::Permanent,
                 [&](std::unique_ptr<SocketTransport> t, std::string) { out.add(std::move(t)); });
  ASSERT_TRUE(runUntil(io, [&] { return out.entries.size() == 1 && accepted.entries.size() == 1; }));
  auto& t = *out.entries[0]->transport;
  // The remote end drops the connection: the permanent face goes Down, then Up again.
  accepted.entries[0]->transport->close();
  ASSERT_TRUE(runUntil(io, [&] { return t.state() == TransportState::Down; }));
  ASSERT_TRUE(runUntil(io, [&] { return t.state() == TransportState::Up; }));
  EXPECT_EQ(t.ioCounters().nReconnects, 1u);
  ASSERT_TRUE(runUntil(io, [&] { return accepted.entries.size() == 2; }));
  Buffer f = makeFrame(tlv::Interest, 9);
  t.send(share(f));
  ASSERT_TRUE(runUntil(io, [&] { return accepted.entries[1]->frames.size() == 1; }));
  EXPECT_EQ(accepted.entries[1]->frames[0], f);
  t.close();
  ASSERT_TRUE(runUntil(io, [&] { return t.state() == TransportState::Closed; }));
}

// --- UDP -----------------------------------------------------------------------------------

class UdpTest : public ChannelTest
{
protected:
  asio::ip::udp::endpoint channelEp() const
  {
    return {asio::ip::make_address("127.0.0.1"), channel->localEndpoint().port()};
  }
  void makeChannel(Duration idle)
  {
    channel =
      std::make_unique<UdpChannel>(env, io, UdpChannelOptions{.address = "127.0.0.1", .port = 0, .idleTimeout = idle});
    channel->listen(sink.callback());
  }

  Sink sink;
  std::unique_ptr<UdpChannel> channel;
  asio::ip::udp::socket peer{io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
};

TEST(UdpPathPayload, IsTheRouteMtuLessTheIpAndUdpHeaders)
{
  // the tests' only route known everywhere is loopback's: its interface MTU, less 28 over IPv4
  // and 48 over IPv6, at most the largest IPv4 UDP payload
  std::ifstream in("/sys/class/net/lo/mtu");
  ssize_t lo = 0;
  if (!(in >> lo))
    GTEST_SKIP() << "no /sys/class/net/lo/mtu";
  const asio::ip::udp::endpoint v4(asio::ip::make_address("127.0.0.1"), 6363);
  EXPECT_EQ(udpPathPayload(v4), std::min<ssize_t>(lo - 28, UdpMaxPayloadV4));
  const asio::ip::udp::endpoint mapped(asio::ip::make_address("::ffff:127.0.0.1"), 6363);
  EXPECT_EQ(udpPathPayload(mapped), std::min<ssize_t>(lo - 28, UdpMaxPayloadV4));
  if (std::filesystem::exists("/proc/sys/net/ipv6/conf/lo") &&
      std::ifstream("/proc/sys/net/ipv6/conf/lo/disable_ipv6").get() == '0') {
    const asio::ip::udp::endpoint v6(asio::ip::make_address("::1"), 6363);
    EXPECT_EQ(udpPathPayload(v6), std::min<ssize_t>(lo - 48, UdpMaxPayloadV4));
  }
}

TEST_F(UdpTest, OnDemandFaceCreatedOnFirstDatagram)
{
  makeChannel(10s);
  Buffer f1 = test::makeInterest(30, 1);
  Buffer f2 = test::makeInterest(31, 2);
  peer.send_to(asio::buffer(f1), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries.size() == 1 && sink.entries[0]->frames.size() == 1; }));
  auto& e = *sink.entries[0];
  EXPECT_EQ(e.frames[0], f1);
  EXPECT_EQ(e.transport->kind(), TransportKind::UdpUnicast);
  EXPECT_EQ(e.transport->persistency(), FacePersistency::OnDemand);
  EXPECT_EQ(e.transport->scope(), FaceScope::NonLocal);
  EXPECT_EQ(e.transport->remoteUri(), udpUri(peer.local_endpoint()));
  EXPECT_EQ(e.transport->localUri(), channel->uri());
  EXPECT_EQ(e.transport->mtu(), UdpMaxPayloadV4);

  // Same endpoint: same face.
  peer.send_to(asio::buffer(f2), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return e.frames.size() == 2; }));
  EXPECT_EQ(sink.entries.size(), 1u);
  EXPECT_EQ(channel->size(), 1u);

  // Reply reaches the peer.
  Buffer d = makeFrame(tlv::Data, 500, 3);
  e.transport->send(share(d));
  ASSERT_TRUE(runUntil(io, [&] { return peer.available() > 0; })); // sent at the end of the turn
  Buffer got(2000);
  asio::ip::udp::endpoint from;
  size_t n = peer.receive_from(asio::buffer(got), from);
  got.resize(n);
  EXPECT_EQ(got, d);
  EXPECT_EQ(from.port(), channelEp().port());
}

/// Datagrams the peer socket has received, each as it arrived (runs `io` while waiting).
std::vector<Buffer> receiveAll(asio::io_context& io, asio::ip::udp::socket& peer, size_t count)
{
  std::vector<Buffer> got;
  while (got.size() < count) {
    if (!runUntil(io, [&] { return peer.available() > 0; }))
      break;
    Buffer b(70000);
    b.resize(peer.receive(asio::buffer(b)));
    got.push_back(std::move(b));
  }
  return got;
}

TEST_F(UdpTest, ABurstLeavesAsTheSameDatagramsInOrder)
{
  // one turn of sends: runs of equal sizes (one GSO send each, where the kernel offers it), a
  // shorter one closing a run, a larger one starting the next, and one above an Ethernet MTU
  makeChannel(10s);
  peer.set_option(asio::socket_base::receive_buffer_size(4 << 20)); // holds the whole burst
  auto r = channel->connect(peer.local_endpoint(), FacePersistency::Persistent);
  auto& e = sink.add(std::move(r.created));
  std::vector<Buffer> sent;
  auto send = [&](Buffer b) {
    sent.push_back(std::move(b));
    e.transport->send(share(sent.back()));
  };
  // a first burst sets the face's rate, so that the second may leave in batches of 1 ms of it
  for (size_t i = 0; i < 150; ++i) // 150 > the 64 datagrams of one GSO send
    send(makeFrame(tlv::Data, 1400, static_cast<uint8_t>(i)));
  test::runFor(io, 11ms);
  send(makeFrame(tlv::Data, 1400, 0));
  test::runFor(io, 1ms);
  auto* udp = dynamic_cast<UdpUnicastTransport*>(e.transport.get());
  ASSERT_NE(udp, nullptr);
  EXPECT_GT(udp->gsoBudget(), 2 * 1404u) << "the rate of the first burst allows batches";
  for (size_t i = 0; i < 150; ++i)
    send(makeFrame(tlv::Data, 1400, static_cast<uint8_t>(i)));
  send(makeFrame(tlv::Data, 700, 1));
  send(makeFrame(tlv::Interest, 40, 2));
  send(makeFrame(tlv::Interest, 40, 3));
  send(makeFrame(tlv::Data, 8000, 4)); // IP fragments: sent alone
  send(makeFrame(tlv::Interest, 41, 5));
  std::vector<Buffer> got = receiveAll(io, peer, sent.size());
  ASSERT_EQ(got.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i)
    EXPECT_EQ(got[i], sent[i]) << "datagram " << i;
  EXPECT_EQ(e.transport->ioCounters().nSendErrors, 0u);
}

TEST_F(UdpTest, CoalescedDatagramsArriveAsTheirFrames)
{
  // a peer sends one GSO buffer of 20 Data (and a shorter last): the channel, which asks for
  // UDP_GRO, hands each frame to the face by itself
  makeChannel(10s);
  auto& e = sink.add(channel->connect(peer.local_endpoint(), FacePersistency::Persistent).created);
  std::vector<Buffer> frames;
  Buffer all;
  for (size_t i = 0; i < 20; ++i) {
    frames.push_back(makeFrame(tlv::Data, 1000, static_cast<uint8_t>(i)));
    all.insert(all.end(), frames.back().begin(), frames.back().end());
  }
  frames.push_back(makeFrame(tlv::Data, 300, 7));
  all.insert(all.end(), frames.back().begin(), frames.back().end());
  const int fd = peer.native_handle();
  const int segment = static_cast<int>(frames[0].size());
  ASSERT_EQ(::setsockopt(fd, 17 /* SOL_UDP */, 103 /* UDP_SEGMENT */, &segment, sizeof(segment)), 0)
    << std::strerror(errno);
  peer.send_to(asio::buffer(all), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return e.frames.size() == frames.size(); }));
  EXPECT_EQ(e.frames, frames);
}

TEST_F(UdpTest, PortHeldByAnotherChannelIsRefused)
{
  makeChannel(10s);
  UdpChannel second(env, io, UdpChannelOptions{.address = "127.0.0.1", .port = channelEp().port()});
  try {
    second.listen(sink.callback());
    FAIL() << "a second channel bound the port of the first";
  }
  catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot bind udp"), std::string::npos) << e.what();
  }
}

TEST_F(UdpTest, InvalidDatagramsAreDroppedWithoutFace)
{
  makeChannel(10s);
  Buffer junk{0x00, 0x01, 0x02};
  Buffer trailing = makeFrame(tlv::Interest, 5);
  trailing.push_back(0xAA);
  peer.send_to(asio::buffer(junk), channelEp());
  peer.send_to(asio::buffer(trailing), channelEp());
  ASSERT_TRUE(
    runUntil(io, [&] { return env.countingTrace().count(EventKind::IoDrop, DropReason::InvalidDatagram) == 2; }));
  EXPECT_TRUE(sink.entries.empty());

  // With a face, an invalid datagram is a counted drop on that face.
  Buffer good = test::makeInterest(5);
  peer.send_to(asio::buffer(good), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries.size() == 1; }));
  peer.send_to(asio::buffer(junk), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries[0]->transport->ioCounters().nInvalidDatagram == 1; }));
  EXPECT_EQ(sink.entries[0]->frames.size(), 1u);
  EXPECT_EQ(sink.entries[0]->transport->state(), TransportState::Up);
}

TEST_F(UdpTest, OnlyValidPacketsCreateFaces)
{
  makeChannel(10s);
  auto send = [&](const Buffer& b) { peer.send_to(asio::buffer(b), channelEp()); };
  Buffer unknownType{0x99, 0x03, 'a', 'b', 'c'};     // one TLV, but not NDN
  Buffer idle{0x64, 0x00};                           // LpPacket without fragment
  Buffer badInterest = makeFrame(tlv::Interest, 20); // Interest TLV, garbage inside
  Buffer hugeInterest = test::makeInterest(60000);   // valid, above 8800 octets
  Buffer badLp = makeFrame(tlv::LpPacket, 12);       // LpPacket, garbage fields
  for (const Buffer* b : {&unknownType, &idle, &badInterest, &badLp})
    send(*b);
  ASSERT_TRUE(runUntil(io, [&] { return channel->counters().nInvalidDatagram == 4; }));
  send(hugeInterest);
  ASSERT_TRUE(runUntil(io, [&] { return channel->counters().nPacketTooLarge == 1; }));
  EXPECT_EQ(env.countingTrace().count(EventKind::IoDrop, DropReason::InvalidDatagram), 4u);
  EXPECT_EQ(env.countingTrace().count(EventKind::IoDrop, DropReason::PacketTooLarge), 1u);
  EXPECT_TRUE(sink.entries.empty());
  EXPECT_EQ(channel->size(), 0u);

  // A fragment of a larger packet (its LpPacket decodes) and a valid Data do create faces.
  asio::ip::udp::socket peer2{io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
  Buffer fragValue{0x51, 0x08, 0, 0, 0, 0, 0, 0, 0, 9, 0x52, 0x01, 0x00, 0x53, 0x01, 0x02};
  Buffer piece = makeFrame(tlv::Fragment, 50);
  fragValue.insert(fragValue.end(), piece.begin(), piece.end());
  Buffer fragment;
  appendTlv(fragment, tlv::LpPacket, fragValue);
  send(fragment);
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries.size() == 1; }));
  Data d{Name("/io-test/data")};
  d.setSignatureValue(Buffer(32, 0));
  Buffer data = *d.wireEncode();
  peer2.send_to(asio::buffer(data), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries.size() == 2; }));
  EXPECT_EQ(channel->counters().nFacesCreated, 2u);
}

TEST_F(UdpTest, OnDemandFacesAreCapped)
{
  channel =
    std::make_unique<UdpChannel>(env, io, UdpChannelOptions{.address = "127.0.0.1", .port = 0, .maxOnDemandFaces = 2});
  channel->listen(sink.callback());
  std::list<asio::ip::udp::socket> peers;
  auto sendFromNewPeer = [&] {
    peers.emplace_back(io, asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    Buffer f = test::makeInterest(10, static_cast<uint8_t>(peers.size()));
    peers.back().send_to(asio::buffer(f), channelEp());
  };
  // A face from faces/create does not count against the cap.
  auto r = channel->connect(peer.local_endpoint(), FacePersistency::Persistent);
  sink.add(std::move(r.created));
  sendFromNewPeer();
  sendFromNewPeer();
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries.size() == 3; }));
  sendFromNewPeer();
  sendFromNewPeer();
  ASSERT_TRUE(runUntil(io, [&] { return channel->counters().nTooManyFaces == 2; }));
  EXPECT_EQ(env.countingTrace().count(EventKind::IoDrop, DropReason::TooManyFaces), 2u);
  EXPECT_EQ(sink.entries.size(), 3u);
  EXPECT_EQ(channel->onDemandFaces(), 2u);
  // Known endpoints still get through.
  Buffer f = test::makeInterest(10, 1);
  peers.front().send_to(asio::buffer(f), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries[1]->frames.size() == 2; }));
  // Once an on-demand face closes, a new endpoint is accepted again.
  sink.entries[1]->transport->close();
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries[1]->transport->state() == TransportState::Closed; }));
  sendFromNewPeer();
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries.size() == 4; }));
  EXPECT_EQ(channel->counters().nTooManyFaces, 2u);
}

TEST_F(UdpTest, IdleOnDemandFaceCloses)
{
  makeChannel(150ms);
  Buffer f = test::makeInterest(30);
  peer.send_to(asio::buffer(f), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries.size() == 1; }));
  auto& t = *sink.entries[0]->transport;
  // Keep it busy for two idle periods: no close.
  for (int i = 0; i < 10; ++i) {
    test::runFor(io, 30ms);
    peer.send_to(asio::buffer(f), channelEp());
  }
  EXPECT_EQ(t.state(), TransportState::Up);
  // Then silence: closed within two idle periods.
  ASSERT_TRUE(runUntil(
    io, [&] { return t.state() == TransportState::Closed; }, 2000ms));
  EXPECT_EQ(t.closeReason(), "idle_timeout");
  EXPECT_EQ(channel->size(), 0u);
  EXPECT_EQ(env.countingTrace().count(EventKind::FaceClose, toString(CloseReason::IdleTimeout)), 1u);

  // A new datagram from the same endpoint makes a new face.
  peer.send_to(asio::buffer(f), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries.size() == 2; }));
}

TEST_F(UdpTest, PersistentFaceDoesNotIdleOut)
{
  makeChannel(50ms);
  auto r = channel->connect(peer.local_endpoint(), FacePersistency::Persistent);
  ASSERT_TRUE(r.created);
  auto& e = sink.add(std::move(r.created));
  test::runFor(io, 200ms);
  EXPECT_EQ(e.transport->state(), TransportState::Up);

  // Sends reach the peer; the peer's reply goes to this face, not a new one.
  Buffer f = makeFrame(tlv::Interest, 12);
  e.transport->send(share(f));
  ASSERT_TRUE(runUntil(io, [&] { return peer.available() > 0; }));
  Buffer got(100);
  size_t n = peer.receive(asio::buffer(got));
  got.resize(n);
  EXPECT_EQ(got, f);
  peer.send_to(asio::buffer(f), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return e.frames.size() == 1; }));
  EXPECT_EQ(sink.entries.size(), 1u);

  // connect() again returns the existing face.
  auto again = channel->connect(peer.local_endpoint(), FacePersistency::Permanent);
  EXPECT_FALSE(again.created);
  EXPECT_EQ(again.existing, e.transport.get());
  EXPECT_EQ(e.transport->persistency(), FacePersistency::Permanent);
  auto weaker = channel->connect(peer.local_endpoint(), FacePersistency::OnDemand);
  EXPECT_EQ(e.transport->persistency(), FacePersistency::Permanent);
  (void)weaker;
}

TEST_F(UdpTest, UpgradedOnDemandFaceStopsIdling)
{
  makeChannel(60ms);
  Buffer f = test::makeInterest(30);
  peer.send_to(asio::buffer(f), channelEp());
  ASSERT_TRUE(runUntil(io, [&] { return sink.entries.size() == 1; }));
  auto r = channel->connect(peer.local_endpoint(), FacePersistency::Persistent);
  EXPECT_EQ(r.existing, sink.entries[0]->transport.get());
  test::runFor(io, 250ms);
  EXPECT_EQ(sink.entries[0]->transport->state(), TransportState::Up);
}

// --- Face URIs -----------------------------------------------------------------------------

TEST(FaceUri, Parse)
{
  auto u = parseFaceUri("udp4://192.0.2.1:6363");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->scheme, "udp4");
  EXPECT_EQ(u->host, "192.0.2.1");
  EXPECT_EQ(u->port, 6363);
  EXPECT_TRUE(u->isUdp());
  EXPECT_EQ(u->toString(), "udp4://192.0.2.1:6363");

  auto v6 = parseFaceUri("tcp6://[::1]:7000");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 7000);
  EXPECT_EQ(v6->toString(), "tcp6://[::1]:7000");

  auto noPort = parseFaceUri("tcp://localhost");
  ASSERT_TRUE(noPort.ok());
  EXPECT_EQ(noPort->port, 0);

  auto unix = parseFaceUri("unix:///run/nfd/nfd.sock");
  ASSERT_TRUE(unix.ok());
  EXPECT_EQ(unix->path, "/run/nfd/nfd.sock");

  EXPECT_FALSE(parseFaceUri("udp4://1.2.3.4:99999").ok());
  EXPECT_FALSE(parseFaceUri("udp4://1.2.3.4:x").ok());
  EXPECT_FALSE(parseFaceUri("udp4://:6363").ok());
  EXPECT_FALSE(parseFaceUri("1.2.3.4").ok());
  EXPECT_FALSE(parseFaceUri("unix://relative").ok());
}

TEST(FaceUri, HostsAsNdnCxxReadsThem)
{
  auto zoned = parseFaceUri("udp6://[fe80::1%eth0]:6363");
  ASSERT_TRUE(zoned.ok()) << zoned.error();
  EXPECT_EQ(zoned->host, "fe80::1%eth0");
  EXPECT_EQ(zoned->toString(), "udp6://[fe80::1%eth0]:6363");
  auto mapped = parseFaceUri("tcp6://[::ffff:192.0.2.1]");
  ASSERT_TRUE(mapped.ok()) << mapped.error();
  EXPECT_EQ(mapped->host, "::ffff:192.0.2.1");

  // An IPv6 address needs its brackets; the port is never guessed from its last group.
  auto bare = parseFaceUri("udp6://fe80::1:6363");
  ASSERT_FALSE(bare.ok());
  EXPECT_NE(bare.error().find("an IPv6 address goes in brackets"), std::string::npos) << bare.error();
  EXPECT_FALSE(parseFaceUri("udp6://::1").ok());
  // Brackets only around a whole IPv6 address (this one printed as "[636[::1]]:6363", which
  // did not parse back).
  EXPECT_FALSE(parseFaceUri("tcp6://636[::1]:6363").ok());
  EXPECT_FALSE(parseFaceUri("tcp6://[localhost]:6363").ok());
  EXPECT_FALSE(parseFaceUri("tcp6://[]:6363").ok());
  EXPECT_FALSE(parseFaceUri("udp6://[fe80::1%]:6363").ok());
  EXPECT_FALSE(parseFaceUri("udp4://host]:6363").ok());
}

} // namespace
} // namespace ndnlab::io
