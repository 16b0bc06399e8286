#include "core/fw/mircc.hpp"
#include "core/fw/mircc-fields.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

namespace ndnlab::fw {
namespace {

using namespace std::chrono_literals;

const TimePoint T0{};
constexpr double C = 12e6;   // bottleneck of the paper's dumbbell: 12 Mbit/s
constexpr double S = 10'000; // 1,250-byte Data
constexpr Duration Tint = 100ms;
constexpr double Tsec = 0.1;

MirccOptions dumbbell(double initialShare = 1.0)
{
  MirccOptions o;
  o.capacity = Rate::bitsPerSecond(C);
  o.initialShare = initialShare;
  return o;
}

/// Interests a flow sending at `bps` forwards in one T (whole Interests only).
uint64_t interestsPerT(double bps)
{
  return static_cast<uint64_t>(std::floor(bps * Tsec / S));
}

/// The expected state after one update, computed from the equations (eta = 1, weight 0.5,
/// constant beta), written out per case rather than through the controller's code.
struct Expected
{
  double base;
  double excess;
  double rate() const { return std::min(std::max(base + excess, 10e3), C); }

  /// One update with y(t) and queue term beta*g/d (bits/s); R(t-T) = rate().
  void step(double y, double queueTerm = 0)
  {
    const double r = rate();
    double baseStar;
    double excessStar;
    if (y <= C) {
      // N = C/R: base* = R (1 - queueTerm/C), excess* = R (1 - y/C), at most C - base*
      baseStar = std::max(r * (1 - queueTerm / C), 0.0);
      excessStar = std::min(r * (1 - y / C), C - baseStar);
    }
    else {
      // N = y/R: base* = (C - queueTerm) R / y, excess* = R - R = 0
      baseStar = std::max((C - queueTerm) * r / y, 0.0);
      excessStar = 0;
    }
    base = 0.5 * base + 0.5 * baseStar;
    excess = 0.5 * excess + 0.5 * excessStar;
  }
};

/// Forwards `n` Interests in the interval ending at `now`, then updates.
bool forwardAndUpdate(MirccRateController& c, TimePoint now, uint64_t n, size_t queued = 0)
{
  for (uint64_t i = 0; i < n; ++i)
    c.onInterestForwarded(now - Tint / 2);
  return c.update(now, queued);
}

TEST(MirccOptions, DefaultsFollowThePaper)
{
  MirccOptions o;
  EXPECT_EQ(o.interval, 100ms);
  EXPECT_DOUBLE_EQ(o.ewmaWeight, 0.5);
  EXPECT_DOUBLE_EQ(o.eta, 1.0);
  EXPECT_FALSE(o.dynamicBeta);
  EXPECT_EQ(o.shaperDepth, 200u);
  EXPECT_EQ(o.dataBytes().bits(), S);
  EXPECT_THROW(o.validate(), std::invalid_argument); // capacity is the face's: no default
  o.capacity = Rate::mbps(12);
  EXPECT_NO_THROW(o.validate());
}

TEST(MirccOptions, ValidateRejectsOutOfRange)
{
  auto bad = [](auto mutate) {
    MirccOptions o = dumbbell();
    mutate(o);
    return o;
  };
  EXPECT_THROW(bad([](auto& o) { o.interval = 0ms; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.ewmaWeight = 1.0; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.eta = 0; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.eta = 1.1; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.beta = -0.1; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.delayGain = 0; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.initialDelay = 0ms; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.initialShare = 0; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.dataSize = 0; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.minRate = Rate(); }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.minRate = Rate::mbps(13); }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.shaperDepth = 0; }).validate(), std::invalid_argument);
  EXPECT_THROW(bad([](auto& o) { o.shaperHold = -1ms; }).validate(), std::invalid_argument);
  EXPECT_THROW(MirccRateController(bad([](auto& o) { o.eta = 0; }), T0), std::invalid_argument);
}

