#include "daemon/face-system.hpp"

#include "core/face/generic-link-service.hpp"
#include "core/face/impaired-transport.hpp"
#include "core/lp/interest-bundler.hpp"
#include "core/mgmt/tlv-nfd.hpp"
#include "io/face-uri.hpp"

#include <algorithm>

namespace ndnlab::daemon {

using face::FacePersistency;
using io::TransportKind;

FaceSystem::FaceSystem(Env& env, asio::io_context& io, fw::Forwarder& forwarder, FaceSystemOptions options)
  : m_env(env), m_io(io), m_forwarder(forwarder), m_faces(forwarder.faceTable()), m_options(std::move(options))
{
  m_options.tcp.stream = m_options.stream;
  m_options.unixSocket.stream = m_options.stream;
  m_options.websocket.maxMessageSize = m_options.stream.maxFrameSize;
  m_options.websocket.maxSendQueueBytes = m_options.stream.maxSendQueueBytes;
  m_options.etherMulticast.socketBufferSize = m_options.ether.socketBufferSize;
}

FaceSystem::~FaceSystem()
{
  m_guard.reset();
}

void FaceSystem::start()
{
  auto onCreated = [this](std::unique_ptr<io::SocketTransport> t) { addFace(std::move(t)); };
  if (m_options.unixEnabled && !m_options.unixSocket.path.empty()) {
    m_unix = std::make_unique<io::UnixStreamChannel>(m_env, m_io, m_options.unixSocket);
    m_unix->listen(onCreated);
  }
  if (m_options.tcpEnabled && m_options.tcp.port != 0) {
    m_tcp = std::make_unique<io::TcpChannel>(m_env, m_io, m_options.tcp);
    m_tcp->listen(onCreated);
  }
  if (m_options.udpEnabled && m_options.udp.port != 0) {
    m_udp = std::make_unique<io::UdpChannel>(m_env, m_io, m_options.udp);
    m_udp->listen(onCreated);
  }
  if (m_options.websocketEnabled && m_options.websocket.port != 0) {
    m_websocket = std::make_unique<io::WebSocketChannel>(m_env, m_io, m_options.websocket);
    m_websocket->listen(onCreated);
  }
  if (m_options.multicastEnabled) {
    auto t = std::make_unique<io::UdpMulticastTransport>(m_env, m_io, m_options.multicast);
    m_multicastFace = addFace(std::move(t));
  }
  if (m_options.etherEnabled)
    startEther(onCreated);
}

void FaceSystem::startEther(const io::TransportCallback& onCreated)
{
  auto listed = [](const std::vector<std::string>& patterns, const io::NetworkInterface& i) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const auto& p) { return io::interfaceMatches(p, i); });
  };
  size_t selected = 0;
  for (const io::NetworkInterface& iface : io::listNetworkInterfaces()) {
    if (!listed(m_options.etherWhitelist, iface) || listed(m_options.etherBlacklist, iface))
      continue;
    if (!iface.canCarryEthernetFaces()) {
      NDNLAB_LOG(m_env, LogLevel::Debug, "FaceSystem", "ether: skipping ", io::devUri(iface.name),
                 iface.loopback ? " (loopback)" : " (not an Ethernet interface)");
      continue;
    }
    ++selected;
    // Each interface on its own: one that cannot be opened (no CAP_NET_RAW, gone meanwhile)
    // is an error in the log, and the daemon runs every other face.
    try {
      auto channel = std::make_unique<io::EthernetChannel>(m_env, m_io, iface, m_options.ether);
      channel->listen(onCreated);
      m_ether[iface.name] = std::move(channel);
    }
    catch (const std::runtime_error& e) {
      NDNLAB_LOG(m_env, LogLevel::Error, "FaceSystem", e.what());
      continue;
    }
    if (!m_options.etherMulticastEnabled)
      continue;
    if (!iface.multicast) {
      NDNLAB_LOG(m_env, LogLevel::Info, "FaceSystem", "ether: ", io::devUri(iface.name),
                 " cannot multicast: no multicast face");
      continue;
    }
    try {
      addFace(std::make_unique<io::EthernetMulticastTransport>(m_env, m_io, iface, m_options.etherMulticast));
    }
    catch (const std::runtime_error& e) {
      NDNLAB_LOG(m_env, LogLevel::Error, "FaceSystem", e.what());
    }
  }
  if (selected == 0)
    NDNLAB_LOG(m_env, LogLevel::Warn, "FaceSystem",
               "face_system.ether is enabled but no Ethernet interface matches its whitelist and blacklist");
}

