#include "core/table/name-tree.hpp"

#include "core/table/fib.hpp"

#include <gtest/gtest.h>

namespace ndnlab::table::tests {
namespace {

TEST(NameTree, LookupCreatesAncestors)
{
  NameTree nt(16);
  NameTreeEntry& e = nt.lookup("/a/b/c");
  EXPECT_EQ(e.name(), Name("/a/b/c"));
  EXPECT_EQ(nt.size(), 4u);
  ASSERT_NE(e.parent(), nullptr);
  EXPECT_EQ(e.parent()->name(), Name("/a/b"));
  EXPECT_EQ(e.parent()->parent()->parent()->name(), Name());
  EXPECT_EQ(e.parent()->parent()->parent()->parent(), nullptr);
  EXPECT_EQ(e.parent()->nChildren(), 1u);
  EXPECT_EQ(&nt.lookup("/a/b/c"), &e);
  nt.lookup("/a/x");
  EXPECT_EQ(nt.size(), 5u);
  EXPECT_EQ(nt.findExactMatch("/a")->nChildren(), 2u);
}

TEST(NameTree, PrefixLengthArgument)
{
  NameTree nt;
  NameTreeEntry& e = nt.lookup("/a/b/c", 2);
  EXPECT_EQ(e.name(), Name("/a/b"));
  EXPECT_EQ(nt.findExactMatch("/a/b/c", 2), &e);
  EXPECT_EQ(nt.findExactMatch("/a/b/c"), nullptr);
}

TEST(NameTree, LongestPrefixMatch)
{
  NameTree nt;
  EXPECT_EQ(nt.findLongestPrefixMatch("/a"), nullptr);
  nt.lookup("/a/b/c/d/e/f");
  nt.lookup("/a/x");
  EXPECT_EQ(nt.findLongestPrefixMatch("/a/b/c/d/e/f/g/h")->name(), Name("/a/b/c/d/e/f"));
  EXPECT_EQ(nt.findLongestPrefixMatch("/a/b/c/q")->name(), Name("/a/b/c"));
  EXPECT_EQ(nt.findLongestPrefixMatch("/a/x/y")->name(), Name("/a/x"));
  EXPECT_EQ(nt.findLongestPrefixMatch("/z")->name(), Name());
  EXPECT_EQ(nt.findLongestPrefixMatch("/a/b/c/d", 2)->name(), Name("/a/b"));
}

TEST(NameTree, MaxDepthTruncates)
{
  NameTree nt;
  Name deep;
  for (int i = 0; i < 40; ++i)
    deep.append("c" + std::to_string(i));
  NameTreeEntry& e = nt.lookup(deep);
  EXPECT_EQ(e.name().size(), NameTree::MaxDepth);
  EXPECT_EQ(nt.size(), NameTree::MaxDepth + 1);
  EXPECT_EQ(nt.findLongestPrefixMatch(deep), &e);
}

TEST(NameTree, EraseIfEmptyPrunesAncestors)
{
  NameTree nt;
  Fib fib(nt);
  fib.insert("/a");
  NameTreeEntry& leaf = nt.lookup("/a/b/c");
  EXPECT_EQ(nt.size(), 4u);
  EXPECT_EQ(nt.eraseIfEmpty(&leaf), 2u) << "/a/b/c and /a/b; /a has a FIB entry";
  EXPECT_EQ(nt.size(), 2u);
  EXPECT_EQ(nt.findExactMatch("/a/b"), nullptr);
  fib.erase(Name("/a"));
  EXPECT_EQ(nt.size(), 0u);
}

TEST(NameTree, GrowsAndShrinks)
{
  NameTree nt(16);
  std::vector<NameTreeEntry*> leaves;
  for (int i = 0; i < 5000; ++i)
    leaves.push_back(&nt.lookup(Name("/p").appendSequenceNumber(static_cast<uint64_t>(i))));
  EXPECT_EQ(nt.size(), 5002u);
  EXPECT_GE(nt.bucketCount(), 4096u);
  for (int i = 0; i < 5000; ++i)
    EXPECT_EQ(nt.findExactMatch(Name("/p").appendSequenceNumber(static_cast<uint64_t>(i))), leaves[i]);
  for (NameTreeEntry* e : leaves)
    nt.eraseIfEmpty(e);
  EXPECT_EQ(nt.size(), 0u);
  EXPECT_LE(nt.bucketCount(), 64u);
}

} // namespace
} // namespace ndnlab::table::tests
