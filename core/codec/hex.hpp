#pragma once
// One hex digit's value, for the parsers of hex text (fromHex, URI percent-escapes, MAC
// addresses).

namespace ndnlab {

/// 0-15 for '0'-'9', 'a'-'f', 'A'-'F'; -1 for any other character.
constexpr int hexDigit(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

} // namespace ndnlab
