#pragma once
// UDP multicast face (NFD default group 224.0.23.170, port 56363): a multi-access,
// non-local, permanent transport. Frames go to the group; each received frame carries
// EndpointId = endpointIdOf(sender), so the link service can reassemble per sender.

#include "io/socket-transport.hpp"

#include <asio/io_context.hpp>
#include <asio/ip/udp.hpp>

namespace ndnlab::io {

struct UdpMulticastOptions
{
  /// IPv4 multicast group.
  std::string group = "224.0.23.170";
  /// Group port.
  uint16_t port = 56363;
  /// Local interface address used to join and send ("0.0.0.0" = the kernel's choice).
  std::string interfaceAddress = "0.0.0.0";
  /// IP_MULTICAST_TTL.
  int ttl = 1;
  /// IP_MULTICAST_LOOP: deliver our own datagrams to other sockets of this host (lets several
  /// daemons on one host share the group); our own datagrams are then filtered by source port.
  bool loopback = false;
  /// Link type ad hoc instead of multi-access: members may not hear each other (a wireless
  /// relay forwards out of the face it received on, as NFD's ad hoc faces).
  bool adHoc = false;
  /// SO_SNDBUF and SO_RCVBUF, bytes; 0 = kernel default.
  int socketBufferSize = 4 * 1024 * 1024;
  /// Datagrams read per wakeup before yielding.
  size_t maxDatagramsPerWakeup = 64;
};

class UdpMulticastTransport final : public SocketTransport
{
public:
  /// Opens, binds and joins; throws std::runtime_error with the cause on failure.
  UdpMulticastTransport(Env& env, asio::io_context& io, const UdpMulticastOptions& options);
  ~UdpMulticastTransport() override;

  void close() override;

  /// EndpointId of a sender: (IPv4 address << 16) | port, unique per IPv4 endpoint.
  static face::EndpointId endpointIdOf(const asio::ip::udp::endpoint& ep);
  asio::ip::udp::endpoint sendEndpoint() const;

protected:
  void doSend(SharedBuffer frame, face::EndpointId endpoint) override;

private:
  void waitReadable();
  void drain();

  UdpMulticastOptions m_options;
  asio::ip::udp::endpoint m_group;
  asio::ip::udp::socket m_recv;
  asio::ip::udp::socket m_send;
  uint16_t m_sendPort = 0;
  Buffer m_rbuf;
  asio::ip::udp::endpoint m_sender;
};

} // namespace ndnlab::io
