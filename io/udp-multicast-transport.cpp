#include "io/udp-multicast-transport.hpp"
#include "io/socket-buffers.hpp"
#include "io/tlv-framer.hpp"
#include "io/udp-channel.hpp"

#include <asio/ip/multicast.hpp>

#include <stdexcept>

namespace ndnlab::io {

using asio::ip::udp;

namespace {

TransportInfo multicastInfo(const UdpMulticastOptions& o)
{
  TransportInfo info;
  info.kind = TransportKind::UdpMulticast;
  info.localUri = "udp4://" + o.interfaceAddress + ":" + std::to_string(o.port);
  info.remoteUri = "udp4://" + o.group + ":" + std::to_string(o.port);
  info.scope = face::FaceScope::NonLocal;
  info.persistency = face::FacePersistency::Permanent;
  info.linkType = o.adHoc ? face::LinkType::AdHoc : face::LinkType::MultiAccess;
  info.mtu = UdpMaxPayloadV4;
  return info;
}

} // namespace

UdpMulticastTransport::UdpMulticastTransport(Env& env, asio::io_context& io, const UdpMulticastOptions& options)
  : SocketTransport(env, multicastInfo(options)), m_options(options), m_recv(io), m_send(io)
{
  m_rbuf.resize(65536);
  std::error_code ec;
  auto group = asio::ip::make_address_v4(options.group, ec);
  if (ec || !group.is_multicast())
    throw std::runtime_error("bad multicast group '" + options.group + "'");
  auto iface = asio::ip::make_address_v4(options.interfaceAddress, ec);
  if (ec)
    throw std::runtime_error("bad multicast interface address '" + options.interfaceAddress + "'");
  m_group = udp::endpoint(group, options.port);

  auto fail = [&](const char* what) {
    throw std::runtime_error(std::string("udp multicast ") + what + " failed for " + options.group + ":" +
                             std::to_string(options.port) + ": " + ec.message());
  };

  m_recv.open(udp::v4(), ec);
  if (ec)
    fail("open");
  m_recv.set_option(udp::socket::reuse_address(true), ec);
  m_recv.bind(udp::endpoint(group, options.port), ec);
  if (ec)
    fail("bind");
  m_recv.set_option(asio::ip::multicast::join_group(group, iface), ec);
  if (ec)
    fail("join");
  m_recv.non_blocking(true, ec);

  m_send.open(udp::v4(), ec);
  if (ec)
    fail("open");
  m_send.bind(udp::endpoint(iface, 0), ec);
  if (ec)
    fail("bind");
  if (!iface.is_unspecified())
    m_send.set_option(asio::ip::multicast::outbound_interface(iface), ec);
  m_send.set_option(asio::ip::multicast::hops(options.ttl), ec);
  m_send.set_option(asio::ip::multicast::enable_loopback(options.loopback), ec);
  m_send.non_blocking(true, ec);
  m_sendPort = m_send.local_endpoint(ec).port();

  if (options.socketBufferSize > 0) {
    // Each socket is used one way, but both sizes are set alike (one helper, one warning).
    SocketBuffers in = setSocketBuffers(m_recv.native_handle(), options.socketBufferSize);
    SocketBuffers out = setSocketBuffers(m_send.native_handle(), options.socketBufferSize);
    if (auto warning = socketBufferWarning(remoteUri(), options.socketBufferSize, {out.send, in.receive, in.forced});
        !warning.empty())
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", warning);
  }
  NDNLAB_LOG(m_env, LogLevel::Info, "io", "multicast face on ", remoteUri());
  waitReadable();
}

UdpMulticastTransport::~UdpMulticastTransport()
{
  m_guard.reset();
}

face::EndpointId UdpMulticastTransport::endpointIdOf(const udp::endpoint& ep)
{
  auto a = ep.address();
  uint64_t ip = a.is_v4() ? a.to_v4().to_uint() : std::hash<std::string>{}(a.to_string());
  return (ip << 16) | ep.port();
}

udp::endpoint UdpMulticastTransport::sendEndpoint() const
{
  std::error_code ec;
  return m_send.local_endpoint(ec);
}

void UdpMulticastTransport::waitReadable()
{
  m_recv.async_wait(udp::socket::wait_read, [this, g = guard()](const std::error_code& ec) {
    if (g.expired() || ec == asio::error::operation_aborted || !m_recv.is_open())
      return;
    drain();
    if (!g.expired() && m_recv.is_open())
      waitReadable();
  });
}

void UdpMulticastTransport::drain()
{
  auto g = guard();
  for (size_t i = 0; i < m_options.maxDatagramsPerWakeup; ++i) {
    std::error_code ec;
    size_t n = m_recv.receive_from(asio::buffer(m_rbuf), m_sender, 0, ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again)
      return;
    if (ec) {
      if (ec == asio::error::interrupted || ec == asio::error::connection_refused)
        continue;
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", remoteUri(), " receive error: ", ec.message());
      return;
    }
    if (m_options.loopback && m_sender.port() == m_sendPort)
      continue; // our own datagram looped back
    ByteSpan datagram(m_rbuf.data(), n);
    FrameCheck c = checkFrame(datagram, n);
    if (c.status != FrameStatus::Complete || c.size != n) {
      ++m_ioCounters.nInvalidDatagram;
      traceDrop(DropReason::InvalidDatagram, static_cast<int64_t>(n));
      continue;
    }
    receive(datagram, endpointIdOf(m_sender));
    if (g.expired() || state() != face::TransportState::Up)
      return;
  }
}

void UdpMulticastTransport::doSend(SharedBuffer frame, face::EndpointId)
{
  std::error_code ec;
  m_send.send_to(asio::buffer(*frame), m_group, 0, ec);
  if (ec) {
    ++m_ioCounters.nSendErrors;
    traceDrop(DropReason::SendError, static_cast<int64_t>(frame->size()));
  }
}

void UdpMulticastTransport::close()
{
  if (isGoingAway())
    return;
  recordClose(CloseReason::ClosedLocally, LogLevel::Debug);
  std::error_code ec;
  m_recv.close(ec);
  m_send.close(ec);
  closeNextTurn(face::TransportState::Closing);
}

} // namespace ndnlab::io
