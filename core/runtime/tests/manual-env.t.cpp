#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

namespace ndnlab {
namespace {

TEST(ManualClock, FiresTimersInTimeThenInsertionOrder)
{
  ManualClock clock;
  std::vector<int> fired;
  clock.schedule(20ms, [&] { fired.push_back(3); });
  clock.schedule(10ms, [&] { fired.push_back(1); });
  clock.schedule(10ms, [&] { fired.push_back(2); });
  clock.advance(15ms);
  EXPECT_EQ(fired, (std::vector<int>{1, 2}));
  EXPECT_EQ(clock.now().time_since_epoch(), 15ms);
  clock.advance(5ms);
  EXPECT_EQ(fired, (std::vector<int>{1, 2, 3}));
}

TEST(ManualClock, CancelledTimerDoesNotFire)
{
  ManualClock clock;
  bool fired = false;
  TimerId id = clock.schedule(1ms, [&] { fired = true; });
  clock.cancel(id);
  clock.cancel(id); // no-op
  clock.advance(10ms);
  EXPECT_FALSE(fired);
}

TEST(ManualClock, TimerScheduledByCallbackRunsWithinAdvance)
{
  ManualClock clock;
  int n = 0;
  std::function<void()> tick = [&] {
    if (++n < 5)
      clock.schedule(1ms, tick);
  };
  clock.schedule(1ms, tick);
  clock.advance(10ms);
  EXPECT_EQ(n, 5);
}

TEST(SeededRng, SameSeedSameSequence)
{
  SeededRng a(7), b(7), c(8);
  EXPECT_EQ(a.next64(), b.next64());
  EXPECT_NE(a.next64(), c.next64());
  double u = a.uniform();
  EXPECT_GE(u, 0.0);
  EXPECT_LT(u, 1.0);
}

TEST(Units, RateAndBytes)
{
  auto r = Rate::of(Bytes(1'000'000), std::chrono::seconds(1));
  EXPECT_DOUBLE_EQ(r.mbps(), 8.0);
  EXPECT_EQ(Rate::mbps(8).transmissionTime(Bytes(1000)), std::chrono::microseconds(1000));
  EXPECT_EQ((2_KiB).count(), 2048u);
}

TEST(ManualEnv, TraceRecordsEvents)
{
  ManualEnv env;
  env.emit(TraceEvent::dropped(EventKind::Drop, 3, DropReason::NetInvalid, 100));
  EXPECT_EQ(env.traceImpl.count(EventKind::Drop, DropReason::NetInvalid), 1u);
  EXPECT_EQ(env.traceImpl.records.back().reason, "net_invalid");
  EXPECT_EQ(env.traceImpl.records.back().value, 100);
  env.traceImpl.on = false;
  env.emit({.kind = EventKind::Drop});
  EXPECT_EQ(env.traceImpl.count(EventKind::Drop), 1u);
}

} // namespace
} // namespace ndnlab
