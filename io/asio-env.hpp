#pragma once
// The daemon/tools implementation of the Env seams (ARCHITECTURE.md "Seams") on one
// asio::io_context: steady-clock time, a timer heap driven by a single steady_timer,
// seeded mt19937_64, spdlog logging and a counting (optionally JSON-lines) trace.
// Everything runs on the io_context's single thread; nothing here is thread-safe.

#include "core/runtime/env.hpp"
#include "core/runtime/manual-env.hpp"

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>

#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace spdlog {
class logger;
}

namespace ndnlab::io {

/// Monotonic time from std::chrono::steady_clock, wall time from system_clock.
class SteadyClock final : public Clock
{
public:
  TimePoint now() const override;
  UnixMillis unixNow() const override;
};

/// One-shot timers on an io_context. A min-heap of (deadline, sequence) entries drives a
/// single asio::steady_timer armed at the earliest deadline. schedule() is O(log n);
/// cancel() is O(1) (the slot is freed, its heap entry is skipped when it surfaces, and the
/// heap is compacted when stale entries outnumber live ones). Timers with equal deadlines
/// fire in scheduling order.
class AsioTimers final : public Timers
{
public:
  AsioTimers(asio::io_context& io, const Clock& clock);
  ~AsioTimers() override;

  TimerId schedule(Duration delay, std::function<void()> cb) override;
  void cancel(TimerId id) override;

  /// Number of scheduled, not yet fired or cancelled timers.
  size_t pending() const { return m_live; }
  /// Times the event loop woke up for due timers (one per expiry of the underlying
  /// steady_timer that ran callbacks): what a coarse clock saves (MIRCC, issue 28 8(c)).
  uint64_t wakeups() const { return m_wakeups; }

private:
  struct Slot
  {
    std::function<void()> cb;
    uint32_t gen = 1;
    bool live = false;
  };
  struct Entry
  {
    TimePoint when;
    uint64_t seq;
    TimerId id;
  };
  struct Later
  {
    bool operator()(const Entry& a, const Entry& b) const { return a.when != b.when ? a.when > b.when : a.seq > b.seq; }
  };

  bool isLive(TimerId id) const;
  void freeSlot(uint32_t index);
  void popStale();
  void compact();
  void arm();
  void onExpiry(uint64_t waitSeq);

  const Clock& m_clock;
  asio::steady_timer m_timer;
  std::vector<Entry> m_heap;
  std::vector<Slot> m_slots;
  std::vector<uint32_t> m_freeSlots;
  uint64_t m_nextSeq = 0;
  size_t m_live = 0;
  TimePoint m_armedAt = TimePoint::max();
  uint64_t m_waitSeq = 0;
  uint64_t m_wakeups = 0;
  bool m_inExpiry = false;
};

/// Log backed by an spdlog logger (stderr or a file). Lines read "[module] message".
class SpdLog final : public Log
{
public:
  /// `file` empty: coloured stderr; otherwise appends to that file (throws on open failure).
  explicit SpdLog(LogLevel level = LogLevel::Info, const std::string& file = {});
  ~SpdLog() override;

  bool enabled(LogLevel level) const override { return level >= m_level && m_level != LogLevel::Off; }
  void write(LogLevel level, std::string_view module, std::string_view message) override;
  void setLevel(LogLevel level);
  LogLevel level() const { return m_level; }
  void flush();

private:
  LogLevel m_level;
  std::shared_ptr<spdlog::logger> m_logger;
};

/// Parses "trace", "debug", "info", "warn", "error", "off"; returns false on other input.
bool parseLogLevel(std::string_view text, LogLevel& out);
std::string_view toString(LogLevel level);

/// Trace that counts events per (kind, reason) and, when a file is given, writes every event
/// as one JSON object per line: {"t":<seconds since start>,"kind":..,"face":..,"reason":..,
/// "value":..,"value2":..}. The start is what setStart() gave (AsioEnv: its creation, so a
/// tool's events are placed from the tool's start), else the first event.
///
/// File writes: lines collect in a buffer that is written with one write(2) of whole lines
/// only, so the file never ends mid-line, when it holds `FlushBytes`, on flush(), and, once
/// setFlushTimers() was called, at most `interval` after the oldest unwritten line and at most
/// `dropDelay` after a drop event (kind ending in "drop", or "face_close"), so a reader (or a
/// SIGKILL) misses at most that much. The timer exists only while lines wait.
class CountingTrace final : public Trace
{
public:
  /// Buffered octets that trigger an immediate write.
  static constexpr size_t FlushBytes = 64 * 1024;

