#include "io/tcp-channel.hpp"

#include <asio/ip/v6_only.hpp>
#include <asio/steady_timer.hpp>

#include <stdexcept>

namespace ndnlab::io {

using asio::ip::tcp;

TcpChannel::TcpChannel(Env& env, asio::io_context& io, TcpChannelOptions options)
  : m_env(env), m_io(io), m_options(std::move(options)), m_acceptor(io)
{}

TcpChannel::~TcpChannel()
{
  m_guard.reset();
  close();
}

void TcpChannel::listen(TransportCallback onCreated)
{
  if (m_acceptor.is_open())
    return;
  m_onCreated = std::move(onCreated);
  std::error_code ec;
  auto addr = asio::ip::make_address(m_options.address, ec);
  if (ec)
    throw std::runtime_error("bad tcp listen address '" + m_options.address + "'");
  tcp::endpoint ep(addr, m_options.port);
  m_acceptor.open(ep.protocol(), ec);
  if (!ec)
    m_acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec && addr.is_v6()) {
    std::error_code ignore;
    m_acceptor.set_option(asio::ip::v6_only(false), ignore);
  }
  if (!ec)
    m_acceptor.bind(ep, ec);
  if (!ec)
    m_acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    std::error_code ignore;
    m_acceptor.close(ignore);
    throw std::runtime_error("cannot listen on tcp " + m_options.address + ":" + std::to_string(m_options.port) + ": " +
                             ec.message());
  }
  NDNLAB_LOG(m_env, LogLevel::Info, "io", "listening on ", uri());
  m_admission.emplace(m_env, m_options.limits, uri());
  accept();
}

tcp::endpoint TcpChannel::localEndpoint() const
{
  std::error_code ec;
  auto ep = m_acceptor.local_endpoint(ec);
  return ec ? tcp::endpoint() : ep;
}

std::string TcpChannel::uri() const
{
  return tcpUri(localEndpoint());
}

void TcpChannel::close()
{
  std::error_code ec;
  if (m_acceptor.is_open())
    m_acceptor.close(ec);
}

std::unique_ptr<SocketTransport> TcpChannel::makeTransport(tcp::socket&& s, face::FacePersistency p, bool outgoing)
{
  std::error_code ec;
  auto remote = s.remote_endpoint(ec);
  auto local = s.local_endpoint(ec);
  TransportInfo info;
  info.kind = TransportKind::Tcp;
  info.localUri = tcpUri(local);
  info.remoteUri = tcpUri(remote);
  info.scope = isLoopback(remote.address()) ? face::FaceScope::Local : face::FaceScope::NonLocal;
  info.persistency = p;
  std::optional<tcp::endpoint> reconnectTo;
  StreamTransportOptions stream = m_options.stream;
  if (outgoing)
    reconnectTo = remote;
  else
    stream.idleTimeout = m_options.idleTimeout;
  return std::make_unique<TcpTransport>(m_env, std::move(s), info, stream, reconnectTo, m_options.reconnect);
}

void TcpChannel::accept()
{
  m_acceptor.async_accept([this](const std::error_code& ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !m_acceptor.is_open())
      return;
    if (ec) {
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", "accept on ", uri(), " failed: ", ec.message());
      auto t = std::make_shared<asio::steady_timer>(m_io, std::chrono::milliseconds(100));
      t->async_wait([this, t, g = std::weak_ptr<char>(m_guard)](const std::error_code& e) {
        if (!e && !g.expired() && m_acceptor.is_open())
          accept();
      });
      return;
    }
    std::error_code e;
    const auto remote = socket.remote_endpoint(e);
    auto ticket = m_admission->admit(e ? std::string() : remote.address().to_string());
    if (!ticket) {
      socket.close(e); // refused: counted and logged by the admission
      accept();
      return;
    }
    ++m_nAccepted;
    auto transport = makeTransport(std::move(socket), face::FacePersistency::OnDemand, false);
    transport->holdAdmission(std::move(ticket));
    accept();
    if (m_onCreated)
      m_onCreated(std::move(transport));
  });
}

void TcpChannel::connect(const tcp::endpoint& remote, face::FacePersistency persistency, ConnectCallback done)
{
  struct Pending
  {
    tcp::socket socket;
    asio::steady_timer timer;
    bool finished = false;
  };
  auto p = std::make_shared<Pending>(Pending{tcp::socket(m_io), asio::steady_timer(m_io)});
  p->timer.expires_after(m_options.connectTimeout);
  p->timer.async_wait([p](const std::error_code& ec) {
    if (!ec && !p->finished) {
      std::error_code ignore;
      p->socket.close(ignore); // completes the connect with operation_aborted
    }
  });
  p->socket.async_connect(remote, [this, p, persistency, done = std::move(done),
                                   g = std::weak_ptr<char>(m_guard)](const std::error_code& ec) {
    bool timedOut = !p->socket.is_open();
    p->finished = true;
    p->timer.cancel();
    if (g.expired())
      return;
    if (ec) {
      done(nullptr, timedOut ? "connect timeout" : "connect failed: " + ec.message());
      return;
    }
    done(makeTransport(std::move(p->socket), persistency, true), {});
  });
}

} // namespace ndnlab::io
