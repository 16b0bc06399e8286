#pragma once
// Decoding steps shared by the Interest and Data codecs (spec tlv.rst, interest.rst, data.rst).
// Internal to core/codec.

#include "core/codec/name.hpp"
#include "core/runtime/units.hpp"

namespace ndnlab::codec {

/// A millisecond count (InterestLifetime, FreshnessPeriod) as a Duration, saturated at the
/// largest value Duration holds.
Duration millisToDuration(uint64_t ms);
/// A Duration as whole milliseconds, truncated; negative durations give 0.
uint64_t durationToMillis(Duration d);

/// The outer TLV of a packet of type `type` occupying all of `wire`: Truncated if `wire` is
/// null, UnexpectedType if the outer type differs.
DecodeResult<Element> readOuterTlv(const SharedBuffer& wire, uint32_t type);

/// The Name that must be the first element read by `r`: MissingElement(Name) if the input is
/// empty or starts with another element.
DecodeResult<Name> readLeadingName(TlvReader& r);

/// Evolvability rule for elements with a fixed order (spec tlv.rst): `order` is the element's
/// position (0 when unrecognized) and `last` the position of the last accepted element.
/// Returns true (and advances `last`) for an element to process, false for a non-critical
/// unrecognized or out-of-order element to skip, CriticalUnknown for a critical one.
inline DecodeResult<bool> acceptInOrder(uint32_t type, int order, int& last)
{
  if (order == 0 || order <= last) {
    if (tlv::isCritical(type))
      return fail(DecodeError{DecodeErrc::CriticalUnknown, type});
    return false;
  }
  last = order;
  return true;
}

} // namespace ndnlab::codec