TEST(MirccOptions, FieldsAreKebabCaseDocumentedAndUnique)
{
  struct Holder
  {
    MirccOptions mircc;
  };
  std::set<std::string> names;
  Holder o{dumbbell()};
  visitMirccFields<Holder>(
    [&](const auto& f) {
      EXPECT_FALSE(f.info.doc.empty()) << f.info.name;
      EXPECT_EQ(f.info.name.substr(0, 6), "mircc-");
      EXPECT_TRUE(names.insert(std::string(f.info.name)).second) << f.info.name;
      EXPECT_EQ(f.info.section, "forwarder");
      EXPECT_EQ(f.info.hosts, unsigned{fields::Ns3});
      (void)f.ref(o); // reaches a member
    },
    fields::Ns3, "forwarder");
  EXPECT_EQ(names.size(), 13u);
}

TEST(MirccRateController, UpdatesOncePerInterval)
{
  MirccRateController c(dumbbell(), T0);
  EXPECT_EQ(c.nextUpdateTime(), T0 + Tint);
  EXPECT_FALSE(c.update(T0 + 99ms, 0));
  EXPECT_TRUE(c.update(T0 + Tint, 0));
  EXPECT_FALSE(c.update(T0 + 150ms, 0));
  EXPECT_EQ(c.nextUpdateTime(), T0 + 200ms);
  EXPECT_EQ(c.updates(), 1u);
}

TEST(MirccRateController, LateUpdateMeasuresYOverTheElapsedTime)
{
  // a caller that updates on packet arrivals once T has elapsed (issue 28, 8(b))
  MirccRateController c(dumbbell(), T0);
  EXPECT_TRUE(forwardAndUpdate(c, T0 + 200ms, 120));
  EXPECT_NEAR(c.arrivalRate().bps(), 120 * S / 0.2, 1e-6); // C/2, not C
  EXPECT_EQ(c.nextUpdateTime(), T0 + 300ms);
}

TEST(MirccRateController, OneFlowConvergesToCapacity)
{
  MirccRateController c(dumbbell(0.25), T0);
  Expected e{0.25 * C, 0};
  EXPECT_DOUBLE_EQ(c.rate().bps(), e.rate());
  TimePoint now = T0;
  for (int k = 0; k < 40; ++k) {
    // the flow sends at the rate stamped at the last update
    const uint64_t n = interestsPerT(c.rate().bps());
    now += Tint;
    ASSERT_TRUE(forwardAndUpdate(c, now, n));
    e.step(n * S / Tsec);
    ASSERT_NEAR(c.rate().bps(), e.rate(), 1e-6 * C) << "update " << k;
    EXPECT_LE(c.rate().bps(), C);
  }
  EXPECT_GT(c.rate().bps(), 0.99 * C);
}

TEST(MirccRateController, TwoFlowsConvergeToHalfFromAbove)
{
  MirccRateController c(dumbbell(1.0), T0);
  Expected e{C, 0};
  TimePoint now = T0;
  for (int k = 0; k < 40; ++k) {
    const uint64_t n = 2 * interestsPerT(c.rate().bps()); // both flows at the stamped rate
    now += Tint;
    ASSERT_TRUE(forwardAndUpdate(c, now, n));
    e.step(n * S / Tsec);
    ASSERT_NEAR(c.rate().bps(), e.rate(), 1e-6 * C) << "update " << k;
  }
  EXPECT_NEAR(c.rate().bps(), C / 2, 0.01 * C);
  EXPECT_NEAR(c.flowCount(), 2.0, 0.05);
}

TEST(MirccRateController, TwoFlowsConvergeToHalfFromBelow)
{
  MirccRateController c(dumbbell(0.1), T0);
  Expected e{0.1 * C, 0};
  TimePoint now = T0;
  for (int k = 0; k < 40; ++k) {
    const uint64_t n = 2 * interestsPerT(c.rate().bps());
    now += Tint;
    ASSERT_TRUE(forwardAndUpdate(c, now, n));
    e.step(n * S / Tsec);
    ASSERT_NEAR(c.rate().bps(), e.rate(), 1e-6 * C) << "update " << k;
  }
  EXPECT_NEAR(c.rate().bps(), C / 2, 0.01 * C);
}

