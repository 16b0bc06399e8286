#include "core/mgmt/rib.hpp"

#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

namespace ndnlab::mgmt {
namespace {

/// Records the FIB the RIB asks for.
class FakeFib final : public FibUpdater
{
public:
  void addNextHop(const Name& prefix, face::FaceId face, uint64_t cost) override
  {
    fib[prefix][face] = cost;
    ++nAdds;
  }
  void removeNextHop(const Name& prefix, face::FaceId face) override
  {
    fib[prefix].erase(face);
    if (fib[prefix].empty())
      fib.erase(prefix);
    ++nRemoves;
  }
  std::map<face::FaceId, uint64_t> at(const Name& n) const
  {
    auto it = fib.find(n);
    return it == fib.end() ? std::map<face::FaceId, uint64_t>{} : it->second;
  }

  std::map<Name, std::map<face::FaceId, uint64_t>> fib;
  int nAdds = 0, nRemoves = 0;
};

using Hops = std::map<face::FaceId, uint64_t>;

Route route(face::FaceId face, uint64_t cost, uint64_t flags = RouteFlagChildInherit, uint64_t origin = 0)
{
  return Route{face, origin, cost, flags, std::nullopt};
}

class RibTest : public ::testing::Test
{
protected:
  ManualEnv env;
  FakeFib fib;
  Rib rib{env, fib};
};

TEST_F(RibTest, RegisterRefreshUnregister)
{
  EXPECT_EQ(rib.insert("/a", route(300, 10), std::nullopt), Rib::InsertResult::Inserted);
  EXPECT_EQ(fib.at("/a"), (Hops{{300, 10}}));
  // Same (prefix, face, origin): updated in place, never duplicated.
  EXPECT_EQ(rib.insert("/a", route(300, 5), std::nullopt), Rib::InsertResult::Updated);
  EXPECT_EQ(rib.nRoutes(), 1u);
  EXPECT_EQ(fib.at("/a"), (Hops{{300, 5}}));
  // Another origin on the same face is a separate route; the FIB keeps the lowest cost.
  EXPECT_EQ(rib.insert("/a", route(300, 1, RouteFlagChildInherit, 65), std::nullopt), Rib::InsertResult::Inserted);
  EXPECT_EQ(rib.nRoutes(), 2u);
  EXPECT_EQ(fib.at("/a"), (Hops{{300, 1}}));

  EXPECT_FALSE(rib.erase("/a", 300, 7));
  EXPECT_TRUE(rib.erase("/a", 300, 65));
  EXPECT_EQ(fib.at("/a"), (Hops{{300, 5}}));
  EXPECT_TRUE(rib.erase("/a", 300, 0));
  EXPECT_TRUE(fib.fib.empty());
  EXPECT_EQ(rib.nPrefixes(), 0u);
}

TEST_F(RibTest, ExpirationAndRefresh)
{
  rib.insert("/p", route(300, 0), std::chrono::seconds(10));
  env.advance(std::chrono::seconds(6));
  ASSERT_EQ(rib.list().size(), 1u);
  EXPECT_EQ(rib.list()[0].routes[0].expirationPeriod, std::chrono::milliseconds(4000));
  // Refresh (NDNts re-registers periodically) restarts the period.
  rib.insert("/p", route(300, 0), std::chrono::seconds(10));
  env.advance(std::chrono::seconds(6));
  EXPECT_EQ(rib.nRoutes(), 1u);
  EXPECT_EQ(fib.at("/p"), (Hops{{300, 0}}));
  env.advance(std::chrono::seconds(4));
  EXPECT_EQ(rib.nRoutes(), 0u);
  EXPECT_TRUE(fib.fib.empty());

  // Refresh without ExpirationPeriod makes the route permanent.
  rib.insert("/q", route(300, 0), std::chrono::seconds(1));
  rib.insert("/q", route(300, 0), std::nullopt);
  env.advance(std::chrono::hours(1));
  EXPECT_EQ(rib.nRoutes(), 1u);
  EXPECT_FALSE(rib.list()[0].routes[0].expirationPeriod);
}

TEST_F(RibTest, RemoveFaceRemovesAllItsRoutes)
{
  rib.insert("/a", route(300, 0), std::nullopt);
  rib.insert("/a", route(301, 0), std::nullopt);
  rib.insert("/b", route(300, 0, 0, 65), std::nullopt);
  rib.insert("/b/c", route(300, 0), std::chrono::seconds(5));
  EXPECT_EQ(rib.removeFace(300), 3u);
  EXPECT_EQ(rib.nRoutes(), 1u);
  EXPECT_EQ(rib.nPrefixes(), 1u);
  EXPECT_EQ(fib.at("/a"), (Hops{{301, 0}}));
  EXPECT_EQ(fib.at("/b"), Hops{});
  // The expiry timer of a removed route is gone too.
  env.advance(std::chrono::seconds(10));
  EXPECT_EQ(rib.nRoutes(), 1u);
}

TEST_F(RibTest, ChildInheritAndCapture)
{
  rib.insert("/", route(400, 100), std::nullopt); // default route, inherits
  rib.insert("/a", route(300, 10), std::nullopt);
  rib.insert("/a/b", route(301, 5, 0), std::nullopt); // no ChildInherit
  rib.insert("/a/b/c", route(302, 1), std::nullopt);
  EXPECT_EQ(fib.at("/a"), (Hops{{300, 10}, {400, 100}}));
  EXPECT_EQ(fib.at("/a/b"), (Hops{{301, 5}, {300, 10}, {400, 100}}));
  // /a/b's route has no ChildInherit: /a/b/c does not get face 301.
  EXPECT_EQ(fib.at("/a/b/c"), (Hops{{302, 1}, {300, 10}, {400, 100}}));

  // Capture on /a: descendants stop inheriting above /a (face 400 disappears below /a).
  rib.insert("/a", route(300, 10, RouteFlagChildInherit | RouteFlagCapture), std::nullopt);
  EXPECT_EQ(fib.at("/a"), (Hops{{300, 10}}));
  EXPECT_EQ(fib.at("/a/b"), (Hops{{301, 5}, {300, 10}}));
  EXPECT_EQ(fib.at("/a/b/c"), (Hops{{302, 1}, {300, 10}}));

  // Removing /a's route: descendants are recomputed and inherit from / again.
  rib.erase("/a", 300, 0);
  EXPECT_EQ(fib.at("/a"), Hops{});
  EXPECT_EQ(fib.at("/a/b/c"), (Hops{{302, 1}, {400, 100}}));
  EXPECT_EQ(fib.at("/a/b"), (Hops{{301, 5}, {400, 100}}));

  // An own route on a face beats an inherited cheaper one on the same face.
  rib.insert("/x", route(500, 1), std::nullopt);
  rib.insert("/x/y", route(500, 9), std::nullopt);
  EXPECT_EQ(fib.at("/x/y"), (Hops{{500, 9}, {400, 100}}));
}

TEST_F(RibTest, BoundedAndListed)
{
  FakeFib f2;
  Rib small(env, f2, {.maxRoutes = 2});
  EXPECT_EQ(small.insert("/a", route(1, 0), std::nullopt), Rib::InsertResult::Inserted);
  EXPECT_EQ(small.insert("/b", route(1, 0), std::nullopt), Rib::InsertResult::Inserted);
  EXPECT_EQ(small.insert("/c", route(1, 0), std::nullopt), Rib::InsertResult::Full);
  // Refreshing an existing route still works at the limit.
  EXPECT_EQ(small.insert("/a", route(1, 3), std::nullopt), Rib::InsertResult::Updated);
  auto l = small.list();
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].prefix, Name("/a"));
  EXPECT_EQ(l[0].routes[0].cost, 3u);
  EXPECT_EQ(l[1].prefix, Name("/b"));
}

} // namespace
} // namespace ndnlab::mgmt
