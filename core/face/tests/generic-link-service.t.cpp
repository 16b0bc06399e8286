#include "core/face/generic-link-service.hpp"
#include "core/face/dummy-transport.hpp"
#include "core/face/tests/test-packets.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ndnlab::face {
namespace {

using test::hex;
using test::makeData;
using test::makeInterest;

PitToken token(std::initializer_list<uint8_t> bytes)
{
  PitToken t;
  t.size = static_cast<uint8_t>(bytes.size());
  std::copy(bytes.begin(), bytes.end(), t.bytes.begin());
  return t;
}

/// LpPacket{fieldsHex, Fragment=packet}.
Buffer lpFrame(std::string_view fieldsHex, ByteSpan packet)
{
  Buffer value = hex(fieldsHex);
  appendTlv(value, tlv::Fragment, packet);
  Buffer frame;
  appendTlv(frame, tlv::LpPacket, value);
  return frame;
}

/// Transport that keeps the SharedBuffers it is given (to check for copies).
class CapturingTransport final : public Transport
{
public:
  CapturingTransport()
    : Transport("cap://", "cap://", FaceScope::NonLocal, FacePersistency::Persistent, LinkType::PointToPoint,
                MtuUnlimited)
  {}
  void close() override { setState(TransportState::Closed); }
  std::vector<SharedBuffer> frames;

protected:
  void doSend(SharedBuffer frame, EndpointId) override { frames.push_back(std::move(frame)); }
};

class GenericLinkServiceTest : public ::testing::Test
{
protected:
  GenericLinkServiceTest() { init({}); }

  void init(LinkServiceOptions opts, FaceScope scope = FaceScope::NonLocal, ssize_t mtu = MtuUnlimited)
  {
    service.reset();
    transport = std::make_unique<DummyTransport>(scope, LinkType::PointToPoint, mtu);
    service = std::make_unique<GenericLinkService>(env, opts);
    service->setFaceId(300);
    service->attach(*transport);
    service->onReceiveInterest = [this](Interest&& i, EndpointId ep) {
      interests.push_back(std::move(i));
      endpoints.push_back(ep);
    };
    service->onReceiveData = [this](Data&& d, EndpointId ep) {
      data.push_back(std::move(d));
      endpoints.push_back(ep);
    };
    service->onReceiveNack = [this](Nack&& n, EndpointId ep) {
      nacks.push_back(std::move(n));
      endpoints.push_back(ep);
    };
  }

  void inject(ByteSpan frame, EndpointId ep = 0) { transport->injectFrame(frame, ep); }

  /// Decodes the i-th sent frame as an LpPacket (views into transport->sent).
  lp::LpPacket sentLp(size_t i)
  {
    auto r = lp::decodeFrame(transport->sent.at(i).frame);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : lp::LpPacket{};
  }

  const LinkService::Counters& counters() const { return service->counters(); }
  size_t drops(DropReason reason) const { return env.traceImpl.count(EventKind::Drop, reason); }
  size_t drops() const { return env.traceImpl.count(EventKind::Drop); }
  size_t received() const { return interests.size() + data.size() + nacks.size(); }

