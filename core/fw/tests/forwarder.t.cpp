// Forwarder pipelines (NFD semantics, ndn-spec-facts.md §4) over real faces:
// DummyTransport + GenericLinkService, ManualEnv clock.

#include "core/fw/tests/forwarder-fixture.hpp"

namespace ndnlab::fw::tests {
namespace {

using face::FaceScope;
using face::LinkType;
using namespace std::chrono_literals;

class ForwarderTest : public ForwarderFixture
{};

TEST_F(ForwarderTest, ForwardAndReturnWithPitTokens)
{
  TestFace consumer = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);

  consumer.receiveInterest(makeInterest("/A/1", 1001), makeToken({0xAA, 0xBB}));
  auto up = producer.sentInterests();
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(up[0].interest->name(), Name("/A/1"));
  EXPECT_EQ(up[0].interest->nonce(), 1001u);
  EXPECT_FALSE(up[0].pitToken) << "a downstream PitToken must never go upstream";
  EXPECT_EQ(fw->pit().size(), 1u);

  producer.receiveData(makeData("/A/1"), makeToken({0x01}));
  auto down = consumer.sentData();
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(down[0].data->name(), Name("/A/1"));
  ASSERT_TRUE(down[0].pitToken);
  EXPECT_EQ(*down[0].pitToken, makeToken({0xAA, 0xBB}));
  EXPECT_TRUE(producer.sentData().empty());

  // finalized when the Data pipeline ended
  EXPECT_EQ(fw->pit().size(), 0u);
  EXPECT_EQ(fw->nameTree().size(), 2u) << "only / and /A (FIB) remain";
  const auto& c = fw->counters();
  EXPECT_EQ(c.nInInterests, 1u);
  EXPECT_EQ(c.nOutInterests, 1u);
  EXPECT_EQ(c.nInData, 1u);
  EXPECT_EQ(c.nOutData, 1u);
  EXPECT_EQ(c.nSatisfiedInterests, 1u);
  EXPECT_EQ(c.nUnsatisfiedInterests, 0u);
  EXPECT_EQ(c.nCsMisses, 1u);
  EXPECT_EQ(fw->cs().size(), 1u);
}

TEST_F(ForwarderTest, BareDataWithoutTokenStillSatisfies)
{
  TestFace consumer = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);
  consumer.receiveInterest(makeInterest("/A/1", 1));
  producer.receiveData(makeData("/A/1"));
  auto down = consumer.sentData();
  ASSERT_EQ(down.size(), 1u);
  EXPECT_FALSE(down[0].pitToken);
}

TEST_F(ForwarderTest, AggregationSendsOneInterestAndReturnsDataToAll)
{
  TestFace c1 = addFace();
  TestFace c2 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);

  c1.receiveInterest(makeInterest("/A/1", 1), makeToken({1}));
  advance(2ms);
  c2.receiveInterest(makeInterest("/A/1", 2), makeToken({2}));
  EXPECT_EQ(producer.sentInterests().size(), 1u) << "aggregated within the suppression interval";
  EXPECT_EQ(fw->pit().size(), 1u);
  EXPECT_EQ(fw->pit().inRecordCount(c1.id()), 1u);
  EXPECT_EQ(fw->pit().inRecordCount(c2.id()), 1u);

  producer.receiveData(makeData("/A/1"));
  auto d1 = c1.sentData(), d2 = c2.sentData();
  ASSERT_EQ(d1.size(), 1u);
  ASSERT_EQ(d2.size(), 1u);
  EXPECT_EQ(*d1[0].pitToken, makeToken({1}));
  EXPECT_EQ(*d2[0].pitToken, makeToken({2}));
  EXPECT_EQ(fw->pit().inRecordCount(c1.id()), 0u);
  EXPECT_EQ(fw->counters().nSatisfiedInterests, 1u);
}

TEST_F(ForwarderTest, DuplicateNonceFromAnotherP2pFaceIsNackedDuplicate)
{
  TestFace c1 = addFace();
  TestFace c2 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);

  c1.receiveInterest(makeInterest("/A/1", 77));
  c2.receiveInterest(makeInterest("/A/1", 77), makeToken({9, 9}));
  auto nacks = c2.sentNacks();
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::Duplicate);
  EXPECT_EQ(nacks[0].interest->nonce(), 77u);
  ASSERT_TRUE(nacks[0].pitToken);
  EXPECT_EQ(*nacks[0].pitToken, makeToken({9, 9}));
  EXPECT_EQ(fw->counters().nLoopPit, 1u);
  EXPECT_EQ(producer.sentInterests().size(), 1u);
  EXPECT_EQ(fw->pit().inRecordCount(c2.id()), 0u);
}

