#include "io/asio-env.hpp"
#include "io/tests/io-test-util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

namespace ndnlab::io {
namespace {

using namespace std::chrono_literals;
using test::runUntil;

class AsioEnvTest : public ::testing::Test
{
protected:
  asio::io_context io;
  AsioEnv env{io, AsioEnvOptions{.seed = 7, .logLevel = LogLevel::Off}};
};

TEST_F(AsioEnvTest, ClockIsMonotonicAndWallClockPlausible)
{
  TimePoint a = env.now();
  TimePoint b = env.now();
  EXPECT_LE(a, b);
  // After 2023-01-01 in milliseconds since the epoch.
  EXPECT_GT(env.clock().unixNow().count(), 1'672'531'200'000LL);
}

TEST_F(AsioEnvTest, TimersFireInDeadlineOrder)
{
  std::vector<int> order;
  TimePoint start = env.now();
  std::vector<TimePoint> firedAt(3);
  env.timers().schedule(30ms, [&] {
    order.push_back(3);
    firedAt[2] = env.now();
  });
  env.timers().schedule(10ms, [&] {
    order.push_back(1);
    firedAt[0] = env.now();
  });
  env.timers().schedule(20ms, [&] {
    order.push_back(2);
    firedAt[1] = env.now();
  });
  ASSERT_TRUE(runUntil(io, [&] { return order.size() == 3; }));
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_GE(firedAt[0] - start, 10ms);
  EXPECT_GE(firedAt[1] - start, 20ms);
  EXPECT_GE(firedAt[2] - start, 30ms);
  EXPECT_EQ(env.asioTimers().pending(), 0u);
}

TEST_F(AsioEnvTest, EqualDeadlinesFireInSchedulingOrder)
{
  // Zero delays scheduled back to back may share a deadline; order must be FIFO.
  std::vector<int> order;
  for (int i = 0; i < 100; ++i)
    env.timers().schedule(0ms, [&order, i] { order.push_back(i); });
  ASSERT_TRUE(runUntil(io, [&] { return order.size() == 100; }));
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(order[i], i);
}

TEST_F(AsioEnvTest, CancelPreventsFiringAndIsIdempotent)
{
  int fired = 0;
  TimerId a = env.timers().schedule(5ms, [&] { fired += 1; });
  TimerId b = env.timers().schedule(10ms, [&] { fired += 10; });
  EXPECT_NE(a, 0u);
  EXPECT_NE(a, b);
  env.timers().cancel(a);
  env.timers().cancel(a);
  env.timers().cancel(12345678);
  EXPECT_EQ(env.asioTimers().pending(), 1u);
  ASSERT_TRUE(runUntil(io, [&] { return fired != 0; }));
  test::runFor(io, 20ms);
  EXPECT_EQ(fired, 10);
  // Cancelling a fired timer is a no-op, even after its slot is reused.
  TimerId c = env.timers().schedule(1ms, [&] { fired += 100; });
  env.timers().cancel(b);
  ASSERT_TRUE(runUntil(io, [&] { return fired == 110; }));
  EXPECT_NE(b, c);
}

TEST_F(AsioEnvTest, CallbackMayCancelAndSchedule)
{
  std::vector<std::string> log;
  TimerId later = env.timers().schedule(20ms, [&] { log.push_back("later"); });
  env.timers().schedule(5ms, [&] {
    log.push_back("first");
    env.timers().cancel(later);
    env.timers().schedule(1ms, [&] { log.push_back("rescheduled"); });
  });
  ASSERT_TRUE(runUntil(io, [&] { return log.size() == 2; }));
  test::runFor(io, 30ms);
  EXPECT_EQ(log, (std::vector<std::string>{"first", "rescheduled"}));
}

TEST_F(AsioEnvTest, EarlierTimerRearms)
{
  // A long timer is armed first; a later-scheduled short one must not wait for it.
  bool shortFired = false, longFired = false;
  env.timers().schedule(10s, [&] { longFired = true; });
  TimePoint start = env.now();
  env.timers().schedule(5ms, [&] { shortFired = true; });
  ASSERT_TRUE(runUntil(
    io, [&] { return shortFired; }, 1000ms));
  EXPECT_LT(env.now() - start, 1s);
  EXPECT_FALSE(longFired);
}

/// Steady time, except that it can be frozen (so a test knows every deadline exactly).
class FreezableClock final : public Clock
{
public:
  TimePoint now() const override { return frozen ? frozenAt : real.now(); }
  UnixMillis unixNow() const override { return real.unixNow(); }
  SteadyClock real;
  bool frozen = false;
  TimePoint frozenAt{};
};

TEST(AsioTimers, TimersDueTogetherCostOneWakeup)
{
  // three timers with one deadline fire in one wake-up of the loop; a later one in another
  asio::io_context io;
  FreezableClock clock;
  AsioTimers timers(io, clock);
  clock.frozenAt = clock.real.now();
  clock.frozen = true; // the same deadline for all three
  int fired = 0;
  for (int i = 0; i < 3; ++i)
    timers.schedule(5ms, [&] { ++fired; });
  clock.frozen = false;
  ASSERT_TRUE(runUntil(io, [&] { return fired == 3; }));
  EXPECT_EQ(timers.wakeups(), 1u);
  timers.schedule(5ms, [&] { ++fired; });
  ASSERT_TRUE(runUntil(io, [&] { return fired == 4; }));
  EXPECT_EQ(timers.wakeups(), 2u);
}

TEST(AsioTimers, ManyTimersWithCancellationsFireInDeadlineThenFifoOrder)
{
  asio::io_context io;
  FreezableClock clock;
  AsioTimers timers(io, clock);
  std::mt19937 gen(1);
  std::uniform_int_distribution<int> delay(0, 40); // many equal deadlines
  constexpr int N = 20000;
  std::vector<int> fired;
  std::vector<TimePoint> due(N);
  std::vector<TimerId> ids(N);
  std::vector<bool> cancelled(N, false);
  clock.frozenAt = clock.real.now();
  clock.frozen = true;
  for (int i = 0; i < N; ++i) {
    auto d = std::chrono::milliseconds(delay(gen));
    due[i] = clock.frozenAt + d;
    ids[i] = timers.schedule(d, [&fired, i] { fired.push_back(i); });
  }
  size_t expected = 0;
  for (int i = 0; i < N; ++i) {
    if (i % 3 == 0) {
      timers.cancel(ids[i]);
      cancelled[i] = true;
    }
    else
      ++expected;
  }
  EXPECT_EQ(timers.pending(), expected);
  clock.frozen = false;
  ASSERT_TRUE(runUntil(io, [&] { return fired.size() == expected; }));
  for (int i : fired)
    EXPECT_FALSE(cancelled[i]);
  for (size_t k = 1; k < fired.size(); ++k) {
    int a = fired[k - 1], b = fired[k];
    ASSERT_TRUE(due[a] < due[b] || (due[a] == due[b] && a < b)) << "positions " << k - 1 << ", " << k;
  }
}

TEST_F(AsioEnvTest, ScheduleCancelChurnKeepsHeapBounded)
{
  // A PIT-like pattern: schedule a long timer, cancel it, many times.
  for (int i = 0; i < 200000; ++i) {
    TimerId id = env.timers().schedule(4s, [] {});
    env.timers().cancel(id);
  }
  EXPECT_EQ(env.asioTimers().pending(), 0u);
  bool fired = false;
  env.timers().schedule(1ms, [&] { fired = true; });
  ASSERT_TRUE(runUntil(io, [&] { return fired; }));
}

TEST_F(AsioEnvTest, SeededRngIsReproducible)
{
  asio::io_context io2;
  AsioEnv env2(io2, AsioEnvOptions{.seed = 7, .logLevel = LogLevel::Off});
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(env.rng().next64(), env2.rng().next64());
  EXPECT_EQ(env.seed(), 7u);
  AsioEnv random(io2, AsioEnvOptions{.seed = 0, .logLevel = LogLevel::Off});
  EXPECT_NE(random.seed(), 0u);
}

TEST(SpdLog, LevelsGateOutput)
{
  SpdLog log(LogLevel::Warn);
  EXPECT_FALSE(log.enabled(LogLevel::Info));
  EXPECT_TRUE(log.enabled(LogLevel::Warn));
  EXPECT_TRUE(log.enabled(LogLevel::Error));
  log.setLevel(LogLevel::Off);
  EXPECT_FALSE(log.enabled(LogLevel::Error));

  LogLevel l{};
  EXPECT_TRUE(parseLogLevel("debug", l));
  EXPECT_EQ(l, LogLevel::Debug);
  EXPECT_FALSE(parseLogLevel("verbose", l));
  EXPECT_EQ(toString(LogLevel::Trace), "trace");
}

TEST(SpdLog, WritesToFile)
{
  auto path = std::filesystem::temp_directory_path() / ("ndnlab-log-" + std::to_string(::getpid()));
  {
    SpdLog log(LogLevel::Info, path.string());
    log.write(LogLevel::Info, "fw", "hello 42");
    log.write(LogLevel::Debug, "fw", "hidden");
  }
  std::ifstream in(path);
  std::string all((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(all.find("[fw] hello 42"), std::string::npos);
  EXPECT_EQ(all.find("hidden"), std::string::npos);
  std::filesystem::remove(path);
}

TEST(CountingTrace, CountsPerKindAndReason)
{
  CountingTrace t(true);
  EXPECT_TRUE(t.enabled());
  TimePoint now{};
  t.emit(now, {EventKind::Drop, 256, "no-route"});
  t.emit(now, {EventKind::Drop, 256, "no-route"});
  t.emit(now, {EventKind::Drop, 257, "hop-limit"});
  t.emit(now, {EventKind::InterestOut, 256});
  EXPECT_EQ(t.count(EventKind::Drop, "no-route"), 2u);
  EXPECT_EQ(t.count(EventKind::Drop, "hop-limit"), 1u);
  EXPECT_EQ(t.count(EventKind::Drop), 3u);
  EXPECT_EQ(t.count(EventKind::InterestOut), 1u);
  EXPECT_EQ(t.count(EventKind::InterestIn), 0u);
  auto snap = t.snapshot();
  EXPECT_EQ(snap.at("drop/no-route"), 2u);
  EXPECT_EQ(snap.at("interest_out"), 1u);

  CountingTrace off(false);
  EXPECT_FALSE(off.enabled());
}

TEST(CountingTrace, ReusedBuffersAreCountedByContent)
{
  // Emitters usually pass literals, but a reused buffer must not be miscounted.
  CountingTrace t(true);
  const EventKind kind = EventKind::Drop;
  std::string reason = "aaaa";
  for (int i = 0; i < 3; ++i)
    t.emit(TimePoint{}, {kind, 0, reason});
  reason.assign("bbbb"); // same address, new text
  t.emit(TimePoint{}, {kind, 0, reason});
  reason.assign("bb");
  t.emit(TimePoint{}, {kind, 0, reason});
  EXPECT_EQ(t.count(EventKind::Drop, "aaaa"), 3u);
  EXPECT_EQ(t.count(EventKind::Drop, "bbbb"), 1u);
  EXPECT_EQ(t.count(EventKind::Drop, "bb"), 1u);
  for (int i = 0; i < 1000; ++i)
    t.emit(TimePoint{}, {EventKind::DataIn, 1});
  EXPECT_EQ(t.count(EventKind::DataIn), 1000u);
}

TEST(CountingTrace, WritesJsonLines)
{
  auto path = std::filesystem::temp_directory_path() / ("ndnlab-trace-" + std::to_string(::getpid()));
  {
    CountingTrace t(false, path.string());
    EXPECT_TRUE(t.enabled());
    TimePoint t0(std::chrono::seconds(5));
    t.emit(t0, {EventKind::Drop, 300, "bad\"reason", 7, 0.5});
    t.emit(t0 + 1500ms, {EventKind::DataIn, 301, "", 1024, 0});
  }
  std::ifstream in(path);
  std::string l1, l2;
  std::getline(in, l1);
  std::getline(in, l2);
  EXPECT_EQ(l1, R"({"t":0.000000000,"kind":"drop","face":300,"reason":"bad\"reason","value":7,"value2":0.5})");
  EXPECT_EQ(l2, R"({"t":1.500000000,"kind":"data_in","face":301,"reason":"","value":1024,"value2":0})");
  std::filesystem::remove(path);
}

TEST(CountingTrace, TimesCountFromTheGivenStart)
{
  auto path = std::filesystem::temp_directory_path() / ("ndnlab-trace-start-" + std::to_string(::getpid()));
  {
    CountingTrace t(false, path.string());
    TimePoint t0(std::chrono::seconds(5));
    t.setStart(t0);
    t.emit(t0 + 400ms, {EventKind::DataIn, 1, "", 1, 0}); // the first event, 0.4 s after the start
  }
  std::ifstream in(path);
  std::string l1;
  std::getline(in, l1);
  EXPECT_EQ(l1.substr(0, 17), R"({"t":0.400000000,)");
  std::filesystem::remove(path);
}

std::string readFile(const std::filesystem::path& p)
{
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CountingTrace, FileGetsWholeLinesFlushedByTimeAndOnDrops)
{
  auto path = std::filesystem::temp_directory_path() / ("ndnlab-trace-flush-" + std::to_string(::getpid()));
  std::filesystem::remove(path);
  asio::io_context io;
  AsioEnv env{io, AsioEnvOptions{.seed = 1,
                                 .logLevel = LogLevel::Off,
                                 .traceFile = path.string(),
                                 .traceFlushInterval = 500ms,
                                 .traceDropFlushDelay = 20ms}};
  auto lines = [&] {
    std::string text = readFile(path);
    EXPECT_TRUE(text.empty() || text.back() == '\n') << "the file ends mid-line";
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  };

  // An ordinary event waits for the interval, while the process keeps running.
  env.emit({EventKind::DataIn, 300, "", 100, 0});
  EXPECT_EQ(lines(), 0u);
  EXPECT_GT(env.countingTrace().pendingBytes(), 0u);
  test::runFor(io, 100ms);
  EXPECT_EQ(lines(), 0u);
  ASSERT_TRUE(test::runUntil(
    io, [&] { return lines() == 1; }, 2000ms));
  EXPECT_EQ(env.countingTrace().pendingBytes(), 0u);

  // A drop brings the write forward, and a burst goes out together.
  env.emit({EventKind::DataIn, 300, "", 100, 0});
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 5; ++i)
    env.emit({EventKind::Drop, 300, "packet_too_large", 9000, 0});
  ASSERT_TRUE(test::runUntil(
    io, [&] { return lines() == 7; }, 2000ms));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 250ms);

  // A large backlog is written at once, in whole lines, without waiting for a timer.
  size_t before = lines();
  size_t n = 0;
  while (readFile(path).size() < 100 * 1024) {
    env.emit({EventKind::InterestIn, 301, "", static_cast<int64_t>(n), 0.25});
    ++n;
  }
  EXPECT_LT(env.countingTrace().pendingBytes(), CountingTrace::FlushBytes);
  EXPECT_GT(lines(), before);
  env.countingTrace().flush();
  EXPECT_EQ(lines(), before + n);
  std::filesystem::remove(path);
}

} // namespace
} // namespace ndnlab::io
