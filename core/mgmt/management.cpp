#include "core/mgmt/management.hpp"

#include "core/face/generic-link-service.hpp"
#include "core/lp/interest-bundler.hpp"
#include "core/lp/packet.hpp"
#include "core/table/name-tree.hpp"

#include <algorithm>

namespace ndnlab::mgmt {

namespace {

constexpr std::string_view LogModule = "mgmt";

ControlResponse missing(std::string_view field)
{
  return ControlResponse(status::BadRequest, "ControlParameters is incorrect (missing " + std::string(field) + ")");
}

ControlResponse prefixTooLong()
{
  return ControlResponse(status::UriTooLong,
                         "Prefix has more than " + std::to_string(table::NameTree::MaxDepth) + " components");
}

/// 400 without Name, 414 when it is longer than the FIB/RIB depth; nullopt when acceptable.
std::optional<ControlResponse> checkPrefix(const ControlParameters& p)
{
  if (!p.name)
    return missing("Name");
  if (p.name->size() > table::NameTree::MaxDepth)
    return prefixTooLong();
  return std::nullopt;
}

/// FaceId 0 or absent means the requesting face (NFD self-registration).
uint64_t resolveFaceId(const ControlParameters& p, const RequestContext& ctx)
{
  uint64_t id = p.faceId.value_or(0);
  return id != 0 ? id : ctx.incomingFaceId;
}

} // namespace

// --- FIB adapter -------------------------------------------------------------------------------

void Management::FibAdapter::addNextHop(const Name& prefix, face::FaceId face, uint64_t cost)
{
  (void)m_fw.addNextHop(prefix, face, cost);
}

void Management::FibAdapter::removeNextHop(const Name& prefix, face::FaceId face)
{
  (void)m_fw.removeNextHop(prefix, face);
}

// --- wiring ------------------------------------------------------------------------------------

Management::Management(Env& env, fw::Forwarder& forwarder, ManagementOptions options, FaceSystem* faceSystem)
  : m_env(env),
    m_forwarder(forwarder),
    m_options(std::move(options)),
    m_faceSystem(faceSystem),
    m_fibAdapter(forwarder),
    m_rib(env, m_fibAdapter, m_options.rib),
    m_dispatcher(env, m_options.dispatcher)
{
  auto pair = face::InternalTransport::makePair(env, "internal://", "internal://management");
  face::LinkServiceOptions lso;
  lso.allowLocalFields = true; // commands carry IncomingFaceId to the manager
  auto ls = std::make_unique<face::GenericLinkService>(env, lso);
  ls->setFaceId(face::InternalFaceId);
  auto internal = std::make_unique<face::Face>(env, std::move(ls), std::move(pair.first));
  m_forwarder.addReservedFace(std::move(internal), face::InternalFaceId);

  m_transport = std::move(pair.second);
  m_transport->onReceive = [this](ByteSpan frame, face::EndpointId) { onFrame(frame); };
  m_dispatcher.sendData = [this](Data&& d) { sendData(std::move(d)); };

  if (m_forwarder.addNextHop(m_options.dispatcher.topPrefix, face::InternalFaceId, 0) != fw::FibStatus::Ok)
    throw std::runtime_error("management: cannot route " + m_options.dispatcher.topPrefix.toUri());

  m_cleanupConnection = m_forwarder.afterFaceCleanup.connect([this](face::Face& f) {
    size_t n = m_rib.removeFace(f.id());
    if (n > 0)
      NDNLAB_LOG(m_env, LogLevel::Info, LogModule, "face ", f.id(), " closed: removed ", n, " route(s)");
  });
  registerHandlers();
}

Management::~Management()
{
  m_forwarder.afterFaceCleanup.disconnect(m_cleanupConnection);
  m_dispatcher.sendData = nullptr;
  if (m_transport) {
    m_transport->onReceive = nullptr;
    m_transport->close();
  }
}

void Management::onFrame(ByteSpan frame)
{
  auto pkt = lp::decodeFrame(frame);
  if (!pkt || pkt->isIdle() || pkt->hasFragmentationFields()) {
    ++m_nInvalidFrames;
    return;
  }
  ByteSpan net = *pkt->fragment;
  if (net.empty() || net[0] != ndnlab::tlv::Interest)
    return; // management never sends Interests, so Data/Nack are unexpected: ignore
  auto interest = Interest::decode(net);
  if (!interest) {
    ++m_nInvalidFrames;
    NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, "undecodable Interest: ", reasonName(interest.error().code), " DROP");
    return;
  }
  interest->tags.incomingFaceId = pkt->incomingFaceId;
  interest->tags.pitToken = pkt->pitToken;
  m_dispatcher.onInterest(*interest);
}

