#include "core/codec/name.hpp"

#include "core/codec/hex.hpp"

#include <algorithm>
#include <cstring>
#include <ostream>
#include <stdexcept>

namespace ndnlab {

// --- ComponentRef ----------------------------------------------------------------------------

bool ComponentRef::isKeyword(std::string_view kw) const
{
  return m_type == tlv::KeywordNameComponent && m_value.size() == kw.size() &&
         std::equal(m_value.begin(), m_value.end(), kw.begin(),
                    [](uint8_t a, char b) { return a == static_cast<uint8_t>(b); });
}

std::optional<uint64_t> ComponentRef::toNumber() const
{
  auto n = readNonNegInt(m_value);
  if (!n)
    return std::nullopt;
  return *n;
}

int ComponentRef::compare(const ComponentRef& other) const
{
  if (m_type != other.m_type)
    return m_type < other.m_type ? -1 : 1;
  if (m_value.size() != other.m_value.size())
    return m_value.size() < other.m_value.size() ? -1 : 1;
  if (m_value.empty())
    return 0;
  int r = std::memcmp(m_value.data(), other.m_value.data(), m_value.size());
  return r < 0 ? -1 : r > 0 ? 1 : 0;
}

namespace {

bool isUnreserved(uint8_t c)
{
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

void appendEscaped(std::string& out, ByteSpan value)
{
  static constexpr char digits[] = "0123456789ABCDEF";
  bool onlyPeriods = std::all_of(value.begin(), value.end(), [](uint8_t c) { return c == '.'; });
  if (onlyPeriods) {
    // Includes the empty value: three extra periods (spec name.rst).
    out.append(value.size() + 3, '.');
    return;
  }
  for (uint8_t c : value) {
    if (isUnreserved(c)) {
      out.push_back(static_cast<char>(c));
    }
    else {
      out.push_back('%');
      out.push_back(digits[c >> 4]);
      out.push_back(digits[c & 0xF]);
    }
  }
}

/// URI alias of typed number components (ndn-cxx name-component-types).
const char* numberAlias(uint32_t type)
{
  switch (type) {
    case tlv::SegmentNameComponent: return "seg";
    case tlv::ByteOffsetNameComponent: return "off";
    case tlv::VersionNameComponent: return "v";
    case tlv::TimestampNameComponent: return "t";
    case tlv::SequenceNumNameComponent: return "seq";
    default: return nullptr;
  }
}

} // namespace

std::string ComponentRef::toUri() const
{
  std::string out;
  if (m_type == tlv::GenericNameComponent) {
    appendEscaped(out, m_value);
    return out;
  }
  if (m_value.size() == 32 && m_type == tlv::ImplicitSha256DigestComponent) {
    out = "sha256digest=";
    out += toHex(m_value);
    return out;
  }
  if (m_value.size() == 32 && m_type == tlv::ParametersSha256DigestComponent) {
    out = "params-sha256=";
    out += toHex(m_value);
    return out;
  }
  if (const char* alias = numberAlias(m_type)) {
    // Only the shortest NonNegativeInteger form uses the alias, so the URI stays lossless.
    if (auto n = toNumber(); n && nonNegIntSize(*n) == m_value.size()) {
      out = alias;
      out.push_back('=');
      out += std::to_string(*n);
      return out;
    }
  }
  out = std::to_string(m_type);
  out.push_back('=');
  appendEscaped(out, m_value);
  return out;
}

// --- Name: decoding --------------------------------------------------------------------------

namespace {

/// Validates one component element (spec name.rst).
std::optional<DecodeError> checkComponent(const Element& e)
{
  if (e.type > 0xFFFF)
    return DecodeError{DecodeErrc::BadName, e.type};
  if ((e.type == tlv::ImplicitSha256DigestComponent || e.type == tlv::ParametersSha256DigestComponent) &&
      e.value.size() != 32)
    return DecodeError{DecodeErrc::BadName, e.type};
  return std::nullopt;
}

} // namespace

DecodeResult<Name> Name::fromValue(ByteSpan value)
{
  Name name;
  name.m_value.assign(value.begin(), value.end());
  ByteSpan own(name.m_value);
  TlvReader r(own);
  if (!own.empty()) {
    name.m_offsets.reserve(8);
    name.m_offsets.push_back(0);
  }
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e) {
      DecodeError err = e.error();
      if (err.tlvType == 0)
        err.tlvType = tlv::Name;
      return fail(err);
    }
    if (auto err = checkComponent(*e))
      return fail(*err);
    name.m_offsets.push_back(static_cast<uint32_t>(r.position()));
  }
  return name;
}