void FaceSystem::stop()
{
  if (m_unix)
    m_unix->close();
  if (m_tcp)
    m_tcp->close();
  if (m_websocket)
    m_websocket->close();
  std::vector<face::Face*> toClose;
  for (auto& f : m_faces) {
    if (dynamic_cast<const io::SocketTransport*>(&face::ImpairedTransport::unwrap(f.transport())))
      toClose.push_back(&f);
  }
  for (auto* f : toClose)
    f->close();
  if (m_udp)
    m_udp->close();
  for (auto& [name, channel] : m_ether)
    channel->close();
}

face::LinkServiceOptions FaceSystem::linkServiceOptions(const io::SocketTransport& t, const FaceParams* params) const
{
  face::LinkServiceOptions o = m_options.link;
  o.allowReassembly = true;
  o.allowLocalFields = t.scope() == face::FaceScope::Local && m_options.localFieldsOnLocalFaces;
  o.reliability.enabled = m_options.link.reliability.enabled &&
                          (t.kind() == TransportKind::UdpUnicast || t.kind() == TransportKind::EtherUnicast);
  switch (t.kind()) {
    case TransportKind::UnixStream:
    case TransportKind::Tcp:
    case TransportKind::WebSocket: o.allowFragmentation = false; break;
    case TransportKind::UdpUnicast:
      o.allowFragmentation = true;
      o.overrideMtu = m_options.udpMtu;
      break;
    case TransportKind::UdpMulticast:
      o.allowFragmentation = true;
      o.overrideMtu = m_options.multicastMtu;
      break;
    case TransportKind::EtherUnicast:
    case TransportKind::EtherMulticast: o.allowFragmentation = true; break; // at the interface's MTU
  }
  if (params != nullptr) {
    if (params->mtu)
      o.overrideMtu = *params->mtu;
    if (params->localFields)
      o.allowLocalFields = *params->localFields && t.scope() == face::FaceScope::Local;
    if (params->lpReliability)
      o.reliability.enabled = *params->lpReliability;
    if (params->congestionMarking)
      o.allowCongestionMarking = *params->congestionMarking;
    if (params->congestionMarkingInterval)
      o.baseCongestionMarkingInterval = *params->congestionMarkingInterval;
    if (params->congestionThreshold)
      o.defaultCongestionThreshold = *params->congestionThreshold;
    if (params->bundling)
      o.bundling = *params->bundling;
    if (params->bundleInterval)
      o.bundler.bundleInterval = *params->bundleInterval;
  }
  return o;
}

face::Medium FaceSystem::medium(const io::SocketTransport& t, const FaceParams* params) const
{
  if (params != nullptr && params->medium)
    return *params->medium;
  switch (t.kind()) {
    case TransportKind::UdpUnicast: return m_options.udpMedium;
    case TransportKind::UdpMulticast: return m_options.multicastMedium;
    case TransportKind::UnixStream:
    case TransportKind::Tcp:
    case TransportKind::WebSocket:
    case TransportKind::EtherUnicast:
    case TransportKind::EtherMulticast: break;
  }
  return face::Medium::Wired;
}

face::FaceId FaceSystem::addFace(std::unique_ptr<io::SocketTransport> transport, const FaceParams* params)
{
  io::SocketTransport* raw = transport.get();
  raw->setMedium(medium(*raw, params)); // before the impairment wrapper copies it
  auto ls = std::make_unique<face::GenericLinkService>(m_env, linkServiceOptions(*raw, params));
  face::GenericLinkService* lsRaw = ls.get();
  std::unique_ptr<face::Transport> t = std::move(transport);
  face::ImpairedTransport* impaired = nullptr;
  if (raw->kind() == TransportKind::UdpUnicast && m_options.udpImpair.enabled()) {
    auto wrapped = std::make_unique<face::ImpairedTransport>(m_env, std::move(t), m_options.udpImpair);
    impaired = wrapped.get();
    t = std::move(wrapped);
  }
  auto f = std::make_unique<face::Face>(m_env, std::move(ls), std::move(t));
  face::FaceId id = m_forwarder.addFace(std::move(f));
  lsRaw->setFaceId(id);
  raw->setTraceFaceId(id);
  if (impaired != nullptr)
    impaired->setTraceFaceId(id);
  NDNLAB_LOG(m_env, LogLevel::Info, "FaceSystem", "face ", id, " ", raw->remoteUri(), " local=", raw->localUri(), " ",
             face::toString(raw->scope()), " ", face::toString(raw->persistency()), " ", face::toString(raw->medium()),
             lsRaw->isBundlingActive() ? " bundling" : "", lsRaw->isReliabilityActive() ? " lp-reliability" : "");
  return id;
}