void Management::sendData(Data&& data)
{
  if (!m_transport || m_transport->state() != face::TransportState::Up)
    return;
  SharedBuffer wire = data.wireEncode();
  lp::LpPacket pkt;
  pkt.pitToken = data.tags.pitToken;
  if (data.tags.noCache)
    pkt.cachePolicy = lp::CachePolicyType::NoCache;
  pkt.fragment = ByteSpan(*wire);
  m_transport->send(pkt.hasHeaderFields() ? lp::encode(pkt) : wire);
}

void Management::registerHandlers()
{
  auto bind = [this](auto method) {
    return [this, method](const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done) {
      (this->*method)(p, ctx, std::move(done));
    };
  };
  Dispatcher& d = m_dispatcher;
  d.addCommand("rib", "register", bind(&Management::ribRegister));
  d.addCommand("rib", "unregister", bind(&Management::ribUnregister));
  d.addCommand("fib", "add-nexthop", bind(&Management::fibAddNextHop));
  d.addCommand("fib", "remove-nexthop", bind(&Management::fibRemoveNextHop));
  d.addCommand("faces", "create", bind(&Management::facesCreate));
  d.addCommand("faces", "destroy", bind(&Management::facesDestroy));
  d.addCommand("faces", "update", bind(&Management::facesUpdate));
  d.addCommand("strategy-choice", "set", bind(&Management::strategySet));
  d.addCommand("strategy-choice", "unset", bind(&Management::strategyUnset));
  d.addCommand("cs", "config", bind(&Management::csConfig));
  d.addCommand("cs", "erase", bind(&Management::csErase));

  d.addDataset("status", "general", [this](const RequestContext&) { return statusGeneral(); });
  d.addDataset("faces", "list", [this](const RequestContext&) { return facesList(); });
  d.addDataset("faces", "query", [this](const RequestContext& ctx) { return facesQuery(ctx); });
  d.addDataset("faces", "channels", [this](const RequestContext&) { return facesChannels(); });
  d.addDataset("fib", "list", [this](const RequestContext&) { return fibList(); });
  d.addDataset("rib", "list", [this](const RequestContext&) { return ribList(); });
  d.addDataset("strategy-choice", "list", [this](const RequestContext&) { return strategyChoiceList(); });
  d.addDataset("cs", "info", [this](const RequestContext&) { return csInfo(); });
  d.addDataset("ndnlab", "drops", [this](const RequestContext&) { return ndnlabDrops(); });
}

// --- rib -----------------------------------------------------------------------------------