  /// `count` false and `file` empty: the trace is disabled (emitters skip work).
  explicit CountingTrace(bool count = true, const std::string& file = {});
  ~CountingTrace() override;
  CountingTrace(const CountingTrace&) = delete;
  CountingTrace& operator=(const CountingTrace&) = delete;

  bool enabled() const override { return m_count || m_fd >= 0; }
  void emit(TimePoint when, const TraceEvent& event) override;

  /// Events seen with this kind (and reason, when non-empty).
  uint64_t count(EventKind kind, std::string_view reason = {}) const;
  uint64_t count(EventKind kind, DropReason reason) const { return count(kind, toString(reason)); }
  /// All counters as "kind/reason" -> count (reason omitted when empty), sorted.
  std::map<std::string, uint64_t> snapshot() const;
  /// Writes the buffered lines now.
  void flush();
  /// Time-based flushing on `timers` (which must outlive this trace or be detached with
  /// nullptr); a zero `interval` turns it off.
  void setFlushTimers(Timers* timers, Duration interval, Duration dropDelay);
  /// Times in the file count from `start` (until called: from the first event written).
  void setStart(TimePoint start)
  {
    m_start = start;
    m_started = true;
  }
  /// Octets buffered, not yet written (tests).
  size_t pendingBytes() const { return m_buf.size(); }

private:
  /// Arms (or brings forward) the flush timer so it fires within `delay` of `now`.
  void scheduleFlush(TimePoint now, Duration delay);
  void cancelFlushTimer();
  struct Hash
  {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  uint64_t& counterFor(std::string_view kind, std::string_view reason);

  bool m_count;
  int m_fd = -1;
  std::string m_buf; ///< whole lines not yet written
  Timers* m_timers = nullptr;
  Duration m_flushInterval{0};
  Duration m_dropFlushDelay{0};
  TimerId m_flushTimer = 0;
  TimePoint m_flushAt = TimePoint::max();
  TimePoint m_start{};
  bool m_started = false;
  std::string m_key; // scratch "kind\0reason"
  std::unordered_map<std::string, uint64_t, Hash, std::equal_to<>> m_counts;
  /// Direct-mapped cache keyed by the addresses of kind/reason (emitters pass literals), so
  /// the per-packet path hashes two pointers and compares the key text, without building a
  /// string. Map nodes are stable, so cached pointers stay valid.
  struct FastSlot
  {
    const char* kind = nullptr;
    const char* reason = nullptr;
    std::pair<const std::string, uint64_t>* entry = nullptr;
  };
  std::array<FastSlot, 256> m_fast{};
};

/// Knobs of AsioEnv.
struct AsioEnvOptions
{
  /// RNG seed; 0 = seed from std::random_device.
  uint64_t seed = 0;
  /// Minimum level written to the log.
  LogLevel logLevel = LogLevel::Info;
  /// Log file; empty = stderr.
  std::string logFile;
  /// Count trace events per (kind, reason).
  bool traceCounters = true;
  /// Write every trace event as a JSON line to this file; empty = off.
  std::string traceFile;
  /// Trace file lines reach the file at most this long after they were emitted; 0 = only
  /// when 64 KiB are buffered and at exit.
  Duration traceFlushInterval = std::chrono::seconds(1);
  /// ... and at most this long after a drop event (a burst of drops is written together).
  Duration traceDropFlushDelay = std::chrono::milliseconds(50);
};

/// The Env of the daemon and the tools.
class AsioEnv final : public Env
{
public:
  explicit AsioEnv(asio::io_context& io, const AsioEnvOptions& options = {});
  ~AsioEnv() override;

  Clock& clock() override { return m_clock; }
  Timers& timers() override { return m_timers; }
  Rng& rng() override { return m_rng; }
  Log& log() override { return m_log; }
  Trace& trace() override { return m_trace; }

  asio::io_context& ioContext() { return m_io; }
  AsioTimers& asioTimers() { return m_timers; }
  SpdLog& spdLog() { return m_log; }
  CountingTrace& countingTrace() { return m_trace; }
  uint64_t seed() const { return m_seed; }

private:
  asio::io_context& m_io;
  SteadyClock m_clock;
  AsioTimers m_timers;
  uint64_t m_seed;
  SeededRng m_rng;
  SpdLog m_log;
  CountingTrace m_trace;
};

} // namespace ndnlab::io
