#include "core/table/cs.hpp"

#include "core/table/tests/table-fixture.hpp"

#include <gtest/gtest.h>

namespace ndnlab::table::tests {
namespace {

using namespace std::chrono_literals;

Interest interest(const Name& n, bool cbp = false, bool mbf = false)
{
  Interest i(n);
  i.setCanBePrefix(cbp).setMustBeFresh(mbf).setNonce(1);
  return i;
}

class CsTest : public ::testing::Test
{
protected:
  ManualEnv env;
  Cs cs{env, CsOptions{.capacity = 100, .maxBytes = 0}};
};

TEST_F(CsTest, ExactAndPrefixLookup)
{
  cs.insert(makeDataPtr("/a/b/c"));
  cs.insert(makeDataPtr("/a/b"));
  cs.insert(makeDataPtr("/a/c"));
  EXPECT_EQ(cs.size(), 3u);

  auto hit = cs.find(interest("/a/b"));
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->name(), Name("/a/b"));
  EXPECT_EQ(cs.find(interest("/a")), nullptr) << "no CanBePrefix: exact only";
  auto p = cs.find(interest("/a", true));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->name(), Name("/a/b")) << "leftmost in canonical order";
  auto q = cs.find(interest("/a/b/c", true));
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->name(), Name("/a/b/c"));
  EXPECT_EQ(cs.find(interest("/a/d", true)), nullptr);
  EXPECT_EQ(cs.find(interest("/b", true)), nullptr);
  EXPECT_EQ(cs.counters().nHits, 3u);
  EXPECT_EQ(cs.counters().nMisses, 3u);
}

TEST_F(CsTest, FreshnessAndMustBeFresh)
{
  cs.insert(makeDataPtr("/f", 100ms));
  cs.insert(makeDataPtr("/z", 0ms));
  EXPECT_NE(cs.find(interest("/f", false, true)), nullptr);
  EXPECT_EQ(cs.find(interest("/z", false, true)), nullptr) << "FreshnessPeriod 0 is never fresh";
  EXPECT_NE(cs.find(interest("/z")), nullptr) << "stale Data still answers without MustBeFresh";
  env.advance(99ms);
  EXPECT_NE(cs.find(interest("/f", false, true)), nullptr);
  env.advance(1ms);
  EXPECT_EQ(cs.find(interest("/f", false, true)), nullptr);
  cs.insert(makeDataPtr("/f", 100ms));
  EXPECT_EQ(cs.size(), 2u) << "same Data: refreshed, not duplicated";
  EXPECT_NE(cs.find(interest("/f", false, true)), nullptr) << "re-insertion refreshes";
  EXPECT_EQ(cs.counters().nRefreshes, 1u);
}

TEST_F(CsTest, MustBeFreshPrefixSkipsStale)
{
  cs.insert(makeDataPtr("/p/1", 0ms));
  cs.insert(makeDataPtr("/p/2", 1s));
  auto d = cs.find(interest("/p", true, true));
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->name(), Name("/p/2"));
}

TEST_F(CsTest, ImplicitDigest)
{
  auto a = makeDataPtr("/d", 0ms, "one");
  auto b = makeDataPtr("/d", 0ms, "two");
  cs.insert(a);
  cs.insert(b);
  EXPECT_EQ(cs.size(), 2u) << "same name, different content: two entries";
  auto hitA = cs.find(interest(a->fullName()));
  auto hitB = cs.find(interest(b->fullName()));
  ASSERT_NE(hitA, nullptr);
  ASSERT_NE(hitB, nullptr);
  EXPECT_EQ(hitA->implicitDigest(), a->implicitDigest());
  EXPECT_EQ(hitB->implicitDigest(), b->implicitDigest());
  auto c = makeDataPtr("/d", 0ms, "three");
  EXPECT_EQ(cs.find(interest(c->fullName())), nullptr);
}

TEST_F(CsTest, NoCacheIsNotAdmitted)
{
  auto d = makeDataPtr("/n");
  d->tags.noCache = true;
  cs.insert(d);
  EXPECT_EQ(cs.size(), 0u);
  EXPECT_EQ(cs.counters().nNotAdmitted, 1u);
  cs.enableAdmit(false);
  cs.insert(makeDataPtr("/m"));
  EXPECT_EQ(cs.size(), 0u);
  cs.enableAdmit(true);
  cs.insert(makeDataPtr("/m"));
  cs.enableServe(false);
  EXPECT_EQ(cs.find(interest("/m")), nullptr);
}

