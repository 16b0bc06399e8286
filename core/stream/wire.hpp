#pragma once
// The real-time stream's names and wire formats (issue 29 item 1), declared once for the
// producer (core/stream/producer.hpp) and the consumer; docs/mechanisms/streaming.md "Producer".
//
// Names, after the paper's Fig. 9 (Gusev et al., shared/papers/ndn-rtc-realtime-streaming.txt,
// Sect. 4.1.1), under a stream base `<prefix>/<stream>`:
//
//   <prefix>/<stream>/<thread>/<key|delta>/seq=<frame>/<data|parity>/seg=<segment>
//   <prefix>/<stream>/_meta/v=<version>/seg=0          (stream metadata)
//
// <stream>, <thread>, `key`, `delta`, `data`, `parity` and `_meta` are generic components; the
// frame number is a SequenceNum component (type 58), the segment a Segment component (type 50).
// Key and delta frames are numbered apart, each from 0 in its own thread, as NDN-RTC does.
//
// Segment Content = a StreamSegmentHeader TLV, then the segment's payload (the rest of the
// Content). Stream metadata Content = a StreamMeta TLV. TLV types are in NDN's application range
// (128-252); inside a header an unknown even type is skipped, an unknown odd type is refused
// (the NDN evolvability rule). All numbers are NonNegativeIntegers.
//
//   StreamSegmentHeader (161) :=
//     DataSegmentCount   (163)  k >= 1, the frame's data segments
//     ParitySegmentCount (165)  m >= 0, its Reed-Solomon parity segments (k + m <= 255 when
//                               m > 0: GF(2^8) has no more shards)
//     FrameLength        (167)  octets of the frame; the data payloads laid end to end, cut to
//                               this length, give the frame back (undoes the FEC padding)
//     GenerationDelay    (169)  d_gen in microseconds: from the earliest Interest that waited
//                               for this segment at the producer to its production; 0 when the
//                               segment existed before any Interest asked for it
//     PlaybackNumber     (171)  the frame's position in its thread, key and delta together
//     GopKeyNumber       (173)  optional: the key frame number of the frame's GOP (a key
//                               frame's own); absent for a delta frame before any key frame
//     CaptureTime        (175)  Unix time of capture, milliseconds
//
//   StreamMeta (177) :=
//     SampleRate   (179)  frames per 1000 s (millihertz: 30 frames/s = 30000)
//     StreamThread (181), one or more :=
//       ThreadName  (183)  octets: the thread's name component value
//       Bitrate     (185)  bits per second
//       LatestKey   (187)  optional: the latest key frame number, absent before the first
//       LatestDelta (189)  optional: the latest delta frame number, absent before the first
//       FrameCount  (191)  optional, the end-of-stream marker: present once the producer ended
//                          the stream; the thread's frames, key and delta together (its last
//                          playback number + 1); LatestKey and LatestDelta are then final
//
// The end of the stream: once ended, the producer answers every Interest for a frame past the
// last one (held or new) with a Data of that Interest's name whose Content is the StreamMeta
// above (FrameCount set), instead of a segment; a consumer tells the two apart by the first
// TLV type of the Content (StreamMeta 177, StreamSegmentHeader 161).

#include "core/codec/name.hpp"
#include "core/runtime/result.hpp"
#include "core/runtime/units.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ndnlab::stream {

namespace tlv {
inline constexpr uint32_t StreamSegmentHeader = 161;
inline constexpr uint32_t DataSegmentCount = 163;
inline constexpr uint32_t ParitySegmentCount = 165;
inline constexpr uint32_t FrameLength = 167;
inline constexpr uint32_t GenerationDelay = 169;
inline constexpr uint32_t PlaybackNumber = 171;
inline constexpr uint32_t GopKeyNumber = 173;
inline constexpr uint32_t CaptureTime = 175;

inline constexpr uint32_t StreamMeta = 177;
inline constexpr uint32_t SampleRate = 179;
inline constexpr uint32_t StreamThread = 181;
inline constexpr uint32_t ThreadName = 183;
inline constexpr uint32_t Bitrate = 185;
inline constexpr uint32_t LatestKey = 187;
inline constexpr uint32_t LatestDelta = 189;
inline constexpr uint32_t FrameCount = 191;
} // namespace tlv

/// The name component of the stream metadata under the stream base.
inline constexpr std::string_view MetaComponent = "_meta";
/// At most this many segments, data and parity, make one frame with parity (Reed-Solomon over
/// GF(2^8)); a frame with more data segments goes without parity.
inline constexpr size_t MaxFrameSegments = 255;

