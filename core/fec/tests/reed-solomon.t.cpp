// Reed-Solomon erasure coding (core/fec): any k of the k + m shards give the data back, whichever
// are lost; fewer than k give nothing; parity counts follow NDN-RTC's rule; bad input is refused.

#include "core/fec/reed-solomon.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ndnlab::fec::tests {
namespace {

/// k shards of `len` bytes whose content depends on shard and position.
std::vector<Shard> dataShards(size_t k, size_t len)
{
  std::vector<Shard> d(k, Shard(len));
  for (size_t i = 0; i < k; ++i)
    for (size_t j = 0; j < len; ++j)
      d[i][j] = static_cast<uint8_t>((i * 131 + j * 7 + 3) & 0xff);
  return d;
}

std::vector<ShardView> views(const std::vector<Shard>& s)
{
  return {s.begin(), s.end()};
}

/// The k + m shards as they would arrive, with those in `lost` missing.
std::vector<std::optional<ShardView>> arrived(const std::vector<Shard>& data, const std::vector<Shard>& parity,
                                              std::vector<size_t> lost)
{
  std::vector<std::optional<ShardView>> all;
  for (const Shard& s : data)
    all.emplace_back(ShardView(s));
  for (const Shard& s : parity)
    all.emplace_back(ShardView(s));
  for (size_t i : lost)
    all[i].reset();
  return all;
}

TEST(ParityCount, FollowsNdnRtcsRule)
{
  EXPECT_EQ(parityCount(10, 0.2), 2u);
  EXPECT_EQ(parityCount(11, 0.2), 3u) << "ceil(2.2)";
  EXPECT_EQ(parityCount(1, 0.2), 1u) << "at least one";
  EXPECT_EQ(parityCount(5, 0.2), 1u);
  EXPECT_EQ(parityCount(5, 1.0), 5u) << "ndnrtc-v4's ratio";
  EXPECT_EQ(parityCount(10, 0.0), 0u) << "0 = off";
  EXPECT_EQ(parityCount(0, 0.2), 0u);
  EXPECT_THROW(parityCount(10, -0.1), std::invalid_argument);
  EXPECT_THROW(parityCount(10, std::nan("")), std::invalid_argument);
}

TEST(ReedSolomon, EveryPatternOfUpToMLossesIsRecovered)
{
  const size_t k = 6, m = 3, len = 100;
  ReedSolomon rs(k, m);
  auto data = dataShards(k, len);
  auto parity = rs.encode(views(data));
  ASSERT_EQ(parity.size(), m);
  for (const Shard& p : parity)
    EXPECT_EQ(p.size(), len);
  // all 2^9 loss patterns: recovered exactly when at most m are lost
  for (unsigned mask = 0; mask < (1u << (k + m)); ++mask) {
    std::vector<size_t> lost;
    for (size_t i = 0; i < k + m; ++i)
      if (mask & (1u << i))
        lost.push_back(i);
    auto got = rs.recover(arrived(data, parity, lost));
    if (lost.size() <= m) {
      ASSERT_TRUE(got) << "mask " << mask;
      EXPECT_EQ(*got, data) << "mask " << mask;
    }
    else {
      EXPECT_FALSE(got) << "mask " << mask;
    }
  }
}

TEST(ReedSolomon, LargeFrameLosingOnlyDataShards)
{
  const size_t k = 200, m = 40, len = 1000; // a key frame of 200 segments at ratio 0.2
  ReedSolomon rs(k, m);
  auto data = dataShards(k, len);
  auto parity = rs.encode(views(data));
  std::vector<size_t> lost(m);
  std::iota(lost.begin(), lost.end(), 50); // 40 data shards in a row
  auto got = rs.recover(arrived(data, parity, lost));
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, data);
}

TEST(ReedSolomon, OneSegmentFrameComesBackFromItsParityAlone)
{
  // the paper's Sect. 5.2.2: a one-segment frame's parity was "unsuitable for recovery"
  ReedSolomon rs(1, parityCount(1, 0.2));
  auto data = dataShards(1, 8000);
  auto parity = rs.encode(views(data));
  ASSERT_EQ(parity.size(), 1u);
  auto got = rs.recover(arrived(data, parity, {0}));
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, data);
}

TEST(ReedSolomon, NoParityIsTheDataAlone)
{
  ReedSolomon rs(3, 0);
  auto data = dataShards(3, 8);
  EXPECT_TRUE(rs.encode(views(data)).empty());
  EXPECT_EQ(*rs.recover(arrived(data, {}, {})), data);
  EXPECT_FALSE(rs.recover(arrived(data, {}, {1})));
}

TEST(ReedSolomon, RefusesBadShapes)
{
  EXPECT_THROW(ReedSolomon(0, 2), std::invalid_argument);
  EXPECT_THROW(ReedSolomon(200, 56), std::invalid_argument);
  EXPECT_NO_THROW(ReedSolomon(200, 55));
  ReedSolomon rs(2, 1);
  auto data = dataShards(2, 4);
  EXPECT_THROW(rs.encode(views(dataShards(3, 4))), std::invalid_argument) << "three shards for k = 2";
  data[1].pop_back();
  EXPECT_THROW(rs.encode(views(data)), std::invalid_argument) << "unequal sizes";
  EXPECT_THROW(rs.encode(views(dataShards(2, 0))), std::invalid_argument) << "empty shards";
  auto good = dataShards(2, 4);
  auto parity = rs.encode(views(good));
  auto slots = arrived(good, parity, {});
  EXPECT_THROW(rs.recover(std::span(slots).first(2)), std::invalid_argument) << "too few slots";
  Shard shorter(3, 0);
  slots[2] = ShardView(shorter);
  EXPECT_THROW(rs.recover(slots), std::invalid_argument) << "a shard of another size";
}

TEST(SplitJoin, PadsTheLastShardAndJoinUndoesIt)
{
  std::vector<uint8_t> payload(2500);
  std::iota(payload.begin(), payload.end(), 0);
  auto shards = split(payload, 1000);
  ASSERT_EQ(shards.size(), 3u);
  EXPECT_EQ(shards[2].size(), 1000u);
  EXPECT_EQ(shards[2][600], 0) << "zero padding";
  EXPECT_EQ(join(shards, payload.size()), payload);
  EXPECT_TRUE(split({}, 1000).empty());
  EXPECT_THROW(split(payload, 0), std::invalid_argument);
  EXPECT_THROW(join(shards, 3001), std::invalid_argument);

  // a frame through the code: split, lose two segments, recover, join
  ReedSolomon rs(shards.size(), parityCount(shards.size(), 0.2) + 1);
  auto parity = rs.encode(views(shards));
  auto got = rs.recover(arrived(shards, parity, {0, 2}));
  ASSERT_TRUE(got);
  EXPECT_EQ(join(*got, payload.size()), payload);
}

} // namespace
} // namespace ndnlab::fec::tests
