#include "io/asio-env.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>
#include <stdexcept>

namespace ndnlab::io {

// --- SteadyClock ---------------------------------------------------------------------------

TimePoint SteadyClock::now() const
{
  return TimePoint(std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now().time_since_epoch()));
}

UnixMillis SteadyClock::unixNow() const
{
  return std::chrono::duration_cast<UnixMillis>(std::chrono::system_clock::now().time_since_epoch());
}

// --- AsioTimers ----------------------------------------------------------------------------

namespace {

uint32_t slotOf(TimerId id)
{
  return static_cast<uint32_t>(id & 0xFFFFFFFF) - 1;
}

uint32_t genOf(TimerId id)
{
  return static_cast<uint32_t>(id >> 32);
}

std::chrono::steady_clock::time_point toSteady(TimePoint t)
{
  return std::chrono::steady_clock::time_point(
    std::chrono::duration_cast<std::chrono::steady_clock::duration>(t.time_since_epoch()));
}

} // namespace

AsioTimers::AsioTimers(asio::io_context& io, const Clock& clock) : m_clock(clock), m_timer(io)
{}

AsioTimers::~AsioTimers() = default;

bool AsioTimers::isLive(TimerId id) const
{
  uint32_t s = slotOf(id);
  return s < m_slots.size() && m_slots[s].live && m_slots[s].gen == genOf(id);
}

void AsioTimers::freeSlot(uint32_t index)
{
  Slot& slot = m_slots[index];
  slot.live = false;
  slot.cb = nullptr;
  ++slot.gen;
  if (slot.gen == 0)
    slot.gen = 1;
  m_freeSlots.push_back(index);
  --m_live;
}

TimerId AsioTimers::schedule(Duration delay, std::function<void()> cb)
{
  if (delay < Duration::zero())
    delay = Duration::zero();
  TimePoint when = m_clock.now() + delay;
  uint32_t index;
  if (!m_freeSlots.empty()) {
    index = m_freeSlots.back();
    m_freeSlots.pop_back();
  }
  else {
    index = static_cast<uint32_t>(m_slots.size());
    m_slots.emplace_back();
  }
  Slot& slot = m_slots[index];
  slot.cb = std::move(cb);
  slot.live = true;
  ++m_live;
  TimerId id = (static_cast<uint64_t>(slot.gen) << 32) | (static_cast<uint64_t>(index) + 1);
  m_heap.push_back({when, m_nextSeq++, id});
  std::push_heap(m_heap.begin(), m_heap.end(), Later{});
  if (!m_inExpiry && when < m_armedAt)
    arm();
  return id;
}

void AsioTimers::cancel(TimerId id)
{
  if (!isLive(id))
    return;
  freeSlot(slotOf(id));
  // The heap entry stays until it surfaces; rebuild when stale entries dominate.
  if (m_heap.size() > 1024 && m_heap.size() > 2 * m_live + 1024)
    compact();
}

void AsioTimers::popStale()
{
  while (!m_heap.empty() && !isLive(m_heap.front().id)) {
    std::pop_heap(m_heap.begin(), m_heap.end(), Later{});
    m_heap.pop_back();
  }
}

void AsioTimers::compact()
{
  std::erase_if(m_heap, [this](const Entry& e) { return !isLive(e.id); });
  std::make_heap(m_heap.begin(), m_heap.end(), Later{});
}

void AsioTimers::arm()
{
  popStale();
  if (m_heap.empty()) {
    // Leave any outstanding wait to expire harmlessly; its sequence check ignores it.
    return;
  }
  TimePoint when = m_heap.front().when;
  if (when >= m_armedAt)
    return;
  m_armedAt = when;
  m_timer.expires_at(toSteady(when));
  uint64_t seq = ++m_waitSeq;
  m_timer.async_wait([this, seq](const std::error_code& ec) {
    if (ec) // aborted: re-armed, or the timer is being destroyed
      return;
    onExpiry(seq);
  });
}

void AsioTimers::onExpiry(uint64_t waitSeq)
{
  if (waitSeq != m_waitSeq)
    return;
  m_armedAt = TimePoint::max();
  m_inExpiry = true;
  ++m_wakeups;
  // Timers scheduled by callbacks run in a later round even when already due, so a callback
  // that keeps rescheduling itself with zero delay cannot starve I/O.
  TimePoint now = m_clock.now();
  uint64_t seqLimit = m_nextSeq;
  while (!m_heap.empty() && m_heap.front().when <= now && m_heap.front().seq < seqLimit) {
    Entry e = m_heap.front();
    std::pop_heap(m_heap.begin(), m_heap.end(), Later{});
    m_heap.pop_back();
    if (!isLive(e.id))
      continue;
    uint32_t s = slotOf(e.id);
    auto cb = std::move(m_slots[s].cb);
    freeSlot(s);
    cb();
  }
  m_inExpiry = false;
  arm();
}

