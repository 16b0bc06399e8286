#include "core/app/fetch-stats.hpp"

#include <cstdio>
#include <sstream>

namespace ndnlab::app {

std::string
formatFixed(double v, int precision)
{
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", precision, v);
  return buf;
}

namespace {

void
jsonString(std::ostringstream& os, std::string_view s)
{
  os << '"';
  for (char c : s) {
    switch (c) {
      case '"': os << "\\\""; break;
      case '\\': os << "\\\\"; break;
      case '\n': os << "\\n"; break;
      case '\r': os << "\\r"; break;
      case '\t': os << "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          os << buf;
        }
        else {
          os << c;
        }
    }
  }
  os << '"';
}

} // namespace

std::string
formatRate(Rate r)
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

std::string
formatSummary(const FetchStats& s, bool adaptive)
{
  std::ostringstream os;
  os << "\n\nAll segments have been received.\n"
     << "Time elapsed: " << formatFixed(toSeconds(s.elapsed), 6) << " seconds\n"
     << "Segments received: " << s.segments << "\n"
     << "Transferred size: " << formatFixed(static_cast<double>(s.bytes.count()) / 1e3, 3) << " kB\n"
     << "Goodput: " << formatRate(s.goodput()) << "\n";
  if (adaptive) {
    double pct = s.interestsSent == 0 ? 0.0 : 100.0 * static_cast<double>(s.retransmissions) /
                                                 static_cast<double>(s.interestsSent);
    os << "Congestion marks: " << s.marks << " (caused " << s.markDecreases << " window decreases)\n"
       << "Timeouts: " << s.timeouts << ", losses found by Data order: " << s.lostByOrder
       << " (caused " << s.lossDecreases << " window decreases)\n"
       << "Retransmitted segments: " << s.retransmissions << " (" << formatFixed(pct, 6) << "%)"
       << ", skipped: " << s.skippedRetx << "\n";
  }
  os << "RTT ";
  if (s.rttSamples == 0)
    os << "stats unavailable\n";
  else
    os << "min/avg/max = " << formatFixed(toMillis(s.rttMin), 3) << "/" << formatFixed(toMillis(s.rttAvg), 3)
       << "/" << formatFixed(toMillis(s.rttMax), 3) << " ms\n";
  return os.str();
}

std::string
toJson(const FetchStats& s, std::string_view status, std::string_view error)
{
  std::ostringstream os;
  os << "{\"status\":";
  jsonString(os, status);
  if (!error.empty()) {
    os << ",\"error\":";
    jsonString(os, error);
  }
  os << ",\"name\":";
  jsonString(os, s.versionedName.toUri());
  os << ",\"pipeline\":";
  jsonString(os, s.pipeline);
  os << ",\"discovery_s\":" << formatFixed(toSeconds(s.discoveryTime), 6)
     << ",\"elapsed_s\":" << formatFixed(toSeconds(s.elapsed), 6)
     << ",\"segments\":" << s.segments
     << ",\"bytes\":" << s.bytes.count()
     << ",\"goodput_bps\":" << formatFixed(s.goodput().bps(), 1)
     << ",\"interests\":" << s.interestsSent
     << ",\"retransmissions\":" << s.retransmissions
     << ",\"skipped_retx\":" << s.skippedRetx
     << ",\"timeouts\":" << s.timeouts
     << ",\"lost_by_order\":" << s.lostByOrder
     << ",\"probes\":" << s.probes
     << ",\"nacks\":" << s.nacks
     << ",\"marks\":" << s.marks
     << ",\"mark_decreases\":" << s.markDecreases
     << ",\"loss_decreases\":" << s.lossDecreases
     << ",\"hystart_exits\":" << s.hystartExits
     << ",\"unexpected_data\":" << s.unexpectedData
     << ",\"rtt_samples\":" << s.rttSamples
     << ",\"rtt_min_ms\":" << formatFixed(toMillis(s.rttMin), 3)
     << ",\"rtt_avg_ms\":" << formatFixed(toMillis(s.rttAvg), 3)
     << ",\"rtt_max_ms\":" << formatFixed(toMillis(s.rttMax), 3)
     << ",\"cwnd\":" << formatFixed(s.cwnd, 3)
     << ",\"rto_ms\":" << formatFixed(toMillis(s.rto), 3) << "}";
  return os.str();
}

} // namespace ndnlab::app
