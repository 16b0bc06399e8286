#pragma once
// Manual fakes of the Env seams, for unit tests and for deterministic replay:
// time moves only when the test advances it, timers fire in (time, insertion) order.

#include "core/runtime/env.hpp"

#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ndnlab {

/// Clock and timers driven by hand.
class ManualClock final : public Clock, public Timers
{
public:
  explicit ManualClock(UnixMillis unixEpochOffset = UnixMillis(1'700'000'000'000)) : m_unixOffset(unixEpochOffset) {}

  TimePoint now() const override { return m_now; }
  UnixMillis unixNow() const override
  {
    return m_unixOffset + std::chrono::duration_cast<UnixMillis>(m_now.time_since_epoch());
  }

  TimerId schedule(Duration delay, std::function<void()> cb) override
  {
    if (delay < Duration::zero())
      delay = Duration::zero();
    TimerId id = ++m_lastId;
    m_queue.emplace(Key{m_now + delay, id}, std::move(cb));
    return id;
  }

  void cancel(TimerId id) override
  {
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
      if (it->first.id == id) {
        m_queue.erase(it);
        return;
      }
    }
  }

  /// Moves time forward by `d`, firing every timer due up to and including the new time.
  void advance(Duration d) { runUntil(m_now + d); }

  /// Fires timers in order until `t`; time ends at `t`.
  void runUntil(TimePoint t)
  {
    while (!m_queue.empty() && m_queue.begin()->first.when <= t) {
      auto node = m_queue.extract(m_queue.begin());
      m_now = node.key().when;
      node.mapped()();
    }
    if (t > m_now)
      m_now = t;
  }

  /// Fires every pending timer (including ones scheduled by callbacks), at most `limit` of them.
  /// Returns the number fired.
  size_t runAll(size_t limit = 1'000'000)
  {
    size_t n = 0;
    while (!m_queue.empty() && n < limit) {
      auto node = m_queue.extract(m_queue.begin());
      m_now = node.key().when;
      node.mapped()();
      ++n;
    }
    return n;
  }

  size_t pending() const { return m_queue.size(); }

private:
  struct Key
  {
    TimePoint when;
    TimerId id;
    bool operator<(const Key& o) const { return when != o.when ? when < o.when : id < o.id; }
  };
  TimePoint m_now{};
  UnixMillis m_unixOffset;
  TimerId m_lastId = 0;
  std::map<Key, std::function<void()>> m_queue;
};

/// Seeded mt19937_64.
class SeededRng final : public Rng
{
public:
  explicit SeededRng(uint64_t seed = 42) : m_engine(seed) {}
  uint64_t next64() override { return m_engine(); }

private:
  std::mt19937_64 m_engine;
};

/// Log that keeps lines in memory (tests) and optionally forwards nothing else.
class CaptureLog final : public Log
{
public:
  explicit CaptureLog(LogLevel min = LogLevel::Debug) : m_min(min) {}
  bool enabled(LogLevel level) const override { return level >= m_min; }
  void write(LogLevel level, std::string_view module, std::string_view message) override
  {
    lines.push_back({level, std::string(module), std::string(message)});
  }

  struct Line
  {
    LogLevel level;
    std::string module;
    std::string message;
  };
  std::vector<Line> lines;

private:
  LogLevel m_min;
};

/// Trace sink that records every event.
class RecordingTrace final : public Trace
{
public:
  struct Record
  {
    TimePoint when;
    EventKind kind;
    uint64_t face;
    std::string reason;
    int64_t value;
    double value2;
  };

  bool enabled() const override { return on; }
  void emit(TimePoint when, const TraceEvent& e) override
  {
    records.push_back({when, e.kind, e.face, std::string(e.reason), e.value, e.value2});
  }
  size_t count(EventKind kind, DropReason reason) const { return count(kind, toString(reason)); }
  size_t count(EventKind kind, std::string_view reason = {}) const
  {
    size_t n = 0;
    for (const auto& r : records)
      n += r.kind == kind && (reason.empty() || r.reason == reason);
    return n;
  }

  bool on = true;
  std::vector<Record> records;
};

/// Env made of the manual fakes above; the default for core unit tests.
class ManualEnv final : public Env
{
public:
  explicit ManualEnv(uint64_t seed = 42) : rngImpl(seed) {}
  Clock& clock() override { return clockImpl; }
  Timers& timers() override { return clockImpl; }
  Rng& rng() override { return rngImpl; }
  Log& log() override { return logImpl; }
  Trace& trace() override { return traceImpl; }

  void advance(Duration d) { clockImpl.advance(d); }

  ManualClock clockImpl;
  SeededRng rngImpl;
  CaptureLog logImpl;
  RecordingTrace traceImpl;
};

} // namespace ndnlab
