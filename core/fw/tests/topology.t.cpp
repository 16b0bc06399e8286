// Several forwarders joined by point-to-point links with delay, on one manual clock:
// multi-hop forwarding, aggregation across hops, and loop handling in a triangle.

#include "core/fw/tests/forwarder-fixture.hpp"

#include <map>
#include <optional>
#include <tuple>

namespace ndnlab::fw::tests {
namespace {

using namespace std::chrono_literals;

/// One end of a non-local point-to-point link; frames reach the peer after `delay`.
class LinkTransport final : public face::Transport
{
public:
  LinkTransport(Env& env, Duration delay)
    : Transport("link://", "link://", face::FaceScope::NonLocal, face::FacePersistency::Permanent,
                face::LinkType::PointToPoint, face::MtuUnlimited),
      m_env(env),
      m_delay(delay)
  {}
  void close() override { setState(face::TransportState::Closed); }
  LinkTransport* peer = nullptr;
  size_t nSent = 0;

protected:
  void doSend(SharedBuffer frame, face::EndpointId) override
  {
    ++nSent;
    LinkTransport* p = peer;
    m_env.timers().schedule(m_delay, [p, frame] {
      if (p->state() == face::TransportState::Up)
        p->receive(*frame);
    });
  }

private:
  Env& m_env;
  Duration m_delay;
};

class TopologyTest : public ::testing::Test
{
protected:
  Forwarder& node(const std::string& n)
  {
    auto& f = nodes[n];
    if (!f)
      f = std::make_unique<Forwarder>(env);
    return *f;
  }

  /// Connects two nodes (both faces with `ls`); returns {faceId at a, faceId at b}.
  std::pair<face::FaceId, face::FaceId> link(const std::string& a, const std::string& b, Duration delay = 1ms,
                                             const face::LinkServiceOptions& ls = {})
  {
    auto ta = std::make_unique<LinkTransport>(env, delay);
    auto tb = std::make_unique<LinkTransport>(env, delay);
    ta->peer = tb.get();
    tb->peer = ta.get();
    transports.push_back(ta.get());
    transports.push_back(tb.get());
    auto fa = std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env, ls), std::move(ta));
    auto fb = std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env, ls), std::move(tb));
    return {node(a).addFace(std::move(fa)), node(b).addFace(std::move(fb))};
  }

  /// A test-controlled end host attached to a node (its face with `o` and local fields).
  TestFace host(const std::string& n, face::LinkServiceOptions o = {})
  {
    auto t = std::make_unique<face::DummyTransport>(face::FaceScope::Local);
    face::DummyTransport* raw = t.get();
    o.allowLocalFields = true;
    auto f = std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env, o), std::move(t));
    face::Face* fp = f.get();
    node(n).addFace(std::move(f));
    return TestFace(*fp, *raw);
  }

  ManualEnv env;
  std::map<std::string, std::unique_ptr<Forwarder>> nodes;
  std::vector<LinkTransport*> transports;
};

TEST_F(TopologyTest, ThreeHopsForwardAndReturn)
{
  auto [ab, ba] = link("A", "B", 2ms);
  auto [bc, cb] = link("B", "C", 3ms);
  TestFace consumer = host("A");
  TestFace producer = host("C");
  node("A").addNextHop("/P", ab, 1);
  node("B").addNextHop("/P", bc, 1);
  node("C").addNextHop("/P", producer.id(), 0);

  consumer.receiveInterest(makeInterest("/P/1", 1), makeToken({0xC0}));
  env.advance(5ms);
  auto atProducer = producer.sentInterests();
  ASSERT_EQ(atProducer.size(), 1u);
  EXPECT_EQ(atProducer[0].interest->nonce(), 1u);
  EXPECT_FALSE(atProducer[0].pitToken);

  producer.receiveData(makeData("/P/1", 10s), makeToken({0x99}));
  env.advance(4ms);
  EXPECT_TRUE(consumer.sentData().empty()) << "still in flight";
  env.advance(1ms);
  auto got = consumer.sentData();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(*got[0].pitToken, makeToken({0xC0}));
  for (const char* n : {"A", "B", "C"}) {
    EXPECT_EQ(node(n).pit().size(), 0u) << n;
    EXPECT_EQ(node(n).counters().nSatisfiedInterests, 1u) << n;
    EXPECT_EQ(node(n).cs().size(), 1u) << n;
  }

  // a second consumer at B is served from B's cache
  TestFace consumer2 = host("B");
  consumer2.receiveInterest(makeInterest("/P/1", 2));
  EXPECT_EQ(consumer2.sentData().size(), 1u);
  EXPECT_EQ(node("C").counters().nInInterests, 1u);
}

