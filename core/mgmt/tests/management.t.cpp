// End-to-end management: commands and datasets travel through a Forwarder, its internal face
// and the Dispatcher, from DummyTransport faces, on the manual clock.

#include "core/mgmt/tests/management-fixture.hpp"

namespace ndnlab::mgmt {
namespace {

using namespace test;

TEST_F(ManagementTest, InternalFaceAndRoute)
{
  face::Face* internal = management.internalFace();
  ASSERT_NE(internal, nullptr);
  EXPECT_EQ(internal->id(), face::InternalFaceId);
  const table::FibEntry* e = forwarder.fib().findExactMatch(Name("/localhost/nfd"));
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->nextHops().size(), 1u);
  EXPECT_EQ(e->nextHops()[0].face->id(), face::InternalFaceId);
}

TEST_F(ManagementTest, RegisterThenInterestIsForwarded)
{
  Client producer = addFace();
  Client consumer = addFace(FaceScope::NonLocal);

  ControlParameters cp;
  cp.name = Name("/app");
  auto resp = command(producer, "rib", "register", cp);
  ASSERT_TRUE(resp);
  EXPECT_EQ(resp->code, 200u);
  EXPECT_EQ(resp->text, "OK");
  auto body = resp->bodyParameters();
  ASSERT_TRUE(body);
  EXPECT_EQ(*body->name, Name("/app"));
  EXPECT_EQ(body->faceId, std::optional<uint64_t>(producer.id)); // FaceId 0 = requesting face
  EXPECT_EQ(body->origin, std::optional<uint64_t>(0));
  EXPECT_EQ(body->cost, std::optional<uint64_t>(0));
  EXPECT_EQ(body->flags, std::optional<uint64_t>(RouteFlagChildInherit));
  EXPECT_FALSE(body->expirationPeriod);

  size_t before = producer.transport->sent.size();
  Interest i(Name("/app/data/1"));
  i.setNonce(1234);
  sendInterest(consumer, i);
  ASSERT_EQ(producer.transport->sent.size(), before + 1);
  Received r = decodeFrame(producer.transport->sent.back().frame);
  ASSERT_TRUE(r.interest);
  EXPECT_EQ(r.interest->name(), Name("/app/data/1"));
}

TEST_F(ManagementTest, ReRegisterRefreshesAndFaceCloseRemovesRoutes)
{
  Client producer = addFace();
  Client consumer = addFace(FaceScope::NonLocal);
  ControlParameters cp;
  cp.name = Name("/app");
  cp.origin = 65;
  cp.flags = RouteFlagCapture;
  cp.expirationPeriod = std::chrono::milliseconds(1'200'000);
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(command(producer, "rib", "register", cp)->code, 200u);
    env.advance(std::chrono::seconds(300));
  }
  EXPECT_EQ(management.rib().nRoutes(), 1u);
  cp.name = Name("/app2");
  cp.expirationPeriod.reset();
  ASSERT_EQ(command(producer, "rib", "register", cp)->code, 200u);
  EXPECT_EQ(management.rib().nRoutes(), 2u);
  ASSERT_NE(forwarder.fib().findExactMatch(Name("/app")), nullptr);

  // The client just closes its socket (no unregister).
  producer.transport->close();
  pump();
  EXPECT_EQ(forwarder.faceTable().get(producer.id), nullptr);
  EXPECT_EQ(management.rib().nRoutes(), 0u);
  EXPECT_EQ(forwarder.fib().findExactMatch(Name("/app")), nullptr);
  EXPECT_EQ(forwarder.fib().findExactMatch(Name("/app2")), nullptr);

  // Interests for the prefix are no longer forwarded anywhere.
  size_t sentBefore = consumer.transport->sent.size();
  Interest i(Name("/app/x"));
  i.setNonce(7);
  sendInterest(consumer, i);
  for (const auto& s : std::vector(consumer.transport->sent.begin() + static_cast<ptrdiff_t>(sentBefore),
                                   consumer.transport->sent.end())) {
    Received r = decodeFrame(s.frame);
    EXPECT_FALSE(r.interest.has_value());
  }
}