  ManualEnv env;
  std::unique_ptr<DummyTransport> transport;
  std::unique_ptr<GenericLinkService> service;
  std::vector<Interest> interests;
  std::vector<Data> data;
  std::vector<Nack> nacks;
  std::vector<EndpointId> endpoints;
};

// --- framing --------------------------------------------------------------------------------

TEST_F(GenericLinkServiceTest, SendsBarePacketsWithoutHeaderFields)
{
  Interest i = makeInterest();
  Data d = makeData();
  service->sendInterest(i);
  service->sendData(d);
  ASSERT_EQ(transport->sent.size(), 2u);
  EXPECT_EQ(transport->sent[0].frame, *i.wireEncode());
  EXPECT_EQ(transport->sent[1].frame, *d.wireEncode());
}

TEST_F(GenericLinkServiceTest, BareSendReusesTheCachedWire)
{
  ManualEnv e;
  CapturingTransport t;
  GenericLinkService s(e);
  s.attach(t);
  Data d = makeData();
  SharedBuffer wire = d.wireEncode();
  s.sendData(d);
  ASSERT_EQ(t.frames.size(), 1u);
  EXPECT_EQ(t.frames[0].get(), wire.get()); // same buffer, no copy
}

TEST_F(GenericLinkServiceTest, AlwaysUseLpPacketWrapsEvenWithoutFields)
{
  init({.alwaysUseLpPacket = true});
  Interest i = makeInterest();
  service->sendInterest(i);
  ASSERT_EQ(transport->sent.size(), 1u);
  EXPECT_EQ(transport->sent[0].frame, lpFrame("", *i.wireEncode()));
}

TEST_F(GenericLinkServiceTest, ReceivesBareAndWrappedPackets)
{
  Interest i = makeInterest("/x");
  Data d = makeData("/y");
  inject(*i.wireEncode());
  inject(*d.wireEncode());
  inject(lpFrame("", *i.wireEncode()));
  inject(lpFrame("", *d.wireEncode()));
  ASSERT_EQ(interests.size(), 2u);
  ASSERT_EQ(data.size(), 2u);
  for (const auto& r : interests) {
    EXPECT_EQ(r.name(), Name("/x"));
    EXPECT_EQ(r.nonce(), 0x01020304u);
    EXPECT_FALSE(r.tags.pitToken);
  }
  for (const auto& r : data) {
    EXPECT_EQ(r.name(), Name("/y"));
    EXPECT_EQ(*r.wireEncode(), *d.wireEncode()); // wire kept as received
  }
  EXPECT_EQ(drops(), 0u);
}

TEST_F(GenericLinkServiceTest, EndpointIsPassedThrough)
{
  Interest i = makeInterest();
  inject(*i.wireEncode(), 42);
  ASSERT_EQ(endpoints, std::vector<EndpointId>{42});
  service->sendInterest(i, 43);
  ASSERT_EQ(transport->sent.size(), 1u);
  EXPECT_EQ(transport->sent[0].endpoint, 43u);
}

TEST_F(GenericLinkServiceTest, IdlePacketIsCountedNotDelivered)
{
  inject(hex("6400"));
  inject(hex("640c fd0344 08 0000000000000001"));
  EXPECT_EQ(counters().nInIdle, 2u);
  EXPECT_EQ(received(), 0u);
  EXPECT_EQ(drops(), 0u);
}

TEST_F(GenericLinkServiceTest, NackWithoutFragmentIsACountedDrop)
{
  inject(hex("6409 fd0320 05 fd0321 01 96")); // Nack{NackReason NoRoute}, no Fragment
  inject(hex("6404 fd0320 00"));              // empty Nack, no Fragment
  EXPECT_EQ(counters().nInLpInvalid, 2u);
  EXPECT_EQ(drops(DropReason::NackWithoutFragment), 2u);
  EXPECT_EQ(counters().nInIdle, 0u);
  EXPECT_EQ(received(), 0u);
}

// --- PitToken -------------------------------------------------------------------------------

TEST_F(GenericLinkServiceTest, PitTokenIsTaggedAndEchoed)
{
  Interest i = makeInterest();
  inject(lpFrame("6206 00010001d862", *i.wireEncode()));
  ASSERT_EQ(interests.size(), 1u);
  ASSERT_TRUE(interests[0].tags.pitToken);
  EXPECT_EQ(*interests[0].tags.pitToken, token({0x00, 0x01, 0x00, 0x01, 0xd8, 0x62}));

  // The forwarder copies the token onto the Data; the link service puts it on the wire.
  Data d = makeData();
  d.tags.pitToken = interests[0].tags.pitToken;
  service->sendData(d);
  ASSERT_EQ(transport->sent.size(), 1u);
  EXPECT_EQ(transport->sent[0].frame, lpFrame("6206 00010001d862", *d.wireEncode()));
}

// --- send-side fields -----------------------------------------------------------------------

TEST_F(GenericLinkServiceTest, SendEncodesTagsAsFields)
{
  Data d = makeData();
  d.tags.noCache = true;
  d.tags.congestionMark = 1;
  d.tags.incomingFaceId = 260;
  service->sendData(d);
  lp::LpPacket p = sentLp(0);
  EXPECT_EQ(p.cachePolicy, lp::CachePolicyType::NoCache);
  EXPECT_EQ(p.congestionMark, 1u);
  EXPECT_FALSE(p.incomingFaceId); // local fields are off

  Interest i = makeInterest();
  i.tags.incomingFaceId = 260;
  i.tags.nextHopFaceId = 270;
  i.tags.noCache = true;
  service->sendInterest(i);
  ASSERT_EQ(transport->sent.size(), 2u);
  EXPECT_EQ(transport->sent[1].frame, *i.wireEncode()); // nothing to put on the wire
}

TEST_F(GenericLinkServiceTest, IncomingFaceIdIsSentOnlyWithLocalFields)
{
  init({.allowLocalFields = true}, FaceScope::Local);
  Data d = makeData();
  d.tags.incomingFaceId = 260;
  service->sendData(d);
  EXPECT_EQ(sentLp(0).incomingFaceId, 260u);
  Interest i = makeInterest();
  i.tags.incomingFaceId = 261;
  service->sendInterest(i);
  EXPECT_EQ(sentLp(1).incomingFaceId, 261u);
  EXPECT_FALSE(sentLp(1).nextHopFaceId);
}

// --- Nack -----------------------------------------------------------------------------------

TEST_F(GenericLinkServiceTest, NackEncodeDecode)
{
  Interest i = makeInterest("/n");
  i.tags.pitToken = token({9, 9});
  service->sendNack(Nack{i, NackReason::NoRoute});
  ASSERT_EQ(transport->sent.size(), 1u);
  EXPECT_EQ(transport->sent[0].frame, lpFrame("6202 0909 fd0320 05 fd0321 01 96", *i.wireEncode()));

  // loop the frame back in
  inject(transport->sent[0].frame);
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::NoRoute);
  EXPECT_EQ(nacks[0].interest.name(), Name("/n"));
  EXPECT_EQ(nacks[0].interest.tags.pitToken, token({9, 9}));
  EXPECT_TRUE(interests.empty());
}