void Management::ribRegister(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done)
{
  if (auto error = checkPrefix(p))
    return done(*error);
  uint64_t faceId = resolveFaceId(p, ctx);
  if (m_forwarder.faceTable().get(faceId) == nullptr)
    return done(ControlResponse(status::Gone, "Face not found"));

  Route route;
  route.faceId = faceId;
  route.origin = p.origin.value_or(static_cast<uint64_t>(RouteOrigin::App));
  route.cost = p.cost.value_or(0);
  route.flags = p.flags.value_or(RouteFlagChildInherit);
  std::optional<Duration> expiration;
  if (p.expirationPeriod)
    expiration = *p.expirationPeriod;
  if (m_rib.insert(*p.name, route, expiration) == Rib::InsertResult::Full)
    return done(ControlResponse(status::ServiceUnavailable, "RIB is full"));

  ControlParameters body;
  body.name = p.name;
  body.faceId = faceId;
  body.origin = route.origin;
  body.cost = route.cost;
  body.flags = route.flags;
  body.expirationPeriod = p.expirationPeriod;
  NDNLAB_LOG(m_env, LogLevel::Info, LogModule, "rib/register ", *p.name, " face=", faceId, " origin=", route.origin,
             " cost=", route.cost, " flags=", route.flags);
  done(ControlResponse(status::Ok, "OK", body));
}

void Management::ribUnregister(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done)
{
  if (auto error = checkPrefix(p))
    return done(*error);
  uint64_t faceId = resolveFaceId(p, ctx);
  uint64_t origin = p.origin.value_or(static_cast<uint64_t>(RouteOrigin::App));
  m_rib.erase(*p.name, faceId, origin); // idempotent, as in NFD
  ControlParameters body;
  body.name = p.name;
  body.faceId = faceId;
  body.origin = origin;
  done(ControlResponse(status::Ok, "OK", body));
}

// --- fib -----------------------------------------------------------------------------------

void Management::fibAddNextHop(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done)
{
  if (auto error = checkPrefix(p))
    return done(*error);
  uint64_t faceId = resolveFaceId(p, ctx);
  uint64_t cost = p.cost.value_or(0);
  switch (m_forwarder.addNextHop(*p.name, faceId, cost)) {
    case fw::FibStatus::FaceNotFound: return done(ControlResponse(status::Gone, "Face not found"));
    case fw::FibStatus::PrefixTooLong: return done(prefixTooLong());
    default: break;
  }
  ControlParameters body;
  body.name = p.name;
  body.faceId = faceId;
  body.cost = cost;
  done(ControlResponse(status::Ok, "OK", body));
}

void Management::fibRemoveNextHop(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done)
{
  if (!p.name)
    return done(missing("Name"));
  uint64_t faceId = resolveFaceId(p, ctx);
  (void)m_forwarder.removeNextHop(*p.name, faceId); // idempotent, as in NFD
  ControlParameters body;
  body.name = p.name;
  body.faceId = faceId;
  done(ControlResponse(status::Ok, "OK", body));
}

// --- faces ---------------------------------------------------------------------------------

namespace {

/// MirccCapacity (and MirccRate) of a face with MIRCC enabled; nothing otherwise.
template<typename P>
void addMirccParameters(const fw::Forwarder& fw, const face::Face& f, P& p)
{
  if (!f.linkService().options().mircc)
    return;
  if (const fw::MirccRateController* c = fw.mircc().controller(f.id())) {
    p.mirccCapacity = static_cast<uint64_t>(c->capacity().bps());
    if constexpr (requires { p.mirccRate; })
      p.mirccRate = static_cast<uint64_t>(c->rate().bps());
  }
}

/// 400 when a MirccCapacity is given that MIRCC cannot use (below its minimum rate).
std::optional<ControlResponse> checkMirccCapacity(const fw::Forwarder& fw, const ControlParameters& p)
{
  const fw::MirccOptions& m = fw.options().mircc;
  if (p.mirccCapacity && *p.mirccCapacity > 0 && static_cast<double>(*p.mirccCapacity) * m.eta < m.minRate.bps())
    return ControlResponse(status::BadRequest, "MirccCapacity must be at least the MIRCC minimum rate (" +
                                                 std::to_string(static_cast<uint64_t>(m.minRate.bps())) + " bit/s)");
  return std::nullopt;
}

/// MIRCC on face `f` with capacity `capacity` (its link's rate), or off with 0.
void applyMirccCapacity(fw::Forwarder& fw, face::Face& f, uint64_t capacity)
{
  f.linkService().setMircc(capacity > 0);
  if (capacity > 0)
    fw.mircc().enable(f.id(), Rate::bitsPerSecond(static_cast<double>(capacity)));
  else
    fw.mircc().disable(f.id());
}

} // namespace

