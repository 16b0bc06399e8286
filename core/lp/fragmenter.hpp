#pragma once
// Indexed fragmentation of network packets into NDNLPv2 fragments (NFD lp-fragmenter
// semantics, ndn-spec-facts.md section 2.4).

#include "core/runtime/events.hpp"
#include "core/lp/packet.hpp"

#include <vector>

namespace ndnlab::lp {

struct FragmenterOptions
{
  /// Maximum fragments per network packet (NFD nMaxFragments); larger packets are refused.
  size_t maxFragments = 400;
};

enum class FragmentErrc : uint8_t {
  MtuTooSmall,      ///< not even one payload octet fits in the first fragment
  TooManyFragments, ///< the packet would need more than maxFragments fragments
};

/// The drop reason of `e` (core/runtime/events.hpp).
DropReason dropReason(FragmentErrc e);
inline std::string_view reasonName(FragmentErrc e)
{
  return toString(dropReason(e));
}

class Fragmenter
{
public:
  /// `firstSequence` is the Sequence of the first fragment ever produced; later packets
  /// continue from there (uint64 arithmetic, wrapping).
  explicit Fragmenter(FragmenterOptions options = {}, uint64_t firstSequence = 0);

  /// Splits `netPacket` into encoded LpPacket frames of at most `mtu` octets each.
  /// The first fragment carries every header field of `header` (its Sequence, FragIndex,
  /// FragCount and fragment are ignored); later fragments carry only Sequence, FragIndex,
  /// FragCount and Fragment. Fragments of one packet get consecutive Sequence numbers, so
  /// Sequence - FragIndex identifies the packet at the receiver. On error no Sequence
  /// number is consumed.
  Result<std::vector<SharedBuffer>, FragmentErrc> fragment(const LpPacket& header, ByteSpan netPacket, size_t mtu);
  /// As fragment(), but the fragments are returned unencoded: each one's `fragment` views
  /// `netPacket`, so they are valid only while it lives.
  Result<std::vector<LpPacket>, FragmentErrc> split(const LpPacket& header, ByteSpan netPacket, size_t mtu);
  /// Takes one Sequence for a packet sent whole in one LpPacket (link reliability numbers every
  /// frame, NFD GenericLinkService::assignSequences).
  uint64_t takeSequence() { return m_nextSequence++; }

  /// Sequence the next fragment will carry.
  uint64_t nextSequence() const { return m_nextSequence; }
  const FragmenterOptions& options() const { return m_options; }

private:
  FragmenterOptions m_options;
  uint64_t m_nextSequence;
};

} // namespace ndnlab::lp