TEST_F(GenericLinkServiceTest, NackReasonsRoundTripAndUnknownIsNone)
{
  Interest i = makeInterest();
  for (NackReason r : {NackReason::None, NackReason::Congestion, NackReason::Duplicate, NackReason::NoRoute}) {
    transport->sent.clear();
    service->sendNack(Nack{i, r});
    ASSERT_EQ(transport->sent.size(), 1u);
    inject(transport->sent[0].frame);
    ASSERT_FALSE(nacks.empty());
    EXPECT_EQ(nacks.back().reason, r);
  }
  inject(lpFrame("fd0320 05 fd0321 01 07", *i.wireEncode()));
  ASSERT_EQ(nacks.size(), 5u);
  EXPECT_EQ(nacks.back().reason, NackReason::None);
}

// --- receive-side tag rules -----------------------------------------------------------------

struct RuleCase
{
  const char* name;
  enum Kind { InterestPkt, DataPkt, NackPkt } kind;
  const char* fieldsHex; ///< header fields (a Nack header is added for NackPkt)
  bool localFields;
  std::optional<DropReason> dropReason; ///< nullopt = accepted
};

class TagRules : public GenericLinkServiceTest, public ::testing::WithParamInterface<RuleCase>
{};

TEST_P(TagRules, Apply)
{
  const RuleCase& c = GetParam();
  init({.allowLocalFields = c.localFields}, c.localFields ? FaceScope::Local : FaceScope::NonLocal);
  Interest i = makeInterest();
  Data d = makeData();
  std::string fields = c.fieldsHex;
  if (c.kind == RuleCase::NackPkt) {
    // Nack (800) sorts before every other 3-octet field; insert it after 1-octet fields
    fields = "fd0320 05 fd0321 01 32 " + fields;
  }
  inject(lpFrame(fields, c.kind == RuleCase::DataPkt ? *d.wireEncode() : *i.wireEncode()));
  if (c.dropReason) {
    EXPECT_EQ(received(), 0u);
    EXPECT_EQ(counters().nInFieldNotAllowed, 1u);
    EXPECT_EQ(drops(*c.dropReason), 1u);
    EXPECT_EQ(drops(), 1u);
  }
  else {
    EXPECT_EQ(received(), 1u);
    EXPECT_EQ(drops(), 0u);
    switch (c.kind) {
      case RuleCase::InterestPkt: EXPECT_EQ(interests.size(), 1u); break;
      case RuleCase::DataPkt: EXPECT_EQ(data.size(), 1u); break;
      case RuleCase::NackPkt: EXPECT_EQ(nacks.size(), 1u); break;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
  Fields, TagRules,
  ::testing::Values(
    RuleCase{"InterestNextHopWithoutLocal", RuleCase::InterestPkt, "fd0330 02 0101", false,
             DropReason::NextHopFaceIdNotAllowed},
    RuleCase{"InterestNextHopWithLocal", RuleCase::InterestPkt, "fd0330 02 0101", true, std::nullopt},
    RuleCase{"InterestCachePolicy", RuleCase::InterestPkt, "fd0334 05 fd0335 01 01", true,
             DropReason::CachePolicyOnInterest},
    RuleCase{"InterestIncomingFaceIdIgnored", RuleCase::InterestPkt, "fd032c 02 0101", false, std::nullopt},
    RuleCase{"InterestCongestionMark", RuleCase::InterestPkt, "fd0340 01 01", false, std::nullopt},
    RuleCase{"InterestNonDiscovery", RuleCase::InterestPkt, "fd034c 00", false, std::nullopt},
    RuleCase{"InterestPrefixAnnouncement", RuleCase::InterestPkt, "fd0350 02 0600", false,
             DropReason::PrefixAnnouncementOnInterest},
    RuleCase{"DataNack", RuleCase::DataPkt, "fd0320 00", false, DropReason::NackOnData},
    RuleCase{"DataNextHop", RuleCase::DataPkt, "fd0330 02 0101", true, DropReason::NextHopFaceIdOnData},
    RuleCase{"DataNonDiscovery", RuleCase::DataPkt, "fd034c 00", false, DropReason::NonDiscoveryOnData},
    RuleCase{"DataCachePolicy", RuleCase::DataPkt, "fd0334 05 fd0335 01 01", false, std::nullopt},
    RuleCase{"DataIncomingFaceIdIgnored", RuleCase::DataPkt, "fd032c 02 0101", true, std::nullopt},
    RuleCase{"DataCongestionMark", RuleCase::DataPkt, "fd0340 01 01", false, std::nullopt},
    RuleCase{"DataPrefixAnnouncement", RuleCase::DataPkt, "fd0350 02 0600", false, std::nullopt},
    RuleCase{"NackNextHop", RuleCase::NackPkt, "fd0330 02 0101", true, DropReason::NextHopFaceIdOnNack},
    RuleCase{"NackCachePolicy", RuleCase::NackPkt, "fd0334 05 fd0335 01 01", false, DropReason::CachePolicyOnNack},
    RuleCase{"NackNonDiscovery", RuleCase::NackPkt, "fd034c 00", false, DropReason::NonDiscoveryOnNack},
    RuleCase{"NackPrefixAnnouncement", RuleCase::NackPkt, "fd0350 02 0600", false,
             DropReason::PrefixAnnouncementOnNack},
    RuleCase{"NackCongestionMark", RuleCase::NackPkt, "fd0340 01 01", false, std::nullopt},
    RuleCase{"NackIncomingFaceIdIgnored", RuleCase::NackPkt, "fd032c 02 0101", false, std::nullopt}),
  [](const auto& info) { return std::string(info.param.name); });

TEST_F(GenericLinkServiceTest, ReceivedFieldsBecomeTags)
{
  init({.allowLocalFields = true}, FaceScope::Local);
  Interest i = makeInterest();
  inject(lpFrame("6201 07 fd032c 02 0105 fd0330 02 0106 fd0340 01 03", *i.wireEncode()));
  ASSERT_EQ(interests.size(), 1u);
  const PacketTags& it = interests[0].tags;
  EXPECT_EQ(it.pitToken, token({7}));
  EXPECT_EQ(it.nextHopFaceId, 0x106u);
  EXPECT_EQ(it.congestionMark, 3u);
  EXPECT_FALSE(it.incomingFaceId); // IncomingFaceId from the wire is never trusted

  Data d = makeData();
  inject(lpFrame("6201 08 fd0334 05 fd0335 01 01 fd0340 01 01", *d.wireEncode()));
  ASSERT_EQ(data.size(), 1u);
  EXPECT_TRUE(data[0].tags.noCache);
  EXPECT_EQ(data[0].tags.congestionMark, 1u);
  EXPECT_EQ(data[0].tags.pitToken, token({8}));

  inject(lpFrame("fd0320 05 fd0321 01 32 fd0340 01 02", *i.wireEncode()));
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::Congestion);
  EXPECT_EQ(nacks[0].interest.tags.congestionMark, 2u);
}

// --- malformed input ------------------------------------------------------------------------

TEST_F(GenericLinkServiceTest, MalformedFramesAreCountedDrops)
{
  Interest i = makeInterest();
  inject(hex(""));                                     // empty
  inject(hex("64"));                                   // truncated
  inject(hex("6403 5001"));                            // bad inner length
  inject(lpFrame("6201 01 6201 02", *i.wireEncode())); // repeated field
  EXPECT_EQ(counters().nInLpInvalid, 4u);

  inject(hex("0800"));              // neither LP, Interest nor Data
  inject(lpFrame("", hex("0800"))); // fragment is not a network packet
  EXPECT_EQ(counters().nInUnknownType, 2u);

  inject(lpFrame("5401 01", *i.wireEncode()));      // ndnSIM HopCount: critical unknown
  inject(lpFrame("fd0331 01 01", *i.wireEncode())); // 817: odd, critical
  EXPECT_EQ(counters().nInUnknownCriticalField, 2u);

  inject(lpFrame("fd0324 01 01", *i.wireEncode())); // 804: ignorable
  EXPECT_EQ(interests.size(), 1u);

  inject(hex("0500"));                       // Interest without Name
  inject(lpFrame("", hex("0603 0701 08")));  // Data with a bad Name
  inject(lpFrame("fd0320 00", hex("0500"))); // Nack of a bad Interest
  EXPECT_EQ(counters().nInNetInvalid, 3u);
  EXPECT_EQ(drops(DropReason::NetInvalid), 3u);

  EXPECT_EQ(received(), 1u);
  EXPECT_EQ(drops(), 11u);
  // one debug line ending in DROP per drop
  size_t dropLines = 0;
  for (const auto& l : env.logImpl.lines)
    dropLines += l.level == LogLevel::Debug && l.message.ends_with("DROP");
  EXPECT_EQ(dropLines, 11u);
}

TEST_F(GenericLinkServiceTest, FragmentWithoutReassemblyIsDropped)
{
  Interest i = makeInterest();
  inject(lpFrame("5108 0000000000000001 5201 00 5301 01", *i.wireEncode()));
  EXPECT_EQ(counters().nReassemblyDrops, 1u);
  EXPECT_EQ(drops(DropReason::ReassemblyDisabled), 1u);
  EXPECT_EQ(received(), 0u);
}

// --- packet size limit (MAX_NDN_PACKET_SIZE) ------------------------------------------------

/// An Interest whose wire encoding is exactly `size` octets (ApplicationParameters padding).
Interest interestOfSize(size_t size, std::string_view name = "/big")
{
  Interest i = makeInterest(name);
  i.setAppParameters(Buffer(16));
  size_t base = i.wireEncode()->size();
  EXPECT_LT(base, size);
  // Grow the parameters until the whole TLV has the requested size (length fields widen).
  size_t params = size - base + 16;
  for (int k = 0; k < 8; ++k) {
    i.setAppParameters(Buffer(params));
    size_t now = i.wireEncode()->size();
    if (now == size)
      break;
    params = params + size - now;
  }
  EXPECT_EQ(i.wireEncode()->size(), size);
  return i;
}

TEST_F(GenericLinkServiceTest, PacketAboveMaxNdnPacketSizeIsDroppedOnReceive)
{
  init({.allowReassembly = true});
  inject(*interestOfSize(MaxNdnPacketSize, "/fits").wireEncode());
  ASSERT_EQ(interests.size(), 1u);

  inject(*interestOfSize(MaxNdnPacketSize + 1, "/bare").wireEncode());
  inject(lpFrame("6201 01", *interestOfSize(60000, "/wrapped").wireEncode()));
  EXPECT_EQ(interests.size(), 1u);
  EXPECT_EQ(counters().nInTooLarge, 2u);
  EXPECT_EQ(drops(DropReason::PacketTooLarge), 2u);
  EXPECT_EQ(drops(), 2u);
}

TEST_F(GenericLinkServiceTest, OversizedReassembledInterestIsDroppedOnceAndNotForwarded)
{
  // A peer without the limit sends a 60 KB Interest as fragments that each fit the MTU.
  DummyTransport peerTransport(FaceScope::NonLocal, LinkType::PointToPoint, 6000);
  GenericLinkService peer(env, {.allowFragmentation = true, .maxPacketSize = 65536});
  peer.attach(peerTransport);
  Interest big = interestOfSize(60000);
  peer.sendInterest(big);
  ASSERT_GE(peerTransport.sent.size(), 10u);

  init({.allowFragmentation = true, .allowReassembly = true}, FaceScope::NonLocal, 8800);
  for (const auto& f : peerTransport.sent)
    inject(f.frame, 7);
  EXPECT_TRUE(interests.empty());
  EXPECT_EQ(counters().nInTooLarge, 1u); // one drop for the packet, not one per fragment
  EXPECT_EQ(drops(DropReason::PacketTooLarge), 1u);
  EXPECT_EQ(drops(), 1u);
  EXPECT_EQ(counters().nReassembling, 0u); // nothing left behind
  env.advance(1s);
  EXPECT_EQ(counters().nReassemblyTimeouts, 0u);

  // A packet at the limit still reassembles.
  peerTransport.sent.clear();
  peer.sendInterest(interestOfSize(MaxNdnPacketSize, "/ok"));
  ASSERT_GT(peerTransport.sent.size(), 1u);
  for (const auto& f : peerTransport.sent)
    inject(f.frame, 7);
  ASSERT_EQ(interests.size(), 1u);
  EXPECT_EQ(interests[0].name(), interestOfSize(MaxNdnPacketSize, "/ok").name());
}

TEST_F(GenericLinkServiceTest, OversizedPacketIsNotSent)
{
  service->sendInterest(interestOfSize(MaxNdnPacketSize + 1));
  service->sendData(makeData("/d", 9000));
  service->sendNack(Nack{interestOfSize(20000), NackReason::NoRoute});
  EXPECT_TRUE(transport->sent.empty());
  EXPECT_EQ(counters().nOutTooLarge, 3u);
  EXPECT_EQ(drops(DropReason::SendPacketTooLarge), 3u);
  service->sendInterest(interestOfSize(MaxNdnPacketSize));
  EXPECT_EQ(transport->sent.size(), 1u);
}

// --- MTU and fragmentation ------------------------------------------------------------------

TEST_F(GenericLinkServiceTest, OverMtuWithoutFragmentationIsDropped)
{
  init({}, FaceScope::NonLocal, 200);
  service->sendData(makeData("/big", 500));
  EXPECT_TRUE(transport->sent.empty());
  EXPECT_EQ(counters().nOutOverMtu, 1u);
  EXPECT_EQ(drops(DropReason::OverMtu), 1u);
  service->sendData(makeData("/small", 20));
  EXPECT_EQ(transport->sent.size(), 1u);
}

TEST_F(GenericLinkServiceTest, OverrideMtuLimitsAnUnlimitedTransport)
{
  init({.overrideMtu = 300});
  EXPECT_EQ(service->effectiveMtu(), 300u);
  service->sendData(makeData("/big", 500));
  EXPECT_EQ(counters().nOutOverMtu, 1u);
  init({});
  EXPECT_FALSE(service->effectiveMtu());
  init({.overrideMtu = 1000}, FaceScope::NonLocal, 500);
  EXPECT_EQ(service->effectiveMtu(), 500u);
}

TEST_F(GenericLinkServiceTest, FragmentsAndReassemblesOverSmallMtu)
{
  LinkServiceOptions opts{.allowFragmentation = true, .allowReassembly = true};
  init(opts, FaceScope::NonLocal, 150);
  Data d = makeData("/frag/me", 1000);
  d.tags.pitToken = token({1, 2, 3, 4});
  d.tags.congestionMark = 1;
  service->sendData(d);
  ASSERT_GT(transport->sent.size(), 6u);
  for (const auto& s : transport->sent)
    EXPECT_LE(s.frame.size(), 150u);
  auto sent = transport->sent;

  // a peer reassembles them, in reverse order
  std::reverse(sent.begin(), sent.end());
  for (size_t k = 0; k < sent.size(); ++k) {
    inject(sent[k].frame, 5);
    EXPECT_EQ(counters().nReassembling, k + 1 < sent.size() ? 1u : 0u);
  }
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(*data[0].wireEncode(), *d.wireEncode());
  EXPECT_EQ(data[0].tags.pitToken, token({1, 2, 3, 4}));
  EXPECT_EQ(data[0].tags.congestionMark, 1u);
  EXPECT_EQ(endpoints, std::vector<EndpointId>{5});

  // duplicates after completion start a new partial packet that times out
  inject(sent[0].frame, 5);
  EXPECT_EQ(counters().nReassembling, 1u);
  env.advance(500ms);
  EXPECT_EQ(counters().nReassemblyTimeouts, 1u);
  EXPECT_EQ(counters().nReassembling, 0u);
  EXPECT_EQ(drops(DropReason::ReassemblyTimeout), 1u);
  EXPECT_EQ(data.size(), 1u);
}

TEST_F(GenericLinkServiceTest, NackIsFragmentedWithHeaderInFirstFragment)
{
  init({.allowFragmentation = true, .allowReassembly = true}, FaceScope::NonLocal, 80);
  Interest i = makeInterest("/a/very/long/name/that/needs/several/fragments/to/cross/the/link");
  service->sendNack(Nack{i, NackReason::Duplicate});
  ASSERT_GT(transport->sent.size(), 1u);
  EXPECT_TRUE(sentLp(0).nack);
  EXPECT_FALSE(sentLp(1).nack);
  auto sent = transport->sent;
  for (const auto& s : sent)
    inject(s.frame);
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::Duplicate);
  EXPECT_EQ(nacks[0].interest.name(), i.name());
}

