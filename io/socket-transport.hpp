#pragma once
// Common base of the socket transports of io/: the Env used for logs and trace events,
// per-reason I/O counters, and the reason a transport closed.

#include "core/face/transport.hpp"
#include "core/runtime/env.hpp"

#include <memory>
#include <string>

namespace ndnlab::io {

/// Which socket a transport runs over (the face system picks link-service options by it).
enum class TransportKind : uint8_t {
  UnixStream,
  Tcp,
  UdpUnicast,
  UdpMulticast,
  WebSocket,
  EtherUnicast,
  EtherMulticast
};

/// Static properties given to a socket transport at construction.
struct TransportInfo
{
  TransportKind kind = TransportKind::UnixStream;
  std::string localUri;
  std::string remoteUri;
  face::FaceScope scope = face::FaceScope::NonLocal;
  face::FacePersistency persistency = face::FacePersistency::OnDemand;
  face::LinkType linkType = face::LinkType::PointToPoint;
  ssize_t mtu = face::MtuUnlimited;
};

/// I/O-level drops and failures; each field name is the reason string used in logs/traces.
struct IoCounters
{
  uint64_t nFrameTooLarge = 0;   ///< "frame_too_large": stream TLV header above the limit
  uint64_t nEofMidFrame = 0;     ///< "eof_mid_frame": the peer closed with part of a frame unread
  uint64_t nQueueDiscarded = 0;  ///< "send_queue_discarded": frames still queued when the face closed
  uint64_t nBadHeader = 0;       ///< "bad_tlv_header": invalid TLV-TYPE/LENGTH in a stream
  uint64_t nInvalidDatagram = 0; ///< "invalid_datagram": datagram is not exactly one TLV
  uint64_t nInvalidMessage = 0;  ///< "invalid_message": WebSocket message is not one binary TLV
  uint64_t nSendQueueFull = 0;   ///< "send_queue_full": frame dropped, queue above its bound
  uint64_t nSendErrors = 0;      ///< "send_error": datagram send failed (EAGAIN, unreachable)
  uint64_t nSocketErrors = 0;    ///< "socket_error": read/write error on a stream socket
  uint64_t nRuntFrames = 0;      ///< "runt_frame": Ethernet frame shorter than its header
  uint64_t nOversizeFrames = 0;  ///< "oversize_frame": Ethernet frame above the interface MTU
  uint64_t nReconnects = 0;      ///< permanent faces: successful reconnections
};

class SocketTransport : public face::Transport
{
public:
  ~SocketTransport() override { stopIdleCheck(); }

  /// Why the transport closed or failed: a CloseReason name (`eof`, `frame_too_large`,
  /// `idle_timeout`, ...); empty while open.
  const std::string& closeReason() const { return m_closeReason; }
  const IoCounters& ioCounters() const { return m_ioCounters; }
  TransportKind kind() const { return m_kind; }
  /// FaceId reported in trace events (set by the face system once the face is added).
  void setTraceFaceId(face::FaceId id) { m_traceFaceId = id; }
  /// Keeps the channel's admission ticket (FaceAdmission) until the transport is destroyed.
  void holdAdmission(std::shared_ptr<void> ticket) { m_admission = std::move(ticket); }

  /// Raises the persistency (on-demand < persistent < permanent); never lowers it.
  void upgradePersistency(face::FacePersistency p)
  {
    auto rank = [](face::FacePersistency x) {
      return x == face::FacePersistency::OnDemand ? 0 : x == face::FacePersistency::Persistent ? 1 : 2;
    };
    if (rank(p) > rank(persistency()))
      setPersistency(p);
  }

protected:
  SocketTransport(Env& env, const TransportInfo& info)
    : Transport(info.localUri, info.remoteUri, info.scope, info.persistency, info.linkType, info.mtu),
      m_env(env),
      m_kind(info.kind)
  {}

  /// Datagram faces of a channel (UDP, Ethernet): while the transport is on-demand and Up, closes
  /// it ("idle_timeout") after a whole `period` in which it received nothing; checked once per
  /// period, so it closes between one and two periods after its last frame. `period` <= 0: never.
  void startIdleCheck(Duration period)
  {
    stopIdleCheck();
    if (period <= Duration::zero())
      return;
    m_inAtLastCheck = counters().nInPackets;
    m_idleTimer = m_env.timers().schedule(period, [this, period] {
      m_idleTimer = 0;
      if (persistency() == face::FacePersistency::OnDemand && counters().nInPackets == m_inAtLastCheck &&
          state() == face::TransportState::Up) {
        recordClose(CloseReason::IdleTimeout, LogLevel::Info);
        close();
        return;
      }
      startIdleCheck(period);
    });
  }
  void stopIdleCheck()
  {
    if (m_idleTimer != 0)
      m_env.timers().cancel(m_idleTimer);
    m_idleTimer = 0;
  }

  /// Counts a dropped frame: trace event "io_drop" with `reason`, debug log line ending DROP.
  void traceDrop(DropReason reason, int64_t bytes = 0)
  {
    m_env.emit(TraceEvent::dropped(EventKind::IoDrop, m_traceFaceId, reason, bytes));
    NDNLAB_LOG(m_env, LogLevel::Debug, "io", remoteUri(), " ", toString(reason), " DROP");
  }

  /// Records why the transport is going away: trace event "face_close" with the reason.
  void recordClose(CloseReason reason, LogLevel level = LogLevel::Info)
  {
    if (!m_closeReason.empty())
      return;
    m_closeReason = std::string(toString(reason));
    m_env.emit(TraceEvent::closed(m_traceFaceId, reason));
    NDNLAB_LOG(m_env, level, "io", remoteUri(), " closing: ", toString(reason));
  }

  /// Weak handle checked by asynchronous handlers: expired once the transport is destroyed.
  std::weak_ptr<char> guard() const { return m_guard; }

  /// True once the transport is closing, closed or failed (a second close has nothing to do).
  bool isGoingAway() const
  {
    auto s = state();
    return s == face::TransportState::Closing || s == face::TransportState::Closed || s == face::TransportState::Failed;
  }

  /// Sets `s` (Closing or Failed), then Closed on a later turn of the event loop, so that a face
  /// is never destroyed inside a call into its transport; nothing more if setting `s`
  /// destroyed the transport.
  void closeNextTurn(face::TransportState s)
  {
    auto g = guard();
    setState(s);
    if (g.expired())
      return;
    m_env.timers().schedule(Duration::zero(), [this, g] {
      if (!g.expired())
        setState(face::TransportState::Closed);
    });
  }

  Env& m_env;
  TransportKind m_kind;
  IoCounters m_ioCounters;
  std::string m_closeReason;
  face::FaceId m_traceFaceId = face::InvalidFaceId;
  std::shared_ptr<char> m_guard = std::make_shared<char>(0);
  std::shared_ptr<void> m_admission;

private:
  TimerId m_idleTimer = 0;
  uint64_t m_inAtLastCheck = 0; ///< nInPackets when the current idle period began
};

/// Channels hand every transport they create (accepted or connected) to this callback.
using TransportCallback = std::function<void(std::unique_ptr<SocketTransport>)>;

} // namespace ndnlab::io
