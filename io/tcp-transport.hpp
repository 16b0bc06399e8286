#pragma once
// TCP transport: a StreamTransport over asio::ip::tcp. Faces accepted from a loopback address
// are local (NFD rule), others non-local. A permanent face that knows its remote endpoint
// reconnects after EOF or an error: state Down, retries with exponential backoff, Up again
// on success (frames sent while Down are dropped).

#include "io/stream-transport.hpp"

#include <asio/steady_timer.hpp>

#include <optional>

namespace ndnlab::io {

struct TcpReconnectOptions
{
  /// First retry delay after a permanent face goes down.
  Duration initialDelay = std::chrono::seconds(1);
  /// Retry delay doubles up to this bound.
  Duration maxDelay = std::chrono::seconds(60);
};

class TcpTransport final : public StreamTransport<asio::ip::tcp>
{
public:
  /// `remote` set: the face may reconnect when permanent.
  TcpTransport(Env& env, asio::ip::tcp::socket&& socket, const TransportInfo& info,
               const StreamTransportOptions& options = {}, std::optional<asio::ip::tcp::endpoint> remote = std::nullopt,
               TcpReconnectOptions reconnect = {});
  ~TcpTransport() override;

  void close() override;

protected:
  void handleFailure(CloseReason reason, bool isError) override;

private:
  void scheduleReconnect();
  void tryConnect();

  std::optional<asio::ip::tcp::endpoint> m_remote;
  TcpReconnectOptions m_reconnect;
  Duration m_delay;
  asio::steady_timer m_retryTimer;
};

/// True for 127.0.0.0/8, ::1 and IPv4-mapped loopback.
bool isLoopback(const asio::ip::address& a);
/// NFD canonical URI of a TCP endpoint: tcp4://a.b.c.d:port or tcp6://[addr]:port.
std::string tcpUri(const asio::ip::tcp::endpoint& ep);

} // namespace ndnlab::io
