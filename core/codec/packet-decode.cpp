#include "core/codec/packet-decode.hpp"

#include <algorithm>
#include <limits>

namespace ndnlab::codec {

Duration millisToDuration(uint64_t ms)
{
  constexpr uint64_t maxMs = static_cast<uint64_t>(std::numeric_limits<Duration::rep>::max() / 1000000);
  return std::chrono::milliseconds(static_cast<int64_t>(std::min(ms, maxMs)));
}

uint64_t durationToMillis(Duration d)
{
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  return ms < 0 ? 0 : static_cast<uint64_t>(ms);
}

DecodeResult<Element> readOuterTlv(const SharedBuffer& wire, uint32_t type)
{
  if (!wire)
    return fail(DecodeError{DecodeErrc::Truncated, type});
  auto outer = readSingleTlv(*wire);
  if (!outer)
    return outer;
  if (outer->type != type)
    return fail(DecodeError{DecodeErrc::UnexpectedType, outer->type});
  return outer;
}

DecodeResult<Name> readLeadingName(TlvReader& r)
{
  if (r.atEnd())
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::Name});
  auto first = r.next();
  if (!first)
    return fail(first.error());
  if (first->type != tlv::Name)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::Name});
  return Name::fromValue(first->value);
}

} // namespace ndnlab::codec
