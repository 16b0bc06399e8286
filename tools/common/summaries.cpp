#include "tools/common/summaries.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <sstream>

namespace ndnlab::tools {

std::string formatFixed(double v, int precision)
{
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", precision, v);
  return buf;
}

std::string formatRate(Rate r)
{
  static const char* const units[] = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
  double v = r.bps();
  int pow = 0;
  while (v >= 1000.0 && pow < 4) {
    v /= 1000.0;
    ++pow;
  }
  return formatFixed(v, 6) + " " + units[pow];
}

std::optional<uint64_t> parseBitRate(std::string_view text)
{
  std::string s(text);
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  }
  catch (const std::exception&) {
    return std::nullopt;
  }
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])) || !std::isfinite(v))
    return std::nullopt; // no sign, no leading blank, no "inf"
  std::string rest = s.substr(used);
  for (char& c : rest)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double scale = 1;
  if (!rest.empty() && (rest[0] == 'k' || rest[0] == 'm' || rest[0] == 'g')) {
    scale = rest[0] == 'k' ? 1e3 : rest[0] == 'm' ? 1e6 : 1e9;
    rest.erase(0, 1);
  }
  if (!(rest.empty() || rest == "bit/s" || rest == "bps" || rest == "bit" || rest == "b/s"))
    return std::nullopt;
  const double bps = v * scale;
  if (bps >= 1.8e19)
    return std::nullopt;
  return static_cast<uint64_t>(std::llround(bps));
}

std::string formatFetchSummary(const app::FetchStats& s, bool adaptive)
{
  std::ostringstream os;
  os << "\n\nAll segments have been received.\n"
     << "Time elapsed: " << formatFixed(toSeconds(s.elapsed), 6) << " seconds\n"
     << "Segments received: " << s.segments << "\n"
     << "Transferred size: " << formatFixed(static_cast<double>(s.bytes.count()) / 1e3, 3) << " kB\n"
     << "Goodput: " << formatRate(s.goodput()) << "\n";
  if (adaptive) {
    double pct = s.interestsSent == 0
                   ? 0.0
                   : 100.0 * static_cast<double>(s.retransmissions) / static_cast<double>(s.interestsSent);
    os << "Congestion marks: " << s.marks << " (caused " << s.markDecreases << " window decreases)\n"
       << "Timeouts: " << s.timeouts << ", losses found by Data order: " << s.lostByOrder << " (caused "
       << s.lossDecreases << " window decreases)\n"
       << "Retransmitted segments: " << s.retransmissions << " (" << formatFixed(pct, 6) << "%)"
       << ", skipped: " << s.skippedRetx << "\n";
  }
  os << "RTT ";
  if (s.rttSamples == 0)
    os << "stats unavailable\n";
  else
    os << "min/avg/max = " << formatFixed(toMillis(s.rttMin), 3) << "/" << formatFixed(toMillis(s.rttAvg), 3) << "/"
       << formatFixed(toMillis(s.rttMax), 3) << " ms\n";
  return os.str();
}

std::string formatPingSummary(const Name& prefix, const app::PingStats& s, Duration elapsed)
{
  std::ostringstream os;
  os << "\n--- " << prefix.toUri() << " ping statistics ---\n"
     << s.sent << " packets transmitted, " << s.received << " received, " << formatFixed(s.lossPercent(), 0)
     << "% lost, " << formatFixed(s.nackPercent(), 0) << "% nacked, time " << formatFixed(toMillis(elapsed), 0)
     << " ms\n";
  if (s.received > 0) {
    os << "rtt min/avg/max/mdev = " << formatFixed(toMillis(s.rttMin), 3) << "/" << formatFixed(s.rttAvgMs(), 3) << "/"
       << formatFixed(toMillis(s.rttMax), 3) << "/" << formatFixed(s.rttMdevMs(), 3) << " ms\n";
  }
  return os.str();
}

std::string formatPingJson(const Name& prefix, const app::PingStats& s, Duration elapsed)
{
  auto rtt = [&s](double ms) { return s.received > 0 ? nlohmann::json(ms) : nlohmann::json(nullptr); };
  nlohmann::ordered_json j;
  j["status"] = s.received > 0 ? "ok" : "error";
  j["prefix"] = prefix.toUri();
  j["pings_sent"] = s.sent;
  j["pings_received"] = s.received;
  j["pings_nacked"] = s.nacked;
  j["pings_timed_out"] = s.timeouts;
  j["loss_percent"] = s.lossPercent();
  j["nack_percent"] = s.nackPercent();
  j["rtt_min_ms"] = rtt(toMillis(s.rttMin));
  j["rtt_avg_ms"] = rtt(s.rttAvgMs());
  j["rtt_max_ms"] = rtt(toMillis(s.rttMax));
  j["rtt_mdev_ms"] = rtt(s.rttMdevMs());
  j["elapsed_s"] = toSeconds(elapsed);
  return j.dump();
}

} // namespace ndnlab::tools
