#include "core/table/strategy-choice.hpp"

#include "core/table/pit.hpp"

#include <gtest/gtest.h>

namespace ndnlab::table::tests {
namespace {

class FakeStrategy : public StrategyBase
{
public:
  explicit FakeStrategy(Name n) : StrategyBase(std::move(n)) {}
};

/// Knows /s/a/v=1, /s/a/v=2 and /s/b/v=1; an unversioned name picks the highest version.
Result<std::unique_ptr<StrategyBase>, std::string> factory(const Name& n)
{
  if (!n.empty() && n[-1].isVersion()) {
    Name base = n.getPrefix(-1);
    uint64_t v = *n[-1].toNumber();
    if ((base == Name("/s/a") && (v == 1 || v == 2)) || (base == Name("/s/b") && v == 1))
      return std::unique_ptr<StrategyBase>(std::make_unique<FakeStrategy>(n));
    return fail(std::string("unknown version"));
  }
  if (n == Name("/s/a"))
    return std::unique_ptr<StrategyBase>(std::make_unique<FakeStrategy>(Name("/s/a").appendVersion(2)));
  if (n == Name("/s/b"))
    return std::unique_ptr<StrategyBase>(std::make_unique<FakeStrategy>(Name("/s/b").appendVersion(1)));
  return fail(std::string("unknown strategy"));
}

TEST(StrategyChoice, LongestPrefixAndVersions)
{
  NameTree nt;
  StrategyChoice sc(nt, factory);
  sc.setDefaultStrategy("/s/a");
  EXPECT_EQ(sc.get("/")->toUri(), "/s/a/v=2");
  ASSERT_TRUE(sc.insert("/x", "/s/b"));
  ASSERT_TRUE(sc.insert("/x/y/z", Name("/s/a").appendVersion(1)));
  EXPECT_EQ(sc.size(), 3u);
  EXPECT_EQ(sc.findEffectiveStrategy("/q").instanceName().toUri(), "/s/a/v=2");
  EXPECT_EQ(sc.findEffectiveStrategy("/x/y").instanceName().toUri(), "/s/b/v=1");
  EXPECT_EQ(sc.findEffectiveStrategy("/x/y/z/w").instanceName().toUri(), "/s/a/v=1");
  EXPECT_FALSE(sc.get("/x/y"));

  auto bad = sc.insert("/w", "/s/c");
  EXPECT_FALSE(bad);
  EXPECT_EQ(bad.error, "unknown strategy");
  EXPECT_FALSE(sc.insert("/w", Name("/s/b").appendVersion(7)));

  auto entries = sc.entries();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0]->prefix(), Name());
  EXPECT_EQ(entries[1]->prefix(), Name("/x"));
  EXPECT_EQ(entries[2]->prefix(), Name("/x/y/z"));

  EXPECT_TRUE(sc.erase("/x"));
  EXPECT_FALSE(sc.erase("/x"));
  EXPECT_FALSE(sc.erase("/")) << "the root choice cannot be unset";
  EXPECT_EQ(sc.findEffectiveStrategy("/x/y").instanceName().toUri(), "/s/a/v=2");
}

TEST(StrategyChoice, ReplacedInstanceLivesUntilClearRetired)
{
  NameTree nt;
  StrategyChoice sc(nt, factory);
  sc.setDefaultStrategy("/s/a");
  StrategyBase* old = &sc.findEffectiveStrategy("/p");
  uint64_t oldSerial = old->serial();
  ASSERT_TRUE(sc.insert("/", "/s/b"));
  EXPECT_EQ(old->serial(), oldSerial) << "still alive";
  EXPECT_NE(sc.findEffectiveStrategy("/p").serial(), oldSerial);
  sc.clearRetired();
}

TEST(StrategyChoice, DefaultMustExist)
{
  NameTree nt;
  StrategyChoice sc(nt, factory);
  EXPECT_THROW(sc.setDefaultStrategy("/nope"), std::invalid_argument);
}

} // namespace
} // namespace ndnlab::table::tests