TEST(MirccRateController, IdleLinkGrowsTowardCapacityClamped)
{
  MirccRateController c(dumbbell(0.1), T0);
  Expected e{0.1 * C, 0};
  double prev = c.rate().bps();
  TimePoint now = T0;
  for (int k = 0; k < 30; ++k) {
    now += Tint;
    ASSERT_TRUE(c.update(now, 0));
    e.step(0); // y = 0: base* = R, excess* = min(R, C - R)
    ASSERT_NEAR(c.rate().bps(), e.rate(), 1e-6 * C) << "update " << k;
    EXPECT_GE(c.rate().bps(), prev);
    EXPECT_LE(c.rate().bps(), C);
    EXPECT_GE(c.excessRate().bps(), 0);
    prev = c.rate().bps();
  }
  EXPECT_GT(c.rate().bps(), 0.99 * C);
  EXPECT_DOUBLE_EQ(c.arrivalRate().bps(), 0);
}

TEST(MirccRateController, BuildingQueueLowersTheRate)
{
  MirccOptions o = dumbbell(1.0);
  o.delayGain = 1; // d = the last sample
  MirccRateController c(o, T0);
  c.onDataDelay(100ms);
  EXPECT_EQ(c.smoothedDelay(), 100ms);
  Expected e{C, 0};
  double prev = c.rate().bps();
  TimePoint now = T0;
  for (size_t g = 20; g <= 200; g += 20) {
    // y stays at C while the shaper's backlog grows
    now += Tint;
    ASSERT_TRUE(forwardAndUpdate(c, now, 120, g));
    e.step(C, o.beta * g * S / 0.1);
    ASSERT_NEAR(c.rate().bps(), e.rate(), 1e-6 * C) << "g " << g;
    EXPECT_LT(c.rate().bps(), prev) << "g " << g;
    prev = c.rate().bps();
  }
  EXPECT_LT(c.rate().bps(), 0.8 * C);
}

TEST(MirccRateController, HugeQueueFloorsAtMinimumRate)
{
  MirccOptions o = dumbbell(1.0);
  o.delayGain = 1;
  MirccRateController c(o, T0);
  c.onDataDelay(1ms);
  TimePoint now = T0;
  for (int k = 0; k < 60; ++k) {
    now += Tint;
    ASSERT_TRUE(forwardAndUpdate(c, now, 1000, 200)); // beta*g/d = 200 Mbit/s >> C
    EXPECT_GE(c.baseRate().bps(), 0);
    EXPECT_GE(c.excessRate().bps(), 0);
    EXPECT_GE(c.rate(), o.minRate);
  }
  EXPECT_EQ(c.rate(), o.minRate);
}

TEST(MirccRateController, ArrivalsAboveCapacityDoNotWrap)
{
  MirccRateController c(dumbbell(1.0), T0);
  // y = 10 C: N = y/R = 10, base* = C/10, excess* = max(R - y/N, 0) = 0 (mircc-1's unsigned
  // C - y and R - y/N would wrap here)
  ASSERT_TRUE(forwardAndUpdate(c, T0 + Tint, 1200));
  EXPECT_NEAR(c.flowCount(), 10.0, 1e-9);
  EXPECT_NEAR(c.baseRate().bps(), 0.5 * C + 0.5 * C / 10, 1e-6);
  EXPECT_DOUBLE_EQ(c.excessRate().bps(), 0);
  EXPECT_NEAR(c.rate().bps(), 0.55 * C, 1e-6);
  // far above: still finite and in [minRate, C]
  ASSERT_TRUE(forwardAndUpdate(c, T0 + 2 * Tint, 1'000'000)); // y = 8,333 C
  EXPECT_TRUE(std::isfinite(c.rate().bps()));
  EXPECT_GE(c.rate(), c.options().minRate);
  EXPECT_LE(c.rate().bps(), C);
  EXPECT_GE(c.excessRate().bps(), 0);
}

