#include "core/table/pit.hpp"

#include "core/table/tests/table-fixture.hpp"

#include <gtest/gtest.h>

namespace ndnlab::table::tests {
namespace {

using namespace std::chrono_literals;

class PitTest : public ::testing::Test
{
protected:
  ManualEnv env;
  NameTree nt;
  Pit pit{nt};
  std::unique_ptr<face::Face> f1 = makeFace(env, 301), f2 = makeFace(env, 302);
};

TEST_F(PitTest, KeyIsNameCanBePrefixMustBeFresh)
{
  auto [a, newA] = pit.insert(makeInterestPtr("/a", 1));
  EXPECT_TRUE(newA);
  auto [a2, newA2] = pit.insert(makeInterestPtr("/a", 2));
  EXPECT_FALSE(newA2);
  EXPECT_EQ(a, a2) << "aggregated: same Name/CBP/MBF, different Nonce";
  auto [b, newB] = pit.insert(makeInterestPtr("/a", 3, true));
  auto [c, newC] = pit.insert(makeInterestPtr("/a", 4, false, true));
  auto [d, newD] = pit.insert(makeInterestPtr("/a", 5, false, false, 100ms));
  EXPECT_TRUE(newB);
  EXPECT_TRUE(newC);
  EXPECT_FALSE(newD) << "lifetime is not part of the key";
  EXPECT_NE(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(pit.size(), 3u);
  EXPECT_EQ(pit.find(*makeInterestPtr("/a", 9, true)), b);
  EXPECT_EQ(pit.find(*makeInterestPtr("/a/b", 9)), nullptr);
  EXPECT_EQ(nt.size(), 2u);
  pit.erase(a);
  pit.erase(b);
  pit.erase(c);
  EXPECT_EQ(pit.size(), 0u);
  EXPECT_EQ(nt.size(), 0u);
}

TEST_F(PitTest, FindAllDataMatches)
{
  PitEntry* exact = pit.insert(makeInterestPtr("/a/b", 1)).first;
  PitEntry* prefix = pit.insert(makeInterestPtr("/a", 2, true)).first;
  PitEntry* noPrefix = pit.insert(makeInterestPtr("/a", 3)).first;
  PitEntry* root = pit.insert(makeInterestPtr("/a/b/c", 4, true)).first;
  auto data = makeDataPtr("/a/b");
  auto m = pit.findAllDataMatches(*data);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0], exact) << "deepest first";
  EXPECT_EQ(m[1], prefix);
  (void)noPrefix;
  (void)root;
  EXPECT_TRUE(pit.findAllDataMatches(*makeDataPtr("/z")).empty());
}

TEST_F(PitTest, FullNameInterestHangsAtDataName)
{
  auto data = makeDataPtr("/a/b", 0ms, "payload");
  PitEntry* e = pit.insert(makeInterestPtr(data->fullName(), 1)).first;
  EXPECT_EQ(e->nameTreeEntry()->name(), Name("/a/b"));
  auto m = pit.findAllDataMatches(*data);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], e);
  EXPECT_TRUE(pit.findAllDataMatches(*makeDataPtr("/a/b", 0ms, "other")).empty());
}

TEST_F(PitTest, InRecordsAreCountedPerFace)
{
  PitEntry* e = pit.insert(makeInterestPtr("/a", 1)).first;
  auto i1 = makeInterestPtr("/a", 1);
  pit.insertOrUpdateInRecord(*e, *f1, 0, i1, std::nullopt, env.now());
  pit.insertOrUpdateInRecord(*e, *f1, 0, makeInterestPtr("/a", 7), std::nullopt, env.now());
  EXPECT_EQ(e->inRecords().size(), 1u);
  EXPECT_EQ(e->inRecords()[0].lastNonce, 7u);
  EXPECT_EQ(pit.inRecordCount(f1->id()), 1u);
  PitToken tok;
  tok.size = 1;
  tok.bytes[0] = 0x42;
  pit.insertOrUpdateInRecord(*e, *f2, 0, makeInterestPtr("/a", 8, false, false, 1s), tok, env.now());
  EXPECT_EQ(pit.inRecordCount(f2->id()), 1u);
  EXPECT_EQ(e->findInRecord(*f2)->pitToken, tok);
  EXPECT_EQ(e->findInRecord(*f2)->expiry, env.now() + 1s);
  EXPECT_TRUE(pit.deleteInRecord(*e, *f1));
  EXPECT_EQ(pit.inRecordCount(f1->id()), 0u);
  pit.erase(e);
  EXPECT_EQ(pit.inRecordCount(f2->id()), 0u);
}

