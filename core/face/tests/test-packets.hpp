#pragma once
// Packets and frames for the link-service tests (generic-link-service.t.cpp,
// link-reliability.t.cpp): hex text as bytes, an Interest with a fixed nonce, a Data with
// patterned content and a dummy signature.

#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "core/codec/tlv.hpp"

#include <gtest/gtest.h>

#include <string_view>

namespace ndnlab::face::test {

inline Buffer hex(std::string_view h)
{
  Buffer b;
  EXPECT_TRUE(fromHex(h, b)) << h;
  return b;
}

inline Interest makeInterest(std::string_view name = "/a/b", uint32_t nonce = 0x01020304)
{
  Interest i{Name(name)};
  i.setNonce(nonce);
  return i;
}

inline Data makeData(std::string_view name = "/a/b", size_t contentSize = 10)
{
  Data d{Name(name)};
  Buffer content(contentSize);
  for (size_t k = 0; k < contentSize; ++k)
    content[k] = static_cast<uint8_t>(k * 31 + 1);
  d.setContent(ByteSpan(content));
  d.setSignatureValue(Buffer(32, 0xEE));
  return d;
}

} // namespace ndnlab::face::test
