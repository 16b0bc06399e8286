#pragma once
// Network Nack: an Interest returned with a reason (NDNLPv2 Nack header, spec reason codes).

#include "core/codec/interest.hpp"

#include <string_view>

namespace ndnlab {

enum class NackReason : uint64_t { None = 0, Congestion = 50, Duplicate = 100, NoRoute = 150 };

/// Unknown codes read as None (ndn-cxx lp/nack-header.cpp).
NackReason nackReasonFromCode(uint64_t code);
std::string_view toString(NackReason r);
/// Severity order for aggregation: Congestion < Duplicate < NoRoute < None (None most severe).
bool isLessSevere(NackReason a, NackReason b);

struct Nack
{
  Interest interest;
  NackReason reason = NackReason::None;
};

} // namespace ndnlab
