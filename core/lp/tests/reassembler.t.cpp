#include "core/lp/reassembler.hpp"
#include "core/lp/fragmenter.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ndnlab::lp {
namespace {

using Status = Reassembler::Outcome::Status;

Buffer makePacket(size_t n, uint8_t seed = 1)
{
  Buffer b(n);
  for (size_t i = 0; i < n; ++i)
    b[i] = static_cast<uint8_t>(i * 13 + seed);
  return b;
}

/// Encoded fragments of `packet`, decoded again (the views point into `frames`).
struct Fragments
{
  std::vector<SharedBuffer> frames;
  std::vector<LpPacket> pkts;
};

Fragments fragmentPacket(Fragmenter& f, const Buffer& packet, size_t mtu, LpPacket header = {})
{
  Fragments out;
  auto r = f.fragment(header, packet, mtu);
  EXPECT_TRUE(r.ok());
  if (!r.ok())
    return out;
  out.frames = std::move(*r);
  for (const auto& fr : out.frames) {
    auto d = decodeFrame(*fr);
    EXPECT_TRUE(d.ok());
    out.pkts.push_back(*d);
  }
  return out;
}

/// A hand-made fragment.
LpPacket frag(std::optional<uint64_t> seq, uint64_t index, uint64_t count, const Buffer& payload)
{
  LpPacket p;
  p.sequence = seq;
  p.fragIndex = index;
  p.fragCount = count;
  p.fragment = ByteSpan(payload);
  return p;
}

struct Drop
{
  ReassemblyErrc reason;
  uint64_t endpoint;
  size_t nFragments;
};

class ReassemblerTest : public ::testing::Test
{
protected:
  explicit ReassemblerTest(ReassemblerOptions opts = {}) : reassembler(env, opts)
  {
    reassembler.onPartialDropped = [this](ReassemblyErrc r, uint64_t ep, size_t n) { drops.push_back({r, ep, n}); };
  }

  ManualEnv env;
  Reassembler reassembler;
  std::vector<Drop> drops;
  Fragmenter fragmenter{{}, 1000};
};

TEST_F(ReassemblerTest, InOrderRoundTrip)
{
  Buffer packet = makePacket(1000);
  LpPacket header;
  header.congestionMark = 1;
  header.nack = 50;
  auto f = fragmentPacket(fragmenter, packet, 200, header);
  ASSERT_GT(f.pkts.size(), 4u);
  for (size_t i = 0; i + 1 < f.pkts.size(); ++i) {
    auto o = reassembler.receive(7, f.pkts[i]);
    EXPECT_EQ(o.status, Status::Incomplete);
    EXPECT_EQ(reassembler.partialCount(), 1u);
  }
  auto o = reassembler.receive(7, f.pkts.back());
  ASSERT_EQ(o.status, Status::Complete);
  EXPECT_EQ(*o.packet, packet);
  EXPECT_EQ(o.header.congestionMark, 1u);
  EXPECT_EQ(o.header.nack, 50u);
  EXPECT_FALSE(o.header.sequence || o.header.fragIndex || o.header.fragCount || o.header.fragment);
  EXPECT_EQ(reassembler.partialCount(), 0u);
  EXPECT_EQ(reassembler.bytesHeld(), 0u);
  EXPECT_EQ(env.clockImpl.pending(), 0u); // no timer left behind
}

TEST_F(ReassemblerTest, OutOfOrderTakesHeaderFromFragmentZero)
{
  Buffer packet = makePacket(3000);
  LpPacket header;
  header.pitToken = PitToken{};
  header.pitToken->size = 2;
  header.pitToken->bytes[0] = 0xAB;
  auto f = fragmentPacket(fragmenter, packet, 300, header);
  std::vector<size_t> order(f.pkts.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = order.size() - 1 - i; // reversed: fragment 0 last

  for (int round = 0; round < 2; ++round) {
    Reassembler::Outcome last;
    for (size_t k = 0; k < order.size(); ++k) {
      last = reassembler.receive(1, f.pkts[order[k]]);
      if (k + 1 < order.size()) {
        ASSERT_EQ(last.status, Status::Incomplete);
      }
    }
    ASSERT_EQ(last.status, Status::Complete);
    EXPECT_EQ(*last.packet, packet);
    EXPECT_EQ(last.header.pitToken, header.pitToken);
    // second round: a pseudo-random permutation
    std::mt19937_64 rng(5);
    std::shuffle(order.begin(), order.end(), rng);
  }
}

TEST_F(ReassemblerTest, InterleavedPacketsAndEndpointsAreSeparate)
{
  Buffer a = makePacket(900, 1), b = makePacket(700, 2);
  auto fa = fragmentPacket(fragmenter, a, 200);
  auto fb = fragmentPacket(fragmenter, b, 200);
  // the same fragments of `a` also arrive from another endpoint
  size_t n = std::max(fa.pkts.size(), fb.pkts.size());
  int complete = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i < fa.pkts.size()) {
      for (uint64_t ep : {1, 2}) {
        auto o = reassembler.receive(ep, fa.pkts[i]);
        if (o.status == Status::Complete) {
          EXPECT_EQ(*o.packet, a);
          ++complete;
        }
      }
    }
    if (i < fb.pkts.size()) {
      auto o = reassembler.receive(1, fb.pkts[i]);
      if (o.status == Status::Complete) {
        EXPECT_EQ(*o.packet, b);
        ++complete;
      }
    }
  }
  EXPECT_EQ(complete, 3);
  EXPECT_EQ(reassembler.partialCount(), 0u);
}

