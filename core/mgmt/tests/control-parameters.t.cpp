#include "core/mgmt/control-parameters.hpp"
#include "core/mgmt/datasets.hpp"

#include <gtest/gtest.h>

namespace ndnlab::mgmt {
namespace {

Buffer hex(std::string_view h)
{
  Buffer b;
  EXPECT_TRUE(fromHex(h, b)) << h;
  return b;
}

TEST(ControlParameters, RoundTripAllFields)
{
  ControlParameters cp;
  cp.name = Name("/a/b");
  cp.faceId = 300;
  cp.uri = "udp4://192.0.2.1:6363";
  cp.localUri = "udp4://0.0.0.0:6363";
  cp.origin = 65;
  cp.cost = 10;
  cp.capacity = 65536;
  cp.count = 3;
  cp.flags = 3;
  cp.mask = 1;
  cp.strategy = Name("/localhost/nfd/strategy/best-route/v=5");
  cp.expirationPeriod = std::chrono::milliseconds(1'200'000);
  cp.facePersistency = 2;
  cp.baseCongestionMarkingInterval = std::chrono::milliseconds(100);
  cp.defaultCongestionThreshold = 65536;
  cp.mtu = 8800;

  Buffer wire = cp.wireEncode();
  EXPECT_EQ(wire[0], 0x68);
  auto back = ControlParameters::decode(wire);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, cp);

  // ndn-cxx element order: types appear as Name, FaceId, Uri, LocalUri, Origin, Cost,
  // Capacity, Count, Flags, Mask, Strategy, ExpirationPeriod, FacePersistency, BCMI, DCT, Mtu.
  auto outer = readSingleTlv(wire);
  ASSERT_TRUE(outer);
  std::vector<uint32_t> types;
  TlvReader r(outer->value);
  while (!r.atEnd())
    types.push_back(r.next()->type);
  EXPECT_EQ(types,
            (std::vector<uint32_t>{7, 105, 114, 129, 111, 106, 131, 132, 108, 112, 107, 109, 133, 135, 136, 137}));
}

TEST(ControlParameters, EmptyAndExactBytes)
{
  ControlParameters empty;
  EXPECT_EQ(toHex(empty.wireEncode()), "6800");
  auto d = ControlParameters::decode(hex("6800"));
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->name);

  // NDNts rib/register parameters from interop-facts.md capture 2.
  Buffer ndnts = hex("681e070d0807696e7465726f7008026a736f01416a01006c01026d0400124f80");
  auto cp = ControlParameters::decode(ndnts);
  ASSERT_TRUE(cp);
  EXPECT_EQ(*cp->name, Name("/interop/js"));
  EXPECT_EQ(*cp->origin, 65u);
  EXPECT_EQ(*cp->cost, 0u);
  EXPECT_EQ(*cp->flags, 2u);
  EXPECT_EQ(cp->expirationPeriod->count(), 1'200'000);
  EXPECT_FALSE(cp->faceId);
  // Re-encoding gives the same bytes (NDNts uses ndn-cxx order and shortest integers).
  EXPECT_EQ(toHex(cp->wireEncode()), toHex(ndnts));
}

TEST(ControlParameters, LenientDecoding)
{
  // Out of order, unknown element (type 200, even) and a duplicate Cost (first kept).
  auto cp = ControlParameters::decode(hex("6811"
                                          "6a0105"
                                          "c80100"
                                          "0703080161"
                                          "6a0109"
                                          "690101"));
  ASSERT_TRUE(cp);
  EXPECT_EQ(*cp->cost, 5u);
  EXPECT_EQ(*cp->name, Name("/a"));
  EXPECT_EQ(*cp->faceId, 1u);
}

TEST(ControlParameters, MalformedRejected)
{
  EXPECT_FALSE(ControlParameters::decode(hex("")));
  EXPECT_FALSE(ControlParameters::decode(hex("6803")));       // truncated
  EXPECT_FALSE(ControlParameters::decode(hex("6503660100"))); // wrong outer type
  EXPECT_FALSE(ControlParameters::decode(hex("6803690300"))); // bad NonNegInt length
  EXPECT_FALSE(ControlParameters::decode(hex("6804070208"))); // broken Name
  EXPECT_FALSE(ControlParameters::decode(hex("68026a0100"))); // length mismatch
  EXPECT_FALSE(ControlParameters::decode(hex("6805"
                                             "6b03080161"))); // Strategy not a Name TLV
}

