#include "io/ethernet-channel.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ndnlab::io {

/// State shared by a channel and its faces (faces may outlive the channel).
struct EthernetShared
{
  EthernetShared(asio::io_context& io, NetworkInterface i)
    : socket(io), iface(std::move(i)), sender(std::make_shared<EthernetSendQueue>(socket))
  {}
  asio::generic::raw_protocol::socket socket;
  NetworkInterface iface;
  std::shared_ptr<EthernetSendQueue> sender;
  DatagramFaces<MacAddress, EthernetUnicastTransport> faces;
};

// --- EthernetUnicastTransport --------------------------------------------------------------

EthernetUnicastTransport::EthernetUnicastTransport(Env& env, std::shared_ptr<EthernetShared> shared,
                                                   const MacAddress& remote, const TransportInfo& info,
                                                   Duration idleTimeout)
  : SocketTransport(env, info),
    m_shared(std::move(shared)),
    m_remote(remote),
    m_header(ethernetHeader(remote, m_shared->iface.mac))
{
  m_shared->faces.add(m_remote, this);
  startIdleCheck(idleTimeout);
}

EthernetUnicastTransport::~EthernetUnicastTransport()
{
  m_guard.reset();
  unregister();
}

void EthernetUnicastTransport::unregister()
{
  m_shared->faces.remove(m_remote, this);
}

void EthernetUnicastTransport::deliver(ByteSpan payload)
{
  if (state() != face::TransportState::Up)
    return;
  receive(payload);
}

void EthernetUnicastTransport::doSend(SharedBuffer frame, face::EndpointId)
{
  if (!m_shared->socket.is_open()) {
    countSendError(frame->size());
    return;
  }
  m_shared->sender->send(m_header, std::move(frame), guard(), this);
}

void EthernetUnicastTransport::countSendError(size_t bytes)
{
  ++m_ioCounters.nSendErrors;
  traceDrop(DropReason::SendError, static_cast<int64_t>(bytes));
}

void EthernetUnicastTransport::fail()
{
  if (isGoingAway())
    return;
  recordClose(CloseReason::SocketError, LogLevel::Warn);
  stopIdleCheck();
  unregister();
  closeNextTurn(face::TransportState::Failed);
}

void EthernetUnicastTransport::close()
{
  if (isGoingAway())
    return;
  recordClose(CloseReason::ClosedLocally, LogLevel::Debug);
  stopIdleCheck();
  unregister();
  closeNextTurn(face::TransportState::Closing);
}

// --- EthernetChannel -----------------------------------------------------------------------

EthernetChannel::EthernetChannel(Env& env, asio::io_context& io, NetworkInterface iface, EthernetChannelOptions options)
  : m_env(env),
    m_io(io),
    m_options(std::move(options)),
    m_shared(std::make_shared<EthernetShared>(io, std::move(iface))),
    m_admission(env, "face_system.ether.max_on_demand_faces")
{}

EthernetChannel::~EthernetChannel()
{
  m_guard.reset();
  close();
}

void EthernetChannel::listen(TransportCallback onCreated)
{
  if (m_shared->socket.is_open())
    return;
  m_onCreated = std::move(onCreated);
  std::string warning;
  m_shared->socket =
    openEthernetSocket(m_io, m_shared->iface, m_shared->iface.mac, m_options.socketBufferSize, warning);
  if (!warning.empty())
    NDNLAB_LOG(m_env, LogLevel::Warn, "io", warning);
  m_batch = std::make_unique<EthernetReceiveBatch>(m_options.maxFramesPerWakeup, m_shared->iface.mtu);
  NDNLAB_LOG(m_env, LogLevel::Info, "io", "listening on ", uri(), " (", m_shared->iface.mac.toString(), ", MTU ",
             m_shared->iface.mtu, m_shared->iface.up ? "" : ", interface down", ")");
  waitReadable();
}

void EthernetChannel::close()
{
  std::error_code ec;
  if (m_shared->socket.is_open())
    m_shared->socket.close(ec);
}

bool EthernetChannel::isListening() const
{
  return m_shared->socket.is_open();
}

const NetworkInterface& EthernetChannel::interface() const
{
  return m_shared->iface;
}

std::string EthernetChannel::uri() const
{
  return devUri(m_shared->iface.name);
}

size_t EthernetChannel::size() const
{
  return m_shared->faces.size();
}

size_t EthernetChannel::onDemandFaces() const
{
  return m_shared->faces.onDemand();
}

EthernetUnicastTransport* EthernetChannel::find(const MacAddress& remote) const
{
  return m_shared->faces.find(remote);
}

void EthernetChannel::waitReadable()
{
  m_shared->socket.async_wait(asio::socket_base::wait_read,
                              [this, g = std::weak_ptr<char>(m_guard)](const std::error_code& ec) {
                                if (g.expired() || ec == asio::error::operation_aborted)
                                  return;
                                if (!m_shared->socket.is_open())
                                  return;
                                drain();
                                if (!g.expired() && m_shared->socket.is_open())
                                  waitReadable();
                              });
}

