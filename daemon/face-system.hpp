#pragma once
// The daemon's face system: opens the configured channels (Unix, TCP, UDP unicast, UDP
// multicast, Ethernet unicast and multicast per network interface), wraps every transport they produce in a Face with a
// GenericLinkService whose options follow the transport (local fields on local faces; fragmentation, reassembly and the
// configured MTU on UDP), adds it to the FaceTable, and creates outgoing faces for faces/create (udp4/tcp4/udp6/tcp6
// URIs, and ether://[MAC] with LocalUri dev://IFNAME, with persistent or permanent persistency).
//
// Ethernet: an interface whose socket cannot be opened (no CAP_NET_RAW, a vanished interface)
// is logged as an error and skipped; the daemon runs its other faces.
//
// Face persistency: channel faces are on-demand (UDP ones close after the idle timeout;
// stream ones close when the peer disconnects). faces/create makes persistent faces
// (closed on error) or permanent ones (TCP reconnects with backoff; UDP ignores send errors).
//
// [face_system.udp.impair] wraps every UDP unicast transport in a face::ImpairedTransport
// (egress loss, delay, jitter, rate) for hosts without tc netem; the face system looks through
// it (ImpairedTransport::unwrap) wherever it needs the socket transport.

#include "daemon/options.hpp"

#include "core/fw/forwarder.hpp"
#include "core/mgmt/face-system.hpp"

#include <asio/io_context.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace ndnlab::daemon {

class FaceSystem final : public mgmt::FaceSystem
{
public:
  /// Faces are added to `forwarder` (which connects them to the pipelines).
  FaceSystem(Env& env, asio::io_context& io, fw::Forwarder& forwarder, FaceSystemOptions options);
  ~FaceSystem() override;
  FaceSystem(const FaceSystem&) = delete;
  FaceSystem& operator=(const FaceSystem&) = delete;

  /// Opens every enabled channel (port 0 or empty path = disabled). Throws std::runtime_error
  /// naming the channel that failed.
  void start();
  /// Stops listening (removes the Unix socket file) and closes every face it created.
  void stop();

  /// Per-face options a faces/create request may set (NFD ControlParameters).
  struct FaceParams
  {
    face::FacePersistency persistency = face::FacePersistency::Persistent;
    std::optional<size_t> mtu;             ///< bytes, >= 64, datagram faces only
    std::optional<bool> localFields;       ///< Flags bit 0
    std::optional<bool> lpReliability;     ///< Flags bit 1
    std::optional<bool> congestionMarking; ///< Flags bit 2
    std::optional<Duration> congestionMarkingInterval;
    std::optional<size_t> congestionThreshold; ///< bytes
    std::optional<face::Medium> medium;        ///< ndnlab Medium
    std::optional<bool> bundling;              ///< ndnlab Flags bit 8
    std::optional<uint32_t> bundleInterval;    ///< ndnlab BundleInterval
  };

  struct CreateResult
  {
    uint32_t code = 200; ///< NFD status code: 200, 400, 406, 409, 504
    std::string text = "OK";
    face::FaceId faceId = face::InvalidFaceId; ///< the new face, or the existing one on 409
  };
  using CreateCallback = std::function<void(const CreateResult&)>;

  /// faces/create: `done` runs once, possibly later (TCP connect). `remoteUri` must be
  /// canonical: udp4://a.b.c.d:port, tcp4://..., udp6://[..]:port, tcp6://...
  void createFace(const std::string& remoteUri, const std::optional<std::string>& localUri, const FaceParams& params,
                  CreateCallback done);

  // --- mgmt::FaceSystem ---
  /// faces/create with NFD ControlParameters (Uri, LocalUri, FacePersistency, Flags+Mask: local
  /// fields, LpReliability, congestion marking,
  /// BaseCongestionMarkingInterval, DefaultCongestionThreshold, Mtu) and ndnlab's Medium,
  /// BundleInterval and Bundling flag; the reply body holds the face's parameters on 200 and 409.
  void createFace(const mgmt::ControlParameters& params, std::function<void(mgmt::ControlResponse)> done) override;
  std::vector<mgmt::ChannelStatus> channels() const override;
  /// On-demand UDP faces: idle timeout minus the time since the face was last used.
  std::optional<std::chrono::milliseconds> expirationPeriod(const face::Face& face) const override;
  /// The ControlParameters NFD reports for a face (faces/create reply body).
  mgmt::ControlParameters faceParameters(const face::Face& face) const;

  /// Adds a transport as a face; returns its id. `params` overrides the defaults of its kind.
  face::FaceId addFace(std::unique_ptr<io::SocketTransport> transport, const FaceParams* params = nullptr);

  /// Medium of a new face: the configured one of its kind (UDP unicast, multicast; stream
  /// faces are wired), unless `params` sets it.
  face::Medium medium(const io::SocketTransport& t, const FaceParams* params = nullptr) const;
  /// Link-service options a transport of this kind and scope gets by default. Link reliability
  /// ([face_system.link] reliability) applies by default to UDP and Ethernet unicast faces only
  /// (stream faces are reliable already, multicast ones are not point-to-point); faces/create's
  /// LpReliability flag sets it on any face.
  face::LinkServiceOptions linkServiceOptions(const io::SocketTransport& t, const FaceParams* params = nullptr) const;

  /// URIs of the listening channels (faces/channels dataset).
  std::vector<std::string> channelUris() const;
  /// Interfaces with an Ethernet channel, by name.
  std::vector<std::string> etherInterfaces() const;
  /// Listening ports (0 when disabled), for tests and logs.
  uint16_t tcpPort() const;
  uint16_t udpPort() const;
  const FaceSystemOptions& options() const { return m_options; }

private:
  /// Opens the Ethernet channels and multicast faces of the selected interfaces.
  void startEther(const io::TransportCallback& onCreated);
  void createEtherFace(const std::string& remoteUri, const std::optional<std::string>& localUri,
                       const FaceParams& params, const CreateCallback& done);
  face::Face* findByRemoteUri(const std::string& uri) const;
  face::Face* findByTransport(const face::Transport* t) const;

  Env& m_env;
  asio::io_context& m_io;
  fw::Forwarder& m_forwarder;
  face::FaceTable& m_faces;
  FaceSystemOptions m_options;
  std::unique_ptr<io::UnixStreamChannel> m_unix;
  std::unique_ptr<io::TcpChannel> m_tcp;
  std::unique_ptr<io::WebSocketChannel> m_websocket;
  std::unique_ptr<io::UdpChannel> m_udp;
  face::FaceId m_multicastFace = face::InvalidFaceId;
  std::map<std::string, std::unique_ptr<io::EthernetChannel>> m_ether; ///< by interface name
  std::shared_ptr<char> m_guard = std::make_shared<char>(0);
};

} // namespace ndnlab::daemon
