#pragma once
// The NDNLPv2 link reliability protocol (NDNLPv2 spec, "Link Reliability Protocol"; NFD
// daemon/face/lp-reliability) as a link sub-service beside the fragmenter, the reassembler and
// the bundling service (docs/mechanisms/reliability.md). GenericLinkService owns one while
// options.reliability.enabled, and uses it on point-to-point faces only.
//
// Sender: every frame that carries a Fragment gets the next TxSequence (from 0, never wrapping
// in practice) and is held, with the network packet it belongs to, until the peer acknowledges
// that TxSequence. A frame goes out again under a new TxSequence when its RTO passes (timeout)
// or when a frame sent lossThreshold TxSequences after it is acknowledged (gap); once one frame
// has been sent again maxRetx times and is lost again, its whole network packet is given up
// (nRetxExhausted, drop lp_retx_exhausted). The RTO is SRTT + 4 RTTVAR (RFC 6298) of the Ack
// round trips of frames sent once, within [200 ms, 60 s] and 1 s before the first sample
// (ndn-cxx RttEstimator's defaults, which NFD uses).
//
// Receiver: the TxSequence of every frame received with a Fragment is queued for
// acknowledgement. Queued Acks ride on the next frames sent, as many as fit under the MTU, or,
// when none leaves within idleAckPeriod, in IDLE frames of their own. A frame whose Sequence
// was received recently is a retransmission whose Ack was lost or late: acknowledged again, not
// handed up again (nDuplicateSequence).
//
// Where this differs from NFD (nothing of it shows on the wire):
// - loss from later Acks uses the distance in TxSequences, QUIC's packet threshold (RFC 9002
//   6.1.1), where NFD counts the Acks of later frames: the same verdict when the later frames
//   arrive, and O(log n) per Ack instead of a walk over every frame in flight;
// - duplicates are recognised within the last 2^16 Sequences received, NFD's within the last
//   RTO (the receiver's own estimate);
// - the octets held for retransmission are bounded (maxUnackedBytes; NFD's are not), so a peer
//   that never acknowledges cannot make a face hold every frame for seconds;
// - a frame with more Acks than any sender puts in one frame is dropped (lp_too_many_acks);
// - a dropped Interest is not reported to the strategy (NFD's onDroppedInterest).

#include "core/face/link-service.hpp"
#include "core/lp/packet.hpp"

#include <array>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace ndnlab::face {

class LinkReliability
{
public:
  /// What the service does through its link service.
  struct Hooks
  {
    /// Sends one frame: a retransmission (with its new TxSequence) or an IDLE frame of Acks. The
    /// link service piggybacks Acks, encodes and sends it.
    std::function<void(lp::LpPacket&& frame, EndpointId endpoint)> send;
    /// Counts and traces one dropped network packet or frame.
    std::function<void(uint64_t& counter, DropReason reason, EndpointId endpoint, size_t octets)> drop;
    /// Largest frame the link takes (octets), nullopt when unlimited.
    std::function<std::optional<size_t>()> mtu;
  };

  /// Octets of a TxSequence field (3 + 1 + 8), plus 2 for the LpPacket's TLV-LENGTH growing
  /// when it is added: the part of the MTU the fragmenter leaves free.
  static constexpr size_t ReservedHeaderSpace = 14;
  /// Octets of one Ack field (3 + 1 + 8).
  static constexpr size_t AckFieldSize = 12;
  /// Most Ack fields accepted in one received frame: more than fit in a 12 KiB frame. NFD fills
  /// a frame with Acks up to the MTU (8800 octets at most on UDP, 9000 on jumbo Ethernet).
  static constexpr size_t MaxAcksPerFrame = 1024;
  /// Sequences the duplicate window covers.
  static constexpr uint64_t DuplicateWindow = 65536;

  /// `owner` supplies the face id for logs and traces, `options` (its
  /// LinkServiceOptions::reliability) and `counters` are its own; all outlive the service.
  LinkReliability(Env& env, const LinkService& owner, const ReliabilityOptions& options,
                  LinkService::Counters& counters, Hooks hooks);
  /// Cancels every timer; frames still unacknowledged are forgotten.
  ~LinkReliability();
  LinkReliability(const LinkReliability&) = delete;
  LinkReliability& operator=(const LinkReliability&) = delete;

