#pragma once
// What `ndnlab perf` client and server agree on (docs/tools.md, "ndnlab perf"): the names of
// generated Data, the header at the start of their content, and the final stats exchange.
// Also the two jitter estimators the client reports.
//
// Names (all components generic, numbers in decimal):
//   <prefix>/<session>/<flow>/<payload>/<total>/seg=<k>   Data of flow <flow>
//   <prefix>/<session>/stats                              the server's figures for <session>
// <session> is 16 lowercase hex digits chosen at random by the client for each run; <payload>
// is the content bytes of every segment (the client's -l; the server answers any size up to
// its --max-payload); <total> is the flow's content bytes (the client's -n share), 0 for an
// endless flow. With <total> > 0 every segment carries FinalBlockId = the last segment
// ceil(total / payload) - 1, and the last segment holds what is left, so a flow ends exactly
// after <total> bytes.
//
// Content header (big-endian, the first 16 bytes of every segment; the rest is zeros):
//   0..7   the producer's timestamp: nanoseconds of the server's monotonic clock when it made
//          the Data (only differences between two Data of one session are meaningful)
//   8..15  the segment number
// A segment shorter than 16 bytes (the last one of a flow with <total>) carries the part of the
// header that fits and gives no jitter sample.
//
// Stats reply (Content of <prefix>/<session>/stats): ASCII lines `key value`, unsigned decimal
// values, unknown keys ignored: interests, data, bytes (content bytes), nacks (for the
// session), elapsed_ns (first Interest of the session to the stats Interest), cpu_user_ns,
// cpu_system_ns (the server process's CPU time over elapsed_ns; absent when unknown), and per
// flow `flow_data.<flow>` and `flow_bytes.<flow>` (the first MaxReportedFlows flows of the
// session).

#include "core/codec/name.hpp"
#include "core/runtime/units.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ndnlab::app::perf {

inline constexpr size_t HeaderSize = 16;
inline constexpr std::string_view StatsKeyword = "stats";
/// Flows of a session the server reports one by one (the client runs at most this many).
inline constexpr size_t MaxReportedFlows = 128;

/// A process's CPU time, as the shell measures it (getrusage); core never asks the OS.
struct CpuTimes
{
  Duration user{0};
  Duration system{0};
};

/// One flow's Data name without the segment: <prefix>/<session>/<flow>/<payload>/<total>.
Name flowName(const Name& prefix, uint64_t session, uint64_t flow, uint64_t payload, uint64_t total);
/// <prefix>/<session>/stats
Name statsName(const Name& prefix, uint64_t session);
/// 16 lowercase hex digits.
std::string sessionText(uint64_t session);

/// What a Data or stats name under `prefix` asks for; nullopt when it is neither (a malformed
/// request: not decimal, a number that does not fit, a missing or extra component).
struct Request
{
  uint64_t session = 0;
  bool stats = false;
  uint64_t flow = 0;
  uint64_t payload = 0;
  uint64_t total = 0;
  uint64_t segment = 0;
};
std::optional<Request> parseRequest(const Name& prefix, const Name& name);

/// Writes the header of segment `seg` made at `stamp` into the first min(16, size) bytes of buf.
void writeHeader(uint8_t* buf, size_t size, Duration stamp, uint64_t seg);
/// The producer timestamp of a content, when it holds a whole header.
std::optional<Duration> readTimestamp(ByteSpan content);

/// The server's figures of one session (the stats reply).
struct ServerReport
{
  struct Flow
  {
    uint64_t data = 0;
    uint64_t bytes = 0;
  };
  uint64_t interests = 0;
  uint64_t data = 0;
  uint64_t bytes = 0;
  uint64_t nacks = 0;
  Duration elapsed{0};
  std::optional<CpuTimes> cpu;
  std::map<uint64_t, Flow> flows; ///< by flow number
};
std::string encodeServerReport(const ServerReport& r);
/// Nullopt when a line is malformed or a required key (interests, data, bytes, elapsed_ns) is missing.
std::optional<ServerReport> decodeServerReport(std::string_view text);

/// RFC 3550 section 6.4.1 interarrival jitter (as iperf3's UDP test): for consecutive packets
/// i, j in arrival order, D = (Rj - Ri) - (Sj - Si) with R the arrival and S the sender's
/// timestamp; J += (|D| - J) / 16. The first packet only sets the reference.
class InterarrivalJitter
{
public:
  void add(Duration arrival, Duration sent)
  {
    const double transit = static_cast<double>((arrival - sent).count());
    if (m_samples++ > 0)
      m_jitterNs += (std::abs(transit - m_prevTransit) - m_jitterNs) / 16.0;
    m_prevTransit = transit;
  }
  /// Milliseconds.
  double jitterMs() const { return m_jitterNs / 1e6; }
  uint64_t samples() const { return m_samples; }

private:
  double m_prevTransit = 0;
  double m_jitterNs = 0;
  uint64_t m_samples = 0;
};

/// Cefore's cefgetfile "Jitter" (docs/tools.md): the gaps between consecutive arrivals in
/// microseconds; Ave = sum of gaps / frames (frames, not gaps, as cefgetfile divides), Max =
/// the largest gap, Var = sum of squared gaps / frames - Ave^2.
class CeforeInterarrival
{
public:
  void add(Duration arrival)
  {
    if (m_frames++ > 0) {
      const double gapUs = static_cast<double>((arrival - m_prev).count()) / 1e3;
      m_sum += gapUs;
      m_sumSq += gapUs * gapUs;
      m_max = std::max(m_max, gapUs);
    }
    m_prev = arrival;
  }
  uint64_t frames() const { return m_frames; }
  double averageUs() const { return m_frames ? m_sum / static_cast<double>(m_frames) : 0; }
  double maxUs() const { return m_max; }
  double varianceUs2() const
  {
    if (m_frames == 0)
      return 0;
    const double ave = averageUs();
    return m_sumSq / static_cast<double>(m_frames) - ave * ave;
  }

private:
  Duration m_prev{0};
  uint64_t m_frames = 0;
  double m_sum = 0;
  double m_sumSq = 0;
  double m_max = 0;
};

} // namespace ndnlab::app::perf
