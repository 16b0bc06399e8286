#pragma once
// Listens on a Unix stream socket (NFD default /run/nfd/nfd.sock, so python-ndn, NDNts and
// ndn-cxx clients connect with no configuration). Every accepted connection becomes a local,
// on-demand UnixStreamTransport. A stale socket file (nobody accepting) is replaced; a live
// one (another forwarder) is an error. The socket file is removed when the channel closes.

#include "io/face-admission.hpp"
#include "io/stream-transport.hpp"

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>

namespace ndnlab::io {

struct UnixChannelOptions
{
  /// Socket path; parent directories are created.
  std::string path = "/run/nfd/nfd.sock";
  /// Options of the accepted transports.
  StreamTransportOptions stream;
  /// Bound on accepted faces (all local: no per-address bound); further connections are
  /// refused ("too_many_faces").
  size_t maxFaces = 4096;
};

class UnixStreamChannel
{
public:
  UnixStreamChannel(Env& env, asio::io_context& io, UnixChannelOptions options);
  ~UnixStreamChannel();
  UnixStreamChannel(const UnixStreamChannel&) = delete;
  UnixStreamChannel& operator=(const UnixStreamChannel&) = delete;

  /// Binds and starts accepting. Throws std::runtime_error (with the path and cause) when the
  /// directory cannot be created, the path is in use by a live listener, or bind fails.
  void listen(TransportCallback onCreated);
  /// Stops accepting and removes the socket file (idempotent).
  void close();

  bool isListening() const { return m_acceptor.is_open(); }
  const std::string& path() const { return m_options.path; }
  /// "unix://<path>".
  std::string uri() const { return "unix://" + m_options.path; }
  uint64_t nAccepted() const { return m_nAccepted; }
  /// Accepted faces now, and refusals so far (null before listen()).
  const FaceAdmission* admission() const { return m_admission ? &*m_admission : nullptr; }

private:
  void accept();

  Env& m_env;
  asio::io_context& m_io;
  UnixChannelOptions m_options;
  asio::local::stream_protocol::acceptor m_acceptor;
  asio::steady_timer m_retry;
  TransportCallback m_onCreated;
  std::optional<FaceAdmission> m_admission;
  uint64_t m_nAccepted = 0;
  bool m_ownsFile = false;
};

} // namespace ndnlab::io
