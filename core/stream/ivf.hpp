#pragma once
// IVF, the container ffmpeg and libvpx write VP8/VP9 frames into (`ffmpeg ... -c:v libvpx -f ivf`),
// read and written for `ndnlab stream publish --input` and `ndnlab stream play -o` (issue 29,
// item 2: frame boundaries and key flags come from the container).
//
// Layout (little-endian; the format libvpx's ivfdec/ivfenc and ffmpeg's ivf muxer share):
// - file header, 32 bytes: "DKIF", version 0 (2 bytes), header length (2, at least 32), FourCC
//   (4, e.g. "VP80", "VP90"), width, height (2 each), time base denominator and numerator
//   (4 each: frames per second = den / num), frame count (4), unused (4);
// - then per frame a 12-byte header, frame size (4) and timestamp (8, in time base units), and
//   the frame's bytes.
//
// The reader is incremental: bytes are fed as they come (a file, or ffmpeg's stdout), whole
// frames are taken out. A malformed stream raises IvfError with what is wrong and where; a frame
// larger than the reader's limit is refused before anything is buffered for it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace ndnlab::stream {

/// A malformed IVF stream.
class IvfError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

struct IvfHeader
{
  std::string fourcc = "VP80"; ///< four characters
  uint16_t width = 0;
  uint16_t height = 0;
  uint32_t rate = 30;      ///< time base denominator: units per second
  uint32_t scale = 1;      ///< time base numerator: units per frame tick
  uint32_t frameCount = 0; ///< as written; 0 when the writer did not know it (a live stream)
};

struct IvfFrame
{
  uint64_t timestamp = 0; ///< in time base units (scale / rate seconds)
  std::vector<uint8_t> data;
  /// A key frame (decodable alone), from the codec's own frame header: VP8 and VP9; nullopt
  /// for another codec or a frame too short to tell.
  std::optional<bool> key;
};

/// Whether `frame` of codec `fourcc` is a key frame: VP8 (frame tag bit 0 clear), VP9 (the
/// uncompressed header's frame_type, a shown frame only); nullopt otherwise.
std::optional<bool> isKeyFrame(const std::string& fourcc, std::span<const uint8_t> frame);

class IvfReader
{
public:
  static constexpr size_t DefaultMaxFrame = 16 << 20; ///< 16 MiB: far above any real video frame

  explicit IvfReader(size_t maxFrameBytes = DefaultMaxFrame) : m_maxFrame(maxFrameBytes) {}

  /// Appends bytes of the stream. Throws IvfError as soon as the header or a frame header
  /// seen is malformed.
  void feed(std::span<const uint8_t> bytes);
  /// The file header, once its bytes were fed.
  const std::optional<IvfHeader>& header() const { return m_header; }
  /// The next whole frame, or nullopt until more bytes are fed.
  std::optional<IvfFrame> next();
  /// Call at the end of the input: throws IvfError when it ends inside the header or a frame
  /// (a truncated file), names how many bytes are missing.
  void finish() const;
  uint64_t framesRead() const { return m_frames; }

private:
  void parse();

  size_t m_maxFrame;
  std::vector<uint8_t> m_buf;
  size_t m_pos = 0;      ///< offset into m_buf of what is not consumed
  uint64_t m_offset = 0; ///< stream offset of m_buf[0], for error messages
  std::optional<IvfHeader> m_header;
  uint64_t m_frames = 0;
};

/// The 32-byte file header of `h`; std::invalid_argument unless the FourCC has four characters.
std::vector<uint8_t> ivfFileHeader(const IvfHeader& h);
/// The 12-byte header of a frame of `size` bytes at `timestamp`.
std::vector<uint8_t> ivfFrameHeader(uint32_t size, uint64_t timestamp);

} // namespace ndnlab::stream