TEST_F(ManagementTest, ExpirationPeriodHonoured)
{
  Client producer = addFace();
  ControlParameters cp;
  cp.name = Name("/short");
  cp.expirationPeriod = std::chrono::milliseconds(2000);
  auto resp = command(producer, "rib", "register", cp);
  ASSERT_EQ(resp->code, 200u);
  EXPECT_EQ(resp->bodyParameters()->expirationPeriod, std::optional<std::chrono::milliseconds>(2000));
  env.advance(std::chrono::milliseconds(1999));
  EXPECT_NE(forwarder.fib().findExactMatch(Name("/short")), nullptr);
  env.advance(std::chrono::milliseconds(1));
  EXPECT_EQ(forwarder.fib().findExactMatch(Name("/short")), nullptr);
}

TEST_F(ManagementTest, StatusCodes)
{
  Client c = addFace();
  // Unknown verb and module: 501.
  auto r = command(c, "rib", "frobnicate", ControlParameters{.name = Name("/a")});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, 501u);
  EXPECT_EQ(command(c, "nosuch", "x", {})->code, 501u);
  // Missing Name: 400 with ndnd's text.
  r = command(c, "rib", "register", ControlParameters{.cost = 5});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, 400u);
  EXPECT_EQ(r->text, "ControlParameters is incorrect (missing Name)");
  EXPECT_EQ(command(c, "fib", "add-nexthop", {})->code, 400u);
  // Unknown face: 410.
  EXPECT_EQ(command(c, "rib", "register", ControlParameters{.name = Name("/a"), .faceId = 9999})->code, 410u);
  EXPECT_EQ(command(c, "fib", "add-nexthop", ControlParameters{.name = Name("/a"), .faceId = 9999})->code, 410u);
  // Prefix longer than 32 components: 414.
  Name longName;
  for (int k = 0; k < 33; ++k)
    longName.append("c");
  EXPECT_EQ(command(c, "rib", "register", ControlParameters{.name = longName})->code, 414u);
  EXPECT_EQ(command(c, "fib", "add-nexthop", ControlParameters{.name = longName})->code, 414u);
  // Unsigned command with junk at the ControlParameters position: 400.
  Interest junk(Name("/localhost/nfd/rib/register/junk"));
  junk.setNonce(99);
  sendInterest(c, junk);
  Received rr = decodeFrame(c.transport->sent.back().frame);
  ASSERT_TRUE(rr.data);
  EXPECT_EQ(ControlResponse::decode(rr.data->content())->code, 400u);
  // faces/create without a face system: 501; faces/destroy of a reserved face: 400.
  EXPECT_EQ(command(c, "faces", "create", ControlParameters{.uri = "udp4://192.0.2.1:6363"})->code, 501u);
  EXPECT_EQ(command(c, "faces", "destroy", ControlParameters{.faceId = 1})->code, 400u);
  EXPECT_EQ(command(c, "faces", "destroy", {})->code, 400u);
}

TEST_F(ManagementTest, NonLocalFaceCannotReachManagement)
{
  Client remote = addFace(FaceScope::NonLocal);
  EXPECT_FALSE(command(remote, "rib", "register", ControlParameters{.name = Name("/evil")}));
  EXPECT_EQ(management.rib().nRoutes(), 0u);
}

TEST_F(ManagementTest, CapturedClientsRegister)
{
  Client c = addFace();
  struct Case
  {
    const std::string* hex;
    Name prefix;
    uint64_t origin, flags;
  };
  const Case cases[] = {
    {&test::captureNdnd, Name("/cap/ndnd"), 0, RouteFlagChildInherit},
    {&test::captureNdnts, Name("/interop/js"), 65, RouteFlagCapture},
    {&test::captureLegacyPython, Name("/interop/pyv1"), 0, RouteFlagChildInherit},
    {&test::capturePythonAppv2, Name("/interop/py"), 0, RouteFlagChildInherit},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.prefix.toUri());
    Buffer frame;
    ASSERT_TRUE(fromHex(*k.hex, frame));
    size_t before = c.transport->sent.size();
    inject(c, frame);
    ASSERT_EQ(c.transport->sent.size(), before + 1);
    Received r = decodeFrame(c.transport->sent.back().frame);
    ASSERT_TRUE(r.data);
    auto resp = ControlResponse::decode(r.data->content());
    ASSERT_TRUE(resp);
    EXPECT_EQ(resp->code, 200u);
    auto body = resp->bodyParameters();
    ASSERT_TRUE(body);
    EXPECT_EQ(*body->name, k.prefix);
    EXPECT_EQ(body->faceId, std::optional<uint64_t>(c.id));
    EXPECT_EQ(body->origin, std::optional<uint64_t>(k.origin));
    EXPECT_EQ(body->flags, std::optional<uint64_t>(k.flags));
    EXPECT_EQ(r.data->contentType(), 0u);
    EXPECT_EQ(r.data->signatureInfo().type, 0u);
    if (k.hex == &test::captureNdnts) {
      // NDNts sent its command in an LpPacket with a PitToken: the reply echoes it.
      ASSERT_TRUE(r.pitToken);
      EXPECT_EQ(toHex(r.pitToken->view()), "d610ffffffff");
      EXPECT_EQ(body->expirationPeriod, std::optional<std::chrono::milliseconds>(1'200'000));
    }
    else {
      EXPECT_FALSE(r.pitToken);
    }
    EXPECT_NE(forwarder.fib().findExactMatch(k.prefix), nullptr);
  }
  EXPECT_EQ(management.rib().nRoutes(), 4u);
}

