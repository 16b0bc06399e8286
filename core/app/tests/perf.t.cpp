#include "core/app/perf-client.hpp"
#include "core/app/perf-server.hpp"
#include "core/app/tests/test-link.hpp"

#include <gtest/gtest.h>

#include <set>

namespace ndnlab::app {
namespace {

using namespace std::chrono_literals;
using test::FakeEndpoint;
using test::Link;

// --- the protocol ------------------------------------------------------------------------------

TEST(PerfProtocol, NamesRoundTrip)
{
  const Name prefix("/lab/perf");
  Name n = perf::flowName(prefix, 0x0123456789abcdefULL, 2, 1200, 5000);
  EXPECT_EQ(n, Name("/lab/perf/0123456789abcdef/2/1200/5000"));
  n.appendSegment(7);
  auto r = perf::parseRequest(prefix, n);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->stats);
  EXPECT_EQ(r->session, 0x0123456789abcdefULL);
  EXPECT_EQ(r->flow, 2u);
  EXPECT_EQ(r->payload, 1200u);
  EXPECT_EQ(r->total, 5000u);
  EXPECT_EQ(r->segment, 7u);

  auto s = perf::parseRequest(prefix, perf::statsName(prefix, 42));
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->stats);
  EXPECT_EQ(s->session, 42u);
}

TEST(PerfProtocol, MalformedNamesAreNoRequests)
{
  const Name prefix("/lab/perf");
  for (const char* uri : {
         "/lab/perf",                                                 // nothing after the prefix
         "/lab/perf/0123456789abcdef",                                // session alone
         "/lab/perf/0123456789ABCDEF/stats",                          // upper-case hex
         "/lab/perf/0123/stats",                                      // short session
         "/lab/perf/0123456789abcdef/statz",                          // not the keyword
         "/lab/perf/0123456789abcdef/0/1200/0",                       // no segment
         "/lab/perf/0123456789abcdef/0/1200/0/7",                     // segment not typed
         "/lab/perf/0123456789abcdef/0/01200/0/seg=1",                // leading zero
         "/lab/perf/0123456789abcdef/-1/1200/0/seg=1",                // sign
         "/lab/perf/0123456789abcdef/0/99999999999999999999/0/seg=1", // beyond 64 bits
         "/lab/perf/0123456789abcdef/0/1200/0/seg=1/extra",           // extra component
         "/lab/other/0123456789abcdef/stats",                         // another prefix
       })
    EXPECT_FALSE(perf::parseRequest(prefix, Name(uri))) << uri;
}

TEST(PerfProtocol, HeaderCarriesTheTimestamp)
{
  Buffer b(20);
  perf::writeHeader(b.data(), b.size(), 123456789ns, 5);
  auto t = perf::readTimestamp(b);
  ASSERT_TRUE(t);
  EXPECT_EQ(*t, 123456789ns);
  Buffer shorter(10);
  perf::writeHeader(shorter.data(), shorter.size(), 1ns, 5); // writes what fits
  EXPECT_FALSE(perf::readTimestamp(shorter));
}

TEST(PerfProtocol, ServerReportRoundTripsAndRejectsGarbage)
{
  perf::ServerReport r;
  r.interests = 10;
  r.data = 9;
  r.bytes = 9000;
  r.nacks = 1;
  r.elapsed = 2s;
  r.cpu = perf::CpuTimes{300ms, 100ms};
  r.flows[0] = {4, 4000};
  r.flows[3] = {5, 5000};
  auto back = perf::decodeServerReport(perf::encodeServerReport(r));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->data, 9u);
  EXPECT_EQ(back->bytes, 9000u);
  EXPECT_EQ(back->elapsed, 2s);
  ASSERT_TRUE(back->cpu);
  EXPECT_EQ(back->cpu->user, 300ms);
  ASSERT_EQ(back->flows.size(), 2u);
  EXPECT_EQ(back->flows[3].data, 5u);
  EXPECT_EQ(back->flows[3].bytes, 5000u);

  EXPECT_FALSE(perf::decodeServerReport("interests 1\ndata 1\n"));                      // required keys missing
  EXPECT_FALSE(perf::decodeServerReport("interests x\ndata 1\nbytes 1\nelapsed_ns 1")); // not a number
  EXPECT_FALSE(perf::decodeServerReport("garbage"));
  EXPECT_FALSE(perf::decodeServerReport("interests 1\ndata 1\nbytes 1\nelapsed_ns 99999999999999999999"));
  EXPECT_TRUE(perf::decodeServerReport("interests 1\ndata 1\nbytes 1\nelapsed_ns 1\nfuture 3")); // unknown key
  EXPECT_FALSE(perf::decodeServerReport("interests 1\ndata 1\nbytes 1\nelapsed_ns 1\nflow_data.x 3"));
}

