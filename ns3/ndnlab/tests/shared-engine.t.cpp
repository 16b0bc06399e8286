// The simulated consumer and `ndnlab get` share one engine: app::SegmentFetcher driven by the
// same options against the same scripted producer sends the same Interests at the same times,
// whether it runs under ManualEnv with fake endpoints (as in the core tests and, with AsioEnv
// and a forwarder connection, in tools/get) or inside ns-3 as ConsumerApp through a node's
// forwarder.

#include "ns3/ndnlab/tests/sim-fixture.hpp"

#include "core/app/segment-server.hpp"
#include "core/app/tests/test-link.hpp"
#include "core/security/signer.hpp"

#include <ns3/application.h>
#include <ns3/double.h>

namespace ndnlab::sim::test {
namespace {

using namespace std::chrono_literals;

/// Reply delay of the scripted producer; not a multiple of the fetcher's 10 ms scan period,
/// so no reply ties with a timer.
constexpr Duration kReplyDelay = 20'013'700ns;
const Name kPrefix("/lab/file");
constexpr uint64_t kFileSize = 60'000;

app::SegmentServer::Options serverOptions()
{
  app::SegmentServer::Options o;
  o.segmentSize = 1000;
  o.version = 77;
  return o;
}

/// Answers Interests through a SegmentServer after kReplyDelay, except the transmissions the
/// script drops: the first of segments 3, 11, 12 and 40, the first two of segment 25.
class ScriptedResponder
{
public:
  ScriptedResponder(Env& env, app::Endpoint& ep, app::SegmentServer& server) : m_env(env), m_server(server)
  {
    ep.onInterest = [this](const Interest& i) { onInterest(i); };
  }