TEST_F(ForwarderTest, DuplicateNonceOnMultiAccessFaceIsDropped)
{
  TestFace c1 = addFace();
  TestFace multi = addFace(FaceScope::NonLocal, LinkType::MultiAccess);
  TestFace producer = addFace();
  addRoute("/A", producer);

  c1.receiveInterest(makeInterest("/A/1", 77));
  multi.receiveInterest(makeInterest("/A/1", 77));
  EXPECT_TRUE(multi.sent().empty());
  EXPECT_EQ(fw->counters().nDropLoop, 1u);
}

TEST_F(ForwarderTest, SameNonceFromSameP2pFaceIsNotALoop)
{
  TestFace c1 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);

  c1.receiveInterest(makeInterest("/A/1", 5));
  advance(20ms);
  c1.receiveInterest(makeInterest("/A/1", 5));
  EXPECT_TRUE(c1.sentNacks().empty());
  EXPECT_EQ(fw->counters().nLoopPit, 0u);
  EXPECT_EQ(producer.sentInterests().size(), 2u) << "a retransmission past the suppression interval";
}

TEST_F(ForwarderTest, DeadNonceListDetectsLoopAfterPitEntryExpired)
{
  TestFace c1 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);

  c1.receiveInterest(makeInterest("/A/1", 31, false, false, 100ms));
  advance(100ms);
  EXPECT_EQ(fw->pit().size(), 0u);
  EXPECT_EQ(fw->counters().nUnsatisfiedInterests, 1u);
  EXPECT_TRUE(fw->deadNonceList().has("/A/1", 31));

  c1.receiveInterest(makeInterest("/A/1", 31));
  EXPECT_EQ(fw->counters().nLoopDnl, 1u);
  auto nacks = c1.sentNacks();
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::Duplicate);
  EXPECT_EQ(producer.sentInterests().size(), 1u);

  advance(6s);
  c1.receiveInterest(makeInterest("/A/1", 31));
  EXPECT_EQ(producer.sentInterests().size(), 2u) << "DNL entries live 6 s";
}

TEST_F(ForwarderTest, HopLimit)
{
  TestFace c1 = addFace();
  TestFace producer = addFace();
  TestFace app = addFace(FaceScope::Local);
  addRoute("/A", producer);
  addRoute("/L", app);

  Interest zero = makeInterest("/A/0", 1);
  zero.setHopLimit(0);
  c1.receiveInterest(zero);
  EXPECT_EQ(fw->counters().nDropHopLimitZero, 1u);
  EXPECT_EQ(fw->pit().size(), 0u);

  Interest five = makeInterest("/A/5", 2);
  five.setHopLimit(5);
  c1.receiveInterest(five);
  auto up = producer.sentInterests();
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(up[0].interest->hopLimit(), 4);

  Interest one = makeInterest("/A/1", 3);
  one.setHopLimit(1);
  c1.receiveInterest(one);
  EXPECT_EQ(producer.sentInterests().size(), 1u) << "HopLimit reached 0: no non-local egress";
  EXPECT_EQ(fw->counters().nDropOutHopLimitZero, 1u);

  Interest oneLocal = makeInterest("/L/1", 4);
  oneLocal.setHopLimit(1);
  c1.receiveInterest(oneLocal);
  auto toApp = app.sentInterests();
  ASSERT_EQ(toApp.size(), 1u) << "a local face may still get it";
  EXPECT_EQ(toApp[0].interest->hopLimit(), 0);
}

TEST_F(ForwarderTest, NonceAddedWhenMissing)
{
  TestFace c1 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);
  Interest i("/A/x");
  c1.receiveInterest(i);
  auto up = producer.sentInterests();
  ASSERT_EQ(up.size(), 1u);
  EXPECT_TRUE(up[0].interest->nonce().has_value());
}

