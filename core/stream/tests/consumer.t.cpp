// The stream consumer (core/stream/consumer.hpp) against the stream producer
// (core/stream/producer.hpp) on the manual clock, joined by a small simulated link (one-way
// delay, seeded loss, an optional bottleneck rate and an optional cache near the consumer):
// bootstrapping from each lambda_p^0 of the paper's Table 1, stale bursts from a cache, FEC and
// retransmission on a lossy link, a producer that stops, missing metadata, bitrate adaptation
// and determinism.

#include "core/stream/consumer.hpp"

#include "core/app/tests/test-link.hpp"
#include "core/stream/producer.hpp"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

namespace ndnlab::stream::tests {
namespace {

using namespace std::chrono_literals;
using app::test::FakeEndpoint;
using State = StreamConsumer::State;

/// consumer <-> producer: `delay` each way, Interests and Data lost with the given
/// probabilities (a seeded generator of its own), Data queued behind a bottleneck `rate` (a
/// drop-tail queue of `maxQueue`) when set, and a cache in front of the consumer that answers
/// the names it holds after `cacheDelay`.
class SimLink
{
public:
  SimLink(ManualEnv& env, Duration delay) : m_env(env), m_delay(delay)
  {
    consumer.interestSink = [this](const Interest& i) {
      if (auto c = cache.find(i.name()); c != cache.end()) {
        ++cacheHits;
        lastCacheHit = m_env.now();
        Data d = c->second;
        m_env.timers().schedule(cacheDelay, [this, d] { consumer.deliverData(d); });
        return;
      }
      if (!up || m_rng.uniform() < interestLoss)
        return;
      m_env.timers().schedule(m_delay, [this, i] { producer.deliverInterest(i); });
    };
    producer.dataSink = [this](const Data& d) {
      if (!up || m_rng.uniform() < dataLoss)
        return;
      TimePoint at = m_env.now();
      if (rate) {
        const TimePoint start = std::max(at, m_busyUntil);
        if (start - at > maxQueue) {
          ++queueDrops;
          return;
        }
        m_busyUntil = start + rate->transmissionTime(Bytes(d.wireEncode()->size()));
        at = m_busyUntil;
      }
      m_env.timers().schedule(at - m_env.now() + m_delay, [this, d] { consumer.deliverData(d); });
    };
    producer.nackSink = [this](const Nack& n) {
      m_env.timers().schedule(m_delay, [this, n] { consumer.deliverNack(n); });
    };
  }

  FakeEndpoint consumer;
  FakeEndpoint producer;
  double interestLoss = 0;
  double dataLoss = 0;
  bool up = true;
  std::optional<Rate> rate;
  Duration maxQueue = 100ms;
  uint64_t queueDrops = 0;
  std::map<Name, Data> cache;
  Duration cacheDelay = 2ms;
  uint64_t cacheHits = 0;
  TimePoint lastCacheHit{};

private:
  ManualEnv& m_env;
  Duration m_delay;
  SeededRng m_rng{7};
  TimePoint m_busyUntil{};
};

Buffer framePayload(size_t n, uint64_t seed)
{
  Buffer b(n);
  for (size_t i = 0; i < n; ++i)
    b[i] = static_cast<uint8_t>(i * 31 + seed * 7);
  return b;
}

struct Rendered
{
  uint64_t playback;
  FrameType type;
  size_t size;
  bool sizeOk;
  bool fec;
  bool rtx;
  double latencyMs;
};

/// A producer publishing 30 frames/s (a key frame every 30) on one or two threads, and a
/// consumer behind a SimLink.
struct Rig
{
  static constexpr Duration T = 33'333'333ns;

  Rig(Duration oneWay, StreamConsumerOptions copts, std::vector<ThreadOptions> threads = {{"hi", Rate::kbps(800)}},
      Duration publishFor = 3600s)
    : link(env, oneWay),
      producer(env, link.producer, "/alice", signer, producerOptions(threads)),
      consumer(env, link.consumer, "/alice", std::move(copts)),
      m_stopPublishing(env.now() + publishFor)
  {
    consumer.onFrame = [this](const RenderedFrame& f) {
      const size_t want = f.type == FrameType::Key ? keyBytes(f.thread) : deltaBytes(f.thread);
      const bool ok = f.data.size() == want && Buffer(f.data.begin(), f.data.end()) == framePayload(want, f.playback);
      rendered.push_back({f.playback, f.type, f.data.size(), ok, f.recoveredByFec, f.recoveredByRtx,
                          static_cast<double>((env.clock().unixNow() - f.captureTime).count())});
    };
    consumer.onStateChange = [this](State, State to) { states.emplace_back(env.now(), to); };
    consumer.onError = [this](const std::string& why) { errors.push_back(why); };
    publish();
  }