// --- SpdLog --------------------------------------------------------------------------------

namespace {

spdlog::level::level_enum toSpd(LogLevel l)
{
  switch (l) {
    case LogLevel::Trace: return spdlog::level::trace;
    case LogLevel::Debug: return spdlog::level::debug;
    case LogLevel::Info: return spdlog::level::info;
    case LogLevel::Warn: return spdlog::level::warn;
    case LogLevel::Error: return spdlog::level::err;
    case LogLevel::Off: return spdlog::level::off;
  }
  return spdlog::level::info;
}

} // namespace

SpdLog::SpdLog(LogLevel level, const std::string& file) : m_level(level)
{
  spdlog::sink_ptr sink;
  if (file.empty())
    sink = std::make_shared<spdlog::sinks::stderr_color_sink_st>();
  else
    sink = std::make_shared<spdlog::sinks::basic_file_sink_st>(file, false);
  m_logger = std::make_shared<spdlog::logger>("ndnlab", std::move(sink));
  m_logger->set_pattern("%Y-%m-%d %H:%M:%S.%f %^%-5l%$ %v");
  m_logger->set_level(toSpd(level));
  m_logger->flush_on(spdlog::level::warn);
}

SpdLog::~SpdLog()
{
  if (m_logger)
    m_logger->flush();
}

void SpdLog::write(LogLevel level, std::string_view module, std::string_view message)
{
  m_logger->log(toSpd(level), "[{}] {}", module, message);
}

void SpdLog::setLevel(LogLevel level)
{
  m_level = level;
  m_logger->set_level(toSpd(level));
}

void SpdLog::flush()
{
  m_logger->flush();
}

bool parseLogLevel(std::string_view text, LogLevel& out)
{
  static constexpr std::pair<std::string_view, LogLevel> table[] = {
    {"trace", LogLevel::Trace}, {"debug", LogLevel::Debug}, {"info", LogLevel::Info},
    {"warn", LogLevel::Warn},   {"error", LogLevel::Error}, {"off", LogLevel::Off},
  };
  for (auto [name, level] : table) {
    if (name == text) {
      out = level;
      return true;
    }
  }
  return false;
}

std::string_view toString(LogLevel level)
{
  switch (level) {
    case LogLevel::Trace: return "trace";
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Warn: return "warn";
    case LogLevel::Error: return "error";
    case LogLevel::Off: return "off";
  }
  return "info";
}

// --- CountingTrace -------------------------------------------------------------------------

CountingTrace::CountingTrace(bool count, const std::string& file) : m_count(count)
{
  if (!file.empty()) {
    m_fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0)
      throw std::runtime_error("cannot open trace file " + file + ": " + std::strerror(errno));
    m_buf.reserve(FlushBytes + 1024);
  }
}

CountingTrace::~CountingTrace()
{
  cancelFlushTimer();
  flush();
  if (m_fd >= 0)
    ::close(m_fd);
}

namespace {

void appendJsonString(std::string& out, std::string_view s)
{
  out.push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\')
      out.push_back('\\');
    if (static_cast<unsigned char>(c) < 0x20) {
      char esc[16];
      std::snprintf(esc, sizeof(esc), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out.append(esc);
    }
    else
      out.push_back(c);
  }
  out.push_back('"');
}

} // namespace

uint64_t& CountingTrace::counterFor(std::string_view kind, std::string_view reason)
{
  auto h =
    reinterpret_cast<uintptr_t>(kind.data()) * 0x9E3779B97F4A7C15ULL ^ reinterpret_cast<uintptr_t>(reason.data());
  FastSlot& slot = m_fast[(h >> 7) % m_fast.size()];
  if (slot.entry != nullptr && slot.kind == kind.data() && slot.reason == reason.data()) {
    const std::string& key = slot.entry->first;
    size_t expected = kind.size() + (reason.empty() ? 0 : reason.size() + 1);
    if (key.size() == expected && key.compare(0, kind.size(), kind) == 0 &&
        (reason.empty() || key.compare(kind.size() + 1, reason.size(), reason) == 0))
      return slot.entry->second;
  }
  m_key.assign(kind);
  if (!reason.empty()) {
    m_key.push_back('/');
    m_key.append(reason);
  }
  auto it = m_counts.find(std::string_view(m_key));
  if (it == m_counts.end())
    it = m_counts.emplace(m_key, 0).first;
  slot = FastSlot{kind.data(), reason.data(), &*it};
  return it->second;
}