TEST_F(ForwarderTest, LocalhostScope)
{
  TestFace remote = addFace(FaceScope::NonLocal);
  TestFace app = addFace(FaceScope::Local);
  TestFace mgmt = addFace(FaceScope::Local);
  TestFace upstream = addFace(FaceScope::NonLocal);
  addRoute("/localhost/nfd", mgmt);
  addRoute("/localhost/other", upstream);

  remote.receiveInterest(makeInterest("/localhost/nfd/status", 1));
  EXPECT_EQ(fw->counters().nDropLocalhostInterest, 1u);
  EXPECT_TRUE(mgmt.sent().empty());

  app.receiveInterest(makeInterest("/localhost/nfd/status", 2));
  EXPECT_EQ(mgmt.sentInterests().size(), 1u);

  // a local app cannot push /localhost out through a non-local face: no eligible nexthop
  app.receiveInterest(makeInterest("/localhost/other/x", 3));
  EXPECT_TRUE(upstream.sent().empty());
  auto nacks = app.sentNacks();
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::NoRoute);

  remote.receiveData(makeData("/localhost/nfd/status"));
  EXPECT_EQ(fw->counters().nDropLocalhostData, 1u);
  EXPECT_TRUE(app.sentData().empty());
}

TEST_F(ForwarderTest, LocalhopOnlyFromLocalFaces)
{
  TestFace remote = addFace(FaceScope::NonLocal);
  TestFace app = addFace(FaceScope::Local);
  TestFace upstream = addFace(FaceScope::NonLocal);
  addRoute("/localhop", upstream);

  app.receiveInterest(makeInterest("/localhop/nfd/rib", 1));
  EXPECT_EQ(upstream.sentInterests().size(), 1u);
  remote.receiveInterest(makeInterest("/localhop/nfd/x", 2));
  EXPECT_EQ(upstream.sentInterests().size(), 1u);
  EXPECT_EQ(remote.sentNacks().size(), 1u);
}

TEST_F(ForwarderTest, UnsolicitedDataIsDropped)
{
  TestFace producer = addFace();
  producer.receiveData(makeData("/U/1", 10s));
  EXPECT_EQ(fw->counters().nUnsolicitedData, 1u);
  EXPECT_EQ(fw->cs().size(), 0u);
  EXPECT_EQ(env.traceImpl.count(EventKind::Drop, DropReason::UnsolicitedData), 1u);
}

class AdmitLocalTest : public ForwarderFixture
{
protected:
  AdmitLocalTest() : ForwarderFixture(makeOptions()) {}
  static ForwarderOptions makeOptions()
  {
    ForwarderOptions o;
    o.unsolicitedDataPolicy = UnsolicitedDataPolicy::AdmitLocal;
    return o;
  }
};

TEST_F(AdmitLocalTest, UnsolicitedDataFromLocalFaceIsCached)
{
  TestFace remote = addFace(FaceScope::NonLocal);
  TestFace app = addFace(FaceScope::Local);
  remote.receiveData(makeData("/U/1", 10s));
  EXPECT_EQ(fw->cs().size(), 0u);
  app.receiveData(makeData("/U/2", 10s));
  EXPECT_EQ(fw->cs().size(), 1u);

  remote.receiveInterest(makeInterest("/U/2", 1), makeToken({3}));
  auto d = remote.sentData();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(*d[0].pitToken, makeToken({3}));
}

TEST_F(ForwarderTest, ContentStoreHitCopiesInterestPitToken)
{
  TestFace c1 = addFace();
  TestFace c2 = addFace(FaceScope::Local);
  TestFace producer = addFace();
  addRoute("/A", producer);

  c1.receiveInterest(makeInterest("/A/1", 1), makeToken({1}));
  producer.receiveData(makeData("/A/1", 1s));
  producer.clearSent();

  c2.receiveInterest(makeInterest("/A/1", 2), makeToken({7, 7, 7}));
  EXPECT_TRUE(producer.sent().empty());
  auto d = c2.sentData();
  ASSERT_EQ(d.size(), 1u);
  ASSERT_TRUE(d[0].pitToken);
  EXPECT_EQ(*d[0].pitToken, makeToken({7, 7, 7}));
  ASSERT_TRUE(d[0].incomingFaceId) << "local fields on: IncomingFaceId is the CS";
  EXPECT_EQ(*d[0].incomingFaceId, face::ContentStoreFaceId);
  EXPECT_EQ(fw->counters().nCsHits, 1u);
  EXPECT_EQ(fw->pit().size(), 0u);
  EXPECT_EQ(fw->counters().nSatisfiedInterests, 2u);

  // a prefix Interest matches too
  c2.clearSent();
  c2.receiveInterest(makeInterest("/A", 3, true), makeToken({8}));
  ASSERT_EQ(c2.sentData().size(), 1u);
  EXPECT_EQ(*c2.sentData()[0].pitToken, makeToken({8}));

  // MustBeFresh after the freshness period: miss, forwarded
  advance(2s);
  c2.receiveInterest(makeInterest("/A/1", 4, false, true));
  EXPECT_EQ(producer.sentInterests().size(), 1u);
  EXPECT_EQ(fw->counters().nCsHits, 2u);
}

