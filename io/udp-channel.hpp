#pragma once
// UDP unicast: one channel socket (NFD default port 6363) shared by every unicast face of the
// channel; datagrams are demultiplexed to faces by remote endpoint. The first valid datagram
// from an unknown endpoint creates an on-demand face, as io/datagram-faces.hpp admits it
// (garbage creates nothing; at most maxOnDemandFaces at once). faces/create makes persistent or
// permanent ones with connect() (not limited). An on-demand face that received
// nothing during one idle timeout period closes ("idle_timeout"). UDP faces are non-local
// (NFD rule).

#include "io/datagram-faces.hpp"
#include "io/socket-transport.hpp"

#include <asio/io_context.hpp>
#include <asio/ip/udp.hpp>

#include <map>

namespace ndnlab::io {

/// Largest UDP payload over IPv4: 65535 - 20 (IP header) - 8 (UDP header).
inline constexpr ssize_t UdpMaxPayloadV4 = 65507;

/// Largest UDP payload that reaches `remote` without IP fragmentation: the MTU of the kernel's
/// route to it (IP_MTU, the interface's or a learned path MTU) less the IP and UDP headers,
/// at most UdpMaxPayloadV4; UdpMaxPayloadV4 when the kernel knows no route. A unicast face's
/// MTU, so NDNLPv2 fragments a larger packet instead of the kernel: a datagram that loses one
/// IP fragment is held for net.ipv4.ipfrag_time (30 s), and once such datagrams fill
/// ipfrag_high_thresh the kernel silently drops every new fragmented datagram.
ssize_t udpPathPayload(const asio::ip::udp::endpoint& remote);

struct UdpChannelOptions
{
  /// Listen address ("0.0.0.0" = all IPv4 interfaces).
  std::string address = "0.0.0.0";
  /// Listen port; 0 = an ephemeral port (see localEndpoint()).
  uint16_t port = 6363;
  /// An on-demand face idle (no datagram received) this long is closed.
  Duration idleTimeout = std::chrono::seconds(600);
  /// SO_SNDBUF and SO_RCVBUF of the channel socket, bytes; 0 = kernel default.
  int socketBufferSize = 4 * 1024 * 1024;
  /// Create on-demand faces for datagrams from unknown endpoints.
  bool acceptNewFaces = true;
  /// Most on-demand faces at once (each costs a few KiB); datagrams from further new
  /// endpoints are dropped ("too_many_faces"). Faces from faces/create do not count.
  size_t maxOnDemandFaces = 1024;
  /// Datagrams read per wakeup before yielding to other handlers.
  size_t maxDatagramsPerWakeup = 64;
};

struct UdpShared;
class UdpChannel;

class UdpUnicastTransport final : public SocketTransport
{
public:
  UdpUnicastTransport(Env& env, std::shared_ptr<UdpShared> shared, const asio::ip::udp::endpoint& remote,
                      const TransportInfo& info, Duration idleTimeout);
  ~UdpUnicastTransport() override;

  void close() override;
  const asio::ip::udp::endpoint& remoteEndpoint() const { return m_remote; }
  /// Most bytes one GSO send of this face may carry: what the face sent in about 1 ms at its
  /// recent rate (as TCP sizes its TSO buffers), so that a drop-tail queue on a slow link
  /// never drops a batch of many datagrams at once; 0 until a rate is known.
  size_t gsoBudget() const { return m_gsoBudget; }

protected:
  void doSend(SharedBuffer frame, face::EndpointId endpoint) override;
  /// A datagram of `bytes` could not be sent ("send_error").
  void countSendError(size_t bytes);
  /// Accounts `bytes` sent now (the rate behind gsoBudget()).
  void recordSent(size_t bytes);

private:
  friend class UdpChannel;
  friend struct UdpShared;
  void deliver(ByteSpan datagram);
  void unregister();

  std::shared_ptr<UdpShared> m_shared;
  asio::ip::udp::endpoint m_remote;
  TimePoint m_rateStart{};  ///< start of the current rate interval
  uint64_t m_rateBytes = 0; ///< bytes sent since m_rateStart
  size_t m_gsoBudget = 0;
};

/// Datagrams from unknown endpoints that created no face, per reason, and the on-demand faces
/// created (io/datagram-faces.hpp).
using UdpChannelCounters = OnDemandCounters;

class UdpChannel
{
public:
  UdpChannel(Env& env, asio::io_context& io, UdpChannelOptions options);
  ~UdpChannel();
  UdpChannel(const UdpChannel&) = delete;
  UdpChannel& operator=(const UdpChannel&) = delete;

  /// Binds and starts receiving; `onCreated` receives on-demand faces. Throws
  /// std::runtime_error on a bad address or bind failure.
  void listen(TransportCallback onCreated);
  void close();

  struct ConnectResult
  {
    std::unique_ptr<SocketTransport> created; ///< a new face's transport, or
    UdpUnicastTransport* existing = nullptr;  ///< the transport already serving `remote`
  };
  /// Face towards `remote` (requires listen()). An existing face is returned, its persistency
  /// raised to `persistency` when that is stronger.
  ConnectResult connect(const asio::ip::udp::endpoint& remote, face::FacePersistency persistency);

  /// Transport serving `remote`, if any.
  UdpUnicastTransport* find(const asio::ip::udp::endpoint& remote) const;
  size_t size() const;
  /// On-demand faces of the channel (the ones maxOnDemandFaces bounds).
  size_t onDemandFaces() const;
  const UdpChannelCounters& counters() const { return m_counters; }
  bool isListening() const;
  asio::ip::udp::endpoint localEndpoint() const;
  /// "udp4://<address>:<port>" of the channel socket.
  std::string uri() const;
  const UdpChannelOptions& options() const { return m_options; }

private:
  void waitReadable();
  void drain();
  void dispatch(ByteSpan datagram, const asio::ip::udp::endpoint& from);
  std::unique_ptr<UdpUnicastTransport> makeTransport(const asio::ip::udp::endpoint& remote, face::FacePersistency p);

  Env& m_env;
  asio::io_context& m_io;
  UdpChannelOptions m_options;
  std::shared_ptr<UdpShared> m_shared;
  TransportCallback m_onCreated;
  Buffer m_rbuf;
  asio::ip::udp::endpoint m_sender;
  UdpChannelCounters m_counters;
  OnDemandAdmission m_admission;
  std::shared_ptr<char> m_guard = std::make_shared<char>(0);
};

/// NFD canonical URI of a UDP endpoint: udp4://a.b.c.d:port or udp6://[addr]:port.
std::string udpUri(const asio::ip::udp::endpoint& ep);

} // namespace ndnlab::io
