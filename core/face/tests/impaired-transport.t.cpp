#include "core/face/impaired-transport.hpp"
#include "core/face/dummy-transport.hpp"
#include "core/face/face.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

namespace ndnlab::face {
namespace {

SharedBuffer frameOf(size_t size, uint8_t fill = 0)
{
  return std::make_shared<const Buffer>(size, fill);
}

/// Inner transport that records when each frame reached it.
class TimedTransport final : public Transport
{
public:
  explicit TimedTransport(Env& env)
    : Transport("udp4://127.0.0.1:6363", "udp4://127.0.0.1:7000", FaceScope::NonLocal, FacePersistency::OnDemand,
                LinkType::PointToPoint, 1400),
      m_env(env)
  {}

  struct Sent
  {
    TimePoint at;
    Buffer frame;
    EndpointId endpoint;
  };
  std::vector<Sent> sent;
  size_t queue = 0;

  void injectFrame(ByteSpan frame) { receive(frame, 0); }
  void setDown(bool down) { setState(down ? TransportState::Down : TransportState::Up); }
  void fail() { setState(TransportState::Failed); }
  void setInnerMtu(ssize_t mtu) { setMtu(mtu); }
  void close() override
  {
    setState(TransportState::Closing);
    setState(TransportState::Closed);
  }
  size_t sendQueueLength() const override { return queue; }

protected:
  void doSend(SharedBuffer frame, EndpointId endpoint) override { sent.push_back({m_env.now(), *frame, endpoint}); }

private:
  Env& m_env;
};

class ImpairedTransportTest : public ::testing::Test
{
protected:
  ImpairedTransport& make(ImpairmentOptions o)
  {
    auto inner = std::make_unique<TimedTransport>(env);
    timed = inner.get();
    t = std::make_unique<ImpairedTransport>(env, std::move(inner), o);
    return *t;
  }

  /// Milliseconds since the start of the test at which the inner transport got each frame.
  std::vector<double> arrivalsMs() const
  {
    std::vector<double> out;
    for (const auto& s : timed->sent)
      out.push_back(toMillis(s.at.time_since_epoch()));
    return out;
  }