void EthernetChannel::drain()
{
  auto g = std::weak_ptr<char>(m_guard);
  // a frame cut at the buffer's capacity is longer than MTU + header: dispatch drops it
  auto r = m_batch->drain(m_shared->socket.native_handle(), m_shared->iface, m_options.maxFramesPerWakeup,
                          [&](ByteSpan frame) {
                            dispatch(frame);
                            return !g.expired() && m_shared->socket.is_open();
                          });
  using End = EthernetReceiveBatch::End;
  if (r.end == End::Gone)
    return failAll(r.error == ENODEV ? "deleted" : std::strerror(r.error));
  if (r.end == End::Error)
    NDNLAB_LOG(m_env, LogLevel::Warn, "io", uri(), " receive error: ", std::strerror(r.error));
  if (r.end == End::Down) { // once each time the interface goes down; it may come back up
    NDNLAB_LOG(m_env, LogLevel::Warn, "io", uri(), " is down");
    watchDownInterface(m_env, m_shared->iface, m_guard, [this] { failAll("deleted"); });
  }
}

void EthernetChannel::failAll(const std::string& why)
{
  if (!isListening())
    return;
  NDNLAB_LOG(m_env, LogLevel::Error, "io", uri(), " is gone (", why, "): its Ethernet faces fail");
  for (auto* t : m_shared->faces.all())
    t->fail();
  close();
}

std::unique_ptr<EthernetUnicastTransport> EthernetChannel::makeTransport(const MacAddress& remote,
                                                                         face::FacePersistency p)
{
  TransportInfo info;
  info.kind = TransportKind::EtherUnicast;
  info.localUri = uri();
  info.remoteUri = etherUri(remote);
  info.scope = face::FaceScope::NonLocal;
  info.persistency = p;
  info.linkType = face::LinkType::PointToPoint;
  info.mtu = static_cast<ssize_t>(m_shared->iface.mtu);
  return std::make_unique<EthernetUnicastTransport>(m_env, m_shared, remote, info, m_options.idleTimeout);
}

void EthernetChannel::dispatch(ByteSpan frame)
{
  EthernetRxFrame f = parseEthernetFrame(frame, m_shared->iface.mac, m_shared->iface.mtu);
  EthernetUnicastTransport* face = f.verdict == EthernetRx::Runt ? nullptr : find(f.source);
  switch (f.verdict) {
    case EthernetRx::Accept: break;
    case EthernetRx::OwnFrame:
    case EthernetRx::OtherEtherType: return;
    case EthernetRx::Runt:
    case EthernetRx::Oversize:
    case EthernetRx::BadPayload: {
      const DropReason reason = *dropReason(f.verdict);
      if (face != nullptr) { // a known peer's frame: the face counts it
        uint64_t& c = reason == DropReason::RuntFrame       ? face->m_ioCounters.nRuntFrames
                      : reason == DropReason::OversizeFrame ? face->m_ioCounters.nOversizeFrames
                                                            : face->m_ioCounters.nInvalidDatagram;
        ++c;
        face->traceDrop(reason, static_cast<int64_t>(frame.size()));
        return;
      }
      countChannelDrop(m_env,
                       reason == DropReason::RuntFrame       ? m_counters.nRuntFrames
                       : reason == DropReason::OversizeFrame ? m_counters.nOversizeFrames
                                                             : m_counters.nInvalidDatagram,
                       reason, frame.size());
      NDNLAB_LOG(m_env, LogLevel::Debug, "io", uri(), " ", toString(reason), " (", frame.size(), " octets) DROP");
      return;
    }
  }
  if (face != nullptr) {
    face->deliver(f.payload);
    return;
  }
  if (!m_options.acceptNewFaces || !m_onCreated)
    return;
  if (!m_admission.admit(f.payload, frame.size(), etherUri(f.source), uri(), onDemandFaces(),
                         m_options.maxOnDemandFaces, m_counters))
    return;
  const MacAddress source = f.source;
  m_onCreated(makeTransport(source, face::FacePersistency::OnDemand));
  if (auto* t = find(source))
    t->deliver(f.payload);
}

EthernetChannel::ConnectResult EthernetChannel::connect(const MacAddress& remote, face::FacePersistency persistency)
{
  ConnectResult r;
  if ((r.existing = m_shared->faces.upgrade(remote, persistency)) != nullptr)
    return r;
  if (!m_shared->socket.is_open())
    throw std::runtime_error("ether channel " + uri() + " is not listening");
  if (remote.isMulticast() || remote.isNull())
    throw std::runtime_error("ether face to " + remote.toString() + ": not a unicast MAC address");
  r.created = makeTransport(remote, persistency);
  return r;
}

} // namespace ndnlab::io
