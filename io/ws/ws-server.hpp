#pragma once
// WebSocket server endpoint (RFC 6455) for io/websocket-channel.hpp, on websocketpp.
// websocketpp 0.8.2 (Debian 12) does not compile as C++20, so ws-server.cpp is the one C++17
// translation unit of ndnlab (library ndnlab-ws; docs/decisions/0002). This header therefore
// uses nothing newer than C++17 and keeps websocketpp out of sight.

#include <asio/io_context.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace ndnlab::io::ws {

/// Identifies one accepted connection for the lifetime of its Server.
using ConnectionId = uint64_t;

struct ServerHandlers
{
  /// A client completed the opening handshake, from `address` (v4-mapped IPv6 shown as IPv4).
  std::function<void(ConnectionId, const std::string& address, uint16_t port)> onOpen;
  /// One whole message; `binary` false for a text message.
  std::function<void(ConnectionId, const uint8_t* data, size_t size, bool binary)> onMessage;
  /// The connection has ended. `reason`: "eof" after an orderly closing handshake (either side;
  /// `error` false), else `error` true and "frame_too_large" (a message above the limit),
  /// "protocol_error" (a frame the protocol forbids), "pong_timeout" (no answer to a ping) or
  /// "socket_error" (a reset, a broken handshake).
  std::function<void(ConnectionId, const std::string& reason, bool error)> onClose;
};

struct ServerOptions
{
  /// A message above this many bytes ends its connection.
  size_t maxMessageSize = 8800;
  /// Each connection is pinged this often (0: never); one that has not answered a ping within
  /// `pongTimeout` is dropped, so a client that vanished (a closed laptop, a NAT that forgot the
  /// connection) does not keep its face.
  std::chrono::milliseconds pingInterval{30000};
  std::chrono::milliseconds pongTimeout{10000};
};

class Server
{
public:
  /// Runs on `io`.
  Server(asio::io_context& io, ServerHandlers handlers, ServerOptions options);
  /// Stops listening and drops every connection without calling the handlers.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Binds `address`:`port` (port 0: an ephemeral one) and starts accepting; throws
  /// std::runtime_error naming the address on failure.
  void listen(const std::string& address, uint16_t port);
  void stopListening();
  bool isListening() const;
  /// The bound port (0 when not listening).
  uint16_t localPort() const;

  /// Queues one binary message; false when the connection is not open.
  bool send(ConnectionId id, const uint8_t* data, size_t size);
  /// Bytes queued on the connection and not yet written to its socket.
  size_t bufferedAmount(ConnectionId id) const;
  /// Starts the closing handshake (onClose follows); nothing when the connection is gone.
  void close(ConnectionId id);

private:
  struct Impl;
  std::shared_ptr<Impl> m_impl;
};

} // namespace ndnlab::io::ws
