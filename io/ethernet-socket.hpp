#pragma once
// Network interfaces and the AF_PACKET sockets of Ethernet faces (Linux). A socket is
// SOCK_RAW, bound to one interface with protocol EtherType 0x8624, and has a classic BPF
// filter that passes only NDN frames to one destination MAC (the interface's own address for
// unicast faces, the group for the multicast face), as NFD's pcap filters do. Opening one
// needs CAP_NET_RAW; without it the error says so.

#include "io/ethernet-frame.hpp"

#include <asio/generic/raw_protocol.hpp>
#include <asio/io_context.hpp>

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

/// Sends `header` (the 14 octets of destination, source, EtherType) and `payload` as one frame,
/// zero-padded to EthernetMinFrameSize, without blocking; false (errno set) when the kernel
/// refused it.
bool sendEthernetFrame(int fd, const std::array<uint8_t, EthernetHeaderSize>& header, ByteSpan payload);

/// The 14-octet header of frames from `src` to `dst`.
std::array<uint8_t, EthernetHeaderSize> ethernetHeader(const MacAddress& dst, const MacAddress& src);

struct ReceivedFrame
{
  size_t length = 0;     ///< the frame's full length; above the buffer's size when truncated
  int error = 0;         ///< errno (EAGAIN: nothing to read); 0 when a frame was read
  bool outgoing = false; ///< one of this host's own outgoing frames (to be skipped)
};

/// Receives one frame into `buf` without blocking.
ReceivedFrame receiveEthernetFrame(int fd, std::span<uint8_t> buf);

} // namespace ndnlab::io
