#include "io/websocket-channel.hpp"

#include "io/tcp-transport.hpp"
#include "io/ws/ws-server.hpp"

#include <map>

namespace ndnlab::io {

class WebSocketTransport;

struct WebSocketHub
{
  WebSocketHub(Env& e, WebSocketChannelOptions o) : env(e), options(std::move(o)) {}

  Env& env;
  WebSocketChannelOptions options;
  std::string localUri;
  TransportCallback onCreated;
  uint64_t nAccepted = 0;
  std::optional<FaceAdmission> admission;
  std::map<ws::ConnectionId, WebSocketTransport*> transports;
  std::unique_ptr<ws::Server> server; // its handlers hold the hub weakly
};

/// One accepted WebSocket connection. A message is delivered as one frame when it is a binary
/// message holding exactly one TLV; anything else is a counted drop ("invalid_message") and the
/// connection goes on. Closing: the peer's close or a failure -> Closing/Failed, then Closed
/// (SocketTransport::closeNextTurn).
class WebSocketTransport : public SocketTransport
{
public:
  WebSocketTransport(std::shared_ptr<WebSocketHub> hub, ws::ConnectionId id, const TransportInfo& info)
    : SocketTransport(hub->env, info), m_hub(std::move(hub)), m_id(id)
  {
    m_hub->transports[m_id] = this;
  }

  ~WebSocketTransport() override
  {
    m_guard.reset();
    m_hub->transports.erase(m_id);
    m_hub->server->close(m_id);
  }

  void close() override
  {
    if (isGoingAway())
      return;
    recordClose(CloseReason::ClosedLocally, LogLevel::Debug);
    m_hub->server->close(m_id);
    closeNextTurn(face::TransportState::Closing);
  }

  size_t sendQueueLength() const override { return m_hub->server->bufferedAmount(m_id); }

  void handleMessage(const uint8_t* data, size_t size, bool binary)
  {
    if (state() != face::TransportState::Up)
      return; // a message that crossed our close frame
    ByteSpan message(data, size);
    FrameCheck c = checkFrame(message, m_hub->options.maxMessageSize);
    if (!binary || c.status != FrameStatus::Complete || c.size != size) {
      ++m_ioCounters.nInvalidMessage;
      traceDrop(DropReason::InvalidMessage, static_cast<int64_t>(size));
      return;
    }
    receive(message);
  }

  void handleClose(const std::string& reason, bool error)
  {
    if (isGoingAway())
      return;
    recordClose(parseCloseReason(reason).value_or(CloseReason::SocketError), error ? LogLevel::Info : LogLevel::Debug);
    closeNextTurn(error ? face::TransportState::Failed : face::TransportState::Closing);
  }

protected:
  void doSend(SharedBuffer frame, face::EndpointId) override
  {
    if (state() != face::TransportState::Up)
      return;
    if (m_hub->server->bufferedAmount(m_id) + frame->size() > m_hub->options.maxSendQueueBytes) {
      ++m_ioCounters.nSendQueueFull;
      traceDrop(DropReason::SendQueueFull, static_cast<int64_t>(frame->size()));
      return;
    }
    if (!m_hub->server->send(m_id, frame->data(), frame->size())) {
      ++m_ioCounters.nSendErrors;
      traceDrop(DropReason::SendError, static_cast<int64_t>(frame->size()));
    }
  }

private:
  std::shared_ptr<WebSocketHub> m_hub;
  ws::ConnectionId m_id;
};

namespace {

/// "<scheme>://<address>:<port>", an IPv6 address in brackets.
std::string uriOf(std::string_view scheme, const std::string& address, uint16_t port)
{
  std::error_code ec;
  auto addr = asio::ip::make_address(address, ec);
  bool v6 = !ec && addr.is_v6();
  return std::string(scheme) + "://" + (v6 ? "[" + address + "]" : address) + ":" + std::to_string(port);
}

ws::ServerHandlers handlersOf(const std::shared_ptr<WebSocketHub>& shared)
{
  std::weak_ptr<WebSocketHub> weak = shared;
  ws::ServerHandlers h;
  h.onOpen = [weak](ws::ConnectionId id, const std::string& address, uint16_t port) {
    auto hub = weak.lock();
    if (!hub)
      return;
    auto ticket = hub->admission ? hub->admission->admit(address) : nullptr;
    if (!ticket) {
      hub->server->close(id); // refused: counted and logged by the admission
      return;
    }
    ++hub->nAccepted;
    std::error_code ec;
    auto addr = asio::ip::make_address(address, ec);
    TransportInfo info;
    info.kind = TransportKind::WebSocket;
    info.localUri = hub->localUri;
    info.remoteUri = uriOf("wsclient", address, port);
    info.scope = !ec && isLoopback(addr) ? face::FaceScope::Local : face::FaceScope::NonLocal;
    info.persistency = face::FacePersistency::OnDemand;
    auto transport = std::make_unique<WebSocketTransport>(hub, id, info);
    transport->holdAdmission(std::move(ticket));
    if (hub->onCreated)
      hub->onCreated(std::move(transport));
  };
  h.onMessage = [weak](ws::ConnectionId id, const uint8_t* data, size_t size, bool binary) {
    auto hub = weak.lock();
    if (!hub)
      return;
    if (auto it = hub->transports.find(id); it != hub->transports.end())
      it->second->handleMessage(data, size, binary);
  };
  h.onClose = [weak](ws::ConnectionId id, const std::string& reason, bool error) {
    auto hub = weak.lock();
    if (!hub)
      return;
    if (auto it = hub->transports.find(id); it != hub->transports.end())
      it->second->handleClose(reason, error);
  };
  return h;
}

} // namespace

WebSocketChannel::WebSocketChannel(Env& env, asio::io_context& io, WebSocketChannelOptions options)
  : m_hub(std::make_shared<WebSocketHub>(env, std::move(options)))
{
  const WebSocketChannelOptions& o = m_hub->options;
  ws::ServerOptions serverOptions;
  serverOptions.maxMessageSize = o.maxMessageSize;
  serverOptions.pingInterval = std::chrono::duration_cast<std::chrono::milliseconds>(o.pingInterval);
  serverOptions.pongTimeout = std::chrono::duration_cast<std::chrono::milliseconds>(o.pongTimeout);
  m_hub->server = std::make_unique<ws::Server>(io, handlersOf(m_hub), serverOptions);
}

WebSocketChannel::~WebSocketChannel()
{
  close();
  m_hub->onCreated = nullptr;
}

void WebSocketChannel::listen(TransportCallback onCreated)
{
  if (isListening())
    return;
  m_hub->onCreated = std::move(onCreated);
  m_hub->server->listen(m_hub->options.address, m_hub->options.port);
  m_hub->localUri = uriOf("ws", m_hub->options.address, m_hub->server->localPort());
  m_hub->admission.emplace(m_hub->env, m_hub->options.limits, m_hub->localUri);
  NDNLAB_LOG(m_hub->env, LogLevel::Info, "io", "listening on ", uri());
}

void WebSocketChannel::close()
{
  m_hub->server->stopListening();
}

bool WebSocketChannel::isListening() const
{
  return m_hub->server->isListening();
}

uint16_t WebSocketChannel::localPort() const
{
  return m_hub->server->localPort();
}

std::string WebSocketChannel::uri() const
{
  return m_hub->localUri;
}

uint64_t WebSocketChannel::nAccepted() const
{
  return m_hub->nAccepted;
}

const FaceAdmission* WebSocketChannel::admission() const
{
  return m_hub->admission ? &*m_hub->admission : nullptr;
}

} // namespace ndnlab::io
