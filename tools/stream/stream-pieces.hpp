#pragma once
// The testable pieces of `ndnlab stream publish` and `ndnlab stream play` (tools/stream/stream.cpp):
// their argument syntax, the synthetic frame sizes, the IVF output of the player and its
// status line. No I/O but the output file given to IvfOutput.

#include "core/stream/consumer.hpp"
#include "core/stream/ivf.hpp"
#include "core/stream/producer.hpp"
#include "core/stream/synthetic.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ndnlab::tools::streamtool {

/// One `--input BITRATE=FILE`: a thread named after its bitrate text ("200k"), fed from FILE
/// ("-" = stdin).
struct InputSpec
{
  std::string thread;
  Rate bitrate;
  std::string path;
};

/// Reads "200k=low.ivf"; nullopt with `why` for a missing '=', an empty file or a bitrate that
/// is not a positive bit rate (parseBitRate's syntax).
std::optional<InputSpec> parseInputSpec(std::string_view text, std::string& why);

/// Reads `--synthetic 200k,1000k,3000k`: one thread per bitrate, named as written; nullopt with
/// `why` for an empty list, a bad or zero bitrate, or a bitrate given twice.
std::optional<std::vector<stream::ThreadOptions>> parseSyntheticList(std::string_view text, std::string& why);

/// Synthetic frame sizes: core/stream/synthetic.hpp.
using stream::SyntheticSizes;
using stream::syntheticSizes;

/// Frames per second of an IVF input: its time base (rate / scale) when that is a frame rate
/// (0 < fps <= 240), else nullopt (a millisecond time base, say).
std::optional<double> ivfFrameRate(const stream::IvfHeader& h);

/// The codec and size an IVF header of rendered frames states, read from the first frame: VP8
/// (a key frame's start code and its 14-bit width and height), VP9 (the frame marker; size 0),
/// else "VP80" with size 0 (synthetic frames).
stream::IvfHeader ivfHeaderFor(std::span<const uint8_t> firstFrame, double fps);

/// The player's IVF output: the file header at the first frame, each frame with its playback
/// number since the first as timestamp (time base 1 / fps), the frame count rewritten at
/// finish() when the file can seek. An IVF of what was rendered, valid after each frame.
class IvfOutput
{
public:
  /// `out` stays the caller's (stdout, or a file it closes after finish()).
  IvfOutput(std::FILE* out, double fps) : m_out(out), m_fps(fps) {}
  /// False when writing failed (errno says why).
  bool write(uint64_t playback, std::span<const uint8_t> frame);
  /// Writes the header if no frame came (an empty but valid IVF), fixes the frame count when
  /// the file seeks, flushes. False when writing failed.
  bool finish();
  uint64_t frames() const { return m_frames; }

private:
  bool writeHeader(const stream::IvfHeader& h);

  std::FILE* m_out;
  double m_fps;
  std::optional<uint64_t> m_first;
  bool m_headerDone = false;
  stream::IvfHeader m_header;
  uint64_t m_frames = 0;
};

/// What the player's live status line shows.
struct PlayStatus
{
  stream::StreamConsumer::State state;
  std::string thread;
  Rate bitrate;                    ///< payload received over the last status period
  Duration buffer{0};              ///< S_pl
  Duration target{0};              ///< S_tpl
  std::optional<double> latencyMs; ///< capture to render of the last rendered frame
  uint64_t rendered = 0;
  uint64_t lost = 0;
  uint64_t stalls = 0;
};
/// "fetching 500k  0.52 Mbit/s  buffer 200/180 ms  latency 120 ms  rendered 30  lost 0  stalls 0"
std::string statusLine(const PlayStatus& s);

/// The octets received by `device`, or with an empty `device` by every interface but the
/// loopback, from the text of Linux's /proc/net/dev (its network namespace's interfaces, a
/// header of two lines, then "name: rx_bytes rx_packets ..."): `play --trace-dir`'s link_kbps.
/// nullopt when `device` is not listed, or a line it reads is malformed.
std::optional<uint64_t> receivedOctets(std::string_view procNetDev, std::string_view device = {});

} // namespace ndnlab::tools::streamtool
