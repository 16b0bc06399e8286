#pragma once
// TLV-TYPE numbers of the NFD management protocol (ndn-cxx encoding/tlv-nfd.hpp; listed in
// docs/wire-format.md "Management"). Dataset element numbers are scoped to their dataset, so
// one number may mean different things in different datasets (e.g. 129).

#include <cstdint>

namespace ndnlab::mgmt::tlv {

// ControlParameters (spec facts 3.1).
inline constexpr uint32_t ControlParameters = 104;
inline constexpr uint32_t FaceId = 105;
inline constexpr uint32_t Cost = 106;
inline constexpr uint32_t Strategy = 107;
inline constexpr uint32_t Flags = 108;
inline constexpr uint32_t ExpirationPeriod = 109;
inline constexpr uint32_t Origin = 111;
inline constexpr uint32_t Mask = 112;
inline constexpr uint32_t Uri = 114;
inline constexpr uint32_t LocalUri = 129;
inline constexpr uint32_t Capacity = 131;
inline constexpr uint32_t Count = 132;
inline constexpr uint32_t FacePersistency = 133;
inline constexpr uint32_t BaseCongestionMarkingInterval = 135;
inline constexpr uint32_t DefaultCongestionThreshold = 136;
inline constexpr uint32_t Mtu = 137;

// ControlResponse.
inline constexpr uint32_t ControlResponse = 101;
inline constexpr uint32_t StatusCode = 102;
inline constexpr uint32_t StatusText = 103;

// ForwarderStatus (status/general).
inline constexpr uint32_t NfdVersion = 128;
inline constexpr uint32_t StartTimestamp = 129;
inline constexpr uint32_t CurrentTimestamp = 130;
inline constexpr uint32_t NNameTreeEntries = 131;
inline constexpr uint32_t NFibEntries = 132;
inline constexpr uint32_t NPitEntries = 133;
inline constexpr uint32_t NMeasurementsEntries = 134;
inline constexpr uint32_t NCsEntries = 135;
inline constexpr uint32_t NInInterests = 144;
inline constexpr uint32_t NInData = 145;
inline constexpr uint32_t NOutInterests = 146;
inline constexpr uint32_t NOutData = 147;
inline constexpr uint32_t NInBytes = 148;
inline constexpr uint32_t NOutBytes = 149;
inline constexpr uint32_t NInNacks = 151;
inline constexpr uint32_t NOutNacks = 152;
inline constexpr uint32_t NSatisfiedInterests = 153;
inline constexpr uint32_t NUnsatisfiedInterests = 154;

// FaceStatus / ChannelStatus (faces/list, faces/channels).
inline constexpr uint32_t FaceStatus = 128;
inline constexpr uint32_t ChannelStatus = 130;
inline constexpr uint32_t FaceScope = 132;
inline constexpr uint32_t LinkType = 134;
// FaceQueryFilter (faces/query): FaceId, UriScheme, Uri, LocalUri, FaceScope, FacePersistency,
// LinkType inside; its name component's value is the whole FaceQueryFilter TLV.
inline constexpr uint32_t FaceQueryFilter = 150;
inline constexpr uint32_t UriScheme = 131;

// FibEntry / RibEntry / StrategyChoice / CsInfo.
inline constexpr uint32_t FibEntry = 128;
inline constexpr uint32_t NextHopRecord = 129;
inline constexpr uint32_t RibEntry = 128;
inline constexpr uint32_t Route = 129;
inline constexpr uint32_t StrategyChoice = 128;
inline constexpr uint32_t CsInfo = 128;
inline constexpr uint32_t NHits = 129;
inline constexpr uint32_t NMisses = 130;

// ndnlab extensions for BLEnD (docs/mechanisms/bundling.md): non-critical (even) numbers in
// the application range, the same in ControlParameters and FaceStatus; NFD tools ignore them.
inline constexpr uint32_t Medium = 240;         ///< NonNegativeInteger: 0 wired, 1 wireless
inline constexpr uint32_t BundleInterval = 242; ///< NonNegativeInteger: BI
inline constexpr uint32_t BundleCounters = 244; ///< FaceStatus only: the counters below
// ndnlab extensions for MIRCC (docs/mechanisms/mircc.md), non-critical as the above.
inline constexpr uint32_t MirccCapacity = 246; ///< NonNegativeInteger: C in bit/s; 0 = MIRCC off
inline constexpr uint32_t MirccRate = 248;     ///< FaceStatus only: R_f in bit/s
// ndnlab extension for NDNLPv2 link reliability (docs/mechanisms/reliability.md), non-critical
inline constexpr uint32_t LinkReliabilityCounters = 250; ///< FaceStatus only: the counters below
// inside BundleCounters
inline constexpr uint32_t NOutBundles = 128;
inline constexpr uint32_t NOutInterestsAbsorbed = 130;
inline constexpr uint32_t NInBundles = 132;
inline constexpr uint32_t NInInterestsRegenerated = 134;
inline constexpr uint32_t NInInterestsGapFilled = 136;
inline constexpr uint32_t NInBundlesStale = 138;
inline constexpr uint32_t NInBundlesInvalid = 140;
inline constexpr uint32_t NInDataEarly = 142;
inline constexpr uint32_t NInDataEarlyExpired = 144;
inline constexpr uint32_t NOutBundleRecoveries = 146;
// inside LinkReliabilityCounters (LinkService::Counters)
inline constexpr uint32_t NOutRetxFrames = 128;
inline constexpr uint32_t NAcknowledged = 130;
inline constexpr uint32_t NRetransmitted = 132;
inline constexpr uint32_t NRetxExhausted = 134;
inline constexpr uint32_t NUnackedOverflow = 136;
inline constexpr uint32_t NDuplicateSequence = 138;
inline constexpr uint32_t NOutAcks = 140;
inline constexpr uint32_t NOutIdleAcks = 142;

// ndnlab dataset /localhost/nfd/ndnlab/drops (docs/wire-format.md): one DropCounter per
// (kind, reason) of the daemon's counted trace events (drops, I/O drops, face closes).
inline constexpr uint32_t DropCounter = 246;
// inside DropCounter
inline constexpr uint32_t DropKind = 128;   ///< UTF-8, e.g. "drop", "io_drop", "face_close"
inline constexpr uint32_t DropReason = 130; ///< UTF-8, e.g. "packet_too_large"; may be empty
inline constexpr uint32_t DropCount = 132;  ///< NonNegativeInteger

} // namespace ndnlab::mgmt::tlv

namespace ndnlab::mgmt {

/// RouteOrigin (ndn-cxx nfd-constants.hpp).
enum class RouteOrigin : uint64_t {
  App = 0,
  AutoReg = 64,
  Client = 65,
  AutoConf = 66,
  Nlsr = 128,
  PrefixAnn = 129,
  Static = 255,
};

/// RouteFlags bits.
inline constexpr uint64_t RouteFlagChildInherit = 1;
inline constexpr uint64_t RouteFlagCapture = 2;

/// Face Flags bits (FaceStatus, faces/create|update).
inline constexpr uint64_t FaceFlagLocalFields = 1u << 0;
inline constexpr uint64_t FaceFlagLpReliability = 1u << 1;
inline constexpr uint64_t FaceFlagCongestionMarking = 1u << 2;
/// ndnlab extension: BLEnD Interest bundling on the face (effective on wireless faces).
inline constexpr uint64_t FaceFlagBundling = 1u << 8;

/// CS Flags bits (cs/config, CsInfo).
inline constexpr uint64_t CsFlagEnableAdmit = 1u << 0;
inline constexpr uint64_t CsFlagEnableServe = 1u << 1;

} // namespace ndnlab::mgmt