enum class FrameType : uint8_t { Key, Delta };
enum class SegmentKind : uint8_t { Data, Parity };

/// `key`/`delta`, `data`/`parity`: the name components.
std::string_view toString(FrameType t);
std::string_view toString(SegmentKind k);

/// Why a stream name or Content was refused: what is wrong, readable as it is.
struct WireError
{
  std::string message;
};
template<typename T>
using WireResult = Result<T, WireError>;

// --- names --------------------------------------------------------------------------------

/// `<prefix>/<stream>`.
Name streamBase(const Name& prefix, std::string_view stream);
/// `<base>/<thread>/<key|delta>/seq=<frame>`.
Name frameName(const Name& base, std::string_view thread, FrameType type, uint64_t frame);
/// `<frame name>/<data|parity>/seg=<segment>`.
Name segmentName(const Name& base, std::string_view thread, FrameType type, uint64_t frame, SegmentKind kind,
                 uint64_t segment);
/// `<base>/_meta`: what a latest-data Interest (CanBePrefix, MustBeFresh) asks for.
Name metaName(const Name& base);

/// A name under the stream base, read component by component. A frame name may stop after the
/// frame, the kind or the segment (an Interest with CanBePrefix), or end with an implicit digest.
struct StreamName
{
  bool meta = false; ///< `<base>/_meta[/...]`; nothing below is set
  std::string thread;
  FrameType type = FrameType::Delta;
  uint64_t frame = 0;
  std::optional<SegmentKind> kind;
  std::optional<uint64_t> segment;
};
/// Reads `name` under `base` (precondition: base.isPrefixOf(name)). Refuses a name that names
/// neither the metadata nor a frame, or whose components have the wrong type, with the reason.
WireResult<StreamName> parseStreamName(const Name& base, const Name& name);

// --- segment header -----------------------------------------------------------------------

struct SegmentHeader
{
  uint64_t dataSegments = 1;
  uint64_t paritySegments = 0;
  uint64_t frameLength = 0; ///< octets
  Duration generationDelay{0};
  uint64_t playbackNumber = 0;
  std::optional<uint64_t> gopKey;
  UnixMillis captureTime{0};

  bool operator==(const SegmentHeader&) const = default;
};

/// The StreamSegmentHeader TLV of `h`, appended to `out` (generationDelay in whole microseconds,
/// negative read as 0).
void encodeSegmentHeader(Buffer& out, const SegmentHeader& h);

/// A segment's Content taken apart; the payload is a view into the decoded Content.
struct SegmentContent
{
  SegmentHeader header;
  ByteSpan payload;
};
/// Reads a segment's Content: the header, then the payload. Refuses, saying which field and why,
/// a header that is truncated, misses a field, has an unknown critical field, or contradicts
/// itself or the payload (k = 0, m > 0 with k + m > 255, a frame longer than k payloads, or one
/// that k - 1 payloads would hold).
WireResult<SegmentContent> decodeSegmentContent(ByteSpan content);

// --- stream metadata ----------------------------------------------------------------------

struct ThreadMeta
{
  std::string name;
  Rate bitrate;
  std::optional<uint64_t> latestKey;
  std::optional<uint64_t> latestDelta;
  /// The end-of-stream marker: set once the producer ended the stream, the thread's frame count
  /// (key and delta together).
  std::optional<uint64_t> frameCount;

  bool operator==(const ThreadMeta& o) const
  {
    return name == o.name && bitrate.bps() == o.bitrate.bps() && latestKey == o.latestKey &&
           latestDelta == o.latestDelta && frameCount == o.frameCount;
  }
};

struct StreamMeta
{
  double sampleRate = 30; ///< frames per second (carried to the millihertz)
  std::vector<ThreadMeta> threads;

  bool operator==(const StreamMeta&) const = default;
};

/// The StreamMeta TLV of `m`.
Buffer encodeStreamMeta(const StreamMeta& m);
/// Reads a metadata Content; refuses a malformed one (no thread, a missing field, ...) with why.
WireResult<StreamMeta> decodeStreamMeta(ByteSpan content);
/// Whether a frame segment's Content is the end-of-stream marker (a StreamMeta TLV) rather than
/// a segment: only its first TLV type is looked at.
bool isEndMarker(ByteSpan content);

} // namespace ndnlab::stream