  void onInterest(const Interest& i)
  {
    int n = ++m_seen[i.name()];
    if (!i.name().empty() && i.name()[-1].isSegment()) {
      uint64_t seg = *i.name()[-1].toNumber();
      int drops = seg == 25 ? 2 : (seg == 3 || seg == 11 || seg == 12 || seg == 40) ? 1 : 0;
      if (n <= drops)
        return;
    }
    m_env.timers().schedule(kReplyDelay, [this, i] { m_server.handleInterest(i); });
  }

private:
  Env& m_env;
  app::SegmentServer& m_server;
  std::map<Name, int> m_seen;
};

struct SentInterest
{
  Duration at;
  std::string name;
  bool retransmission;
  bool operator==(const SentInterest&) const = default;
};

std::ostream& operator<<(std::ostream& os, const SentInterest& s)
{
  return os << toMillis(s.at) << "ms " << s.name << (s.retransmission ? " retx" : "");
}

app::SegmentFetcherOptions fetcherOptions()
{
  app::SegmentFetcherOptions o;
  o.pipeline = "aimd";
  o.window.initCwnd = 4;
  o.rtt.k = 4;
  return o;
}

struct Outcome
{
  std::vector<SentInterest> interests;
  Buffer bytes;
  app::FetchStats stats;
};

/// The tools' world: ManualEnv, fake endpoints, no forwarder.
Outcome runManual()
{
  ManualEnv env;
  app::test::FakeEndpoint consumer, producer;
  security::DigestSigner signer;
  app::SegmentServer server(env, producer, kPrefix, signer, serverOptions());
  server.publish(makeContent(3, kFileSize));
  ScriptedResponder responder(env, producer, server);
  Outcome out;
  consumer.interestSink = [&](const Interest& i) {
    out.interests.push_back(
      {env.now().time_since_epoch(), i.name().toUri(), i.tags.bundle && i.tags.bundle->retransmission});
    producer.deliverInterest(i);
  };
  producer.dataSink = [&](const Data& d) { consumer.deliverData(d); };
  producer.nackSink = [&](const Nack& n) { consumer.deliverNack(n); };

  app::SegmentFetcher fetcher(env, consumer, fetcherOptions());
  fetcher.onBytes = [&](ByteSpan b) { out.bytes.insert(out.bytes.end(), b.begin(), b.end()); };
  bool done = false;
  fetcher.onComplete = [&] { done = true; };
  fetcher.start(kPrefix);
  while (!done && env.clockImpl.pending() > 0 && env.now().time_since_epoch() < 120s)
    env.clockImpl.runAll(1);
  EXPECT_TRUE(done);
  out.stats = fetcher.stats();
  return out;
}

/// The same producer and script as an ns-3 application on the consumer's node.
class ScriptedProducerApp : public ns3::Application
{
public:
  void StartApplication() override
  {
    auto stack = GetNode()->GetObject<NdnStack>();
    m_endpoint = stack->CreateAppEndpoint("app://scripted");
    m_server = std::make_unique<app::SegmentServer>(stack->GetEnv(), *m_endpoint, kPrefix, m_signer, serverOptions());
    m_server->publish(makeContent(3, kFileSize));
    m_responder = std::make_unique<ScriptedResponder>(stack->GetEnv(), *m_endpoint, *m_server);
    stack->AddRoute(kPrefix, m_endpoint->faceId(), 0);
  }
  void StopApplication() override
  {
    m_responder.reset();
    m_server.reset();
    m_endpoint.reset();
  }
  void DoDispose() override
  {
    StopApplication();
    ns3::Application::DoDispose();
  }

private:
  security::DigestSigner m_signer;
  std::unique_ptr<AppEndpoint> m_endpoint;
  std::unique_ptr<app::SegmentServer> m_server;
  std::unique_ptr<ScriptedResponder> m_responder;
};

/// The simulator's world: ConsumerApp through the forwarder of an ns-3 node.
Outcome runNs3()
{
  ns3::NodeContainer nodes;
  nodes.Create(1);
  StackHelper stack;
  stack.Install(nodes);
  auto producer = ns3::CreateObject<ScriptedProducerApp>();
  nodes.Get(0)->AddApplication(producer);

  AppHelper consumer("ndnlab::ConsumerApp");
  consumer.SetPrefix(kPrefix.toUri());
  // the same Options, set through the attributes
  const app::SegmentFetcherOptions o = fetcherOptions();
  consumer.SetAttribute("Pipeline", ns3::StringValue(o.pipeline));
  consumer.SetAttribute("InitCwnd", ns3::DoubleValue(o.window.initCwnd));
  consumer.SetAttribute("RtoK", ns3::DoubleValue(o.rtt.k));
  auto app = ns3::DynamicCast<ConsumerApp>(consumer.Install(nodes.Get(0)).Get(0));

  Outcome out;
  app->TraceConnectWithoutContext("Interest", ns3::Callback<void, const Interest&>([&](const Interest& i) {
                                    out.interests.push_back({toDuration(ns3::Simulator::Now()), i.name().toUri(),
                                                             i.tags.bundle && i.tags.bundle->retransmission});
                                  }));
  app->TraceConnectWithoutContext("Bytes", ns3::Callback<void, const uint8_t*, size_t>([&](const uint8_t* d, size_t n) {
                                    out.bytes.insert(out.bytes.end(), d, d + n);
                                  }));
  app->TraceConnectWithoutContext(
    "Complete", ns3::Callback<void, const app::FetchStats&>([](const app::FetchStats&) { ns3::Simulator::Stop(); }));
  ns3::Simulator::Stop(ns3::Seconds(120));
  ns3::Simulator::Run();
  EXPECT_TRUE(app->IsComplete());
  out.stats = app->GetStats();
  return out;
}

class SharedEngine : public SimTest
{};

TEST_F(SharedEngine, SameOptionsSameInterestsUnderManualEnvAndNs3)
{
  Outcome manual = runManual();
  Outcome sim = runNs3();

  ASSERT_GT(manual.interests.size(), kFileSize / 1000);
  EXPECT_EQ(manual.interests.front().name, "/lab/file/32=metadata");
  EXPECT_EQ(sim.interests, manual.interests);

  EXPECT_EQ(manual.bytes, makeContent(3, kFileSize));
  EXPECT_EQ(sim.bytes, manual.bytes);
  EXPECT_EQ(manual.stats.retransmissions, 6u); // the script dropped six transmissions
  EXPECT_EQ(sim.stats.retransmissions, manual.stats.retransmissions);
  EXPECT_EQ(sim.stats.timeouts, manual.stats.timeouts);
  EXPECT_EQ(sim.stats.lossDecreases, manual.stats.lossDecreases);
  EXPECT_EQ(sim.stats.elapsed, manual.stats.elapsed);
  EXPECT_EQ(sim.stats.rttAvg, manual.stats.rttAvg);
  EXPECT_EQ(sim.stats.cwnd, manual.stats.cwnd);
}

} // namespace
} // namespace ndnlab::sim::test
