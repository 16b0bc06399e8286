#include "io/udp-channel.hpp"
#include "io/socket-buffers.hpp"
#include "io/tlv-framer.hpp"

#include <asio/ip/v6_only.hpp>
#include <asio/post.hpp>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#ifndef SOL_UDP
#define SOL_UDP 17
#endif
#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103 // linux/udp.h, Linux 4.18
#endif
#ifndef UDP_GRO
#define UDP_GRO 104 // linux/udp.h, Linux 5.0
#endif

namespace ndnlab::io {

using asio::ip::udp;

/// State shared by a channel and its faces (faces may outlive the channel).
///
/// Sending: the first datagram of a turn of the event loop leaves at once; the faces queue
/// the ones after it here and one flush, posted to the end of the turn, sends them.
/// Consecutive datagrams to one endpoint that have one size (the last may be shorter) and fit
/// an Ethernet MTU leave in one sendmsg() with UDP generic segmentation offload
/// (UDP_SEGMENT): the kernel carries them through its stack, veth pairs and forwarding hosts
/// as one buffer and cuts it into the same datagrams only where it must. The receiver sees each datagram as if sent
/// alone. A batch holds at most what the face sent in about 1 ms (UdpUnicastTransport::gsoBudget()): a drop-tail queue
/// that cannot take a batch drops all of it, so on a slow link datagrams leave alone. Where the kernel refuses GSO,
/// every datagram is sent alone from then on.
struct UdpShared : std::enable_shared_from_this<UdpShared>
{
  explicit UdpShared(asio::io_context& io) : socket(io) {}
  udp::socket socket;
  DatagramFaces<udp::endpoint, UdpUnicastTransport> faces;

  struct Pending
  {
    SharedBuffer frame;
    udp::endpoint to;
    std::weak_ptr<char> face; ///< the sending transport's guard (counts a failed send)
    UdpUnicastTransport* transport;
  };
  std::vector<Pending> pending;
  bool flushPosted = false;
  bool gso = true;

  void enqueue(Pending p)
  {
    pending.push_back(std::move(p));
    if (flushPosted)
      return;
    // The first datagram of a turn leaves at once: a lone packet (a ping, a window of one)
    // waits for nothing. The ones sent after it in the same turn leave together at its end.
    flush();
    flushPosted = true;
    asio::post(socket.get_executor(), [w = weak_from_this()] {
      if (auto self = w.lock()) {
        self->flushPosted = false;
        self->flush();
      }
    });
  }

  void flush();
  /// Sends pending[first, first + n) in one sendmsg (n > 1: with UDP_SEGMENT = the first's
  /// size); false when the kernel refused, errno set.
  bool sendGroup(size_t first, size_t n);
  void countFailure(const Pending& p);
};

namespace {
/// Most datagrams in one GSO send (the kernel's UDP_MAX_SEGMENTS is 64 or more).
constexpr size_t GsoMaxSegments = 64;
/// Largest datagram that is batched: one Ethernet frame with IPv6 and UDP headers, so that
/// GSO never needs IP fragmentation (which it refuses); larger ones leave alone.
constexpr size_t GsoMaxSegmentSize = 1500 - 40 - 8;
} // namespace

void UdpShared::countFailure(const Pending& p)
{
  if (!p.face.expired())
    p.transport->countSendError(p.frame->size());
}

bool UdpShared::sendGroup(size_t first, size_t n)
{
  std::array<iovec, GsoMaxSegments> iov{};
  for (size_t i = 0; i < n; ++i) {
    const Buffer& b = *pending[first + i].frame;
    iov[i] = {const_cast<uint8_t*>(b.data()), b.size()};
  }
  msghdr msg{};
  const udp::endpoint& to = pending[first].to;
  msg.msg_name = const_cast<sockaddr*>(to.data());
  msg.msg_namelen = static_cast<socklen_t>(to.size());
  msg.msg_iov = iov.data();
  msg.msg_iovlen = n;
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(uint16_t))> control{};
  if (n > 1) {
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_UDP;
    c->cmsg_type = UDP_SEGMENT;
    c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
    const auto segment = static_cast<uint16_t>(pending[first].frame->size());
    std::memcpy(CMSG_DATA(c), &segment, sizeof(segment));
  }
  return ::sendmsg(socket.native_handle(), &msg, MSG_DONTWAIT) >= 0;
}

