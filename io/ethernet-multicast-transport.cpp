#include "io/ethernet-multicast-transport.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ndnlab::io {

namespace {

TransportInfo multicastInfo(const NetworkInterface& iface, const EthernetMulticastOptions& o)
{
  TransportInfo info;
  info.kind = TransportKind::EtherMulticast;
  info.localUri = devUri(iface.name);
  info.remoteUri = etherUri(o.group);
  info.scope = face::FaceScope::NonLocal;
  info.persistency = face::FacePersistency::Permanent;
  info.linkType = o.adHoc ? face::LinkType::AdHoc : face::LinkType::MultiAccess;
  info.mtu = static_cast<ssize_t>(iface.mtu);
  return info;
}

} // namespace

EthernetMulticastTransport::EthernetMulticastTransport(Env& env, asio::io_context& io, NetworkInterface iface,
                                                       const EthernetMulticastOptions& options)
  : SocketTransport(env, multicastInfo(iface, options)),
    m_iface(std::move(iface)),
    m_options(options),
    m_socket(io),
    m_sender(std::make_shared<EthernetSendQueue>(m_socket)),
    m_header(ethernetHeader(options.group, m_iface.mac)),
    m_batch(options.maxFramesPerWakeup, m_iface.mtu)
{
  if (!options.group.isMulticast())
    throw std::runtime_error("ether multicast group " + options.group.toString() + " is not a multicast address");
  std::string warning;
  m_socket = openEthernetSocket(io, m_iface, options.group, options.socketBufferSize, warning);
  if (!warning.empty())
    NDNLAB_LOG(m_env, LogLevel::Warn, "io", warning);
  NDNLAB_LOG(m_env, LogLevel::Info, "io", "multicast face on ", localUri(), " to ", remoteUri(), " (MTU ", m_iface.mtu,
             ")");
  waitReadable();
}

EthernetMulticastTransport::~EthernetMulticastTransport()
{
  m_guard.reset();
}

void EthernetMulticastTransport::waitReadable()
{
  m_socket.async_wait(asio::socket_base::wait_read, [this, g = guard()](const std::error_code& ec) {
    if (g.expired() || ec == asio::error::operation_aborted || !m_socket.is_open())
      return;
    drain();
    if (!g.expired() && m_socket.is_open())
      waitReadable();
  });
}

void EthernetMulticastTransport::drain()
{
  auto g = guard();
  auto r = m_batch.drain(m_socket.native_handle(), m_iface, m_options.maxFramesPerWakeup, [&](ByteSpan frame) {
    deliver(frame);
    return !g.expired() && state() == face::TransportState::Up;
  });
  using End = EthernetReceiveBatch::End;
  if (r.end == End::Gone)
    return fail(r.error == ENODEV ? "deleted" : std::strerror(r.error));
  if (r.end == End::Error)
    NDNLAB_LOG(m_env, LogLevel::Warn, "io", localUri(), " receive error: ", std::strerror(r.error));
  if (r.end == End::Down) { // once each time the interface goes down; it may come back up
    NDNLAB_LOG(m_env, LogLevel::Warn, "io", localUri(), " is down");
    watchDownInterface(m_env, m_iface, guard(), [this] { fail("deleted"); });
  }
}

void EthernetMulticastTransport::fail(const std::string& why)
{
  if (isGoingAway())
    return;
  NDNLAB_LOG(m_env, LogLevel::Error, "io", localUri(), " is gone (", why, "): its multicast face fails");
  recordClose(CloseReason::SocketError, LogLevel::Warn);
  std::error_code ec;
  m_socket.close(ec);
  closeNextTurn(face::TransportState::Failed);
}

void EthernetMulticastTransport::deliver(ByteSpan frame)
{
  EthernetRxFrame f = parseEthernetFrame(frame, m_iface.mac, m_iface.mtu);
  if (f.verdict == EthernetRx::OwnFrame || f.verdict == EthernetRx::OtherEtherType)
    return;
  if (auto reason = dropReason(f.verdict)) {
    ++(*reason == DropReason::RuntFrame       ? m_ioCounters.nRuntFrames
       : *reason == DropReason::OversizeFrame ? m_ioCounters.nOversizeFrames
                                              : m_ioCounters.nInvalidDatagram);
    traceDrop(*reason, static_cast<int64_t>(frame.size()));
    return;
  }
  receive(f.payload, f.source.toUint());
}

void EthernetMulticastTransport::doSend(SharedBuffer frame, face::EndpointId)
{
  if (!m_socket.is_open()) {
    countSendError(frame->size());
    return;
  }
  m_sender->send(m_header, std::move(frame), guard(), this);
}

void EthernetMulticastTransport::countSendError(size_t bytes)
{
  ++m_ioCounters.nSendErrors;
  traceDrop(DropReason::SendError, static_cast<int64_t>(bytes));
}

void EthernetMulticastTransport::close()
{
  if (isGoingAway())
    return;
  recordClose(CloseReason::ClosedLocally, LogLevel::Debug);
  std::error_code ec;
  m_socket.close(ec);
  closeNextTurn(face::TransportState::Closing);
}

} // namespace ndnlab::io