TEST_F(ReassemblerTest, UnfragmentedPacketCompletesAtOnce)
{
  Buffer payload = makePacket(10);
  LpPacket p;
  p.fragment = ByteSpan(payload);
  p.congestionMark = 2;
  auto o = reassembler.receive(0, p);
  ASSERT_EQ(o.status, Status::Complete);
  EXPECT_EQ(*o.packet, payload);
  EXPECT_EQ(o.header.congestionMark, 2u);

  // FragIndex 0 / FragCount 1 needs no Sequence
  auto single = reassembler.receive(0, frag(std::nullopt, 0, 1, payload));
  ASSERT_EQ(single.status, Status::Complete);
  EXPECT_EQ(*single.packet, payload);
  EXPECT_EQ(reassembler.partialCount(), 0u);
}

TEST_F(ReassemblerTest, InvalidFragmentsAreDropped)
{
  Buffer x = makePacket(10);
  auto expectDrop = [&](const LpPacket& p, ReassemblyErrc e) {
    auto o = reassembler.receive(0, p);
    EXPECT_EQ(o.status, Status::Dropped);
    EXPECT_EQ(o.error, e) << reasonName(o.error);
  };
  expectDrop(frag(5, 2, 2, x), ReassemblyErrc::BadFragIndex);
  expectDrop(frag(5, 0, 0, x), ReassemblyErrc::BadFragIndex);
  expectDrop(frag(5, 0, 401, x), ReassemblyErrc::TooManyFragments);
  expectDrop(frag(std::nullopt, 1, 2, x), ReassemblyErrc::MissingSequence);

  EXPECT_EQ(reassembler.receive(0, frag(10, 0, 3, x)).status, Status::Incomplete);
  expectDrop(frag(11, 1, 4, x), ReassemblyErrc::FragCountChanged); // same packet id 10
  expectDrop(frag(10, 0, 3, x), ReassemblyErrc::Duplicate);
  EXPECT_EQ(reassembler.receive(0, frag(11, 1, 3, x)).status, Status::Incomplete);
  expectDrop(frag(11, 1, 3, x), ReassemblyErrc::Duplicate);
  // the partial packet is still intact and completes
  auto o = reassembler.receive(0, frag(12, 2, 3, x));
  ASSERT_EQ(o.status, Status::Complete);
  EXPECT_EQ(o.packet->size(), 30u);
  EXPECT_TRUE(drops.empty());
}

TEST_F(ReassemblerTest, FragCountAtTheLimitIsAccepted)
{
  Buffer x = makePacket(1);
  EXPECT_EQ(reassembler.receive(0, frag(0, 399, 400, x)).status, Status::Incomplete);
}

