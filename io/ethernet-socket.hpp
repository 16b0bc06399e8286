#pragma once
// Network interfaces and the AF_PACKET sockets of Ethernet faces (Linux). A socket is
// SOCK_RAW, bound to one interface with protocol EtherType 0x8624, and has a classic BPF
// filter that passes only NDN frames to one destination MAC (the interface's own address for
// unicast faces, the group for the multicast face), as NFD's pcap filters do. Opening one
// needs CAP_NET_RAW; without it the error says so.

#include "io/ethernet-frame.hpp"

#include "core/runtime/env.hpp"

#include <asio/generic/raw_protocol.hpp>
#include <asio/io_context.hpp>

#include <cerrno>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ndnlab::io {

/// One network interface as the kernel lists it (getifaddrs, AF_PACKET entries).
struct NetworkInterface
{
  std::string name;
  int index = 0;
  MacAddress mac;
  /// Payload octets of one frame (SIOCGIFMTU); 0 when unknown.
  size_t mtu = 0;
  bool up = false;        ///< IFF_UP
  bool loopback = false;  ///< IFF_LOOPBACK
  bool multicast = false; ///< IFF_MULTICAST
  bool ethernet = false;  ///< ARPHRD_ETHER: 6-octet MAC addresses (veth, Ethernet, Wi-Fi)

  /// Whether Ethernet faces can run on it: an Ethernet interface with an address, not loopback.
  bool canCarryEthernetFaces() const { return ethernet && !loopback && !mac.isNull(); }
};

/// Every interface of this network namespace, in index order.
std::vector<NetworkInterface> listNetworkInterfaces();
/// The interface called `name`, or nullopt.
std::optional<NetworkInterface> findNetworkInterface(const std::string& name);

/// Whether `iface` still exists (the kernel reports a deleted interface to its packet sockets
/// as ENETDOWN, as one that went down).
bool isPresent(const NetworkInterface& iface);

/// After the kernel reported `iface` down: checks every `interval` while it stays down and calls
/// `onGone` if it is deleted meanwhile (the kernel reports a deletion as a down, and then
/// nothing more, when the socket read the error first); stops once it is up or `guard` expires.
void watchDownInterface(Env& env, const NetworkInterface& iface, std::weak_ptr<char> guard,
                        std::function<void()> onGone, Duration interval = std::chrono::milliseconds(500));

/// Whether `pattern` selects `iface`: "*" (every interface), an interface name with shell
/// wildcards * and ? ("veth*"), or a MAC address ("02:00:00:00:00:01", the interface's own).
bool interfaceMatches(const std::string& pattern, const NetworkInterface& iface);
/// A whitelist/blacklist entry that no interface name or MAC could match (empty, or with a
/// character an interface name cannot hold): the reason, or "" when it is well formed.
std::string interfacePatternError(const std::string& pattern);

/// The generic Asio protocol of NDN's AF_PACKET sockets.
asio::generic::raw_protocol ndnPacketProtocol();

/// Opens an AF_PACKET socket on `iface` for NDN frames to `destination` (joining it as a
/// multicast group when it is one) with `socketBufferSize` octets of buffer (0 = the kernel's).
/// Throws std::runtime_error naming the interface and the cause (EPERM: needs CAP_NET_RAW).
asio::generic::raw_protocol::socket openEthernetSocket(asio::io_context& io, const NetworkInterface& iface,
                                                       const MacAddress& destination, int socketBufferSize,
                                                       std::string& bufferWarning);

using EthernetHeader = std::array<uint8_t, EthernetHeaderSize>;

/// The frames one AF_PACKET socket sends, each the 14-octet header (destination, source,
/// EtherType) and a payload, zero-padded to EthernetMinFrameSize. The first frame of a turn of the event loop leaves
/// at once (a lone packet waits for nothing); the ones sent after it in the same turn leave
/// together at the turn's end, up to 64 per sendmmsg(), as the UDP channel batches its
/// datagrams. A frame the kernel refuses is reported to its sender's Sink, if that is alive.
class EthernetSendQueue : public std::enable_shared_from_this<EthernetSendQueue>
{
public:
  struct Sink
  {
    /// A frame of `bytes` payload octets could not be sent ("send_error").
    virtual void countSendError(size_t bytes) = 0;

