#pragma once
// TCP listener (NFD default port 6363) and outgoing TCP connections for faces/create.
// Accepted faces are on-demand; faces from a loopback address are local, others non-local.
// Accepted faces are bounded (limits: in all, and per remote address; refused connections are
// closed at once and counted) and closed after idleTimeout without receiving anything.

#include "io/face-admission.hpp"
#include "io/tcp-transport.hpp"

#include <asio/io_context.hpp>

namespace ndnlab::io {

struct TcpChannelOptions
{
  /// Listen address ("0.0.0.0" = all IPv4 interfaces, "::" = all, dual-stack).
  std::string address = "0.0.0.0";
  /// Listen port; 0 = an ephemeral port (see localEndpoint()).
  uint16_t port = 6363;
  /// Outgoing connections that take longer fail.
  Duration connectTimeout = std::chrono::seconds(10);
  /// Options of the created transports.
  StreamTransportOptions stream;
  /// Reconnect policy of permanent outgoing faces.
  TcpReconnectOptions reconnect;
  /// Bounds on accepted faces: in all, and from one remote address (faces/create's outgoing
  /// faces do not count).
  FaceLimits limits{.maxFaces = 16384, .maxFacesPerAddress = 256};
  /// Accepted faces that receive nothing this long are closed ("idle_timeout"); 0 = never.
  Duration idleTimeout = std::chrono::seconds(600);
};

class TcpChannel
{
public:
  TcpChannel(Env& env, asio::io_context& io, TcpChannelOptions options);
  ~TcpChannel();
  TcpChannel(const TcpChannel&) = delete;
  TcpChannel& operator=(const TcpChannel&) = delete;

  /// Binds and starts accepting; throws std::runtime_error on a bad address or bind failure.
  void listen(TransportCallback onCreated);
  void close();

  /// Connects to `remote`; calls `done` with the transport, or nullptr and a reason.
  using ConnectCallback = std::function<void(std::unique_ptr<SocketTransport>, std::string error)>;
  void connect(const asio::ip::tcp::endpoint& remote, face::FacePersistency persistency, ConnectCallback done);

  bool isListening() const { return m_acceptor.is_open(); }
  asio::ip::tcp::endpoint localEndpoint() const;
  /// "tcp4://<address>:<port>" of the listener.
  std::string uri() const;
  uint64_t nAccepted() const { return m_nAccepted; }
  /// Accepted faces now, and refusals so far (null before listen()).
  const FaceAdmission* admission() const { return m_admission ? &*m_admission : nullptr; }

private:
  void accept();
  std::unique_ptr<SocketTransport> makeTransport(asio::ip::tcp::socket&& s, face::FacePersistency p, bool outgoing);

  Env& m_env;
  asio::io_context& m_io;
  TcpChannelOptions m_options;
  asio::ip::tcp::acceptor m_acceptor;
  TransportCallback m_onCreated;
  std::optional<FaceAdmission> m_admission;
  uint64_t m_nAccepted = 0;
  std::shared_ptr<char> m_guard = std::make_shared<char>(0);
};

} // namespace ndnlab::io