TEST(ControlResponse, MatchesNdndReplyBytes)
{
  // Content of ndnd's reply to rib/register /cap/ndnd (interop-facts.md capture 1).
  ControlParameters body;
  body.name = Name("/cap/ndnd");
  body.faceId = 8;
  body.origin = 0;
  body.cost = 0;
  body.flags = 1;
  ControlResponse resp(200, "OK", body);
  const std::string expected = "6522"
                               "6601c8"
                               "67024f4b"
                               "6819070b080363617008046e646e64"
                               "690108"
                               "6f0100"
                               "6a0100"
                               "6c0101";
  EXPECT_EQ(toHex(resp.wireEncode()), expected);

  auto d = ControlResponse::decode(hex(expected));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->code, 200u);
  EXPECT_EQ(d->text, "OK");
  auto p = d->bodyParameters();
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, body);

  ControlResponse err(400, "ControlParameters is incorrect (missing Name)");
  auto e = ControlResponse::decode(err.wireEncode());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, 400u);
  EXPECT_TRUE(e->body.empty());
  EXPECT_FALSE(e->bodyParameters());

  EXPECT_FALSE(ControlResponse::decode(hex("6503660100"))); // missing StatusText
  EXPECT_FALSE(ControlResponse::decode(hex("6502670100"))); // missing StatusCode
}

/// The TLV-TYPEs of the elements in `content`, in order.
std::vector<uint32_t> elementTypes(ByteSpan content)
{
  std::vector<uint32_t> types;
  TlvReader r(content);
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e)
      break;
    types.push_back(e->type);
  }
  return types;
}

// ndn-cxx decodes status/general and FaceStatus field by field in a fixed order and rejects
// any other (so does NDNts): ndn-cxx forwarder-status.cpp and face-status.cpp. status/general
// once put the Nack counters after NOutData, which nfdc and NDNts could not read.
TEST(Datasets, FieldsInNfdOrder)
{
  Buffer general;
  ForwarderStatus{}.encodeTo(general);
  EXPECT_EQ(elementTypes(general),
            (std::vector<uint32_t>{tlv::NfdVersion, tlv::StartTimestamp, tlv::CurrentTimestamp, tlv::NNameTreeEntries,
                                   tlv::NFibEntries, tlv::NPitEntries, tlv::NMeasurementsEntries, tlv::NCsEntries,
                                   tlv::NInInterests, tlv::NInData, tlv::NInNacks, tlv::NOutInterests, tlv::NOutData,
                                   tlv::NOutNacks, tlv::NSatisfiedInterests, tlv::NUnsatisfiedInterests}));

  FaceStatus f;
  f.expirationPeriod = std::chrono::milliseconds(1);
  f.baseCongestionMarkingInterval = std::chrono::milliseconds(100);
  f.defaultCongestionThreshold = 65536;
  f.mtu = 8800;
  Buffer face;
  f.encodeTo(face);
  auto outer = readSingleTlv(face);
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->type, tlv::FaceStatus);
  EXPECT_EQ(elementTypes(outer->value),
            (std::vector<uint32_t>{tlv::FaceId, tlv::Uri, tlv::LocalUri, tlv::ExpirationPeriod, tlv::FaceScope,
                                   tlv::FacePersistency, tlv::LinkType, tlv::BaseCongestionMarkingInterval,
                                   tlv::DefaultCongestionThreshold, tlv::Mtu, tlv::NInInterests, tlv::NInData,
                                   tlv::NInNacks, tlv::NOutInterests, tlv::NOutData, tlv::NOutNacks, tlv::NInBytes,
                                   tlv::NOutBytes, tlv::Flags}));
}

