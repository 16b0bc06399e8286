#pragma once
// Synthetic frames for a StreamProducer (issue 29: `ndnlab stream publish --synthetic` and the
// ns-3 stream producer application): every thread in lockstep, one frame per sample period,
// a key frame every `gop` frames, sizes from syntheticSizes() within +-10 %, bytes from the
// Env's generator. Driven by the Env's timers like any engine.

#include "core/runtime/env.hpp"
#include "core/runtime/units.hpp"
#include "core/stream/producer.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>

namespace ndnlab::stream {

/// Sizes of synthetic frames of a GOP: a key frame is `KeyToDelta` delta frames (a VP8 key
/// frame at these rates is 3-6 times a delta frame) and the GOP averages `bitrate`.
struct SyntheticSizes
{
  static constexpr double KeyToDelta = 4;
  size_t key = 0;   ///< octets
  size_t delta = 0; ///< octets
};
/// Precondition: bitrate > 0, fps > 0, gop >= 1 (gop 1: key frames only, each bitrate / fps).
SyntheticSizes syntheticSizes(Rate bitrate, double fps, size_t gop);

/// Fills `b` with bytes of `rng`.
void fillSynthetic(Buffer& b, Rng& rng);

/// Publishes synthetic frames into a producer from start() on: the first at once, frame i at
/// start + i / sampleRate, `frames` in all (0: until stop()), then ends the stream (onEnd).
class SyntheticFeed
{
public:
  /// `producer` must outlive the feed. Precondition: gop >= 1.
  SyntheticFeed(Env& env, StreamProducer& producer, size_t gop, uint64_t frames);
  ~SyntheticFeed();
  SyntheticFeed(const SyntheticFeed&) = delete;
  SyntheticFeed& operator=(const SyntheticFeed&) = delete;

  void start();
  /// Cancels the next frame; the stream is not ended.
  void stop();
  uint64_t published() const { return m_published; }

  /// Once, after the last frame ended the stream.
  std::function<void()> onEnd;

private:
  void tick();

  Env& m_env;
  StreamProducer& m_producer;
  size_t m_gop;
  uint64_t m_frames;
  uint64_t m_published = 0;
  TimePoint m_start{};
  TimerId m_timer = 0;
  Buffer m_buf;
};

} // namespace ndnlab::stream