TEST(MirccRateController, DynamicBetaFollowsTheGrowthOfY)
{
  MirccOptions o = dumbbell(1.0);
  o.dynamicBeta = true;
  o.delayGain = 1;
  MirccRateController c(o, T0);
  c.onDataDelay(100ms);
  ASSERT_TRUE(forwardAndUpdate(c, T0 + Tint, 30, 0)); // y(t-T) = C/4
  const double r = c.rate().bps();
  const double base = c.baseRate().bps();
  ASSERT_TRUE(forwardAndUpdate(c, T0 + 2 * Tint, 60, 100)); // y = C/2: beta = max(0.1, 0.5)
  const double n = C / r;
  const double baseStar = (C - 0.5 * 100 * S / 0.1) / n;
  EXPECT_NEAR(c.baseRate().bps(), 0.5 * base + 0.5 * baseStar, 1e-6);
}

TEST(MirccRateController, SmoothedDelayIsAnEwma)
{
  MirccRateController c(dumbbell(), T0);
  EXPECT_EQ(c.smoothedDelay(), 30ms);
  c.onDataDelay(130ms); // 0.7 x 30 + 0.3 x 130 = 60
  EXPECT_EQ(c.smoothedDelay(), 60ms);
  c.onDataDelay(-1ms); // ignored
  EXPECT_EQ(c.smoothedDelay(), 60ms);
}

TEST(MirccRateController, CapacityChangeClampsTheRate)
{
  MirccRateController c(dumbbell(1.0), T0);
  c.setCapacity(Rate::mbps(6));
  EXPECT_DOUBLE_EQ(c.rate().bps(), 6e6);
  EXPECT_THROW(c.setCapacity(Rate()), std::invalid_argument);
}

// --- InterestShaper -----------------------------------------------------------------------

// 10 Mbit/s and 1,250-byte Data: one Interest per millisecond
InterestShaper<int> makeShaper(size_t depth = 200)
{
  return InterestShaper<int>(depth, Bytes(1250), Rate::mbps(10));
}

TEST(InterestShaper, ReleasesNothingBeforeItsTime)
{
  auto s = makeShaper();
  EXPECT_EQ(s.releaseInterval(), 1ms);
  EXPECT_FALSE(s.nextReleaseTime());
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(s.enqueue(T0, i), InterestShaper<int>::Verdict::Accepted);
  EXPECT_EQ(s.releaseDue(T0), std::vector<int>{0}); // an idle shaper sends the first at once
  EXPECT_EQ(s.nextReleaseTime(), T0 + 1ms);
  EXPECT_TRUE(s.releaseDue(T0 + 999us).empty());
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s.releaseDue(T0 + 1ms), std::vector<int>{1});
  EXPECT_TRUE(s.releaseDue(T0 + 1ms).empty());
  EXPECT_EQ(s.releaseDue(T0 + 2ms), std::vector<int>{2});
  EXPECT_FALSE(s.nextReleaseTime());
}

TEST(InterestShaper, ReleasesAtTheConfiguredRate)
{
  auto s = makeShaper();
  for (int i = 0; i < 100; ++i)
    s.enqueue(T0, i);
  std::vector<TimePoint> times;
  for (TimePoint now = T0; now < T0 + 50ms; now += 100us)
    for (int item : s.releaseDue(now)) {
      EXPECT_EQ(item, static_cast<int>(times.size())); // in arrival order
      times.push_back(now);
    }
  ASSERT_EQ(times.size(), 50u); // 0, 1, ..., 49 ms
  for (size_t i = 0; i < times.size(); ++i)
    EXPECT_EQ(times[i], T0 + static_cast<int64_t>(i) * 1ms);
  EXPECT_EQ(s.counters().nReleased, 50u);
}

