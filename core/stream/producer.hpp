#pragma once
// StreamProducer: the real-time stream producer of issue 29 item 1 as a sans-I/O engine, after
// the paper's producer (Gusev et al., shared/papers/ndn-rtc-realtime-streaming.txt, Sect. 3.1,
// 3.3.1 and 4.1.1: ADU generation, Segmenter, Cache and a producer-side PIT) with NDN-RTC's
// numbers where the paper gives none (shared/reference/mechanism-facts.md 3.3). Names and wire
// formats: core/stream/wire.hpp. Every difference from the paper and the code:
// docs/mechanisms/streaming.md "Producer".
//
// The owner hands in frames (key or delta, with their bytes) per thread (a bitrate); each is cut
// into equal data segments of at most `payloadSize` octets, given Reed-Solomon parity
// (core/fec), encoded and signed once, and kept for the last `history` frames of its thread.
// Interests:
// - for a kept segment: answered at once (d_gen 0 in its header);
// - for a frame not produced yet: held in the producer-side PIT (at most `pitLimit`) and
//   answered the moment the frame is published; the segment's d_gen is the time since the
//   earliest Interest that waited for it. A held Interest expires at its lifetime;
// - for a frame older than the history: no Data;
// - `<prefix>/<stream>/_meta` with CanBePrefix: the stream metadata (threads, bitrates, sample
//   rate, latest key and delta frame numbers) as `<prefix>/<stream>/_meta/v=<n>/seg=0`, n = the
//   frames published so far (a new version whenever the content changes);
// - anything else under the stream: counted as malformed, no Data.
// end() ends the stream (the end of the input): the metadata then carries each thread's frame
// count (FrameCount, the end-of-stream marker), and every Interest for a frame past the last,
// held or new, is answered with the end marker (core/stream/wire.hpp) instead of waiting.
// Interests outside `<prefix>/<stream>` are ignored. A PitToken is echoed on the reply.

#include "core/app/endpoint.hpp"
#include "core/runtime/env.hpp"
#include "core/security/signer.hpp"
#include "core/stream/wire.hpp"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ndnlab::stream {

/// One thread of the stream: an encoding of it at one bitrate.
struct ThreadOptions
{
  std::string name; ///< the thread's name component, e.g. "hi"; not empty, not `_meta`
  Rate bitrate;     ///< the encoding's nominal bitrate (> 0), told to consumers in the metadata
};

struct StreamProducerOptions
{
  std::string stream = "camera";      ///< the stream's name component
  std::vector<ThreadOptions> threads; ///< at least one, names distinct
  double sampleRate = 30;             ///< frames per second (> 0), told to consumers (the paper's T = 1 / rate)
  /// Octets of frame per segment (1..8000); the paper's two: 1000 and 8000 (Sect. 5.2.2).
  size_t payloadSize = 1000;
  /// Reed-Solomon parity segments per data segment, [0, 1]: ceil(ratio x k), at least 1; 0 = no
  /// parity (NDN-RTC's ratio, fec::parityCount).
  double parityRatio = 0.2;
  Duration deltaFreshness =
    std::chrono::milliseconds(15); ///< FreshnessPeriod of delta frames' segments (the code's "samples")
  Duration keyFreshness = std::chrono::milliseconds(900);     ///< FreshnessPeriod of key frames' segments (the code)
  Duration metadataFreshness = std::chrono::milliseconds(10); ///< FreshnessPeriod of metadata (the code)
  size_t history = 300;   ///< frames kept per thread, key and delta together (>= 1): 10 s at 30 frames/s
  size_t pitLimit = 1000; ///< Interests held for frames not produced yet, all threads (>= 1)

  /// Throws std::invalid_argument naming the bad value.
  void validate() const;
};

struct StreamProducerCounters
{
  uint64_t frames = 0;            ///< frames published
  uint64_t keyFrames = 0;         ///< of which key frames
  uint64_t segments = 0;          ///< data segments produced
  uint64_t paritySegments = 0;    ///< parity segments produced
  uint64_t fecLimited = 0;        ///< frames given fewer parity segments than the ratio asks (255-shard limit)
  uint64_t interests = 0;         ///< Interests under the stream
  uint64_t answeredAtOnce = 0;    ///< Interests answered from what was kept
  uint64_t answeredAfterWait = 0; ///< held Interests answered when their frame was published
  uint64_t expired = 0;           ///< held Interests whose lifetime ran out
  uint64_t pitFull = 0;           ///< Interests for future frames dropped: the PIT was full
  uint64_t tooOld = 0;            ///< Interests for frames older than the history: no Data
  uint64_t noSuchSegment = 0;     ///< Interests for a segment the frame does not have: no Data
  uint64_t malformed = 0;         ///< Interests under the stream naming no frame or thread: no Data
  uint64_t metadataSent = 0;      ///< metadata replies
  uint64_t endMarkers = 0;        ///< Interests for frames past the end answered with the end marker
  uint64_t dataSent = 0;          ///< segments sent (a held segment once per waiting Interest)
  uint64_t ignored = 0;           ///< Interests outside the stream
};

