#include "io/udp-channel.hpp"
#include "io/socket-buffers.hpp"
#include "io/tlv-framer.hpp"

#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "core/lp/packet.hpp"

#include <asio/ip/v6_only.hpp>

#include <stdexcept>

namespace ndnlab::io {

using asio::ip::udp;

/// State shared by a channel and its faces (faces may outlive the channel).
struct UdpShared
{
  explicit UdpShared(asio::io_context& io) : socket(io) {}
  udp::socket socket;
  std::map<udp::endpoint, UdpUnicastTransport*> faces;
};

std::string_view newFaceRejection(ByteSpan datagram)
{
  FrameCheck c = checkFrame(datagram, datagram.size());
  if (c.status != FrameStatus::Complete || c.size != datagram.size())
    return "invalid-datagram";
  auto pkt = lp::decodeFrame(datagram);
  if (!pkt || pkt->isIdle())
    return "invalid-datagram";
  if (pkt->fragCount.value_or(1) > 1)
    return {}; // one fragment of a larger packet: its LpPacket decoded, nothing more to check
  ByteSpan net = *pkt->fragment;
  if (net.size() > MaxNdnPacketSize)
    return "packet-too-large";
  if (net.empty())
    return "invalid-datagram";
  uint32_t type = TlvReader(net).peekType();
  if (type == ndnlab::tlv::Interest)
    return Interest::decode(net) ? std::string_view{} : "invalid-datagram";
  if (type == ndnlab::tlv::Data)
    return Data::decode(net) ? std::string_view{} : "invalid-datagram";
  return "invalid-datagram";
}

std::string udpUri(const udp::endpoint& ep)
{
  auto a = ep.address();
  if (a.is_v6() && a.to_v6().is_v4_mapped())
    a = asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
  if (a.is_v4())
    return "udp4://" + a.to_string() + ":" + std::to_string(ep.port());
  return "udp6://[" + a.to_string() + "]:" + std::to_string(ep.port());
}

// --- UdpUnicastTransport -------------------------------------------------------------------

UdpUnicastTransport::UdpUnicastTransport(Env& env, std::shared_ptr<UdpShared> shared,
                                         const udp::endpoint& remote, const TransportInfo& info,
                                         Duration idleTimeout)
  : SocketTransport(env, info), m_shared(std::move(shared)), m_remote(remote),
    m_idleTimeout(idleTimeout)
{
  m_shared->faces[m_remote] = this;
  scheduleIdleCheck();
}

UdpUnicastTransport::~UdpUnicastTransport()
{
  m_guard.reset();
  if (m_idleTimer != 0)
    m_env.timers().cancel(m_idleTimer);
  unregister();
}

void UdpUnicastTransport::unregister()
{
  auto it = m_shared->faces.find(m_remote);
  if (it != m_shared->faces.end() && it->second == this)
    m_shared->faces.erase(it);
}

void UdpUnicastTransport::upgradePersistency(face::FacePersistency p)
{
  auto rank = [](face::FacePersistency x) {
    return x == face::FacePersistency::OnDemand ? 0 : x == face::FacePersistency::Persistent ? 1 : 2;
  };
  if (rank(p) > rank(persistency()))
    setPersistency(p);
}

void UdpUnicastTransport::scheduleIdleCheck()
{
  if (m_idleTimeout <= Duration::zero())
    return;
  m_inAtLastCheck = counters().nInPackets;
  m_idleTimer = m_env.timers().schedule(m_idleTimeout, [this] {
    m_idleTimer = 0;
    if (persistency() == face::FacePersistency::OnDemand &&
        counters().nInPackets == m_inAtLastCheck && state() == face::TransportState::Up) {
      recordClose("idle-timeout", LogLevel::Info);
      close();
      return;
    }
    scheduleIdleCheck();
  });
}

void UdpUnicastTransport::deliver(ByteSpan datagram)
{
  if (state() != face::TransportState::Up)
    return;
  FrameCheck c = checkFrame(datagram, datagram.size());
  if (c.status != FrameStatus::Complete || c.size != datagram.size()) {
    ++m_ioCounters.nInvalidDatagram;
    traceDrop("invalid-datagram", static_cast<int64_t>(datagram.size()));
    return;
  }
  receive(datagram);
}

void UdpUnicastTransport::doSend(SharedBuffer frame, face::EndpointId)
{
  if (!m_shared->socket.is_open()) {
    ++m_ioCounters.nSendErrors;
    traceDrop("send-error", static_cast<int64_t>(frame->size()));
    return;
  }
  std::error_code ec;
  m_shared->socket.send_to(asio::buffer(*frame), m_remote, 0, ec);
  if (ec) {
    ++m_ioCounters.nSendErrors;
    traceDrop("send-error", static_cast<int64_t>(frame->size()));
  }
}

void UdpUnicastTransport::close()
{
  if (isGoingAway())
    return;
  recordClose("closed-locally", LogLevel::Debug);
  if (m_idleTimer != 0) {
    m_env.timers().cancel(m_idleTimer);
    m_idleTimer = 0;
  }
  unregister();
  closeNextTurn(face::TransportState::Closing);
}

// --- UdpChannel ----------------------------------------------------------------------------

UdpChannel::UdpChannel(Env& env, asio::io_context& io, UdpChannelOptions options)
  : m_env(env), m_io(io), m_options(std::move(options)), m_shared(std::make_shared<UdpShared>(io))
{
  m_rbuf.resize(65536);
}

UdpChannel::~UdpChannel()
{
  m_guard.reset();
  close();
}

void UdpChannel::listen(TransportCallback onCreated)
{
  if (m_shared->socket.is_open())
    return;
  m_onCreated = std::move(onCreated);
  std::error_code ec;
  auto addr = asio::ip::make_address(m_options.address, ec);
  if (ec)
    throw std::runtime_error("bad udp listen address '" + m_options.address + "'");
  udp::endpoint ep(addr, m_options.port);
  auto& s = m_shared->socket;
  // No SO_REUSEADDR: one socket serves every unicast face of the channel, and with it a second
  // forwarder on the same port would bind too and split the traffic instead of failing.
  s.open(ep.protocol(), ec);
  if (!ec && addr.is_v6()) {
    std::error_code ignore;
    s.set_option(asio::ip::v6_only(false), ignore); // "::" also receives IPv4 (mapped)
  }
  if (!ec)
    s.bind(ep, ec);
  if (ec) {
    std::error_code ignore;
    s.close(ignore);
    throw std::runtime_error("cannot bind udp " + m_options.address + ":" +
                             std::to_string(m_options.port) + ": " + ec.message());
  }
  s.non_blocking(true, ec);
  if (m_options.socketBufferSize > 0) {
    SocketBuffers got = setSocketBuffers(s.native_handle(), m_options.socketBufferSize);
    if (auto warning = socketBufferWarning(uri(), m_options.socketBufferSize, got); !warning.empty())
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", warning);
  }
  NDNLAB_LOG(m_env, LogLevel::Info, "io", "listening on ", uri());
  waitReadable();
}

void UdpChannel::close()
{
  std::error_code ec;
  if (m_shared->socket.is_open())
    m_shared->socket.close(ec);
}

bool UdpChannel::isListening() const
{
  return m_shared->socket.is_open();
}

udp::endpoint UdpChannel::localEndpoint() const
{
  std::error_code ec;
  auto ep = m_shared->socket.local_endpoint(ec);
  return ec ? udp::endpoint() : ep;
}

std::string UdpChannel::uri() const
{
  return udpUri(localEndpoint());
}

size_t UdpChannel::size() const
{
  return m_shared->faces.size();
}

size_t UdpChannel::onDemandFaces() const
{
  size_t n = 0;
  for (const auto& [ep, t] : m_shared->faces)
    n += t->persistency() == face::FacePersistency::OnDemand ? 1 : 0;
  return n;
}

UdpUnicastTransport* UdpChannel::find(const udp::endpoint& remote) const
{
  auto it = m_shared->faces.find(remote);
  return it == m_shared->faces.end() ? nullptr : it->second;
}

void UdpChannel::waitReadable()
{
  m_shared->socket.async_wait(udp::socket::wait_read,
                              [this, g = std::weak_ptr<char>(m_guard)](const std::error_code& ec) {
                                if (g.expired() || ec == asio::error::operation_aborted)
                                  return;
                                if (!m_shared->socket.is_open())
                                  return;
                                drain();
                                waitReadable();
                              });
}

void UdpChannel::drain()
{
  auto g = std::weak_ptr<char>(m_guard);
  for (size_t i = 0; i < m_options.maxDatagramsPerWakeup; ++i) {
    std::error_code ec;
    size_t n = m_shared->socket.receive_from(asio::buffer(m_rbuf), m_sender, 0, ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again)
      return;
    if (ec) {
      // ICMP errors (connection_refused) surface here on Linux; nothing to read.
      if (ec == asio::error::connection_refused || ec == asio::error::interrupted)
        continue;
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", uri(), " receive error: ", ec.message());
      return;
    }
    dispatch(ByteSpan(m_rbuf.data(), n), m_sender);
    if (g.expired() || !m_shared->socket.is_open())
      return;
  }
}

std::unique_ptr<UdpUnicastTransport> UdpChannel::makeTransport(const udp::endpoint& remote,
                                                               face::FacePersistency p)
{
  TransportInfo info;
  info.kind = TransportKind::UdpUnicast;
  info.localUri = uri();
  info.remoteUri = udpUri(remote);
  info.scope = face::FaceScope::NonLocal;
  info.persistency = p;
  info.linkType = face::LinkType::PointToPoint;
  info.mtu = UdpMaxPayloadV4;
  return std::make_unique<UdpUnicastTransport>(m_env, m_shared, remote, info,
                                               m_options.idleTimeout);
}

void UdpChannel::dispatch(ByteSpan datagram, const udp::endpoint& from)
{
  auto it = m_shared->faces.find(from);
  if (it != m_shared->faces.end()) {
    it->second->deliver(datagram);
    return;
  }
  if (!m_options.acceptNewFaces || !m_onCreated)
    return;
  // Faces only for what would be accepted (docs/daemon.md "Faces"): garbage creates nothing.
  std::string_view rejection = newFaceRejection(datagram);
  if (!rejection.empty()) {
    ++(rejection == "packet-too-large" ? m_counters.nPacketTooLarge : m_counters.nInvalidDatagram);
    m_env.emit({"io_drop", 0, rejection, static_cast<int64_t>(datagram.size()), 0});
    NDNLAB_LOG(m_env, LogLevel::Debug, "io", udpUri(from), " ", rejection, " (no face) DROP");
    return;
  }
  if (onDemandFaces() >= m_options.maxOnDemandFaces) {
    ++m_counters.nTooManyFaces;
    m_env.emit({"io_drop", 0, "too-many-faces", static_cast<int64_t>(datagram.size()), 0});
    if (!m_limitLogged) {
      m_limitLogged = true;
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", uri(), ": ", m_options.maxOnDemandFaces,
                 " on-demand faces (face_system.udp.max_on_demand_faces); datagrams from new "
                 "endpoints are dropped (too-many-faces) until faces close");
    }
    NDNLAB_LOG(m_env, LogLevel::Debug, "io", udpUri(from), " too-many-faces DROP");
    return;
  }
  m_limitLogged = false;
  ++m_counters.nFacesCreated;
  NDNLAB_LOG(m_env, LogLevel::Debug, "io", "new on-demand face ", udpUri(from));
  m_onCreated(makeTransport(from, face::FacePersistency::OnDemand));
  if (auto* t = find(from))
    t->deliver(datagram);
}

UdpChannel::ConnectResult UdpChannel::connect(const udp::endpoint& remote,
                                              face::FacePersistency persistency)
{
  ConnectResult r;
  if (auto* t = find(remote)) {
    t->upgradePersistency(persistency);
    r.existing = t;
    return r;
  }
  if (!m_shared->socket.is_open())
    throw std::runtime_error("udp channel is not listening");
  r.created = makeTransport(remote, persistency);
  return r;
}

} // namespace ndnlab::io
