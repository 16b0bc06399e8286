#pragma once
// GenericLinkService: network packets <-> NDNLPv2 frames, with NFD GenericLinkService
// semantics (ndn-spec-facts.md sections 2.4 and 2.6).
//
// Send path (upper -> lower):
//   sendInterest / sendData / sendNack
//     -> header fields from the packet's tags, cached wire encoding of the packet
//     -> (Interests, bundling on and medium wireless) lp::BundleEncoder: absorb the Interest,
//        or add a BundleHeader field (docs/mechanisms/bundling.md)
//     -> sendNetPacket(): size limit, congestion mark, bare or LpPacket framing, fragmentation
//     -> Transport::send
// Receive path (lower -> upper):
//   frame -> lp::decodeFrame -> reassembly -> receiveNetPacket() (size limit, tag rules,
//   network decode)
//     -> (Interest with a BundleHeader, any face) lp::BundleDecoder: the Interests the bundle
//        stands for, in segment order, or a counted drop (stale, invalid)
//     -> (Data, encoder active) Data that a bundle requested before the consumer's own Interest
//        reached this face is held, and handed up (on the next timer turn) when that Interest
//        comes down and is absorbed, so the forwarder finds its PIT entry
//     -> onReceiveInterest / onReceiveData / onReceiveNack
// Loss detection (bundleLossDetection, encoder active): every Data received is a gap sample of
// its prefix; one timer per face fires at the encoder's next stall deadline and sends the
// recovery bundles due (trace event bundle_recovery, counter nOutBundleRecoveries).
//
// Link reliability (options.reliability.enabled, point-to-point transports; LinkReliability,
// docs/mechanisms/reliability.md): every network packet goes out in LpPackets that each carry
// a Sequence and a TxSequence, fragmented to leave room for the TxSequence; every LpPacket sent
// carries the Acks that fit; every frame received gives its Acks to LinkReliability first, and a
// duplicate frame is dropped there. With it off, nothing on the send or receive path changes
// (received Acks and TxSequences are ignored, as NFD does).
//
// Tags on the wire: BundleTag (880) is read on every face and written only with
// emitBundleTag (an application's face to its forwarder). Interests handed up from a bundle
// carry a BundleTag {retransmission = single, cwnd = Interests handed up} when the frame had
// none, so a further wireless hop can bundle them again. MirccRate (888) on Data and Nacks
// becomes PacketTags::mirccRate on every face and is written back only when options.mircc is
// on (docs/mechanisms/mircc.md).
//
// Size limit (options.maxPacketSize, MAX_NDN_PACKET_SIZE = 8800 by default): a network packet
// above it is dropped whole on receive, as soon as its fragments add up to more than the limit
// during reassembly, and on send (`packet_too_large`, `send_packet_too_large`), so no face
// ever forwards one to a peer or application that cannot take it.
//
// Every drop increments a Counters field, logs one debug line ending in "DROP" and emits
// the trace event {kind="drop", reason=<DropReason name>, value=<frame or packet octets>}.

#include "core/face/bundling-service.hpp"
#include "core/face/link-reliability.hpp"
#include "core/face/link-service.hpp"
#include "core/lp/fragmenter.hpp"
#include "core/lp/interest-bundler.hpp"
#include "core/lp/packet.hpp"
#include "core/lp/reassembler.hpp"

#include <deque>
#include <optional>

namespace ndnlab::face {

class GenericLinkService final : public LinkService
{
public:
  explicit GenericLinkService(Env& env, LinkServiceOptions options = {});
  ~GenericLinkService() override;

  // --- upper interface ---
  void sendInterest(const Interest& interest, EndpointId endpoint = 0) override;
  void sendData(const Data& data, EndpointId endpoint = 0) override;
  void sendNack(const Nack& nack, EndpointId endpoint = 0) override;

  // --- lower interface ---
  /// Installs transport.onReceive. The transport must outlive this service or stop delivering
  /// frames before it is destroyed (Face owns and destroys both together); the destructor
  /// does not touch the transport.
  void attach(Transport& transport) override;