void UdpShared::flush()
{
  // nothing below sends through a face, so `pending` does not grow during the flush
  for (size_t i = 0; i < pending.size();) {
    if (!socket.is_open()) {
      for (size_t k = i; k < pending.size(); ++k)
        countFailure(pending[k]);
      break;
    }
    // the run of datagrams that one GSO send can carry, within the face's budget
    size_t n = 1;
    const size_t segment = pending[i].frame->size();
    const bool faceAlive = !pending[i].face.expired();
    if (gso && segment <= GsoMaxSegmentSize && faceAlive) {
      const size_t budget = std::min(pending[i].transport->gsoBudget(), static_cast<size_t>(UdpMaxPayloadV4));
      size_t total = segment;
      while (i + n < pending.size() && n < GsoMaxSegments && pending[i + n].to == pending[i].to) {
        const size_t next = pending[i + n].frame->size();
        if (next > segment || total + next > budget)
          break;
        total += next;
        ++n;
        if (next < segment) // only the last may be shorter
          break;
      }
    }
    if (!sendGroup(i, n)) {
      const int err = errno;
      if (n > 1 && (err == EINVAL || err == EIO || err == ENOPROTOOPT || err == EOPNOTSUPP)) {
        gso = false; // this kernel or path refuses GSO: datagrams alone from now on
        continue;
      }
      for (size_t k = i; k < i + n; ++k)
        countFailure(pending[k]);
    }
    else if (faceAlive) {
      size_t bytes = 0;
      for (size_t k = i; k < i + n; ++k)
        bytes += pending[k].frame->size();
      pending[i].transport->recordSent(bytes);
    }
    i += n;
  }
  pending.clear();
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

UdpUnicastTransport::UdpUnicastTransport(Env& env, std::shared_ptr<UdpShared> shared, const udp::endpoint& remote,
                                         const TransportInfo& info, Duration idleTimeout)
  : SocketTransport(env, info), m_shared(std::move(shared)), m_remote(remote)
{
  m_shared->faces.add(m_remote, this);
  startIdleCheck(idleTimeout);
}

UdpUnicastTransport::~UdpUnicastTransport()
{
  m_guard.reset();
  unregister();
}

void UdpUnicastTransport::unregister()
{
  m_shared->faces.remove(m_remote, this);
}

void UdpUnicastTransport::deliver(ByteSpan datagram)
{
  if (state() != face::TransportState::Up)
    return;
  FrameCheck c = checkFrame(datagram, datagram.size());
  if (c.status != FrameStatus::Complete || c.size != datagram.size()) {
    ++m_ioCounters.nInvalidDatagram;
    traceDrop(DropReason::InvalidDatagram, static_cast<int64_t>(datagram.size()));
    return;
  }
  receive(datagram);
}

void UdpUnicastTransport::doSend(SharedBuffer frame, face::EndpointId)
{
  if (!m_shared->socket.is_open()) {
    countSendError(frame->size());
    return;
  }
  m_shared->enqueue({std::move(frame), m_remote, guard(), this});
}

void UdpUnicastTransport::recordSent(size_t bytes)
{
  // the rate over intervals of at least 10 ms; the budget is 1 ms of it
  constexpr Duration Interval = std::chrono::milliseconds(10);
  const TimePoint now = m_env.now();
  m_rateBytes += bytes;
  const Duration elapsed = now - m_rateStart;
  if (elapsed < Interval)
    return;
  if (m_rateStart != TimePoint{})
    m_gsoBudget = static_cast<size_t>(static_cast<double>(m_rateBytes) * 1e6 /
                                      static_cast<double>(std::chrono::nanoseconds(elapsed).count()));
  m_rateStart = now;
  m_rateBytes = 0;
}

void UdpUnicastTransport::countSendError(size_t bytes)
{
  ++m_ioCounters.nSendErrors;
  traceDrop(DropReason::SendError, static_cast<int64_t>(bytes));
}

void UdpUnicastTransport::close()
{
  if (isGoingAway())
    return;
  recordClose(CloseReason::ClosedLocally, LogLevel::Debug);
  stopIdleCheck();
  unregister();
  closeNextTurn(face::TransportState::Closing);
}

// --- UdpChannel ----------------------------------------------------------------------------

UdpChannel::UdpChannel(Env& env, asio::io_context& io, UdpChannelOptions options)
  : m_env(env),
    m_io(io),
    m_options(std::move(options)),
    m_shared(std::make_shared<UdpShared>(io)),
    m_admission(env, "face_system.udp.max_on_demand_faces")
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
    throw std::runtime_error("cannot bind udp " + m_options.address + ":" + std::to_string(m_options.port) + ": " +
                             ec.message());
  }
  s.non_blocking(true, ec);
  // Several datagrams of one sender per read where the kernel has coalesced them (drain()).
  const int on = 1;
  (void)::setsockopt(s.native_handle(), SOL_UDP, UDP_GRO, &on, sizeof(on));
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
  return m_shared->faces.onDemand();
}