DecodeResult<Name> Name::decode(ByteSpan wire)
{
  auto e = readSingleTlv(wire);
  if (!e)
    return fail(e.error());
  if (e->type != tlv::Name)
    return fail(DecodeError{DecodeErrc::UnexpectedType, e->type});
  return fromValue(e->value);
}

// --- Name: URI parsing -----------------------------------------------------------------------

namespace {

/// Unescapes a component value (percent-decoding and the period rule).
std::optional<std::string> unescapeValue(std::string_view s, Buffer& out)
{
  out.clear();
  if (std::all_of(s.begin(), s.end(), [](char c) { return c == '.'; })) {
    if (s.size() < 3)
      return "component '" + std::string(s) + "' is not allowed (use '...' for an empty component)";
    out.assign(s.size() - 3, '.');
    return std::nullopt;
  }
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      int hi = i + 2 < s.size() ? hexDigit(s[i + 1]) : -1;
      int lo = i + 2 < s.size() ? hexDigit(s[i + 2]) : -1;
      if (hi < 0 || lo < 0)
        return "bad percent-encoding in '" + std::string(s) + "'";
      out.push_back(static_cast<uint8_t>(hi << 4 | lo));
      i += 2;
    }
    else {
      out.push_back(static_cast<uint8_t>(s[i]));
    }
  }
  return std::nullopt;
}

bool parseDecimal(std::string_view s, uint64_t& n)
{
  if (s.empty() || s.size() > 20)
    return false;
  n = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (n > (UINT64_MAX - d) / 10)
      return false;
    n = n * 10 + d;
  }
  return true;
}

/// Parses one URI component and appends it to `name`; returns an error message on failure.
std::optional<std::string> parseComponent(std::string_view s, Name& name, Buffer& scratch)
{
  size_t eq = s.find('=');
  if (eq == std::string_view::npos) {
    if (auto err = unescapeValue(s, scratch))
      return err;
    name.append(tlv::GenericNameComponent, scratch);
    return std::nullopt;
  }
  std::string_view prefix = s.substr(0, eq);
  std::string_view rest = s.substr(eq + 1);

  auto digest = [&](uint32_t type) -> std::optional<std::string> {
    scratch.clear();
    if (rest.size() != 64 || !fromHex(rest, scratch) || scratch.size() != 32)
      return "'" + std::string(s) + "': digest must be 64 hex digits";
    name.append(type, scratch);
    return std::nullopt;
  };
  if (prefix == "sha256digest")
    return digest(tlv::ImplicitSha256DigestComponent);
  if (prefix == "params-sha256")
    return digest(tlv::ParametersSha256DigestComponent);

  uint32_t numberType = prefix == "seg"   ? tlv::SegmentNameComponent
                        : prefix == "off" ? tlv::ByteOffsetNameComponent
                        : prefix == "v"   ? tlv::VersionNameComponent
                        : prefix == "t"   ? tlv::TimestampNameComponent
                        : prefix == "seq" ? tlv::SequenceNumNameComponent
                                          : 0;
  if (numberType != 0) {
    uint64_t n;
    if (!parseDecimal(rest, n))
      return "'" + std::string(s) + "': expected a decimal number after '" + std::string(prefix) + "='";
    name.appendNumber(numberType, n);
    return std::nullopt;
  }

  uint64_t type;
  if (!parseDecimal(prefix, type) || (prefix.size() > 1 && prefix[0] == '0'))
    return "'" + std::string(s) + "': unknown component type '" + std::string(prefix) + "' (use %3D for a literal '=')";
  if (type < 1 || type > 65535)
    return "'" + std::string(s) + "': component type must be in [1, 65535]";
  if (auto err = unescapeValue(rest, scratch))
    return err;
  if ((type == tlv::ImplicitSha256DigestComponent || type == tlv::ParametersSha256DigestComponent) &&
      scratch.size() != 32)
    return "'" + std::string(s) + "': digest component must be 32 octets";
  name.append(static_cast<uint32_t>(type), scratch);
  return std::nullopt;
}

} // namespace