face::Face* FaceSystem::findByRemoteUri(const std::string& uri) const
{
  for (auto& f : m_faces) {
    if (f.remoteUri() == uri && f.state() != face::TransportState::Closed &&
        f.state() != face::TransportState::Failed && f.state() != face::TransportState::Closing)
      return &f;
  }
  return nullptr;
}

face::Face* FaceSystem::findByTransport(const face::Transport* t) const
{
  for (auto& f : m_faces) {
    if (&face::ImpairedTransport::unwrap(f.transport()) == t)
      return &f;
  }
  return nullptr;
}

void FaceSystem::createFace(const std::string& remoteUri, const std::optional<std::string>& localUri,
                            const FaceParams& params, CreateCallback done)
{
  if (remoteUri.starts_with("ether://"))
    return createEtherFace(remoteUri, localUri, params, done);
  // Schemes of faces that exist but that faces/create cannot make (NFD: 406 as well).
  for (std::string_view scheme : {"unix://", "dev://", "ws://", "wss://", "wsclient://"}) {
    if (remoteUri.starts_with(scheme))
      return done({406, "Unsupported protocol"});
  }
  auto uri = io::parseFaceUri(remoteUri);
  if (!uri)
    return done({400, "Malformed URI: " + uri.error()});
  std::error_code ec;
  auto addr = asio::ip::make_address(uri->host, ec);
  if (ec || uri->port == 0)
    return done({400, "Non-canonical URI (numeric address and port required): " + remoteUri});
  if ((uri->scheme == "udp4" || uri->scheme == "tcp4") && !addr.is_v4())
    return done({400, "Non-canonical URI: " + remoteUri});
  if ((uri->scheme == "udp6" || uri->scheme == "tcp6") && !addr.is_v6())
    return done({400, "Non-canonical URI: " + remoteUri});
  if (localUri)
    return done({406, "Unsupported LocalUri"});
  if (params.persistency == FacePersistency::OnDemand)
    return done({406, "Outgoing faces do not support on-demand persistency"});
  if (params.mtu && *params.mtu < 64)
    return done({406, "MTU must be at least 64"});
  if (params.localFields.value_or(false) && (uri->isUdp() || !io::isLoopback(addr)))
    return done({406, "Local fields can only be enabled on faces with local scope"});

  if (uri->isUdp()) {
    if (!m_udp || !m_udp->isListening())
      return done({406, "No UDP channel available to connect"});
    auto local = m_udp->localEndpoint().address();
    if (addr.is_v6() && local.is_v4())
      return done({406, "No UDP channel for IPv6 (set face_system.udp.listen_address = \"::\")"});
    if (addr.is_v4() && local.is_v6() && !local.is_unspecified())
      return done({406, "No UDP channel for IPv4"});
    if (addr.is_v4() && local.is_v6())
      addr = asio::ip::make_address_v6(asio::ip::v4_mapped, addr.to_v4());
    asio::ip::udp::endpoint ep(addr, uri->port);
    if (auto* existing = m_udp->find(ep)) {
      m_udp->connect(ep, params.persistency); // upgrades persistency
      auto* f = findByTransport(existing);
      if (auto* impaired = f ? dynamic_cast<face::ImpairedTransport*>(&f->transport()) : nullptr)
        impaired->syncFromInner(); // the face reports the upgraded persistency
      return done({409, "Face with remote URI already exists", f ? f->id() : 0});
    }
    auto result = m_udp->connect(ep, params.persistency);
    face::FaceId id = addFace(std::move(result.created), &params);
    return done({200, "OK", id});
  }

  // TCP
  if (params.mtu)
    return done({406, "MTU cannot be set on TCP faces (unlimited)"});
  std::string canonical = io::tcpUri(asio::ip::tcp::endpoint(addr, uri->port));
  if (auto* f = findByRemoteUri(canonical))
    return done({409, "Face with remote URI already exists", f->id()});
  if (!m_tcp) {
    // Outgoing TCP works without a listener: use a dialing-only channel.
    io::TcpChannelOptions o = m_options.tcp;
    m_tcp = std::make_unique<io::TcpChannel>(m_env, m_io, o);
  }
  FaceParams p = params;
  m_tcp->connect(
    asio::ip::tcp::endpoint(addr, uri->port), params.persistency,
    [this, p, done, g = std::weak_ptr<char>(m_guard)](std::unique_ptr<io::SocketTransport> t, std::string error) {
      if (g.expired())
        return;
      if (!t)
        return done({504, "Connection failed: " + error});
      face::FaceId id = addFace(std::move(t), &p);
      done({200, "OK", id});
    });
}

