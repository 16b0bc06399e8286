#include "io/tlv-framer.hpp"

#include <algorithm>

namespace ndnlab::io {

std::string_view toString(FrameStatus s)
{
  switch (s) {
    case FrameStatus::Complete: return "complete";
    case FrameStatus::NeedMore: return "need_more";
    case FrameStatus::BadHeader: return toString(DropReason::BadTlvHeader);
    case FrameStatus::TooLarge: return toString(DropReason::FrameTooLarge);
  }
  return "unknown";
}

DropReason dropReason(FrameStatus s)
{
  return s == FrameStatus::TooLarge ? DropReason::FrameTooLarge : DropReason::BadTlvHeader;
}

CloseReason closeReason(FrameStatus s)
{
  return s == FrameStatus::TooLarge ? CloseReason::FrameTooLarge : CloseReason::BadTlvHeader;
}

namespace {

/// Reads a VAR-NUMBER at `pos`: returns 0 = need more, 1 = ok, -1 = not shortest form.
inline int readVar(ByteSpan in, size_t& pos, uint64_t& out)
{
  if (pos >= in.size())
    return 0;
  uint8_t first = in[pos];
  if (first < 253) {
    out = first;
    ++pos;
    return 1;
  }
  size_t octets = first == 0xFD ? 2 : first == 0xFE ? 4 : 8;
  if (in.size() - pos - 1 < octets)
    return 0;
  uint64_t n = 0;
  for (size_t i = 0; i < octets; ++i)
    n = (n << 8) | in[pos + 1 + i];
  uint64_t minimum = octets == 2 ? 253 : octets == 4 ? 0x10000 : 0x100000000ULL;
  if (n < minimum)
    return -1;
  out = n;
  pos += 1 + octets;
  return 1;
}

} // namespace

FrameCheck checkFrame(ByteSpan in, size_t maxFrameSize)
{
  size_t pos = 0;
  uint64_t type = 0, length = 0;
  int r = readVar(in, pos, type);
  if (r == 0)
    return {FrameStatus::NeedMore};
  if (r < 0 || type == 0 || type > 0xFFFFFFFF)
    return {FrameStatus::BadHeader};
  r = readVar(in, pos, length);
  if (r == 0)
    return {FrameStatus::NeedMore};
  if (r < 0)
    return {FrameStatus::BadHeader};
  if (length > maxFrameSize || pos + length > maxFrameSize) {
    uint64_t announced = length > UINT64_MAX - pos ? UINT64_MAX : pos + length;
    return {FrameStatus::TooLarge, static_cast<size_t>(std::min<uint64_t>(announced, maxFrameSize + 1)), announced};
  }
  size_t total = pos + static_cast<size_t>(length);
  if (in.size() < total)
    return {FrameStatus::NeedMore};
  return {FrameStatus::Complete, total};
}

} // namespace ndnlab::io
