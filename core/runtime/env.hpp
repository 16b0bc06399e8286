#pragma once
// The seams through which core objects reach the world (ARCHITECTURE.md "Seams").
// A core object receives an Env& at construction and never asks anything else for
// time, timers, randomness, logging or tracing. Many Envs may live in one process
// (ns-3 runs one per node), so there are no singletons.

#include "core/runtime/events.hpp"
#include "core/runtime/units.hpp"

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>

namespace ndnlab {

/// Source of time.
class Clock
{
public:
  virtual ~Clock() = default;
  /// Monotonic now.
  virtual TimePoint now() const = 0;
  /// Wall-clock now, milliseconds since the Unix epoch.
  virtual UnixMillis unixNow() const = 0;
};

/// Identifies a scheduled callback; 0 is never a valid id.
using TimerId = uint64_t;

/// One-shot timers. Callbacks run on the Env's single thread of control.
class Timers
{
public:
  virtual ~Timers() = default;
  /// Runs `cb` once after `delay` (negative delays are treated as zero).
  virtual TimerId schedule(Duration delay, std::function<void()> cb) = 0;
  /// Cancels a pending timer; cancelling an expired or unknown id is a no-op.
  virtual void cancel(TimerId id) = 0;
};

/// Random numbers. Implementations: seeded mt19937_64 (daemon), ns-3 streams, fixed seed (tests).
class Rng
{
public:
  virtual ~Rng() = default;
  virtual uint64_t next64() = 0;

  uint32_t next32() { return static_cast<uint32_t>(next64() >> 32); }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next64() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [0, n); n must be positive.
  uint64_t below(uint64_t n) { return next64() % n; }
};

enum class LogLevel : uint8_t { Trace, Debug, Info, Warn, Error, Off };

/// Log sink. Core code checks enabled() before building a message.
class Log
{
public:
  virtual ~Log() = default;
  virtual bool enabled(LogLevel level) const = 0;
  virtual void write(LogLevel level, std::string_view module, std::string_view message) = 0;
};

/// One trace event. Its kind, and the reason of a drop or close, come from the catalogue in
/// core/runtime/events.hpp, which also says what `face`, `reason`, `value` and `value2` hold.
struct TraceEvent
{
  EventKind kind;
  uint64_t face = 0;       ///< FaceId, 0 when not face-related
  std::string_view reason; ///< drop or close reason, Nack reason or sub-kind; static storage
  int64_t value = 0;       ///< event-specific number (octets, segment, ...)
  double value2 = 0;       ///< event-specific measurement (e.g. delay in seconds)

  /// A drop of kind `kind` (Drop, ImpairDrop, IoDrop, DevDrop) on `face`.
  static TraceEvent dropped(EventKind kind, uint64_t face, DropReason reason, int64_t octets = 0)
  {
    return TraceEvent{.kind = kind, .face = face, .reason = toString(reason), .value = octets};
  }
  /// A face_close event.
  static TraceEvent closed(uint64_t face, CloseReason reason)
  {
    return TraceEvent{.kind = EventKind::FaceClose, .face = face, .reason = toString(reason)};
  }
};

/// Receiver of trace events; the daemon counts/logs them, ns-3 turns them into trace sources.
class Trace
{
public:
  virtual ~Trace() = default;
  /// False when nobody listens, so emitters can skip work.
  virtual bool enabled() const = 0;
  virtual void emit(TimePoint when, const TraceEvent& event) = 0;
};

/// The bundle of seams handed to every core object.
class Env
{
public:
  virtual ~Env() = default;
  virtual Clock& clock() = 0;
  virtual Timers& timers() = 0;
  virtual Rng& rng() = 0;
  virtual Log& log() = 0;
  virtual Trace& trace() = 0;

  TimePoint now() { return clock().now(); }
  void emit(const TraceEvent& e)
  {
    if (trace().enabled())
      trace().emit(now(), e);
  }
};

/// Concatenates streamable values into a string (core has no fmt dependency).
template<typename... Args>
std::string strcat(const Args&... args)
{
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

/// Logs `args...` at `level` under `module` when enabled; evaluates nothing otherwise.
#define NDNLAB_LOG(env, level, module, ...)                                                                            \
  do {                                                                                                                 \
    if ((env).log().enabled(level))                                                                                    \
      (env).log().write(level, module, ::ndnlab::strcat(__VA_ARGS__));                                                 \
  } while (false)

} // namespace ndnlab