TEST_F(PitTest, OutRecords)
{
  PitEntry* e = pit.insert(makeInterestPtr("/a", 1)).first;
  auto& r = e->insertOrUpdateOutRecord(*f1, *makeInterestPtr("/a", 5, false, false, 2s), env.now(), 24h);
  r.incomingNack = NackReason::NoRoute;
  env.advance(1s);
  e->insertOrUpdateOutRecord(*f1, *makeInterestPtr("/a", 6), env.now(), 24h);
  ASSERT_EQ(e->outRecords().size(), 1u);
  EXPECT_EQ(e->outRecords()[0].lastNonce, 6u);
  EXPECT_FALSE(e->outRecords()[0].incomingNack) << "renewal clears the Nack";
  EXPECT_EQ(e->outRecords()[0].expiry, env.now() + 4s);
  EXPECT_TRUE(e->deleteOutRecord(*f1));
  EXPECT_FALSE(e->deleteOutRecord(*f1));
}

TEST_F(PitTest, LifetimeIsCapped)
{
  Pit capped(nt, PitOptions{100, 0, 1.0, 10s});
  PitEntry* e = capped.insert(makeInterestPtr("/a", 1)).first;
  capped.insertOrUpdateInRecord(*e, *f1, 0, makeInterestPtr("/a", 1, false, false, 1h), std::nullopt, env.now());
  EXPECT_EQ(e->inRecords()[0].expiry, env.now() + 10s);
  capped.erase(e);
}

TEST_F(PitTest, MaxEntriesAndPerFaceQuota)
{
  Pit small(nt, PitOptions{3, 2, 0.0, 24h}); // hard cap only
  for (uint32_t i = 0; i < 3; ++i)
    EXPECT_NE(small.insert(makeInterestPtr(Name("/a").appendSegment(i), i)).first, nullptr);
  EXPECT_EQ(small.insert(makeInterestPtr("/b", 9)).first, nullptr);
  EXPECT_NE(small.insert(makeInterestPtr(Name("/a").appendSegment(1), 10)).first, nullptr)
    << "an existing entry is still found when full";
  EXPECT_EQ(small.size(), 3u);

  std::vector<PitEntry*> entries;
  small.forEach([&](PitEntry& e) { entries.push_back(&e); });
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_TRUE(small.canAddInRecord(f1->id()));
  small.insertOrUpdateInRecord(*entries[0], *f1, 0, makeInterestPtr("/x", 1), std::nullopt, env.now());
  small.insertOrUpdateInRecord(*entries[1], *f1, 0, makeInterestPtr("/x", 1), std::nullopt, env.now());
  EXPECT_FALSE(small.canAddInRecord(f1->id()));
  EXPECT_TRUE(small.canAddInRecord(f2->id()));
  small.removeFace(*f1);
  EXPECT_TRUE(small.canAddInRecord(f1->id()));
  for (PitEntry* e : entries)
    small.erase(e);
}

