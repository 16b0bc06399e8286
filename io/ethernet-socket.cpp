#include "io/ethernet-socket.hpp"
#include "io/socket-buffers.hpp"

#include <arpa/inet.h>
#include <fnmatch.h>
#include <ifaddrs.h>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <asio/post.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23 // linux/if_packet.h, Linux 4.20
#endif

namespace ndnlab::io {

namespace {

size_t interfaceMtu(const std::string& name)
{
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return 0;
  ifreq req{};
  std::strncpy(req.ifr_name, name.c_str(), IFNAMSIZ - 1);
  const int rc = ::ioctl(fd, SIOCGIFMTU, &req);
  ::close(fd);
  return rc == 0 && req.ifr_mtu > 0 ? static_cast<size_t>(req.ifr_mtu) : 0;
}

} // namespace

std::vector<NetworkInterface> listNetworkInterfaces()
{
  std::vector<NetworkInterface> out;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0)
    return out;
  for (ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != AF_PACKET)
      continue;
    const auto* ll = reinterpret_cast<const sockaddr_ll*>(a->ifa_addr);
    NetworkInterface i;
    i.name = a->ifa_name;
    i.index = ll->sll_ifindex;
    i.up = (a->ifa_flags & IFF_UP) != 0;
    i.loopback = (a->ifa_flags & IFF_LOOPBACK) != 0;
    i.multicast = (a->ifa_flags & IFF_MULTICAST) != 0;
    i.ethernet = ll->sll_hatype == ARPHRD_ETHER && ll->sll_halen == 6;
    if (i.ethernet)
      std::copy_n(ll->sll_addr, 6, i.mac.octets.begin());
    i.mtu = interfaceMtu(i.name);
    out.push_back(std::move(i));
  }
  ::freeifaddrs(list);
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.index < y.index; });
  return out;
}

std::optional<NetworkInterface> findNetworkInterface(const std::string& name)
{
  for (auto& i : listNetworkInterfaces()) {
    if (i.name == name)
      return i;
  }
  return std::nullopt;
}

bool isPresent(const NetworkInterface& iface)
{
  char name[IF_NAMESIZE] = {};
  return ::if_indextoname(static_cast<unsigned>(iface.index), name) != nullptr && iface.name == name;
}

void watchDownInterface(Env& env, const NetworkInterface& iface, std::weak_ptr<char> guard,
                        std::function<void()> onGone, Duration interval)
{
  env.timers().schedule(interval, [&env, iface, guard, onGone = std::move(onGone), interval]() mutable {
    if (guard.expired())
      return;
    if (!isPresent(iface))
      return onGone();
    auto now = findNetworkInterface(iface.name);
    if (now && !now->up)
      watchDownInterface(env, iface, std::move(guard), std::move(onGone), interval);
  });
}

bool interfaceMatches(const std::string& pattern, const NetworkInterface& iface)
{
  if (auto mac = MacAddress::parse(pattern))
    return *mac == iface.mac;
  return ::fnmatch(pattern.c_str(), iface.name.c_str(), 0) == 0;
}

std::string interfacePatternError(const std::string& pattern)
{
  if (pattern.empty())
    return "an empty interface pattern";
  if (MacAddress::parse(pattern))
    return {};
  if (pattern.size() >= IFNAMSIZ && pattern.find_first_of("*?[") == std::string::npos)
    return "\"" + pattern + "\" is longer than an interface name (15 characters)";
  if (pattern.find_first_of("/ \t\n") != std::string::npos)
    return "\"" + pattern + "\" cannot match an interface name (no '/' or spaces)";
  return {};
}

asio::generic::raw_protocol ndnPacketProtocol()
{
  return asio::generic::raw_protocol(AF_PACKET, htons(EtherTypeNdn));
}

EthernetHeader ethernetHeader(const MacAddress& dst, const MacAddress& src)
{
  EthernetHeader h{};
  std::copy(dst.octets.begin(), dst.octets.end(), h.begin());
  std::copy(src.octets.begin(), src.octets.end(), h.begin() + 6);
  h[12] = static_cast<uint8_t>(EtherTypeNdn >> 8);
  h[13] = static_cast<uint8_t>(EtherTypeNdn & 0xff);
  return h;
}

asio::generic::raw_protocol::socket openEthernetSocket(asio::io_context& io, const NetworkInterface& iface,
                                                       const MacAddress& destination, int socketBufferSize,
                                                       std::string& bufferWarning)
{
  const std::string where = devUri(iface.name);
  auto fail = [&](const std::string& what, int err) {
    std::string hint = err == EPERM || err == EACCES ? " (AF_PACKET sockets need CAP_NET_RAW: run ndnlabd as root, or "
                                                       "setcap cap_net_raw+ep on it, or disable face_system.ether)"
                                                     : "";
    return std::runtime_error("ether " + where + ": " + what + " failed: " + std::strerror(err) + hint);
  };
  // Protocol 0 receives nothing until the filter is in place; bind() then selects NDN frames.
  int fd = ::socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0)
    throw fail("socket(AF_PACKET)", errno);
  auto closeAndFail = [&](const std::string& what) {
    const int err = errno;
    ::close(fd);
    return fail(what, err);
  };

  // ether dst <destination> and ether proto 0x8624
  const auto& d = destination.octets;
  const uint32_t dst0 = (uint32_t(d[0]) << 24) | (uint32_t(d[1]) << 16) | (uint32_t(d[2]) << 8) | d[3];
  const uint32_t dst1 = (uint32_t(d[4]) << 8) | d[5];
  sock_filter code[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, dst0, 0, 5),
    BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 4),  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, dst1, 0, 3),
    BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, EtherTypeNdn, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, 0x40000),     BPF_STMT(BPF_RET | BPF_K, 0),
  };
  sock_fprog prog{static_cast<unsigned short>(std::size(code)), code};
  if (::setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) != 0)
    throw closeAndFail("SO_ATTACH_FILTER");
  const int on = 1;
  (void)::setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &on, sizeof(on)); // receive() also skips them

  sockaddr_ll addr{};
  addr.sll_family = AF_PACKET;
  addr.sll_protocol = htons(EtherTypeNdn);
  addr.sll_ifindex = iface.index;
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0)
    throw closeAndFail("bind");
  if (destination.isMulticast()) {
    packet_mreq mr{};
    mr.mr_ifindex = iface.index;
    mr.mr_type = PACKET_MR_MULTICAST;
    mr.mr_alen = 6;
    std::copy(d.begin(), d.end(), mr.mr_address);
    if (::setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) != 0)
      throw closeAndFail("joining " + destination.toString());
  }
  if (socketBufferSize > 0) {
    SocketBuffers got = setSocketBuffers(fd, socketBufferSize);
    bufferWarning = socketBufferWarning(where, socketBufferSize, got);
  }
  asio::generic::raw_protocol::socket s(io);
  std::error_code ec;
  s.assign(ndnPacketProtocol(), fd, ec);
  if (ec) {
    ::close(fd);
    throw std::runtime_error("ether " + where + ": " + ec.message());
  }
  return s;
}

