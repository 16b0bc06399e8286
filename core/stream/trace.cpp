#include "core/stream/trace.hpp"

namespace ndnlab::stream {

namespace {

/// The keys `visit` passes for a default row, comma-separated, as one line.
template<typename Row, typename Visit>
void writeKeys(std::ostream& out, Visit visit)
{
  const char* sep = "";
  visit(Row{}, [&](const fields::Metric& m, const auto&) {
    out << sep << m.key;
    sep = ",";
  });
  out << '\n';
}

/// The values `visit` passes for `row`, comma-separated, as one line.
template<typename Row, typename Visit>
void writeValues(std::ostream& out, const Row& row, Visit visit)
{
  const char* sep = "";
  visit(row, [&](const fields::Metric&, const auto& v) {
    out << sep << v;
    sep = ",";
  });
  out << '\n';
}

const auto arrivalColumns = [](const FrameArrival& a, auto&& v) { visitArrival(a, v); };
const auto secondColumns = [](const StreamSecond& s, auto&& v) { visitSecond(s, v); };

uint64_t since(uint64_t now, uint64_t before)
{
  return now >= before ? now - before : 0;
}

} // namespace

StreamSecond SecondSeries::next(const StreamConsumerStats& stats, std::string_view state, uint64_t linkOctets)
{
  const uint64_t bytes = stats.bytes.count(), challenge = stats.challengeBytes.count();
  m_t += 1;
  StreamSecond s{.time = m_t,
                 .state = state,
                 .thread = stats.thread,
                 .payload = Bytes(since(bytes, m_bytes)),
                 .challenge = Bytes(since(challenge, m_challenge)),
                 .link = Bytes(since(linkOctets, m_link))};
  m_bytes = bytes;
  m_challenge = challenge;
  m_link = linkOctets;
  return s;
}

void writeArrivalsHeader(std::ostream& out)
{
  writeKeys<FrameArrival>(out, arrivalColumns);
}

void writeArrival(std::ostream& out, const FrameArrival& a)
{
  writeValues(out, a, arrivalColumns);
}

void writeSeriesHeader(std::ostream& out)
{
  writeKeys<StreamSecond>(out, secondColumns);
}

void writeSecond(std::ostream& out, const StreamSecond& s)
{
  writeValues(out, s, secondColumns);
}

} // namespace ndnlab::stream