void Management::facesCreate(const ControlParameters& p, const RequestContext&, Dispatcher::CommandDone done)
{
  if (!p.uri)
    return done(missing("Uri"));
  if (m_faceSystem == nullptr)
    return done(ControlResponse(status::NotImplemented, "faces/create is not available"));
  if (auto error = checkMirccCapacity(m_forwarder, p))
    return done(*error);
  if (!p.mirccCapacity)
    return m_faceSystem->createFace(p, std::move(done));
  // the new (or existing) face gets MIRCC as faces/update would give it
  m_faceSystem->createFace(p, [this, capacity = *p.mirccCapacity, done = std::move(done)](ControlResponse r) {
    auto body = ControlParameters::decode(r.body);
    face::Face* f = (r.code == status::Ok || r.code == status::Conflict) && body.ok() && body->faceId
                      ? m_forwarder.faceTable().get(*body->faceId)
                      : nullptr;
    if (f != nullptr) {
      applyMirccCapacity(m_forwarder, *f, capacity);
      addMirccParameters(m_forwarder, *f, *body);
      r.body = body->wireEncode();
    }
    done(std::move(r));
  });
}

void Management::facesDestroy(const ControlParameters& p, const RequestContext&, Dispatcher::CommandDone done)
{
  if (!p.faceId)
    return done(missing("FaceId"));
  if (*p.faceId < face::FirstRegularFaceId)
    return done(ControlResponse(status::BadRequest, "Cannot destroy a reserved face"));
  if (face::Face* f = m_forwarder.faceTable().get(*p.faceId)) {
    NDNLAB_LOG(m_env, LogLevel::Info, LogModule, "faces/destroy ", *p.faceId);
    f->close(); // removed from the FaceTable (and its routes from the RIB) once closed
  }
  ControlParameters body;
  body.faceId = p.faceId;
  done(ControlResponse(status::Ok, "OK", body)); // idempotent, as in NFD
}

void addBundlingParameters(const face::Face& f, ControlParameters& p)
{
  const face::LinkServiceOptions& lo = f.linkService().options();
  p.flags = p.flags.value_or(0) | (lo.bundling ? FaceFlagBundling : 0);
  p.medium = static_cast<uint64_t>(f.transport().medium());
  p.bundleInterval = lo.bundler.bundleInterval;
}