// --- jitter, against values computed by hand ---------------------------------------------------

TEST(PerfJitter, Rfc3550AgainstHandComputedValues)
{
  // sent at 0, 10, 20, 30 ms, arriving 5, 17, 24, 38 ms: transit 5, 7, 4, 8 ms, |D| = 2, 3, 4 ms
  // J1 = 2/16 = 0.125; J2 = 0.125 + (3 - 0.125)/16 = 0.3046875;
  // J3 = 0.3046875 + (4 - 0.3046875)/16 = 0.53564453125 (ms)
  perf::InterarrivalJitter j;
  const Duration sent[] = {0ms, 10ms, 20ms, 30ms};
  const Duration arrival[] = {5ms, 17ms, 24ms, 38ms};
  const double expected[] = {0, 0.125, 0.3046875, 0.53564453125};
  for (int i = 0; i < 4; ++i) {
    j.add(arrival[i] + 1h, sent[i]); // a clock offset between the two ends cancels
    EXPECT_NEAR(j.jitterMs(), expected[i], 1e-12) << i;
  }
  EXPECT_EQ(j.samples(), 4u);
}

TEST(PerfJitter, CeforeInterArrivalAgainstHandComputedValues)
{
  // arrivals 5, 17, 24, 38 ms: gaps 12000, 7000, 14000 us over 4 frames (cefgetfile divides by
  // frames): ave = 33000 / 4 = 8250, max = 14000,
  // var = (12000^2 + 7000^2 + 14000^2) / 4 - 8250^2 = 97250000 - 68062500 = 29187500
  perf::CeforeInterarrival c;
  for (Duration a : {5ms, 17ms, 24ms, 38ms})
    c.add(a);
  EXPECT_EQ(c.frames(), 4u);
  EXPECT_DOUBLE_EQ(c.averageUs(), 8250);
  EXPECT_DOUBLE_EQ(c.maxUs(), 14000);
  EXPECT_DOUBLE_EQ(c.varianceUs2(), 29187500);
}

// --- the server --------------------------------------------------------------------------------

class PerfServerTest : public ::testing::Test
{
protected:
  Interest interest(const Name& n)
  {
    Interest i(n);
    i.setNonce(++nonce);
    return i;
  }

  ManualEnv env;
  FakeEndpoint ep;
  security::DigestSigner signer;
  uint32_t nonce = 0;
};

