// The WebSocket channel against a client written here from RFC 6455 (handshake, masked
// frames), so that each test controls the exact bytes on the wire.

#include "io/asio-env.hpp"
#include "io/tests/io-test-util.hpp"
#include "io/websocket-channel.hpp"

#include <gtest/gtest.h>

#include <asio/connect.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/write.hpp>

#include <optional>

namespace ndnlab::io {
namespace {

using namespace std::chrono_literals;
using face::FacePersistency;
using face::FaceScope;
using face::TransportState;
using test::makeFrame;
using test::runUntil;
using test::share;

constexpr uint8_t OpText = 0x1, OpBinary = 0x2, OpClose = 0x8, OpPing = 0x9, OpPong = 0xA;

/// A WebSocket client on the test's io_context: writes block (loopback), reads poll.
class Client
{
public:
  Client(asio::io_context& io, uint16_t port) : m_io(io), m_socket(io)
  {
    m_socket.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    m_socket.non_blocking(true);
  }

  /// Sends the opening handshake with `headers` and returns the server's response head.
  std::string handshake(const std::string& headers = "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                                     "Sec-WebSocket-Version: 13\r\n")
  {
    write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n");
    runUntil(m_io, [&] { return fill(), m_in.find("\r\n\r\n") != std::string::npos; });
    size_t end = m_in.find("\r\n\r\n");
    if (end == std::string::npos)
      return m_in;
    std::string head = m_in.substr(0, end);
    m_in.erase(0, end + 4);
    return head;
  }

  /// One frame from client to server: FIN set, masked as a client must (unless `masked` is
  /// false, which the protocol forbids).
  void sendFrame(uint8_t opcode, const std::string& payload, bool masked = true)
  {
    const char maskBit = masked ? char(0x80) : char(0);
    std::string f;
    f += static_cast<char>(0x80 | opcode);
    if (payload.size() < 126) {
      f += static_cast<char>(maskBit | static_cast<char>(payload.size()));
    }
    else {
      f += static_cast<char>(maskBit | 126);
      f += static_cast<char>(payload.size() >> 8);
      f += static_cast<char>(payload.size() & 0xFF);
    }
    const uint8_t mask[4] = {0x12, 0x34, 0x56, 0x78};
    if (masked)
      f.append(reinterpret_cast<const char*>(mask), 4);
    for (size_t i = 0; i < payload.size(); ++i)
      f += static_cast<char>(masked ? payload[i] ^ mask[i % 4] : payload[i]);
    write(f);
  }

  void sendFrame(uint8_t opcode, const Buffer& payload)
  {
    sendFrame(opcode, std::string(payload.begin(), payload.end()));
  }

  /// The next frame from the server (opcode, payload), or nullopt within the timeout.
  std::optional<std::pair<uint8_t, std::string>> readFrame()
  {
    std::optional<std::pair<uint8_t, std::string>> frame;
    runUntil(m_io, [&] {
      fill();
      frame = parse();
      return frame.has_value();
    });
    return frame;
  }

  /// True once the server has closed the TCP connection.
  bool closedByServer()
  {
    fill();
    return m_eof;
  }

private:
  void write(const std::string& bytes)
  {
    m_socket.non_blocking(false);
    asio::write(m_socket, asio::buffer(bytes));
    m_socket.non_blocking(true);
  }

  void fill()
  {
    char buf[4096];
    std::error_code ec;
    size_t n = m_socket.read_some(asio::buffer(buf), ec);
    if (!ec)
      m_in.append(buf, n);
    else if (ec != asio::error::would_block)
      m_eof = true;
  }

  std::optional<std::pair<uint8_t, std::string>> parse()
  {
    if (m_in.size() < 2)
      return std::nullopt;
    auto b = [&](size_t i) { return static_cast<uint8_t>(m_in[i]); };
    size_t len = b(1) & 0x7F, pos = 2;
    if (len == 126) {
      if (m_in.size() < 4)
        return std::nullopt;
      len = (size_t(b(2)) << 8) | b(3);
      pos = 4;
    }
    if (m_in.size() < pos + len)
      return std::nullopt;
    std::pair<uint8_t, std::string> frame{b(0) & 0x0F, m_in.substr(pos, len)};
    m_in.erase(0, pos + len);
    return frame;
  }

  asio::io_context& m_io;
  asio::ip::tcp::socket m_socket;
  std::string m_in;
  bool m_eof = false;
};

class WebSocketTest : public ::testing::Test
{
protected:
  /// Starts a channel on 127.0.0.1, an ephemeral port; transports go to `transports`.
  void listen(WebSocketChannelOptions options = {})
  {
    options.address = "127.0.0.1";
    options.port = 0;
    channel = std::make_unique<WebSocketChannel>(env, io, options);
    channel->listen([this](std::unique_ptr<SocketTransport> t) {
      t->onReceive = [this](ByteSpan f, face::EndpointId) { frames.emplace_back(f.begin(), f.end()); };
      transports.push_back(std::move(t));
    });
  }