void Management::facesUpdate(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done)
{
  face::Face* f = m_forwarder.faceTable().get(resolveFaceId(p, ctx));
  if (f == nullptr)
    return done(ControlResponse(status::NotFound, "Face not found"));
  if (p.flags.has_value() != p.mask.has_value())
    return done(ControlResponse(status::BadRequest, "Flags and Mask must be given together"));
  if (p.facePersistency || p.baseCongestionMarkingInterval || p.defaultCongestionThreshold || p.mtu ||
      (p.mask && (*p.mask & ~(FaceFlagBundling | FaceFlagLpReliability)) != 0))
    return done(ControlResponse(status::NotAcceptable, "ndnlabd faces/update changes only the LpReliability and "
                                                       "Bundling flags, Medium, BundleInterval and MirccCapacity"));
  if (p.medium && *p.medium > static_cast<uint64_t>(face::Medium::Wireless))
    return done(ControlResponse(status::BadRequest, "Medium must be 0 (wired) or 1 (wireless)"));
  if (p.bundleInterval && *p.bundleInterval > lp::MaxBundleSpan)
    return done(
      ControlResponse(status::BadRequest, "BundleInterval must be at most " + std::to_string(lp::MaxBundleSpan)));
  if (auto error = checkMirccCapacity(m_forwarder, p))
    return done(*error);

  face::LinkService& ls = f->linkService();
  bool bundling = ls.options().bundling;
  if (p.mask && (*p.mask & FaceFlagBundling))
    bundling = (*p.flags & FaceFlagBundling) != 0;
  uint32_t interval = p.bundleInterval ? static_cast<uint32_t>(*p.bundleInterval) : ls.options().bundler.bundleInterval;
  ls.setBundling(bundling, interval);
  if (p.mask && (*p.mask & FaceFlagLpReliability))
    ls.setReliability((*p.flags & FaceFlagLpReliability) != 0);
  if (p.medium)
    f->transport().setMedium(static_cast<face::Medium>(*p.medium));
  if (p.mirccCapacity)
    applyMirccCapacity(m_forwarder, *f, *p.mirccCapacity);
  NDNLAB_LOG(m_env, LogLevel::Info, LogModule, "faces/update ", f->id(),
             " medium=", face::toString(f->transport().medium()), " bundling=", bundling, " bi=", interval,
             " mircc=", ls.options().mircc, " lp-reliability=", ls.options().reliability.enabled);

  ControlParameters body;
  body.faceId = f->id();
  body.flags = (ls.options().allowLocalFields ? FaceFlagLocalFields : 0) |
               (ls.options().reliability.enabled ? FaceFlagLpReliability : 0) |
               (ls.options().allowCongestionMarking ? FaceFlagCongestionMarking : 0);
  addBundlingParameters(*f, body);
  addMirccParameters(m_forwarder, *f, body);
  done(ControlResponse(status::Ok, "OK", body));
}

// --- strategy-choice -----------------------------------------------------------------------

void Management::strategySet(const ControlParameters& p, const RequestContext&, Dispatcher::CommandDone done)
{
  if (auto error = checkPrefix(p))
    return done(*error);
  if (!p.strategy)
    return done(missing("Strategy"));
  auto r = m_forwarder.setStrategy(*p.name, *p.strategy);
  if (!r)
    return done(ControlResponse(status::NotFound, r.error.empty() ? "Strategy not registered" : r.error));
  ControlParameters body;
  body.name = p.name;
  body.strategy = m_forwarder.strategyChoice().get(*p.name).value_or(*p.strategy);
  done(ControlResponse(status::Ok, "OK", body));
}

void Management::strategyUnset(const ControlParameters& p, const RequestContext&, Dispatcher::CommandDone done)
{
  if (!p.name)
    return done(missing("Name"));
  if (p.name->empty())
    return done(ControlResponse(status::BadRequest, "Cannot unset the root prefix"));
  (void)m_forwarder.unsetStrategy(*p.name); // idempotent, as in NFD
  ControlParameters body;
  body.name = p.name;
  done(ControlResponse(status::Ok, "OK", body));
}

// --- cs ------------------------------------------------------------------------------------

void Management::csConfig(const ControlParameters& p, const RequestContext&, Dispatcher::CommandDone done)
{
  if (p.flags.has_value() != p.mask.has_value())
    return done(ControlResponse(status::BadRequest, "Flags and Mask must be given together"));
  table::Cs& cs = m_forwarder.cs();
  if (p.capacity)
    cs.setCapacity(static_cast<size_t>(std::min<uint64_t>(*p.capacity, SIZE_MAX)));
  if (p.mask) {
    if (*p.mask & CsFlagEnableAdmit)
      cs.enableAdmit(*p.flags & CsFlagEnableAdmit);
    if (*p.mask & CsFlagEnableServe)
      cs.enableServe(*p.flags & CsFlagEnableServe);
  }
  ControlParameters body;
  body.capacity = cs.capacity();
  body.flags = (cs.shouldAdmit() ? CsFlagEnableAdmit : 0) | (cs.shouldServe() ? CsFlagEnableServe : 0);
  done(ControlResponse(status::Ok, "OK", body));
}