TEST_F(ManagementTest, FibAndStrategyAndCsCommands)
{
  Client c = addFace();
  Client other = addFace();
  auto r = command(c, "fib", "add-nexthop", ControlParameters{.name = Name("/f"), .faceId = other.id, .cost = 7});
  ASSERT_EQ(r->code, 200u);
  EXPECT_EQ(r->bodyParameters()->cost, std::optional<uint64_t>(7));
  const table::FibEntry* e = forwarder.fib().findExactMatch(Name("/f"));
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->nextHops()[0].face->id(), other.id);
  EXPECT_EQ(e->nextHops()[0].cost, 7u);
  ASSERT_EQ(command(c, "fib", "remove-nexthop", ControlParameters{.name = Name("/f"), .faceId = other.id})->code, 200u);
  EXPECT_EQ(forwarder.fib().findExactMatch(Name("/f")), nullptr);
  // Removing again is idempotent.
  EXPECT_EQ(command(c, "fib", "remove-nexthop", ControlParameters{.name = Name("/f"), .faceId = other.id})->code, 200u);

  r = command(c, "strategy-choice", "set",
              ControlParameters{.name = Name("/s"), .strategy = Name("/localhost/nfd/strategy/multicast")});
  ASSERT_EQ(r->code, 200u) << r->text;
  ASSERT_TRUE(r->bodyParameters()->strategy);
  EXPECT_TRUE(Name("/localhost/nfd/strategy/multicast").isPrefixOf(*r->bodyParameters()->strategy));
  EXPECT_TRUE(forwarder.strategyChoice().get(Name("/s")));
  EXPECT_EQ(command(c, "strategy-choice", "set",
                    ControlParameters{.name = Name("/s"), .strategy = Name("/localhost/nfd/strategy/no-such")})
              ->code,
            404u);
  EXPECT_EQ(command(c, "strategy-choice", "set", ControlParameters{.name = Name("/s")})->code, 400u);
  EXPECT_EQ(command(c, "strategy-choice", "unset", ControlParameters{.name = Name("/")})->code, 400u);
  ASSERT_EQ(command(c, "strategy-choice", "unset", ControlParameters{.name = Name("/s")})->code, 200u);
  EXPECT_FALSE(forwarder.strategyChoice().get(Name("/s")));

  r = command(c, "cs", "config", ControlParameters{.capacity = 100, .flags = 0, .mask = CsFlagEnableServe});
  ASSERT_EQ(r->code, 200u);
  EXPECT_EQ(forwarder.cs().capacity(), 100u);
  EXPECT_FALSE(forwarder.cs().shouldServe());
  EXPECT_TRUE(forwarder.cs().shouldAdmit());
  EXPECT_EQ(r->bodyParameters()->flags, std::optional<uint64_t>(CsFlagEnableAdmit));
  EXPECT_EQ(command(c, "cs", "config", ControlParameters{.flags = 1})->code, 400u);
}

TEST_F(ManagementTest, FacesDestroyRemovesFaceAndRoutes)
{
  Client admin = addFace();
  Client victim = addFace();
  ASSERT_EQ(command(victim, "rib", "register", ControlParameters{.name = Name("/v")})->code, 200u);
  auto r = command(admin, "faces", "destroy", ControlParameters{.faceId = victim.id});
  ASSERT_EQ(r->code, 200u);
  pump();
  EXPECT_EQ(forwarder.faceTable().get(victim.id), nullptr);
  EXPECT_EQ(management.rib().nRoutes(), 0u);
  // Destroying an unknown face is not an error (NFD).
  EXPECT_EQ(command(admin, "faces", "destroy", ControlParameters{.faceId = victim.id})->code, 200u);
}