void FaceSystem::createEtherFace(const std::string& remoteUri, const std::optional<std::string>& localUri,
                                 const FaceParams& params, const CreateCallback& done)
{
  // NFD's EthernetFactory: a unicast MAC as Uri, the interface as LocalUri dev://IFNAME.
  auto uri = io::parseFaceUri(remoteUri);
  if (!uri)
    return done({400, "Malformed URI: " + uri.error()});
  auto remote = io::MacAddress::parse(uri->host);
  if (!remote || remote->isMulticast() || remote->isNull())
    return done({406, "Cannot create a unicast Ethernet face to a multicast or null address " + uri->toString()});
  if (!localUri)
    return done({406, "Creating a unicast Ethernet face requires a LocalUri dev://IFNAME"});
  auto local = io::parseFaceUri(*localUri);
  if (!local || !local->isDev())
    return done({406, "LocalUri of an Ethernet face must be dev://IFNAME, got '" + *localUri + "'"});
  if (params.persistency == FacePersistency::OnDemand)
    return done({406, "Outgoing faces do not support on-demand persistency"});
  if (params.mtu && *params.mtu < 64)
    return done({406, "MTU must be at least 64"});
  if (params.localFields.value_or(false))
    return done({406, "Local fields can only be enabled on faces with local scope"});
  auto it = m_ether.find(local->host);
  if (it == m_ether.end() || !it->second->isListening()) {
    std::string why = !m_options.etherEnabled ? " (face_system.ether is disabled)"
                      : !io::findNetworkInterface(local->host)
                        ? " (no such interface)"
                        : " (interface not selected, or its socket failed: see the log)";
    return done({406, "No Ethernet channel on " + local->toString() + why});
  }
  io::EthernetChannel& channel = *it->second;
  if (auto* existing = channel.find(*remote)) {
    channel.connect(*remote, params.persistency); // upgrades persistency
    auto* f = findByTransport(existing);
    return done({409, "Face with remote URI already exists", f ? f->id() : 0});
  }
  auto result = channel.connect(*remote, params.persistency);
  done({200, "OK", addFace(std::move(result.created), &params)});
}

mgmt::ControlParameters FaceSystem::faceParameters(const face::Face& f) const
{
  mgmt::ControlParameters p;
  p.faceId = f.id();
  p.uri = f.remoteUri();
  p.localUri = f.localUri();
  p.facePersistency = static_cast<uint64_t>(f.persistency());
  const auto& lo = f.linkService().options();
  p.flags = (lo.allowLocalFields ? mgmt::FaceFlagLocalFields : 0) |
            (lo.reliability.enabled ? mgmt::FaceFlagLpReliability : 0) |
            (lo.allowCongestionMarking ? mgmt::FaceFlagCongestionMarking : 0);
  if (lo.allowCongestionMarking) {
    p.baseCongestionMarkingInterval = lo.baseCongestionMarkingInterval;
    p.defaultCongestionThreshold = lo.defaultCongestionThreshold;
  }
  ssize_t mtu = f.transport().mtu();
  if (mtu >= 0) {
    uint64_t effective = static_cast<uint64_t>(mtu);
    if (lo.overrideMtu != 0)
      effective = std::min<uint64_t>(effective, lo.overrideMtu);
    p.mtu = effective;
  }
  if (f.transport().medium() == face::Medium::Wireless || lo.bundling)
    mgmt::addBundlingParameters(f, p);
  return p;
}

