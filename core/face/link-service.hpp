#pragma once
// LinkService: network packets <-> link frames. GenericLinkService speaks NDNLPv2: bare or LP
// framing, PitToken, Nack, CongestionMark, IncomingFaceId/NextHopFaceId (local fields),
// CachePolicy, fragmentation/reassembly, congestion marking; (issue 4) the Interest bundler;
// (issue 28) the MIRCC rate field; the NDNLPv2 link reliability protocol (TxSequence, Ack).
// Malformed frames are counted drops with a reason, never exceptions.

#include "core/lp/interest-bundler.hpp"
#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "core/codec/nack.hpp"
#include "core/face/transport.hpp"
#include "core/runtime/env.hpp"

#include <map>
#include <string>

namespace ndnlab::face {

/// NDNLPv2 link reliability (docs/mechanisms/reliability.md; NFD LpReliability::Options,
/// whose defaults these are). Effective on point-to-point faces only.
struct ReliabilityOptions
{
  /// Every frame carries a TxSequence, the peer's TxSequences are acknowledged, and frames
  /// left unacknowledged are sent again. Off by default; both ends must turn it on (a peer
  /// without it never acknowledges, so every frame would be sent maxRetx + 1 times).
  bool enabled = false;
  /// Retransmissions of one frame before its network packet is given up.
  size_t maxRetx = 3;
  /// Acks not piggybacked on a frame within this long leave in an IDLE frame of their own.
  Duration idleAckPeriod = std::chrono::milliseconds(5);
  /// A frame is lost once a frame sent this many TxSequences after it is acknowledged.
  size_t lossThreshold = 3;
  /// Upper bound on the network packets held for retransmission, octets, per face; beyond it
  /// the oldest one is given up (a peer that never acknowledges cannot grow it further).
  size_t maxUnackedBytes = 16 * 1024 * 1024;
};

struct LinkServiceOptions
{
  /// Accept/emit IncomingFaceId and NextHopFaceId (NFD "local fields"); local faces only.
  bool allowLocalFields = false;
  /// Fragment outgoing packets larger than the MTU (datagram links).
  bool allowFragmentation = false;
  /// Reassemble incoming fragments.
  bool allowReassembly = false;
  /// Maximum fragments per packet, both directions (NFD nMaxFragments).
  size_t maxFragments = 400;
  /// Partial packets are dropped after this long (NFD reassembly timeout).
  Duration reassemblyTimeout = std::chrono::milliseconds(500);
  /// Upper bound on bytes held in partial packets, per face; oldest dropped beyond it.
  size_t maxReassemblyBytes = 4 * 1024 * 1024;
  /// CoDel-like marking on the send queue (NFD defaults: 100 ms, 65536 bytes).
  bool allowCongestionMarking = false;
  Duration baseCongestionMarkingInterval = std::chrono::milliseconds(100);
  size_t defaultCongestionThreshold = 65536;
  /// With allowCongestionMarking: also mark Data received while the transport's receive
  /// backlog (Transport::receiveQueueLength) stays above defaultCongestionThreshold, same
  /// timing. The mark travels with the Data to the consumers, which then slow down when this
  /// forwarder is the bottleneck (its queue is then in front of it, invisible to send-side
  /// marking).
  bool markReceiveBacklog = true;
  /// Always wrap packets in an LpPacket even with no header field (ndnd does; NFD doesn't).
  bool alwaysUseLpPacket = false;
  /// Overrides the transport MTU when smaller (bytes); 0 = no override.
  size_t overrideMtu = 0;
  /// Largest network packet (Interest, Data, a Nack's Interest) accepted from the link, after
  /// reassembly, or sent on it, octets; larger ones are dropped (`packet_too_large`). ndn-cxx
  /// and NFD never handle more than MAX_NDN_PACKET_SIZE, so a larger packet forwarded to
  /// them would close the connection or be lost.
  size_t maxPacketSize = MaxNdnPacketSize;

  // BLEnD Interest bundling (docs/mechanisms/bundling.md). Received bundles are decoded on
  // every face; these options decide whether this face bundles what it sends.
  /// Bundle outgoing Interests that carry a BundleTag; effective only while the transport's
  /// medium is wireless. Off by default: the peer must decode bundles (ndnlab does).
  bool bundling = false;
  /// The bundle encoder and decoder of this face (interval BI, tables, beyond BLEnD: loss
  /// detection and the dynamic interval), as lp::InterestBundlerOptions declares them.
  lp::InterestBundlerOptions bundler;
  /// Emit the consumer's BundleTag as an NDNLPv2 field (880) on outgoing Interests: the
  /// application side of an app-to-forwarder face. Forwarders leave it off, so the tag never
  /// leaves a node on any other face.
  bool emitBundleTag = false;

  // MIRCC explicit rate (docs/mechanisms/mircc.md). MirccRate (888) is decoded on every
  // face; this option decides the rest.
  /// MIRCC on this face: outgoing Data and Nacks carry their rate tag as MirccRate (888), and
  /// the forwarder stamps Data and Nacks arriving here with this face's rate. Off by default:
  /// the field is stripped, so a peer that does not run MIRCC never sees it.
  bool mircc = false;

