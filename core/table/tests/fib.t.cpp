#include "core/table/fib.hpp"

#include "core/table/tests/table-fixture.hpp"

#include <gtest/gtest.h>

namespace ndnlab::table::tests {
namespace {

class FibTest : public ::testing::Test
{
protected:
  ManualEnv env;
  NameTree nt;
  Fib fib{nt};
  std::unique_ptr<face::Face> f1 = makeFace(env, 301), f2 = makeFace(env, 302), f3 = makeFace(env, 303);
};

TEST_F(FibTest, LongestPrefixMatch)
{
  EXPECT_EQ(fib.findLongestPrefixMatch("/a/b").prefix(), Name()) << "empty root entry";
  EXPECT_FALSE(fib.findLongestPrefixMatch("/a/b").hasNextHops());

  fib.addOrUpdateNextHop(*fib.insert("/").first, *f1, 10);
  fib.addOrUpdateNextHop(*fib.insert("/a").first, *f2, 10);
  fib.addOrUpdateNextHop(*fib.insert("/a/b/c").first, *f3, 10);
  EXPECT_EQ(fib.size(), 3u);
  EXPECT_EQ(fib.findLongestPrefixMatch("/a/b").prefix(), Name("/a"));
  EXPECT_EQ(fib.findLongestPrefixMatch("/a/b/c").prefix(), Name("/a/b/c"));
  EXPECT_EQ(fib.findLongestPrefixMatch("/a/b/c/d/e").prefix(), Name("/a/b/c"));
  EXPECT_EQ(fib.findLongestPrefixMatch("/b").prefix(), Name("/"));
  EXPECT_EQ(fib.findLongestPrefixMatch("/").prefix(), Name("/"));
  EXPECT_EQ(fib.findExactMatch("/a/b"), nullptr);
  ASSERT_NE(fib.findExactMatch("/a"), nullptr);
}

TEST_F(FibTest, NextHopsSortedByCost)
{
  FibEntry& e = *fib.insert("/a").first;
  EXPECT_TRUE(fib.addOrUpdateNextHop(e, *f1, 30));
  EXPECT_TRUE(fib.addOrUpdateNextHop(e, *f2, 10));
  EXPECT_TRUE(fib.addOrUpdateNextHop(e, *f3, 20));
  ASSERT_EQ(e.nextHops().size(), 3u);
  EXPECT_EQ(e.nextHops()[0].face, f2.get());
  EXPECT_EQ(e.nextHops()[1].face, f3.get());
  EXPECT_EQ(e.nextHops()[2].face, f1.get());
  EXPECT_FALSE(fib.addOrUpdateNextHop(e, *f1, 5)) << "update, not new";
  EXPECT_EQ(e.nextHops()[0].face, f1.get());
  EXPECT_EQ(e.nextHops()[0].cost, 5u);
}

TEST_F(FibTest, RemoveNextHopErasesEmptyEntry)
{
  FibEntry& e = *fib.insert("/a/b").first;
  fib.addOrUpdateNextHop(e, *f1, 1);
  fib.addOrUpdateNextHop(e, *f2, 1);
  EXPECT_TRUE(fib.removeNextHop(e, *f1));
  EXPECT_EQ(fib.size(), 1u);
  EXPECT_TRUE(fib.removeNextHop(e, *f2));
  EXPECT_EQ(fib.size(), 0u);
  EXPECT_EQ(nt.size(), 0u);
}

TEST_F(FibTest, RemoveFaceFromAllEntries)
{
  for (const char* p : {"/a", "/a/b", "/c", "/d/e/f"}) {
    FibEntry& e = *fib.insert(p).first;
    fib.addOrUpdateNextHop(e, *f1, 1);
  }
  fib.addOrUpdateNextHop(*fib.findExactMatch("/c"), *f2, 1);
  EXPECT_EQ(fib.removeNextHopFromAllEntries(*f1), 4u);
  EXPECT_EQ(fib.size(), 1u);
  ASSERT_NE(fib.findExactMatch("/c"), nullptr);
  EXPECT_EQ(fib.findExactMatch("/c")->nextHops().size(), 1u);
  EXPECT_EQ(nt.size(), 2u);
}

TEST_F(FibTest, PrefixTooLong)
{
  Name n;
  for (int i = 0; i < 33; ++i)
    n.append("x");
  EXPECT_EQ(fib.insert(n).first, nullptr);
  EXPECT_NE(fib.insert(n.getPrefix(32)).first, nullptr);
}

TEST_F(FibTest, AfterNewNextHopSignal)
{
  int calls = 0;
  fib.afterNewNextHop = [&](const Name& prefix, const NextHop& nh) {
    ++calls;
    EXPECT_EQ(prefix, Name("/a"));
    EXPECT_EQ(nh.face, f1.get());
  };
  FibEntry& e = *fib.insert("/a").first;
  fib.addOrUpdateNextHop(e, *f1, 1);
  fib.addOrUpdateNextHop(e, *f1, 2);
  EXPECT_EQ(calls, 1);
}

} // namespace
} // namespace ndnlab::table::tests
