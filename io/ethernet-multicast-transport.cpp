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
    m_header(ethernetHeader(options.group, m_iface.mac))
{
  if (!options.group.isMulticast())
    throw std::runtime_error("ether multicast group " + options.group.toString() + " is not a multicast address");
  m_rbuf.resize(65536 + EthernetHeaderSize);
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
  const int fd = m_socket.native_handle();
  for (size_t i = 0; i < m_options.maxFramesPerWakeup; ++i) {
    ReceivedFrame r = receiveEthernetFrame(fd, m_rbuf);
    if (r.error == EAGAIN || r.error == EWOULDBLOCK)
      return;
    if (r.error == ENETDOWN) {
      if (!m_downLogged)
        NDNLAB_LOG(m_env, LogLevel::Warn, "io", localUri(), " is down");
      m_downLogged = true;
      continue;
    }
    if (r.error == ENODEV || r.error == ENXIO) {
      NDNLAB_LOG(m_env, LogLevel::Error, "io", localUri(), " is gone (", std::strerror(r.error), ")");
      recordClose(CloseReason::SocketError, LogLevel::Warn);
      std::error_code ec;
      m_socket.close(ec);
      closeNextTurn(face::TransportState::Failed);
      return;
    }
    if (r.error != 0) {
      if (r.error == EINTR)
        continue;
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", localUri(), " receive error: ", std::strerror(r.error));
      return;
    }
    m_downLogged = false;
    if (r.outgoing)
      continue;
    ByteSpan frame(m_rbuf.data(), std::min(r.length, m_rbuf.size()));
    EthernetRxFrame f = parseEthernetFrame(frame, m_iface.mac, m_iface.mtu);
    if (f.verdict == EthernetRx::OwnFrame || f.verdict == EthernetRx::OtherEtherType)
      continue;
    if (auto reason = dropReason(f.verdict)) {
      ++(*reason == DropReason::RuntFrame       ? m_ioCounters.nRuntFrames
         : *reason == DropReason::OversizeFrame ? m_ioCounters.nOversizeFrames
                                                : m_ioCounters.nInvalidDatagram);
      traceDrop(*reason, static_cast<int64_t>(frame.size()));
      continue;
    }
    receive(f.payload, f.source.toUint());
    if (g.expired() || state() != face::TransportState::Up)
      return;
  }
}

void EthernetMulticastTransport::doSend(SharedBuffer frame, face::EndpointId)
{
  if (!m_socket.is_open() || !sendEthernetFrame(m_socket.native_handle(), m_header, *frame)) {
    ++m_ioCounters.nSendErrors;
    traceDrop(DropReason::SendError, static_cast<int64_t>(frame->size()));
  }
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
