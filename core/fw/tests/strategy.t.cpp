// Strategy instance names, the registry, and custom strategies.

#include "core/fw/strategies/best-route-strategy.hpp"
#include "core/fw/tests/forwarder-fixture.hpp"

namespace ndnlab::fw::tests {
namespace {

using namespace std::chrono_literals;

TEST(StrategyInstanceName, Parse)
{
  auto p = StrategyInstanceName::parse("/localhost/nfd/strategy/best-route/v=5/a~1/b~x");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->strategyName, Name("/localhost/nfd/strategy/best-route"));
  EXPECT_EQ(p->version, 5u);
  ASSERT_EQ(p->parameters.size(), 2u);
  EXPECT_EQ(p->parameters[0], (std::pair<std::string, std::string>{"a", "1"}));
  EXPECT_EQ(p->parameters[1], (std::pair<std::string, std::string>{"b", "x"}));
  EXPECT_EQ(p->parameterComponents.size(), 2u);

  auto u = StrategyInstanceName::parse("/localhost/nfd/strategy/multicast");
  ASSERT_TRUE(u);
  EXPECT_FALSE(u->version);
  EXPECT_TRUE(u->parameters.empty());

  EXPECT_FALSE(StrategyInstanceName::parse("/s/v=1/novalue"));
}

TEST(StrategyRegistry, Builtins)
{
  StrategyRegistry r = StrategyRegistry::withBuiltins();
  auto names = r.names();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_TRUE(r.contains("/localhost/nfd/strategy/best-route"));
  EXPECT_TRUE(r.contains(Name("/localhost/nfd/strategy/best-route").appendVersion(5)));
  EXPECT_FALSE(r.contains(Name("/localhost/nfd/strategy/best-route").appendVersion(4)));
  EXPECT_TRUE(r.contains("/localhost/nfd/strategy/multicast"));
  EXPECT_FALSE(r.contains("/localhost/nfd/strategy/asf"));
  EXPECT_THROW(r.add(Name("/localhost/nfd/strategy/best-route").appendVersion(5), nullptr), std::invalid_argument);
  EXPECT_THROW(r.add("/no/version", nullptr), std::invalid_argument);
}

/// A strategy that drops everything, to check custom registration.
class SilentStrategy : public Strategy
{
public:
  SilentStrategy(Forwarder& fw, Name n) : Strategy(fw, std::move(n)) {}
  void afterReceiveInterest(const Interest&, const FaceEndpoint&, table::PitEntry&) override { ++calls; }
  static inline int calls = 0;
};

class StrategyTest : public ForwarderFixture
{};

TEST_F(StrategyTest, CustomStrategyHighestVersionWins)
{
  for (uint64_t v : {1, 3, 2}) {
    fw->strategyRegistry().add(
      Name("/localhost/nfd/strategy/silent").appendVersion(v),
      [](Forwarder& f, const Name& n, const StrategyInstanceName&) -> Result<std::unique_ptr<Strategy>, std::string> {
        return std::unique_ptr<Strategy>(std::make_unique<SilentStrategy>(f, n));
      });
  }
  ASSERT_TRUE(fw->setStrategy("/S", "/localhost/nfd/strategy/silent"));
  EXPECT_EQ(fw->strategyChoice().get("/S")->toUri(), "/localhost/nfd/strategy/silent/v=3");
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  addRoute("/S", p1);
  SilentStrategy::calls = 0;
  c1.receiveInterest(makeInterest("/S/1", 1));
  EXPECT_EQ(SilentStrategy::calls, 1);
  EXPECT_TRUE(p1.sent().empty());
  EXPECT_EQ(fw->pit().size(), 1u) << "a silent strategy leaves the entry to expire";
  advance(4s);
  EXPECT_EQ(fw->pit().size(), 0u);
}

TEST_F(StrategyTest, ReplacingTheRunningStrategyIsSafe)
{
  // The strategy of "/" is replaced while one of its triggers is running.
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  addRoute("/", p1);
  fw->afterFaceCleanup.connect([](face::Face&) {});
  fw->strategyRegistry().add(
    Name("/localhost/nfd/strategy/switcher").appendVersion(1),
    [](Forwarder& f, const Name& n, const StrategyInstanceName&) -> Result<std::unique_ptr<Strategy>, std::string> {
      struct Switcher : Strategy
      {
        using Strategy::Strategy;
        void afterReceiveInterest(const Interest& i, const FaceEndpoint& in, table::PitEntry& e) override
        {
          forwarder().setStrategy("/", "/localhost/nfd/strategy/best-route");
          // still alive: keep using members after being replaced
          sendInterest(i, *lookupFib(e).nextHops().front().face, e);
          (void)in;
        }
      };
      return std::unique_ptr<Strategy>(std::make_unique<Switcher>(f, n));
    });
  ASSERT_TRUE(fw->setStrategy("/", "/localhost/nfd/strategy/switcher"));
  c1.receiveInterest(makeInterest("/x", 1));
  EXPECT_EQ(p1.sentInterests().size(), 1u);
  EXPECT_EQ(fw->strategyChoice().get("/")->toUri(), "/localhost/nfd/strategy/best-route/v=5");
}

} // namespace
} // namespace ndnlab::fw::tests