UdpUnicastTransport* UdpChannel::find(const udp::endpoint& remote) const
{
  return m_shared->faces.find(remote);
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
  const int fd = m_shared->socket.native_handle();
  for (size_t i = 0; i < m_options.maxDatagramsPerWakeup;) {
    iovec iov{m_rbuf.data(), m_rbuf.size()};
    alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int))> control{};
    msghdr msg{};
    msg.msg_name = m_sender.data();
    msg.msg_namelen = static_cast<socklen_t>(m_sender.capacity());
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    ssize_t n = ::recvmsg(fd, &msg, MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK)
        return;
      // ICMP errors (connection refused) surface here on Linux; nothing to read.
      if (errno == ECONNREFUSED || errno == EINTR) {
        ++i;
        continue;
      }
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", uri(), " receive error: ", std::strerror(errno));
      return;
    }
    m_sender.resize(msg.msg_namelen);
    if ((msg.msg_flags & MSG_TRUNC) != 0) { // larger than any UDP datagram: nothing to split
      countChannelDrop(m_env, m_counters.nInvalidDatagram, DropReason::InvalidDatagram, static_cast<size_t>(n));
      ++i;
      continue;
    }
    // With UDP_GRO, one read may hold several datagrams of one sender, each `segment` long
    // but the last (cmsg UDP_GRO); without it, one datagram.
    size_t segment = static_cast<size_t>(n);
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
        int size = 0;
        std::memcpy(&size, CMSG_DATA(c), sizeof(size));
        if (size > 0)
          segment = static_cast<size_t>(size);
      }
    }
    const udp::endpoint from = m_sender; // dispatch may read the next datagram's sender
    for (size_t off = 0; off < static_cast<size_t>(n); off += segment, ++i) {
      dispatch(ByteSpan(m_rbuf.data() + off, std::min(segment, static_cast<size_t>(n) - off)), from);
      if (g.expired() || !m_shared->socket.is_open())
        return;
    }
  }
}

ssize_t udpPathPayload(const udp::endpoint& remote)
{
  udp::endpoint to = remote;
  if (to.address().is_v6() && to.address().to_v6().is_v4_mapped())
    to = udp::endpoint(asio::ip::make_address_v4(asio::ip::v4_mapped, to.address().to_v6()), to.port());
  const bool v4 = to.address().is_v4();
  const int fd = ::socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return UdpMaxPayloadV4;
  int mtu = 0;
  socklen_t len = sizeof(mtu);
  // connect() on a datagram socket sends nothing: it looks up the route, whose MTU IP_MTU reads
  const bool known = ::connect(fd, to.data(), static_cast<socklen_t>(to.size())) == 0 &&
                     ::getsockopt(fd, v4 ? IPPROTO_IP : IPPROTO_IPV6, v4 ? IP_MTU : IPV6_MTU, &mtu, &len) == 0;
  ::close(fd);
  const int headers = v4 ? 20 + 8 : 40 + 8;
  if (!known || mtu <= headers)
    return UdpMaxPayloadV4;
  return std::min<ssize_t>(mtu - headers, UdpMaxPayloadV4);
}

std::unique_ptr<UdpUnicastTransport> UdpChannel::makeTransport(const udp::endpoint& remote, face::FacePersistency p)
{
  TransportInfo info;
  info.kind = TransportKind::UdpUnicast;
  info.localUri = uri();
  info.remoteUri = udpUri(remote);
  info.scope = face::FaceScope::NonLocal;
  info.persistency = p;
  info.linkType = face::LinkType::PointToPoint;
  info.mtu = udpPathPayload(remote);
  return std::make_unique<UdpUnicastTransport>(m_env, m_shared, remote, info, m_options.idleTimeout);
}

void UdpChannel::dispatch(ByteSpan datagram, const udp::endpoint& from)
{
  if (auto* t = find(from)) {
    t->deliver(datagram);
    return;
  }
  if (!m_options.acceptNewFaces || !m_onCreated)
    return;
  if (!m_admission.admit(datagram, datagram.size(), udpUri(from), uri(), onDemandFaces(), m_options.maxOnDemandFaces,
                         m_counters))
    return;
  m_onCreated(makeTransport(from, face::FacePersistency::OnDemand));
  if (auto* t = find(from))
    t->deliver(datagram);
}

UdpChannel::ConnectResult UdpChannel::connect(const udp::endpoint& remote, face::FacePersistency persistency)
{
  ConnectResult r;
  if ((r.existing = m_shared->faces.upgrade(remote, persistency)) != nullptr)
    return r;
  if (!m_shared->socket.is_open())
    throw std::runtime_error("udp channel is not listening");
  r.created = makeTransport(remote, persistency);
  return r;
}

} // namespace ndnlab::io