TEST_F(PitTest, DynamicShareAdmitsNewcomers)
{
  // a = 1, 12 entries: one face alone stops below half the table (held < free)
  Pit fair(nt, PitOptions{12, 0, 1.0, 24h});
  auto admit = [&](face::Face& f, uint32_t n) {
    auto [e, isNew] = fair.insert(makeInterestPtr(Name("/f").append(std::to_string(f.id())).appendSegment(n), n));
    if (e == nullptr)
      return false;
    if (!fair.canAddInRecord(f.id(), isNew ? 1 : 0)) {
      if (isNew)
        fair.erase(e);
      return false;
    }
    fair.insertOrUpdateInRecord(*e, f, 0, makeInterestPtr("/x", n), std::nullopt, env.now());
    return true;
  };
  uint32_t n = 0;
  while (admit(*f1, n))
    ++n;
  EXPECT_EQ(fair.inRecordCount(f1->id()), 6u) << "held 6 = free 6 stops a single face at 1/2";
  EXPECT_EQ(fair.size(), 6u);

  // a second face is admitted at once and the two settle at about 1/3 each
  uint32_t m = 0;
  while (admit(*f2, 100 + m))
    ++m;
  EXPECT_EQ(fair.inRecordCount(f2->id()), 3u) << "held 3 = free 3";
  EXPECT_FALSE(admit(*f1, 1000)) << "the first face is over its share now";
  EXPECT_LT(fair.size(), 12u) << "the table never fills";

  // a third face still finds room
  auto f3 = makeFace(env, 303);
  EXPECT_TRUE(admit(*f3, 2000));

  // an in-record on an existing entry counts too; factor 0 turns the share off
  fair.setShareFactor(0.0);
  EXPECT_TRUE(admit(*f1, 3000));
  std::vector<PitEntry*> entries;
  fair.forEach([&](PitEntry& e) { entries.push_back(&e); });
  for (PitEntry* e : entries)
    fair.erase(e);
  EXPECT_EQ(fair.inRecordCount(f1->id()), 0u);
}

TEST_F(PitTest, ExpiryHeapOrdersEntries)
{
  std::vector<PitEntry*> e;
  for (uint32_t i = 0; i < 6; ++i)
    e.push_back(pit.insert(makeInterestPtr(Name("/a").appendSegment(i), i)).first);
  TimePoint t0 = env.now();
  pit.setExpiry(*e[0], t0 + 50ms);
  pit.setExpiry(*e[1], t0 + 10ms);
  pit.setExpiry(*e[2], t0 + 30ms);
  pit.setExpiry(*e[3], t0 + 20ms);
  pit.setExpiry(*e[4], t0 + 40ms);
  pit.setExpiry(*e[2], t0 + 5ms);  // reschedule earlier
  pit.setExpiry(*e[1], t0 + 60ms); // reschedule later
  pit.cancelExpiry(*e[4]);
  EXPECT_FALSE(e[4]->isExpiryScheduled());
  EXPECT_FALSE(e[5]->isExpiryScheduled());
  EXPECT_EQ(pit.nextExpiry(), t0 + 5ms);
  EXPECT_EQ(pit.popExpired(t0 + 4ms), nullptr);
  std::vector<PitEntry*> order;
  while (PitEntry* x = pit.popExpired(t0 + 100ms))
    order.push_back(x);
  EXPECT_EQ(order, (std::vector<PitEntry*>{e[2], e[3], e[0], e[1]}));
  EXPECT_FALSE(pit.nextExpiry());
  pit.setExpiry(*e[5], t0);
  pit.erase(e[5]);
  EXPECT_FALSE(pit.nextExpiry()) << "erase unschedules";
}

TEST_F(PitTest, StrategyInfoSlotIsOwned)
{
  struct Info : StrategyInfo
  {
    explicit Info(int v) : value(v) {}
    int value;
  };
  PitEntry* e = pit.insert(makeInterestPtr("/a", 1)).first;
  EXPECT_EQ(e->strategyInfo.get<Info>(7), nullptr);
  e->strategyInfo.getOrCreate<Info>(7, 42);
  EXPECT_EQ(e->strategyInfo.get<Info>(7)->value, 42);
  EXPECT_EQ(e->strategyInfo.get<Info>(8), nullptr) << "another strategy sees nothing";
  EXPECT_EQ(e->strategyInfo.getOrCreate<Info>(8, 1).value, 1);
  EXPECT_EQ(e->strategyInfo.get<Info>(7), nullptr);
}

} // namespace
} // namespace ndnlab::table::tests