void Management::csErase(const ControlParameters& p, const RequestContext&, Dispatcher::CommandDone done)
{
  if (!p.name)
    return done(missing("Name"));
  size_t limit = p.count ? static_cast<size_t>(std::min<uint64_t>(*p.count, SIZE_MAX)) : static_cast<size_t>(-1);
  size_t erased = m_forwarder.cs().erase(*p.name, limit);
  ControlParameters body;
  body.name = p.name;
  if (p.count && erased == limit)
    body.capacity = *p.count; // NFD: limit reached, more may remain
  body.count = erased;
  done(ControlResponse(status::Ok, "OK", body));
}

// --- datasets ------------------------------------------------------------------------------

Buffer Management::statusGeneral() const
{
  const auto& c = m_forwarder.counters();
  ForwarderStatus s;
  s.nfdVersion = m_options.version;
  s.startTimestamp = m_forwarder.startTimestamp();
  s.currentTimestamp = m_env.clock().unixNow();
  s.nNameTreeEntries = m_forwarder.nameTree().size();
  s.nFibEntries = m_forwarder.fib().size();
  s.nPitEntries = m_forwarder.pit().size();
  s.nMeasurementsEntries = 0;
  s.nCsEntries = m_forwarder.cs().size();
  s.nInInterests = c.nInInterests;
  s.nInData = c.nInData;
  s.nInNacks = c.nInNacks;
  s.nOutInterests = c.nOutInterests;
  s.nOutData = c.nOutData;
  s.nOutNacks = c.nOutNacks;
  s.nSatisfiedInterests = c.nSatisfiedInterests;
  s.nUnsatisfiedInterests = c.nUnsatisfiedInterests;
  Buffer out;
  s.encodeTo(out);
  return out;
}

FaceStatus Management::faceStatus(const face::Face& f) const
{
  FaceStatus s;
  s.faceId = f.id();
  s.remoteUri = f.remoteUri();
  s.localUri = f.localUri();
  if (m_faceSystem)
    s.expirationPeriod = m_faceSystem->expirationPeriod(f);
  s.faceScope = static_cast<uint64_t>(f.scope());
  s.facePersistency = static_cast<uint64_t>(f.persistency());
  s.linkType = static_cast<uint64_t>(f.linkType());
  const face::LinkServiceOptions& lo = f.linkService().options();
  if (lo.allowCongestionMarking) {
    s.baseCongestionMarkingInterval = lo.baseCongestionMarkingInterval;
    s.defaultCongestionThreshold = lo.defaultCongestionThreshold;
  }
  // NFD reports unlimited MTUs as the maximum NDN packet size.
  ssize_t mtu = f.transport().mtu();
  uint64_t effective = mtu < 0 ? uint64_t{MaxNdnPacketSize} : static_cast<uint64_t>(mtu);
  if (lo.overrideMtu != 0)
    effective = std::min<uint64_t>(effective, lo.overrideMtu);
  s.mtu = effective;
  const auto& fc = f.counters();
  s.nInInterests = fc.nInInterests;
  s.nInData = fc.nInData;
  s.nInNacks = fc.nInNacks;
  s.nOutInterests = fc.nOutInterests;
  s.nOutData = fc.nOutData;
  s.nOutNacks = fc.nOutNacks;
  s.nInBytes = f.transport().counters().nInBytes;
  s.nOutBytes = f.transport().counters().nOutBytes;
  s.flags = (lo.allowLocalFields ? FaceFlagLocalFields : 0) | (lo.reliability.enabled ? FaceFlagLpReliability : 0) |
            (lo.allowCongestionMarking ? FaceFlagCongestionMarking : 0) | (lo.bundling ? FaceFlagBundling : 0);
  // ndnlab extension elements only where BLEnD is in play (NFD's dataset otherwise)
  const face::LinkService::Counters& lc = f.linkService().counters();
  if (f.transport().medium() == face::Medium::Wireless || lo.bundling || lc.nInBundles > 0) {
    s.medium = static_cast<uint64_t>(f.transport().medium());
    s.bundleInterval = lo.bundler.bundleInterval;
    s.bundleCounters = BundleCounters{
      lc.nOutBundles,           lc.nOutInterestsAbsorbed, lc.nInBundles,        lc.nInInterestsRegenerated,
      lc.nInInterestsGapFilled, lc.nInBundlesStale,       lc.nInBundlesInvalid, lc.nInDataEarly,
      lc.nInDataEarlyExpired,   lc.nOutBundleRecoveries};
  }
  if (lo.reliability.enabled)
    s.reliabilityCounters =
      LinkReliabilityCounters{lc.nOutRetxFrames,   lc.nAcknowledged,      lc.nRetransmitted, lc.nRetxExhausted,
                              lc.nUnackedOverflow, lc.nDuplicateSequence, lc.nOutAcks,       lc.nOutIdleAcks};
  addMirccParameters(m_forwarder, f, s);
  return s;
}