TEST_F(ReassemblerTest, PartialPacketTimesOut)
{
  Buffer packet = makePacket(600);
  auto f = fragmentPacket(fragmenter, packet, 250);
  ASSERT_EQ(f.pkts.size(), 3u);
  EXPECT_EQ(reassembler.receive(4, f.pkts[0]).status, Status::Incomplete);
  EXPECT_EQ(reassembler.receive(4, f.pkts[1]).status, Status::Incomplete);
  env.advance(499ms);
  EXPECT_EQ(reassembler.partialCount(), 1u);
  EXPECT_TRUE(drops.empty());
  env.advance(1ms);
  EXPECT_EQ(reassembler.partialCount(), 0u);
  EXPECT_EQ(reassembler.bytesHeld(), 0u);
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_EQ(drops[0].reason, ReassemblyErrc::Timeout);
  EXPECT_EQ(drops[0].endpoint, 4u);
  EXPECT_EQ(drops[0].nFragments, 2u);
  // the late last fragment starts a new partial packet that cannot complete
  EXPECT_EQ(reassembler.receive(4, f.pkts[2]).status, Status::Incomplete);
  env.advance(500ms);
  EXPECT_EQ(drops.size(), 2u);
  EXPECT_EQ(env.clockImpl.pending(), 0u);
}

TEST_F(ReassemblerTest, EachFragmentRestartsTheTimeout)
{
  Buffer packet = makePacket(600);
  auto f = fragmentPacket(fragmenter, packet, 250);
  ASSERT_EQ(f.pkts.size(), 3u);
  reassembler.receive(0, f.pkts[0]);
  env.advance(400ms);
  reassembler.receive(0, f.pkts[1]);
  env.advance(499ms);
  EXPECT_TRUE(drops.empty());
  auto o = reassembler.receive(0, f.pkts[2]);
  ASSERT_EQ(o.status, Status::Complete);
  EXPECT_EQ(*o.packet, packet);
  env.advance(10s);
  EXPECT_TRUE(drops.empty());
}

class ReassemblerMemoryTest : public ReassemblerTest
{
protected:
  ReassemblerMemoryTest() : ReassemblerTest(ReassemblerOptions{.maxBytes = 8000}) {}
};

TEST_F(ReassemblerMemoryTest, OldestPartialIsDroppedWhenTheBoundIsReached)
{
  // First fragments of many 3-fragment packets, never completed.
  std::vector<Fragments> all;
  for (int i = 0; i < 40; ++i) {
    all.push_back(fragmentPacket(fragmenter, makePacket(1200, uint8_t(i)), 500));
    ASSERT_EQ(all.back().pkts.size(), 3u);
    EXPECT_EQ(reassembler.receive(1, all.back().pkts[0]).status, Status::Incomplete);
    EXPECT_LE(reassembler.bytesHeld(), 8000u);
  }
  ASSERT_FALSE(drops.empty());
  for (const auto& d : drops) {
    EXPECT_EQ(d.reason, ReassemblyErrc::MemoryLimit);
    EXPECT_EQ(d.nFragments, 1u);
  }
  EXPECT_EQ(reassembler.partialCount() + drops.size(), 40u);
  // the newest partial packets survived and still complete; the oldest one was dropped
  auto& newest = all.back();
  EXPECT_EQ(reassembler.receive(1, newest.pkts[1]).status, Status::Incomplete);
  auto o = reassembler.receive(1, newest.pkts[2]);
  ASSERT_EQ(o.status, Status::Complete);
  EXPECT_EQ(*o.packet, makePacket(1200, 39));
  EXPECT_EQ(reassembler.receive(1, all.front().pkts[1]).status, Status::Incomplete); // restarted
}

TEST_F(ReassemblerMemoryTest, PacketLargerThanTheBoundIsDropped)
{
  Buffer packet = makePacket(20000);
  auto f = fragmentPacket(fragmenter, packet, 1400);
  bool sawDrop = false;
  for (const auto& p : f.pkts) {
    auto o = reassembler.receive(0, p);
    EXPECT_NE(o.status, Status::Complete);
    if (o.status == Status::Dropped) {
      EXPECT_EQ(o.error, ReassemblyErrc::MemoryLimit);
      sawDrop = true;
    }
    EXPECT_LE(reassembler.bytesHeld(), 8000u);
  }
  EXPECT_TRUE(sawDrop);
}

TEST_F(ReassemblerMemoryTest, TinyFragmentsAreChargedForBookkeeping)
{
  // 1-octet fragments of packets claiming 400 fragments must not hold unbounded memory.
  Buffer one = makePacket(1);
  for (uint64_t i = 0; i < 1000; ++i) {
    reassembler.receive(1, frag(i * 1000, 0, 400, one));
    ASSERT_LE(reassembler.bytesHeld(), 8000u);
  }
  EXPECT_LT(reassembler.partialCount(), 10u);
}

