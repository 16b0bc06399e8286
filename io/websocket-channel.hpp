#pragma once
// WebSocket listener (NFD's default port 9696), for clients that cannot open a Unix or TCP
// socket: NDNts and other NDN libraries in a web browser. As in NFD, every message carries one
// whole NDN packet or NDNLPv2 frame (a binary message holding exactly one TLV); faces are
// on-demand, local when the client connects from a loopback address, and cannot be created by
// faces/create. Local URI "ws://<address>:<port>", remote "wsclient://<address>:<port>".
// The WebSocket protocol itself (handshake, framing, ping, closing) is websocketpp's
// (io/ws/ws-server.hpp).

#include "io/face-admission.hpp"
#include "io/socket-transport.hpp"
#include "io/tlv-framer.hpp"

#include <asio/io_context.hpp>

#include <memory>

namespace ndnlab::io {

struct WebSocketChannelOptions
{
  /// Listen address ("0.0.0.0" = all IPv4 interfaces, "::" = all, dual-stack).
  std::string address = "0.0.0.0";
  /// Listen port; 0 = an ephemeral port (see localPort()).
  uint16_t port = 9696;
  /// Largest message accepted, bytes; a larger one ends its connection (as a too-large frame
  /// ends a TCP face).
  size_t maxMessageSize = DefaultMaxFrameSize;
  /// Per-face bound on messages queued for sending, bytes; beyond it frames are dropped
  /// ("send_queue_full").
  size_t maxSendQueueBytes = 32 * 1024 * 1024;
  /// Each connection is pinged this often (0: never); one that does not answer within
  /// pongTimeout closes ("pong_timeout").
  Duration pingInterval = std::chrono::seconds(30);
  Duration pongTimeout = std::chrono::seconds(10);
  /// Bounds on faces: in all, and from one remote address; a connection past one is closed
  /// right after its handshake ("too_many_faces", "too_many_faces_per_address").
  FaceLimits limits{.maxFaces = 16384, .maxFacesPerAddress = 256};
};

struct WebSocketHub; // state shared by the channel and its transports (faces may outlive it)

class WebSocketChannel
{
public:
  WebSocketChannel(Env& env, asio::io_context& io, WebSocketChannelOptions options);
  ~WebSocketChannel();
  WebSocketChannel(const WebSocketChannel&) = delete;
  WebSocketChannel& operator=(const WebSocketChannel&) = delete;

  /// Binds and starts accepting; throws std::runtime_error on a bad address or bind failure.
  void listen(TransportCallback onCreated);
  /// Stops accepting; open faces stay until they close.
  void close();

  bool isListening() const;
  uint16_t localPort() const;
  /// "ws://<address>:<port>" of the listener.
  std::string uri() const;
  uint64_t nAccepted() const;
  /// Faces now, and refusals so far (null before listen()).
  const FaceAdmission* admission() const;

private:
  std::shared_ptr<WebSocketHub> m_hub;
};

} // namespace ndnlab::io
