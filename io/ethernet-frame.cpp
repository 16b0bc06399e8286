#include "io/ethernet-frame.hpp"
#include "io/tlv-framer.hpp"

#include "core/codec/hex.hpp"

#include <algorithm>
#include <cstdio>

namespace ndnlab::io {

std::string MacAddress::toString() const
{
  char buf[18];
  std::snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", octets[0], octets[1], octets[2], octets[3],
                octets[4], octets[5]);
  return buf;
}

uint64_t MacAddress::toUint() const
{
  uint64_t v = 0;
  for (uint8_t o : octets)
    v = (v << 8) | o;
  return v;
}

MacAddress MacAddress::fromUint(uint64_t v)
{
  MacAddress m;
  for (size_t i = 6; i-- > 0;) {
    m.octets[i] = static_cast<uint8_t>(v & 0xff);
    v >>= 8;
  }
  return m;
}

std::optional<MacAddress> MacAddress::parse(std::string_view text)
{
  // six two-digit groups and one kind of separator: 17 characters
  if (text.size() != 17)
    return std::nullopt;
  const char sep = text[2];
  if (sep != ':' && sep != '-')
    return std::nullopt;
  MacAddress m;
  for (size_t i = 0; i < 6; ++i) {
    const size_t at = i * 3;
    if (i > 0 && text[at - 1] != sep)
      return std::nullopt;
    int hi = hexDigit(text[at]), lo = hexDigit(text[at + 1]);
    if (hi < 0 || lo < 0)
      return std::nullopt;
    m.octets[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  return m;
}

std::string etherUri(const MacAddress& mac)
{
  return "ether://[" + mac.toString() + "]";
}

std::string devUri(std::string_view ifname)
{
  return "dev://" + std::string(ifname);
}

Buffer encodeEthernetFrame(const MacAddress& dst, const MacAddress& src, ByteSpan payload)
{
  Buffer f;
  f.reserve(std::max(EthernetHeaderSize + payload.size(), EthernetMinFrameSize));
  f.insert(f.end(), dst.octets.begin(), dst.octets.end());
  f.insert(f.end(), src.octets.begin(), src.octets.end());
  f.push_back(static_cast<uint8_t>(EtherTypeNdn >> 8));
  f.push_back(static_cast<uint8_t>(EtherTypeNdn & 0xff));
  f.insert(f.end(), payload.begin(), payload.end());
  if (f.size() < EthernetMinFrameSize)
    f.resize(EthernetMinFrameSize, 0);
  return f;
}

EthernetRxFrame parseEthernetFrame(ByteSpan frame, const MacAddress& self, size_t mtu)
{
  EthernetRxFrame r;
  if (frame.size() < EthernetHeaderSize) {
    r.verdict = EthernetRx::Runt;
    return r;
  }
  std::copy_n(frame.begin(), 6, r.destination.octets.begin());
  std::copy_n(frame.begin() + 6, 6, r.source.octets.begin());
  const auto etherType = static_cast<uint16_t>((frame[12] << 8) | frame[13]);
  if (etherType != EtherTypeNdn) {
    r.verdict = EthernetRx::OtherEtherType;
    return r;
  }
  if (r.source == self) {
    r.verdict = EthernetRx::OwnFrame;
    return r;
  }
  ByteSpan payload = frame.subspan(EthernetHeaderSize);
  if (payload.size() > mtu) {
    r.verdict = EthernetRx::Oversize;
    return r;
  }
  // one TLV, then at most zero padding (frames below the minimum size)
  FrameCheck c = checkFrame(payload, payload.size());
  if (c.status != FrameStatus::Complete || c.size == 0) {
    r.verdict = EthernetRx::BadPayload;
    return r;
  }
  r.verdict = EthernetRx::Accept;
  r.payload = payload.first(c.size);
  return r;
}

std::optional<DropReason> dropReason(EthernetRx verdict)
{
  switch (verdict) {
    case EthernetRx::Runt: return DropReason::RuntFrame;
    case EthernetRx::Oversize: return DropReason::OversizeFrame;
    case EthernetRx::BadPayload: return DropReason::InvalidDatagram;
    case EthernetRx::Accept:
    case EthernetRx::OwnFrame:
    case EthernetRx::OtherEtherType: break;
  }
  return std::nullopt;
}

} // namespace ndnlab::io