  /// A client that has completed the handshake, and the server side's transport.
  std::unique_ptr<Client> connect()
  {
    auto c = std::make_unique<Client>(io, channel->localPort());
    std::string head = c->handshake();
    EXPECT_EQ(head.rfind("HTTP/1.1 101", 0), 0u) << head;
    // RFC 6455 section 1.3: the accept value of this key.
    EXPECT_NE(head.find("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), std::string::npos) << head;
    size_t before = transports.size();
    EXPECT_TRUE(runUntil(io, [&] { return transports.size() == before + 1; }));
    return c;
  }

  asio::io_context io;
  AsioEnv env{io, AsioEnvOptions{.seed = 1, .logLevel = LogLevel::Off}};
  std::unique_ptr<WebSocketChannel> channel;
  std::vector<std::unique_ptr<SocketTransport>> transports;
  std::vector<Buffer> frames;
};

TEST_F(WebSocketTest, LoopbackExchange)
{
  listen();
  uint16_t port = channel->localPort();
  ASSERT_NE(port, 0);
  EXPECT_EQ(channel->uri(), "ws://127.0.0.1:" + std::to_string(port));
  auto client = connect();
  ASSERT_EQ(transports.size(), 1u);
  SocketTransport& t = *transports[0];
  EXPECT_EQ(t.kind(), TransportKind::WebSocket);
  EXPECT_EQ(t.scope(), FaceScope::Local);
  EXPECT_EQ(t.persistency(), FacePersistency::OnDemand);
  EXPECT_EQ(t.localUri(), channel->uri());
  EXPECT_EQ(t.remoteUri().rfind("wsclient://127.0.0.1:", 0), 0u) << t.remoteUri();
  EXPECT_EQ(t.mtu(), face::MtuUnlimited);
  EXPECT_EQ(t.state(), TransportState::Up);

  // client -> server: one binary message, one frame (also one above 125 octets: 16-bit length)
  Buffer small = makeFrame(tlv::Interest, 40), large = makeFrame(tlv::Data, 3000);
  client->sendFrame(OpBinary, small);
  client->sendFrame(OpBinary, large);
  ASSERT_TRUE(runUntil(io, [&] { return frames.size() == 2; }));
  EXPECT_EQ(frames[0], small);
  EXPECT_EQ(frames[1], large);

  // server -> client: each frame is one binary message
  t.send(share(large));
  auto m = client->readFrame();
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first, OpBinary);
  EXPECT_EQ(m->second, std::string(large.begin(), large.end()));
  EXPECT_EQ(channel->nAccepted(), 1u);
}

TEST_F(WebSocketTest, MessagesThatAreNotOneTlvAreCountedDrops)
{
  listen();
  auto client = connect();
  SocketTransport& t = *transports[0];
  Buffer interest = makeFrame(tlv::Interest, 20);
  Buffer two = interest;
  two.insert(two.end(), interest.begin(), interest.end());
  client->sendFrame(OpText, interest);                                       // text, not binary
  client->sendFrame(OpBinary, two);                                          // two TLVs
  client->sendFrame(OpBinary, Buffer(interest.begin(), interest.end() - 1)); // truncated
  client->sendFrame(OpBinary, interest);
  ASSERT_TRUE(runUntil(io, [&] { return frames.size() == 1; }));
  EXPECT_EQ(frames[0], interest);
  EXPECT_EQ(t.ioCounters().nInvalidMessage, 3u);
  EXPECT_EQ(t.state(), TransportState::Up); // a bad message does not end the connection
}

TEST_F(WebSocketTest, FacesPerAddressAreBounded)
{
  WebSocketChannelOptions o;
  o.limits = {.maxFaces = 10, .maxFacesPerAddress = 1};
  listen(o);
  auto first = connect();
  Client second(io, channel->localPort());
  second.handshake();
  // refused right after the handshake: the server closes the connection, no face is made
  auto m = second.readFrame();
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first, OpClose);
  EXPECT_EQ(transports.size(), 1u);
  EXPECT_EQ(channel->admission()->counters().nTooManyFacesPerAddress, 1u);
  EXPECT_EQ(env.countingTrace().count(EventKind::IoDrop, DropReason::TooManyFacesPerAddress), 1u);
}

TEST_F(WebSocketTest, PeerCloseClosesTheTransport)
{
  listen();
  auto client = connect();
  SocketTransport& t = *transports[0];
  client->sendFrame(OpClose, std::string("\x03\xe8", 2)); // 1000, normal closure
  ASSERT_TRUE(runUntil(io, [&] { return t.state() == TransportState::Closed; }));
  EXPECT_EQ(t.closeReason(), "eof");
  auto reply = client->readFrame();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->first, OpClose); // the server completes the closing handshake
}

TEST_F(WebSocketTest, LocalCloseSendsACloseFrame)
{
  listen();
  auto client = connect();
  SocketTransport& t = *transports[0];
  t.close();
  EXPECT_EQ(t.state(), TransportState::Closing);
  ASSERT_TRUE(runUntil(io, [&] { return t.state() == TransportState::Closed; }));
  EXPECT_EQ(t.closeReason(), "closed_locally");
  auto m = client->readFrame();
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first, OpClose);
}

TEST_F(WebSocketTest, OversizedMessageFailsTheConnection)
{
  listen(WebSocketChannelOptions{.maxMessageSize = 1000});
  auto client = connect();
  SocketTransport& t = *transports[0];
  client->sendFrame(OpBinary, makeFrame(tlv::Data, 2000));
  ASSERT_TRUE(runUntil(io, [&] { return t.state() == TransportState::Closed; }));
  EXPECT_EQ(t.closeReason(), "frame_too_large");
  EXPECT_TRUE(frames.empty());
  auto m = client->readFrame();
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first, OpClose);
  EXPECT_EQ(m->second.substr(0, 2), std::string("\x03\xf1", 2)); // 1009, message too big
}

