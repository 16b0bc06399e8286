#pragma once
// ControlParameters (TLV 104) and ControlResponse (TLV 101) of the NFD management protocol
// (ndn-cxx mgmt/control-parameters.hpp, mgmt/control-response.hpp; spec facts 3.1).
//
// Encoding order is ndn-cxx's: Name, FaceId, Uri, LocalUri, Origin, Cost, Capacity, Count,
// Flags, Mask, Strategy, ExpirationPeriod, FacePersistency, BaseCongestionMarkingInterval,
// DefaultCongestionThreshold, Mtu, then ndnlab's Medium, BundleInterval and MirccCapacity
// (tlv-nfd.hpp).
// Decoding accepts the elements in any order and ignores
// unknown elements (as ndn-cxx does); a duplicated element keeps its first occurrence.

#include "core/codec/name.hpp"
#include "core/mgmt/tlv-nfd.hpp"
#include "core/runtime/units.hpp"

#include <optional>
#include <string>

namespace ndnlab::mgmt {

struct ControlParameters
{
  std::optional<Name> name;
  std::optional<uint64_t> faceId;
  std::optional<std::string> uri; ///< FaceUri, raw UTF-8
  std::optional<std::string> localUri;
  std::optional<uint64_t> origin; ///< RouteOrigin
  std::optional<uint64_t> cost;
  std::optional<uint64_t> capacity; ///< CS capacity, packets
  std::optional<uint64_t> count;
  std::optional<uint64_t> flags;
  std::optional<uint64_t> mask;
  std::optional<Name> strategy; ///< strategy instance name (wrapped in Strategy TLV)
  std::optional<std::chrono::milliseconds> expirationPeriod;
  std::optional<uint64_t> facePersistency;
  std::optional<Duration> baseCongestionMarkingInterval; ///< nanoseconds on the wire
  std::optional<uint64_t> defaultCongestionThreshold;    ///< bytes
  std::optional<uint64_t> mtu;                           ///< bytes
  std::optional<uint64_t> medium;                        ///< ndnlab: 0 wired, 1 wireless
  std::optional<uint64_t> bundleInterval;                ///< ndnlab: BLEnD bundle interval
  std::optional<uint64_t> mirccCapacity;                 ///< ndnlab: MIRCC capacity C, bit/s; 0 = off

  /// Decodes a whole ControlParameters TLV (type 104).
  static DecodeResult<ControlParameters> decode(ByteSpan wire);
  /// Decodes the TLV-VALUE of a ControlParameters.
  static DecodeResult<ControlParameters> fromValue(ByteSpan value);

  /// Appends the whole TLV.
  void encodeTo(Buffer& out) const;
  Buffer wireEncode() const;

  bool operator==(const ControlParameters&) const = default;
};

/// Management status codes used by ndnlab (NFD values).
namespace status {
inline constexpr uint32_t Ok = 200;
inline constexpr uint32_t BadRequest = 400;
inline constexpr uint32_t Forbidden = 403;
inline constexpr uint32_t NotFound = 404;
inline constexpr uint32_t NotAcceptable = 406;
inline constexpr uint32_t Conflict = 409;
inline constexpr uint32_t Gone = 410;
inline constexpr uint32_t UriTooLong = 414;
inline constexpr uint32_t InternalError = 500;
inline constexpr uint32_t NotImplemented = 501;
inline constexpr uint32_t ServiceUnavailable = 503;
} // namespace status

struct ControlResponse
{
  uint32_t code = status::Ok;
  std::string text = "OK";
  /// Encoded body elements (usually one ControlParameters TLV); empty when absent.
  Buffer body;

  ControlResponse() = default;
  ControlResponse(uint32_t c, std::string t) : code(c), text(std::move(t)) {}
  ControlResponse(uint32_t c, std::string t, const ControlParameters& p)
    : code(c), text(std::move(t)), body(p.wireEncode())
  {}

  /// Decodes a whole ControlResponse TLV (type 101).
  static DecodeResult<ControlResponse> decode(ByteSpan wire);
  /// The body as ControlParameters, when it is one.
  std::optional<ControlParameters> bodyParameters() const;

  void encodeTo(Buffer& out) const;
  Buffer wireEncode() const;
};

} // namespace ndnlab::mgmt