// faces/query's parameter, byte for byte as ndn-cxx's FaceQueryFilter::wireEncode lays it out
// (FaceId, UriScheme, Uri, LocalUri, FaceScope, FacePersistency, LinkType).
TEST(FaceQueryFilter, WireFormat)
{
  const std::string uri = "udp4://127.0.0.1:6363";
  Buffer expected{0x96, 0x21, 0x69, 0x02, 0x01, 0x2C, 0x83, 0x04, 'u', 'd', 'p', '4', 0x72, 0x15};
  expected.insert(expected.end(), uri.begin(), uri.end());
  FaceQueryFilter f{.faceId = 300, .uriScheme = "udp4", .remoteUri = uri};
  Buffer wire;
  f.encodeTo(wire);
  EXPECT_EQ(wire, expected);
  EXPECT_EQ(*FaceQueryFilter::decode(wire), f);

  FaceQueryFilter all{.faceId = 1,
                      .uriScheme = "tcp4",
                      .remoteUri = "tcp4://192.0.2.1:6363",
                      .localUri = "tcp4://192.0.2.2:6363",
                      .faceScope = 0,
                      .facePersistency = 2,
                      .linkType = 1};
  Buffer w;
  all.encodeTo(w);
  auto outer = readSingleTlv(w);
  ASSERT_TRUE(outer);
  EXPECT_EQ(elementTypes(outer->value), (std::vector<uint32_t>{tlv::FaceId, tlv::UriScheme, tlv::Uri, tlv::LocalUri,
                                                               tlv::FaceScope, tlv::FacePersistency, tlv::LinkType}));
  EXPECT_EQ(*FaceQueryFilter::decode(w), all);

  Buffer empty;
  FaceQueryFilter{}.encodeTo(empty);
  EXPECT_EQ(empty, (Buffer{0x96, 0x00}));
}

TEST(FaceQueryFilter, DecodeIsLenientButRejectsMalformed)
{
  // Any order, unknown elements skipped (as every dataset decoder here).
  Buffer reordered{0x96, 0x09, 0x86, 0x01, 0x01, 0xF0, 0x01, 0x00, 0x69, 0x01, 0x07};
  auto f = FaceQueryFilter::decode(reordered);
  ASSERT_TRUE(f);
  EXPECT_EQ(*f, (FaceQueryFilter{.faceId = 7, .linkType = 1}));

  EXPECT_FALSE(FaceQueryFilter::decode(Buffer{0x68, 0x00})) << "ControlParameters, not a filter";
  EXPECT_FALSE(FaceQueryFilter::decode(Buffer{0x96, 0x03, 0x69, 0x03, 0x01})) << "element overruns";
  EXPECT_FALSE(FaceQueryFilter::decode(Buffer{0x96, 0x05, 0x69, 0x03, 0x01, 0x02, 0x03}))
    << "FaceId of 3 octets is not a NonNegativeInteger";
  EXPECT_FALSE(FaceQueryFilter::decode(Buffer{})) << "empty component";
}

TEST(FaceQueryFilter, EveryPresentFieldMustMatch)
{
  FaceStatus udp;
  udp.faceId = 260;
  udp.remoteUri = "udp4://192.0.2.1:6363";
  udp.localUri = "udp4://0.0.0.0:6363";
  udp.faceScope = 0;
  udp.facePersistency = 0;
  udp.linkType = 0;
  FaceStatus app = udp;
  app.faceId = 261;
  app.remoteUri = "fd://12";
  app.localUri = "unix:///run/nfd/nfd.sock";
  app.faceScope = 1;
  app.facePersistency = 1;

  auto ids = [&](const FaceQueryFilter& f) {
    std::vector<uint64_t> out;
    for (const FaceStatus* s : {&udp, &app})
      if (f.matches(*s))
        out.push_back(s->faceId);
    return out;
  };
  using V = std::vector<uint64_t>;
  EXPECT_EQ(ids({}), (V{260, 261}));
  EXPECT_EQ(ids({.faceId = 261}), V{261});
  EXPECT_EQ(ids({.uriScheme = "udp4"}), V{260});
  EXPECT_EQ(ids({.uriScheme = "unix"}), V{261}) << "the local URI's scheme counts too";
  EXPECT_EQ(ids({.uriScheme = "udp"}), V{}) << "a scheme is compared whole";
  EXPECT_EQ(ids({.remoteUri = "udp4://192.0.2.1:6363"}), V{260});
  EXPECT_EQ(ids({.remoteUri = "udp://192.0.2.1:6363"}), V{}) << "URIs compared as strings, as NFD";
  EXPECT_EQ(ids({.localUri = "unix:///run/nfd/nfd.sock"}), V{261});
  EXPECT_EQ(ids({.faceScope = 1}), V{261});
  EXPECT_EQ(ids({.facePersistency = 0}), V{260});
  EXPECT_EQ(ids({.linkType = 1}), V{});
  EXPECT_EQ(ids({.faceId = 260, .uriScheme = "unix"}), V{}) << "all present fields, not any";
}