TEST_F(CsTest, LruEviction)
{
  Cs small(env, CsOptions{.capacity = 3, .maxBytes = 0});
  small.insert(makeDataPtr("/1"));
  small.insert(makeDataPtr("/2"));
  small.insert(makeDataPtr("/3"));
  ASSERT_NE(small.find(interest("/1")), nullptr); // /1 becomes most recently used
  small.insert(makeDataPtr("/4"));
  EXPECT_EQ(small.size(), 3u);
  EXPECT_EQ(small.find(interest("/2")), nullptr) << "least recently used evicted";
  EXPECT_NE(small.find(interest("/1")), nullptr);
  small.insert(makeDataPtr("/3")); // refresh moves /3 to the back
  small.insert(makeDataPtr("/5"));
  EXPECT_EQ(small.find(interest("/4")), nullptr);
  EXPECT_NE(small.find(interest("/3")), nullptr);
  std::vector<std::string> order;
  small.forEachLru([&](const CsEntry& e) { order.push_back(e.name().toUri()); });
  EXPECT_EQ(order, (std::vector<std::string>{"/1", "/5", "/3"}));
  small.setCapacity(1);
  EXPECT_EQ(small.size(), 1u);
  EXPECT_NE(small.find(interest("/3")), nullptr);
}

TEST_F(CsTest, ByteBound)
{
  auto probe = makeDataPtr("/b/0", 0ms, std::string(1000, 'x'));
  size_t one = probe->wireSize();
  Cs bounded(env, CsOptions{.capacity = 1000, .maxBytes = one * 5 + one / 2});
  for (int i = 0; i < 50; ++i)
    bounded.insert(makeDataPtr(Name("/b").appendSegment(static_cast<uint64_t>(i)), 0ms, std::string(1000, 'x')));
  EXPECT_EQ(bounded.size(), 5u);
  EXPECT_LE(bounded.bytes(), bounded.maxBytes());
  EXPECT_EQ(bounded.counters().nEvictions, 45u);
}

TEST_F(CsTest, ZeroCapacityDisables)
{
  Cs off(env, CsOptions{.capacity = 0});
  off.insert(makeDataPtr("/x"));
  EXPECT_EQ(off.size(), 0u);
  EXPECT_EQ(off.find(interest("/x")), nullptr);
}

TEST_F(CsTest, ScanLimitBoundsPrefixLookup)
{
  Cs limited(env, CsOptions{.capacity = 1000, .maxBytes = 0, .scanLimit = 10});
  for (int i = 0; i < 100; ++i)
    limited.insert(makeDataPtr(Name("/s").appendSegment(static_cast<uint64_t>(i)), 0ms));
  limited.insert(makeDataPtr(Name("/s").appendSegment(500), 10s));
  EXPECT_EQ(limited.find(interest("/s", true, true)), nullptr) << "the fresh entry lies beyond the scan limit";
  EXPECT_NE(limited.find(interest("/s", true, false)), nullptr);
}

TEST_F(CsTest, EraseByPrefix)
{
  for (int i = 0; i < 5; ++i)
    cs.insert(makeDataPtr(Name("/e").appendSegment(static_cast<uint64_t>(i))));
  cs.insert(makeDataPtr("/f/1"));
  EXPECT_EQ(cs.erase("/e", 2), 2u);
  EXPECT_EQ(cs.size(), 4u);
  EXPECT_EQ(cs.erase("/e"), 3u);
  EXPECT_EQ(cs.size(), 1u);
  EXPECT_NE(cs.find(interest("/f/1")), nullptr);
}

TEST_F(CsTest, FloodStaysBounded)
{
  Cs bounded(env, CsOptions{.capacity = 500, .maxBytes = 0});
  for (uint64_t i = 0; i < 5000; ++i)
    bounded.insert(makeDataPtr(Name("/flood").appendSequenceNumber(i)));
  EXPECT_EQ(bounded.size(), 500u);
  EXPECT_NE(bounded.find(interest(Name("/flood").appendSequenceNumber(4999))), nullptr);
  EXPECT_EQ(bounded.find(interest(Name("/flood").appendSequenceNumber(4000))), nullptr);
}

} // namespace
} // namespace ndnlab::table::tests