TEST_F(ReassemblerTest, OversizedPacketIsDroppedOnceAndItsFragmentsAbsorbed)
{
  Buffer packet = makePacket(MaxNdnPacketSize + 1000);
  auto f = fragmentPacket(fragmenter, packet, 1500);
  ASSERT_GE(f.pkts.size(), 7u);
  size_t nDropped = 0;
  for (const auto& p : f.pkts) {
    auto o = reassembler.receive(4, p);
    ASSERT_NE(o.status, Status::Complete);
    if (o.status == Status::Dropped) {
      EXPECT_EQ(o.error, ReassemblyErrc::PacketTooLarge);
      EXPECT_EQ(reasonName(o.error), "packet_too_large");
      ++nDropped;
    }
    // never more than the limit of payload held, and nothing once it is known to be too large
    EXPECT_LE(reassembler.bytesHeld(), MaxNdnPacketSize + 1024);
  }
  EXPECT_EQ(nDropped, 1u);
  EXPECT_EQ(reassembler.partialCount(), 0u); // the last fragment removed the marker
  EXPECT_EQ(reassembler.bytesHeld(), 0u);
  EXPECT_EQ(env.clockImpl.pending(), 0u);
  EXPECT_TRUE(drops.empty());

  // Fragments stop early: the marker times out silently (the drop was already counted).
  auto g = fragmentPacket(fragmenter, makePacket(20000, 2), 1500);
  for (size_t k = 0; k + 2 < g.pkts.size(); ++k)
    reassembler.receive(4, g.pkts[k]);
  EXPECT_EQ(reassembler.partialCount(), 1u);
  env.advance(std::chrono::seconds(1));
  EXPECT_EQ(reassembler.partialCount(), 0u);
  EXPECT_TRUE(drops.empty());

  // One fragment alone above the limit.
  Buffer huge = makePacket(MaxNdnPacketSize + 1);
  auto o = reassembler.receive(4, frag(77, 0, 2, huge));
  EXPECT_EQ(o.status, Status::Dropped);
  EXPECT_EQ(o.error, ReassemblyErrc::PacketTooLarge);

  // At the limit: completes.
  auto h = fragmentPacket(fragmenter, makePacket(MaxNdnPacketSize, 3), 1500);
  Reassembler::Outcome last;
  for (const auto& p : h.pkts)
    last = reassembler.receive(5, p);
  ASSERT_EQ(last.status, Status::Complete);
  EXPECT_EQ(last.packet->size(), MaxNdnPacketSize);
}

TEST(Reassembler, DestructionCancelsTimers)
{
  ManualEnv env;
  Buffer x = makePacket(5);
  {
    Reassembler r(env);
    r.receive(0, frag(1, 0, 2, x));
    r.receive(0, frag(9, 0, 2, x));
    EXPECT_EQ(env.clockImpl.pending(), 2u);
  }
  EXPECT_EQ(env.clockImpl.pending(), 0u);
}

TEST(Reassembler, RandomSizesRoundTrip)
{
  ManualEnv env;
  Reassembler r(env, ReassemblerOptions{.maxPacketSize = 20000});
  Fragmenter f({}, 42);
  for (int i = 0; i < 200; ++i) {
    size_t size = 1 + env.rng().below(20000);
    size_t mtu = 200 + env.rng().below(3000);
    Buffer packet = makePacket(size, uint8_t(i));
    auto fr = fragmentPacket(f, packet, mtu);
    std::vector<size_t> order(fr.pkts.size());
    for (size_t k = 0; k < order.size(); ++k)
      order[k] = k;
    std::mt19937_64 rng(i);
    std::shuffle(order.begin(), order.end(), rng);
    Reassembler::Outcome o;
    for (size_t k : order)
      o = r.receive(3, fr.pkts[k]);
    ASSERT_EQ(o.status, Status::Complete) << size << " " << mtu;
    ASSERT_EQ(*o.packet, packet);
  }
  EXPECT_EQ(r.partialCount(), 0u);
}

} // namespace
} // namespace ndnlab::lp