Result<Name, std::string> Name::parse(std::string_view uri)
{
  // Scheme: "ndn:" (anything before a colon that precedes the first slash).
  size_t colon = uri.find(':');
  if (colon != std::string_view::npos && colon < uri.find('/')) {
    std::string_view scheme = uri.substr(0, colon);
    if (scheme != "ndn")
      return fail("unsupported URI scheme '" + std::string(scheme) + "' in '" + std::string(uri) + "'");
    uri.remove_prefix(colon + 1);
  }
  // Authority: "//host/..." is ignored.
  if (uri.starts_with("//")) {
    size_t slash = uri.find('/', 2);
    uri = slash == std::string_view::npos ? std::string_view() : uri.substr(slash);
  }
  if (uri.starts_with('/'))
    uri.remove_prefix(1);

  Name name;
  Buffer scratch;
  while (!uri.empty()) {
    size_t slash = uri.find('/');
    std::string_view comp = uri.substr(0, slash);
    if (comp.empty())
      return fail(std::string("empty component in name URI (use '...' for an empty component)"));
    if (auto err = parseComponent(comp, name, scratch))
      return fail("invalid name URI: " + *err);
    if (slash == std::string_view::npos)
      break;
    uri.remove_prefix(slash + 1); // a trailing slash ends the name
  }
  return name;
}

Name::Name(std::string_view uri)
{
  auto r = parse(uri);
  if (!r)
    throw std::invalid_argument(r.error());
  *this = std::move(*r);
}

// --- Name: access and building ---------------------------------------------------------------

ComponentRef Name::operator[](ptrdiff_t i) const
{
  size_t idx = i < 0 ? static_cast<size_t>(static_cast<ptrdiff_t>(size()) + i) : static_cast<size_t>(i);
  ByteSpan wire(m_value.data() + m_offsets[idx], m_offsets[idx + 1] - m_offsets[idx]);
  // Components were validated when added, so both numbers parse.
  uint64_t type = 0, length = 0;
  size_t t = parseVarNumber(wire.data(), wire.size(), type);
  size_t l = parseVarNumber(wire.data() + t, wire.size() - t, length);
  return ComponentRef(static_cast<uint32_t>(type), wire.subspan(t + l), wire);
}

Name Name::getPrefix(ptrdiff_t n) const
{
  size_t count;
  if (n < 0)
    count = static_cast<size_t>(std::max<ptrdiff_t>(0, static_cast<ptrdiff_t>(size()) + n));
  else
    count = std::min(static_cast<size_t>(n), size());
  Name p;
  if (count == 0)
    return p;
  p.m_value.assign(m_value.begin(), m_value.begin() + m_offsets[count]);
  p.m_offsets.assign(m_offsets.begin(), m_offsets.begin() + count + 1);
  return p;
}

bool Name::isPrefixOf(const Name& other) const
{
  // Component TLVs are self-delimiting, so a byte prefix of the value is a component prefix.
  return m_value.size() <= other.m_value.size() &&
         (m_value.empty() || std::memcmp(m_value.data(), other.m_value.data(), m_value.size()) == 0);
}

Name& Name::appendWire(ByteSpan componentTlv)
{
  if (m_offsets.empty())
    m_offsets.push_back(0);
  m_value.insert(m_value.end(), componentTlv.begin(), componentTlv.end());
  m_offsets.push_back(static_cast<uint32_t>(m_value.size()));
  return *this;
}

Name& Name::append(uint32_t type, ByteSpan value)
{
  if (m_offsets.empty())
    m_offsets.push_back(0);
  appendTlv(m_value, type, value);
  m_offsets.push_back(static_cast<uint32_t>(m_value.size()));
  return *this;
}

Name& Name::append(const Name& suffix)
{
  if (suffix.empty())
    return *this;
  if (m_offsets.empty())
    m_offsets.push_back(0);
  uint32_t base = static_cast<uint32_t>(m_value.size());
  m_value.insert(m_value.end(), suffix.m_value.begin(), suffix.m_value.end());
  for (size_t i = 1; i < suffix.m_offsets.size(); ++i)
    m_offsets.push_back(base + suffix.m_offsets[i]);
  return *this;
}

