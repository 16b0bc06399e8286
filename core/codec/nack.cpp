#include "core/codec/nack.hpp"

namespace ndnlab {

NackReason nackReasonFromCode(uint64_t code)
{
  switch (code) {
    case 50: return NackReason::Congestion;
    case 100: return NackReason::Duplicate;
    case 150: return NackReason::NoRoute;
    default: return NackReason::None;
  }
}

std::string_view toString(NackReason r)
{
  switch (r) {
    case NackReason::None: return "None";
    case NackReason::Congestion: return "Congestion";
    case NackReason::Duplicate: return "Duplicate";
    case NackReason::NoRoute: return "NoRoute";
  }
  return "None";
}

namespace {

int severity(NackReason r)
{
  switch (r) {
    case NackReason::Congestion: return 0;
    case NackReason::Duplicate: return 1;
    case NackReason::NoRoute: return 2;
    case NackReason::None: return 3;
  }
  return 3;
}

} // namespace

bool isLessSevere(NackReason a, NackReason b)
{
  return severity(a) < severity(b);
}

} // namespace ndnlab