namespace {

const std::array<uint8_t, EthernetMinFrameSize> Zeros{};

/// The iovecs of one frame (header, payload, padding) in `iov`; returns how many.
size_t frameIovecs(const EthernetHeader& header, ByteSpan payload, iovec* iov)
{
  iov[0] = {const_cast<uint8_t*>(header.data()), header.size()};
  iov[1] = {const_cast<uint8_t*>(payload.data()), payload.size()};
  const size_t size = header.size() + payload.size();
  if (size >= EthernetMinFrameSize)
    return 2;
  iov[2] = {const_cast<uint8_t*>(Zeros.data()), EthernetMinFrameSize - size};
  return 3;
}

/// Most frames in one sendmmsg() or recvmmsg().
constexpr size_t MaxBatch = 64;

} // namespace

void EthernetSendQueue::send(const EthernetHeader& header, SharedBuffer payload, std::weak_ptr<char> guard, Sink* sink)
{
  m_pending.push_back({header, std::move(payload), std::move(guard), sink});
  if (m_flushPosted)
    return;
  flush();
  m_flushPosted = true;
  asio::post(m_socket.get_executor(), [w = weak_from_this()] {
    if (auto self = w.lock()) {
      self->m_flushPosted = false;
      self->flush();
    }
  });
}

void EthernetSendQueue::fail(const Pending& p)
{
  if (!p.guard.expired())
    p.sink->countSendError(p.payload->size());
}

void EthernetSendQueue::flush()
{
  // nothing below sends through a face, so m_pending does not grow during the flush
  std::array<iovec, MaxBatch * 3> iov;
  std::array<mmsghdr, MaxBatch> msgs;
  for (size_t i = 0; i < m_pending.size();) {
    if (!m_socket.is_open()) {
      for (size_t k = i; k < m_pending.size(); ++k)
        fail(m_pending[k]);
      break;
    }
    const size_t n = std::min(MaxBatch, m_pending.size() - i);
    for (size_t k = 0; k < n; ++k) {
      const Pending& p = m_pending[i + k];
      msgs[k] = {};
      msgs[k].msg_hdr.msg_iov = &iov[k * 3];
      msgs[k].msg_hdr.msg_iovlen = frameIovecs(p.header, *p.payload, &iov[k * 3]);
    }
    const int sent = ::sendmmsg(m_socket.native_handle(), msgs.data(), static_cast<unsigned>(n), MSG_DONTWAIT);
    if (sent <= 0) { // the first frame was refused (errno); the next ones are tried again
      fail(m_pending[i]);
      ++i;
      continue;
    }
    i += static_cast<size_t>(sent);
  }
  m_pending.clear();
}

EthernetReceiveBatch::EthernetReceiveBatch(size_t frames, size_t mtu)
  : m_capacity(mtu + EthernetHeaderSize + 1),
    m_storage(std::min(frames, MaxBatch) * m_capacity),
    m_lengths(std::min(frames, MaxBatch)),
    m_outgoing(std::min(frames, MaxBatch))
{}

ByteSpan EthernetReceiveBatch::frame(size_t i) const
{
  return ByteSpan(m_storage.data() + i * m_capacity, std::min(m_lengths[i], m_capacity));
}

int EthernetReceiveBatch::receive(int fd)
{
  const size_t n = size();
  std::array<iovec, MaxBatch> iov;
  std::array<mmsghdr, MaxBatch> msgs;
  std::array<sockaddr_ll, MaxBatch> from{};
  for (size_t i = 0; i < n; ++i) {
    iov[i] = {m_storage.data() + i * m_capacity, m_capacity};
    msgs[i] = {};
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_name = &from[i];
    msgs[i].msg_hdr.msg_namelen = sizeof(sockaddr_ll);
  }
  // MSG_TRUNC: each msg_len is the frame's real length even when it did not fit
  const int got = ::recvmmsg(fd, msgs.data(), static_cast<unsigned>(n), MSG_DONTWAIT | MSG_TRUNC, nullptr);
  if (got < 0)
    return -errno;
  for (int i = 0; i < got; ++i) {
    m_lengths[i] = msgs[i].msg_len;
    m_outgoing[i] = from[i].sll_pkttype == PACKET_OUTGOING;
  }
  return got;
}

} // namespace ndnlab::io