TEST_F(ForwarderTest, IncomingNackChecks)
{
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  TestFace multi = addFace(FaceScope::NonLocal, LinkType::MultiAccess);
  addRoute("/A", p1);

  c1.receiveInterest(makeInterest("/A/1", 1));
  p1.receiveNack(makeInterest("/A/1", 999), NackReason::NoRoute);
  EXPECT_EQ(fw->counters().nDropNackNonce, 1u);
  p1.receiveNack(makeInterest("/B/1", 1), NackReason::NoRoute);
  EXPECT_EQ(fw->counters().nDropNackNoPit, 1u);
  c1.receiveNack(makeInterest("/A/1", 1), NackReason::NoRoute);
  EXPECT_EQ(fw->counters().nDropNackNoOutRecord, 1u);
  multi.receiveNack(makeInterest("/A/1", 1), NackReason::NoRoute);
  EXPECT_EQ(fw->counters().nDropNackNotP2p, 1u);
  EXPECT_TRUE(c1.sentNacks().empty());
  EXPECT_EQ(fw->pit().size(), 1u);
}

TEST_F(ForwarderTest, StrategyChoicePerPrefix)
{
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  TestFace p2 = addFace();
  addRoute("/", p1);
  addRoute("/", p2, 5);

  auto r = fw->setStrategy("/M", "/localhost/nfd/strategy/multicast");
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(fw->strategyChoice().get("/M")->toUri(), "/localhost/nfd/strategy/multicast/v=4");
  EXPECT_EQ(fw->strategyChoice().get("/")->toUri(), "/localhost/nfd/strategy/best-route/v=5");

  c1.receiveInterest(makeInterest("/M/x/1", 1));
  EXPECT_EQ(p1.sentInterests().size(), 1u);
  EXPECT_EQ(p2.sentInterests().size(), 1u);

  c1.receiveInterest(makeInterest("/B/1", 2));
  EXPECT_EQ(p1.sentInterests().size(), 2u);
  EXPECT_EQ(p2.sentInterests().size(), 1u) << "best-route: only the cheapest";

  ASSERT_TRUE(fw->unsetStrategy("/M"));
  EXPECT_FALSE(fw->unsetStrategy("/"));
  c1.receiveInterest(makeInterest("/M/x/2", 3));
  EXPECT_EQ(p1.sentInterests().size(), 3u);
  EXPECT_EQ(p2.sentInterests().size(), 1u);

  EXPECT_FALSE(fw->setStrategy("/Z", "/localhost/nfd/strategy/no-such"));
  EXPECT_FALSE(fw->setStrategy("/Z", "/localhost/nfd/strategy/best-route/v=99"));
}

