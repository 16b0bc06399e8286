#pragma once
// Status datasets of the NFD management protocol (ndn-cxx mgmt/nfd/*-status.hpp, *-entry.hpp;
// spec facts 3.1). Each struct encodes to the element(s) a dataset's content is made of:
// status/general content is the ForwarderStatus elements themselves (no outer TLV); list
// datasets are a concatenation of one outer TLV per entry. Decoders accept the elements in
// any order and skip unknown ones, so ndnlab ctl can read NFD's and ndnd's datasets too.

#include "core/codec/name.hpp"
#include "core/mgmt/tlv-nfd.hpp"
#include "core/runtime/units.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ndnlab::mgmt {

/// status/general.
struct ForwarderStatus
{
  std::string nfdVersion;
  UnixMillis startTimestamp{0};
  UnixMillis currentTimestamp{0};
  uint64_t nNameTreeEntries = 0;
  uint64_t nFibEntries = 0;
  uint64_t nPitEntries = 0;
  uint64_t nMeasurementsEntries = 0;
  uint64_t nCsEntries = 0;
  uint64_t nInInterests = 0;
  uint64_t nInData = 0;
  uint64_t nInNacks = 0;
  uint64_t nOutInterests = 0;
  uint64_t nOutData = 0;
  uint64_t nOutNacks = 0;
  uint64_t nSatisfiedInterests = 0;
  uint64_t nUnsatisfiedInterests = 0;

  /// Appends the elements (dataset content, no outer TLV).
  void encodeTo(Buffer& out) const;
  static DecodeResult<ForwarderStatus> decode(ByteSpan content);
  bool operator==(const ForwarderStatus&) const = default;
};

/// BLEnD counters of a face (ndnlab extension, FaceStatus BundleCounters; link-service.hpp).
struct BundleCounters
{
  uint64_t nOutBundles = 0, nOutInterestsAbsorbed = 0;
  uint64_t nInBundles = 0, nInInterestsRegenerated = 0, nInInterestsGapFilled = 0;
  uint64_t nInBundlesStale = 0, nInBundlesInvalid = 0;
  uint64_t nInDataEarly = 0, nInDataEarlyExpired = 0;
  uint64_t nOutBundleRecoveries = 0; ///< recovery bundles sent by loss detection
  bool operator==(const BundleCounters&) const = default;
};

/// NDNLPv2 link reliability counters of a face (ndnlab extension, FaceStatus
/// LinkReliabilityCounters; LinkService::Counters).
struct LinkReliabilityCounters
{
  uint64_t nOutRetxFrames = 0, nAcknowledged = 0, nRetransmitted = 0;
  uint64_t nRetxExhausted = 0, nUnackedOverflow = 0, nDuplicateSequence = 0;
  uint64_t nOutAcks = 0, nOutIdleAcks = 0;
  bool operator==(const LinkReliabilityCounters&) const = default;
};

/// faces/list entry (FaceStatus, 128). The ndnlab extension elements (Medium, BundleInterval,
/// BundleCounters) follow Flags and are present only on faces that are wireless, bundle, or
/// have decoded bundles; MirccCapacity and MirccRate only on faces with MIRCC enabled;
/// LinkReliabilityCounters only on faces with link reliability on; so faces/list is NFD's
/// under the default configuration.
struct FaceStatus
{
  uint64_t faceId = 0;
  std::string remoteUri;
  std::string localUri;
  std::optional<std::chrono::milliseconds> expirationPeriod; ///< on-demand faces: time left
  uint64_t faceScope = 0;                                    ///< 0 non-local, 1 local
  uint64_t facePersistency = 0;                              ///< 0 persistent, 1 on-demand, 2 permanent
  uint64_t linkType = 0;                                     ///< 0 point-to-point, 1 multi-access, 2 ad hoc
  std::optional<Duration> baseCongestionMarkingInterval;
  std::optional<uint64_t> defaultCongestionThreshold;
  std::optional<uint64_t> mtu;
  uint64_t nInInterests = 0, nInData = 0, nInNacks = 0;
  uint64_t nOutInterests = 0, nOutData = 0, nOutNacks = 0;
  uint64_t nInBytes = 0, nOutBytes = 0;
  uint64_t flags = 0;
  std::optional<uint64_t> medium; ///< 0 wired, 1 wireless
  std::optional<uint64_t> bundleInterval;
  std::optional<BundleCounters> bundleCounters;
  std::optional<uint64_t> mirccCapacity;                      ///< MIRCC enabled on this face: C, bit/s
  std::optional<uint64_t> mirccRate;                          ///< and its current R_f, bit/s
  std::optional<LinkReliabilityCounters> reliabilityCounters; ///< link reliability on this face