TEST_F(TopologyTest, AggregationAcrossHops)
{
  auto [ab, ba] = link("A", "B");
  auto [cb, bc] = link("C", "B");
  auto [bd, db] = link("B", "D");
  TestFace c1 = host("A");
  TestFace c2 = host("C");
  TestFace producer = host("D");
  node("A").addNextHop("/P", ab, 1);
  node("C").addNextHop("/P", cb, 1);
  node("B").addNextHop("/P", bd, 1);
  node("D").addNextHop("/P", producer.id(), 0);

  c1.receiveInterest(makeInterest("/P/x", 10));
  c2.receiveInterest(makeInterest("/P/x", 20));
  env.advance(10ms);
  EXPECT_EQ(producer.sentInterests().size(), 1u) << "B aggregated the two";
  producer.receiveData(makeData("/P/x"));
  env.advance(10ms);
  EXPECT_EQ(c1.sentData().size(), 1u);
  EXPECT_EQ(c2.sentData().size(), 1u);
}

TEST_F(TopologyTest, MulticastTriangleLoopIsContained)
{
  auto [ab, ba] = link("A", "B");
  auto [bc, cb] = link("B", "C");
  auto [ca, ac] = link("C", "A");
  TestFace consumer = host("A");
  for (const char* n : {"A", "B", "C"})
    ASSERT_TRUE(node(n).setStrategy("/", "/localhost/nfd/strategy/multicast"));
  // every node floods /P to both neighbours; nobody has the Data
  node("A").addNextHop("/P", ab, 1);
  node("A").addNextHop("/P", ac, 1);
  node("B").addNextHop("/P", ba, 1);
  node("B").addNextHop("/P", bc, 1);
  node("C").addNextHop("/P", cb, 1);
  node("C").addNextHop("/P", ca, 1);

  consumer.receiveInterest(makeInterest("/P/loop", 7, false, false, 1s));
  env.advance(100ms);
  size_t sentAfterFlood = 0;
  for (auto* t : transports)
    sentAfterFlood += t->nSent;
  // A->B, A->C, B->C, C->B, then each copy hits a node that already saw Nonce 7: Nacked
  // Duplicate over point-to-point links, never forwarded again.
  uint64_t loops = 0;
  for (const char* n : {"A", "B", "C"})
    loops += node(n).counters().nLoopPit + node(n).counters().nLoopDnl;
  EXPECT_GE(loops, 2u);
  EXPECT_LE(sentAfterFlood, 12u);
  env.advance(100ms);
  size_t sentLater = 0;
  for (auto* t : transports)
    sentLater += t->nSent;
  EXPECT_EQ(sentLater, sentAfterFlood) << "the flood stopped";

  // after expiry every node remembers the Nonce: the same Interest again is a loop everywhere
  env.advance(2s);
  for (const char* n : {"A", "B", "C"}) {
    EXPECT_EQ(node(n).pit().size(), 0u) << n;
    EXPECT_TRUE(node(n).deadNonceList().has("/P/loop", 7)) << n;
  }
}