TEST_F(ForwarderTest, FaceRemovalCleansFibAndPit)
{
  TestFace c1 = addFace();
  TestFace c2 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);
  addRoute("/B", producer);
  addRoute("/B", c2);

  c1.receiveInterest(makeInterest("/A/1", 1));
  c2.receiveInterest(makeInterest("/A/1", 2));
  ASSERT_EQ(fw->pit().size(), 1u);
  table::PitEntry* entry = fw->pit().find(makeInterest("/A/1", 0));
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->inRecords().size(), 2u);
  EXPECT_EQ(entry->outRecords().size(), 1u);

  std::vector<face::FaceId> cleaned;
  fw->afterFaceCleanup.connect([&](face::Face& f) { cleaned.push_back(f.id()); });

  face::FaceId producerId = producer.id();
  producer.face().close();
  EXPECT_NE(fw->faceTable().get(producerId), nullptr) << "removal is deferred";
  advance(0ms);
  EXPECT_EQ(fw->faceTable().get(producerId), nullptr);
  EXPECT_EQ(cleaned, std::vector<face::FaceId>{producerId});
  EXPECT_EQ(fw->fib().findExactMatch("/A"), nullptr) << "entry without nexthops erased";
  ASSERT_NE(fw->fib().findExactMatch("/B"), nullptr);
  EXPECT_EQ(fw->fib().findExactMatch("/B")->nextHops().size(), 1u);
  EXPECT_TRUE(entry->outRecords().empty());

  c1.face().close();
  advance(0ms);
  EXPECT_EQ(entry->inRecords().size(), 1u);
  EXPECT_EQ(fw->pit().inRecordCount(c2.id()), 1u);
  EXPECT_EQ(fw->faceTable().size(), 1u);
}

TEST_F(ForwarderTest, NextHopFaceIdFromLocalApp)
{
  TestFace app = addFace(FaceScope::Local);
  TestFace p1 = addFace();
  TestFace p2 = addFace();
  addRoute("/A", p1);
  app.receiveInterest(makeInterest("/A/1", 1), std::nullopt, p2.id());
  EXPECT_TRUE(p1.sentInterests().empty());
  EXPECT_EQ(p2.sentInterests().size(), 1u);

  app.receiveInterest(makeInterest("/A/2", 2), std::nullopt, 9999);
  EXPECT_EQ(fw->counters().nDropUnknownNextHop, 1u);
}

TEST_F(ForwarderTest, IncomingFaceIdTagToLocalFaces)
{
  TestFace c1 = addFace();
  TestFace app = addFace(FaceScope::Local);
  addRoute("/A", app);
  c1.receiveInterest(makeInterest("/A/1", 1));
  auto up = app.sentInterests();
  ASSERT_EQ(up.size(), 1u);
  ASSERT_TRUE(up[0].incomingFaceId);
  EXPECT_EQ(*up[0].incomingFaceId, c1.id());
}

TEST_F(ForwarderTest, MultiplePitMatchesEachDownstreamGetsItsToken)
{
  TestFace c1 = addFace();
  TestFace c2 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);

  c1.receiveInterest(makeInterest("/A", 1, true), makeToken({1}));
  c2.receiveInterest(makeInterest("/A/1", 2), makeToken({2}));
  EXPECT_EQ(fw->pit().size(), 2u);
  producer.receiveData(makeData("/A/1"));
  ASSERT_EQ(c1.sentData().size(), 1u);
  ASSERT_EQ(c2.sentData().size(), 1u);
  EXPECT_EQ(*c1.sentData()[0].pitToken, makeToken({1}));
  EXPECT_EQ(*c2.sentData()[0].pitToken, makeToken({2}));
  EXPECT_EQ(fw->pit().size(), 0u);
  EXPECT_EQ(fw->counters().nSatisfiedInterests, 2u);
}

TEST_F(ForwarderTest, ImplicitDigestInterest)
{
  TestFace c1 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);
  Data d = makeData("/A/1", 10s, "exact bytes");
  Name full = d.fullName();
  Data other = makeData("/A/1", 10s, "other bytes");

  c1.receiveInterest(makeInterest(full, 1));
  ASSERT_EQ(producer.sentInterests().size(), 1u);
  producer.receiveData(other);
  EXPECT_TRUE(c1.sentData().empty()) << "different digest does not satisfy";
  producer.receiveData(d);
  ASSERT_EQ(c1.sentData().size(), 1u);
  EXPECT_EQ(c1.sentData()[0].data->implicitDigest(), d.implicitDigest());

  // and from the CS
  TestFace c2 = addFace();
  c2.receiveInterest(makeInterest(full, 2));
  ASSERT_EQ(c2.sentData().size(), 1u);
  EXPECT_EQ(c2.sentData()[0].data->content().size(), std::string_view("exact bytes").size());
}

