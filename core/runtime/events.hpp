#pragma once
// Every trace event kind, drop reason and face close reason of ndnlab, declared once.
//
// A core object reports what happened through Env::emit(TraceEvent). Its kind is an EventKind
// and, for drops and closes, its reason a DropReason or CloseReason: a misspelt kind does not
// compile. The names below are the only spellings users see: the daemon's counters
// ("drop/pit_full"), `ndnlab ctl drops`, the daemon's JSON-lines trace, the ns-3 CSVs and
// result counts, and Python. All names are snake_case. `ndnlabd --print-event-table` prints
// this catalogue as the tables of docs/events.md (a test checks that they agree).

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ndnlab {

/// The kinds of trace event, grouped by the layer that emits them.
enum class EventKind : uint8_t {
  // forwarder (core/fw)
  InterestIn,
  InterestOut,
  InterestLoop,
  InterestSatisfied,
  InterestUnsatisfied,
  CsHit,
  DataIn,
  DataOut,
  DataUnsolicited,
  NackIn,
  NackOut,
  Drop,
  // management (core/mgmt)
  MgmtRejected,
  // link service (core/face)
  InterestAbsorbed,
  BundleOut,
  BundleRecovery,
  BundleIn,
  InterestRegenerated,
  DataEarly,
  LpRetx,
  // transports (core/face impairments, io sockets, ns-3 devices)
  ImpairDrop,
  IoDrop,
  FaceClose,
  DevDrop,
  // consumers and producers (core/app)
  FetchRtt,
  FetchData,
  FetchDataRetx,
  FetchLost,
  FetchReorderWindow,
  FetchNack,
  FetchTimeout,
  FetchCwnd,
  FetchDone,
  FetchFail,
  CbrData,
  CbrTimeout,
  CbrNack,
  PingReply,
  PingTimeout,
  PingNack,
  PingServed,
  PushStart,
  PushDone,
  AppBytes,
  FetchSizeMismatch,
  FetchInterest,
};

/// Why a packet, frame or datagram was dropped; the reason of every drop event.
enum class DropReason : uint8_t {
  // forwarder: Interest pipeline
  HopLimitZero,
  LocalhostScope,
  PitFull,
  PitFaceQuota,
  LoopDrop,
  NextHopUnknown,
  OutHopLimitZero,
  // forwarder: Data and Nack pipelines
  LocalhostScopeData,
  UnsolicitedData,
  NackNotP2p,
  NackNoPit,
  NackNoOutRecord,
  NackNonceMismatch,
  OutNackNoInRecord,
  OutNackNotP2p,
  // forwarder: MIRCC's per-face Interest shaper (core/fw/mircc.hpp)
  ShaperFull,
  // management
  MgmtNotUnderPrefix,
  MgmtMissingVerb,
  MgmtSegmentNotStored,
  // link service: send path
  SendPacketTooLarge,
  OverMtu,
  FragmentMtuTooSmall,
  FragmentTooMany,
  // link service: NDNLPv2 decoding
  LpMalformed,
  UnknownPacketType,
  LpUnknownCriticalField,
  LpFieldOutOfOrder,
  LpFieldRepeated,
  LpBadFieldValue,
  NackWithoutFragment,
  // link service: reassembly
  ReassemblyDisabled,
  FragMissingSequence,
  FragIndexOutOfRange,
  FragCountOverLimit,
  FragCountChanged,
  FragDuplicate,
  ReassemblyMemoryLimit,
  ReassemblyTimeout,
  PacketTooLarge,
  // link service: network packets and their fields
  UnknownNetworkType,
  NetInvalid,
  NextHopFaceIdNotAllowed,
  CachePolicyOnInterest,
  PrefixAnnouncementOnInterest,
  NackOnData,
  NextHopFaceIdOnData,
  NonDiscoveryOnData,
  NextHopFaceIdOnNack,
  CachePolicyOnNack,
  NonDiscoveryOnNack,
  PrefixAnnouncementOnNack,
  // link service: Interest bundling
  BundleInvalid,
  BundleStale,
  // link service: link reliability
  LpRetxExhausted,
  LpUnackedLimit,
  LpDuplicateSequence,
  LpTooManyAcks,
  // impaired transport
  Loss,
  QueueFull,
  // io: sockets and channels
  InvalidDatagram,
  InvalidMessage,
  BadTlvHeader,
  FrameTooLarge,
  EofMidFrame,
  SendError,
  SendQueueFull,
  SendQueueDiscarded,
  TooManyFaces,
  TooManyFacesPerAddress,
  RuntFrame,
  OversizeFrame,
  // ns-3 devices
  DeviceSendFailed,
  MacTxDrop,
  PhyRxDrop,
  WifiMacDrop,
  WifiPhyRxDrop,
};

/// Why a face's transport closed; the reason of every face_close event.
enum class CloseReason : uint8_t {
  ClosedLocally,
  IdleTimeout,
  Eof,
  EofMidFrame,
  SocketError,
  BadTlvHeader,
  FrameTooLarge,
  PongTimeout,
  ProtocolError,
};

struct EventInfo
{
  EventKind kind;
  std::string_view name;   ///< snake_case, stable
  std::string_view layer;  ///< fw, mgmt, face, io, ns3, app
  std::string_view doc;    ///< one line: when it is emitted
  std::string_view face;   ///< what `face` holds, empty when 0
  std::string_view reason; ///< what `reason` holds, empty when unused
  std::string_view value;  ///< meaning and unit of `value`, empty when unused
  std::string_view value2; ///< meaning and unit of `value2`, empty when unused
  bool isDrop = false;     ///< a drop: counted by `ndnlab ctl drops` and the drops CSV
};

struct DropReasonInfo
{
  DropReason reason;
  std::string_view name;  ///< snake_case, stable
  std::string_view layer; ///< fw, mgmt, face, io, ns3
  std::string_view doc;   ///< one line: what was dropped and why
};

struct CloseReasonInfo
{
  CloseReason reason;
  std::string_view name; ///< snake_case, stable
  std::string_view doc;
};

std::span<const EventInfo> eventCatalogue();
std::span<const DropReasonInfo> dropReasonCatalogue();
std::span<const CloseReasonInfo> closeReasonCatalogue();

const EventInfo& info(EventKind k);
const DropReasonInfo& info(DropReason r);
const CloseReasonInfo& info(CloseReason r);

std::string_view toString(EventKind k);
std::string_view toString(DropReason r);
std::string_view toString(CloseReason r);

std::optional<EventKind> parseEventKind(std::string_view name);
std::optional<DropReason> parseDropReason(std::string_view name);
std::optional<CloseReason> parseCloseReason(std::string_view name);

/// Each prints its name (log lines).
std::ostream& operator<<(std::ostream& os, EventKind k);
std::ostream& operator<<(std::ostream& os, DropReason r);
std::ostream& operator<<(std::ostream& os, CloseReason r);

/// The catalogue as Markdown tables (events, drop reasons, close reasons): docs/events.md.
std::string eventTables();

} // namespace ndnlab
