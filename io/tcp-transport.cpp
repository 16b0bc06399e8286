#include "io/tcp-transport.hpp"

#include <asio/connect.hpp>

namespace ndnlab::io {

bool isLoopback(const asio::ip::address& a)
{
  if (a.is_v4())
    return a.to_v4().is_loopback();
  auto v6 = a.to_v6();
  if (v6.is_v4_mapped())
    return asio::ip::make_address_v4(asio::ip::v4_mapped, v6).is_loopback();
  return v6.is_loopback();
}

std::string tcpUri(const asio::ip::tcp::endpoint& ep)
{
  auto a = ep.address();
  if (a.is_v6() && a.to_v6().is_v4_mapped())
    a = asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
  if (a.is_v4())
    return "tcp4://" + a.to_string() + ":" + std::to_string(ep.port());
  return "tcp6://[" + a.to_string() + "]:" + std::to_string(ep.port());
}

TcpTransport::TcpTransport(Env& env, asio::ip::tcp::socket&& socket, const TransportInfo& info,
                           const StreamTransportOptions& options, std::optional<asio::ip::tcp::endpoint> remote,
                           TcpReconnectOptions reconnect)
  : StreamTransport(env, std::move(socket), info, options),
    m_remote(remote),
    m_reconnect(reconnect),
    m_delay(reconnect.initialDelay),
    m_retryTimer(m_socket.get_executor())
{}

TcpTransport::~TcpTransport()
{
  m_guard.reset();
  m_retryTimer.cancel();
}

void TcpTransport::close()
{
  m_retryTimer.cancel();
  StreamTransport::close();
}

void TcpTransport::handleFailure(CloseReason reason, bool isError)
{
  if (persistency() != face::FacePersistency::Permanent || !m_remote) {
    closeWithReason(reason, isError);
    return;
  }
  NDNLAB_LOG(m_env, LogLevel::Info, "io", remoteUri(), " down (", reason, "), reconnecting");
  closeSocket();
  clearQueues();
  auto g = guard();
  setState(face::TransportState::Down);
  if (g.expired())
    return;
  scheduleReconnect();
}

void TcpTransport::scheduleReconnect()
{
  m_retryTimer.expires_after(m_delay);
  m_delay = std::min(m_delay * 2, m_reconnect.maxDelay);
  m_retryTimer.async_wait([this, g = guard()](const std::error_code& ec) {
    if (g.expired() || ec)
      return;
    tryConnect();
  });
}

void TcpTransport::tryConnect()
{
  if (state() != face::TransportState::Down)
    return;
  m_socket = asio::ip::tcp::socket(m_retryTimer.get_executor());
  m_socket.async_connect(*m_remote, [this, g = guard()](const std::error_code& ec) {
    if (g.expired() || state() != face::TransportState::Down)
      return;
    if (ec) {
      std::error_code ignore;
      m_socket.close(ignore);
      scheduleReconnect();
      return;
    }
    ++m_ioCounters.nReconnects;
    m_delay = m_reconnect.initialDelay;
    NDNLAB_LOG(m_env, LogLevel::Info, "io", remoteUri(), " reconnected");
    adoptSocket(std::move(m_socket));
    setState(face::TransportState::Up);
  });
}

} // namespace ndnlab::io
