// MIRCC's router side in a forwarder (core/fw/mircc-regulator.hpp): the Interest shaper toward
// an enabled upstream face paces Interests at the capacity and drops past its depth; the rate
// controller is stepped every T (or on arrivals) and its R_f is stamped into returning Data;
// Data delays feed d; a removed face takes its state with it.

#include "core/fw/tests/forwarder-fixture.hpp"

namespace ndnlab::fw::tests {
namespace {

using face::FaceScope;
using face::LinkType;
using namespace std::chrono_literals;

ForwarderOptions withMircc(size_t depth, bool updateOnArrival = false, bool queueStamping = false)
{
  ForwarderOptions o;
  o.mircc.shaperDepth = depth;
  o.mircc.updateOnArrival = updateOnArrival;
  o.mircc.queueStamping = queueStamping;
  o.csCapacity = 0; // every Interest goes upstream
  return o;
}

/// 10 Mbit/s and 1,250-byte Data: one Interest per millisecond.
constexpr Rate C = Rate::mbps(10);

class MirccRegulatorTest : public ForwarderFixture
{
protected:
  explicit MirccRegulatorTest(ForwarderOptions o = withMircc(200)) : ForwarderFixture(std::move(o))
  {
    consumer = std::make_unique<TestFace>(addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn()));
    producer = std::make_unique<TestFace>(addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn()));
    addRoute("/P", *producer);
    fw->mircc().enable(producer->id(), C);
  }

  void sendInterests(int n, int first = 0)
  {
    for (int i = first; i < first + n; ++i)
      consumer->receiveInterest(makeInterest(Name("/P").appendSegment(static_cast<uint64_t>(i)), 100 + i));
  }

  std::unique_ptr<TestFace> consumer;
  std::unique_ptr<TestFace> producer;
};

TEST_F(MirccRegulatorTest, ShaperReleasesInterestsAtTheCapacity)
{
  sendInterests(5);
  EXPECT_EQ(producer->sentInterests().size(), 1u) << "an idle shaper lets the first leave at once";
  EXPECT_EQ(fw->mircc().backlog(producer->id()), 4u);
  advance(999us);
  EXPECT_EQ(producer->sentInterests().size(), 1u);
  advance(1us);
  EXPECT_EQ(producer->sentInterests().size(), 2u) << "one 1,250-byte Data per ms fills 10 Mbit/s";
  advance(3ms);
  EXPECT_EQ(producer->sentInterests().size(), 5u);
  EXPECT_EQ(fw->counters().nOutInterests, 5u);
  EXPECT_EQ(fw->mircc().backlog(producer->id()), 0u);
}

class MirccShallowShaperTest : public MirccRegulatorTest
{
protected:
  MirccShallowShaperTest() : MirccRegulatorTest(withMircc(3)) {}
};

TEST_F(MirccShallowShaperTest, FullShaperDropsWithAReason)
{
  sendInterests(6); // 1 leaves, 3 wait, 2 are dropped
  EXPECT_EQ(fw->counters().nDropShaperFull, 2u);
  EXPECT_EQ(fw->mircc().shaperCounters(producer->id())->nDropped, 2u);
  advance(10ms);
  EXPECT_EQ(producer->sentInterests().size(), 4u);
  EXPECT_EQ(fw->counters().nOutInterests, 4u);
  // a dropped Interest left no out-record: its retransmission goes upstream
  producer->clearSent();
  consumer->receiveInterest(makeInterest(Name("/P").appendSegment(5), 999));
  EXPECT_EQ(producer->sentInterests().size(), 1u);
}

class MirccShaperHoldTest : public MirccRegulatorTest
{
protected:
  static ForwarderOptions options()
  {
    ForwarderOptions o = withMircc(3);
    o.mircc.shaperHold = 5ms; // 5 Interests at 1 per ms
    return o;
  }
  MirccShaperHoldTest() : MirccRegulatorTest(options()) {}
};

TEST_F(MirccShaperHoldTest, ShaperHoldsABurstOfItsDuration)
{
  sendInterests(6); // 1 leaves, 5 wait: the hold, not the depth of 3, bounds the queue
  EXPECT_EQ(fw->counters().nDropShaperFull, 0u);
  EXPECT_EQ(fw->mircc().backlog(producer->id()), 5u);
  sendInterests(1, 6);
  EXPECT_EQ(fw->counters().nDropShaperFull, 1u);
  fw->mircc().enable(producer->id(), Rate::mbps(20)); // a faster face holds 10
  sendInterests(5, 7);
  EXPECT_EQ(fw->counters().nDropShaperFull, 1u);
  EXPECT_EQ(fw->mircc().backlog(producer->id()), 10u);
}

