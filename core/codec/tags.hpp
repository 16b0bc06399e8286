#pragma once
// Hop-by-hop hints carried beside a network packet while it crosses a node (like NFD's tags).
// The link service fills them from NDNLPv2 header fields on receive and writes them back as
// fields on send; the forwarder copies or strips them. Codec never encodes them into the
// network packet itself.

#include "core/runtime/units.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>

namespace ndnlab {

/// NDNLPv2 PitToken: 1..32 opaque octets (ndn-cxx limit).
struct PitToken
{
  static constexpr size_t MaxSize = 32;
  uint8_t size = 0;
  std::array<uint8_t, MaxSize> bytes{};

  std::span<const uint8_t> view() const { return {bytes.data(), size}; }
  bool operator==(const PitToken& o) const
  {
    return size == o.size && std::equal(bytes.begin(), bytes.begin() + size, o.bytes.begin());
  }
};

/// BLEnD BundleTag (filled by consumers, read by the Interest bundler); see issue 4.
struct BundleTag
{
  bool retransmission = false;
  uint32_t cwnd = 1;
  /// Set (never on the wire) on Interests a bundle decoder hands up: `cwnd` is then the span
  /// of the decoded bundle, not a consumer's window, and a further hop re-bundles that span
  /// whole (the dynamic interval does not cut it).
  bool decoded = false;

  bool operator==(const BundleTag&) const = default;
};

struct PacketTags
{
  std::optional<PitToken> pitToken;
  uint64_t congestionMark = 0;            ///< 0 = not marked
  std::optional<uint64_t> incomingFaceId; ///< set by the forwarder on receive
  std::optional<uint64_t> nextHopFaceId;  ///< from local apps with local fields enabled
  bool noCache = false;                   ///< CachePolicy=NoCache
  std::optional<BundleTag> bundle;
  /// MIRCC explicit rate on Data and Nacks (docs/mechanisms/mircc.md): the smallest rate
  /// stamped by the MIRCC forwarders the packet crossed so far; nullopt = none stamped.
  std::optional<Rate> mirccRate;
};

} // namespace ndnlab
