#include "ns3/dcib/model/edge-receiver.hpp"
#include "ns3/dcib/model/wan-loss.hpp"

#include <gtest/gtest.h>

#include <random>

namespace ndnlab::dcib::test {
namespace {

PacketKey key(uint32_t n)
{
  PacketKey k;
  k.src = 1;
  k.dst = 2;
  k.protocol = 6;
  k.seq = n * 1000;
  k.ipId = static_cast<uint16_t>(n);
  return k;
}

const TimePoint t0{};

TEST(EdgeReceiver, AcksSelectedPacketsOnly)
{
  EdgeReceiver r;
  EXPECT_EQ(r.onPacket(Ecn::NotEct, key(1), t0), ReceiveAction::ForwardAndAck);
  EXPECT_EQ(r.onPacket(Ecn::Ect0, key(2), t0), ReceiveAction::Forward);
  EXPECT_EQ(r.onPacket(Ecn::Ce, key(3), t0), ReceiveAction::Forward);
  EXPECT_EQ(r.onPacket(Ecn::Ect1, key(4), t0), ReceiveAction::Forward);
  EXPECT_EQ(r.counters().acks, 1u);
  EXPECT_EQ(r.counters().selected, 1u);
  EXPECT_EQ(r.counters().copies, 1u);
  EXPECT_EQ(r.counters().packets, 4u);
}

TEST(EdgeReceiver, DuplicateCopiesAreDropped)
{
  EdgeReceiver r;
  EXPECT_EQ(r.onPacket(Ecn::NotEct, key(1), t0), ReceiveAction::ForwardAndAck);
  EXPECT_EQ(r.onPacket(Ecn::Ect1, key(1), t0), ReceiveAction::Drop);    // copy of a delivered one
  EXPECT_EQ(r.onPacket(Ecn::Ect1, key(2), t0), ReceiveAction::Forward); // copy of a lost one
  EXPECT_EQ(r.onPacket(Ecn::Ect1, key(2), t0), ReceiveAction::Drop);
  EXPECT_EQ(r.counters().duplicatesSuppressed, 2u);

  ReceiverOptions o;
  o.suppressDuplicates = false;
  EdgeReceiver keepAll(o);
  keepAll.onPacket(Ecn::NotEct, key(1), t0);
  EXPECT_EQ(keepAll.onPacket(Ecn::Ect1, key(1), t0), ReceiveAction::Forward);
}

TEST(EdgeReceiver, DedupWindowIsBounded)
{
  ReceiverOptions o;
  o.dedupWindow = 4;
  EdgeReceiver r(o);
  for (uint32_t i = 0; i < 10; ++i)
    r.onPacket(Ecn::NotEct, key(i), t0);
  EXPECT_EQ(r.onPacket(Ecn::Ect1, key(9), t0), ReceiveAction::Drop);    // remembered
  EXPECT_EQ(r.onPacket(Ecn::Ect1, key(0), t0), ReceiveAction::Forward); // forgotten
}

TEST(WanLoss, NonCooperativeDropsEveryClass)
{
  WanLoss w({WanLossMode::NonCooperative, 0.05, 0.1});
  EXPECT_DOUBLE_EQ(w.dropProbability(Ecn::NotEct), 0.05);
  EXPECT_DOUBLE_EQ(w.dropProbability(Ecn::Ect0), 0.05);
}

TEST(WanLoss, CooperativeDropsHalfOfTheNotEctTenPercent)
{
  WanLoss w({WanLossMode::Cooperative, 0.05, 0.1});
  EXPECT_DOUBLE_EQ(w.dropProbability(Ecn::NotEct), 0.5);
  EXPECT_DOUBLE_EQ(w.dropProbability(Ecn::Ect0), 0.0);
  EXPECT_DOUBLE_EQ(w.dropProbability(Ecn::Ect1), 0.0);
  // without DCIB every packet is Not-ECT: the same 5% as the non-cooperative WAN
  WanLoss base({WanLossMode::Cooperative, 0.05, 1.0});
  EXPECT_DOUBLE_EQ(base.dropProbability(Ecn::NotEct), 0.05);

  // 10% Not-ECT traffic: the total loss is 5%
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  int drops = 0;
  const int n = 200'000;
  for (int i = 0; i < n; ++i)
    drops += w.drop(i % 10 == 0 ? Ecn::NotEct : Ecn::Ect0, u(rng));
  EXPECT_NEAR(double(drops) / n, 0.05, 0.003);
  EXPECT_EQ(w.counters().dropsEct, 0u);
  EXPECT_EQ(w.counters().notEct, uint64_t(n / 10));
}

TEST(WanLoss, BadOptions)
{
  EXPECT_THROW(WanLoss({WanLossMode::Cooperative, 1.5, 0.1}), std::invalid_argument);
  EXPECT_THROW(WanLoss({WanLossMode::Cooperative, 0.05, 0.0}), std::invalid_argument);
  EXPECT_THROW(parseWanLossMode("coop"), std::invalid_argument);
  EXPECT_EQ(parseWanLossMode("cooperative"), WanLossMode::Cooperative);
}

} // namespace
} // namespace ndnlab::dcib::test