TEST_F(PerfServerTest, MakesAnySegmentOfAnySessionOnDemand)
{
  PerfServer server(env, ep, Name("/lab/perf"), signer);
  env.advance(7ms);
  Name n = perf::flowName("/lab/perf", 1, 0, 100, 250);
  server.handleInterest(interest(Name(n).appendSegment(1)));
  server.handleInterest(interest(Name(n).appendSegment(2)));
  ASSERT_EQ(ep.sentData.size(), 2u);
  EXPECT_EQ(ep.sentData[0].content().size(), 100u);
  EXPECT_EQ(ep.sentData[1].content().size(), 50u); // what the total leaves
  ASSERT_TRUE(ep.sentData[0].finalBlockSegment());
  EXPECT_EQ(*ep.sentData[0].finalBlockSegment(), 2u);
  EXPECT_EQ(perf::readTimestamp(ep.sentData[0].content()), env.now().time_since_epoch());
  EXPECT_TRUE(security::verifyData(ep.sentData[0], security::DigestVerifier{}));

  // an endless flow of another session: no FinalBlockId
  server.handleInterest(interest(perf::flowName("/lab/perf", 2, 3, 1000, 0).appendSegment(1'000'000)));
  ASSERT_EQ(ep.sentData.size(), 3u);
  EXPECT_FALSE(ep.sentData[2].finalBlockSegment());
  EXPECT_EQ(server.counters().data, 3u);
  EXPECT_EQ(server.counters().bytes, 1150u);
  EXPECT_EQ(server.counters().sessions, 2u);
}

TEST_F(PerfServerTest, BadRequestsAreCountedNacks)
{
  PerfServer::Options o;
  o.maxPayload = 1000;
  PerfServer server(env, ep, Name("/lab/perf"), signer, o);
  server.handleInterest(interest(Name("/lab/perf/junk")));
  server.handleInterest(interest(perf::flowName("/lab/perf", 1, 0, 1001, 0).appendSegment(0)));
  server.handleInterest(interest(perf::flowName("/lab/perf", 1, 0, 100, 200).appendSegment(2)));
  server.handleInterest(interest(Name("/lab/elsewhere/x")));
  EXPECT_TRUE(ep.sentData.empty());
  EXPECT_EQ(ep.sentNacks.size(), 3u);
  const auto& c = server.counters();
  EXPECT_EQ(c.malformed, 1u);
  EXPECT_EQ(c.tooLarge, 1u);
  EXPECT_EQ(c.beyondEnd, 1u);
  EXPECT_EQ(c.ignored, 1u);
  EXPECT_EQ(c.nacks, 3u);
}

