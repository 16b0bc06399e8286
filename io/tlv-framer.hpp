#pragma once
// Finding whole TLVs in a byte stream (stream sockets) or a datagram (UDP).
// A frame is one top-level TLV: TLV-TYPE and TLV-LENGTH VAR-NUMBERs (spec tlv.rst) + value.

#include "core/codec/tlv.hpp"
#include "core/runtime/events.hpp"

#include <cstddef>
#include <string_view>

namespace ndnlab::io {

/// Largest NDN packet (ndn-cxx MAX_NDN_PACKET_SIZE, NFD's UDP MTU; core/codec/tlv.hpp).
inline constexpr size_t MaxNdnPacketSize = ::ndnlab::MaxNdnPacketSize;
/// Default bound on one frame: a maximal packet plus room for an NDNLPv2 header
/// (LpPacket/Fragment headers, PitToken, IncomingFaceId, CongestionMark, ...).
inline constexpr size_t DefaultMaxFrameSize = MaxNdnPacketSize + 256;

enum class FrameStatus : uint8_t {
  Complete,  ///< a whole frame of `size` octets starts the input
  NeedMore,  ///< the input is a prefix of a frame (possibly of its header)
  BadHeader, ///< TLV-TYPE 0 / above 2^32-1, or a VAR-NUMBER not in shortest form
  TooLarge,  ///< the header announces a frame above the limit
};

std::string_view toString(FrameStatus s);
/// The drop and close reasons of a frame that is not Complete (BadHeader or TooLarge).
DropReason dropReason(FrameStatus s);
CloseReason closeReason(FrameStatus s);

struct FrameCheck
{
  FrameStatus status;
  size_t size = 0; ///< whole frame (T + L + V) when Complete or TooLarge; 0 otherwise
  /// TooLarge: T + L + V octets the header announces (saturated at UINT64_MAX), so a stream
  /// reader can skip the frame; `size` is then at most maxFrameSize + 1.
  uint64_t announced = 0;
};

/// Looks at the start of `in` for one frame of at most `maxFrameSize` octets.
FrameCheck checkFrame(ByteSpan in, size_t maxFrameSize);

} // namespace ndnlab::io
