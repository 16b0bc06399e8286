#include "core/codec/tlv.hpp"

#include "core/codec/hex.hpp"

#include <string>

namespace ndnlab {

std::string_view reasonName(DecodeErrc e)
{
  switch (e) {
    case DecodeErrc::Truncated: return "truncated";
    case DecodeErrc::BadVarNumber: return "bad-var-number";
    case DecodeErrc::BadLength: return "bad-length";
    case DecodeErrc::BadNonNegInt: return "bad-nonneg-int";
    case DecodeErrc::UnexpectedType: return "unexpected-type";
    case DecodeErrc::MissingElement: return "missing-element";
    case DecodeErrc::CriticalUnknown: return "critical-unknown";
    case DecodeErrc::BadValue: return "bad-value";
    case DecodeErrc::BadName: return "bad-name";
    case DecodeErrc::TrailingBytes: return "trailing-bytes";
  }
  return "unknown";
}

size_t varNumberSize(uint64_t n)
{
  if (n < 253)
    return 1;
  if (n <= 0xFFFF)
    return 3;
  if (n <= 0xFFFFFFFF)
    return 5;
  return 9;
}

static void appendBigEndian(Buffer& out, uint64_t n, size_t octets)
{
  for (size_t i = octets; i-- > 0;)
    out.push_back(static_cast<uint8_t>(n >> (8 * i)));
}

void appendVarNumber(Buffer& out, uint64_t n)
{
  if (n < 253) {
    out.push_back(static_cast<uint8_t>(n));
  }
  else if (n <= 0xFFFF) {
    out.push_back(0xFD);
    appendBigEndian(out, n, 2);
  }
  else if (n <= 0xFFFFFFFF) {
    out.push_back(0xFE);
    appendBigEndian(out, n, 4);
  }
  else {
    out.push_back(0xFF);
    appendBigEndian(out, n, 8);
  }
}

size_t nonNegIntSize(uint64_t n)
{
  if (n <= 0xFF)
    return 1;
  if (n <= 0xFFFF)
    return 2;
  if (n <= 0xFFFFFFFF)
    return 4;
  return 8;
}

void appendNonNegInt(Buffer& out, uint64_t n)
{
  appendBigEndian(out, n, nonNegIntSize(n));
}

void appendTlvHeader(Buffer& out, uint32_t type, size_t valueLength)
{
  appendVarNumber(out, type);
  appendVarNumber(out, valueLength);
}

void appendTlv(Buffer& out, uint32_t type, ByteSpan value)
{
  appendTlvHeader(out, type, value.size());
  out.insert(out.end(), value.begin(), value.end());
}

void appendTlvNonNegInt(Buffer& out, uint32_t type, uint64_t n)
{
  appendTlvHeader(out, type, nonNegIntSize(n));
  appendNonNegInt(out, n);
}

void appendTlvEmpty(Buffer& out, uint32_t type)
{
  appendTlvHeader(out, type, 0);
}

DecodeResult<uint64_t> readVarNumber(ByteSpan in, size_t& pos)
{
  if (pos >= in.size())
    return fail(DecodeError{DecodeErrc::Truncated});
  uint8_t first = in[pos];
  size_t octets = first < 253 ? 0 : first == 0xFD ? 2 : first == 0xFE ? 4 : 8;
  if (octets == 0) {
    ++pos;
    return uint64_t{first};
  }
  if (in.size() - pos - 1 < octets)
    return fail(DecodeError{DecodeErrc::Truncated});
  uint64_t n = 0;
  for (size_t i = 0; i < octets; ++i)
    n = (n << 8) | in[pos + 1 + i];
  uint64_t minimum = octets == 2 ? 253 : octets == 4 ? 0x10000 : 0x100000000ULL;
  if (n < minimum)
    return fail(DecodeError{DecodeErrc::BadVarNumber});
  pos += 1 + octets;
  return n;
}

DecodeResult<uint64_t> readNonNegInt(ByteSpan value)
{
  size_t len = value.size();
  if (len != 1 && len != 2 && len != 4 && len != 8)
    return fail(DecodeError{DecodeErrc::BadNonNegInt});
  uint64_t n = 0;
  for (uint8_t b : value)
    n = (n << 8) | b;
  return n;
}

DecodeResult<uint64_t> readNonNegInt(const Element& e)
{
  auto r = readNonNegInt(e.value);
  if (!r)
    return fail(DecodeError{DecodeErrc::BadNonNegInt, e.type});
  return r;
}

DecodeResult<Element> TlvReader::nextSlow()
{
  size_t start = m_pos;
  size_t pos = m_pos;
  auto type = readVarNumber(m_in, pos);
  if (!type)
    return fail(type.error());
  // TLV-TYPE is 1/3/5 octets and never 0.
  if (*type == 0 || *type > 0xFFFFFFFF)
    return fail(DecodeError{DecodeErrc::BadVarNumber});
  auto length = readVarNumber(m_in, pos);
  if (!length)
    return fail(DecodeError{length.error().code, static_cast<uint32_t>(*type)});
  if (*length > m_in.size() - pos)
    return fail(DecodeError{DecodeErrc::BadLength, static_cast<uint32_t>(*type)});
  Element e;
  e.type = static_cast<uint32_t>(*type);
  e.value = m_in.subspan(pos, *length);
  e.wire = m_in.subspan(start, pos + *length - start);
  m_pos = pos + *length;
  return e;
}

uint32_t TlvReader::peekType() const
{
  size_t pos = m_pos;
  auto type = readVarNumber(m_in, pos);
  if (!type || *type > 0xFFFFFFFF)
    return 0;
  return static_cast<uint32_t>(*type);
}

DecodeResult<Element> readSingleTlv(ByteSpan in)
{
  TlvReader r(in);
  auto e = r.next();
  if (!e)
    return e;
  if (!r.atEnd())
    return fail(DecodeError{DecodeErrc::TrailingBytes, e->type});
  return e;
}

std::string toHex(ByteSpan bytes)
{
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    s.push_back(digits[b >> 4]);
    s.push_back(digits[b & 0xF]);
  }
  return s;
}

bool fromHex(std::string_view hex, Buffer& out)
{
  int high = -1;
  for (char c : hex) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r')
      continue;
    const int v = hexDigit(c);
    if (v < 0)
      return false;
    if (high < 0) {
      high = v;
    }
    else {
      out.push_back(static_cast<uint8_t>(high << 4 | v));
      high = -1;
    }
  }
  return high < 0;
}

} // namespace ndnlab
