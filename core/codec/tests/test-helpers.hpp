#pragma once
// Shared helpers for codec tests.

#include "core/codec/tlv.hpp"

#include <gtest/gtest.h>

#include <string_view>

namespace ndnlab::test {

inline Buffer hex(std::string_view s)
{
  Buffer b;
  EXPECT_TRUE(fromHex(s, b)) << "bad hex in test: " << s;
  return b;
}

inline std::string hexOf(ByteSpan b)
{
  return toHex(b);
}

} // namespace ndnlab::test
