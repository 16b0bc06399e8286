#include "tools/stream/stream-pieces.hpp"

#include "tools/common/summaries.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace ndnlab::tools::streamtool {

std::optional<InputSpec> parseInputSpec(std::string_view text, std::string& why)
{
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    why = "expected BITRATE=FILE (200k=low.ivf, 1000k=- for stdin), got '" + std::string(text) + "'";
    return std::nullopt;
  }
  InputSpec in{std::string(text.substr(0, eq)), Rate(), std::string(text.substr(eq + 1))};
  auto bits = parseBitRate(in.thread);
  if (!bits || *bits == 0) {
    why = "'" + in.thread + "' is not a positive bit rate (200k, 1.5M, 500000)";
    return std::nullopt;
  }
  if (in.path.empty()) {
    why = "no file after '" + in.thread + "=' (a file, or - for stdin)";
    return std::nullopt;
  }
  in.bitrate = Rate::bitsPerSecond(static_cast<double>(*bits));
  return in;
}

std::optional<std::vector<stream::ThreadOptions>> parseSyntheticList(std::string_view text, std::string& why)
{
  std::vector<stream::ThreadOptions> out;
  std::set<std::string> seen;
  size_t from = 0;
  while (from <= text.size()) {
    size_t comma = text.find(',', from);
    if (comma == std::string_view::npos)
      comma = text.size();
    std::string item(text.substr(from, comma - from));
    from = comma + 1;
    auto bits = parseBitRate(item);
    if (item.empty() || !bits || *bits == 0) {
      why = "'" + item + "' is not a positive bit rate (a list such as 200k,1000k,3000k)";
      return std::nullopt;
    }
    if (!seen.insert(item).second) {
      why = "bitrate " + item + " given twice";
      return std::nullopt;
    }
    out.push_back({item, Rate::bitsPerSecond(static_cast<double>(*bits))});
  }
  return out;
}

std::optional<double> ivfFrameRate(const stream::IvfHeader& h)
{
  if (h.rate == 0 || h.scale == 0)
    return std::nullopt;
  const double fps = static_cast<double>(h.rate) / static_cast<double>(h.scale);
  if (!(fps > 0 && fps <= 240))
    return std::nullopt;
  return fps;
}

stream::IvfHeader ivfHeaderFor(std::span<const uint8_t> f, double fps)
{
  stream::IvfHeader h;
  // time base 1 / fps to the millihertz: scale / rate seconds per tick
  h.rate = static_cast<uint32_t>(std::llround(fps * 1000));
  h.scale = 1000;
  if (h.rate == 0)
    h.rate = 30000;
  if (f.size() >= 10 && (f[0] & 1) == 0 && f[3] == 0x9d && f[4] == 0x01 && f[5] == 0x2a) {
    h.fourcc = "VP80";
    h.width = static_cast<uint16_t>((f[6] | (f[7] << 8)) & 0x3fff);
    h.height = static_cast<uint16_t>((f[8] | (f[9] << 8)) & 0x3fff);
  }
  else if (!f.empty() && (f[0] >> 6) == 2) {
    h.fourcc = "VP90";
  }
  return h;
}

bool IvfOutput::writeHeader(const stream::IvfHeader& h)
{
  m_header = h;
  m_headerDone = true;
  auto bytes = stream::ivfFileHeader(h);
  return std::fwrite(bytes.data(), 1, bytes.size(), m_out) == bytes.size();
}

bool IvfOutput::write(uint64_t playback, std::span<const uint8_t> frame)
{
  if (!m_headerDone && !writeHeader(ivfHeaderFor(frame, m_fps)))
    return false;
  if (!m_first)
    m_first = playback;
  const uint64_t ts = playback >= *m_first ? playback - *m_first : 0;
  auto fh = stream::ivfFrameHeader(static_cast<uint32_t>(frame.size()), ts);
  if (std::fwrite(fh.data(), 1, fh.size(), m_out) != fh.size() ||
      std::fwrite(frame.data(), 1, frame.size(), m_out) != frame.size() || std::fflush(m_out) != 0)
    return false;
  ++m_frames;
  return true;
}

bool IvfOutput::finish()
{
  if (!m_headerDone && !writeHeader(ivfHeaderFor({}, m_fps)))
    return false;
  if (std::fflush(m_out) != 0)
    return false;
  const long end = std::ftell(m_out);
  if (end >= 32 && std::fseek(m_out, 0, SEEK_SET) == 0) { // a file: state the frame count
    stream::IvfHeader h = m_header;
    h.frameCount = static_cast<uint32_t>(m_frames);
    auto bytes = stream::ivfFileHeader(h);
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), m_out) == bytes.size();
    std::fseek(m_out, end, SEEK_SET);
    if (!ok)
      return false;
  }
  return std::fflush(m_out) == 0;
}

std::string statusLine(const PlayStatus& s)
{
  std::string t(stream::toString(s.state));
  if (!s.thread.empty())
    t += " " + s.thread;
  t += "  " + formatFixed(s.bitrate.mbps(), 2) + " Mbit/s";
  t += "  buffer " + formatFixed(toMillis(s.buffer), 0) + "/" + formatFixed(toMillis(s.target), 0) + " ms";
  t += "  latency " + (s.latencyMs ? formatFixed(*s.latencyMs, 0) + " ms" : std::string("-"));
  t += "  rendered " + std::to_string(s.rendered) + "  lost " + std::to_string(s.lost) + "  stalls " +
       std::to_string(s.stalls);
  return t;
}

std::optional<uint64_t> receivedOctets(std::string_view procNetDev, std::string_view device)
{
  const auto trim = [](std::string_view t) {
    while (!t.empty() && t.front() == ' ')
      t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ')
      t.remove_suffix(1);
    return t;
  };
  uint64_t sum = 0;
  bool found = false;
  size_t from = 0;
  while (from < procNetDev.size()) {
    size_t eol = procNetDev.find('\n', from);
    if (eol == std::string_view::npos)
      eol = procNetDev.size();
    const std::string_view line = procNetDev.substr(from, eol - from);
    from = eol + 1;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || line.find('|') != std::string_view::npos)
      continue; // the two header lines
    const std::string_view name = trim(line.substr(0, colon));
    if (device.empty() ? name == "lo" : name != device)
      continue;
    const std::string_view rest = trim(line.substr(colon + 1));
    uint64_t rx = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), rx);
    if (ec != std::errc() || (end != rest.data() + rest.size() && *end != ' '))
      return std::nullopt;
    sum += rx;
    found = true;
  }
  if (!found && !device.empty())
    return std::nullopt;
  return sum;
}

} // namespace ndnlab::tools::streamtool
