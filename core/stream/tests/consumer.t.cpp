// The stream consumer (core/stream/consumer.hpp) against the stream producer
// (core/stream/producer.hpp) on the manual clock, joined by a small simulated link (one-way
// delay, seeded loss, an optional bottleneck rate and an optional cache near the consumer):
// bootstrapping from each lambda_p^0 of the paper's Table 1, stale bursts from a cache, FEC and
// retransmission on a lossy link, a producer that stops, missing metadata, bitrate adaptation
// and determinism.

#include "core/stream/consumer.hpp"

#include "core/stream/consumer-fields.hpp"

#include "core/app/tests/test-link.hpp"
#include "core/stream/producer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace ndnlab::stream::tests {
namespace {

using namespace std::chrono_literals;
using app::test::FakeEndpoint;
using State = StreamConsumer::State;

/// consumer <-> producer: `delay` each way, Interests and Data lost with the given
/// probabilities (a seeded generator of its own), Data queued behind a bottleneck `rate` (a
/// drop-tail queue of `maxQueue`) when set, and a cache in front of the consumer that answers
/// the names it holds after `cacheDelay`. With `stampedRate`, every Data from the producer
/// reaches the consumer with that MIRCC rate (a cache's carry none, as in the forwarder).
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
      m_env.timers().schedule(at - m_env.now() + m_delay, [this, d] {
        Data stamped = d;
        stamped.tags.mirccRate = stampedRate; // the path's rate when the Data reaches the consumer
        consumer.deliverData(stamped);
      });
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
  std::optional<Rate> stampedRate;
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
  size_t keyBytes(const std::string& thread) const { return keyToDelta * deltaBytes(thread); }
  size_t keyToDelta = 3; ///< set before the first frame is published (the constructor's)

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
  EXPECT_GE(toMillis(s.drdFinal), 100) << "the round trip and the wait at the producer (Table 1: 110-140)";
  EXPECT_LE(toMillis(s.drdFinal), 170);
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

// chase-at-demand: lambda_p^0 below the demand is raised by the first arrivals, so the
// consumer from 2 detects the latest data and renders as soon as the one from Eq. (1)
TEST(StreamConsumerTest, ChaseAtDemandRaisesASmallInitialPipeline)
{
  std::map<std::string, Duration> firstFrame;
  for (const bool on : {false, true}) {
    StreamConsumerOptions o = withPipeline(2);
    o.chaseAtDemand = on;
    Rig rig(50ms, o);
    rig.env.advance(1s);
    rig.consumer.start();
    rig.env.advance(10s);
    const auto s = rig.consumer.stats();
    ASSERT_EQ(rig.consumer.state(), State::Fetching) << rig.history();
    EXPECT_EQ(s.lambdaFinal, 4u) << rig.history();
    EXPECT_EQ(s.framesLost, 0u);
    ASSERT_TRUE(s.timeToFirstFrame.has_value());
    firstFrame[on ? "on" : "off"] = *s.timeToFirstFrame;
  }
  EXPECT_GT(firstFrame["off"], 2s) << "the paper's way: a detection period at 2 before the burst";
  EXPECT_LT(firstFrame["on"], 1300ms) << "one detection of 2N + K arrivals after the first, then the buffer";
}

TEST(StreamConsumerTest, EarlyPlayoutRendersOnceThePipelineReachesTheLiveEdge)
{
  std::map<bool, Duration> firstFrame;
  for (const bool early : {false, true}) {
    StreamConsumerOptions o = withPipeline(2);
    o.chaseAtDemand = true;
    o.earlyPlayout = early;
    Rig rig(50ms, o);
    rig.env.advance(1s);
    rig.consumer.start();
    std::optional<State> whenFirst;
    rig.consumer.onFrame = [&](const RenderedFrame&) {
      if (!whenFirst)
        whenFirst = rig.consumer.state();
    };
    rig.env.advance(10s);
    const auto s = rig.consumer.stats();
    // the pipeline ends as without it: at the demand, nothing lost
    ASSERT_EQ(rig.consumer.state(), State::Fetching) << rig.history();
    EXPECT_EQ(s.lambdaFinal, 4u) << rig.history();
    EXPECT_EQ(s.framesLost, 0u);
    EXPECT_EQ(s.stalls, 0u);
    ASSERT_TRUE(s.timeToFirstFrame.has_value() && whenFirst.has_value());
    // the paper renders from Adjust on; early playout already in Chasing
    EXPECT_EQ(*whenFirst == State::Chasing, early) << rig.history();
    firstFrame[early] = *s.timeToFirstFrame;
  }
  EXPECT_LT(firstFrame[true] + 300ms, firstFrame[false]);
}

// --- Fig. 21: D_arr and DRD' over the bootstrapping -------------------------------------------

TEST(StreamConsumerTest, ArrivalsTraceTheBootstrapping)
{
  Rig rig(50ms, withPipeline(30));
  std::vector<FrameArrival> arrivals;
  rig.consumer.onArrival = [&](const FrameArrival& a) { arrivals.push_back(a); };
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(10s);
  ASSERT_EQ(rig.consumer.state(), State::Fetching) << rig.history();
  ASSERT_GT(arrivals.size(), 200u);
  EXPECT_FALSE(arrivals.front().arrival.has_value()) << "no D_arr before the first arrival";
  EXPECT_EQ(arrivals.front().state, "chasing");
  EXPECT_EQ(arrivals.front().pipeline, 30u);
  std::vector<double> fetching;
  double lastChasingDrd = 0;
  for (size_t i = 1; i < arrivals.size(); ++i) {
    ASSERT_TRUE(arrivals[i].arrival.has_value());
    ASSERT_GE(arrivals[i].at, arrivals[i - 1].at) << "in time order";
    EXPECT_EQ(*arrivals[i].arrival, arrivals[i].at - arrivals[i - 1].at) << "D_arr: since the previous arrival";
    if (arrivals[i].state == "chasing")
      lastChasingDrd = toMillis(arrivals[i].drd);
    if (arrivals[i].state == "fetching" && arrivals[i].type == FrameType::Delta)
      fetching.push_back(toMillis(*arrivals[i].arrival));
  }
  ASSERT_GT(fetching.size(), 100u);
  std::sort(fetching.begin(), fetching.end());
  EXPECT_NEAR(fetching[fetching.size() / 2], toMillis(Rig::T), 3) << "D_arr settles at T once fetching";
  const FrameArrival& last = arrivals.back();
  EXPECT_EQ(last.pipeline, 4u);
  EXPECT_GT(lastChasingDrd, toMillis(last.drd)) << "30 frames ahead wait at the producer: DRD' falls as lambda_p does";
  size_t columns = 0;
  visitArrival(last, [&](const fields::Metric&, const auto&) { ++columns; });
  EXPECT_EQ(columns, 10u);
}

// --- stale data from a cache ----------------------------------------------------------------

TEST(StreamConsumerTest, StaleBurstsFromACacheNeverCountAsStable)
{
  // A cache near the consumer (20 ms each way against the producer's 50) holds the first 8 s
  // of the stream and the metadata as it was at 0.5 s: the consumer chases through cached
  // frames that come back in bursts at its Interest pattern, then reaches the producer.
  Rig rig(50ms, withPipeline(5));
  rig.link.cacheDelay = 20ms;
  rig.env.advance(500ms);
  Interest meta(metaName(rig.producer.base()));
  meta.setCanBePrefix(true).setMustBeFresh(true).setNonce(1);
  rig.link.producer.deliverInterest(meta);
  ASSERT_FALSE(rig.link.producer.sentData.empty());
  rig.link.cache.emplace(metaName(rig.producer.base()), rig.link.producer.sentData.back());
  rig.env.advance(7500ms);
  size_t cachedFrames = 0;
  for (auto type : {FrameType::Key, FrameType::Delta})
    for (uint64_t n = 0; rig.producer.segment(0, type, n, SegmentKind::Data, 0); ++n, ++cachedFrames)
      for (auto kind : {SegmentKind::Data, SegmentKind::Parity})
        for (uint64_t sg = 0; const Data* d = rig.producer.segment(0, type, n, kind, sg); ++sg)
          rig.link.cache.emplace(d->name(), *d);
  ASSERT_GT(cachedFrames, 200u);

  rig.consumer.start();
  rig.env.advance(12s);
  ASSERT_GT(rig.link.cacheHits, 1000u) << "the consumer went through the cache";
  auto adjust = rig.firstEntry(State::Adjust);
  ASSERT_TRUE(adjust.has_value()) << rig.history();
  EXPECT_GT(*adjust, rig.link.lastCacheHit) << "no cached burst was taken for the latest data; " << rig.history();
  EXPECT_EQ(rig.consumer.state(), State::Fetching) << rig.history();
  EXPECT_EQ(rig.consumer.pipeline(), rig.consumer.demand());
  const auto s = rig.consumer.stats();
  EXPECT_GT(s.staleFrames, 100u) << "cached frames were made before their Interests";
  EXPECT_GT(s.lambdaFinal, 0u);
  EXPECT_GT(s.framesRendered, 60u);
}

// --- loss recovery ----------------------------------------------------------------------------

TEST(StreamConsumerTest, LossyLinkRecoversByFecAndByRetransmission)
{
  Rig rig(50ms, StreamConsumerOptions{});
  rig.link.dataLoss = 0.05;
  rig.link.interestLoss = 0.02;
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(30s);

  const auto s = rig.consumer.stats();
  EXPECT_GT(s.framesRendered, 700u) << rig.history();
  EXPECT_GT(s.recoveredByFec, 10u);
  EXPECT_GT(s.recoveredByRtx, 5u);
  EXPECT_GT(s.retransmissions, 0u);
  EXPECT_LT(s.framesLost * 20, s.framesRendered) << "under 5% lost";
  uint64_t fec = 0, rtx = 0;
  for (const auto& r : rig.rendered) {
    ASSERT_TRUE(r.sizeOk) << "playback " << r.playback << " fec " << r.fec << " rtx " << r.rtx;
    ASSERT_FALSE(r.fec && r.rtx) << "counted apart";
    fec += r.fec;
    rtx += r.rtx;
  }
  EXPECT_EQ(fec, s.recoveredByFec);
  EXPECT_EQ(rtx, s.recoveredByRtx);
  EXPECT_LE(s.framesRendered + s.framesLost, s.framesRequested);
}

TEST(StreamConsumerTest, WithoutParityEveryRecoveryIsARetransmission)
{
  Rig rig(50ms, StreamConsumerOptions{});
  StreamProducerOptions po = Rig::producerOptions({{"hi", Rate::kbps(800)}});
  po.parityRatio = 0;
  // a second producer on the same link, without parity, replaces the rig's
  rig.link.producer.onInterest = nullptr;
  StreamProducer plain(rig.env, rig.link.producer, "/bob", rig.signer, po);
  StreamConsumer consumer(rig.env, rig.link.consumer, "/bob", StreamConsumerOptions{});
  rig.link.dataLoss = 0.05;
  uint64_t frame = 0;
  std::function<void()> publish = [&] {
    const bool key = frame % 30 == 0;
    plain.publish(0, Frame{.key = key, .data = framePayload(key ? 9999 : 3333, frame)});
    ++frame;
    rig.env.timers().schedule(Rig::T, publish);
  };
  publish();
  rig.env.advance(1s);
  consumer.start();
  rig.env.advance(20s);
  const auto s = consumer.stats();
  EXPECT_GT(s.framesRendered, 400u);
  EXPECT_EQ(s.recoveredByFec, 0u);
  EXPECT_GT(s.recoveredByRtx, 20u);
  consumer.stop();
}

// BLEnD (docs/mechanisms/bundling.md): each first Interest of a frame's data or parity
// segments carries a BundleTag spanning the rest of that run, so a bundling link can send the
// frame's request as one bundle; a segment asked again is a retransmission, alone
TEST(StreamConsumerTest, SegmentInterestsTagTheRestOfTheFramesRun)
{
  Rig rig(50ms, StreamConsumerOptions{});
  rig.link.dataLoss = 0.05;
  std::map<Name, std::vector<std::pair<uint64_t, BundleTag>>> firstSends; // run prefix -> (seg, tag)
  uint64_t retx = 0, spans = 0;
  auto inner = rig.link.consumer.interestSink;
  rig.link.consumer.interestSink = [&](const Interest& i) {
    if (i.name().at(-1).isSegment() && !i.name().at(-2).isVersion()) { // a frame's segment
      ASSERT_TRUE(i.tags.bundle.has_value()) << i.name().toUri();
      const BundleTag t = *i.tags.bundle;
      EXPECT_GE(t.cwnd, 1u);
      if (t.retransmission) {
        EXPECT_EQ(t.cwnd, 1u) << "asked again: alone";
        ++retx;
      }
      else {
        firstSends[i.name().getPrefix(-1)].emplace_back(*i.name().at(-1).toNumber(), t);
        spans += t.cwnd > 1;
      }
    }
    inner(i);
  };
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(10s);
  EXPECT_GT(rig.consumer.stats().framesRendered, 200u);
  EXPECT_GT(retx, 0u) << "the lossy link made the consumer ask again";
  EXPECT_GT(spans, 100u) << "800 kbit/s frames have several segments";
  for (const auto& [prefix, sends] : firstSends) {
    // the run's Interests in order, each tagged with the segments from it to the run's end
    // (then, if the frame's header told more segments than estimated, a run of its own)
    ASSERT_EQ(sends.front().first, 0u) << prefix.toUri();
    const uint64_t end = sends.front().second.cwnd;
    for (size_t j = 0; j < end; ++j) {
      ASSERT_LT(j, sends.size()) << prefix.toUri();
      EXPECT_EQ(sends[j].first, j) << prefix.toUri();
      EXPECT_EQ(sends[j].second.cwnd, end - j) << prefix.toUri();
    }
  }
}

StreamConsumerOptions withRecovery(std::string recovery)
{
  StreamConsumerOptions o;
  o.recovery = std::move(recovery);
  return o;
}

/// Runs a rig whose link drops the first `drops` Data of every segment of delta frame 200 (data
/// and parity: neither FEC nor one retransmission can bring it back) and nothing else.
StreamConsumerStats runDroppingOneFrame(StreamConsumerOptions o, int drops)
{
  Rig rig(50ms, std::move(o));
  const Name frame = frameName(streamBase("/alice", "camera"), "hi", FrameType::Delta, 200);
  std::map<Name, int> seen;
  auto inner = rig.link.producer.dataSink;
  rig.link.producer.dataSink = [&](const Data& d) {
    if (frame.isPrefixOf(d.name()) && seen[d.name()]++ < drops)
      return;
    inner(d);
  };
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(12s);
  EXPECT_FALSE(seen.empty()) << "frame 200 was asked for";
  return rig.consumer.stats();
}

TEST(StreamConsumerTest, CheckpointRecoveryAsksAgainOnce)
{
  // the paper's: the frame's Interests again when the next frame comes, and never after
  const auto s = runDroppingOneFrame(withRecovery("checkpoint"), 2);
  EXPECT_EQ(s.framesLost, 1u);
  EXPECT_EQ(s.recoveredByRtx, 0u);
}

TEST(StreamConsumerTest, RepeatRecoveryAsksAgainUntilTheDeadline)
{
  // ndnlab's: asked again each DRD_est + T/2 (110 ms) while the frame waits for its playout
  const auto s = runDroppingOneFrame(withRecovery("repeat"), 2);
  EXPECT_EQ(s.framesLost, 0u);
  EXPECT_GE(s.recoveredByRtx, 1u);
  // a frame never answered is given up when playout passes it: lost, and no more Interests
  const auto gone = runDroppingOneFrame(withRecovery("repeat"), 1000);
  EXPECT_EQ(gone.framesLost, 1u);
  EXPECT_LT(gone.retransmissions, 30u) << "rounds stop at the frame's playout deadline";
}

/// Runs a rig whose link loses the first Interest for each segment of delta frame 200 and
/// nothing else, and returns the states the consumer entered after its first Fetching.
std::vector<State> statesAfterLosingOneFramesInterests(StreamConsumerOptions o)
{
  Rig rig(50ms, std::move(o));
  const Name frame = frameName(streamBase("/alice", "camera"), "hi", FrameType::Delta, 200);
  std::set<Name> seen;
  auto inner = rig.link.consumer.interestSink;
  rig.link.consumer.interestSink = [&](const Interest& i) {
    if (frame.isPrefixOf(i.name()) && seen.insert(i.name()).second)
      return;
    inner(i);
  };
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(12s);
  EXPECT_EQ(rig.consumer.stats().framesLost, 0u) << rig.history();
  const auto fetching = rig.firstEntry(State::Fetching);
  EXPECT_TRUE(fetching.has_value()) << rig.history();
  std::vector<State> after;
  for (auto& [t, s] : rig.states)
    if (fetching && t > *fetching)
      after.push_back(s);
  return after;
}

TEST(StreamConsumerTest, RepeatRecoveryDoesNotReadAReaskedFrameAsStaleData)
{
  // frame 200 is made before its second Interests come: d_gen = 0. The paper's consumer reads
  // that as a pipeline behind production and goes back to Chasing; with recovery = repeat the
  // frame was asked for again, which says nothing of the pipeline
  const auto paper = statesAfterLosingOneFramesInterests(withRecovery("checkpoint"));
  const auto ours = statesAfterLosingOneFramesInterests(withRecovery("repeat"));
  EXPECT_NE(std::find(paper.begin(), paper.end(), State::Chasing), paper.end());
  EXPECT_EQ(std::find(ours.begin(), ours.end(), State::Chasing), ours.end());
}

TEST(StreamConsumerTest, RepeatRecoveryLosesFewerFramesOnALossyLink)
{
  auto run = [](std::string recovery) {
    Rig rig(50ms, withRecovery(std::move(recovery)));
    rig.link.dataLoss = 0.15;
    rig.link.interestLoss = 0.05;
    rig.env.advance(1s);
    rig.consumer.start();
    rig.env.advance(30s);
    for (const auto& r : rig.rendered)
      EXPECT_TRUE(r.sizeOk) << "playback " << r.playback;
    return rig.consumer.stats();
  };
  const auto paper = run("checkpoint");
  const auto ours = run("repeat");
  EXPECT_GT(paper.framesLost, 0u);
  EXPECT_LT(ours.framesLost, paper.framesLost);
  EXPECT_GT(ours.framesRendered, paper.framesRendered);
  EXPECT_LT(ours.framesLost * 100, ours.framesRendered) << "under 1 % lost";
}

TEST(StreamConsumerTest, ResidualLossRaisesThePlayoutTargetWithTheMeasuredLoss)
{
  auto run = [](double dataLoss, double residual) {
    StreamConsumerOptions o = withRecovery("repeat");
    o.residualLoss = residual;
    o.maxPlayout = 1500ms;
    auto rig = std::make_unique<Rig>(50ms, o);
    rig->link.dataLoss = dataLoss;
    rig->env.advance(1s);
    rig->consumer.start();
    rig->env.advance(10s);
    const auto s = rig->consumer.stats();
    const Duration paper = rig->consumer.drdEst() * 2; // beta x DRD_est, and alpha x jitter below
    return std::tuple{rig->consumer.targetPlayable(), paper, s};
  };
  // lossless: the paper's target (one round fits in it)
  {
    const auto [withOption, paper, s] = run(0, 0.01);
    EXPECT_EQ(s.retransmissions, 0u);
    const auto [without, paper2, s2] = run(0, 0);
    EXPECT_EQ(withOption, without);
  }
  // 20 % of Data lost: ln 0.01 / ln 0.2 -> 3 rounds of DRD_est + T/2 at least, at most 1500 ms
  {
    const auto [target, paper, s] = run(0.2, 0.01);
    EXPECT_GT(s.retransmissions * 10, s.interestsSent) << "more than 10 % asked again";
    EXPECT_GE(target, 3 * (paper / 2 + Rig::T / 2));
    EXPECT_LE(target, 1500ms);
    const auto [plain, paper2, s2] = run(0.2, 0);
    EXPECT_GT(target, plain);
  }
}

/// Runs a rig whose consumer bootstraps from lambda_p^0 = 2 (Table 1's slowest: Chasing
/// takes longer than a GOP, and the next GOP's key frame is whole before playback may begin).
std::unique_ptr<Rig> runWithASlowStart(Duration catchUp)
{
  StreamConsumerOptions o = withPipeline(2);
  o.catchUp = catchUp;
  auto rig = std::make_unique<Rig>(50ms, o);
  rig->env.advance(1s);
  rig->consumer.start();
  rig->env.advance(15s);
  return rig;
}

TEST(StreamConsumerTest, CatchUpPlaysFromTheKeyFrameJoinedAt)
{
  // without catch-up: the newest complete key frame, GOPs after the one joined at
  const auto skip = runWithASlowStart(0ms);
  ASSERT_FALSE(skip->rendered.empty()) << skip->history();
  EXPECT_GE(skip->rendered.front().playback, 60u);
  // catch-up: from the key frame joined at, every frame, then back to the same latency
  const auto behind = runWithASlowStart(4s);
  ASSERT_FALSE(behind->rendered.empty()) << behind->history();
  EXPECT_EQ(behind->rendered.front().playback, 30u);
  EXPECT_EQ(behind->rendered.front().type, FrameType::Key);
  EXPECT_EQ(behind->consumer.stats().framesLost, 0u);
  EXPECT_GT(behind->rendered.size(), skip->rendered.size() + 25);
  EXPECT_GT(behind->rendered.front().latencyMs, skip->rendered.front().latencyMs + 500) << "it began behind";
  EXPECT_NEAR(behind->rendered.back().latencyMs, skip->rendered.back().latencyMs, 2 * toMillis(Rig::T))
    << "and caught up";
  // a key frame captured longer ago than catch-up is not played from
  const auto near = runWithASlowStart(100ms);
  ASSERT_FALSE(near->rendered.empty()) << near->history();
  EXPECT_GE(near->rendered.front().playback, 60u);
}

TEST(StreamConsumerTest, ForgedSegmentIsACountedDrop)
{
  Rig rig(50ms, StreamConsumerOptions{});
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(4s);
  ASSERT_EQ(rig.consumer.state(), State::Fetching) << rig.history();
  // the next delta frame, asked for and not made yet: a segment whose header the decoder
  // accepts (ceil(3333 / 900) = 4) but whose payload is not the frame's ceil(3333 / 4) octets
  const uint64_t next = *rig.producer.metadata().threads[0].latestDelta + 1;
  SegmentHeader h;
  h.dataSegments = 4;
  h.paritySegments = 1;
  h.frameLength = 3333;
  h.playbackNumber = 1;
  Buffer content;
  encodeSegmentHeader(content, h);
  content.resize(content.size() + 900, 0xee);
  Data forged(segmentName(rig.producer.base(), "hi", FrameType::Delta, next, SegmentKind::Data, 0));
  forged.setContent(std::make_shared<const Buffer>(std::move(content)));
  ASSERT_TRUE(decodeSegmentContent(forged.content()).ok());
  rig.link.consumer.deliverData(forged);
  rig.env.advance(3s);
  const auto s = rig.consumer.stats();
  EXPECT_EQ(s.malformedData, 1u);
  EXPECT_EQ(s.framesLost, 0u) << "the real segments made the frame";
  for (const auto& r : rig.rendered)
    ASSERT_TRUE(r.sizeOk) << "playback " << r.playback;
}

// --- a producer that stops --------------------------------------------------------------------

TEST(StreamConsumerTest, ProducerThatStopsGivesACleanStall)
{
  Rig rig(50ms, StreamConsumerOptions{}, {{"hi", Rate::kbps(800)}}, 6s);
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(5s); // the producer stops at 6 s
  ASSERT_TRUE(rig.consumer.playing()) << rig.history();
  rig.env.advance(2s);
  const size_t rendered = rig.rendered.size();
  ASSERT_FALSE(rig.consumer.playing()) << "stalled";
  const size_t interests = rig.link.consumer.sentInterests.size();
  rig.env.advance(20s);
  EXPECT_EQ(rig.rendered.size(), rendered);
  EXPECT_EQ(rig.rendered.back().playback, rig.producer.counters().frames - 1) << "everything published was played";
  const auto s = rig.consumer.stats();
  EXPECT_EQ(s.stalls, 1u);
  EXPECT_GT(s.stallTime, 21s);
  EXPECT_LT(s.stallTime, 22s);
  EXPECT_EQ(s.framesLost, 0u) << "frames never made are not lost";
  EXPECT_NE(rig.consumer.state(), State::Failed);
  EXPECT_TRUE(rig.errors.empty());
  // the pipeline waits for the next frames, re-expressed once per lifetime: bounded
  const size_t perLifetime = rig.consumer.pipeline() * 6 + 20;
  EXPECT_LE(rig.link.consumer.sentInterests.size() - interests, 11 * perLifetime);

  rig.consumer.stop();
  EXPECT_EQ(rig.consumer.state(), State::Stopped);
  const size_t after = rig.link.consumer.sentInterests.size();
  rig.env.advance(10s);
  EXPECT_EQ(rig.link.consumer.sentInterests.size(), after) << "nothing after stop()";
  EXPECT_EQ(rig.consumer.stats().stallTime, s.stallTime) << "the stall ends at stop()";
}

// --- the end of the stream --------------------------------------------------------------------

TEST(StreamConsumerTest, EndMarkerEndsPlayoutAfterTheLastFrame)
{
  Rig rig(50ms, StreamConsumerOptions{}, {{"hi", Rate::kbps(800)}}, 6s);
  rig.env.timers().schedule(6s, [&] { rig.producer.end(); });
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(10s);
  ASSERT_EQ(rig.consumer.state(), State::Ended) << rig.history();
  EXPECT_EQ(rig.consumer.endFrameCount(), std::optional<uint64_t>(rig.producer.counters().frames));
  ASSERT_FALSE(rig.rendered.empty());
  EXPECT_EQ(rig.rendered.back().playback, rig.producer.counters().frames - 1) << "played to the last frame";
  for (size_t i = 1; i < rig.rendered.size(); ++i)
    EXPECT_EQ(rig.rendered[i].playback, rig.rendered[i - 1].playback + 1) << "in order, none missing";
  EXPECT_TRUE(rig.errors.empty());
  EXPECT_EQ(rig.consumer.stats().framesLost, 0u);
  const size_t after = rig.link.consumer.sentInterests.size();
  rig.env.advance(10s);
  EXPECT_EQ(rig.link.consumer.sentInterests.size(), after) << "nothing sent once ended";
}

TEST(StreamConsumerTest, ConsumerOfAnEndedStreamEndsToo)
{
  Rig rig(50ms, StreamConsumerOptions{}, {{"hi", Rate::kbps(800)}}, 2s);
  rig.env.timers().schedule(2s, [&] { rig.producer.end(); });
  rig.env.advance(3s);
  rig.consumer.start();
  rig.env.advance(10s);
  EXPECT_EQ(rig.consumer.state(), State::Ended) << rig.history();
  EXPECT_EQ(rig.consumer.endFrameCount(), std::optional<uint64_t>(rig.producer.counters().frames));
}

TEST(StreamConsumerTest, StartedBeforeTheProducerWaitsThroughNacks)
{
  StreamConsumerOptions o;
  o.metadataRetries = 10;
  ManualEnv env;
  SimLink link(env, 10ms);
  security::DigestSigner signer;
  // no producer yet: the forwarder Nacks each metadata Interest (no route)
  link.consumer.interestSink = [&](const Interest& i) {
    env.timers().schedule(10ms, [&, i] { link.consumer.deliverNack(Nack{i, NackReason::NoRoute}); });
  };
  StreamConsumer c(env, link.consumer, "/alice", o);
  c.start();
  env.advance(3500ms);
  EXPECT_EQ(c.state(), State::WaitInitial);
  EXPECT_EQ(link.consumer.sentInterests.size(), 4u) << "re-issued once per lifetime, not at each Nack";
  StreamProducerOptions po;
  po.threads = {{"hi", Rate::kbps(800)}};
  StreamProducer p(env, link.producer, "/alice", signer, po);
  link.consumer.interestSink = [&](const Interest& i) {
    env.timers().schedule(10ms, [&, i] { link.producer.deliverInterest(i); });
  };
  size_t rendered = 0;
  c.onFrame = [&](const RenderedFrame&) { ++rendered; };
  std::function<void()> tick = [&] {
    p.publish(0, Frame{.key = p.counters().frames % 30 == 0, .data = framePayload(3000, p.counters().frames)});
    env.timers().schedule(Rig::T, tick);
  };
  tick();
  env.advance(5s);
  EXPECT_GT(rendered, 0u);
  EXPECT_NE(c.state(), State::Failed) << c.error();
}

// --- metadata errors --------------------------------------------------------------------------

TEST(StreamConsumerTest, MissingMetadataFails)
{
  StreamConsumerOptions o;
  o.stream = "nobody"; // the producer publishes "camera": nothing answers
  Rig rig(50ms, o);
  rig.consumer.start();
  rig.env.advance(10s);
  EXPECT_EQ(rig.consumer.state(), State::Failed);
  ASSERT_EQ(rig.errors.size(), 1u);
  EXPECT_EQ(rig.errors[0], rig.consumer.error());
  EXPECT_EQ(rig.link.consumer.sentInterests.size(), 1 + o.metadataRetries) << "the first and its retries";
  const auto s = rig.consumer.stats();
  EXPECT_EQ(s.framesRequested, 0u);
  EXPECT_FALSE(s.timeToFirstFrame.has_value());
  EXPECT_NEAR(toMillis(s.elapsed), 4000, 1) << "the run ends when it fails";
}

TEST(StreamConsumerTest, MalformedMetadataOrNoSuchThreadFails)
{
  {
    ManualEnv env;
    FakeEndpoint ep;
    StreamConsumer c(env, ep, "/alice", StreamConsumerOptions{});
    c.start();
    Data d(Name(metaName(streamBase("/alice", "camera"))).appendVersion(1).appendSegment(0));
    d.setContent(std::make_shared<const Buffer>(Buffer{0x01, 0x02, 0x03}));
    ep.deliverData(d);
    EXPECT_EQ(c.state(), State::Failed);
    EXPECT_FALSE(c.error().empty());
  }
  StreamConsumerOptions o;
  o.thread = "nope";
  Rig rig(50ms, o);
  rig.env.advance(200ms);
  rig.consumer.start();
  rig.env.advance(1s);
  EXPECT_EQ(rig.consumer.state(), State::Failed);
  EXPECT_EQ(rig.errors.size(), 1u);
}

TEST(StreamConsumerTest, BadOptionsRefused)
{
  ManualEnv env;
  FakeEndpoint ep;
  auto refused = [&](auto change) {
    StreamConsumerOptions o;
    change(o);
    EXPECT_THROW(StreamConsumer(env, ep, "/alice", o), std::invalid_argument);
  };
  refused([](auto& o) { o.stream = ""; });
  refused([](auto& o) { o.stability = "extreme"; });
  refused([](auto& o) { o.gamma = 0; });
  refused([](auto& o) { o.gamma = 1.5; });
  refused([](auto& o) { o.beta = 0.5; }); // gamma 1 > beta
  refused([](auto& o) { o.initialPipeline = 1000; });
  refused([](auto& o) { o.parityRatio = 2; });
  refused([](auto& o) { o.interestLifetime = 0ms; });
  refused([](auto& o) { o.challengeProbe = "half"; });
  refused([](auto& o) { o.recovery = "sometimes"; });
  refused([](auto& o) { o.residualLoss = 0.9; });
  refused([](auto& o) { o.maxPlayout = 0ms; });
  EXPECT_NO_THROW(StreamConsumer(env, ep, "/alice", StreamConsumerOptions{}));
}

// --- determinism ------------------------------------------------------------------------------

std::string metrics(const StreamConsumerStats& s)
{
  std::ostringstream os;
  visitMetrics(s, [&](const fields::Metric& m, const auto& v) { os << m.key << "=" << v << " "; });
  return os.str();
}

TEST(StreamConsumerTest, SameInputsSameMetrics)
{
  auto run = [] {
    auto rig = std::make_unique<Rig>(40ms, StreamConsumerOptions{});
    rig->link.dataLoss = 0.03;
    rig->link.interestLoss = 0.01;
    rig->env.advance(700ms);
    rig->consumer.start();
    rig->env.advance(15s);
    std::vector<uint64_t> order;
    for (const auto& r : rig->rendered)
      order.push_back(r.playback);
    return std::pair{metrics(rig->consumer.stats()), order};
  };
  const auto a = run();
  const auto b = run();
  EXPECT_EQ(a.first, b.first);
  EXPECT_EQ(a.second, b.second);
  EXPECT_NE(a.first.find("frames_rendered="), std::string::npos);
}

TEST(StreamConsumerTest, MetricKeysAreDistinct)
{
  std::set<std::string> keys;
  size_t n = 0;
  visitMetrics(StreamConsumerStats{}, [&](const fields::Metric& m, const auto&) {
    keys.insert(std::string(m.key));
    ++n;
  });
  EXPECT_EQ(keys.size(), n);
}

TEST(StreamConsumerTest, OptionFieldsDeclaredOnce)
{
  // every field once, kebab-case, its default inside its range, its reference the member
  std::set<std::string> names;
  size_t n = 0;
  StreamConsumerOptions o;
  visitFields(std::type_identity<StreamConsumerOptions>{}, [&](const auto& f) {
    ++n;
    names.insert(std::string(f.info.name));
    EXPECT_EQ(f.info.name.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_ "), std::string_view::npos) << f.info.name;
    auto& member = f.ref(o);
    using T = std::remove_cvref_t<decltype(member)>;
    if constexpr (std::is_same_v<T, Duration>) {
      ASSERT_TRUE(f.info.range.has_value()) << f.info.name;
      EXPECT_TRUE(f.info.range->contains(toMillis(member))) << f.info.name;
    }
    else if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      ASSERT_TRUE(f.info.range.has_value()) << f.info.name;
      EXPECT_TRUE(f.info.range->contains(static_cast<double>(member))) << f.info.name;
    }
  });
  EXPECT_EQ(names.size(), n);
  EXPECT_EQ(n, 32u) << "a field for every member of StreamConsumerOptions";
}

// --- adaptive bitrate -------------------------------------------------------------------------

std::vector<ThreadOptions> twoBitrates()
{
  return {{"lo", Rate::kbps(200)}, {"hi", Rate::kbps(1000)}};
}

StreamConsumerOptions adaptive()
{
  StreamConsumerOptions o;
  o.adaptive = true;
  return o;
}

TEST(StreamConsumerTest, ChallengeSwitchesUpWhenTheLinkAllows)
{
  Rig rig(20ms, adaptive(), twoBitrates());
  rig.link.rate = Rate::mbps(4);
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(20s);
  const auto s = rig.consumer.stats();
  EXPECT_GE(s.challenges, 1u) << rig.history();
  EXPECT_EQ(s.bitrateSwitches, 1u) << rig.history();
  EXPECT_EQ(s.thread, "hi");
  EXPECT_TRUE(rig.consumer.state() == State::Fetching || rig.consumer.state() == State::Challenge) << rig.history();
  ASSERT_FALSE(rig.rendered.empty());
  EXPECT_EQ(rig.rendered.back().size, rig.deltaBytes("hi")) << "the higher bitrate plays";
  for (const auto& r : rig.rendered)
    ASSERT_TRUE(r.sizeOk);
}

TEST(StreamConsumerTest, ChallengeRefusedOnANarrowLink)
{
  Rig rig(20ms, adaptive(), twoBitrates());
  rig.link.rate = Rate::kbps(700); // lo fits, lo + hi does not
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(20s);
  const auto s = rig.consumer.stats();
  EXPECT_GE(s.challenges, 1u) << rig.history();
  EXPECT_EQ(s.bitrateSwitches, 0u) << rig.history();
  EXPECT_EQ(s.thread, "lo");
  EXPECT_GT(s.framesRendered, 400u);
}

// A thread near the bottleneck's rate: each key frame (three delta frames here) takes about
// three frame periods on the link, and the delta frames behind it wait. The paper's target
// (alpha x a mean jitter + beta x DRD_est) has no room for that once-per-GOP excess, so frames
// after a key frame miss their deadlines; spread-room holds the spread of the capture-to-whole
// delays and plays them all.
TEST(StreamConsumerTest, SpreadRoomPlaysAThreadNearTheLinksRate)
{
  std::vector<StreamConsumerStats> runs;
  for (bool spread : {false, true}) {
    StreamConsumerOptions o;
    o.spreadRoom = spread;
    Rig rig(5ms, o);
    rig.keyToDelta = 4;               // the synthetic producer's ratio (frames after the first)
    rig.link.rate = Rate::kbps(1300); // about 94 % of it is the thread's, parity and headers
    rig.link.maxQueue = 1s;           // nothing dropped: only the deadlines are at stake
    rig.env.advance(1s);
    rig.consumer.start();
    rig.env.advance(60s);
    runs.push_back(rig.consumer.stats());
    EXPECT_EQ(rig.link.queueDrops, 0u);
    for (size_t i = 1; i < rig.rendered.size(); ++i)
      ASSERT_EQ(rig.rendered[i].playback, rig.rendered[i - 1].playback + 1) << "in order, none skipped";
  }
  const auto& paper = runs[0];
  const auto& spread = runs[1];
  EXPECT_GT(paper.stalls, 0u) << "frames behind a key frame miss the paper's target";
  EXPECT_EQ(spread.stalls, 0u);
  EXPECT_EQ(spread.framesLost, 0u);
  EXPECT_GT(spread.framesRendered, 1700u) << "about 57 s of 30 frames/s";
  EXPECT_LT(spread.latencyMedianMs, paper.latencyMedianMs) << "each stall had moved playback later";
}

// lo + hi does not fit, hi alone does: the paper's Challenge (the higher thread whole, beside
// the current one) is refused; the increment probe asks for hi's extra share only and switches.
TEST(StreamConsumerTest, IncrementProbeTestsTheHigherBitrateAlone)
{
  for (const std::string probe : {"full", "increment"}) {
    StreamConsumerOptions o = adaptive();
    o.challengeProbe = probe;
    Rig rig(20ms, o, twoBitrates());
    rig.link.rate = Rate::kbps(1700);
    rig.env.advance(1s);
    rig.consumer.start();
    rig.env.advance(30s);
    const auto s = rig.consumer.stats();
    EXPECT_GE(s.challenges, 1u) << probe << ": " << rig.history();
    EXPECT_GT(s.challengeBytes.count(), 0u) << probe;
    if (probe == "full") {
      EXPECT_EQ(s.thread, "lo") << "lo + hi queue at the bottleneck: DRD_est rises, refused; " << rig.history();
      EXPECT_EQ(s.bitrateSwitches, 0u);
    }
    else {
      EXPECT_EQ(s.thread, "hi") << rig.history();
      EXPECT_EQ(s.bitrateSwitches, 1u) << rig.history();
      EXPECT_EQ(s.framesLost, 0u);
    }
  }
}

TEST(StreamConsumerTest, CongestionSwitchesDown)
{
  StreamConsumerOptions o = adaptive();
  o.thread = "hi";
  Rig rig(20ms, o, twoBitrates());
  rig.link.rate = Rate::kbps(700); // hi does not fit
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(20s);
  const auto s = rig.consumer.stats();
  EXPECT_GE(s.bitrateSwitches, 1u) << rig.history();
  EXPECT_EQ(s.thread, "lo") << rig.history();
  ASSERT_FALSE(rig.rendered.empty());
  EXPECT_EQ(rig.rendered.back().size, rig.deltaBytes("lo"));
}

// The same over a deep queue (a Linux host's 1000 packets): hi's Data wait seconds instead of
// being dropped, its Interests time out while the consumer still bootstraps, and Fetching, where
// the paper's switch down was looked for, never comes. The switch down is looked for in Chasing
// and Adjust too.
TEST(StreamConsumerTest, CongestionSwitchesDownWhileBootstrapping)
{
  StreamConsumerOptions o = adaptive();
  o.thread = "hi";
  Rig rig(20ms, o, twoBitrates());
  rig.link.rate = Rate::kbps(700);
  rig.link.maxQueue = 30s;
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(30s);
  const auto s = rig.consumer.stats();
  EXPECT_EQ(s.thread, "lo") << rig.history();
  EXPECT_GT(s.framesRendered, 300u) << rig.history();
  ASSERT_FALSE(rig.rendered.empty());
  EXPECT_EQ(rig.rendered.back().size, rig.deltaBytes("lo"));
}

// --- bitrate from MIRCC's explicit rate (bitrate-from-rate) ------------------------------------

StreamConsumerOptions fromRate()
{
  StreamConsumerOptions o = adaptive();
  o.bitrateFromRate = true;
  return o;
}

bool enteredChallenge(const Rig& rig)
{
  return rig.firstEntry(State::Challenge).has_value();
}

// lo's demand: 200 kbit/s x (1 + 1 parity per one-segment frame) x the overhead, about 450
// kbit/s; hi's: 1000 kbit/s x 1.2 x the overhead, about 1.35 Mbit/s.

TEST(StreamConsumerTest, RateFromThePathPicksTheHigherThreadWithoutChallenge)
{
  Rig rig(20ms, fromRate(), twoBitrates());
  rig.link.rate = Rate::mbps(4);
  rig.link.stampedRate = Rate::mbps(4);
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(20s);
  const auto s = rig.consumer.stats();
  EXPECT_EQ(s.thread, "hi") << rig.history();
  EXPECT_EQ(s.bitrateSwitches, 1u) << rig.history();
  EXPECT_EQ(s.challenges, 0u);
  EXPECT_FALSE(enteredChallenge(rig)) << rig.history();
  ASSERT_TRUE(s.firstSwitchUp.has_value());
  EXPECT_LT(*s.firstSwitchUp, 500ms) << "at the first segments, before anything is rendered";
  EXPECT_EQ(s.finalThreadAt, *s.firstSwitchUp);
  EXPECT_GT(s.ratesHeard, 0u);
  ASSERT_TRUE(s.rateFinal.has_value());
  EXPECT_EQ(s.rateFinal->bps(), 4e6);
  ASSERT_TRUE(s.demandFinal.has_value());
  EXPECT_GT(s.demandFinal->bps(), 1.2e6) << "hi's bitrate with its parity and the wire overhead";
  EXPECT_LT(s.demandFinal->bps(), 1.5e6);
  EXPECT_EQ(s.framesLost, 0u);
  EXPECT_EQ(s.stalls, 0u);
  ASSERT_FALSE(rig.rendered.empty());
  EXPECT_EQ(rig.rendered.back().size, rig.deltaBytes("hi"));
  for (const auto& r : rig.rendered)
    ASSERT_TRUE(r.sizeOk);
}

TEST(StreamConsumerTest, RateBelowTheThreadsDemandSwitchesDownAtTheNextKeyFrame)
{
  Rig rig(20ms, fromRate(), twoBitrates());
  rig.link.stampedRate = Rate::mbps(4); // no bottleneck: only the rate says the path narrowed
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(10s);
  ASSERT_EQ(rig.consumer.stats().thread, "hi") << rig.history();
  const size_t renderedBefore = rig.rendered.size();
  // 1 Mbit/s: below hi's demand (its bitrate with parity and overhead), above lo's
  rig.link.stampedRate = Rate::kbps(1000);
  const TimePoint narrowed = rig.env.now();
  rig.env.advance(10s);
  const auto s = rig.consumer.stats();
  EXPECT_EQ(s.thread, "lo") << rig.history();
  EXPECT_EQ(s.bitrateSwitches, 2u) << rig.history();
  EXPECT_EQ(s.challenges, 0u);
  EXPECT_FALSE(enteredChallenge(rig)) << rig.history();
  EXPECT_LT(s.finalThreadAt, narrowed - rig.states.front().first + 1100ms) << "within a GOP and a path";
  EXPECT_GT(s.finalThreadAt, narrowed - rig.states.front().first);
  EXPECT_GT(rig.rendered.size(), renderedBefore + 200) << "lo plays";
  EXPECT_EQ(rig.rendered.back().size, rig.deltaBytes("lo"));
  // the switch waited for a key frame: hi played on until then
  const auto hiAfter =
    std::count_if(rig.rendered.begin() + static_cast<std::ptrdiff_t>(renderedBefore), rig.rendered.end(),
                  [&](const Rendered& r) { return r.size == rig.deltaBytes("hi") || r.size == rig.keyBytes("hi"); });
  EXPECT_GT(hiAfter, 0) << "hi rendered after the rate fell, until the key frame";
}

TEST(StreamConsumerTest, RateThatFitsNoThreadKeepsTheLowestAndNeverChallenges)
{
  StreamConsumerOptions o = fromRate();
  o.thread = "hi";
  Rig rig(20ms, o, twoBitrates());
  rig.link.rate = Rate::mbps(4);          // a probing consumer would switch up over this link
  rig.link.stampedRate = Rate::kbps(300); // below even lo's demand
  rig.env.advance(1s);
  rig.consumer.start();
  rig.env.advance(30s);
  const auto s = rig.consumer.stats();
  EXPECT_EQ(s.thread, "lo") << rig.history();
  EXPECT_EQ(s.bitrateSwitches, 1u) << rig.history();
  EXPECT_FALSE(s.firstSwitchUp.has_value());
  EXPECT_EQ(s.challenges, 0u);
  EXPECT_FALSE(enteredChallenge(rig)) << rig.history();
  EXPECT_GT(s.framesRendered, 700u);
}

TEST(StreamConsumerTest, WithoutARateTheConsumerProbesAsBefore)
{
  std::vector<StreamConsumerStats> runs;
  for (bool fromRateOn : {false, true}) {
    StreamConsumerOptions o = adaptive();
    o.bitrateFromRate = fromRateOn;
    Rig rig(20ms, o, twoBitrates());
    rig.link.rate = Rate::mbps(4);
    rig.env.advance(1s);
    rig.consumer.start();
    rig.env.advance(20s);
    runs.push_back(rig.consumer.stats());
  }
  EXPECT_GE(runs[1].challenges, 1u);
  EXPECT_EQ(runs[1].thread, "hi");
  EXPECT_EQ(runs[1].ratesHeard, 0u);
  EXPECT_FALSE(runs[1].rateFinal.has_value());
  EXPECT_EQ(runs[1].challenges, runs[0].challenges);
  EXPECT_EQ(runs[1].bitrateSwitches, runs[0].bitrateSwitches);
  EXPECT_EQ(runs[1].framesRendered, runs[0].framesRendered);
  EXPECT_EQ(runs[1].interestsSent, runs[0].interestsSent);
  EXPECT_EQ(runs[1].firstSwitchUp, runs[0].firstSwitchUp);
}

TEST(StreamConsumerTest, BitrateFromRateNeedsAdaptive)
{
  StreamConsumerOptions o;
  o.bitrateFromRate = true;
  EXPECT_THROW(o.validate(), std::invalid_argument);
  o.adaptive = true;
  EXPECT_NO_THROW(o.validate());
}

} // namespace
} // namespace ndnlab::stream::tests
