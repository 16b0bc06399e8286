#include "core/lp/fragmenter.hpp"

#include <algorithm>
#include <memory>

namespace ndnlab::lp {

DropReason dropReason(FragmentErrc e)
{
  switch (e) {
    case FragmentErrc::MtuTooSmall: return DropReason::FragmentMtuTooSmall;
    case FragmentErrc::TooManyFragments: return DropReason::FragmentTooMany;
  }
  return DropReason::FragmentMtuTooSmall;
}

Fragmenter::Fragmenter(FragmenterOptions options, uint64_t firstSequence)
  : m_options(options), m_nextSequence(firstSequence)
{}

Result<std::vector<SharedBuffer>, FragmentErrc> Fragmenter::fragment(const LpPacket& header, ByteSpan netPacket,
                                                                     size_t mtu)
{
  auto packets = split(header, netPacket, mtu);
  if (!packets)
    return fail(packets.error());
  std::vector<SharedBuffer> frames;
  frames.reserve(packets->size());
  for (const LpPacket& p : *packets)
    frames.push_back(encode(p));
  return frames;
}

Result<std::vector<LpPacket>, FragmentErrc> Fragmenter::split(const LpPacket& header, ByteSpan netPacket, size_t mtu)
{
  LpPacket first = header;
  first.sequence.reset();
  first.fragIndex.reset();
  first.fragCount.reset();
  first.fragment.reset();
  first.bare = false;

  // Upper bound of the per-fragment overhead: LpPacket T/L, Sequence, FragIndex, FragCount,
  // Fragment T/L. Lengths never exceed the MTU, and FragIndex < FragCount <= maxFragments.
  const size_t maxFrags = std::max<size_t>(m_options.maxFragments, 1);
  const size_t lengthBound = varNumberSize(mtu);
  const size_t indexFieldBound = tlvSize(tlv::FragIndex, nonNegIntSize(maxFrags));
  const size_t overhead = varNumberSize(tlv::LpPacket) + lengthBound + tlvSize(tlv::Sequence, 8) + 2 * indexFieldBound +
                          varNumberSize(tlv::Fragment) + lengthBound;
  const size_t firstHeader = headerFieldsSize(first);
  if (mtu <= overhead + firstHeader)
    return fail(FragmentErrc::MtuTooSmall);
  const size_t firstPayload = mtu - overhead - firstHeader;
  const size_t otherPayload = mtu - overhead;

  const size_t total = netPacket.size();
  size_t count = 1;
  if (total > firstPayload)
    count += (total - firstPayload + otherPayload - 1) / otherPayload;
  if (count > maxFrags)
    return fail(FragmentErrc::TooManyFragments);

  std::vector<LpPacket> frames;
  frames.reserve(count);
  size_t offset = 0;
  for (size_t i = 0; i < count; ++i) {
    size_t len = std::min(total - offset, i == 0 ? firstPayload : otherPayload);
    LpPacket frag;
    if (i == 0)
      frag = first;
    frag.sequence = m_nextSequence + i;
    frag.fragIndex = i;
    frag.fragCount = count;
    frag.fragment = netPacket.subspan(offset, len);
    offset += len;
    frames.push_back(std::move(frag));
  }
  m_nextSequence += count;
  return frames;
}

} // namespace ndnlab::lp
