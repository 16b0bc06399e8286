#include "core/stream/ivf.hpp"

#include <algorithm>
#include <cstring>

namespace ndnlab::stream {
namespace {

constexpr size_t FileHeaderBytes = 32;
constexpr size_t FrameHeaderBytes = 12;

uint64_t readLe(const uint8_t* p, size_t n)
{
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

void writeLe(std::vector<uint8_t>& out, uint64_t v, size_t n)
{
  for (size_t i = 0; i < n; ++i)
    out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

/// MSB-first bit reader over a frame's first bytes.
class Bits
{
public:
  explicit Bits(std::span<const uint8_t> b) : m_b(b) {}
  std::optional<unsigned> take(unsigned n)
  {
    unsigned v = 0;
    for (unsigned i = 0; i < n; ++i, ++m_pos) {
      if (m_pos / 8 >= m_b.size())
        return std::nullopt;
      v = (v << 1) | ((m_b[m_pos / 8] >> (7 - m_pos % 8)) & 1u);
    }
    return v;
  }

private:
  std::span<const uint8_t> m_b;
  size_t m_pos = 0;
};

} // namespace

std::optional<bool> isKeyFrame(const std::string& fourcc, std::span<const uint8_t> frame)
{
  if (frame.empty())
    return std::nullopt;
  if (fourcc == "VP80")
    return (frame[0] & 1u) == 0; // frame tag: bit 0 = 0 for a key frame (RFC 6386, 9.1)
  if (fourcc == "VP90") {
    // VP9 uncompressed header: frame_marker (2) = 2, profile_low_bit, profile_high_bit,
    // reserved_zero (profile 3 only), show_existing_frame, frame_type (0 = KEY_FRAME)
    Bits b(frame);
    auto marker = b.take(2), lo = b.take(1), hi = b.take(1);
    if (!marker || *marker != 2 || !lo || !hi)
      return std::nullopt;
    if ((*hi << 1 | *lo) == 3 && !b.take(1))
      return std::nullopt;
    auto showExisting = b.take(1);
    if (!showExisting)
      return std::nullopt;
    if (*showExisting)
      return false; // shows an earlier frame: not decodable alone as a new key frame
    auto type = b.take(1);
    if (!type)
      return std::nullopt;
    return *type == 0;
  }
  return std::nullopt;
}

void IvfReader::feed(std::span<const uint8_t> bytes)
{
  if (m_pos > 0 && m_pos >= m_buf.size() / 2) { // drop what was consumed, now and then
    m_buf.erase(m_buf.begin(), m_buf.begin() + static_cast<std::ptrdiff_t>(m_pos));
    m_offset += m_pos;
    m_pos = 0;
  }
  m_buf.insert(m_buf.end(), bytes.begin(), bytes.end());
  parse();
}

void IvfReader::parse()
{
  if (m_header || m_buf.size() - m_pos < FileHeaderBytes)
    return;
  const uint8_t* p = m_buf.data() + m_pos;
  if (std::memcmp(p, "DKIF", 4) != 0)
    throw IvfError("not an IVF stream: it does not start with \"DKIF\"");
  const auto version = readLe(p + 4, 2), length = readLe(p + 6, 2);
  if (version != 0)
    throw IvfError("IVF version " + std::to_string(version) + " is not supported (only 0)");
  if (length < FileHeaderBytes)
    throw IvfError("IVF header length " + std::to_string(length) + " is below 32 bytes");
  if (m_buf.size() - m_pos < length)
    return; // a longer header: wait for all of it
  IvfHeader h;
  h.fourcc.assign(reinterpret_cast<const char*>(p + 8), 4);
  h.width = static_cast<uint16_t>(readLe(p + 12, 2));
  h.height = static_cast<uint16_t>(readLe(p + 14, 2));
  h.rate = static_cast<uint32_t>(readLe(p + 16, 4));
  h.scale = static_cast<uint32_t>(readLe(p + 20, 4));
  h.frameCount = static_cast<uint32_t>(readLe(p + 24, 4));
  if (h.rate == 0 || h.scale == 0)
    throw IvfError("IVF time base " + std::to_string(h.scale) + "/" + std::to_string(h.rate) + " has a zero");
  m_header = h;
  m_pos += length;
}

std::optional<IvfFrame> IvfReader::next()
{
  if (!m_header || m_buf.size() - m_pos < FrameHeaderBytes)
    return std::nullopt;
  const uint8_t* p = m_buf.data() + m_pos;
  const uint64_t size = readLe(p, 4);
  if (size > m_maxFrame)
    throw IvfError("IVF frame " + std::to_string(m_frames) + " at byte " + std::to_string(m_offset + m_pos) +
                   " claims " + std::to_string(size) + " bytes, more than the limit of " + std::to_string(m_maxFrame));
  if (m_buf.size() - m_pos < FrameHeaderBytes + size)
    return std::nullopt;
  IvfFrame f;
  f.timestamp = readLe(p + 4, 8);
  f.data.assign(p + FrameHeaderBytes, p + FrameHeaderBytes + size);
  f.key = isKeyFrame(m_header->fourcc, f.data);
  m_pos += FrameHeaderBytes + size;
  ++m_frames;
  return f;
}

void IvfReader::finish() const
{
  const size_t left = m_buf.size() - m_pos;
  if (!m_header)
    throw IvfError(left == 0 ? "empty input: no IVF header"
                             : "the input ends inside the IVF header (" + std::to_string(left) + " of 32 bytes)");
  if (left == 0)
    return;
  if (left < FrameHeaderBytes)
    throw IvfError("the input ends inside the header of frame " + std::to_string(m_frames) + " (" +
                   std::to_string(left) + " of 12 bytes)");
  const uint64_t size = readLe(m_buf.data() + m_pos, 4);
  throw IvfError("the input ends inside frame " + std::to_string(m_frames) + ": " +
                 std::to_string(left - FrameHeaderBytes) + " of its " + std::to_string(size) + " bytes");
}

std::vector<uint8_t> ivfFileHeader(const IvfHeader& h)
{
  if (h.fourcc.size() != 4)
    throw std::invalid_argument("an IVF FourCC has four characters, not \"" + h.fourcc + "\"");
  std::vector<uint8_t> out{'D', 'K', 'I', 'F'};
  writeLe(out, 0, 2);
  writeLe(out, FileHeaderBytes, 2);
  out.insert(out.end(), h.fourcc.begin(), h.fourcc.end());
  writeLe(out, h.width, 2);
  writeLe(out, h.height, 2);
  writeLe(out, h.rate, 4);
  writeLe(out, h.scale, 4);
  writeLe(out, h.frameCount, 4);
  writeLe(out, 0, 4);
  return out;
}

std::vector<uint8_t> ivfFrameHeader(uint32_t size, uint64_t timestamp)
{
  std::vector<uint8_t> out;
  writeLe(out, size, 4);
  writeLe(out, timestamp, 8);
  return out;
}

} // namespace ndnlab::stream
