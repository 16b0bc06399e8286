#include "core/stream/synthetic.hpp"

#include <algorithm>
#include <cmath>

namespace ndnlab::stream {

SyntheticSizes syntheticSizes(Rate bitrate, double fps, size_t gop)
{
  const double perFrame = bitrate.bps() / 8 / fps;
  const double g = static_cast<double>(std::max<size_t>(gop, 1));
  const double ratio = gop <= 1 ? 1 : SyntheticSizes::KeyToDelta;
  const double delta = perFrame * g / (g - 1 + ratio);
  SyntheticSizes s;
  s.delta = std::max<size_t>(1, static_cast<size_t>(std::llround(delta)));
  s.key = std::max<size_t>(1, static_cast<size_t>(std::llround(delta * ratio)));
  return s;
}

void fillSynthetic(Buffer& b, Rng& rng)
{
  for (size_t i = 0; i < b.size(); i += 8) {
    uint64_t x = rng.next64();
    for (size_t j = 0; j < 8 && i + j < b.size(); ++j, x >>= 8)
      b[i + j] = static_cast<uint8_t>(x);
  }
}

SyntheticFeed::SyntheticFeed(Env& env, StreamProducer& producer, size_t gop, uint64_t frames)
  : m_env(env), m_producer(producer), m_gop(std::max<size_t>(gop, 1)), m_frames(frames)
{}

SyntheticFeed::~SyntheticFeed()
{
  stop();
}

void SyntheticFeed::start()
{
  m_start = m_env.now();
  tick();
}

void SyntheticFeed::stop()
{
  if (m_timer != 0)
    m_env.timers().cancel(m_timer);
  m_timer = 0;
}

void SyntheticFeed::tick()
{
  m_timer = 0;
  const auto& opts = m_producer.options();
  if (m_frames > 0 && m_published >= m_frames) {
    if (!m_producer.ended()) {
      m_producer.end();
      if (onEnd)
        onEnd();
    }
    return;
  }
  const bool key = m_published % m_gop == 0;
  for (size_t t = 0; t < opts.threads.size(); ++t) {
    const auto sizes = syntheticSizes(opts.threads[t].bitrate, opts.sampleRate, m_gop);
    const double base = static_cast<double>(key ? sizes.key : sizes.delta);
    m_buf.resize(std::max<size_t>(1, static_cast<size_t>(base * (0.9 + 0.2 * m_env.rng().uniform()))));
    fillSynthetic(m_buf, m_env.rng());
    m_producer.publish(t, Frame{.key = key, .data = m_buf});
  }
  ++m_published;
  const TimePoint next = m_start + std::chrono::duration_cast<Duration>(
                                     std::chrono::duration<double>(static_cast<double>(m_published) / opts.sampleRate));
  m_timer = m_env.timers().schedule(std::max(Duration::zero(), next - m_env.now()), [this] { tick(); });
}

} // namespace ndnlab::stream