TEST_F(GenericLinkServiceTest, DuplicateAndInvalidFragmentsAreCounted)
{
  init({.allowFragmentation = true, .allowReassembly = true}, FaceScope::NonLocal, 150);
  service->sendData(makeData("/d", 600));
  auto sent = transport->sent;
  ASSERT_GE(sent.size(), 3u);
  inject(sent[0].frame);
  inject(sent[0].frame);
  EXPECT_EQ(counters().nReassemblyDrops, 1u);
  EXPECT_EQ(drops(DropReason::FragDuplicate), 1u);
  Interest i = makeInterest();
  inject(lpFrame("5108 0000000000000001 5201 02 5301 02", *i.wireEncode()));
  EXPECT_EQ(drops(DropReason::FragIndexOutOfRange), 1u);
  EXPECT_EQ(counters().nReassemblyDrops, 2u);
}

TEST_F(GenericLinkServiceTest, ReassemblyMemoryIsBounded)
{
  init({.allowFragmentation = true, .allowReassembly = true, .maxReassemblyBytes = 20000}, FaceScope::NonLocal, 1000);
  std::vector<DummyTransport::Sent> firsts;
  for (int k = 0; k < 100; ++k) {
    transport->sent.clear();
    service->sendData(makeData("/m/" + std::to_string(k), 3000));
    ASSERT_GE(transport->sent.size(), 2u);
    firsts.push_back(transport->sent[0]);
  }
  for (const auto& f : firsts)
    inject(f.frame);
  EXPECT_LE(counters().nReassembling, 20u);
  EXPECT_GT(counters().nReassemblyDrops, 0u);
  EXPECT_EQ(counters().nReassemblyDrops + counters().nReassembling, 100u);
  EXPECT_EQ(drops(DropReason::ReassemblyMemoryLimit), counters().nReassemblyDrops);
}