// MIRCC explicit rate (docs/mechanisms/mircc.md): each forwarder stamps min(carried, R_f)
// on Data and Nacks from upstream face f, so the consumer receives the path minimum.
class MirccChainTest : public TopologyTest
{
protected:
  /// consumer - A - B - C - producer, every face with MIRCC on; each node's rate source
  /// reads `rates[node][upstream face]` (absent = no rate).
  MirccChainTest()
  {
    face::LinkServiceOptions on;
    on.mircc = true;
    std::tie(ab, ba) = link("A", "B", 1ms, on);
    std::tie(bc, cb) = link("B", "C", 1ms, on);
    consumer = host("A", on);
    producer = host("C", on);
    node("A").addNextHop("/P", ab, 1);
    node("B").addNextHop("/P", bc, 1);
    node("C").addNextHop("/P", producer->id(), 0);
    for (std::string n : {"A", "B", "C"}) {
      node(n).setMirccRateSource([this, n](face::FaceId f) -> std::optional<Rate> {
        ++calls[n];
        auto it = rates[n].find(f);
        return it == rates[n].end() ? std::nullopt : std::optional<Rate>(it->second);
      });
    }
  }

  /// Fetches `name` with Nonce `nonce`; the producer answers with `carried` as MirccRate.
  /// Returns the rate the consumer received (nullopt: no field).
  std::optional<Rate> fetch(const Name& name, uint32_t nonce, std::optional<Rate> carried = std::nullopt)
  {
    consumer->clearSent();
    consumer->receiveInterest(makeInterest(name, nonce));
    env.advance(5ms);
    producer->receiveData(makeData(name), std::nullopt, false, carried);
    env.advance(5ms);
    auto got = consumer->sentData();
    EXPECT_EQ(got.size(), 1u);
    return got.empty() ? std::nullopt : got[0].mirccRate;
  }

  face::FaceId ab = 0, ba = 0, bc = 0, cb = 0;
  std::optional<TestFace> consumer, producer;
  std::map<std::string, std::map<face::FaceId, Rate>> rates;
  std::map<std::string, int> calls;
};

TEST_F(MirccChainTest, ConsumerReceivesThePathMinimumOverThreeHops)
{
  rates["C"][producer->id()] = Rate::mbps(8);
  rates["B"][bc] = Rate::mbps(3);
  rates["A"][ab] = Rate::mbps(5);
  EXPECT_EQ(fetch("/P/1", 1), Rate::mbps(3));
  for (const char* n : {"A", "B", "C"})
    EXPECT_EQ(calls[n], 1) << n;

  // the minimum moves to the first hop, then to the last
  rates["C"][producer->id()] = Rate::kbps(700);
  EXPECT_EQ(fetch("/P/2", 2), Rate::kbps(700));
  rates["C"][producer->id()] = Rate::mbps(8);
  rates["A"][ab] = Rate::mbps(1);
  EXPECT_EQ(fetch("/P/3", 3), Rate::mbps(1));
  // a rate carried from beyond the producer's face (another MIRCC domain) is kept when smaller
  EXPECT_EQ(fetch("/P/4", 4, Rate::kbps(250)), Rate::kbps(250));
}

TEST_F(MirccChainTest, HopsWithoutARateStampNothing)
{
  EXPECT_EQ(fetch("/P/1", 1), std::nullopt) << "no node has a rate: no field at all";
  rates["B"][bc] = Rate::mbps(3);
  EXPECT_EQ(fetch("/P/2", 2), Rate::mbps(3)) << "only B stamps";
  rates["B"].clear();
  EXPECT_EQ(fetch("/P/3", 3, Rate::mbps(9)), Rate::mbps(9)) << "a carried rate crosses unchanged";
}

TEST_F(MirccChainTest, NackCarriesThePathMinimumOverThreeHops)
{
  rates["C"][producer->id()] = Rate::mbps(8);
  rates["B"][bc] = Rate::mbps(2);
  rates["A"][ab] = Rate::mbps(5);
  consumer->receiveInterest(makeInterest("/P/n", 7));
  env.advance(5ms);
  auto atProducer = producer->sentInterests();
  ASSERT_EQ(atProducer.size(), 1u);
  producer->receiveNack(*atProducer[0].interest, NackReason::Congestion, std::nullopt, Rate::mbps(6));
  env.advance(5ms);
  auto nacks = consumer->sentNacks();
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::Congestion);
  EXPECT_EQ(nacks[0].mirccRate, Rate::mbps(2));
}

} // namespace
} // namespace ndnlab::fw::tests