  void encodeTo(Buffer& out) const;
  /// Decodes one whole FaceStatus TLV.
  static DecodeResult<FaceStatus> decode(ByteSpan wire);
  bool operator==(const FaceStatus&) const = default;
};

/// The parameter of faces/query (FaceQueryFilter, 150): a face matches when every field that is
/// present equals the face's (UriScheme: the scheme of its remote or of its local URI; URIs
/// compared as strings, as NFD does). An empty filter matches every face.
struct FaceQueryFilter
{
  std::optional<uint64_t> faceId;
  std::optional<std::string> uriScheme; ///< e.g. "udp4", without "://"
  std::optional<std::string> remoteUri; ///< Uri (114)
  std::optional<std::string> localUri;
  std::optional<uint64_t> faceScope;
  std::optional<uint64_t> facePersistency;
  std::optional<uint64_t> linkType;

  /// Appends the FaceQueryFilter TLV, its fields in ndn-cxx's order.
  void encodeTo(Buffer& out) const;
  /// Decodes one whole FaceQueryFilter TLV; fields in any order, unknown ones skipped.
  static DecodeResult<FaceQueryFilter> decode(ByteSpan wire);
  bool matches(const FaceStatus& face) const;
  bool operator==(const FaceQueryFilter&) const = default;
};

/// faces/channels entry (ChannelStatus, 130).
struct ChannelStatus
{
  std::string localUri;

  void encodeTo(Buffer& out) const;
  static DecodeResult<ChannelStatus> decode(ByteSpan wire);
  bool operator==(const ChannelStatus&) const = default;
};

/// fib/list entry (FibEntry, 128).
struct FibEntryStatus
{
  struct NextHop
  {
    uint64_t faceId = 0;
    uint64_t cost = 0;
    bool operator==(const NextHop&) const = default;
  };
  Name prefix;
  std::vector<NextHop> nextHops;

  void encodeTo(Buffer& out) const;
  static DecodeResult<FibEntryStatus> decode(ByteSpan wire);
  bool operator==(const FibEntryStatus&) const = default;
};

/// rib/list entry (RibEntry, 128).
struct RibEntryStatus
{
  struct Route
  {
    uint64_t faceId = 0;
    uint64_t origin = 0;
    uint64_t cost = 0;
    uint64_t flags = 0;
    std::optional<std::chrono::milliseconds> expirationPeriod; ///< time left; absent = never
    bool operator==(const Route&) const = default;
  };
  Name prefix;
  std::vector<Route> routes;

  void encodeTo(Buffer& out) const;
  static DecodeResult<RibEntryStatus> decode(ByteSpan wire);
  bool operator==(const RibEntryStatus&) const = default;
};

/// strategy-choice/list entry (StrategyChoice, 128).
struct StrategyChoiceStatus
{
  Name prefix;
  Name strategy;

  void encodeTo(Buffer& out) const;
  static DecodeResult<StrategyChoiceStatus> decode(ByteSpan wire);
  bool operator==(const StrategyChoiceStatus&) const = default;
};

/// cs/info (CsInfo, 128).
struct CsInfo
{
  uint64_t capacity = 0;
  uint64_t flags = 0; ///< CsFlagEnableAdmit | CsFlagEnableServe
  uint64_t nEntries = 0;
  uint64_t nHits = 0;
  uint64_t nMisses = 0;

  void encodeTo(Buffer& out) const;
  static DecodeResult<CsInfo> decode(ByteSpan wire);
  bool operator==(const CsInfo&) const = default;
};

/// ndnlab/drops entry (DropCounter, 246; ndnlab extension): how many events of one kind and
/// reason the daemon counted since it started (docs/daemon.md "Drop counters").
struct DropCounterStatus
{
  std::string kind;   ///< "drop", "io_drop", "impair_drop", "face_close"
  std::string reason; ///< e.g. "packet_too_large"
  uint64_t count = 0;

  void encodeTo(Buffer& out) const;
  static DecodeResult<DropCounterStatus> decode(ByteSpan wire);
  bool operator==(const DropCounterStatus&) const = default;
};

/// Decodes a list dataset's content: a concatenation of entries of type T.
template<typename T>
DecodeResult<std::vector<T>> decodeList(ByteSpan content)
{
  std::vector<T> out;
  TlvReader r(content);
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e)
      return fail(e.error());
    auto item = T::decode(e->wire);
    if (!item)
      return fail(item.error());
    out.push_back(std::move(*item));
  }
  return out;
}

} // namespace ndnlab::mgmt
