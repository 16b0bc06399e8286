#include "io/ws/ws-server.hpp"

#include <websocketpp/config/asio_no_tls.hpp>
#include <websocketpp/server.hpp>

#include <asio/steady_timer.hpp>

#include <map>
#include <set>
#include <stdexcept>

namespace ndnlab::io::ws {

namespace {

using Endpoint = websocketpp::server<websocketpp::config::asio>;
using Handle = websocketpp::connection_hdl;
using HandleLess = std::owner_less<Handle>;

} // namespace

struct Server::Impl : std::enable_shared_from_this<Impl>
{
  Impl(asio::io_context& i, ServerOptions o) : io(i), options(o) {}

  asio::io_context& io;
  ServerOptions options;
  Endpoint endpoint;
  ServerHandlers handlers;
  std::map<ConnectionId, Handle> byId;
  std::map<Handle, ConnectionId, HandleLess> byHandle;
  std::map<ConnectionId, std::unique_ptr<asio::steady_timer>> pingTimers;
  std::set<ConnectionId> timedOut; ///< dropped for not answering a ping
  ConnectionId nextId = 1;
  uint16_t port = 0;

  /// Pings connection `id` after the ping interval. The next ping is scheduled when the pong
  /// comes (websocketpp's pong timer covers one ping at a time).
  void schedulePing(ConnectionId id)
  {
    auto it = pingTimers.find(id);
    if (it == pingTimers.end())
      return;
    it->second->expires_after(options.pingInterval);
    it->second->async_wait([weak = weak_from_this(), id](const std::error_code& ec) {
      auto impl = weak.lock();
      if (ec || !impl)
        return;
      if (auto con = impl->connection(id)) {
        std::error_code ignore;
        con->ping("", ignore);
      }
    });
  }

  Endpoint::connection_ptr connection(ConnectionId id) const
  {
    auto it = byId.find(id);
    if (it == byId.end())
      return nullptr;
    std::error_code ec;
    auto con = const_cast<Endpoint&>(endpoint).get_con_from_hdl(it->second, ec);
    return ec ? nullptr : con;
  }

  /// Why the connection `h` ended: "eof" after an orderly closing handshake, else the failure.
  std::string reasonOf(Handle h, bool failed)
  {
    namespace status = websocketpp::close::status;
    std::error_code ec;
    auto con = endpoint.get_con_from_hdl(h, ec);
    if (ec)
      return "socket_error";
    if (auto it = byHandle.find(h); it != byHandle.end() && timedOut.count(it->second))
      return "pong_timeout";
    switch (con->get_local_close_code()) {
      case status::message_too_big: return "frame_too_large";
      case status::protocol_error:
      case status::invalid_payload:
      case status::unsupported_data:
      case status::policy_violation: return "protocol_error";
      case status::normal:
      case status::going_away:
      case status::no_status: return failed ? "socket_error" : "eof";
      default: return "socket_error";
    }
  }