  protected:
    ~Sink() = default;
  };

  /// `socket` must outlive the queue (both belong to one owner).
  explicit EthernetSendQueue(asio::generic::raw_protocol::socket& socket) : m_socket(socket) {}

  /// Sends `payload` behind `header`; `guard` expires when `sink` is destroyed.
  void send(const EthernetHeader& header, SharedBuffer payload, std::weak_ptr<char> guard, Sink* sink);

private:
  struct Pending
  {
    EthernetHeader header;
    SharedBuffer payload;
    std::weak_ptr<char> guard;
    Sink* sink;
  };
  void flush();
  void fail(const Pending& p);

  asio::generic::raw_protocol::socket& m_socket;
  std::vector<Pending> m_pending;
  bool m_flushPosted = false;
};

/// The 14-octet header of frames from `src` to `dst`.
EthernetHeader ethernetHeader(const MacAddress& dst, const MacAddress& src);

/// Frames read from one AF_PACKET socket with recvmmsg(), into buffers of a fixed capacity.
class EthernetReceiveBatch
{
public:
  /// Room for `frames` frames of `mtu` payload octets each (plus the header and one octet more,
  /// so that a longer frame shows as longer than MTU + header).
  EthernetReceiveBatch(size_t frames, size_t mtu);

  /// Reads up to size() frames without blocking; returns how many, or -errno (-EAGAIN: none).
  int receive(int fd);

  size_t size() const { return m_lengths.size(); }
  /// Frame i of the last receive(), cut at the buffer's capacity when it was longer.
  ByteSpan frame(size_t i) const;
  /// The full length of frame i (above frame(i).size() when it was cut).
  size_t length(size_t i) const { return m_lengths[i]; }
  /// Frame i is one of this host's own outgoing frames (to be skipped).
  bool outgoing(size_t i) const { return m_outgoing[i]; }

  /// Why drain() returned.
  enum class End : uint8_t {
    Empty,   ///< nothing more to read now
    Budget,  ///< maxFrames frames were read
    Stopped, ///< onFrame returned false
    Down,    ///< the interface went down (reported once; it may come back up)
    Gone,    ///< the interface was deleted, or the socket lost it
    Error,   ///< another receive error (`error`)
  };
  struct DrainResult
  {
    End end;
    int error = 0; ///< errno of Gone and Error
  };
  /// Reads frames from `fd`, a socket on `iface`, and hands each but our own outgoing ones to
  /// `onFrame(ByteSpan frame)` (cut at the buffer's capacity when longer: longer than MTU +
  /// header), until the socket is empty, `maxFrames` were read, or onFrame returns false.
  template<typename OnFrame>
  DrainResult drain(int fd, const NetworkInterface& iface, size_t maxFrames, OnFrame&& onFrame);

private:
  size_t m_capacity;
  Buffer m_storage;
  std::vector<size_t> m_lengths;
  std::vector<bool> m_outgoing;
};

template<typename OnFrame>
EthernetReceiveBatch::DrainResult EthernetReceiveBatch::drain(int fd, const NetworkInterface& iface, size_t maxFrames,
                                                              OnFrame&& onFrame)
{
  for (size_t read = 0; read < maxFrames;) {
    const int got = receive(fd);
    if (got == -EAGAIN || got == -EWOULDBLOCK)
      return {End::Empty};
    if (got == -EINTR)
      continue;
    // the kernel reports a deleted interface with the ENETDOWN of one that went down
    if (got == -ENODEV || got == -ENXIO || (got == -ENETDOWN && !isPresent(iface)))
      return {End::Gone, got == -ENETDOWN ? ENODEV : -got};
    if (got == -ENETDOWN)
      return {End::Down};
    if (got < 0)
      return {End::Error, -got};
    read += static_cast<size_t>(got);
    for (int i = 0; i < got; ++i) {
      if (!outgoing(i) && !onFrame(frame(i)))
        return {End::Stopped};
    }
    if (static_cast<size_t>(got) < size())
      return {End::Empty};
  }
  return {End::Budget};
}

} // namespace ndnlab::io