TEST(InterestShaper, LateCallerGetsEverythingDueAndNoBankedBurst)
{
  auto s = makeShaper();
  for (int i = 0; i < 10; ++i)
    s.enqueue(T0, i);
  // a coarse clock looks 5 ms late: the six Interests due at 0..5 ms leave together
  EXPECT_EQ(s.releaseDue(T0 + 5ms).size(), 6u);
  EXPECT_EQ(s.nextReleaseTime(), T0 + 6ms);
  EXPECT_EQ(s.releaseDue(T0 + 10ms).size(), 4u);
  // idle for a second: three new arrivals leave one interval apart, not in a burst
  const TimePoint later = T0 + 1s;
  for (int i = 0; i < 3; ++i)
    s.enqueue(later, i);
  EXPECT_EQ(s.releaseDue(later).size(), 1u);
  EXPECT_EQ(s.nextReleaseTime(), later + 1ms);
}

TEST(InterestShaper, DropsPastItsDepthAndCountsIt)
{
  MirccOptions o = dumbbell();
  InterestShaper<int> s(o.shaperDepth, o.dataBytes(), o.capacity);
  for (int i = 0; i < 200; ++i)
    ASSERT_EQ(s.enqueue(T0, i), InterestShaper<int>::Verdict::Accepted);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(s.enqueue(T0, 1000 + i), InterestShaper<int>::Verdict::Dropped);
  EXPECT_EQ(s.size(), 200u);
  EXPECT_EQ(s.counters().nAccepted, 200u);
  EXPECT_EQ(s.counters().nDropped, 5u);
  EXPECT_EQ(InterestShaper<int>::dropReason, DropReason::ShaperFull);
  EXPECT_EQ(toString(InterestShaper<int>::dropReason), "shaper_full");
  // room again once one leaves
  EXPECT_EQ(s.releaseDue(T0).size(), 1u);
  EXPECT_EQ(s.enqueue(T0, 7), InterestShaper<int>::Verdict::Accepted);
}

TEST(InterestShaper, NewRateAppliesFromTheNextRelease)
{
  auto s = makeShaper();
  for (int i = 0; i < 3; ++i)
    s.enqueue(T0, i);
  s.releaseDue(T0);
  s.setRate(Rate::mbps(5)); // 2 ms per Interest
  EXPECT_EQ(s.nextReleaseTime(), T0 + 2ms);
  EXPECT_THROW(s.setRate(Rate()), std::invalid_argument);
  EXPECT_THROW(InterestShaper<int>(0, Bytes(1250), Rate::mbps(1)), std::invalid_argument);
  EXPECT_THROW(InterestShaper<int>(10, Bytes(1250), Rate()), std::invalid_argument);
}

TEST(MirccOptions, ShaperHoldSizesTheDepthToTheCapacity)
{
  MirccOptions o = dumbbell(); // 1,250-byte Data: 1,000 Interests/s per 10 Mbit/s
  EXPECT_EQ(o.shaperDepthFor(Rate::mbps(10)), 200u) << "no hold: the paper's depth";
  o.shaperHold = 750ms;
  EXPECT_EQ(o.shaperDepthFor(Rate::mbps(10)), 750u) << "a 750 ms tick at 1,000 Interests/s";
  EXPECT_EQ(o.shaperDepthFor(Rate::mbps(12)), 900u);
  EXPECT_EQ(o.shaperDepthFor(Rate::mbps(1)), 200u) << "never below shaperDepth";
}

TEST(InterestShaper, DeeperShaperTakesMoreAndShallowerKeepsWhatWaits)
{
  auto s = makeShaper(10);
  for (int i = 0; i < 12; ++i)
    s.enqueue(T0, i);
  EXPECT_EQ(s.size(), 10u);
  s.setDepth(12);
  EXPECT_EQ(s.enqueue(T0, 12), InterestShaper<int>::Verdict::Accepted);
  EXPECT_EQ(s.depth(), 12u);
  s.setDepth(5);
  EXPECT_EQ(s.size(), 11u) << "queued Interests stay";
  EXPECT_EQ(s.enqueue(T0, 13), InterestShaper<int>::Verdict::Dropped);
  EXPECT_THROW(s.setDepth(0), std::invalid_argument);
}

} // namespace
} // namespace ndnlab::fw