  /// The close or fail handler of connection `h`.
  void ended(Handle h, bool failed)
  {
    auto it = byHandle.find(h);
    if (it == byHandle.end())
      return; // the handshake never completed: no onOpen, so no onClose
    ConnectionId id = it->second;
    std::string reason = reasonOf(h, failed);
    byHandle.erase(it);
    byId.erase(id);
    pingTimers.erase(id);
    timedOut.erase(id);
    handlers.onClose(id, reason, reason != "eof");
  }
};

Server::Server(asio::io_context& io, ServerHandlers handlers, ServerOptions options)
  : m_impl(std::make_shared<Impl>(io, options))
{
  Impl& s = *m_impl;
  s.handlers = std::move(handlers);
  s.endpoint.clear_access_channels(websocketpp::log::alevel::all);
  s.endpoint.clear_error_channels(websocketpp::log::elevel::all);
  s.endpoint.init_asio(&io);
  s.endpoint.set_reuse_addr(true);
  s.endpoint.set_max_message_size(options.maxMessageSize);
  s.endpoint.set_pong_timeout(static_cast<long>(options.pongTimeout.count()));
  // Handlers run on `io`; they hold the Impl weakly, so none runs after ~Server.
  std::weak_ptr<Impl> weak = m_impl;
  s.endpoint.set_open_handler([weak](Handle h) {
    auto impl = weak.lock();
    if (!impl)
      return;
    std::error_code ec;
    auto con = impl->endpoint.get_con_from_hdl(h, ec);
    if (ec)
      return;
    auto remote = con->get_raw_socket().remote_endpoint(ec);
    if (ec) { // already reset by the peer
      con->terminate(ec);
      return;
    }
    asio::ip::address address = remote.address();
    if (address.is_v6() && address.to_v6().is_v4_mapped())
      address = asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
    ConnectionId id = impl->nextId++;
    impl->byId.emplace(id, h);
    impl->byHandle.emplace(h, id);
    if (impl->options.pingInterval.count() > 0) {
      impl->pingTimers.emplace(id, std::make_unique<asio::steady_timer>(impl->io));
      impl->schedulePing(id);
    }
    impl->handlers.onOpen(id, address.to_string(), remote.port());
  });
  s.endpoint.set_message_handler([weak](Handle h, Endpoint::message_ptr msg) {
    auto impl = weak.lock();
    if (!impl)
      return;
    auto it = impl->byHandle.find(h);
    if (it == impl->byHandle.end())
      return;
    const std::string& payload = msg->get_payload();
    impl->handlers.onMessage(it->second, reinterpret_cast<const uint8_t*>(payload.data()), payload.size(),
                             msg->get_opcode() == websocketpp::frame::opcode::binary);
  });
  s.endpoint.set_close_handler([weak](Handle h) {
    if (auto impl = weak.lock())
      impl->ended(h, false);
  });
  s.endpoint.set_fail_handler([weak](Handle h) {
    if (auto impl = weak.lock())
      impl->ended(h, true);
  });
  s.endpoint.set_pong_handler([weak](Handle h, std::string) {
    auto impl = weak.lock();
    if (!impl)
      return;
    if (auto it = impl->byHandle.find(h); it != impl->byHandle.end())
      impl->schedulePing(it->second);
  });
  s.endpoint.set_pong_timeout_handler([weak](Handle h, std::string) {
    auto impl = weak.lock();
    if (!impl)
      return;
    auto it = impl->byHandle.find(h);
    std::error_code ec;
    auto con = impl->endpoint.get_con_from_hdl(h, ec);
    if (it == impl->byHandle.end() || ec)
      return;
    impl->timedOut.insert(it->second);
    con->terminate(ec);
  });
}

Server::~Server()
{
  Impl& s = *m_impl;
  stopListening();
  // Forget the connections first: terminate() may call the close handler at once.
  auto open = std::move(s.byId);
  s.byId.clear();
  s.byHandle.clear();
  s.pingTimers.clear();
  std::error_code ec;
  for (auto& [id, h] : open) {
    if (auto con = s.endpoint.get_con_from_hdl(h, ec))
      con->terminate(ec);
  }
}

void Server::listen(const std::string& address, uint16_t port)
{
  Impl& s = *m_impl;
  std::error_code ec;
  auto addr = asio::ip::make_address(address, ec);
  if (ec)
    throw std::runtime_error("WebSocket listen address '" + address + "': " + ec.message());
  s.endpoint.listen(asio::ip::tcp::endpoint(addr, port), ec);
  if (ec)
    throw std::runtime_error("cannot listen for WebSocket on " + address + ":" + std::to_string(port) + ": " +
                             ec.message());
  auto local = s.endpoint.get_local_endpoint(ec);
  s.port = ec ? port : local.port();
  s.endpoint.start_accept(ec);
  if (ec)
    throw std::runtime_error("cannot accept WebSocket connections: " + ec.message());
}

void Server::stopListening()
{
  std::error_code ec;
  if (m_impl->endpoint.is_listening())
    m_impl->endpoint.stop_listening(ec);
  m_impl->port = 0;
}

bool Server::isListening() const
{
  return m_impl->endpoint.is_listening();
}

uint16_t Server::localPort() const
{
  return m_impl->port;
}

bool Server::send(ConnectionId id, const uint8_t* data, size_t size)
{
  auto con = m_impl->connection(id);
  if (!con || con->get_state() != websocketpp::session::state::open)
    return false;
  return !con->send(data, size, websocketpp::frame::opcode::binary);
}

size_t Server::bufferedAmount(ConnectionId id) const
{
  auto con = m_impl->connection(id);
  return con ? con->get_buffered_amount() : 0;
}

void Server::close(ConnectionId id)
{
  auto con = m_impl->connection(id);
  if (!con)
    return;
  std::error_code ec;
  if (con->get_state() == websocketpp::session::state::open)
    con->close(websocketpp::close::status::going_away, "", ec);
  else
    con->terminate(ec);
}

} // namespace ndnlab::io::ws