TEST_F(GenericLinkServiceTest, FragmentationErrorWhenMtuTooSmall)
{
  init({.allowFragmentation = true}, FaceScope::NonLocal, 30);
  Data d = makeData("/x", 100);
  d.tags.pitToken = token({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  service->sendData(d);
  EXPECT_TRUE(transport->sent.empty());
  EXPECT_EQ(counters().nFragmentationErrors, 1u);
  EXPECT_EQ(drops(DropReason::FragmentMtuTooSmall), 1u);
}

// --- congestion marking ---------------------------------------------------------------------

TEST_F(GenericLinkServiceTest, CongestionMarkingFollowsCoDelTiming)
{
  init({.allowCongestionMarking = true});
  Interest i = makeInterest();
  auto sendAt = [&](Duration t) -> bool {
    env.clockImpl.runUntil(TimePoint(t));
    size_t before = transport->sent.size();
    service->sendInterest(i);
    EXPECT_EQ(transport->sent.size(), before + 1);
    auto p = lp::decodeFrame(transport->sent.back().frame);
    return p.ok() && p->congestionMark.value_or(0) > 0;
  };

  transport->setSendQueueLength(65536); // at the threshold: not congested
  EXPECT_FALSE(sendAt(0ms));
  transport->setSendQueueLength(65537);
  EXPECT_FALSE(sendAt(1ms)); // incident starts, first mark due at 101 ms
  EXPECT_FALSE(sendAt(100ms));
  EXPECT_TRUE(sendAt(101ms)); // mark 1; next due 101 + 100/sqrt(2) = 171.71 ms
  EXPECT_FALSE(sendAt(150ms));
  EXPECT_FALSE(sendAt(171ms));
  EXPECT_TRUE(sendAt(172ms)); // mark 2; next due 171.71 + 100/sqrt(3) = 229.45 ms
  EXPECT_FALSE(sendAt(229ms));
  EXPECT_TRUE(sendAt(230ms)); // mark 3
  EXPECT_EQ(counters().nCongestionMarked, 3u);
  // a marked bare Interest went out as LpPacket{CongestionMark=1, Interest}
  EXPECT_EQ(transport->sent.back().frame, lpFrame("fd0340 01 01", *i.wireEncode()));

  transport->setSendQueueLength(1000); // incident over
  EXPECT_FALSE(sendAt(300ms));
  transport->setSendQueueLength(100000);
  EXPECT_FALSE(sendAt(301ms)); // new incident: full interval again
  EXPECT_FALSE(sendAt(400ms));
  EXPECT_TRUE(sendAt(401ms));
  EXPECT_EQ(counters().nCongestionMarked, 4u);
}

TEST_F(GenericLinkServiceTest, NoMarkingWhenDisabled)
{
  transport->setSendQueueLength(1'000'000);
  Interest i = makeInterest();
  for (int k = 0; k < 10; ++k) {
    env.advance(100ms);
    service->sendInterest(i);
  }
  EXPECT_EQ(counters().nCongestionMarked, 0u);
  for (const auto& s : transport->sent)
    EXPECT_EQ(s.frame, *i.wireEncode());
}

TEST_F(GenericLinkServiceTest, UpstreamMarkIsKeptWhenMarkingLocally)
{
  init({.allowCongestionMarking = true, .baseCongestionMarkingInterval = 10ms});
  transport->setSendQueueLength(100000);
  Data d = makeData();
  d.tags.congestionMark = 5;
  service->sendData(d);
  env.advance(20ms);
  service->sendData(d);
  EXPECT_EQ(counters().nCongestionMarked, 1u);
  EXPECT_EQ(sentLp(1).congestionMark, 5u);
}

TEST_F(GenericLinkServiceTest, ReceiveBacklogMarksIncomingData)
{
  init({.allowCongestionMarking = true});
  Data d = makeData();
  Buffer wire = *d.wireEncode();
  auto receiveAt = [&](Duration t) -> uint64_t {
    env.clockImpl.runUntil(TimePoint(t));
    transport->injectFrame(wire);
    EXPECT_FALSE(data.empty());
    return data.empty() ? 0 : data.back().tags.congestionMark;
  };

  transport->setReceiveQueueLength(65536); // at the threshold: not congested
  EXPECT_EQ(receiveAt(0ms), 0u);
  transport->setReceiveQueueLength(1 << 20);
  EXPECT_EQ(receiveAt(1ms), 0u); // incident starts, first mark due at 101 ms
  EXPECT_EQ(receiveAt(100ms), 0u);
  EXPECT_EQ(receiveAt(101ms), 1u); // same CoDel timing as send-side marking
  EXPECT_EQ(receiveAt(171ms), 0u);
  EXPECT_EQ(receiveAt(172ms), 1u);
  EXPECT_EQ(counters().nReceiveCongestionMarked, 2u);
  EXPECT_EQ(counters().nCongestionMarked, 0u);

  transport->setReceiveQueueLength(0); // backlog drained: incident over
  EXPECT_EQ(receiveAt(300ms), 0u);
  transport->setReceiveQueueLength(1 << 20);
  EXPECT_EQ(receiveAt(301ms), 0u);
  EXPECT_EQ(receiveAt(350ms), 0u);
  EXPECT_EQ(counters().nReceiveCongestionMarked, 2u);

  // Interests are never marked on receive (consumers react to marks on Data).
  interests.clear();
  transport->setReceiveQueueLength(1 << 20);
  env.clockImpl.runUntil(TimePoint(1s));
  transport->injectFrame(*makeInterest().wireEncode());
  ASSERT_EQ(interests.size(), 1u);
  EXPECT_EQ(interests[0].tags.congestionMark, 0u);
}

TEST_F(GenericLinkServiceTest, ReceiveBacklogMarkingCanBeTurnedOff)
{
  Data d = makeData();
  Buffer wire = *d.wireEncode();
  for (LinkServiceOptions o : {LinkServiceOptions{.allowCongestionMarking = false},
                               LinkServiceOptions{.allowCongestionMarking = true, .markReceiveBacklog = false}}) {
    init(o);
    transport->setReceiveQueueLength(1 << 20);
    for (int k = 0; k < 10; ++k) {
      env.advance(100ms);
      transport->injectFrame(wire);
    }
    ASSERT_EQ(data.size(), 10u);
    for (const auto& x : data)
      EXPECT_EQ(x.tags.congestionMark, 0u);
    EXPECT_EQ(counters().nReceiveCongestionMarked, 0u);
    data.clear();
  }
}

TEST_F(GenericLinkServiceTest, UpstreamMarkOnDataIsKeptByReceiveMarking)
{
  init({.allowCongestionMarking = true, .baseCongestionMarkingInterval = 10ms});
  transport->setReceiveQueueLength(1 << 20);
  Data d = makeData();
  Buffer marked = lpFrame("fd0340 01 07", *d.wireEncode());
  transport->injectFrame(marked);
  env.advance(20ms);
  transport->injectFrame(marked);
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[1].tags.congestionMark, 7u);
  EXPECT_EQ(counters().nReceiveCongestionMarked, 1u);
}

// --- MIRCC rate (docs/mechanisms/mircc.md) ------------------------------------------------

TEST_F(GenericLinkServiceTest, MirccRateIsStrippedTowardAFaceWithMirccOff)
{
  // default options: MIRCC off
  Data d = makeData();
  d.tags.mirccRate = Rate::mbps(5);
  service->sendData(d);
  Interest i = makeInterest();
  i.tags.mirccRate = Rate::mbps(5);
  service->sendNack(Nack{i, NackReason::Congestion});
  ASSERT_EQ(transport->sent.size(), 2u);
  EXPECT_EQ(transport->sent[0].frame, *d.wireEncode()) << "the rate was the only field: bare Data";
  EXPECT_FALSE(sentLp(1).mirccRate);
  EXPECT_EQ(sentLp(1).nack, 50u);
}

TEST_F(GenericLinkServiceTest, MirccRateIsKeptTowardAFaceWithMirccOn)
{
  init({.mircc = true});
  Data d = makeData();
  d.tags.mirccRate = Rate::mbps(12);
  service->sendData(d);
  EXPECT_EQ(transport->sent.at(0).frame, lpFrame("fd0378 04 00b71b00", *d.wireEncode()));

  Interest i = makeInterest("/n");
  i.tags.mirccRate = Rate::kbps(800);
  service->sendNack(Nack{i, NackReason::Congestion});
  EXPECT_EQ(transport->sent.at(1).frame, lpFrame("fd0320 05 fd0321 01 32 fd0378 04 000c3500", *i.wireEncode()));

  // no tag, no field; never on Interests
  service->sendData(makeData("/c"));
  EXPECT_EQ(transport->sent.at(2).frame, *makeData("/c").wireEncode());
  Interest withTag = makeInterest("/i");
  withTag.tags.mirccRate = Rate::mbps(1);
  service->sendInterest(withTag);
  EXPECT_EQ(transport->sent.at(3).frame, *withTag.wireEncode());
}

TEST_F(GenericLinkServiceTest, MirccRateIsDecodedOnEveryFace)
{
  for (bool mircc : {false, true}) {
    SCOPED_TRACE(mircc);
    init({.mircc = mircc});
    Data d = makeData();
    inject(lpFrame("fd0378 04 00b71b00", *d.wireEncode()));
    Interest i = makeInterest("/n");
    inject(lpFrame("fd0320 05 fd0321 01 32 fd0378 02 0100", *i.wireEncode()));
    inject(lpFrame("fd0378 02 0100", *i.wireEncode())); // on an Interest: ignored
    ASSERT_EQ(data.size(), 1u);
    ASSERT_EQ(nacks.size(), 1u);
    ASSERT_EQ(interests.size(), 1u);
    EXPECT_EQ(data[0].tags.mirccRate, Rate::mbps(12));
    EXPECT_EQ(nacks[0].interest.tags.mirccRate, Rate::bitsPerSecond(256));
    EXPECT_EQ(nacks[0].reason, NackReason::Congestion);
    EXPECT_FALSE(interests[0].tags.mirccRate);
    EXPECT_EQ(drops(), 0u);
    data.clear();
    nacks.clear();
    interests.clear();
  }
}

TEST_F(GenericLinkServiceTest, MirccRateTravelsInTheFirstFragment)
{
  init({.allowFragmentation = true, .allowReassembly = true, .mircc = true}, FaceScope::NonLocal, 200);
  Data d = makeData("/big", 600);
  d.tags.mirccRate = Rate::mbps(3);
  service->sendData(d);
  ASSERT_GT(transport->sent.size(), 1u);
  for (const auto& s : transport->sent)
    inject(s.frame);
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0].tags.mirccRate, Rate::mbps(3));
}

} // namespace
} // namespace ndnlab::face