TEST_F(MirccRegulatorTest, ReturningDataCarriesTheControllersRate)
{
  sendInterests(1);
  producer->receiveData(makeData(Name("/P").appendSegment(0)));
  auto got = consumer->sentData();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].mirccRate, C) << "R(0) = eta x C with the default initial share";
}

TEST_F(MirccRegulatorTest, OfferedLoadAboveTheCapacityLowersTheRate)
{
  // 150 Interests in the first interval: y = 15 Mbit/s of expected Data against C = 10
  sendInterests(150);
  advance(100ms); // the update timer runs at T
  const fw::MirccRateController* c = fw->mircc().controller(producer->id());
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->updates(), 1u);
  EXPECT_DOUBLE_EQ(c->arrivalRate().bps(), 15e6);
  EXPECT_LT(c->rate(), C);
  EXPECT_EQ(fw->mircc().rate(producer->id()), c->rate());
  advance(100ms);
  EXPECT_EQ(c->updates(), 2u) << "a timer every T";
}

TEST_F(MirccRegulatorTest, DataDelayFeedsTheSmoothedDelay)
{
  sendInterests(1);
  advance(20ms);
  producer->receiveData(makeData(Name("/P").appendSegment(0)));
  // d <- 0.7 x 30 ms + 0.3 x 20 ms
  EXPECT_EQ(fw->mircc().controller(producer->id())->smoothedDelay(), 27ms);
}

TEST_F(MirccRegulatorTest, RemovedFaceTakesItsStateWithIt)
{
  sendInterests(3);
  producer->face().close();
  advance(10ms);
  EXPECT_FALSE(fw->mircc().enabled(producer->id()));
  EXPECT_EQ(fw->mircc().backlog(producer->id()), 0u);
}

TEST_F(MirccRegulatorTest, FaceWithMirccOffIsNotShaped)
{
  TestFace legacy = addFace(FaceScope::NonLocal, LinkType::PointToPoint);
  addRoute("/L", legacy);
  fw->mircc().enable(legacy.id(), C); // enabled, but its link service has MIRCC off
  for (int i = 0; i < 5; ++i)
    consumer->receiveInterest(makeInterest(Name("/L").appendSegment(static_cast<uint64_t>(i)), 500 + i));
  EXPECT_EQ(legacy.sentInterests().size(), 5u);
}

TEST_F(MirccRegulatorTest, NewCapacityChangesThePace)
{
  fw->mircc().enable(producer->id(), Rate::mbps(5)); // 2 ms per Interest
  sendInterests(3);
  advance(1ms);
  EXPECT_EQ(producer->sentInterests().size(), 1u);
  advance(1ms);
  EXPECT_EQ(producer->sentInterests().size(), 2u);
  EXPECT_THROW(fw->mircc().enable(producer->id(), Rate()), std::invalid_argument);
}

class MirccOnArrivalTest : public MirccRegulatorTest
{
protected:
  MirccOnArrivalTest() : MirccRegulatorTest(withMircc(200, true)) {}
};

TEST_F(MirccOnArrivalTest, UpdatesRideOnArrivalsOnceTHasElapsed)
{
  const fw::MirccRateController* c = fw->mircc().controller(producer->id());
  advance(250ms);
  EXPECT_EQ(c->updates(), 0u) << "no timer of its own";
  sendInterests(1);
  EXPECT_EQ(c->updates(), 1u);
  advance(50ms);
  producer->receiveData(makeData(Name("/P").appendSegment(0)));
  EXPECT_EQ(c->updates(), 1u) << "T has not elapsed since";
  advance(50ms);
  sendInterests(1, 1);
  EXPECT_EQ(c->updates(), 2u);
}

class MirccQueueStampingTest : public MirccRegulatorTest
{
protected:
  MirccQueueStampingTest() : MirccRegulatorTest(withMircc(10, false, true)) {}
};

TEST_F(MirccQueueStampingTest, FillingShaperLowersTheStampAtOnce)
{
  EXPECT_EQ(fw->mircc().rate(producer->id()), C) << "an empty shaper: R(t)";
  sendInterests(4); // one leaves, three wait: 7 of the 10-deep shaper are free
  EXPECT_DOUBLE_EQ(fw->mircc().rate(producer->id())->bps(), 7e6) << "R(t) x the free share";
  sendInterests(5, 4); // 8 wait
  EXPECT_EQ(fw->mircc().rate(producer->id()), Rate::mbps(5)) << "at most halved";
  EXPECT_EQ(fw->mircc().controller(producer->id())->rate(), C) << "the controller's own R(t) waits for T";
  advance(10ms); // drained
  EXPECT_EQ(fw->mircc().rate(producer->id()), C);
}

} // namespace
} // namespace ndnlab::fw::tests