Name& Name::appendNumber(uint32_t type, uint64_t n)
{
  if (m_offsets.empty())
    m_offsets.push_back(0);
  appendTlvNonNegInt(m_value, type, n);
  m_offsets.push_back(static_cast<uint32_t>(m_value.size()));
  return *this;
}

void Name::encodeTo(Buffer& out) const
{
  appendTlvHeader(out, tlv::Name, m_value.size());
  out.insert(out.end(), m_value.begin(), m_value.end());
}

Buffer Name::wireEncode() const
{
  Buffer out;
  out.reserve(wireSize());
  encodeTo(out);
  return out;
}

ByteSpan Name::prefixValue(size_t n) const
{
  if (n == 0 || m_offsets.empty())
    return {};
  n = std::min(n, size());
  return ByteSpan(m_value.data(), m_offsets[n]);
}

// --- Name: order, URI, hash ------------------------------------------------------------------

int Name::compare(const Name& other) const
{
  // VAR-NUMBER shortest form is order-preserving and component TLVs are self-delimiting, so
  // canonical order equals memcmp of the TLV-VALUEs with a proper prefix first.
  size_t n = std::min(m_value.size(), other.m_value.size());
  int r = n == 0 ? 0 : std::memcmp(m_value.data(), other.m_value.data(), n);
  if (r != 0)
    return r < 0 ? -1 : 1;
  if (m_value.size() == other.m_value.size())
    return 0;
  return m_value.size() < other.m_value.size() ? -1 : 1;
}

std::string Name::toUri() const
{
  if (empty())
    return "/";
  std::string out;
  out.reserve(m_value.size() + 8);
  for (size_t i = 0; i < size(); ++i) {
    out.push_back('/');
    out += (*this)[static_cast<ptrdiff_t>(i)].toUri();
  }
  return out;
}

namespace {

constexpr uint64_t kMul1 = 0x9E3779B97F4A7C15ULL;
constexpr uint64_t kMul2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kSeed = 0xCBF29CE484222325ULL;

/// Hash of one component TLV (multiply-xorshift over 8-octet words; not cryptographic).
inline uint64_t hashBytes(const uint8_t* p, size_t len)
{
  uint64_t h = len * kMul2;
  while (len >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ (w * kMul1)) * kMul2;
    h ^= h >> 29;
    p += 8;
    len -= 8;
  }
  if (len > 0) {
    // 1..7 remaining octets, read with fixed-size loads (overlapping when len is 5..7).
    uint64_t w;
    if (len >= 4) {
      uint32_t a, b;
      std::memcpy(&a, p, 4);
      std::memcpy(&b, p + len - 4, 4);
      w = (uint64_t{a} << 32) | b;
    }
    else {
      w = uint64_t{p[0]} << 16 | uint64_t{p[len >> 1]} << 8 | p[len - 1];
    }
    h = (h ^ (w * kMul1)) * kMul2;
    h ^= h >> 29;
  }
  return h;
}

inline uint64_t combine(uint64_t h, uint64_t component)
{
  h = (h ^ component) * kMul1;
  return h ^ (h >> 32);
}

} // namespace

size_t Name::hashPrefix(size_t n) const
{
  n = std::min(n, size());
  uint64_t h = kSeed;
  for (size_t i = 0; i < n; ++i)
    h = combine(h, hashBytes(m_value.data() + m_offsets[i], m_offsets[i + 1] - m_offsets[i]));
  return static_cast<size_t>(h);
}

void Name::prefixHashes(std::vector<size_t>& out) const
{
  out.resize(size() + 1);
  uint64_t h = kSeed;
  out[0] = static_cast<size_t>(h);
  for (size_t i = 0; i < size(); ++i) {
    h = combine(h, hashBytes(m_value.data() + m_offsets[i], m_offsets[i + 1] - m_offsets[i]));
    out[i + 1] = static_cast<size_t>(h);
  }
}

size_t Name::hashValue(ByteSpan bytes)
{
  uint64_t h = kSeed;
  TlvReader r(bytes);
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e)
      break;
    h = combine(h, hashBytes(e->wire.data(), e->wire.size()));
  }
  return static_cast<size_t>(h);
}

std::ostream& operator<<(std::ostream& os, const Name& name)
{
  return os << name.toUri();
}

} // namespace ndnlab
