#include "core/runtime/events.hpp"

#include <array>
#include <ostream>
#include <sstream>

namespace ndnlab {

namespace {

using K = EventKind;
using D = DropReason;
using C = CloseReason;

constexpr std::string_view FaceId = "FaceId";

// The catalogue keeps its hand layout: one entry per event or reason.
// clang-format off

constexpr std::array Events{
  // forwarder
  EventInfo{K::InterestIn, "interest_in", "fw", "an Interest entered the forwarder", FaceId},
  EventInfo{K::InterestOut, "interest_out", "fw", "an Interest was sent to an upstream", FaceId},
  EventInfo{K::InterestLoop, "interest_loop", "fw", "a looping Interest (duplicate Nonce) was detected",
            FaceId},
  EventInfo{K::InterestSatisfied, "interest_satisfied", "fw", "a PIT entry was satisfied by Data"},
  EventInfo{K::InterestUnsatisfied, "interest_unsatisfied", "fw", "a PIT entry expired unsatisfied"},
  EventInfo{K::CsHit, "cs_hit", "fw", "an Interest was answered from the Content Store", FaceId},
  EventInfo{K::DataIn, "data_in", "fw", "a Data entered the forwarder", FaceId},
  EventInfo{K::DataOut, "data_out", "fw", "a Data was sent to a downstream", FaceId},
  EventInfo{K::DataUnsolicited, "data_unsolicited", "fw",
            "a Data matched no PIT entry and was cached by the unsolicited-Data policy", FaceId,
            "`cached`"},
  EventInfo{K::NackIn, "nack_in", "fw", "a Nack entered the forwarder", FaceId, "Nack reason"},
  EventInfo{K::NackOut, "nack_out", "fw", "a Nack was sent to a downstream", FaceId, "Nack reason"},
  EventInfo{K::Drop, "drop", "fw, mgmt, face, ns3", "a packet was dropped by the forwarder, management or a link service",
            FaceId, "drop reason", "octets (link service and devices; 0 elsewhere)", {}, true},
  // management
  EventInfo{K::MgmtRejected, "mgmt_rejected", "mgmt", "a command Interest failed its signature check",
            FaceId, "the check's result"},
  // link service
  EventInfo{K::InterestAbsorbed, "interest_absorbed", "face",
            "an Interest was not sent: a bundle already sent covers it", FaceId},
  EventInfo{K::BundleOut, "bundle_out", "face", "an Interest frame with a bundle header was sent", FaceId,
            {}, "Interests the bundle covers"},
  EventInfo{K::BundleRecovery, "bundle_recovery", "face", "a recovery bundle was sent by loss detection",
            FaceId, {}, "Interests the bundle covers"},
  EventInfo{K::BundleIn, "bundle_in", "face", "an Interest frame with a bundle header was received", FaceId,
            {}, "Interests the bundle covers"},
  EventInfo{K::InterestRegenerated, "interest_regenerated", "face",
            "an Interest not on the wire was rebuilt from a bundle", FaceId, {}, "its segment number"},
  EventInfo{K::DataEarly, "data_early", "face",
            "a Data arrived before the Interest it answers left the bundler, and is held", FaceId},
  EventInfo{K::LpRetx, "lp_retx", "face", "link reliability sent a frame again", FaceId,
            "`timeout` or `gap` (later frames acknowledged)", "its new TxSequence", "its retransmissions"},
  // transports
  EventInfo{K::ImpairDrop, "impair_drop", "face", "the impaired transport dropped a frame", FaceId,
            "drop reason", "octets", {}, true},
  EventInfo{K::IoDrop, "io_drop", "io", "a socket or channel dropped a frame or datagram",
            "FaceId (0: a channel, before any face)", "drop reason", "octets", {}, true},
  EventInfo{K::FaceClose, "face_close", "io", "a face's transport closed", FaceId, "close reason", {}, {},
            true},
  EventInfo{K::DevDrop, "dev_drop", "ns3", "an ns-3 net device of an NDN face dropped a packet", FaceId,
            "drop reason", {}, {}, true},
  // applications
  EventInfo{K::FetchRtt, "fetch_rtt", "app", "a fetch took an RTT sample", {}, {}, "segment",
            "RTT (s)"},
  EventInfo{K::FetchData, "fetch_data", "app", "a fetch received a segment", {},
            "`first`, `retx` (after a retransmission), `push`, `repair` (push consumer)", "segment",
            "delay since the first Interest for it (s)"},
  EventInfo{K::FetchDataRetx, "fetch_data_retx", "app", "follows fetch_data of a retransmitted segment", {},
            {}, "segment", "retransmissions of it"},
  EventInfo{K::FetchLost, "fetch_lost", "app", "a fetch declared a segment lost from the order Data return in",
            {}, {}, "segment", "age of its last Interest (s)"},
  EventInfo{K::FetchReorderWindow, "fetch_reorder_window", "app",
            "a segment a fetch declared lost by order came late: its reorder window widened", {}, {},
            "multiplier of the base window", "the window (s)"},
  EventInfo{K::FetchNack, "fetch_nack", "app", "a fetch received a Nack", {}, "Nack reason", "segment"},
  EventInfo{K::FetchTimeout, "fetch_timeout", "app", "a fetch's Interest timed out", {},
            "empty, `trigger` or `repair` (push consumer)", "segment", "time since it was sent (s)"},
  EventInfo{K::FetchCwnd, "fetch_cwnd", "app", "a fetch's congestion window changed", {}, {}, {},
            "window (segments)"},
  EventInfo{K::FetchDone, "fetch_done", "app", "a fetch completed", {}, {}, "content octets",
            "transfer time (s)"},
  EventInfo{K::FetchFail, "fetch_fail", "app", "a fetch failed", {}, "error code", "content octets received",
            "transfer time (s)"},
  EventInfo{K::CbrData, "cbr_data", "app", "the constant-rate consumer received a Data", {}, {}, "sequence",
            "RTT (s)"},
  EventInfo{K::CbrTimeout, "cbr_timeout", "app", "a constant-rate Interest timed out", {}, {}, "sequence"},
  EventInfo{K::CbrNack, "cbr_nack", "app", "the constant-rate consumer received a Nack", {}, "Nack reason",
            "sequence"},
  EventInfo{K::PingReply, "ping_reply", "app", "a ping was answered", {}, {}, "sequence", "RTT (s)"},
  EventInfo{K::PingTimeout, "ping_timeout", "app", "a ping timed out", {}, {}, "sequence"},
  EventInfo{K::PingNack, "ping_nack", "app", "a ping was answered by a Nack", {}, "Nack reason", "sequence",
            "RTT (s)"},
  EventInfo{K::PingServed, "ping_served", "app", "the ping server answered a ping", {}, {},
            "pings answered so far"},
  EventInfo{K::PushStart, "push_start", "app", "the push producer started pushing", {}, {}, "segments"},
  EventInfo{K::PushDone, "push_done", "app", "the push producer pushed every segment", {}, {}, "segments",
            "push time (s)"},
  EventInfo{K::AppBytes, "app_bytes", "ns3", "an ns-3 consumer application received content (goodput)", {},
            {}, "content octets"},
  EventInfo{K::FetchSizeMismatch, "fetch_size_mismatch", "ns3",
            "an ns-3 consumer completed with a content size other than the object's", {}, {},
            "content octets received", "object size (octets)"},
  EventInfo{K::FetchInterest, "fetch_interest", "app", "a fetch sent an Interest for a segment", {},
            "empty, or `retx` for a retransmission", "segment"},
};

constexpr std::array Drops{
  DropReasonInfo{D::HopLimitZero, "hop_limit_zero", "fw", "Interest arrived with HopLimit 0"},
  DropReasonInfo{D::LocalhostScope, "localhost_scope", "fw", "/localhost Interest on a non-local face"},
  DropReasonInfo{D::PitFull, "pit_full", "fw", "PIT at its capacity"},
  DropReasonInfo{D::PitFaceQuota, "pit_face_quota", "fw", "the incoming face's share of the PIT is used up"},
  DropReasonInfo{D::LoopDrop, "loop_drop", "fw", "looping Interest on a non-point-to-point face"},
  DropReasonInfo{D::NextHopUnknown, "next_hop_unknown", "fw", "NextHopFaceId names no face"},
  DropReasonInfo{D::OutHopLimitZero, "out_hop_limit_zero", "fw", "HopLimit 0 toward a non-local face"},
  DropReasonInfo{D::LocalhostScopeData, "localhost_scope_data", "fw", "/localhost Data in or out of a non-local face"},
  DropReasonInfo{D::UnsolicitedData, "unsolicited_data", "fw", "Data matched no PIT entry and the policy refused it"},
  DropReasonInfo{D::NackNotP2p, "nack_not_p2p", "fw", "Nack on a multi-access or ad hoc face"},
  DropReasonInfo{D::NackNoPit, "nack_no_pit", "fw", "Nack matched no PIT entry"},
  DropReasonInfo{D::NackNoOutRecord, "nack_no_out_record", "fw", "Nack from a face the Interest was not sent to"},
  DropReasonInfo{D::NackNonceMismatch, "nack_nonce_mismatch", "fw", "Nack's Nonce differs from the out-record's"},
  DropReasonInfo{D::OutNackNoInRecord, "out_nack_no_in_record", "fw", "Nack toward a face with no in-record"},
  DropReasonInfo{D::OutNackNotP2p, "out_nack_not_p2p", "fw", "Nack toward a multi-access or ad hoc face"},
  DropReasonInfo{D::ShaperFull, "shaper_full", "fw", "MIRCC's Interest shaper toward the upstream face was full"},
  DropReasonInfo{D::MgmtNotUnderPrefix, "mgmt_not_under_prefix", "mgmt", "Interest not under a management prefix"},
  DropReasonInfo{D::MgmtMissingVerb, "mgmt_missing_verb", "mgmt", "management Interest without a verb"},
  DropReasonInfo{D::MgmtSegmentNotStored, "mgmt_segment_not_stored", "mgmt", "dataset segment no longer stored"},
  DropReasonInfo{D::SendPacketTooLarge, "send_packet_too_large", "face", "network packet above the maximum packet size not sent"},
  DropReasonInfo{D::OverMtu, "over_mtu", "face", "packet over the MTU with fragmentation off"},
  DropReasonInfo{D::FragmentMtuTooSmall, "fragment_mtu_too_small", "face", "MTU too small for any fragment"},
  DropReasonInfo{D::FragmentTooMany, "fragment_too_many", "face", "packet would need too many fragments"},
  DropReasonInfo{D::LpMalformed, "lp_malformed", "face", "frame is not valid TLV or NDNLPv2"},
  DropReasonInfo{D::UnknownPacketType, "unknown_packet_type", "face", "frame is neither Interest, Data nor LpPacket"},
  DropReasonInfo{D::LpUnknownCriticalField, "lp_unknown_critical_field", "face", "unknown NDNLPv2 field that may not be ignored"},
  DropReasonInfo{D::LpFieldOutOfOrder, "lp_field_out_of_order", "face", "NDNLPv2 fields out of order"},
  DropReasonInfo{D::LpFieldRepeated, "lp_field_repeated", "face", "non-repeatable NDNLPv2 field repeated"},
  DropReasonInfo{D::LpBadFieldValue, "lp_bad_field_value", "face", "NDNLPv2 field with an invalid value"},
  DropReasonInfo{D::NackWithoutFragment, "nack_without_fragment", "face", "Nack header with no Interest in the frame"},
  DropReasonInfo{D::ReassemblyDisabled, "reassembly_disabled", "face", "fragment received with reassembly off"},
  DropReasonInfo{D::FragMissingSequence, "frag_missing_sequence", "face", "fragment without a Sequence"},
  DropReasonInfo{D::FragIndexOutOfRange, "frag_index_out_of_range", "face", "FragIndex not below FragCount"},
  DropReasonInfo{D::FragCountOverLimit, "frag_count_over_limit", "face", "FragCount above the reassembler's limit"},
  DropReasonInfo{D::FragCountChanged, "frag_count_changed", "face", "fragments of one packet disagree on FragCount"},
  DropReasonInfo{D::FragDuplicate, "frag_duplicate", "face", "fragment received twice"},
  DropReasonInfo{D::ReassemblyMemoryLimit, "reassembly_memory_limit", "face", "partial packets over the reassembly memory bound"},
  DropReasonInfo{D::ReassemblyTimeout, "reassembly_timeout", "face", "partial packet not completed in time"},
  DropReasonInfo{D::PacketTooLarge, "packet_too_large", "face, io", "received network packet above the maximum packet size"},
  DropReasonInfo{D::UnknownNetworkType, "unknown_network_type", "face", "fragment holds neither Interest nor Data"},
  DropReasonInfo{D::NetInvalid, "net_invalid", "face", "undecodable Interest or Data inside an accepted frame"},
  DropReasonInfo{D::NextHopFaceIdNotAllowed, "next_hop_face_id_not_allowed", "face", "NextHopFaceId without local fields enabled"},
  DropReasonInfo{D::CachePolicyOnInterest, "cache_policy_on_interest", "face", "CachePolicy on an Interest"},
  DropReasonInfo{D::PrefixAnnouncementOnInterest, "prefix_announcement_on_interest", "face", "PrefixAnnouncement on an Interest"},
  DropReasonInfo{D::NackOnData, "nack_on_data", "face", "Nack header on a Data"},
  DropReasonInfo{D::NextHopFaceIdOnData, "next_hop_face_id_on_data", "face", "NextHopFaceId on a Data"},
  DropReasonInfo{D::NonDiscoveryOnData, "non_discovery_on_data", "face", "NonDiscovery on a Data"},
  DropReasonInfo{D::NextHopFaceIdOnNack, "next_hop_face_id_on_nack", "face", "NextHopFaceId on a Nack"},
  DropReasonInfo{D::CachePolicyOnNack, "cache_policy_on_nack", "face", "CachePolicy on a Nack"},
  DropReasonInfo{D::NonDiscoveryOnNack, "non_discovery_on_nack", "face", "NonDiscovery on a Nack"},
  DropReasonInfo{D::PrefixAnnouncementOnNack, "prefix_announcement_on_nack", "face", "PrefixAnnouncement on a Nack"},
  DropReasonInfo{D::BundleInvalid, "bundle_invalid", "face", "bundle header inconsistent with its Interest, or too large"},
  DropReasonInfo{D::BundleStale, "bundle_stale", "face", "bundle range already decoded"},
  DropReasonInfo{D::LpRetxExhausted, "lp_retx_exhausted", "face", "network packet given up: a frame of it unacknowledged after the last retransmission"},
  DropReasonInfo{D::LpUnackedLimit, "lp_unacked_limit", "face", "network packet given up: the bound on octets awaiting Acks was reached"},
  DropReasonInfo{D::LpDuplicateSequence, "lp_duplicate_sequence", "face", "frame whose Sequence was received already (a retransmission)"},
  DropReasonInfo{D::LpTooManyAcks, "lp_too_many_acks", "face", "frame with more Ack fields than any sender puts in one"},
  DropReasonInfo{D::Loss, "loss", "face", "the impaired transport's random loss"},
  DropReasonInfo{D::QueueFull, "queue_full", "face", "the impaired transport's queue was full"},
  DropReasonInfo{D::InvalidDatagram, "invalid_datagram", "io", "UDP datagram or Ethernet payload that is not one whole TLV (or truncated)"},
  DropReasonInfo{D::InvalidMessage, "invalid_message", "io", "WebSocket message that is not exactly one TLV"},
  DropReasonInfo{D::BadTlvHeader, "bad_tlv_header", "io", "stream frame with an invalid TLV header"},
  DropReasonInfo{D::FrameTooLarge, "frame_too_large", "io", "stream frame above the maximum frame size"},
  DropReasonInfo{D::EofMidFrame, "eof_mid_frame", "io", "stream ended inside a frame"},
  DropReasonInfo{D::SendError, "send_error", "io", "the socket refused a frame"},
  DropReasonInfo{D::SendQueueFull, "send_queue_full", "io", "the face's send queue was full"},
  DropReasonInfo{D::SendQueueDiscarded, "send_queue_discarded", "io", "frame still queued when the face closed"},
  DropReasonInfo{D::TooManyFaces, "too_many_faces", "io", "new peer refused: the face limit is reached"},
  DropReasonInfo{D::TooManyFacesPerAddress, "too_many_faces_per_address", "io", "new peer refused: its address's face limit is reached"},
  DropReasonInfo{D::RuntFrame, "runt_frame", "io", "Ethernet frame shorter than its 14-octet header"},
  DropReasonInfo{D::OversizeFrame, "oversize_frame", "io", "Ethernet frame longer than the interface MTU plus its header"},
  DropReasonInfo{D::DeviceSendFailed, "device_send_failed", "ns3", "the ns-3 net device refused the frame"},
  DropReasonInfo{D::MacTxDrop, "mac_tx_drop", "ns3", "device MacTxDrop (point-to-point, CSMA: queue)"},
  DropReasonInfo{D::PhyRxDrop, "phy_rx_drop", "ns3", "device PhyRxDrop (point-to-point, CSMA: error model)"},
  DropReasonInfo{D::WifiMacDrop, "wifi_mac_drop", "ns3", "Wi-Fi MAC DroppedMpdu"},
  DropReasonInfo{D::WifiPhyRxDrop, "wifi_phy_rx_drop", "ns3", "Wi-Fi PHY PhyRxDrop"},
};

constexpr std::array Closes{
  CloseReasonInfo{C::ClosedLocally, "closed_locally", "this end closed the face"},
  CloseReasonInfo{C::IdleTimeout, "idle_timeout", "no traffic for the face's idle timeout"},
  CloseReasonInfo{C::Eof, "eof", "the peer closed the connection (or reset it)"},
  CloseReasonInfo{C::EofMidFrame, "eof_mid_frame", "the peer closed the connection inside a frame"},
  CloseReasonInfo{C::SocketError, "socket_error", "the socket failed"},
  CloseReasonInfo{C::BadTlvHeader, "bad_tlv_header", "the stream held an invalid TLV header"},
  CloseReasonInfo{C::FrameTooLarge, "frame_too_large", "the peer sent a frame above the maximum frame size"},
  CloseReasonInfo{C::PongTimeout, "pong_timeout", "the WebSocket peer did not answer a ping"},
  CloseReasonInfo{C::ProtocolError, "protocol_error", "the WebSocket peer broke the protocol"},
};

// clang-format on

template<typename Array>
constexpr bool inEnumOrder(const Array& a, auto key)
{
  for (size_t i = 0; i < a.size(); ++i)
    if (static_cast<size_t>(key(a[i])) != i)
      return false;
  return true;
}

static_assert(inEnumOrder(Events, [](const EventInfo& e) { return e.kind; }));
static_assert(Events.back().kind == K::FetchInterest, "every EventKind has an entry");
static_assert(inEnumOrder(Drops, [](const DropReasonInfo& d) { return d.reason; }));
static_assert(Drops.back().reason == D::WifiPhyRxDrop, "every DropReason has an entry");
static_assert(inEnumOrder(Closes, [](const CloseReasonInfo& c) { return c.reason; }));
static_assert(Closes.back().reason == C::ProtocolError, "every CloseReason has an entry");

template<typename Enum, typename Array>
std::optional<Enum> parse(const Array& a, std::string_view name)
{
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].name == name)
      return static_cast<Enum>(i);
  return std::nullopt;
}