  // --- send side ---
  /// Gives each frame of one network packet its TxSequence and holds the frames until they are
  /// acknowledged. Precondition: every frame has a Sequence and a Fragment viewing `wire`. The
  /// caller then sends them, in order.
  void onSend(std::vector<lp::LpPacket>& frames, SharedBuffer wire, EndpointId endpoint);
  /// Moves queued Acks into `frame` while it stays within `mtu` octets encoded (8800 when
  /// unlimited, as NFD).
  void piggyback(lp::LpPacket& frame, std::optional<size_t> mtu);

  // --- receive side ---
  enum class Verdict : uint8_t {
    Accept,      ///< go on with the frame
    Duplicate,   ///< its Sequence was received already: acknowledged, not to be handed up
    TooManyAcks, ///< more than MaxAcksPerFrame Acks: nothing of it was looked at
  };
  /// Takes the Acks of a received frame (retransmitting what they show lost) and queues the
  /// Ack of its TxSequence.
  Verdict onReceive(const lp::LpPacket& frame, EndpointId endpoint);

  // --- diagnostics (tests) ---
  size_t unackedFrames() const { return m_inFlight.size(); }
  size_t unackedPackets() const { return m_nPackets; }
  size_t unackedBytes() const { return m_unackedBytes; }
  size_t pendingAcks() const { return m_ackQueue.size(); }
  uint64_t nextTxSequence() const { return m_nextTxSeq; }
  Duration rto() const { return m_rto; }

private:
  /// A network packet with frames awaiting Acks.
  struct Packet
  {
    SharedBuffer wire;            ///< the fragments of its frames view this buffer
    EndpointId endpoint = 0;      ///< where its frames go
    std::vector<uint64_t> txSeqs; ///< each frame's current TxSequence, Acked once acknowledged
    size_t unacked = 0;           ///< frames not yet acknowledged
    bool retransmitted = false;   ///< a frame of it was sent again
  };
  /// A frame awaiting its Ack, under its current TxSequence.
  struct Frame
  {
    lp::LpPacket pkt; ///< as first sent, without TxSequence and Acks
    std::shared_ptr<Packet> packet;
    size_t index = 0; ///< in packet->txSeqs
    TimePoint sentAt;
    size_t retx = 0; ///< times sent again so far
    TimerId rtoTimer = 0;
  };
  using InFlight = std::map<uint64_t, Frame>; ///< by TxSequence
  static constexpr uint64_t Acked = UINT64_MAX;

  void onAck(InFlight::iterator it);
  /// Sends again, or gives up on, every frame a later Ack shows lost.
  void detectGapLosses();
  void onRtoExpired(uint64_t txSeq);
  /// A frame is lost: sends it again under a new TxSequence, or gives up its packet.
  void onLost(InFlight::iterator it, bool timeout);
  /// Forgets every frame of `packet` (its timers too), counts and traces the drop.
  void giveUp(const std::shared_ptr<Packet>& packet, uint64_t& counter, DropReason reason);
  void release(const Packet& packet);
  TimerId armRto(uint64_t txSeq);
  void addRttSample(Duration rtt);
  void armIdleAck();
  void sendIdleAcks();
  /// True if `seq` was received recently (it is remembered now in any case).
  bool seenBefore(uint64_t seq);

  Env& m_env;
  const LinkService& m_owner;
  const ReliabilityOptions& m_options;
  LinkService::Counters& m_counters;
  Hooks m_hooks;

  // send side
  InFlight m_inFlight;
  uint64_t m_nextTxSeq = 0;
  std::optional<uint64_t> m_largestAcked;
  size_t m_nPackets = 0;
  size_t m_unackedBytes = 0;
  Duration m_rto = std::chrono::seconds(1);
  std::optional<Duration> m_srtt;
  Duration m_rttvar{};

  // receive side
  std::deque<uint64_t> m_ackQueue;
  EndpointId m_ackEndpoint = 0;
  TimerId m_idleAckTimer = 0;
  std::optional<uint64_t> m_highestSeq;                   ///< highest Sequence received (serial order)
  std::array<uint64_t, DuplicateWindow / 64> m_seqBits{}; ///< bit (seq % window): received
};

} // namespace ndnlab::face