TEST_F(PerfServerTest, KeepsABoundedNumberOfSessions)
{
  PerfServer::Options o;
  o.maxSessions = 2;
  PerfServer server(env, ep, Name("/lab/perf"), signer, o);
  for (uint64_t s = 1; s <= 3; ++s)
    server.handleInterest(interest(perf::flowName("/lab/perf", s, 0, 100, 0).appendSegment(0)));
  // session 1 was forgotten: its stats start afresh, with only the stats Interest itself
  server.handleInterest(interest(perf::statsName("/lab/perf", 1)));
  auto r = perf::decodeServerReport(std::string(reinterpret_cast<const char*>(ep.sentData.back().content().data()),
                                                ep.sentData.back().content().size()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->data, 0u);
  EXPECT_EQ(server.counters().sessions, 4u);
}

// --- the client against the server, on the manual clock ------------------------------------------

class PerfClientTest : public ::testing::Test
{
protected:
  void SetUp() override
  {
    server = std::make_unique<PerfServer>(env, link.producer, Name("/lab/perf"), signer);
    // the server's process spends 1 ms of user and 2 ms of system CPU time per ms of the test
    server->cpuTimes = [this] {
      const auto t = env.now().time_since_epoch();
      return perf::CpuTimes{t / 1, t * 2};
    };
  }

  std::unique_ptr<PerfClient> make(PerfClient::Options o)
  {
    auto c = std::make_unique<PerfClient>(env, link.consumer, o);
    c->onDone = [this](const PerfReport& r) {
      report = r;
      ++doneCalls;
    };
    return c;
  }

  static PerfClient::Options fixedWindow(size_t n)
  {
    PerfClient::Options o;
    o.fetch.pipeline = "fixed";
    o.fetch.window.fixedSize = static_cast<double>(n);
    return o;
  }

  /// The flow a Data or Interest name belongs to.
  static uint64_t flowOf(const Name& n) { return perf::parseRequest("/lab/perf", n)->flow; }

  ManualEnv env;
  Link link{env, 5ms};
  security::DigestSigner signer;
  std::unique_ptr<PerfServer> server;
  std::optional<PerfReport> report;
  int doneCalls = 0;
};

TEST_F(PerfClientTest, IntervalsEndOnTheirBoundariesAndAddUpToTheTotal)
{
  auto o = fixedWindow(4);
  o.duration = 3s;
  o.interval = 1s;
  o.payload = 1000;
  auto c = make(o);
  std::vector<PerfInterval> live;
  c->onInterval = [&](const PerfInterval& iv) { live.push_back(iv); };
  c->start("/lab/perf");
  env.advance(10s);
  ASSERT_TRUE(report);
  EXPECT_EQ(doneCalls, 1);
  EXPECT_EQ(report->elapsed, 3s);
  ASSERT_EQ(report->intervals.size(), 3u);
  ASSERT_EQ(live.size(), 3u);
  uint64_t bytes = 0;
  for (size_t i = 0; i < 3; ++i) {
    const auto& iv = report->intervals[i];
    EXPECT_EQ(iv.start, std::chrono::seconds(i));
    EXPECT_EQ(iv.end, std::chrono::seconds(i + 1));
    ASSERT_EQ(iv.flows.size(), 1u);
    EXPECT_EQ(iv.sum.bytes, iv.flows[0].bytes);
    // 4 Interests per 10 ms round trip: 400 Data of 1000 bytes per second, give or take a window
    EXPECT_GE(iv.sum.bytes, 396'000u);
    EXPECT_LE(iv.sum.bytes, 404'000u);
    bytes += iv.sum.bytes;
  }
  EXPECT_EQ(bytes, report->sum.bytes);
  EXPECT_EQ(report->sum.lost, 0u);
  EXPECT_EQ(report->sum.rttMin, 10ms);
  EXPECT_EQ(report->sum.rttMax, 10ms);
  // the server sent what arrived and the Data still in flight when the test ended
  ASSERT_TRUE(report->server);
  EXPECT_GE(report->server->bytes, report->sum.bytes);
  EXPECT_LE(report->server->bytes, report->sum.bytes + 4 * 1000);
  ASSERT_TRUE(report->server->cpu);
  EXPECT_EQ(report->server->cpu->system, 2 * report->server->cpu->user);
}

TEST_F(PerfClientTest, BytesStopExactly)
{
  for (size_t parallel : {1u, 3u}) {
    report.reset();
    auto o = fixedWindow(8);
    o.bytes = 10'001;
    o.payload = 300;
    o.parallel = parallel;
    auto c = make(o);
    c->start("/lab/perf");
    env.advance(5s);
    ASSERT_TRUE(report) << parallel;
    EXPECT_FALSE(report->error);
    EXPECT_EQ(report->sum.bytes, 10'001u) << parallel;
    ASSERT_EQ(report->flows.size(), parallel);
    if (parallel == 3) {
      EXPECT_EQ(report->flows[0].bytes, 3334u);
      EXPECT_EQ(report->flows[1].bytes, 3334u);
      EXPECT_EQ(report->flows[2].bytes, 3333u);
    }
    ASSERT_TRUE(report->server);
    EXPECT_EQ(report->server->bytes, 10'001u); // nothing fetched beyond the end
    ASSERT_EQ(report->server->flows.size(), parallel);
    for (size_t i = 0; i < parallel; ++i)
      EXPECT_EQ(report->server->flows[i].bytes, report->flows[i].bytes) << i;
  }
}

TEST_F(PerfClientTest, ParallelFlowsAreIndependent)
{
  // flow 1 loses its first 5 Data; flow 0 loses nothing
  int dropped = 0;
  link.dataFilter = [&](Data& d) {
    if (flowOf(d.name()) == 1 && dropped < 5) {
      ++dropped;
      return false;
    }
    return true;
  };
  auto o = fixedWindow(4);
  o.bytes = 2 * 20 * 500;
  o.payload = 500;
  o.parallel = 2;
  o.fetch.lifetime = 200ms;
  auto c = make(o);
  c->start("/lab/perf");
  env.advance(10s);
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->error);
  ASSERT_EQ(report->flows.size(), 2u);
  EXPECT_EQ(report->flows[0].bytes, 10'000u);
  EXPECT_EQ(report->flows[1].bytes, 10'000u);
  EXPECT_EQ(report->flows[0].retransmissions, 0u);
  EXPECT_EQ(report->flows[0].lost, 0u);
  EXPECT_EQ(report->flows[1].retransmissions, 5u);
  EXPECT_EQ(report->flows[1].timeouts, 5u);
  EXPECT_EQ(report->sum.retransmissions, 5u);
  // each flow asked only for its own name
  std::set<Name> prefixes;
  for (const auto& i : link.consumer.sentInterests) {
    if (auto r = perf::parseRequest("/lab/perf", i.name()); r && !r->stats)
      prefixes.insert(i.name().getPrefix(-1));
  }
  EXPECT_EQ(prefixes.size(), 2u);
}

TEST_F(PerfClientTest, PacedModeSendsAtItsRateAndCountsLoss)
{
  // every 10th Data is lost
  int n = 0;
  link.dataFilter = [&](Data&) { return ++n % 10 != 0; };
  PerfClient::Options o;
  o.payload = 1000;
  o.bitrate = 100 * 8 * 1000; // 100 Interests per second
  o.duration = 1s;
  o.interval = 500ms;
  o.fetch.lifetime = 100ms;
  auto c = make(o);
  c->start("/lab/perf");
  env.advance(3s);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->mode, "paced");
  EXPECT_EQ(report->sum.interests, 100u); // at 0, 10, ..., 990 ms
  EXPECT_EQ(report->sum.retransmissions, 0u);
  EXPECT_EQ(report->sum.segments, 90u);
  EXPECT_EQ(report->sum.lost, 10u);
  EXPECT_EQ(report->sum.packets(), 100u);
  EXPECT_DOUBLE_EQ(report->sum.lostPercent(), 10.0);
  EXPECT_EQ(report->sum.bytes, 90'000u);
  ASSERT_EQ(report->intervals.size(), 2u);
  EXPECT_EQ(report->intervals[0].sum.interests, 50u);
  EXPECT_EQ(report->intervals[1].sum.interests, 50u);
  // a constant path delay: no jitter
  EXPECT_EQ(report->sum.jitterMs, 0.0);
  EXPECT_EQ(report->sum.interarrivalMaxUs, 20'000.0); // the gap where a Data was lost
}

TEST_F(PerfClientTest, PacedModeWithBytesAsksForExactlyThoseSegments)
{
  PerfClient::Options o;
  o.payload = 1000;
  o.bitrate = 1'000'000;
  o.bytes = 10'500;
  auto c = make(o);
  c->start("/lab/perf");
  env.advance(5s);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->sum.interests, 11u);
  EXPECT_EQ(report->sum.bytes, 10'500u);
  EXPECT_EQ(report->sum.lost, 0u);
}

TEST_F(PerfClientTest, JitterFromProducerTimestamps)
{
  // a scripted producer: each Interest is stamped when it arrives and its Data comes back
  // after 5, 7, 4 and 8 ms (the hand-computed example above: J = 0.53564453125 ms)
  FakeEndpoint ep;
  const Duration delays[] = {5ms, 7ms, 4ms, 8ms};
  size_t k = 0;
  ep.interestSink = [&](const Interest& i) {
    if (perf::parseRequest("/lab/perf", i.name())->stats)
      return;
    Data d(i.name());
    Buffer content(100);
    perf::writeHeader(content.data(), content.size(), env.now().time_since_epoch(), k);
    d.setContent(content);
    const Duration delay = delays[k++ % 4];
    env.timers().schedule(delay, [&ep, d] { ep.deliverData(d); });
  };
  PerfClient::Options o;
  o.payload = 100;
  o.bitrate = 100 * 8 * 100; // one Interest every 10 ms
  o.bytes = 400;             // four of them
  PerfClient c(env, ep, o);
  std::optional<PerfReport> r;
  c.onDone = [&](const PerfReport& rep) { r = rep; };
  c.start("/lab/perf");
  env.advance(10s); // the stats Interests go unanswered: three tries, then the report
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->server);
  EXPECT_NEAR(r->sum.jitterMs, 0.53564453125, 1e-9);
  EXPECT_EQ(r->sum.jitterSamples, 4u);
  // arrivals at 5, 17, 24, 38 ms
  EXPECT_DOUBLE_EQ(r->sum.interarrivalAveUs, 8250);
  EXPECT_DOUBLE_EQ(r->sum.interarrivalMaxUs, 14000);
  EXPECT_DOUBLE_EQ(r->sum.interarrivalVarUs2, 29187500);
}

TEST_F(PerfClientTest, WithoutAStatsReplyTheReportStillComes)
{
  link.interestFilter = [](Interest& i) { return !perf::parseRequest("/lab/perf", i.name())->stats; };
  auto o = fixedWindow(2);
  o.duration = 100ms;
  o.interval = Duration::zero();
  auto c = make(o);
  c->start("/lab/perf");
  env.advance(10s);
  ASSERT_TRUE(report);
  EXPECT_EQ(doneCalls, 1);
  EXPECT_FALSE(report->server);
  EXPECT_TRUE(report->intervals.empty());
  EXPECT_GT(report->sum.bytes, 0u);
}

TEST_F(PerfClientTest, StrayAndMalformedAnswersAreIgnored)
{
  // the stats reply is garbage, and Data and Nacks for other sessions, flows and names arrive
  link.dataFilter = [](Data& d) {
    if (perf::parseRequest("/lab/perf", d.name())->stats)
      d.setContent(asBytes(std::string_view("not a report")));
    return true;
  };
  auto o = fixedWindow(2);
  o.duration = 100ms;
  auto c = make(o);
  c->start("/lab/perf");
  env.advance(50ms);
  for (const char* uri : {"/lab/perf/0000000000000001/0/1200/0/seg=0", "/lab/perf/junk", "/elsewhere",
                          "/lab/perf/0000000000000001/stats"})
    link.consumer.deliverData(Data(Name(uri)));
  Name otherFlow = perf::flowName("/lab/perf", c->session(), 9, 1200, 0).appendSegment(0);
  link.consumer.deliverData(Data(otherFlow));
  link.consumer.deliverNack(Nack{Interest(otherFlow), NackReason::NoRoute});
  env.advance(10s);
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->error);
  EXPECT_FALSE(report->server); // a reply that does not parse is no report
  EXPECT_EQ(report->sum.nacks, 0u);
  EXPECT_GT(report->sum.bytes, 0u);
}

TEST_F(PerfClientTest, FinishNowEndsTheTestEarly)
{
  auto o = fixedWindow(2);
  o.duration = 10s;
  auto c = make(o);
  c->start("/lab/perf");
  env.advance(1500ms);
  c->finishNow();
  env.advance(100ms);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->elapsed, 1500ms);
  EXPECT_EQ(report->intervals.size(), 2u); // [0, 1] and [1, 1.5]
  EXPECT_EQ(report->intervals.back().end, 1500ms);
}

TEST(PerfClientOptionsTest, BadValuesAreRejected)
{
  auto bad = [](auto change) {
    PerfClient::Options o;
    change(o);
    EXPECT_THROW(o.validate(), std::invalid_argument);
  };
  bad([](auto& o) { o.parallel = 0; });
  bad([](auto& o) { o.parallel = 129; });
  bad([](auto& o) { o.payload = 15; });
  bad([](auto& o) { o.payload = 9000; });
  bad([](auto& o) { o.duration = Duration::zero(); });
  bad([](auto& o) { o.fetch.pipeline = "vegas"; });
  bad([](auto& o) { o.interval = -1s; });
}

} // namespace
} // namespace ndnlab::app
