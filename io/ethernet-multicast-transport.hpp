#pragma once
// Ethernet multicast face (NFD's MulticastEthernetTransport): one per interface, frames to
// a group MAC (NFD's 01:00:5e:00:17:aa by default) with EtherType 0x8624. Multi-access (or
// ad hoc, NFD's mcast_ad_hoc), non-local, permanent; MTU = the interface's MTU. Each
// received frame carries EndpointId = the sender's MAC (MacAddress::toUint()), so the link
// service reassembles per sender. Local URI dev://<ifname>, remote URI ether://[<group>].
// Drops as the unicast channel's (io/ethernet-channel.hpp); our own frames are ignored.

#include "io/ethernet-socket.hpp"
#include "io/socket-transport.hpp"

namespace ndnlab::io {

struct EthernetMulticastOptions
{
  /// Group address (must be multicast).
  MacAddress group = DefaultEtherMulticastGroup;
  /// Ad hoc link type (wireless networks where members may not hear each other), else multi-access.
  bool adHoc = false;
  /// SO_SNDBUF and SO_RCVBUF, bytes; 0 = kernel default.
  int socketBufferSize = 4 * 1024 * 1024;
  /// Frames read per wakeup before yielding.
  size_t maxFramesPerWakeup = 64;
};

class EthernetMulticastTransport final : public SocketTransport, private EthernetSendQueue::Sink
{
public:
  /// Opens the socket on `iface` and joins the group; throws std::runtime_error naming the
  /// interface and the cause.
  EthernetMulticastTransport(Env& env, asio::io_context& io, NetworkInterface iface,
                             const EthernetMulticastOptions& options);
  ~EthernetMulticastTransport() override;

  void close() override;
  const NetworkInterface& interface() const { return m_iface; }

protected:
  void doSend(SharedBuffer frame, face::EndpointId endpoint) override;

private:
  void waitReadable();
  void drain();
  /// One received frame.
  void deliver(ByteSpan frame);
  /// The interface is gone: Failed ("socket_error").
  void fail(const std::string& why);
  void countSendError(size_t bytes) override;

  NetworkInterface m_iface;
  EthernetMulticastOptions m_options;
  asio::generic::raw_protocol::socket m_socket;
  std::shared_ptr<EthernetSendQueue> m_sender;
  EthernetHeader m_header;
  EthernetReceiveBatch m_batch;
};

} // namespace ndnlab::io