  static StreamProducerOptions producerOptions(std::vector<ThreadOptions> threads)
  {
    StreamProducerOptions o;
    o.threads = std::move(threads);
    return o;
  }
  size_t deltaBytes(const std::string& thread) const
  {
    for (const auto& t : producer.options().threads)
      if (t.name == thread)
        return static_cast<size_t>(t.bitrate.bps() / 8 / 30);
    return 0;
  }
  size_t keyBytes(const std::string& thread) const { return 3 * deltaBytes(thread); }

  void publish()
  {
    if (env.now() >= m_stopPublishing)
      return;
    const bool key = m_frame % 30 == 0;
    for (size_t t = 0; t < producer.options().threads.size(); ++t) {
      const std::string& name = producer.options().threads[t].name;
      const size_t n = key ? keyBytes(name) : deltaBytes(name);
      producer.publish(t, Frame{.key = key, .data = framePayload(n, m_frame)});
    }
    ++m_frame;
    env.timers().schedule(T, [this] { publish(); });
  }

  std::string history() const
  {
    std::ostringstream os;
    for (auto& [t, s] : states)
      os << toMillis(t.time_since_epoch()) << "ms " << toString(s) << "; ";
    return os.str();
  }
  std::optional<TimePoint> firstEntry(State s) const
  {
    for (auto& [t, x] : states)
      if (x == s)
        return t;
    return std::nullopt;
  }

  ManualEnv env;
  SimLink link;
  security::DigestSigner signer;
  StreamProducer producer;
  StreamConsumer consumer;
  std::vector<Rendered> rendered;
  std::vector<std::pair<TimePoint, State>> states;
  std::vector<std::string> errors;

private:
  TimePoint m_stopPublishing;
  uint64_t m_frame = 0;
};

StreamConsumerOptions withPipeline(size_t lambda0)
{
  StreamConsumerOptions o;
  o.initialPipeline = lambda0;
  return o;
}

// --- Table 1: bootstrapping at 100 ms RTT and 30 frames/s --------------------------------------

class Bootstrap : public ::testing::TestWithParam<size_t>
{};

TEST_P(Bootstrap, EndsInFetchingAtTheDemand)
{
  const size_t lambda0 = GetParam();
  Rig rig(50ms, withPipeline(lambda0));
  rig.env.advance(1s); // the producer has a history: the consumer starts behind the latest
  rig.consumer.start();
  rig.env.advance(10s);

  const auto s = rig.consumer.stats();
  ASSERT_EQ(rig.consumer.state(), State::Fetching) << rig.history();
  EXPECT_EQ(rig.consumer.demand(), 4u) << "Eq. (1): ceil(100 ms / 33.3 ms), Table 1's 4";
  EXPECT_EQ(rig.consumer.pipeline(), rig.consumer.demand()) << rig.history();
  EXPECT_EQ(s.lambdaInitial, lambda0);
  EXPECT_EQ(s.lambdaFinal, 4u) << rig.history();
  EXPECT_GT(s.chasingPeriod, 0ms);
  EXPECT_NEAR(toMillis(s.drdEst), 100, 5) << "DRD_est = DRD' - d_gen: the round trip";
  EXPECT_GE(toMillis(s.drdFinal), 100) << "DRD' includes the wait at the producer";
  ASSERT_TRUE(s.timeToFirstFrame.has_value());
  EXPECT_GT(s.framesRendered, 200u);
  EXPECT_EQ(s.framesLost, 0u);
  EXPECT_EQ(s.stalls, 0u);
  EXPECT_EQ(s.recoveredByFec + s.recoveredByRtx, 0u) << "nothing was lost";
  EXPECT_GT(s.latencyMedianMs, 100) << "capture to render covers the path and the buffer";
  EXPECT_LT(s.latencyMedianMs, 400) << "caught up with the target buffer";
  EXPECT_LT(s.latencyP95Ms, 1500) << "playback starts at the GOP's key frame, up to a GOP old";
  EXPECT_GT(s.throughput().bps(), 0);
  for (const auto& r : rig.rendered)
    ASSERT_TRUE(r.sizeOk) << "playback " << r.playback;
  for (size_t i = 1; i < rig.rendered.size(); ++i)
    ASSERT_EQ(rig.rendered[i].playback, rig.rendered[i - 1].playback + 1) << "in order, none skipped";
  EXPECT_EQ(rig.rendered.front().type, FrameType::Key) << "playback starts at a key frame";
}

INSTANTIATE_TEST_SUITE_P(Table1, Bootstrap, ::testing::Values(30, 15, 5, 4, 3, 2));

} // namespace
} // namespace ndnlab::stream::tests