  ManualEnv env{7};
  TimedTransport* timed = nullptr;
  std::unique_ptr<ImpairedTransport> t;
};

TEST_F(ImpairedTransportTest, DefaultsPassFramesThroughSynchronously)
{
  ImpairmentOptions o;
  EXPECT_FALSE(o.enabled());
  auto& it = make(o);
  it.send(frameOf(10, 1), 5);
  ASSERT_EQ(timed->sent.size(), 1u);
  EXPECT_EQ(timed->sent[0].frame, Buffer(10, 1));
  EXPECT_EQ(timed->sent[0].endpoint, 5u);
  EXPECT_EQ(it.heldFrames(), 0u);
  EXPECT_EQ(env.clockImpl.pending(), 0u); // no timer used
  EXPECT_EQ(it.counters().nOutPackets, 1u);
  EXPECT_EQ(timed->counters().nOutPackets, 1u);
  EXPECT_EQ(it.impairmentCounters().nDelayed, 0u);
}

TEST_F(ImpairedTransportTest, PropertiesComeFromTheInnerTransport)
{
  auto& it = make({});
  EXPECT_EQ(it.localUri(), "udp4://127.0.0.1:6363");
  EXPECT_EQ(it.remoteUri(), "udp4://127.0.0.1:7000");
  EXPECT_EQ(it.scope(), FaceScope::NonLocal);
  EXPECT_EQ(it.persistency(), FacePersistency::OnDemand);
  EXPECT_EQ(it.linkType(), LinkType::PointToPoint);
  EXPECT_EQ(it.mtu(), 1400);
  EXPECT_EQ(it.state(), TransportState::Up);
  EXPECT_EQ(&ImpairedTransport::unwrap(it), timed);
  DummyTransport plain;
  EXPECT_EQ(&ImpairedTransport::unwrap(plain), &plain);

  timed->setPersistency(FacePersistency::Permanent);
  timed->setInnerMtu(1200);
  it.syncFromInner();
  EXPECT_EQ(it.persistency(), FacePersistency::Permanent);
  EXPECT_EQ(it.mtu(), 1200);

  timed->queue = 77;
  EXPECT_EQ(it.sendQueueLength(), 77u);
}

TEST_F(ImpairedTransportTest, ReceivedFramesAndStateChangesPassThrough)
{
  auto& it = make({});
  std::vector<Buffer> rx;
  std::vector<TransportState> states;
  it.onReceive = [&](ByteSpan f, EndpointId) { rx.emplace_back(f.begin(), f.end()); };
  it.onStateChange = [&](TransportState, TransportState s) { states.push_back(s); };

  Buffer in{5, 0, 1, 2};
  timed->injectFrame(in);
  ASSERT_EQ(rx.size(), 1u);
  EXPECT_EQ(rx[0], in);
  EXPECT_EQ(it.counters().nInPackets, 1u);
  EXPECT_EQ(it.counters().nInBytes, 4u);

  timed->setDown(true);
  EXPECT_EQ(it.state(), TransportState::Down);
  timed->setDown(false);
  it.close(); // forwarded to the inner transport
  EXPECT_EQ(timed->state(), TransportState::Closed);
  EXPECT_EQ(it.state(), TransportState::Closed);
  EXPECT_EQ(states, (std::vector<TransportState>{TransportState::Down, TransportState::Up, TransportState::Closing,
                                                 TransportState::Closed}));
}

TEST_F(ImpairedTransportTest, FixedDelayKeepsOrder)
{
  auto& it = make({.delay = 5ms});
  it.send(frameOf(1, 1));
  env.advance(1ms);
  it.send(frameOf(1, 2));
  EXPECT_TRUE(timed->sent.empty());
  EXPECT_EQ(it.heldFrames(), 2u);
  env.advance(3999us);
  EXPECT_TRUE(timed->sent.empty()); // t = 4.999 ms
  env.advance(1us);
  ASSERT_EQ(timed->sent.size(), 1u); // t = 5 ms
  env.advance(1ms);
  ASSERT_EQ(timed->sent.size(), 2u);
  EXPECT_EQ(arrivalsMs(), (std::vector<double>{5.0, 6.0}));
  EXPECT_EQ(timed->sent[0].frame, Buffer{1});
  EXPECT_EQ(timed->sent[1].frame, Buffer{2});
  EXPECT_EQ(it.impairmentCounters().nDelayed, 2u);
  EXPECT_EQ(it.sendQueueLength(), 0u); // propagation delay is not a send queue
}

TEST_F(ImpairedTransportTest, JitterStaysWithinBoundsAndIsSeeded)
{
  auto run = [](uint64_t seed) {
    ManualEnv e(seed);
    auto inner = std::make_unique<TimedTransport>(e);
    TimedTransport* raw = inner.get();
    ImpairedTransport it(e, std::move(inner), {.delay = 10ms, .jitter = 4ms});
    for (int i = 0; i < 500; ++i)
      it.send(frameOf(1, static_cast<uint8_t>(i)));
    e.advance(20ms);
    std::vector<Duration> delays;
    for (const auto& s : raw->sent)
      delays.push_back(s.at.time_since_epoch());
    return delays;
  };
  auto a = run(1);
  ASSERT_EQ(a.size(), 500u);
  Duration lo = *std::min_element(a.begin(), a.end());
  Duration hi = *std::max_element(a.begin(), a.end());
  EXPECT_GE(lo, 10ms);
  EXPECT_LT(hi, 14ms);
  EXPECT_GT(hi - lo, 3ms);                         // the jitter range is actually used
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end())); // arrival (send-to-inner) times
  EXPECT_EQ(run(1), a);
  EXPECT_NE(run(2), a);
}

TEST_F(ImpairedTransportTest, LossRateMatchesTheProbability)
{
  auto& it = make({.loss = 0.3});
  const int n = 20000;
  for (int i = 0; i < n; ++i)
    it.send(frameOf(1));
  uint64_t lost = it.impairmentCounters().nLost;
  EXPECT_EQ(lost + timed->sent.size(), static_cast<uint64_t>(n));
  // 3 sigma of Binomial(20000, 0.3) is about 194.
  EXPECT_NEAR(static_cast<double>(lost), 0.3 * n, 200.0);
  EXPECT_EQ(env.traceImpl.count(EventKind::ImpairDrop, DropReason::Loss), lost);
  EXPECT_EQ(it.counters().nOutPackets, static_cast<uint64_t>(n)); // outer counts what it was given
}

TEST_F(ImpairedTransportTest, LossIsDeterministicForASeed)
{
  auto pattern = [](uint64_t seed) {
    ManualEnv e(seed);
    auto inner = std::make_unique<TimedTransport>(e);
    TimedTransport* raw = inner.get();
    ImpairedTransport it(e, std::move(inner), {.loss = 0.5});
    for (int i = 0; i < 64; ++i)
      it.send(frameOf(1, static_cast<uint8_t>(i)));
    std::vector<uint8_t> kept;
    for (const auto& s : raw->sent)
      kept.push_back(s.frame[0]);
    return kept;
  };
  EXPECT_EQ(pattern(3), pattern(3));
  EXPECT_NE(pattern(3), pattern(4));
}

TEST_F(ImpairedTransportTest, LossOneDropsEverything)
{
  auto& it = make({.loss = 1.0});
  for (int i = 0; i < 10; ++i)
    it.send(frameOf(1));
  EXPECT_TRUE(timed->sent.empty());
  EXPECT_EQ(it.impairmentCounters().nLost, 10u);
}

