#include "core/table/small-vector.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace ndnlab::table::tests {
namespace {

TEST(SmallVector, InlineThenHeap)
{
  SmallVector<std::string, 2> v;
  EXPECT_TRUE(v.empty());
  v.emplace_back("a");
  v.push_back("b");
  EXPECT_EQ(v.capacity(), 2u);
  v.emplace_back("c");
  EXPECT_GE(v.capacity(), 3u);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0], "a");
  EXPECT_EQ(v.back(), "c");
  v.erase(v.begin() + 1);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1], "c");
  v.clear();
  EXPECT_TRUE(v.empty());
}

TEST(SmallVector, MoveOnlyElementsAndMoves)
{
  SmallVector<std::unique_ptr<int>, 1> a;
  a.emplace_back(std::make_unique<int>(1));
  SmallVector<std::unique_ptr<int>, 1> b(std::move(a));
  EXPECT_TRUE(a.empty());
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(*b[0], 1);
  b.emplace_back(std::make_unique<int>(2));
  b.emplace_back(std::make_unique<int>(3));
  SmallVector<std::unique_ptr<int>, 1> c;
  c = std::move(b);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(*c[2], 3);
  c.erase(c.begin());
  EXPECT_EQ(*c.front(), 2);
  int sum = 0;
  for (const auto& p : c)
    sum += *p;
  EXPECT_EQ(sum, 5);
}

} // namespace
} // namespace ndnlab::table::tests
