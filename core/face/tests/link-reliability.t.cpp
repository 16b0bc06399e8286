// NDNLPv2 link reliability (core/face/link-reliability.hpp) through two GenericLinkServices
// joined by a hand-pumped link: retransmission after a timeout and after later Acks, Acks
// piggybacked and in IDLE frames, giving up, duplicates, hostile Ack lists, the wire format
// an NFD peer reads, and that nothing changes with it off.

#include "core/face/dummy-transport.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/face/tests/test-packets.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace ndnlab::face {
namespace {

using namespace std::chrono_literals;

using test::hex;
using test::makeData;
using test::makeInterest;

LinkServiceOptions reliable(size_t maxRetx = 3)
{
  LinkServiceOptions o{.allowFragmentation = true, .allowReassembly = true};
  o.reliability.enabled = true;
  o.reliability.maxRetx = maxRetx;
  return o;
}

/// One end of the link: a service on a DummyTransport and what it handed up.
struct End
{
  std::unique_ptr<DummyTransport> transport;
  std::unique_ptr<GenericLinkService> service;
  std::vector<Interest> interests;
  std::vector<Data> data;
  size_t pumped = 0; ///< frames of transport->sent already carried to the other end

  const LinkService::Counters& counters() const { return service->counters(); }
  const LinkReliability& reliability() const { return *service->reliability(); }
  lp::LpPacket frame(size_t i) const
  {
    auto r = lp::decodeFrame(transport->sent.at(i).frame);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : lp::LpPacket{};
  }
};

class LinkReliabilityTest : public ::testing::Test
{
protected:
  LinkReliabilityTest() { init(reliable(), reliable()); }

  void init(LinkServiceOptions oa, LinkServiceOptions ob, ssize_t mtu = 1500,
            LinkType linkType = LinkType::PointToPoint)
  {
    for (auto* e : {&a, &b}) {
      e->service.reset();
      e->transport = std::make_unique<DummyTransport>(FaceScope::NonLocal, linkType, mtu);
      e->service = std::make_unique<GenericLinkService>(env, e == &a ? oa : ob);
      e->service->setFaceId(e == &a ? 301 : 302);
      e->service->attach(*e->transport);
      e->service->onReceiveInterest = [e](Interest&& i, EndpointId) { e->interests.push_back(std::move(i)); };
      e->service->onReceiveData = [e](Data&& d, EndpointId) { e->data.push_back(std::move(d)); };
      e->pumped = 0;
      e->interests.clear();
      e->data.clear();
    }
  }

  /// Carries the frames `from` sent since the last pump to `to`, except those `lose` picks
  /// (called with the frame's index among everything `from` sent). Returns the frames carried.
  size_t pump(End& from, End& to, const std::function<bool(size_t)>& lose = {})
  {
    size_t carried = 0;
    while (from.pumped < from.transport->sent.size()) {
      size_t i = from.pumped++;
      if (lose && lose(i))
        continue;
      Buffer copy = from.transport->sent[i].frame; // the receiver may send (and grow `sent`)
      to.transport->injectFrame(copy);
      ++carried;
    }
    return carried;
  }

  /// Pumps both ways and moves time on by `step`, `rounds` times; frames sent by `a` whose
  /// index `loseA` picks are lost.
  void run(size_t rounds, Duration step = 1ms, const std::function<bool(size_t)>& loseA = {})
  {
    for (size_t r = 0; r < rounds; ++r) {
      pump(a, b, loseA);
      pump(b, a);
      env.advance(step);
    }
  }

  /// One Interest from a to b and b's Ack back, 5 ms later: a's RTO falls from 1 s to its
  /// 200 ms floor.
  void warmUp()
  {
    a.service->sendInterest(makeInterest("/warm-up", 1));
    run(10);
    ASSERT_EQ(a.reliability().rto(), 200ms);
  }

  size_t events(EventKind kind, std::string_view reason = {}) const { return env.traceImpl.count(kind, reason); }