/// A frame handed to the producer.
struct Frame
{
  bool key = false;
  ByteSpan data;
  /// When the frame was captured; default: the Env's Unix time at publish.
  std::optional<UnixMillis> captureTime;
};

/// What publish() made of a frame.
struct PublishedFrame
{
  FrameType type;
  uint64_t number;   ///< in its type's numbering
  uint64_t playback; ///< in the thread, key and delta together
  size_t dataSegments;
  size_t paritySegments;
};

class StreamProducer
{
public:
  using Options = StreamProducerOptions;

  /// Publishes under `<prefix>/<opts.stream>`. Installs endpoint.onInterest (cleared by the
  /// destructor). `signer` must outlive the producer. std::invalid_argument for bad options.
  StreamProducer(Env& env, app::Endpoint& endpoint, const Name& prefix, const security::Signer& signer, Options opts);
  ~StreamProducer();
  StreamProducer(const StreamProducer&) = delete;
  StreamProducer& operator=(const StreamProducer&) = delete;

  /// Segments, protects, signs and keeps `frame` as the next frame of thread `thread` (an index
  /// into Options::threads; std::out_of_range otherwise), and answers the Interests held for it.
  /// Precondition: not ended (std::logic_error otherwise).
  PublishedFrame publish(size_t thread, const Frame& frame);

  /// Ends the stream: answers the Interests held for frames never to come with the end
  /// marker, and every later one past the last frame too. The kept frames stay served. Once.
  void end();
  bool ended() const { return m_ended; }

  /// Answers one Interest (installed on the endpoint; public for owners that demultiplex).
  void handleInterest(const Interest& interest);

  /// `<prefix>/<stream>`.
  const Name& base() const { return m_base; }
  /// The metadata as it would be answered now.
  StreamMeta metadata() const;
  /// A kept segment, or nullptr.
  const Data* segment(size_t thread, FrameType type, uint64_t frame, SegmentKind kind, uint64_t seg) const;
  /// Interests held now.
  size_t pitSize() const { return m_pitSize; }
  const StreamProducerCounters& counters() const { return m_counters; }
  const Options& options() const { return m_opts; }

private:
  struct StoredFrame
  {
    std::vector<Data> data;
    std::vector<Data> parity;
  };
  struct FrameKey
  {
    size_t thread;
    FrameType type;
    uint64_t frame;
    auto operator<=>(const FrameKey&) const = default;
  };
  struct Waiting
  {
    Interest interest;
    TimePoint arrival;
    TimerId timer;
    uint64_t id;
  };
  struct ThreadState
  {
    uint64_t nextKey = 0;
    uint64_t nextDelta = 0;
    uint64_t nextPlayback = 0;
    std::optional<uint64_t> lastKey;
    std::map<std::pair<FrameType, uint64_t>, StoredFrame> frames;
    std::deque<std::pair<FrameType, uint64_t>> order; ///< kept frames, oldest first
  };

  /// A signed segment; FinalBlockId = seg=`lastSegment` (the last of its kind, data or parity).
  Data makeSegment(const Name& name, uint64_t lastSegment, Duration freshness, const SegmentHeader& header,
                   ByteSpan payload) const;
  /// Which of a frame's k + m segments (data first) `sn` asks for: the one it names, or with
  /// CanBePrefix and a name that stops above the segment, the first under it.
  static std::optional<size_t> slotFor(const StreamName& sn, const Interest& interest, size_t k, size_t m);
  /// The kept segment `interest` asks for and matches, or nullptr.
  static const Data* find(const StoredFrame& f, const StreamName& sn, const Interest& interest);
  void hold(const Interest& interest, const FrameKey& key);
  void expire(const FrameKey& key, uint64_t id);
  void answerMeta(const Interest& interest);
  /// The end marker under `interest`'s name: the metadata as Content.
  void answerEnd(const Interest& interest);
  void reply(const Interest& interest, const Data& data);

  Env& m_env;
  app::Endpoint& m_ep;
  const security::Signer& m_signer;
  Options m_opts;
  Name m_base;
  std::vector<ThreadState> m_threads;
  std::map<FrameKey, std::vector<Waiting>> m_pit;
  size_t m_pitSize = 0;
  uint64_t m_nextWaitingId = 1;
  bool m_ended = false;
  StreamProducerCounters m_counters;
};

} // namespace ndnlab::stream