TEST_F(WebSocketTest, UnmaskedClientFrameIsAProtocolError)
{
  listen();
  auto client = connect();
  SocketTransport& t = *transports[0];
  Buffer f = makeFrame(tlv::Interest, 20);
  client->sendFrame(OpBinary, std::string(f.begin(), f.end()), false);
  ASSERT_TRUE(runUntil(io, [&] { return t.state() == TransportState::Closed; }));
  EXPECT_EQ(t.closeReason(), "protocol_error");
  EXPECT_TRUE(frames.empty());
}

TEST_F(WebSocketTest, AClientThatAnswersPingsStays)
{
  listen(WebSocketChannelOptions{.pingInterval = 20ms, .pongTimeout = 1000ms});
  auto client = connect();
  SocketTransport& t = *transports[0];
  for (int i = 0; i < 5; ++i) { // 5 pings over about 100 ms, each answered
    auto ping = client->readFrame();
    ASSERT_TRUE(ping);
    ASSERT_EQ(ping->first, OpPing);
    client->sendFrame(OpPong, ping->second);
  }
  EXPECT_EQ(t.state(), TransportState::Up);
}

TEST_F(WebSocketTest, AClientThatDoesNotAnswerPingsIsDropped)
{
  listen(WebSocketChannelOptions{.pingInterval = 20ms, .pongTimeout = 60ms});
  auto client = connect();
  SocketTransport& t = *transports[0];
  ASSERT_TRUE(runUntil(
    io, [&] { return t.state() == TransportState::Closed; }, 2000ms));
  EXPECT_EQ(t.closeReason(), "pong_timeout");
}

TEST_F(WebSocketTest, PlainHttpRequestMakesNoFace)
{
  listen();
  Client client(io, channel->localPort());
  std::string head = client.handshake(""); // no Upgrade
  EXPECT_EQ(head.rfind("HTTP/1.1 101", 0), std::string::npos) << head;
  test::runFor(io, 100ms);
  EXPECT_TRUE(transports.empty());
  EXPECT_EQ(channel->nAccepted(), 0u);
}

TEST_F(WebSocketTest, TransportsOutliveTheChannel)
{
  listen();
  auto client = connect();
  channel.reset(); // the face system may drop the channel first (shutdown)
  Buffer f = makeFrame(tlv::Interest, 30);
  client->sendFrame(OpBinary, f);
  ASSERT_TRUE(runUntil(io, [&] { return frames.size() == 1; }));
  transports.clear(); // and then the faces: the connection goes with the last one
  ASSERT_TRUE(runUntil(io, [&] { return client->closedByServer(); }));
}

} // namespace
} // namespace ndnlab::io