TEST_F(ForwarderTest, MustBeFreshShortFreshnessGoesToDeadNonceList)
{
  TestFace c1 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);
  c1.receiveInterest(makeInterest("/A/1", 11, false, true));
  producer.receiveData(makeData("/A/1", 100ms));
  EXPECT_TRUE(fw->deadNonceList().has("/A/1", 11));

  c1.receiveInterest(makeInterest("/A/2", 12, false, false));
  producer.receiveData(makeData("/A/2", 100ms));
  EXPECT_FALSE(fw->deadNonceList().has("/A/2", 12)) << "satisfied without MustBeFresh";
}

TEST_F(ForwarderTest, PitExpiryUsesLatestInRecord)
{
  TestFace c1 = addFace();
  TestFace c2 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);
  c1.receiveInterest(makeInterest("/A/1", 1, false, false, 100ms));
  advance(50ms);
  c2.receiveInterest(makeInterest("/A/1", 2, false, false, 200ms));
  advance(100ms);
  EXPECT_EQ(fw->pit().size(), 1u) << "c2's in-record lasts until 250 ms";
  advance(100ms);
  EXPECT_EQ(fw->pit().size(), 0u);
  EXPECT_EQ(fw->counters().nUnsatisfiedInterests, 1u);
}

TEST_F(ForwarderTest, ExpiryUsesOneTimerAtATime)
{
  TestFace c1 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);
  for (uint32_t i = 0; i < 100; ++i)
    c1.receiveInterest(makeInterest(Name("/A").appendSequenceNumber(i), i + 1));
  EXPECT_EQ(fw->pit().size(), 100u);
  EXPECT_LE(env.clockImpl.pending(), 1u);
  advance(4s);
  EXPECT_EQ(fw->pit().size(), 0u);
  EXPECT_EQ(fw->counters().nUnsatisfiedInterests, 100u);
  EXPECT_EQ(fw->nameTree().size(), 2u);
}

class BoundedPitTest : public ForwarderFixture
{
protected:
  BoundedPitTest() : ForwarderFixture(makeOptions()) {}
  static ForwarderOptions makeOptions()
  {
    ForwarderOptions o;
    o.pitMaxEntries = 30; // default fair share (factor 1), no hard per-face cap
    return o;
  }
};

TEST_F(BoundedPitTest, FloodsFromSeveralFacesLeaveRoomForNewcomers)
{
  TestFace flood1 = addFace();
  TestFace flood2 = addFace();
  TestFace legit = addFace();
  TestFace producer = addFace();
  addRoute("/", producer);

  auto flood = [&](TestFace& f, uint32_t base) {
    for (uint32_t i = 0; i < 1000; ++i)
      f.receiveInterest(
        makeInterest(Name("/flood").append(std::to_string(base)).appendSequenceNumber(i), base + i + 1));
  };
  // alone, a face stops where its in-records equal the free entries: 15 of 30
  flood(flood1, 10000);
  EXPECT_EQ(fw->pit().inRecordCount(flood1.id()), 15u);
  EXPECT_EQ(fw->counters().nDropPitFaceQuota, 985u);
  // a second flooder gets 8 (8 held, 7 free), and the first cannot grow again
  flood(flood2, 20000);
  flood(flood1, 30000);
  EXPECT_EQ(fw->pit().inRecordCount(flood2.id()), 8u);
  EXPECT_EQ(fw->pit().inRecordCount(flood1.id()), 15u);
  EXPECT_EQ(fw->pit().size(), 23u);
  EXPECT_EQ(fw->counters().nDropPitFull, 0u) << "the table never fills";

  // a legitimate consumer arriving during the flood is admitted at once (4 held, 3 free)
  for (uint32_t i = 0; i < 10; ++i)
    legit.receiveInterest(makeInterest(Name("/legit").appendSequenceNumber(i), 5000 + i));
  EXPECT_EQ(fw->pit().inRecordCount(legit.id()), 4u);
  size_t forwardedLegit = 0;
  for (const SentPacket& p : producer.sentInterests())
    forwardedLegit += Name("/legit").isPrefixOf(p.interest->name()) ? 1 : 0;
  EXPECT_EQ(forwardedLegit, 4u);
  // and as its Data come back its entries free up, so the next Interests get in
  for (uint32_t i = 0; i < 4; ++i)
    producer.receiveData(makeData(Name("/legit").appendSequenceNumber(i)));
  EXPECT_EQ(legit.sentData().size(), 4u);
  for (uint32_t i = 4; i < 8; ++i)
    legit.receiveInterest(makeInterest(Name("/legit").appendSequenceNumber(i), 6000 + i));
  EXPECT_EQ(fw->pit().inRecordCount(legit.id()), 4u);
  EXPECT_LE(fw->nameTree().size(), 30u + 4u);

  // entries expire and the table empties
  advance(5s);
  EXPECT_EQ(fw->pit().size(), 0u);
  EXPECT_EQ(fw->pit().inRecordCount(flood1.id()), 0u);
  EXPECT_EQ(fw->pit().inRecordCount(flood2.id()), 0u);
  EXPECT_EQ(fw->nameTree().size(), 1u) << "only the root (FIB /) remains";
}