TEST(Datasets, RoundTrips)
{
  ForwarderStatus fs;
  fs.nfdVersion = "ndnlab-0.1.0";
  fs.startTimestamp = UnixMillis(1'700'000'000'000);
  fs.currentTimestamp = UnixMillis(1'700'000'100'000);
  fs.nNameTreeEntries = 10;
  fs.nFibEntries = 3;
  fs.nPitEntries = 4;
  fs.nCsEntries = 5;
  fs.nInInterests = 1000;
  fs.nOutData = 999;
  fs.nSatisfiedInterests = 7;
  Buffer c;
  fs.encodeTo(c);
  auto fs2 = ForwarderStatus::decode(c);
  ASSERT_TRUE(fs2);
  EXPECT_EQ(*fs2, fs);
  EXPECT_EQ(c[0], 0x80); // NfdVersion first, no outer TLV

  FaceStatus f;
  f.faceId = 256;
  f.remoteUri = "unix:///run/nfd/nfd.sock";
  f.localUri = "fd://12";
  f.faceScope = 1;
  f.facePersistency = 1;
  f.expirationPeriod = std::chrono::milliseconds(5000);
  f.mtu = 8800;
  f.nInInterests = 5;
  f.nOutBytes = 1234567;
  f.flags = FaceFlagLocalFields;
  FaceStatus g = f;
  g.faceId = 257;
  g.expirationPeriod.reset();
  g.baseCongestionMarkingInterval = std::chrono::milliseconds(100);
  g.defaultCongestionThreshold = 65536;
  Buffer faces;
  f.encodeTo(faces);
  g.encodeTo(faces);
  auto fl = decodeList<FaceStatus>(faces);
  ASSERT_TRUE(fl);
  ASSERT_EQ(fl->size(), 2u);
  EXPECT_EQ((*fl)[0], f);
  EXPECT_EQ((*fl)[1], g);

  FibEntryStatus fib{Name("/a"), {{256, 0}, {300, 10}}};
  RibEntryStatus rib{Name("/a/b"), {{256, 0, 5, 1, std::nullopt}, {300, 65, 0, 2, std::chrono::milliseconds(1000)}}};
  StrategyChoiceStatus sc{Name("/"), Name("/localhost/nfd/strategy/best-route/v=5")};
  CsInfo cs{65536, CsFlagEnableAdmit | CsFlagEnableServe, 12, 3, 4};
  ChannelStatus ch{"udp4://0.0.0.0:6363"};
  Buffer all;
  fib.encodeTo(all);
  auto fibs = decodeList<FibEntryStatus>(all);
  ASSERT_TRUE(fibs);
  EXPECT_EQ(fibs->at(0), fib);
  Buffer r;
  rib.encodeTo(r);
  EXPECT_EQ(decodeList<RibEntryStatus>(r)->at(0), rib);
  Buffer s;
  sc.encodeTo(s);
  EXPECT_EQ(decodeList<StrategyChoiceStatus>(s)->at(0), sc);
  Buffer ci;
  cs.encodeTo(ci);
  EXPECT_EQ(*CsInfo::decode(ci), cs);
  Buffer chb;
  ch.encodeTo(chb);
  EXPECT_EQ(*ChannelStatus::decode(chb), ch);

  // A list with one broken entry fails as a whole.
  Buffer broken = all;
  broken.push_back(0x80);
  broken.push_back(0x05);
  EXPECT_FALSE(decodeList<FibEntryStatus>(broken));
}

} // namespace
} // namespace ndnlab::mgmt