void CountingTrace::emit(TimePoint when, const TraceEvent& e)
{
  if (m_count)
    ++counterFor(toString(e.kind), e.reason);
  if (m_fd < 0)
    return;
  if (!m_started) {
    m_start = when;
    m_started = true;
  }
  char num[96];
  std::snprintf(num, sizeof(num), "{\"t\":%.9f,\"kind\":", toSeconds(when - m_start));
  m_buf.append(num);
  appendJsonString(m_buf, toString(e.kind));
  std::snprintf(num, sizeof(num), ",\"face\":%llu,\"reason\":", static_cast<unsigned long long>(e.face));
  m_buf.append(num);
  appendJsonString(m_buf, e.reason);
  std::snprintf(num, sizeof(num), ",\"value\":%lld,\"value2\":%.17g}\n", static_cast<long long>(e.value), e.value2);
  m_buf.append(num);
  if (m_buf.size() >= FlushBytes) {
    flush();
    return;
  }
  if (m_timers == nullptr || m_flushInterval <= Duration::zero())
    return;
  scheduleFlush(when, info(e.kind).isDrop ? std::min(m_dropFlushDelay, m_flushInterval) : m_flushInterval);
}

void CountingTrace::scheduleFlush(TimePoint now, Duration delay)
{
  if (m_flushTimer != 0 && m_flushAt <= now + delay)
    return; // an earlier flush is due anyway
  cancelFlushTimer();
  m_flushAt = now + delay;
  m_flushTimer = m_timers->schedule(delay, [this] {
    m_flushTimer = 0;
    m_flushAt = TimePoint::max();
    flush();
  });
}

void CountingTrace::cancelFlushTimer()
{
  if (m_flushTimer != 0 && m_timers != nullptr)
    m_timers->cancel(m_flushTimer);
  m_flushTimer = 0;
  m_flushAt = TimePoint::max();
}

void CountingTrace::setFlushTimers(Timers* timers, Duration interval, Duration dropDelay)
{
  cancelFlushTimer();
  m_timers = timers;
  m_flushInterval = interval;
  m_dropFlushDelay = dropDelay;
}

uint64_t CountingTrace::count(EventKind k, std::string_view reason) const
{
  const std::string_view kind = toString(k);
  if (!reason.empty()) {
    std::string key(kind);
    key.push_back('/');
    key.append(reason);
    auto it = m_counts.find(std::string_view(key));
    return it == m_counts.end() ? 0 : it->second;
  }
  uint64_t n = 0;
  for (const auto& [key, c] : m_counts) {
    std::string_view k = key;
    if (k == kind || (k.size() > kind.size() && k.substr(0, kind.size()) == kind && k[kind.size()] == '/'))
      n += c;
  }
  return n;
}

std::map<std::string, uint64_t> CountingTrace::snapshot() const
{
  return {m_counts.begin(), m_counts.end()};
}

void CountingTrace::flush()
{
  if (m_fd < 0 || m_buf.empty())
    return;
  // The buffer holds whole lines only; a short write is continued, an error loses the batch
  // (the counters are unaffected).
  size_t done = 0;
  while (done < m_buf.size()) {
    ssize_t n = ::write(m_fd, m_buf.data() + done, m_buf.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    done += static_cast<size_t>(n);
  }
  m_buf.clear();
}

// --- AsioEnv -------------------------------------------------------------------------------

namespace {

uint64_t pickSeed(uint64_t seed)
{
  if (seed != 0)
    return seed;
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

} // namespace

AsioEnv::AsioEnv(asio::io_context& io, const AsioEnvOptions& options)
  : m_io(io),
    m_timers(io, m_clock),
    m_seed(pickSeed(options.seed)),
    m_rng(m_seed),
    m_log(options.logLevel, options.logFile),
    m_trace(options.traceCounters, options.traceFile)
{
  m_trace.setFlushTimers(&m_timers, options.traceFlushInterval, options.traceDropFlushDelay);
  m_trace.setStart(now()); // t = seconds since the process's environment began, not since its first event
}

AsioEnv::~AsioEnv()
{
  m_trace.setFlushTimers(nullptr, Duration::zero(), Duration::zero()); // before m_timers goes
  m_trace.flush();
}

} // namespace ndnlab::io
