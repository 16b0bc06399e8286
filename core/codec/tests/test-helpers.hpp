#pragma once
// Shared helpers for codec tests.

#include "core/codec/tlv.hpp"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

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

/// An NDNLPv2 LpPacket TLV around the header fields and Fragment given in hex.
inline Buffer lpPacket(std::string_view fieldsHex)
{
  Buffer out;
  appendTlv(out, tlv::LpPacket, hex(fieldsHex));
  return out;
}

/// TLV-TYPEs of the elements inside an LpPacket, in wire order: what a receiver that knows no
/// field sees (legacy-receiver checks).
inline std::vector<uint32_t> lpElementTypes(ByteSpan frame)
{
  std::vector<uint32_t> types;
  TlvReader outer(frame);
  auto pkt = outer.next();
  EXPECT_TRUE(pkt.ok());
  if (!pkt.ok())
    return types;
  TlvReader reader(pkt->value);
  while (!reader.atEnd()) {
    auto e = reader.next();
    EXPECT_TRUE(e.ok());
    if (!e.ok())
      break;
    types.push_back(e->type);
  }
  return types;
}

} // namespace ndnlab::test
