#pragma once
// Transport: moves frames (bytes) in and out of one link. Knows MTU, scope, persistency,
// link type and state; nothing about NDN packets. Implementations: io/ sockets, the ns-3
// NetDeviceTransport, InternalTransport (in-process pairs) and test fakes.

#include "core/codec/tlv.hpp"

#include <functional>
#include <string>

namespace ndnlab::face {

using FaceId = uint64_t;
inline constexpr FaceId InvalidFaceId = 0;
inline constexpr FaceId InternalFaceId = 1; ///< management
inline constexpr FaceId ContentStoreFaceId = 254;
inline constexpr FaceId NullFaceId = 255;
inline constexpr FaceId FirstRegularFaceId = 256;

/// NFD FaceScope.
enum class FaceScope : uint8_t { NonLocal = 0, Local = 1 };
/// NFD FacePersistency.
enum class FacePersistency : uint8_t { Persistent = 0, OnDemand = 1, Permanent = 2 };
/// NFD LinkType.
enum class LinkType : uint8_t { PointToPoint = 0, MultiAccess = 1, AdHoc = 2 };
/// Physical medium, decides per-face mechanisms such as BLEnD bundling (wireless only).
enum class Medium : uint8_t { Wired = 0, Wireless = 1 };

enum class TransportState : uint8_t { Up, Down, Closing, Failed, Closed };

std::string_view toString(FaceScope);
std::string_view toString(FacePersistency);
std::string_view toString(LinkType);
std::string_view toString(Medium);
std::string_view toString(TransportState);

/// Identifies the remote endpoint of a multi-access transport (e.g. a UDP multicast sender or
/// a MAC address); 0 on point-to-point transports.
using EndpointId = uint64_t;

/// MTU value for transports without a limit (stream sockets, internal).
inline constexpr ssize_t MtuUnlimited = -1;

class Transport
{
public:
  struct Counters
  {
    uint64_t nInPackets = 0, nOutPackets = 0, nInBytes = 0, nOutBytes = 0;
  };

  virtual ~Transport() = default;

  // --- upper interface (called by the link service) ---
  /// Sends one frame. Precondition: frame size <= mtu() when the MTU is limited.
  void send(SharedBuffer frame, EndpointId endpoint = 0);
  /// Starts closing; state goes Closing -> Closed.
  virtual void close() = 0;
  /// Installed by the link service: called for every frame received.
  std::function<void(ByteSpan frame, EndpointId endpoint)> onReceive;
  /// Installed by the face: called after every state change.
  std::function<void(TransportState oldState, TransportState newState)> onStateChange;

  // --- properties ---
  const std::string& localUri() const { return m_localUri; }
  const std::string& remoteUri() const { return m_remoteUri; }
  FaceScope scope() const { return m_scope; }
  FacePersistency persistency() const { return m_persistency; }
  void setPersistency(FacePersistency p) { m_persistency = p; }
  LinkType linkType() const { return m_linkType; }
  /// Changes the NFD link type (e.g. ad hoc for a wireless relay's face); before traffic flows.
  void setLinkType(LinkType t) { m_linkType = t; }
  Medium medium() const { return m_medium; }
  void setMedium(Medium m) { m_medium = m; }
  ssize_t mtu() const { return m_mtu; }
  TransportState state() const { return m_state; }
  /// Bytes queued for sending (socket + internal queue); drives congestion marking. 0 if unknown.
  virtual size_t sendQueueLength() const { return 0; }
  /// Bytes the link has received that this transport has not read yet (e.g. a socket's receive
  /// queue, sampled at the last read); drives receive-side congestion marking. 0 if unknown.
  virtual size_t receiveQueueLength() const { return 0; }
  const Counters& counters() const { return m_counters; }

protected:
  Transport(std::string localUri, std::string remoteUri, FaceScope scope, FacePersistency persistency,
            LinkType linkType, ssize_t mtu)
    : m_localUri(std::move(localUri)),
      m_remoteUri(std::move(remoteUri)),
      m_scope(scope),
      m_persistency(persistency),
      m_linkType(linkType),
      m_mtu(mtu)
  {}

  // --- lower interface (called by implementations) ---
  virtual void doSend(SharedBuffer frame, EndpointId endpoint) = 0;
  /// Implementations call this for each received frame.
  void receive(ByteSpan frame, EndpointId endpoint = 0);
  void setState(TransportState s);
  void setMtu(ssize_t mtu) { m_mtu = mtu; }

private:
  std::string m_localUri, m_remoteUri;
  FaceScope m_scope;
  FacePersistency m_persistency;
  LinkType m_linkType;
  Medium m_medium = Medium::Wired;
  ssize_t m_mtu;
  TransportState m_state = TransportState::Up;
  Counters m_counters;
};

} // namespace ndnlab::face