  /// NDNLPv2 link reliability (NFD's LpReliability, faces/create Flags bit 1).
  ReliabilityOptions reliability;
};

class LinkService
{
public:
  /// Counters; names are the per-reason drop reasons used in logs and traces.
  struct Counters
  {
    uint64_t nInLpInvalid = 0;             ///< undecodable frame: TLV error, field order/repeat, bad field
                                           ///< value; or a Nack without a Fragment (Interest)
    uint64_t nInNetInvalid = 0;            ///< undecodable Interest/Data inside an accepted frame
    uint64_t nInUnknownType = 0;           ///< neither Interest, Data nor LpPacket (frame or Fragment)
    uint64_t nInUnknownCriticalField = 0;  ///< unknown LP field that may not be ignored
    uint64_t nInFieldNotAllowed = 0;       ///< e.g. NextHopFaceId without local fields, Nack on Data
    uint64_t nFragmentationErrors = 0;     ///< MTU too small or too many fragments on send
    uint64_t nOutOverMtu = 0;              ///< packet over the MTU with fragmentation off
    uint64_t nInTooLarge = 0;              ///< received network packet (or partial one) above maxPacketSize
    uint64_t nOutTooLarge = 0;             ///< network packet above maxPacketSize not sent
    uint64_t nReassembling = 0;            ///< current partial packets
    uint64_t nReassemblyTimeouts = 0;      ///< partial packets dropped after reassemblyTimeout
    uint64_t nReassemblyDrops = 0;         ///< bad/duplicate fragments, reassembly off, memory bound
    uint64_t nCongestionMarked = 0;        ///< outgoing packets marked (send queue)
    uint64_t nReceiveCongestionMarked = 0; ///< incoming Data marked (receive backlog)
    uint64_t nInIdle = 0;                  ///< IDLE LpPackets (no Fragment, no Nack): not a drop,
                                           ///< they carry only Acks
    // BLEnD (docs/mechanisms/bundling.md)
    uint64_t nOutBundles = 0;             ///< Interest frames sent with a bundle header (bundles and singles)
    uint64_t nOutInterestsAbsorbed = 0;   ///< Interests not sent: covered by a bundle already sent
    uint64_t nInBundles = 0;              ///< Interest frames received with a bundle header
    uint64_t nInInterestsRegenerated = 0; ///< Interests handed up that were not on the wire
    uint64_t nInInterestsGapFilled = 0;   ///< of those, below the bundle's start (a lost bundle's range)
    uint64_t nInBundlesStale = 0;         ///< bundles dropped: range already decoded (ES <= PES)
    uint64_t nInBundlesInvalid = 0;       ///< bundle header inconsistent with its Interest, or too large
    uint64_t nInDataEarly = 0;            ///< Data that arrived before the Interest it answers left the
                                          ///< forwarder (a bundle asked for it): held, handed up with it
    uint64_t nInDataEarlyExpired = 0;     ///< of those, dropped unasked (hold time or bound)
    uint64_t nOutBundleRecoveries = 0;    ///< recovery bundles sent by loss detection (not in nOutBundles)
    // link reliability (docs/mechanisms/reliability.md); the first four are NFD's
    uint64_t nAcknowledged = 0;      ///< network packets whose frames were all acknowledged, none sent twice
    uint64_t nRetransmitted = 0;     ///< network packets acknowledged after a frame of theirs was sent again
    uint64_t nRetxExhausted = 0;     ///< network packets given up: a frame unacknowledged after maxRetx
    uint64_t nDuplicateSequence = 0; ///< received frames dropped: their Sequence was received already
    uint64_t nOutRetxFrames = 0;     ///< frames sent again (timeout or loss detected from later Acks)
    uint64_t nOutAcks = 0;           ///< Ack fields sent (piggybacked or in IDLE frames)
    uint64_t nOutIdleAcks = 0;       ///< IDLE frames sent to carry Acks
    uint64_t nInAcks = 0;            ///< Ack fields received
    uint64_t nInAcksUnknown = 0;     ///< of those, naming no frame awaiting an Ack (late, duplicate or bogus)
    uint64_t nUnackedOverflow = 0;   ///< network packets given up at the maxUnackedBytes bound
  };

  virtual ~LinkService() = default;

  // --- upper interface ---
  virtual void sendInterest(const Interest& interest, EndpointId endpoint = 0) = 0;
  virtual void sendData(const Data& data, EndpointId endpoint = 0) = 0;
  virtual void sendNack(const Nack& nack, EndpointId endpoint = 0) = 0;
  std::function<void(Interest&&, EndpointId)> onReceiveInterest;
  std::function<void(Data&&, EndpointId)> onReceiveData;
  std::function<void(Nack&&, EndpointId)> onReceiveNack;

  // --- lower interface ---
  /// Attaches to a transport (installs transport.onReceive).
  virtual void attach(Transport& transport) = 0;

  const Counters& counters() const { return m_counters; }
  const LinkServiceOptions& options() const { return m_options; }
  /// Turns bundling on or off and sets the bundle interval at run time (faces/update).
  virtual void setBundling(bool enabled, uint32_t bundleInterval)
  {
    m_options.bundling = enabled;
    m_options.bundler.bundleInterval = bundleInterval;
  }
  /// Turns MIRCC's rate field on or off at run time (faces/update with MirccCapacity).
  void setMircc(bool enabled) { m_options.mircc = enabled; }
  /// Turns link reliability on or off at run time (faces/update with the LpReliability flag).
  virtual void setReliability(bool enabled) { m_options.reliability.enabled = enabled; }
  /// The owning face's id, for logs and trace events (set by Face::setId).
  void setFaceId(FaceId id) { m_faceId = id; }
  FaceId faceId() const { return m_faceId; }

protected:
  LinkService(Env& env, LinkServiceOptions options) : m_env(env), m_options(std::move(options)) {}
  Env& m_env;
  LinkServiceOptions m_options;
  Counters m_counters;
  FaceId m_faceId = InvalidFaceId;
};

} // namespace ndnlab::face