Buffer Management::facesList() const
{
  Buffer out;
  for (const face::Face& f : m_forwarder.faceTable())
    faceStatus(f).encodeTo(out);
  return out;
}

Result<Buffer, ControlResponse> Management::facesQuery(const RequestContext& ctx) const
{
  const Name& name = ctx.interest.name();
  const size_t at = m_dispatcher.options().topPrefix.size() + 2; // after <module>/<verb>
  if (name.size() <= at)
    return fail(ControlResponse(status::BadRequest, "Malformed filter"));
  auto filter = FaceQueryFilter::decode(name[at].value());
  if (!filter)
    return fail(ControlResponse(status::BadRequest, "Malformed filter"));
  Buffer out;
  for (const face::Face& f : m_forwarder.faceTable()) {
    FaceStatus s = faceStatus(f);
    if (filter->matches(s))
      s.encodeTo(out);
  }
  return out;
}

Buffer Management::facesChannels() const
{
  Buffer out;
  if (m_faceSystem) {
    for (const ChannelStatus& c : m_faceSystem->channels())
      c.encodeTo(out);
  }
  return out;
}

Buffer Management::fibList() const
{
  auto entries = m_forwarder.fib().entries();
  std::sort(entries.begin(), entries.end(),
            [](const table::FibEntry* a, const table::FibEntry* b) { return a->prefix() < b->prefix(); });
  Buffer out;
  for (const table::FibEntry* e : entries) {
    FibEntryStatus s;
    s.prefix = e->prefix();
    for (const table::NextHop& nh : e->nextHops())
      s.nextHops.push_back({nh.face->id(), nh.cost});
    s.encodeTo(out);
  }
  return out;
}

Buffer Management::ribList() const
{
  Buffer out;
  for (const RibEntryStatus& e : m_rib.list())
    e.encodeTo(out);
  return out;
}

Buffer Management::strategyChoiceList() const
{
  Buffer out;
  for (const table::StrategyChoiceEntry* e : m_forwarder.strategyChoice().entries())
    StrategyChoiceStatus{e->prefix(), e->strategyName()}.encodeTo(out);
  return out;
}

Buffer Management::csInfo() const
{
  const table::Cs& cs = m_forwarder.cs();
  CsInfo info;
  info.capacity = cs.capacity();
  info.flags = (cs.shouldAdmit() ? CsFlagEnableAdmit : 0) | (cs.shouldServe() ? CsFlagEnableServe : 0);
  info.nEntries = cs.size();
  info.nHits = cs.counters().nHits;
  info.nMisses = cs.counters().nMisses;
  Buffer out;
  info.encodeTo(out);
  return out;
}

Buffer Management::ndnlabDrops() const
{
  Buffer out;
  if (m_dropCounters) {
    for (const DropCounterStatus& c : m_dropCounters())
      c.encodeTo(out);
  }
  return out;
}

} // namespace ndnlab::mgmt
