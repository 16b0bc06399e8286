#include "io/face-admission.hpp"

#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace ndnlab::io {
namespace {

TEST(FaceAdmission, BoundsInAllAndPerAddressAndTicketsGiveBack)
{
  ManualEnv env;
  FaceAdmission a(env, FaceLimits{.maxFaces = 3, .maxFacesPerAddress = 2}, "tcp4://test");
  std::vector<FaceAdmission::Ticket> held;
  held.push_back(a.admit("10.0.0.1"));
  held.push_back(a.admit("10.0.0.1"));
  EXPECT_FALSE(a.admit("10.0.0.1")); // its third
  held.push_back(a.admit("10.0.0.2"));
  EXPECT_FALSE(a.admit("10.0.0.3")); // the channel's fourth
  for (const auto& t : held)
    EXPECT_TRUE(t);
  EXPECT_EQ(a.faces(), 3u);
  EXPECT_EQ(a.counters().nTooManyFacesPerAddress, 1u);
  EXPECT_EQ(a.counters().nTooManyFaces, 1u);
  EXPECT_EQ(env.traceImpl.count(EventKind::IoDrop, DropReason::TooManyFaces), 1u);
  EXPECT_EQ(env.traceImpl.count(EventKind::IoDrop, DropReason::TooManyFacesPerAddress), 1u);

  held.erase(held.begin()); // one face from 10.0.0.1 ends
  EXPECT_EQ(a.faces(), 2u);
  EXPECT_EQ(a.facesFrom("10.0.0.1"), 1u);
  EXPECT_TRUE(a.admit("10.0.0.3"));
}

TEST(FaceAdmission, UnixClientsHaveNoAddressBound)
{
  ManualEnv env;
  FaceAdmission a(env, FaceLimits{.maxFaces = 2, .maxFacesPerAddress = 1}, "unix://test");
  auto t1 = a.admit({});
  auto t2 = a.admit({});
  EXPECT_TRUE(t1 && t2);
  EXPECT_FALSE(a.admit({}));
  EXPECT_EQ(a.counters().nTooManyFaces, 1u);
}

TEST(FaceAdmission, RefusalsAreLoggedOncePerInterval)
{
  ManualEnv env;
  FaceAdmission a(env, FaceLimits{.maxFaces = 1}, "tcp4://test");
  auto held = a.admit("10.0.0.1");
  auto warnings = [&] {
    return std::count_if(env.logImpl.lines.begin(), env.logImpl.lines.end(),
                         [](const auto& l) { return l.level == LogLevel::Warn; });
  };
  for (int i = 0; i < 100; ++i)
    EXPECT_FALSE(a.admit("10.0.0.2"));
  EXPECT_EQ(warnings(), 1);
  env.advance(FaceAdmission::LogInterval);
  EXPECT_FALSE(a.admit("10.0.0.2"));
  EXPECT_EQ(warnings(), 2);
  EXPECT_EQ(a.counters().nTooManyFaces, 101u);
}

TEST(FaceAdmission, TicketsMayOutliveTheChannel)
{
  ManualEnv env;
  FaceAdmission::Ticket t;
  {
    FaceAdmission a(env, FaceLimits{.maxFaces = 1}, "tcp4://test");
    t = a.admit("10.0.0.1");
  }
  t.reset(); // gives back to nothing, harmlessly
  SUCCEED();
}

} // namespace
} // namespace ndnlab::io
