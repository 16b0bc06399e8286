#include "core/lp/fragmenter.hpp"

#include <gtest/gtest.h>

namespace ndnlab::lp {
namespace {

Buffer makePacket(size_t n)
{
  Buffer b(n);
  for (size_t i = 0; i < n; ++i)
    b[i] = static_cast<uint8_t>(i * 7 + 3);
  return b;
}

PitToken token8()
{
  PitToken t;
  t.size = 8;
  for (uint8_t i = 0; i < 8; ++i)
    t.bytes[i] = i + 1;
  return t;
}

struct Decoded
{
  std::vector<LpPacket> pkts;
  Buffer joined;
};

Decoded decodeAll(const std::vector<SharedBuffer>& frames)
{
  Decoded d;
  for (const auto& f : frames) {
    auto r = decodeFrame(*f);
    EXPECT_TRUE(r.ok());
    if (!r.ok())
      continue;
    EXPECT_TRUE(r->fragment.has_value());
    d.joined.insert(d.joined.end(), r->fragment->begin(), r->fragment->end());
    d.pkts.push_back(*r);
  }
  return d;
}

struct SizeCase
{
  size_t packet;
  size_t mtu;
};

class FragmenterSizes : public ::testing::TestWithParam<SizeCase>
{};

TEST_P(FragmenterSizes, FramesFitMtuAndCarryConsecutiveSequences)
{
  auto [size, mtu] = GetParam();
  Buffer packet = makePacket(size);
  LpPacket header;
  header.pitToken = token8();
  header.nack = 150;
  header.congestionMark = 1;

  Fragmenter frag({}, 1000);
  auto r = frag.fragment(header, packet, mtu);
  ASSERT_TRUE(r.ok()) << reasonName(r.error());
  const auto& frames = *r;
  ASSERT_FALSE(frames.empty());
  for (const auto& f : frames)
    EXPECT_LE(f->size(), mtu);

  Decoded d = decodeAll(frames);
  ASSERT_EQ(d.pkts.size(), frames.size());
  EXPECT_EQ(d.joined, packet);
  for (size_t i = 0; i < d.pkts.size(); ++i) {
    const LpPacket& p = d.pkts[i];
    EXPECT_EQ(p.sequence, 1000 + i);
    EXPECT_EQ(p.fragIndex, i);
    EXPECT_EQ(p.fragCount, frames.size());
    if (i == 0) {
      EXPECT_EQ(p.pitToken, header.pitToken);
      EXPECT_EQ(p.nack, 150u);
      EXPECT_EQ(p.congestionMark, 1u);
    }
    else {
      EXPECT_FALSE(p.pitToken || p.nack || p.congestionMark);
    }
  }
  EXPECT_EQ(frag.nextSequence(), 1000 + frames.size());

  // Not wasteful: at most 50 octets of overhead per fragment beyond the first's header.
  size_t perFragment = mtu - 50;
  size_t bound = (size + headerFieldsSize(header) + perFragment - 1) / perFragment;
  EXPECT_LE(frames.size(), bound + 1);
}

INSTANTIATE_TEST_SUITE_P(Sizes, FragmenterSizes,
                         ::testing::Values(SizeCase{1, 100}, SizeCase{200, 100}, SizeCase{1000, 100},
                                           SizeCase{1500, 1500}, SizeCase{8800, 1500}, SizeCase{9000, 1400},
                                           SizeCase{65000, 8800}, SizeCase{300000, 65467}, SizeCase{10000, 251},
                                           SizeCase{10000, 256}, SizeCase{10000, 70000}));

TEST(Fragmenter, ExactFitEdgesNeverExceedMtu)
{
  // Sweep sizes around the fragment boundaries for a small MTU.
  for (size_t mtu : {80u, 97u, 128u, 252u, 253u, 254u, 300u}) {
    for (size_t size = 1; size < 1200; size += 13) {
      Fragmenter frag;
      Buffer packet = makePacket(size);
      auto r = frag.fragment(LpPacket{}, packet, mtu);
      ASSERT_TRUE(r.ok()) << mtu << " " << size;
      for (const auto& f : *r)
        ASSERT_LE(f->size(), mtu) << mtu << " " << size;
      EXPECT_EQ(decodeAll(*r).joined, packet);
    }
  }
}

TEST(Fragmenter, MtuTooSmallConsumesNoSequence)
{
  Fragmenter frag({}, 5);
  Buffer packet = makePacket(100);
  LpPacket header;
  header.pitToken = token8();
  auto r = frag.fragment(header, packet, 30);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), FragmentErrc::MtuTooSmall);
  EXPECT_EQ(frag.nextSequence(), 5u);
  // without the token it fits
  EXPECT_TRUE(frag.fragment(LpPacket{}, packet, 30).ok());
}

TEST(Fragmenter, TooManyFragments)
{
  Fragmenter frag({.maxFragments = 3}, 0);
  Buffer packet = makePacket(1000);
  auto r = frag.fragment(LpPacket{}, packet, 200);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), FragmentErrc::TooManyFragments);
  EXPECT_EQ(frag.nextSequence(), 0u);
  auto ok = frag.fragment(LpPacket{}, makePacket(400), 200);
  ASSERT_TRUE(ok.ok());
  EXPECT_LE(ok->size(), 3u);
}

TEST(Fragmenter, DefaultLimitIs400)
{
  Fragmenter frag;
  EXPECT_EQ(frag.options().maxFragments, 400u);
  Buffer packet = makePacket(400 * 100);
  auto r = frag.fragment(LpPacket{}, packet, 100);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), FragmentErrc::TooManyFragments);
}

TEST(Fragmenter, SequenceWrapsAround)
{
  Fragmenter frag({}, UINT64_MAX - 1);
  auto r = frag.fragment(LpPacket{}, makePacket(250), 100);
  ASSERT_TRUE(r.ok());
  ASSERT_GE(r->size(), 3u);
  Decoded d = decodeAll(*r);
  EXPECT_EQ(d.pkts[0].sequence, UINT64_MAX - 1);
  EXPECT_EQ(d.pkts[1].sequence, UINT64_MAX);
  EXPECT_EQ(d.pkts[2].sequence, 0u);
  // Sequence - FragIndex is the same for every fragment
  for (const auto& p : d.pkts)
    EXPECT_EQ(*p.sequence - *p.fragIndex, UINT64_MAX - 1);
}

TEST(Fragmenter, IgnoresFragmentationFieldsOfTheHeader)
{
  Fragmenter frag({}, 10);
  LpPacket header;
  header.sequence = 77;
  header.fragIndex = 5;
  header.fragCount = 9;
  auto r = frag.fragment(header, makePacket(300), 100);
  ASSERT_TRUE(r.ok());
  Decoded d = decodeAll(*r);
  EXPECT_EQ(d.pkts[0].sequence, 10u);
  EXPECT_EQ(d.pkts[0].fragIndex, 0u);
  EXPECT_EQ(d.pkts[0].fragCount, r->size());
}

} // namespace
} // namespace ndnlab::lp
