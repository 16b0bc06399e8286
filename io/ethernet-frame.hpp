#pragma once
// Ethernet frames of NDN (NFD's EthernetTransport): destination MAC, source MAC, EtherType
// 0x8624, and a payload of one NDNLPv2 packet (or a bare Interest/Data). Frames shorter than
// Ethernet's 60-octet minimum are padded with zeros on send, so a payload is its first TLV
// and anything after it is padding. Pure functions: no sockets, tested without privileges.

#include "core/codec/tlv.hpp"
#include "core/runtime/events.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace ndnlab::io {

/// NDN's EtherType (IEEE-assigned to NDN, as NFD and ndn-cxx use).
inline constexpr uint16_t EtherTypeNdn = 0x8624;
/// Destination + source + EtherType.
inline constexpr size_t EthernetHeaderSize = 14;
/// Smallest frame without the FCS; shorter frames are padded with zeros.
inline constexpr size_t EthernetMinFrameSize = 60;

/// A 48-bit IEEE 802 MAC address.
struct MacAddress
{
  std::array<uint8_t, 6> octets{};

  /// Lower-case "xx:xx:xx:xx:xx:xx".
  std::string toString() const;
  /// The group bit (I/G, bit 0 of the first octet): multicast or broadcast.
  bool isMulticast() const { return (octets[0] & 0x01) != 0; }
  bool isNull() const { return octets == std::array<uint8_t, 6>{}; }
  /// The address as a number (an EndpointId of a multi-access face); never 0 unless null.
  uint64_t toUint() const;
  static MacAddress fromUint(uint64_t v);

  /// "xx:xx:xx:xx:xx:xx" or "xx-xx-xx-xx-xx-xx", hex digits in either case; nullopt otherwise.
  static std::optional<MacAddress> parse(std::string_view text);

  friend bool operator==(const MacAddress&, const MacAddress&) = default;
  friend auto operator<=>(const MacAddress&, const MacAddress&) = default;
};

/// NFD's default NDN multicast group, 01:00:5e:00:17:aa (the MAC of IPv4 224.0.23.170).
inline constexpr MacAddress DefaultEtherMulticastGroup{{0x01, 0x00, 0x5e, 0x00, 0x17, 0xaa}};

/// NFD's face URI of a MAC address: "ether://[xx:xx:xx:xx:xx:xx]".
std::string etherUri(const MacAddress& mac);
/// NFD's face URI of a network interface: "dev://<ifname>".
std::string devUri(std::string_view ifname);

/// A frame of `payload` from `src` to `dst`, padded with zeros to EthernetMinFrameSize.
Buffer encodeEthernetFrame(const MacAddress& dst, const MacAddress& src, ByteSpan payload);

/// What a received frame is.
enum class EthernetRx : uint8_t {
  Accept,         ///< an NDN frame from another station: `payload` holds its TLV
  OwnFrame,       ///< sent by `self` (looped back): ignored, not a drop
  OtherEtherType, ///< not NDN's EtherType: not ours, ignored
  Runt,           ///< shorter than the header (drop "runt_frame")
  Oversize,       ///< longer than the MTU plus the header (drop "oversize_frame")
  BadPayload,     ///< the payload does not start with one whole TLV (drop "invalid_datagram")
};

struct EthernetRxFrame
{
  EthernetRx verdict = EthernetRx::Runt;
  MacAddress destination;
  MacAddress source;
  /// The first TLV of the payload (without padding) when Accept.
  ByteSpan payload;
};

/// Checks a received frame (header included, FCS not) of an interface whose MAC is `self` and
/// whose MTU is `mtu` octets of payload.
EthernetRxFrame parseEthernetFrame(ByteSpan frame, const MacAddress& self, size_t mtu);

/// The drop reason of a verdict that is a drop (Runt, Oversize, BadPayload).
std::optional<DropReason> dropReason(EthernetRx verdict);

} // namespace ndnlab::io