void FaceSystem::createFace(const mgmt::ControlParameters& cp, std::function<void(mgmt::ControlResponse)> done)
{
  if (!cp.uri)
    return done(mgmt::ControlResponse(mgmt::status::BadRequest, "Missing Uri"));
  FaceParams params;
  if (cp.facePersistency) {
    if (*cp.facePersistency > 2)
      return done(mgmt::ControlResponse(mgmt::status::BadRequest, "Invalid FacePersistency"));
    params.persistency = static_cast<FacePersistency>(*cp.facePersistency);
  }
  if (cp.flags.has_value() != cp.mask.has_value())
    return done(mgmt::ControlResponse(mgmt::status::BadRequest, "Flags and Mask must be given together"));
  if (cp.flags && cp.mask) {
    if (*cp.mask & mgmt::FaceFlagLocalFields)
      params.localFields = (*cp.flags & mgmt::FaceFlagLocalFields) != 0;
    if (*cp.mask & mgmt::FaceFlagLpReliability)
      params.lpReliability = (*cp.flags & mgmt::FaceFlagLpReliability) != 0;
    if (*cp.mask & mgmt::FaceFlagCongestionMarking)
      params.congestionMarking = (*cp.flags & mgmt::FaceFlagCongestionMarking) != 0;
    if (*cp.mask & mgmt::FaceFlagBundling)
      params.bundling = (*cp.flags & mgmt::FaceFlagBundling) != 0;
  }
  if (cp.medium) {
    if (*cp.medium > static_cast<uint64_t>(face::Medium::Wireless))
      return done(mgmt::ControlResponse(mgmt::status::BadRequest, "Medium must be 0 (wired) or 1 (wireless)"));
    params.medium = static_cast<face::Medium>(*cp.medium);
  }
  if (cp.bundleInterval) {
    if (*cp.bundleInterval > lp::MaxBundleSpan)
      return done(mgmt::ControlResponse(mgmt::status::BadRequest,
                                        "BundleInterval must be at most " + std::to_string(lp::MaxBundleSpan)));
    params.bundleInterval = static_cast<uint32_t>(*cp.bundleInterval);
  }
  if (cp.mtu)
    params.mtu = static_cast<size_t>(*cp.mtu);
  if (cp.baseCongestionMarkingInterval)
    params.congestionMarkingInterval = *cp.baseCongestionMarkingInterval;
  if (cp.defaultCongestionThreshold)
    params.congestionThreshold = static_cast<size_t>(*cp.defaultCongestionThreshold);

  createFace(*cp.uri, cp.localUri, params, [this, done = std::move(done)](const CreateResult& r) {
    face::Face* f = r.faceId != 0 ? m_faces.get(r.faceId) : nullptr;
    if (f != nullptr && (r.code == 200 || r.code == 409))
      done(mgmt::ControlResponse(r.code, r.text, faceParameters(*f)));
    else
      done(mgmt::ControlResponse(r.code, r.text));
  });
}

std::vector<mgmt::ChannelStatus> FaceSystem::channels() const
{
  std::vector<mgmt::ChannelStatus> out;
  for (auto& uri : channelUris())
    out.push_back(mgmt::ChannelStatus{uri});
  return out;
}

std::optional<std::chrono::milliseconds> FaceSystem::expirationPeriod(const face::Face& f) const
{
  auto* t = dynamic_cast<const io::SocketTransport*>(&face::ImpairedTransport::unwrap(f.transport()));
  if (t == nullptr || f.persistency() != FacePersistency::OnDemand ||
      (t->kind() != TransportKind::UdpUnicast && t->kind() != TransportKind::EtherUnicast))
    return std::nullopt;
  Duration idle = m_env.now() - f.lastActivity();
  Duration timeout = t->kind() == TransportKind::UdpUnicast ? m_options.udp.idleTimeout : m_options.ether.idleTimeout;
  Duration left = timeout - idle;
  if (left < Duration::zero())
    left = Duration::zero();
  return std::chrono::duration_cast<std::chrono::milliseconds>(left);
}

std::vector<std::string> FaceSystem::channelUris() const
{
  std::vector<std::string> uris;
  if (m_unix && m_unix->isListening())
    uris.push_back(m_unix->uri());
  if (m_tcp && m_tcp->isListening())
    uris.push_back(m_tcp->uri());
  if (m_udp && m_udp->isListening())
    uris.push_back(m_udp->uri());
  if (m_websocket && m_websocket->isListening())
    uris.push_back(m_websocket->uri());
  for (const auto& [name, channel] : m_ether) {
    if (channel->isListening())
      uris.push_back(channel->uri());
  }
  return uris;
}

std::vector<std::string> FaceSystem::etherInterfaces() const
{
  std::vector<std::string> names;
  for (const auto& [name, channel] : m_ether)
    names.push_back(name);
  return names;
}

uint16_t FaceSystem::tcpPort() const
{
  return m_tcp && m_tcp->isListening() ? m_tcp->localEndpoint().port() : 0;
}

uint16_t FaceSystem::udpPort() const
{
  return m_udp && m_udp->isListening() ? m_udp->localEndpoint().port() : 0;
}

} // namespace ndnlab::daemon