std::string cell(std::string_view s)
{
  return s.empty() ? "-" : std::string(s);
}

} // namespace

std::span<const EventInfo> eventCatalogue()
{
  return Events;
}
std::span<const DropReasonInfo> dropReasonCatalogue()
{
  return Drops;
}
std::span<const CloseReasonInfo> closeReasonCatalogue()
{
  return Closes;
}

const EventInfo& info(EventKind k)
{
  return Events[static_cast<size_t>(k)];
}
const DropReasonInfo& info(DropReason r)
{
  return Drops[static_cast<size_t>(r)];
}
const CloseReasonInfo& info(CloseReason r)
{
  return Closes[static_cast<size_t>(r)];
}

std::string_view toString(EventKind k)
{
  return info(k).name;
}
std::string_view toString(DropReason r)
{
  return info(r).name;
}
std::string_view toString(CloseReason r)
{
  return info(r).name;
}

std::optional<EventKind> parseEventKind(std::string_view name)
{
  return parse<EventKind>(Events, name);
}
std::optional<DropReason> parseDropReason(std::string_view name)
{
  return parse<DropReason>(Drops, name);
}
std::optional<CloseReason> parseCloseReason(std::string_view name)
{
  return parse<CloseReason>(Closes, name);
}

std::ostream& operator<<(std::ostream& os, EventKind k)
{
  return os << toString(k);
}
std::ostream& operator<<(std::ostream& os, DropReason r)
{
  return os << toString(r);
}
std::ostream& operator<<(std::ostream& os, CloseReason r)
{
  return os << toString(r);
}

std::string eventTables()
{
  std::ostringstream os;
  os << "| kind | layer | when | face | reason | value | value2 |\n|---|---|---|---|---|---|---|\n";
  for (const EventInfo& e : Events)
    os << "| `" << e.name << "`" << (e.isDrop ? " (drop)" : "") << " | " << e.layer << " | " << e.doc << " | "
       << cell(e.face) << " | " << cell(e.reason) << " | " << cell(e.value) << " | " << cell(e.value2) << " |\n";
  os << "\n| drop reason | layer | what was dropped |\n|---|---|---|\n";
  for (const DropReasonInfo& d : Drops)
    os << "| `" << d.name << "` | " << d.layer << " | " << d.doc << " |\n";
  os << "\n| close reason | meaning |\n|---|---|\n";
  for (const CloseReasonInfo& c : Closes)
    os << "| `" << c.name << "` | " << c.doc << " |\n";
  return os.str();
}

} // namespace ndnlab