TEST_F(ManagementTest, DatasetsDecodeBackToEntries)
{
  Client c = addFace();
  Client p = addFace(FaceScope::NonLocal);
  ASSERT_EQ(command(c, "rib", "register", ControlParameters{.name = Name("/r1"), .cost = 3})->code, 200u);
  ASSERT_EQ(command(c, "fib", "add-nexthop", ControlParameters{.name = Name("/f1"), .faceId = p.id, .cost = 9})->code,
            200u);

  auto faces = decodeList<FaceStatus>(fetchDataset(c, Name("/localhost/nfd/faces/list")));
  ASSERT_TRUE(faces);
  std::vector<uint64_t> ids;
  for (const FaceStatus& f : *faces)
    ids.push_back(f.faceId);
  EXPECT_EQ(ids, (std::vector<uint64_t>{face::InternalFaceId, c.id, p.id}));
  EXPECT_EQ(faces->at(1).faceScope, 1u);
  EXPECT_EQ(faces->at(2).faceScope, 0u);
  EXPECT_GT(faces->at(1).nInInterests, 0u);

  auto fib = decodeList<FibEntryStatus>(fetchDataset(c, Name("/localhost/nfd/fib/list")));
  ASSERT_TRUE(fib);
  std::map<Name, std::vector<FibEntryStatus::NextHop>> fibMap;
  for (const auto& e : *fib)
    fibMap[e.prefix] = e.nextHops;
  EXPECT_EQ(fibMap[Name("/f1")], (std::vector<FibEntryStatus::NextHop>{{p.id, 9}}));
  EXPECT_EQ(fibMap[Name("/r1")], (std::vector<FibEntryStatus::NextHop>{{c.id, 3}}));
  EXPECT_EQ(fibMap[Name("/localhost/nfd")], (std::vector<FibEntryStatus::NextHop>{{face::InternalFaceId, 0}}));

  auto rib = decodeList<RibEntryStatus>(fetchDataset(c, Name("/localhost/nfd/rib/list")));
  ASSERT_TRUE(rib);
  ASSERT_EQ(rib->size(), 1u);
  EXPECT_EQ(rib->at(0).prefix, Name("/r1"));
  EXPECT_EQ(rib->at(0).routes.at(0), (RibEntryStatus::Route{c.id, 0, 3, RouteFlagChildInherit, std::nullopt}));

  auto sc = decodeList<StrategyChoiceStatus>(fetchDataset(c, Name("/localhost/nfd/strategy-choice/list")));
  ASSERT_TRUE(sc);
  ASSERT_GE(sc->size(), 1u);
  EXPECT_EQ(sc->at(0).prefix, Name("/"));

  auto cs = CsInfo::decode(fetchDataset(c, Name("/localhost/nfd/cs/info")));
  ASSERT_TRUE(cs);
  EXPECT_EQ(cs->capacity, forwarder.cs().capacity());
  EXPECT_EQ(cs->flags, CsFlagEnableAdmit | CsFlagEnableServe);

  auto st = ForwarderStatus::decode(fetchDataset(c, Name("/localhost/nfd/status/general")));
  ASSERT_TRUE(st);
  EXPECT_EQ(st->nfdVersion, "ndnlab-0.1.0");
  EXPECT_EQ(st->currentTimestamp, env.clock().unixNow());
  EXPECT_EQ(st->nFibEntries, forwarder.fib().size());
  EXPECT_GT(st->nInInterests, 0u);
}

