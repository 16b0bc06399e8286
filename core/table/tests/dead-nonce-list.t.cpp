#include "core/table/dead-nonce-list.hpp"

#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

namespace ndnlab::table::tests {
namespace {

using namespace std::chrono_literals;

TEST(DeadNonceList, RemembersForLifetime)
{
  ManualEnv env;
  DeadNonceList dnl(env);
  EXPECT_EQ(dnl.lifetime(), 6s);
  dnl.add("/a", 1);
  EXPECT_TRUE(dnl.has("/a", 1));
  EXPECT_FALSE(dnl.has("/a", 2));
  EXPECT_FALSE(dnl.has("/b", 1));
  env.advance(5999ms);
  EXPECT_TRUE(dnl.has("/a", 1));
  env.advance(1ms);
  EXPECT_FALSE(dnl.has("/a", 1));
  EXPECT_EQ(dnl.size(), 0u);
}

TEST(DeadNonceList, DuplicatesKeepLaterInsertion)
{
  ManualEnv env;
  DeadNonceList dnl(env, {1s, 100});
  dnl.add("/a", 1);
  env.advance(600ms);
  dnl.add("/a", 1);
  env.advance(600ms);
  EXPECT_TRUE(dnl.has("/a", 1)) << "the second insertion is still alive";
  env.advance(600ms);
  EXPECT_FALSE(dnl.has("/a", 1));
}

TEST(DeadNonceList, CapacityBound)
{
  ManualEnv env;
  DeadNonceList dnl(env, {6s, 1000});
  Name flood("/flood");
  for (uint32_t i = 0; i < 20000; ++i)
    dnl.add(flood, i);
  EXPECT_EQ(dnl.size(), 1000u);
  EXPECT_EQ(dnl.nEvictedEarly(), 19000u);
  EXPECT_FALSE(dnl.has(flood, 0));
  EXPECT_TRUE(dnl.has(flood, 19999));
  EXPECT_TRUE(dnl.has(flood, 19000));
  EXPECT_FALSE(dnl.has(flood, 18999));
}

TEST(DeadNonceList, ManyEntriesExpire)
{
  ManualEnv env;
  DeadNonceList dnl(env, {100ms, 1 << 20});
  for (uint32_t i = 0; i < 20000; ++i) {
    dnl.add(Name("/n").appendSequenceNumber(i), i);
    if (i % 1000 == 0)
      env.advance(1ms);
  }
  for (uint32_t i = 19000; i < 20000; ++i)
    ASSERT_TRUE(dnl.has(Name("/n").appendSequenceNumber(i), i)) << i;
  env.advance(200ms);
  EXPECT_FALSE(dnl.has(Name("/n").appendSequenceNumber(19999), 19999));
  EXPECT_EQ(dnl.size(), 0u);
}

TEST(DeadNonceList, RejectsBadOptions)
{
  ManualEnv env;
  EXPECT_THROW(DeadNonceList(env, {10ms, 100}), std::invalid_argument);
  EXPECT_THROW(DeadNonceList(env, {1s, 0}), std::invalid_argument);
}

} // namespace
} // namespace ndnlab::table::tests
