// MIRCC explicit rate across one forwarder (docs/mechanisms/mircc.md): Data and Nacks
// from an upstream face with MIRCC on are stamped with min(carried rate, R_f) from a fake
// rate source; the rate reaches downstream faces with MIRCC on and no other. The three-hop
// path minimum is in topology.t.cpp (MirccChainTest).

#include "core/fw/tests/forwarder-fixture.hpp"

#include <map>
#include <optional>

namespace ndnlab::fw::tests {
namespace {

using face::FaceScope;
using face::LinkType;
using namespace std::chrono_literals;

class MirccRateTest : public ForwarderFixture
{
protected:
  MirccRateTest()
  {
    fw->setMirccRateSource([this](face::FaceId f) -> std::optional<Rate> {
      asked.push_back(f);
      auto it = rates.find(f);
      return it == rates.end() ? std::nullopt : std::optional<Rate>(it->second);
    });
  }

  /// consumer -> forwarder -> producer for `name`; the producer answers with `carried`.
  /// Returns what the consumer received.
  std::vector<SentPacket> fetch(TestFace& consumer, TestFace& producer, const Name& name, uint32_t nonce,
                                std::optional<Rate> carried = std::nullopt)
  {
    consumer.clearSent();
    consumer.receiveInterest(makeInterest(name, nonce));
    producer.receiveData(makeData(name), std::nullopt, false, carried);
    return consumer.sentData();
  }

  std::map<face::FaceId, Rate> rates; ///< R_f of the fake source; absent = no rate
  std::vector<face::FaceId> asked;
};

TEST_F(MirccRateTest, DataIsStampedWithTheUpstreamRate)
{
  TestFace consumer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  TestFace producer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  addRoute("/P", producer);
  rates[producer.id()] = Rate::mbps(5);

  auto got = fetch(consumer, producer, "/P/1", 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].mirccRate, Rate::mbps(5));
  EXPECT_EQ(asked, std::vector<face::FaceId>{producer.id()}) << "asked once, for the upstream face";

  // min(carried, R_f): a smaller carried rate wins, a larger one is lowered
  got = fetch(consumer, producer, "/P/2", 2, Rate::mbps(3));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].mirccRate, Rate::mbps(3));
  got = fetch(consumer, producer, "/P/3", 3, Rate::mbps(40));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].mirccRate, Rate::mbps(5));
}

TEST_F(MirccRateTest, NothingIsStampedWhenTheSourceHasNoRate)
{
  TestFace consumer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  TestFace producer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  addRoute("/P", producer);

  auto got = fetch(consumer, producer, "/P/1", 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].mirccRate);
  EXPECT_EQ(asked.size(), 1u);
  got = fetch(consumer, producer, "/P/2", 2, Rate::mbps(7));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].mirccRate, Rate::mbps(7)) << "the carried rate crosses unchanged";

  // no source at all: the same
  fw->setMirccRateSource(nullptr);
  got = fetch(consumer, producer, "/P/3", 3);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].mirccRate);
}

TEST_F(MirccRateTest, NoStampingFromAnUpstreamWithMirccOff)
{
  TestFace consumer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  TestFace producer = addFace(); // MIRCC off
  addRoute("/P", producer);
  rates[producer.id()] = Rate::mbps(5);

  auto got = fetch(consumer, producer, "/P/1", 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].mirccRate);
  EXPECT_TRUE(asked.empty());
  // decoded from any face: a carried rate still reaches a MIRCC downstream
  got = fetch(consumer, producer, "/P/2", 2, Rate::mbps(9));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].mirccRate, Rate::mbps(9));
}

TEST_F(MirccRateTest, RateIsStrippedTowardADownstreamWithMirccOff)
{
  TestFace legacy = addFace(); // MIRCC off: e.g. NFD or python-ndn behind it
  TestFace mircc = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  TestFace producer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  addRoute("/P", producer);
  rates[producer.id()] = Rate::mbps(5);

  legacy.receiveInterest(makeInterest("/P/1", 1));
  mircc.receiveInterest(makeInterest("/P/1", 2));
  ASSERT_EQ(producer.sentInterests().size(), 1u) << "aggregated";
  producer.receiveData(makeData("/P/1"));
  auto toLegacy = legacy.sentData();
  auto toMircc = mircc.sentData();
  ASSERT_EQ(toLegacy.size(), 1u);
  ASSERT_EQ(toMircc.size(), 1u);
  EXPECT_FALSE(toLegacy[0].mirccRate);
  EXPECT_EQ(legacy.transport().sent.back().frame, *makeData("/P/1").wireEncode()) << "bare Data, no LpPacket";
  EXPECT_EQ(toMircc[0].mirccRate, Rate::mbps(5));
}

TEST_F(MirccRateTest, ContentStoreHitCarriesNoStaleRate)
{
  TestFace consumer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  TestFace producer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  addRoute("/P", producer);
  rates[producer.id()] = Rate::mbps(5);
  consumer.receiveInterest(makeInterest("/P/1", 1));
  producer.receiveData(makeData("/P/1", 10s));
  consumer.clearSent();

  consumer.receiveInterest(makeInterest("/P/1", 2));
  auto got = consumer.sentData();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(fw->counters().nCsHits, 1u);
  EXPECT_FALSE(got[0].mirccRate) << "the rate describes a path, not the cached copy";
}

TEST_F(MirccRateTest, NackIsStampedAndCarriesTheSmallestUpstreamRate)
{
  TestFace consumer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  TestFace up1 = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  TestFace up2 = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  addRoute("/P", up1, 1);
  addRoute("/P", up2, 2);
  rates[up1.id()] = Rate::mbps(4);
  rates[up2.id()] = Rate::mbps(6);

  // best-route: the first Interest goes to up1, the consumer's retransmission to up2
  consumer.receiveInterest(makeInterest("/P/n", 1));
  advance(200ms);
  consumer.receiveInterest(makeInterest("/P/n", 2));
  auto i1 = up1.sentInterests();
  auto i2 = up2.sentInterests();
  ASSERT_EQ(i1.size(), 1u);
  ASSERT_EQ(i2.size(), 1u);
  up1.receiveNack(*i1[0].interest, NackReason::Congestion, std::nullopt, Rate::mbps(10)); // stamped 4
  EXPECT_TRUE(consumer.sentNacks().empty()) << "up2 still pending";
  up2.receiveNack(*i2[0].interest, NackReason::Congestion, std::nullopt, Rate::mbps(2)); // stays 2
  auto nacks = consumer.sentNacks();
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].mirccRate, Rate::mbps(2));
}

TEST_F(MirccRateTest, OwnNackCarriesNoRate)
{
  TestFace consumer = addFace(FaceScope::NonLocal, LinkType::PointToPoint, mirccOn());
  consumer.receiveInterest(makeInterest("/nowhere/1", 1)); // no route: Nack NoRoute
  auto nacks = consumer.sentNacks();
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::NoRoute);
  EXPECT_FALSE(nacks[0].mirccRate);
  EXPECT_TRUE(asked.empty());
}

} // namespace
} // namespace ndnlab::fw::tests