TEST_F(ManagementTest, FacesQueryReturnsMatchingFaces)
{
  Client c = addFace();
  auto addUdpFace = [&](std::string remote) {
    auto t = std::make_unique<DummyTransport>(FaceScope::NonLocal, face::LinkType::PointToPoint, face::MtuUnlimited,
                                              remote, "udp4://0.0.0.0:6363");
    return forwarder.addFace(
      std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env), std::move(t)));
  };
  face::FaceId a = addUdpFace("udp4://192.0.2.1:6363");
  face::FaceId b = addUdpFace("udp4://192.0.2.2:6363");
  auto query = [&](const FaceQueryFilter& filter) {
    Buffer wire;
    filter.encodeTo(wire);
    Name n("/localhost/nfd/faces/query");
    n.append(ndnlab::tlv::GenericNameComponent, wire);
    auto list = decodeList<FaceStatus>(fetchDataset(c, n));
    EXPECT_TRUE(list);
    std::vector<uint64_t> ids;
    for (const FaceStatus& f : list ? *list : std::vector<FaceStatus>{})
      ids.push_back(f.faceId);
    return ids;
  };
  using V = std::vector<uint64_t>;
  EXPECT_EQ(query({.remoteUri = "udp4://192.0.2.2:6363"}), V{b});
  EXPECT_EQ(query({.uriScheme = "udp4"}), (V{a, b}));
  EXPECT_EQ(query({.faceScope = 1}), (V{face::InternalFaceId, c.id}));
  EXPECT_EQ(query({.remoteUri = "udp4://192.0.2.3:6363"}), V{});
  EXPECT_EQ(query({}), (V{face::InternalFaceId, c.id, a, b}));
  // The entries are faces/list's own.
  auto one = decodeList<FaceStatus>(fetchDataset(c, [&] {
    Buffer wire;
    FaceQueryFilter{.faceId = a}.encodeTo(wire);
    return Name("/localhost/nfd/faces/query").append(ndnlab::tlv::GenericNameComponent, wire);
  }()));
  ASSERT_TRUE(one);
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ(one->at(0).localUri, "udp4://0.0.0.0:6363");
  EXPECT_EQ(one->at(0).mtu, std::optional<uint64_t>(8800));
}

TEST_F(ManagementTest, FacesQueryWithoutAValidFilterIs400)
{
  Client c = addFace();
  for (Name n : {Name("/localhost/nfd/faces/query"), Name("/localhost/nfd/faces/query/not-a-filter")}) {
    Received r = requestDataset(c, n);
    ASSERT_TRUE(r.data) << n;
    EXPECT_EQ(r.data->name(), n);
    EXPECT_EQ(r.data->contentType(), static_cast<uint64_t>(ContentType::Nack));
    auto resp = ControlResponse::decode(r.data->content());
    ASSERT_TRUE(resp);
    EXPECT_EQ(resp->code, 400u);
    EXPECT_EQ(resp->text, "Malformed filter");
  }
  EXPECT_EQ(management.dispatcher().counters().nDatasetErrors, 2u);
}

TEST_F(ManagementTest, LargeDatasetIsSegmented)
{
  Client c = addFace();
  // ~300 routes with long names make rib/list exceed several 8000-octet segments.
  for (int k = 0; k < 300; ++k) {
    Name n("/a-rather-long-prefix-component/another-long-component");
    n.append("route-number-" + std::to_string(k));
    management.rib().insert(n, Route{c.id, 0, static_cast<uint64_t>(k), RouteFlagChildInherit, std::nullopt},
                            std::nullopt);
  }
  Buffer content = fetchDataset(c, Name("/localhost/nfd/rib/list"));
  EXPECT_GT(content.size(), 3u * 8000u);
  auto rib = decodeList<RibEntryStatus>(content);
  ASSERT_TRUE(rib);
  ASSERT_EQ(rib->size(), 300u);
  std::set<uint64_t> costs;
  for (const auto& e : *rib)
    costs.insert(e.routes.at(0).cost);
  EXPECT_EQ(costs.size(), 300u);
}

class FakeFaceSystem final : public FaceSystem
{
public:
  void createFace(const ControlParameters& p, std::function<void(ControlResponse)> done) override
  {
    lastRequest = p;
    pending = std::move(done);
  }
  std::vector<ChannelStatus> channels() const override { return {{"udp4://0.0.0.0:6363"}, {"tcp4://0.0.0.0:6363"}}; }

  std::optional<ControlParameters> lastRequest;
  std::function<void(ControlResponse)> pending;
};

TEST(ManagementFaceSystem, CreateIsDelegatedAndChannelsListed)
{
  ManualEnv env;
  fw::Forwarder forwarder(env);
  FakeFaceSystem fs;
  Management management(env, forwarder, {}, &fs);
  auto t = std::make_unique<DummyTransport>(FaceScope::Local);
  DummyTransport* tr = t.get();
  forwarder.addFace(std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env), std::move(t)));

  security::DigestSigner digest;
  security::InterestSigner signer(digest, env.clock(), env.rng());
  Interest i(
    makeCommandName(Name("/localhost/nfd"), "faces", "create", ControlParameters{.uri = "tcp4://192.0.2.7:6363"}));
  signer.sign(i);
  tr->injectFrame(*i.wireEncode());
  env.advance(Duration::zero());
  ASSERT_TRUE(fs.lastRequest);
  EXPECT_EQ(fs.lastRequest->uri, std::optional<std::string>("tcp4://192.0.2.7:6363"));
  size_t before = tr->sent.size();
  ASSERT_TRUE(fs.pending);
  // The face system answers later (connection established).
  env.advance(std::chrono::milliseconds(20));
  fs.pending(ControlResponse(status::Ok, "OK", ControlParameters{.faceId = 300, .uri = "tcp4://192.0.2.7:6363"}));
  env.advance(Duration::zero());
  ASSERT_EQ(tr->sent.size(), before + 1);
  auto pkt = lp::decodeFrame(tr->sent.back().frame);
  auto d = Data::decode(*pkt->fragment);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->name(), i.name());
  EXPECT_EQ(ControlResponse::decode(d->content())->bodyParameters()->faceId, std::optional<uint64_t>(300));
}