TEST_F(BoundedPitTest, HardPerFaceCap)
{
  fw->pit().setMaxInRecordsPerFace(5);
  TestFace flooder = addFace();
  TestFace producer = addFace();
  addRoute("/", producer);
  for (uint32_t i = 0; i < 100; ++i)
    flooder.receiveInterest(makeInterest(Name("/flood").appendSequenceNumber(i), i + 1));
  EXPECT_EQ(fw->pit().inRecordCount(flooder.id()), 5u);
  EXPECT_EQ(fw->counters().nDropPitFaceQuota, 95u);
}

TEST_F(ForwarderTest, NamesDeeperThanNameTreeLimit)
{
  TestFace c1 = addFace();
  TestFace c2 = addFace();
  TestFace producer = addFace();
  addRoute("/deep", producer);
  Name deep("/deep");
  for (int i = 0; i < 40; ++i)
    deep.append("c" + std::to_string(i));
  Name sibling = deep.getPrefix(-1);
  sibling.append("other");

  c1.receiveInterest(makeInterest(deep, 1));
  c2.receiveInterest(makeInterest(sibling, 2));
  EXPECT_EQ(fw->pit().size(), 2u) << "different names sharing the first 32 components";
  EXPECT_EQ(producer.sentInterests().size(), 2u);
  producer.receiveData(makeData(deep));
  EXPECT_EQ(c1.sentData().size(), 1u);
  EXPECT_TRUE(c2.sentData().empty());
  EXPECT_EQ(fw->pit().size(), 1u);
  EXPECT_LE(fw->nameTree().size(), table::NameTree::MaxDepth + 1);
}

TEST_F(ForwarderTest, TraceEvents)
{
  TestFace c1 = addFace();
  c1.receiveInterest(makeInterest("/x/1", 1));
  EXPECT_EQ(env.traceImpl.count(EventKind::InterestIn), 1u);
  EXPECT_EQ(env.traceImpl.count(EventKind::NackOut), 1u);
  EXPECT_EQ(env.traceImpl.count(EventKind::InterestUnsatisfied), 1u);
  Interest z = makeInterest("/x/2", 2);
  z.setHopLimit(0);
  c1.receiveInterest(z);
  EXPECT_EQ(env.traceImpl.count(EventKind::Drop, DropReason::HopLimitZero), 1u);
}

TEST_F(ForwarderTest, ReservedFaceAndIds)
{
  TestFace c1 = addFace();
  EXPECT_GE(c1.id(), face::FirstRegularFaceId);
  auto transport = std::make_unique<face::DummyTransport>(FaceScope::Local);
  auto ls = std::make_unique<face::GenericLinkService>(env);
  fw->addReservedFace(std::make_unique<face::Face>(env, std::move(ls), std::move(transport)), face::InternalFaceId);
  ASSERT_NE(fw->faceTable().get(face::InternalFaceId), nullptr);
  EXPECT_EQ(fw->addNextHop("/localhost/nfd", face::InternalFaceId, 0), FibStatus::Ok);
  EXPECT_EQ(fw->addNextHop("/x", 12345, 0), FibStatus::FaceNotFound);
  Name tooLong;
  for (int i = 0; i < 33; ++i)
    tooLong.append("c");
  EXPECT_EQ(fw->addNextHop(tooLong, c1.id(), 0), FibStatus::PrefixTooLong);
  EXPECT_EQ(fw->removeNextHop("/localhost/nfd", face::InternalFaceId), FibStatus::Ok);
  EXPECT_EQ(fw->removeNextHop("/localhost/nfd", face::InternalFaceId), FibStatus::NotFound);
}

} // namespace
} // namespace ndnlab::fw::tests
