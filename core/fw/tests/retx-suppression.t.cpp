#include "core/fw/retx-suppression.hpp"

#include "core/face/dummy-transport.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

namespace ndnlab::fw::tests {
namespace {

using namespace std::chrono_literals;

class RetxSuppressionTest : public ::testing::Test
{
protected:
  RetxSuppressionTest()
  {
    interest->setNonce(1);
    up = std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env),
                                      std::make_unique<face::DummyTransport>());
  }
  ManualEnv env;
  table::NameTree nt;
  table::Pit pit{nt};
  std::shared_ptr<Interest> interest = std::make_shared<Interest>(Name("/a"));
  std::unique_ptr<face::Face> up;
};

TEST_F(RetxSuppressionTest, PerPitEntryExponential)
{
  RetxSuppressionExponential retx;
  table::PitEntry& e = *pit.insert(interest).first;
  EXPECT_EQ(retx.decidePerPitEntry(e, 1, env.now()), RetxSuppressionResult::New);
  e.insertOrUpdateOutRecord(*up, *interest, env.now(), 24h);
  env.advance(9ms);
  EXPECT_EQ(retx.decidePerPitEntry(e, 1, env.now()), RetxSuppressionResult::Suppress);
  env.advance(1ms);
  EXPECT_EQ(retx.decidePerPitEntry(e, 1, env.now()), RetxSuppressionResult::Forward);
  EXPECT_EQ(e.strategyInfo.get<RetxSuppressionExponential::Info>(1)->interval, 20ms);
  e.outRecords()[0].incomingNack = NackReason::Congestion;
  EXPECT_EQ(retx.decidePerPitEntry(e, 1, env.now()), RetxSuppressionResult::New) << "a Nacked upstream is not pending";
  pit.erase(&e);
}

TEST_F(RetxSuppressionTest, PerUpstream)
{
  RetxSuppressionExponential retx({5ms, 12ms, 3.0});
  table::PitEntry& e = *pit.insert(interest).first;
  EXPECT_EQ(retx.decidePerUpstream(e, *up, 1, env.now()), RetxSuppressionResult::New);
  table::PitOutRecord& r = e.insertOrUpdateOutRecord(*up, *interest, env.now(), 24h);
  env.advance(4ms);
  EXPECT_EQ(retx.decidePerUpstream(e, *up, 1, env.now()), RetxSuppressionResult::Suppress);
  env.advance(1ms);
  EXPECT_EQ(retx.decidePerUpstream(e, *up, 1, env.now()), RetxSuppressionResult::Forward);
  retx.incrementIntervalForOutRecord(r, 1);
  EXPECT_EQ(r.strategyInfo.get<RetxSuppressionExponential::Info>(1)->interval, 12ms) << "15 capped";
  pit.erase(&e);
}

TEST(RetxSuppressionOptions, Parameters)
{
  RetxSuppressionOptions o;
  EXPECT_EQ(o.applyParameter("retx-suppression-initial", "20"), "");
  EXPECT_EQ(o.applyParameter("retx-suppression-max", "500"), "");
  EXPECT_EQ(o.applyParameter("retx-suppression-multiplier", "1.5"), "");
  EXPECT_EQ(o.initial, 20ms);
  EXPECT_EQ(o.max, 500ms);
  EXPECT_EQ(o.multiplier, 1.5);
  EXPECT_EQ(o.validate(), "");
  EXPECT_NE(o.applyParameter("retx-suppression-initial", "abc"), "");
  EXPECT_NE(o.applyParameter("other", "1"), "");
  o.max = 1ms;
  EXPECT_NE(o.validate(), "");
}

} // namespace
} // namespace ndnlab::fw::tests