TEST_F(ImpairedTransportTest, RateSerializesFramesBackToBack)
{
  // 8 Mbit/s = 1 octet per microsecond: a 1000-octet frame takes 1 ms.
  auto& it = make({.delay = 2ms, .rate = Rate::mbps(8), .queueCapacity = 10_KiB});
  for (int i = 0; i < 3; ++i)
    it.send(frameOf(1000, static_cast<uint8_t>(i)));
  EXPECT_EQ(it.sendQueueLength(), 3000u);
  env.advance(1ms);
  EXPECT_EQ(it.sendQueueLength(), 2000u);
  env.advance(10ms);
  EXPECT_EQ(arrivalsMs(), (std::vector<double>{3.0, 4.0, 5.0}));
  EXPECT_EQ(it.sendQueueLength(), 0u);
  // An idle link starts serializing at once.
  it.send(frameOf(500));
  env.advance(10ms);
  EXPECT_DOUBLE_EQ(arrivalsMs().back(), 11.0 + 0.5 + 2.0);
}

TEST_F(ImpairedTransportTest, RateQueueIsDropTail)
{
  auto& it = make({.rate = Rate::mbps(8), .queueCapacity = Bytes(2500)});
  it.send(frameOf(1000, 1));
  it.send(frameOf(1000, 2));
  it.send(frameOf(1000, 3)); // backlog 2000 + 1000 > 2500
  EXPECT_EQ(it.impairmentCounters().nQueueDropped, 1u);
  EXPECT_EQ(env.traceImpl.count(EventKind::ImpairDrop, DropReason::QueueFull), 1u);
  env.advance(1ms); // first frame serialized: backlog 1000
  it.send(frameOf(1000, 4));
  EXPECT_EQ(it.impairmentCounters().nQueueDropped, 1u);
  env.advance(10ms);
  ASSERT_EQ(timed->sent.size(), 3u);
  EXPECT_EQ(timed->sent[2].frame[0], 4);

  // A frame larger than the capacity still passes an empty queue.
  it.send(frameOf(4000));
  env.advance(10ms);
  EXPECT_EQ(timed->sent.size(), 4u);
}

TEST_F(ImpairedTransportTest, HeldFramesAreDiscardedOnClose)
{
  auto& it = make({.delay = 5ms});
  it.send(frameOf(1));
  it.send(frameOf(1));
  timed->fail();
  EXPECT_EQ(it.state(), TransportState::Failed);
  EXPECT_EQ(it.impairmentCounters().nDiscarded, 2u);
  EXPECT_EQ(it.heldFrames(), 0u);
  env.advance(10ms);
  EXPECT_TRUE(timed->sent.empty());
}

TEST_F(ImpairedTransportTest, DestructionCancelsPendingDelivery)
{
  auto& it = make({.delay = 5ms});
  it.send(frameOf(1));
  (void)it;
  t.reset();
  EXPECT_EQ(env.clockImpl.pending(), 0u);
  env.clockImpl.runAll();
}

TEST_F(ImpairedTransportTest, InvalidOptionsThrow)
{
  EXPECT_THROW(make({.loss = 1.5}), std::invalid_argument);
  EXPECT_THROW(make({.loss = -0.1}), std::invalid_argument);
  EXPECT_THROW(make({.delay = -1ms}), std::invalid_argument);
  EXPECT_THROW(make({.jitter = -1ms}), std::invalid_argument);
  EXPECT_THROW(make({.rate = Rate::mbps(1), .queueCapacity = Bytes(0)}), std::invalid_argument);
  EXPECT_TRUE((ImpairmentOptions{.jitter = 1ms}).enabled());
  EXPECT_TRUE((ImpairmentOptions{.rate = Rate::kbps(1)}).enabled());
}

TEST_F(ImpairedTransportTest, FaceOverImpairedTransportDelaysInterests)
{
  auto inner = std::make_unique<TimedTransport>(env);
  timed = inner.get();
  auto impaired = std::make_unique<ImpairedTransport>(env, std::move(inner), ImpairmentOptions{.delay = 3ms});
  Face f(env, std::make_unique<GenericLinkService>(env), std::move(impaired));
  Interest i{Name("/a/b")};
  i.setNonce(1);
  f.sendInterest(i);
  EXPECT_TRUE(timed->sent.empty());
  env.advance(3ms);
  ASSERT_EQ(timed->sent.size(), 1u);
  EXPECT_EQ(timed->sent[0].frame[0], 0x05); // a bare Interest

  int received = 0;
  f.afterReceiveInterest = [&](Face&, Interest&&, EndpointId) { ++received; };
  timed->injectFrame(timed->sent[0].frame);
  EXPECT_EQ(received, 1);
}

} // namespace
} // namespace ndnlab::face