TEST_F(ManagementTest, UpdateTurnsLinkReliabilityOnAndOff)
{
  // NFD's faces/update LpReliability flag (bit 1), reported in faces/list as NFD does
  Client c = addFace();
  Client p = addFace(FaceScope::NonLocal);
  face::Face* f = forwarder.faceTable().get(p.id);
  auto& ls = static_cast<face::GenericLinkService&>(f->linkService());
  EXPECT_FALSE(ls.isReliabilityActive());

  auto r = command(c, "faces", "update",
                   ControlParameters{.faceId = p.id, .flags = FaceFlagLpReliability, .mask = FaceFlagLpReliability});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, 200u) << r->text;
  EXPECT_TRUE(ls.options().reliability.enabled);
  EXPECT_TRUE(ls.isReliabilityActive());
  auto body = ControlParameters::decode(r->body);
  ASSERT_TRUE(body.ok());
  EXPECT_TRUE(*body->flags & FaceFlagLpReliability);
  auto faces = decodeList<FaceStatus>(fetchDataset(c, Name("/localhost/nfd/faces/list")));
  ASSERT_TRUE(faces);
  EXPECT_TRUE(faces->at(2).flags & FaceFlagLpReliability);
  EXPECT_FALSE(faces->at(1).flags & FaceFlagLpReliability);
  // the ndnlab extension carries its counters on that face only
  ASSERT_TRUE(faces->at(2).reliabilityCounters);
  EXPECT_EQ(faces->at(2).reliabilityCounters->nOutRetxFrames, 0u);
  EXPECT_FALSE(faces->at(1).reliabilityCounters);

  // frames toward the face now carry TxSequences, and the dataset counts them
  Interest i(Name("/x"));
  i.setNonce(7);
  f->sendInterest(i);
  auto frame = lp::decodeFrame(p.transport->sent.back().frame);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(frame->txSequence, 0u);
  const auto& lc = ls.counters();
  faces = decodeList<FaceStatus>(fetchDataset(c, Name("/localhost/nfd/faces/list")));
  ASSERT_TRUE(faces && faces->at(2).reliabilityCounters);
  EXPECT_EQ(*faces->at(2).reliabilityCounters,
            (LinkReliabilityCounters{lc.nOutRetxFrames, lc.nAcknowledged, lc.nRetransmitted, lc.nRetxExhausted,
                                     lc.nUnackedOverflow, lc.nDuplicateSequence, lc.nOutAcks, lc.nOutIdleAcks}));

  r = command(c, "faces", "update", ControlParameters{.faceId = p.id, .flags = 0, .mask = FaceFlagLpReliability});
  ASSERT_EQ(r->code, 200u);
  EXPECT_FALSE(ls.options().reliability.enabled);
  EXPECT_EQ(ls.reliability(), nullptr);
  EXPECT_FALSE(*ControlParameters::decode(r->body)->flags & FaceFlagLpReliability);
  faces = decodeList<FaceStatus>(fetchDataset(c, Name("/localhost/nfd/faces/list")));
  ASSERT_TRUE(faces);
  EXPECT_FALSE(faces->at(2).reliabilityCounters); // off: NFD's dataset again
}

TEST(LinkReliabilityCounters, FaceStatusRoundTrip)
{
  FaceStatus s;
  s.faceId = 261;
  s.remoteUri = "udp4://10.0.0.2:6363";
  s.localUri = "udp4://10.0.0.1:6363";
  s.flags = FaceFlagLpReliability;
  s.reliabilityCounters = LinkReliabilityCounters{1, 2, 3, 4, 5, 6, 7, 8};
  Buffer wire;
  s.encodeTo(wire);
  auto back = FaceStatus::decode(wire);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, s);
}

} // namespace
} // namespace ndnlab::mgmt