  ManualEnv env;
  End a, b;
};

// --- retransmission ---------------------------------------------------------------------------

TEST_F(LinkReliabilityTest, LostFragmentIsSentAgainAfterItsRtoAndThePacketDelivered)
{
  warmUp();                                  // RTO 200 ms: below the receiver's 500 ms reassembly timeout
  a.service->sendData(makeData("/d", 4000)); // 3 fragments at MTU 1500, TxSequence 1..3
  ASSERT_EQ(a.transport->sent.size(), 4u);
  for (size_t i = 1; i < 4; ++i) {
    lp::LpPacket f = a.frame(i);
    EXPECT_EQ(f.txSequence, i);
    EXPECT_TRUE(f.sequence.has_value());
    EXPECT_LE(a.transport->sent[i].frame.size(), 1500u);
  }
  // the last fragment is lost: no later frame is acknowledged, so only its RTO finds it
  pump(a, b, [](size_t i) { return i == 3; });
  run(150);
  EXPECT_EQ(b.data.size(), 0u);
  EXPECT_EQ(a.reliability().unackedFrames(), 1u);
  EXPECT_EQ(a.counters().nOutRetxFrames, 0u);

  run(60);
  ASSERT_EQ(a.transport->sent.size(), 5u);
  EXPECT_EQ(a.frame(4).txSequence, 4u);
  EXPECT_EQ(a.frame(4).sequence, a.frame(3).sequence); // the same fragment
  run(20);
  ASSERT_EQ(b.data.size(), 1u);
  EXPECT_EQ(b.data[0].name(), Name("/d"));
  EXPECT_EQ(a.counters().nOutRetxFrames, 1u);
  EXPECT_EQ(a.counters().nRetransmitted, 1u);
  EXPECT_EQ(a.counters().nAcknowledged, 1u); // the warm-up Interest
  EXPECT_EQ(events(EventKind::LpRetx, "timeout"), 1u);
  EXPECT_EQ(a.reliability().unackedFrames(), 0u);
  EXPECT_EQ(a.reliability().unackedPackets(), 0u);
  EXPECT_EQ(a.reliability().unackedBytes(), 0u);
  EXPECT_EQ(b.counters().nDuplicateSequence, 0u);
}

TEST_F(LinkReliabilityTest, LaterAcksDetectALossBeforeTheRto)
{
  for (int k = 0; k < 6; ++k)
    a.service->sendInterest(makeInterest("/i/" + std::to_string(k), 100 + k));
  pump(a, b, [](size_t i) { return i == 1; }); // TxSequence 1 lost; 2..5 arrive
  env.advance(5ms);                            // B's idle Acks
  pump(b, a);
  // the Ack of TxSequence 4 (>= 1 + 3) shows 1 lost: sent again at once, long before the RTO
  ASSERT_EQ(a.transport->sent.size(), 7u);
  EXPECT_EQ(a.frame(6).txSequence, 6u);
  EXPECT_EQ(events(EventKind::LpRetx, "gap"), 1u);
  run(10);
  EXPECT_EQ(b.interests.size(), 6u);
  EXPECT_EQ(a.counters().nAcknowledged, 5u);
  EXPECT_EQ(a.counters().nRetransmitted, 1u);
  EXPECT_EQ(a.reliability().unackedFrames(), 0u);
}

TEST_F(LinkReliabilityTest, RtoFollowsTheAckRoundTrips)
{
  EXPECT_EQ(a.reliability().rto(), 1s); // before any sample
  for (int k = 0; k < 20; ++k) {
    a.service->sendInterest(makeInterest("/r/" + std::to_string(k), 200 + k));
    pump(a, b);
    env.advance(5ms); // B's idle Ack: a 5 ms round trip
    pump(b, a);
  }
  EXPECT_EQ(a.reliability().rto(), 200ms); // SRTT + 4 RTTVAR is far below the 200 ms floor
}

// --- acknowledgements -------------------------------------------------------------------------

TEST_F(LinkReliabilityTest, AcksRideOnFramesGoingBack)
{
  a.service->sendInterest(makeInterest("/p"));
  pump(a, b);
  ASSERT_EQ(b.interests.size(), 1u);
  EXPECT_EQ(b.reliability().pendingAcks(), 1u);
  env.advance(2ms);
  b.service->sendData(makeData("/p", 100));
  ASSERT_EQ(b.transport->sent.size(), 1u);
  lp::LpPacket f = b.frame(0);
  EXPECT_EQ(f.acks, std::vector<uint64_t>{0});
  EXPECT_EQ(f.txSequence, 0u);
  EXPECT_EQ(b.reliability().pendingAcks(), 0u);
  env.advance(10ms); // nothing left to acknowledge: no IDLE frame
  EXPECT_EQ(b.transport->sent.size(), 1u);
  EXPECT_EQ(b.counters().nOutIdleAcks, 0u);
  EXPECT_EQ(b.counters().nOutAcks, 1u);
  pump(b, a);
  EXPECT_EQ(a.counters().nInAcks, 1u);
  EXPECT_EQ(a.counters().nAcknowledged, 1u);
  EXPECT_EQ(a.reliability().unackedFrames(), 0u);
}

TEST_F(LinkReliabilityTest, AcksLeaveInAnIdleFrameWhenNothingGoesBack)
{
  for (int k = 0; k < 3; ++k)
    a.service->sendInterest(makeInterest("/q/" + std::to_string(k), 300 + k));
  pump(a, b);
  env.advance(4ms);
  EXPECT_TRUE(b.transport->sent.empty());
  env.advance(1ms); // idleAckPeriod = 5 ms (NFD default)
  ASSERT_EQ(b.transport->sent.size(), 1u);
  lp::LpPacket idle = b.frame(0);
  EXPECT_TRUE(idle.isIdle());
  EXPECT_FALSE(idle.txSequence.has_value()); // IDLE frames are not acknowledged
  EXPECT_FALSE(idle.sequence.has_value());
  EXPECT_EQ(idle.acks, (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(b.counters().nOutIdleAcks, 1u);
  pump(b, a);
  EXPECT_EQ(a.counters().nInIdle, 1u);
  EXPECT_EQ(a.counters().nAcknowledged, 3u);
  EXPECT_EQ(a.transport->sent.size(), 3u); // an IDLE frame is not acknowledged in turn
}

TEST_F(LinkReliabilityTest, IdleAcksAreSplitAtTheMtu)
{
  init(reliable(), reliable(), 200);
  for (int k = 0; k < 40; ++k)
    a.service->sendInterest(makeInterest("/m/" + std::to_string(k), 400 + k));
  pump(a, b);
  env.advance(5ms);
  // (200 - 2) / 12 = 16 Acks per IDLE frame (LpPacket TLV-TYPE and TLV-LENGTH: 1 octet each)
  ASSERT_EQ(b.transport->sent.size(), 3u);
  size_t acks = 0;
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_LE(b.transport->sent[i].frame.size(), 200u);
    acks += b.frame(i).acks.size();
  }
  EXPECT_EQ(acks, 40u);
  EXPECT_EQ(b.frame(0).acks.size(), 16u);
}

// --- giving up --------------------------------------------------------------------------------

TEST_F(LinkReliabilityTest, FragmentLostBeyondMaxRetxGivesUpItsPacket)
{
  a.service->sendData(makeData("/g", 4000));
  uint64_t lostSeq = *a.frame(1).sequence;
  auto isLostFragment = [&](size_t i) { return a.frame(i).sequence == lostSeq; };
  // sent again after 1 s (the RTO it left with), then every 200 ms (the RTO after the other
  // fragments' Acks); the receiver's partial packet expires after 500 ms
  run(5000, 1ms, isLostFragment);
  EXPECT_EQ(a.counters().nOutRetxFrames, 3u);
  EXPECT_EQ(a.counters().nRetxExhausted, 1u);
  EXPECT_EQ(events(EventKind::Drop, "lp_retx_exhausted"), 1u);
  EXPECT_EQ(a.transport->sent.size(), 3u + 3u);
  EXPECT_EQ(a.reliability().unackedFrames(), 0u);
  EXPECT_EQ(a.reliability().unackedPackets(), 0u);
  EXPECT_EQ(a.reliability().unackedBytes(), 0u);
  EXPECT_EQ(b.data.size(), 0u);
  EXPECT_EQ(b.counters().nReassemblyTimeouts, 1u); // the receiver's partial packet expired
  run(100);
  EXPECT_EQ(a.transport->sent.size(), 6u); // nothing more
  EXPECT_EQ(env.clockImpl.pending(), 0u);  // no timer left behind
}

TEST_F(LinkReliabilityTest, MaxRetxZeroGivesUpAtTheFirstLoss)
{
  init(reliable(0), reliable(0));
  a.service->sendInterest(makeInterest("/z"));
  run(1100, 1ms, [](size_t) { return true; });
  EXPECT_EQ(a.transport->sent.size(), 1u);
  EXPECT_EQ(a.counters().nRetxExhausted, 1u);
  EXPECT_EQ(a.reliability().unackedFrames(), 0u);
}

TEST_F(LinkReliabilityTest, PeerThatNeverAcksCannotGrowTheHeldOctets)
{
  LinkServiceOptions o = reliable();
  o.reliability.maxUnackedBytes = 20'000;
  init(o, {.allowFragmentation = true, .allowReassembly = true}); // b: reliability off, never acks
  for (int k = 0; k < 10; ++k)
    a.service->sendData(makeData("/n/" + std::to_string(k), 4000));
  run(10);
  EXPECT_EQ(b.data.size(), 10u); // delivered all the same
  EXPECT_LE(a.reliability().unackedBytes(), 20'000u);
  EXPECT_EQ(a.reliability().unackedPackets(), 4u); // 4 x ~4050 octets fit, 6 given up
  EXPECT_EQ(a.counters().nUnackedOverflow, 6u);
  EXPECT_EQ(events(EventKind::Drop, "lp_unacked_limit"), 6u);
  EXPECT_TRUE(b.transport->sent.empty());
}

// --- duplicates -------------------------------------------------------------------------------

TEST_F(LinkReliabilityTest, RetransmissionOfAFrameReceivedIsAcknowledgedNotDeliveredAgain)
{
  a.service->sendInterest(makeInterest("/dup"));
  pump(a, b);
  env.advance(5ms);
  b.pumped = b.transport->sent.size(); // B's IDLE Ack is lost
  env.advance(1s);                     // A's RTO: the frame again, under TxSequence 1
  ASSERT_EQ(a.transport->sent.size(), 2u);
  pump(a, b);
  EXPECT_EQ(b.interests.size(), 1u);
  EXPECT_EQ(b.counters().nDuplicateSequence, 1u);
  EXPECT_EQ(events(EventKind::Drop, "lp_duplicate_sequence"), 1u);
  run(10);
  EXPECT_EQ(a.counters().nRetransmitted, 1u);
  EXPECT_EQ(a.reliability().unackedFrames(), 0u);
  EXPECT_EQ(b.interests.size(), 1u);
}

TEST_F(LinkReliabilityTest, DuplicateFragmentsAreNotReassembledAgain)
{
  a.service->sendData(makeData("/df", 4000));
  // every fragment arrives twice
  for (size_t i = 0; i < 3; ++i) {
    Buffer f = a.transport->sent[i].frame;
    b.transport->injectFrame(f);
    b.transport->injectFrame(f);
  }
  a.pumped = 3;
  EXPECT_EQ(b.data.size(), 1u);
  EXPECT_EQ(b.counters().nDuplicateSequence, 3u);
  EXPECT_EQ(b.counters().nReassembling, 0u); // no partial packet left to time out
}

// --- hostile or broken input ------------------------------------------------------------------

/// LpPacket{Ack x n (values from `first`), Fragment?}.
Buffer ackFrame(uint64_t first, size_t n, ByteSpan fragment = {})
{
  Buffer value;
  for (size_t k = 0; k < n; ++k) {
    appendTlvHeader(value, tlv::Ack, 8);
    for (int s = 7; s >= 0; --s)
      value.push_back(static_cast<uint8_t>((first + k) >> (8 * s)));
  }
  if (!fragment.empty())
    appendTlv(value, tlv::Fragment, fragment);
  Buffer frame;
  appendTlv(frame, tlv::LpPacket, value);
  return frame;
}

TEST_F(LinkReliabilityTest, UnknownAcksAreCountedAndChangeNothing)
{
  for (int k = 0; k < 3; ++k)
    a.service->sendInterest(makeInterest("/u/" + std::to_string(k), 500 + k));
  // Acks of TxSequences never sent, among them one far beyond: no gap loss may follow from them
  a.transport->injectFrame(ackFrame(UINT64_MAX - 5, 5));
  a.transport->injectFrame(ackFrame(1000, 300));
  EXPECT_EQ(a.counters().nInAcks, 305u);
  EXPECT_EQ(a.counters().nInAcksUnknown, 305u);
  EXPECT_EQ(a.reliability().unackedFrames(), 3u);
  EXPECT_EQ(a.counters().nOutRetxFrames, 0u);
  EXPECT_EQ(a.transport->sent.size(), 3u);
  // an Ack of a frame already acknowledged is unknown too
  a.transport->injectFrame(ackFrame(0, 1));
  a.transport->injectFrame(ackFrame(0, 1));
  EXPECT_EQ(a.counters().nAcknowledged, 1u);
  EXPECT_EQ(a.counters().nInAcksUnknown, 306u);
}

TEST_F(LinkReliabilityTest, HugeAckListIsACountedDrop)
{
  a.service->sendInterest(makeInterest("/h"));
  Interest carried = makeInterest("/carried");
  a.transport->injectFrame(ackFrame(0, LinkReliability::MaxAcksPerFrame + 1, *carried.wireEncode()));
  EXPECT_EQ(a.counters().nInLpInvalid, 1u);
  EXPECT_EQ(events(EventKind::Drop, "lp_too_many_acks"), 1u);
  EXPECT_EQ(a.counters().nInAcks, 0u); // not looked at: TxSequence 0 is still unacknowledged
  EXPECT_EQ(a.reliability().unackedFrames(), 1u);
  EXPECT_TRUE(a.interests.empty());
  // as many as a sender may put in one frame are taken
  a.transport->injectFrame(ackFrame(0, LinkReliability::MaxAcksPerFrame, *carried.wireEncode()));
  EXPECT_EQ(a.counters().nInAcks, LinkReliability::MaxAcksPerFrame);
  EXPECT_EQ(a.reliability().unackedFrames(), 0u);
  EXPECT_EQ(a.interests.size(), 1u);
}

TEST_F(LinkReliabilityTest, MalformedAckOrTxSequenceIsACountedDrop)
{
  // Ack and TxSequence are fixed 8-octet values
  a.transport->injectFrame(hex("6405 fd0344 01 00"));
  a.transport->injectFrame(hex("640d fd0348 09 000000000000000000"));
  EXPECT_EQ(a.counters().nInLpInvalid, 2u);
  EXPECT_EQ(events(EventKind::Drop, "lp_bad_field_value"), 2u);
  EXPECT_EQ(a.counters().nInAcks, 0u);
}

// --- wire format ------------------------------------------------------------------------------

// An Interest as an NFD peer with reliability on sends it (ndn-cxx lp::Packet: fields in
// increasing TLV-TYPE order, Fragment last; Sequence, Ack and TxSequence 8-octet big-endian):
constexpr std::string_view NfdStyleFrame = "643d"                       // LpPacket
                                           "51 08 0000000000000107"     //   Sequence 263
                                           "fd0344 08 0000000000000000" //   Ack 0
                                           "fd0344 08 0000000000000002" //   Ack 2
                                           "fd0348 08 0000000000000011" //   TxSequence 17
                                           "50 0d"                      //   Fragment
                                           "050b 0703 080161"           //     Interest, Name /a
                                           "0a04 01020304";             //       Nonce

TEST_F(LinkReliabilityTest, ReadsTheFramesAnNfdPeerSends)
{
  for (int k = 0; k < 3; ++k)
    a.service->sendInterest(makeInterest("/w/" + std::to_string(k), 600 + k));
  a.transport->injectFrame(hex(NfdStyleFrame));
  EXPECT_EQ(a.counters().nInLpInvalid, 0u);
  ASSERT_EQ(a.interests.size(), 1u);
  EXPECT_EQ(a.interests[0].name(), Name("/a"));
  EXPECT_EQ(a.counters().nInAcks, 2u);
  EXPECT_EQ(a.counters().nAcknowledged, 2u);
  EXPECT_EQ(a.reliability().unackedFrames(), 1u);
  EXPECT_EQ(a.reliability().pendingAcks(), 1u); // TxSequence 17
  a.service->sendInterest(makeInterest("/w/next", 700));
  EXPECT_EQ(a.frame(3).acks, std::vector<uint64_t>{17});
}

TEST_F(LinkReliabilityTest, WritesTheFieldsInTheOrderNfdRequires)
{
  b.service->sendInterest(makeInterest("/w", 800));
  pump(b, a); // A owes B an Ack of TxSequence 0
  Interest i = makeInterest("/x", 0x0a0b0c0d);
  const uint64_t seq = a.service->nextFragmentSequence();
  a.service->sendInterest(i);
  ASSERT_EQ(a.transport->sent.size(), 1u);
  Buffer expected;
  Buffer value;
  appendTlvHeader(value, tlv::Sequence, 8);
  for (int s = 7; s >= 0; --s)
    value.push_back(static_cast<uint8_t>(seq >> (8 * s)));
  Buffer rest = hex("fd0344 08 0000000000000000" // Ack 0
                    "fd0348 08 0000000000000000" // TxSequence 0
  );
  value.insert(value.end(), rest.begin(), rest.end());
  appendTlv(value, tlv::Fragment, *i.wireEncode());
  appendTlv(expected, tlv::LpPacket, value);
  EXPECT_EQ(toHex(a.transport->sent[0].frame), toHex(expected));
}

// --- off, and where it does not apply ---------------------------------------------------------

TEST_F(LinkReliabilityTest, OffChangesNothingOnTheWire)
{
  LinkServiceOptions plain{.allowFragmentation = true, .allowReassembly = true};
  LinkServiceOptions tuned = plain; // reliability off, its other knobs changed
  tuned.reliability.maxRetx = 9;
  tuned.reliability.idleAckPeriod = 1ms;
  init(plain, tuned);
  EXPECT_EQ(a.service->reliability(), nullptr);
  auto sendAll = [](GenericLinkService& s) {
    s.sendInterest(makeInterest("/o"));
    s.sendData(makeData("/o", 100));
    s.sendData(makeData("/o/big", 4000));
  };
  sendAll(*a.service);
  sendAll(*b.service);
  ASSERT_EQ(a.transport->sent.size(), 5u);
  ASSERT_EQ(b.transport->sent.size(), 5u);
  EXPECT_EQ(a.transport->sent[0].frame, *makeInterest("/o").wireEncode()); // bare, as before
  EXPECT_EQ(a.transport->sent[1].frame, *makeData("/o", 100).wireEncode());
  for (size_t i = 0; i < 5; ++i) {
    lp::LpPacket fa = a.frame(i), fb = b.frame(i);
    EXPECT_FALSE(fa.txSequence.has_value());
    EXPECT_TRUE(fa.acks.empty());
    // the same bytes but for the Sequence numbers (each service starts at its own)
    fa.sequence.reset();
    fb.sequence.reset();
    EXPECT_EQ(toHex(*lp::encode(fa)), toHex(*lp::encode(fb)));
  }
  // TxSequence and Ack received are ignored: delivered, nothing acknowledged, no timer
  b.transport->injectFrame(hex(NfdStyleFrame));
  Interest i = makeInterest("/ok");
  b.transport->injectFrame(ackFrame(5, 3, *i.wireEncode()));
  EXPECT_EQ(b.interests.size(), 2u);
  EXPECT_EQ(b.counters().nInAcks, 0u);
  env.advance(1s);
  EXPECT_EQ(b.transport->sent.size(), 5u);
  EXPECT_EQ(env.clockImpl.pending(), 0u);
}

TEST_F(LinkReliabilityTest, InactiveOnMultiAccessLinks)
{
  init(reliable(), reliable(), 1500, LinkType::MultiAccess);
  a.service->sendInterest(makeInterest("/mc"));
  EXPECT_FALSE(a.service->isReliabilityActive());
  EXPECT_EQ(a.transport->sent[0].frame, *makeInterest("/mc").wireEncode());
}

TEST_F(LinkReliabilityTest, TurnedOffAtRunTimeForgetsItsFrames)
{
  a.service->sendData(makeData("/t", 4000));
  EXPECT_EQ(a.reliability().unackedFrames(), 3u);
  a.service->setReliability(false);
  EXPECT_EQ(a.service->reliability(), nullptr);
  EXPECT_FALSE(a.service->options().reliability.enabled);
  EXPECT_EQ(env.clockImpl.pending(), 0u);
  a.service->setReliability(true);
  a.service->sendInterest(makeInterest("/t2"));
  EXPECT_EQ(a.frame(3).txSequence, 0u); // a new sender
}

} // namespace
} // namespace ndnlab::face
