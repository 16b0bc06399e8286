#pragma once
// Ethernet unicast (NFD's EthernetChannel and UnicastEthernetTransport): one channel per
// network interface, with one AF_PACKET socket (io/ethernet-socket.hpp) that receives the NDN
// frames addressed to the interface's MAC and that every unicast face of the interface sends
// through (EthernetSendQueue: a turn's frames leave in one sendmmsg); received frames, read
// with recvmmsg, are demultiplexed to faces by source MAC. Local URI dev://<ifname>, remote
// URI ether://[<mac>]; non-local, point-to-point, MTU = the interface's MTU (the link
// service fragments above it).
//
// As the UDP channel: the first valid frame from an unknown MAC creates an on-demand face, as
// io/datagram-faces.hpp admits it (garbage creates nothing; at most maxOnDemandFaces at once);
// faces/create makes persistent or permanent ones with connect(); an on-demand face that
// received nothing during one idle timeout period closes.
// Received frames shorter than the header ("runt_frame"), longer than MTU + header
// ("oversize_frame") or whose payload is not one TLV ("invalid_datagram") are counted drops;
// our own frames looped back are ignored. An interface that goes down makes sends fail
// ("send_error") until it is up again; one that disappears fails the channel's faces.

#include "io/datagram-faces.hpp"
#include "io/ethernet-socket.hpp"
#include "io/socket-transport.hpp"

#include <map>

namespace ndnlab::io {

struct EthernetChannelOptions
{
  /// An on-demand face idle (no frame received) this long is closed.
  Duration idleTimeout = std::chrono::seconds(600);
  /// Create on-demand faces for frames from unknown MAC addresses (NFD's `listen`).
  bool acceptNewFaces = true;
  /// Most on-demand faces at once; frames from further new MACs are dropped ("too_many_faces").
  size_t maxOnDemandFaces = 1024;
  /// SO_SNDBUF and SO_RCVBUF of the channel socket, bytes; 0 = kernel default.
  int socketBufferSize = 4 * 1024 * 1024;
  /// Frames read per wakeup before yielding to other handlers.
  size_t maxFramesPerWakeup = 64;
};

struct EthernetShared;
class EthernetChannel;

class EthernetUnicastTransport final : public SocketTransport, private EthernetSendQueue::Sink
{
public:
  EthernetUnicastTransport(Env& env, std::shared_ptr<EthernetShared> shared, const MacAddress& remote,
                           const TransportInfo& info, Duration idleTimeout);
  ~EthernetUnicastTransport() override;

  void close() override;
  const MacAddress& remoteAddress() const { return m_remote; }

protected:
  void doSend(SharedBuffer frame, face::EndpointId endpoint) override;

private:
  friend class EthernetChannel;
  /// A frame's payload (its first TLV) from the remote MAC.
  void deliver(ByteSpan payload);
  /// The interface went away: Failed ("socket_error").
  void fail();
  void countSendError(size_t bytes) override;
  void unregister();

  std::shared_ptr<EthernetShared> m_shared;
  MacAddress m_remote;
  EthernetHeader m_header;
};

/// Frames that reached no face, per reason (trace event "io_drop" with the same reason, face
/// 0): the on-demand admission's (io/datagram-faces.hpp) and the frames' own.
struct EthernetChannelCounters : OnDemandCounters
{
  uint64_t nRuntFrames = 0;     ///< "runt_frame"
  uint64_t nOversizeFrames = 0; ///< "oversize_frame"
};

class EthernetChannel
{
public:
  /// A channel on `iface` (nothing is opened until listen()).
  EthernetChannel(Env& env, asio::io_context& io, NetworkInterface iface, EthernetChannelOptions options);
  ~EthernetChannel();
  EthernetChannel(const EthernetChannel&) = delete;
  EthernetChannel& operator=(const EthernetChannel&) = delete;

  /// Opens the socket and starts receiving; `onCreated` receives on-demand faces. Throws
  /// std::runtime_error naming the interface and the cause (e.g. no CAP_NET_RAW).
  void listen(TransportCallback onCreated);
  void close();

  struct ConnectResult
  {
    std::unique_ptr<SocketTransport> created;     ///< a new face's transport, or
    EthernetUnicastTransport* existing = nullptr; ///< the transport already serving `remote`
  };
  /// Face towards `remote` (a unicast MAC; requires listen()). An existing face is returned,
  /// its persistency raised to `persistency` when that is stronger.
  ConnectResult connect(const MacAddress& remote, face::FacePersistency persistency);

  EthernetUnicastTransport* find(const MacAddress& remote) const;
  size_t size() const;
  size_t onDemandFaces() const;
  const EthernetChannelCounters& counters() const { return m_counters; }
  bool isListening() const;
  const NetworkInterface& interface() const;
  /// "dev://<ifname>".
  std::string uri() const;
  const EthernetChannelOptions& options() const { return m_options; }

private:
  void waitReadable();
  void drain();
  void dispatch(ByteSpan frame);
  /// The interface disappeared: every face fails, the socket closes.
  void failAll(const std::string& why);
  std::unique_ptr<EthernetUnicastTransport> makeTransport(const MacAddress& remote, face::FacePersistency p);

  Env& m_env;
  asio::io_context& m_io;
  EthernetChannelOptions m_options;
  std::shared_ptr<EthernetShared> m_shared;
  TransportCallback m_onCreated;
  std::unique_ptr<EthernetReceiveBatch> m_batch;
  EthernetChannelCounters m_counters;
  OnDemandAdmission m_admission;
  std::shared_ptr<char> m_guard = std::make_shared<char>(0);
};

} // namespace ndnlab::io