  /// FaceId used in log lines and trace events (0 until set).

  /// Largest frame the transport accepts: min(transport MTU, options.overrideMtu when
  /// non-zero); nullopt when unlimited.
  std::optional<size_t> effectiveMtu() const;

  /// Sequence the next fragment will carry (tests, diagnostics).
  uint64_t nextFragmentSequence() const { return m_fragmenter.nextSequence(); }

  void setBundling(bool enabled, uint32_t bundleInterval) override;
  /// True while outgoing Interests go through the bundler: bundling on, BI > 0, and the
  /// transport's medium is wireless.
  bool isBundlingActive() const;
  /// Data held until the Interest it answers comes down (tests, diagnostics).
  size_t heldEarlyData() const { return m_bundling.heldEarlyData(); }
  /// EIT and DIT entries (tests, diagnostics).
  size_t bundleEncoderEntries() const { return m_bundling.encoderEntries(); }
  size_t bundleDecoderEntries() const { return m_bundling.decoderEntries(); }

  void setReliability(bool enabled) override;
  /// True while link reliability runs: enabled, and the transport is point-to-point.
  bool isReliabilityActive() const;
  /// The link reliability sub-service while enabled, else nullptr (tests, diagnostics).
  const LinkReliability* reliability() const { return m_reliability.get(); }

private:
  /// Common tail of the send path for one network packet `wire` with header fields `header`.
  void sendNetPacket(lp::LpPacket&& header, SharedBuffer wire, EndpointId endpoint);
  /// sendNetPacket with link reliability active: every frame numbered and held for retransmission.
  void sendReliably(lp::LpPacket&& header, SharedBuffer wire, EndpointId endpoint);
  /// Piggybacks the Acks that fit, encodes and sends one LpPacket (link reliability active).
  void sendLpFrame(lp::LpPacket&& frame, EndpointId endpoint);
  /// Creates the link reliability sub-service with this service's options and counters.
  void makeReliability();
  /// CoDel-like marking on the transport send queue (ndn-spec-facts.md 2.6).
  void checkCongestion(lp::LpPacket& header);
  /// One step of the CoDel-like control law for a queue of `queue` bytes; true = mark now.
  /// `nextMark` is TimePoint::max() outside a congestion incident.
  bool codelStep(size_t queue, TimePoint& nextMark, uint64_t& nMarked);

  void receiveFrame(ByteSpan frame, EndpointId endpoint);
  /// `header` holds the header fields of the (first fragment of the) packet.
  void receiveNetPacket(const lp::LpPacket& header, SharedBuffer wire, EndpointId endpoint);
  void receiveInterest(const lp::LpPacket& header, SharedBuffer wire, EndpointId endpoint);
  void receiveData(const lp::LpPacket& header, SharedBuffer wire, EndpointId endpoint);
  void receiveNack(const lp::LpPacket& header, SharedBuffer wire, EndpointId endpoint);

  /// Counts, logs and traces one drop; `detail` and a non-zero `tlvType` are only logged.
  void drop(uint64_t& counter, DropReason reason, EndpointId endpoint, size_t octets, std::string_view detail = {},
            uint64_t tlvType = 0);

  Transport* m_transport = nullptr;
  lp::Fragmenter m_fragmenter;
  lp::Reassembler m_reassembler;
  BundlingService m_bundling;                     ///< BLEnD: encoder, decoder, early-Data hold, recovery timer
  std::unique_ptr<LinkReliability> m_reliability; ///< while options.reliability.enabled
  // congestion marking state: TimePoint::max() = not in a congestion incident
  TimePoint m_nextMarkTime = TimePoint::max();
  uint64_t m_nMarkedInIncident = 0;
  // the same for the receive backlog (markReceiveBacklog)
  TimePoint m_rxNextMarkTime = TimePoint::max();
  uint64_t m_rxMarkedInIncident = 0;
};

} // namespace ndnlab::face
