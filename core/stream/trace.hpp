#pragma once
// The consumer's series files, NDN-RTC's Figs. 21 and 25 (Gusev et al., Sect. 5.2.1, 5.2.3),
// written alike by ns-3's scenarios (ns3/ndnlab/scenarios/stream-kit.hpp, StreamTraceFiles)
// and `ndnlab stream play --trace-dir` (tools/stream/stream.cpp):
// - stream-arrivals.csv: one row per frame arrival the stability estimator sees, the columns
//   of visitArrival (core/stream/consumer.hpp);
// - stream-series.csv: one row per second of the consumer's run, the columns of visitSecond.
// The host gives the count of link octets (ns-3: the frames the link toward the consumer sent;
// the tool: the octets its network interfaces received); nothing here asks the world.

#include "core/stream/consumer.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace ndnlab::stream {

inline constexpr std::string_view ArrivalsFile = "stream-arrivals.csv";
inline constexpr std::string_view SeriesFile = "stream-series.csv";

/// One second of a consumer's run: its state at the end of the second and what arrived in it.
struct StreamSecond
{
  double time = 0;        ///< s since the consumer started: the end of the second
  std::string_view state; ///< at the end of the second (toString)
  std::string thread;     ///< played at the end of the second
  Bytes payload;          ///< segment payload received in the second, every thread
  Bytes challenge;        ///< of it, a Challenge's additional media
  Bytes link;             ///< octets the link toward the consumer carried in the second
};

/// Calls v(column, value) for each field of a StreamSecond, in column order; `value` is a
/// double or std::string_view. Octets are given as kbit/s of their second.
template<typename Visitor>
void visitSecond(const StreamSecond& s, Visitor&& v)
{
  using fields::Metric;
  const auto kbps = [](Bytes b) { return static_cast<double>(b.count()) * 8 / 1000; };
  v(Metric{"time_s", "s", "since the consumer started, the end of the second"}, s.time);
  v(Metric{"state", "", "consumer state at the end of the second"}, s.state);
  v(Metric{"thread", "", "thread played at the end of the second"}, std::string_view(s.thread));
  v(Metric{"payload_kbps", "kbit/s", "segment payload received in the second, every thread"}, kbps(s.payload));
  v(Metric{"challenge_kbps", "kbit/s", "of it, a Challenge's additional media"}, kbps(s.challenge));
  v(Metric{"link_kbps", "kbit/s", "octets the link toward the consumer carried in the second, headers included"},
    kbps(s.link));
}

/// Turns the consumer's cumulative counters and the host's count of link octets into one
/// StreamSecond per call, each call the end of the next second.
class SecondSeries
{
public:
  /// `linkOctets`: the host's count when the consumer starts.
  explicit SecondSeries(uint64_t linkOctets = 0) : m_link(linkOctets) {}

  /// The second that ends now: `stats` and `state` the consumer's now, `linkOctets` the host's
  /// count now (a count that went down counts 0).
  StreamSecond next(const StreamConsumerStats& stats, std::string_view state, uint64_t linkOctets);

private:
  double m_t = 0;
  uint64_t m_bytes = 0, m_challenge = 0, m_link;
};

/// The CSV header line of stream-arrivals.csv (the keys of visitArrival) and one row of it.
void writeArrivalsHeader(std::ostream& out);
void writeArrival(std::ostream& out, const FrameArrival& a);
/// The CSV header line of stream-series.csv (the keys of visitSecond) and one row of it.
void writeSeriesHeader(std::ostream& out);
void writeSecond(std::ostream& out, const StreamSecond& s);

} // namespace ndnlab::stream
