// The consumer's series files (core/stream/trace.hpp): the headers are the visitors' keys, the
// rows their values, and SecondSeries turns cumulative counters into per-second kbit/s.

#include "core/stream/trace.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace ndnlab::stream::tests {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> split(const std::string& line)
{
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ','))
    out.push_back(cell);
  return out;
}

std::vector<std::string> lines(const std::string& text)
{
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line))
    out.push_back(line);
  return out;
}

StreamConsumerStats counters(uint64_t bytes, uint64_t challenge, std::string thread)
{
  StreamConsumerStats s;
  s.bytes = Bytes(bytes);
  s.challengeBytes = Bytes(challenge);
  s.thread = std::move(thread);
  return s;
}

TEST(StreamTraceTest, ArrivalsHeaderIsTheKeysOfVisitArrival)
{
  std::vector<std::string> keys;
  visitArrival(FrameArrival{}, [&](const fields::Metric& m, const auto&) { keys.emplace_back(m.key); });
  std::ostringstream out;
  writeArrivalsHeader(out);
  FrameArrival a{.at = 1500ms,
                 .type = FrameType::Key,
                 .number = 7,
                 .arrival = 40ms,
                 .drd = 120ms,
                 .drdEst = 100ms,
                 .generationDelay = 20ms,
                 .pipeline = 4,
                 .state = "fetching"};
  writeArrival(out, a);
  const auto rows = lines(out.str());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(split(rows[0]), keys);
  EXPECT_EQ(split(rows[1]),
            (std::vector<std::string>{"1500", "key", "7", "40", "120", "100", "20", "4", "fetching", "0"}));
  a.arrival.reset();
  std::ostringstream none;
  writeArrival(none, a);
  EXPECT_EQ(split(lines(none.str())[0])[3], "-1") << "no D_arr after a (re)bootstrap";
}

TEST(StreamTraceTest, SeriesRowsAreEachSecondsKilobitsFromTheCountersAtTheStart)
{
  std::ostringstream out;
  writeSeriesHeader(out);
  SecondSeries series(1'000'000); // the link had carried 1 MB before the consumer started
  writeSecond(out, series.next(counters(12'500, 0, "200k"), "chasing", 1'015'000));
  writeSecond(out, series.next(counters(62'500, 25'000, "200k"), "challenge", 1'090'000));
  writeSecond(out, series.next(counters(62'500, 25'000, "1000k"), "wait-initial", 1'090'000));
  const auto rows = lines(out.str());
  ASSERT_EQ(rows.size(), 4u);
  std::vector<std::string> keys;
  visitSecond(StreamSecond{}, [&](const fields::Metric& m, const auto&) { keys.emplace_back(m.key); });
  EXPECT_EQ(split(rows[0]), keys);
  EXPECT_EQ(rows[0], "time_s,state,thread,payload_kbps,challenge_kbps,link_kbps");
  EXPECT_EQ(rows[1], "1,chasing,200k,100,0,120");
  EXPECT_EQ(rows[2], "2,challenge,200k,400,200,600");
  EXPECT_EQ(rows[3], "3,wait-initial,1000k,0,0,0") << "a second without arrivals";
}

TEST(StreamTraceTest, ACounterThatWentBackCountsNothing)
{
  SecondSeries series(5000);
  const StreamSecond s = series.next(counters(0, 0, ""), "chasing", 4000);
  EXPECT_EQ(s.link, Bytes(0));
  EXPECT_EQ(series.next(counters(0, 0, ""), "chasing", 5000).link, Bytes(1000)) << "counted from the lower value";
}

} // namespace
} // namespace ndnlab::stream::tests
