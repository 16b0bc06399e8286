#include "tools/common/connection.hpp"

#include "core/face/generic-link-service.hpp"
#include "io/client-connector.hpp"
#include "tools/common/runtime.hpp"

namespace ndnlab::tools {

std::string ConnectionOptions::uri() const
{
  if (!connect.empty())
    return connect;
  if (!socket.empty())
    return "unix://" + socket;
  if (const char* env = std::getenv("NDNLAB_SOCKET"); env != nullptr && *env != '\0')
    return "unix://" + std::string(env);
  return io::defaultClientTransportUri();
}

std::string ConnectionOptions::uriOrigin() const
{
  if (!connect.empty())
    return "from --connect";
  if (!socket.empty())
    return "from --socket";
  for (const char* name : {"NDNLAB_SOCKET", "NDN_CLIENT_TRANSPORT"}) {
    if (const char* env = std::getenv(name); env != nullptr && *env != '\0')
      return "from $" + std::string(name);
  }
  return "NFD's default socket";
}

namespace {

/// --connect: a URI io::connectToForwarder() accepts, so a typo is a usage error (exit 2)
/// rather than a connection failure (exit 1).
CLI::Validator forwarderUri()
{
  return CLI::Validator(
    [](std::string& text) -> std::string {
      if (text.empty())
        return "must not be empty";
      auto uri = io::parseForwarderUri(text);
      return uri ? std::string() : uri.error();
    },
    "URI");
}

} // namespace

void addConnectionOptions(CLI::App& app, ConnectionOptions& opts)
{
  app
    .add_option(
      "--socket", opts.socket,
      "Unix socket of the forwarder (default $NDNLAB_SOCKET, then $NDN_CLIENT_TRANSPORT, then /run/nfd/nfd.sock)")
    ->check(check::nonEmpty());
  app.add_option("--connect", opts.connect, "Forwarder URI instead of the Unix socket, e.g. tcp4://127.0.0.1:6363")
    ->check(forwarderUri());
  app
    .add_option("--mark-interval", opts.markIntervalMs,
                "Congestion-mark outgoing packets when the send queue to the forwarder stays above "
                "64 KiB this long (ms; 0 = off)")
    ->check(check::between(0.0, 10000.0))
    ->capture_default_str();
}

std::unique_ptr<ForwarderConnection> ForwarderConnection::open(ToolRuntime& rt, const ConnectionOptions& opts)
{
  io::AsioEnv& env = rt.env;
  std::string uri = opts.uri();
  if (auto parsed = io::parseForwarderUri(uri); !parsed) { // a bad $NDN_CLIENT_TRANSPORT
    printError("forwarder address " + opts.uriOrigin() + ": " + parsed.error());
    return nullptr;
  }
  // A frame above MAX_NDN_PACKET_SIZE from the forwarder (ndnlabd never sends one; another
  // forwarder might) is skipped and counted (io_drop/frame_too_large) instead of closing the
  // connection as ndn-cxx does: one bad packet does not take the application down.
  io::StreamTransportOptions streamOptions;
  streamOptions.skipOversizedFrames = true;
  auto transport = io::connectToForwarder(env, env.ioContext(), uri, streamOptions);
  if (!transport) {
    // Say where the address came from: a stale $NDNLAB_SOCKET is otherwise hard to spot.
    printError(rt.interrupted() ? "interrupted"
                                : transport.error() + " (" + opts.uriOrigin() +
                                    "; is the forwarder running? choose another with --socket PATH, "
                                    "--connect URI, $NDNLAB_SOCKET or $NDN_CLIENT_TRANSPORT)");
    return nullptr;
  }
  face::LinkServiceOptions lso;
  lso.allowLocalFields = false; // we set no NextHopFaceId; IncomingFaceId is not needed
  if (opts.markIntervalMs > 0) {
    lso.allowCongestionMarking = true;
    lso.baseCongestionMarkingInterval = std::chrono::microseconds(static_cast<int64_t>(opts.markIntervalMs * 1000));
  }
  // The consumer's BundleTag reaches the forwarder's Interest bundler as an NDNLPv2 field
  // (ignorable: NFD skips it).
  lso.emitBundleTag = true;
  auto face = std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env, lso),
                                           std::move(transport.value()));
  return std::unique_ptr<ForwarderConnection>(new ForwarderConnection(env, std::move(face), uri));
}

ForwarderConnection::ForwarderConnection(io::AsioEnv& env, std::unique_ptr<face::Face> face, std::string uri)
  : m_env(env), m_face(std::move(face)), m_uri(std::move(uri))
{
  m_face->afterReceiveInterest = [this](face::Face&, Interest&& i, face::EndpointId) { deliverInterest(i); };
  m_face->afterReceiveData = [this](face::Face&, Data&& d, face::EndpointId) {
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
      if (it->interest.matchesData(d)) {
        auto done = std::move(it->done);
        m_env.timers().cancel(it->timer);
        m_pending.erase(it);
        done(&d, nullptr);
        return;
      }
    }
    deliverData(d);
  };
  m_face->afterReceiveNack = [this](face::Face&, Nack&& n, face::EndpointId) {
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
      if (it->interest.name() == n.interest.name() && it->interest.nonce() == n.interest.nonce()) {
        auto done = std::move(it->done);
        m_env.timers().cancel(it->timer);
        m_pending.erase(it);
        done(nullptr, &n);
        return;
      }
    }
    deliverNack(n);
  };
  m_face->afterClose = [this](face::Face& f) {
    if (!onClose)
      return;
    std::string reason = f.transport().state() == face::TransportState::Failed ? "connection failed"
                                                                               : "connection closed by the forwarder";
    if (auto* t = dynamic_cast<const io::SocketTransport*>(&f.transport());
        t != nullptr && !t->closeReason().empty() && t->closeReason() != "eof")
      reason += " (" + t->closeReason() + ")";
    onClose(reason);
  };
}

ForwarderConnection::~ForwarderConnection()
{
  for (auto& p : m_pending)
    m_env.timers().cancel(p.timer);
  m_face->afterClose = nullptr;
}

uint64_t ForwarderConnection::outgoingDrops() const
{
  const face::LinkService::Counters& lc = m_face->linkService().counters();
  uint64_t n = lc.nOutTooLarge + lc.nOutOverMtu + lc.nFragmentationErrors;
  if (auto* t = dynamic_cast<const io::SocketTransport*>(&m_face->transport()))
    n += t->ioCounters().nSendQueueFull + t->ioCounters().nSendErrors + t->ioCounters().nQueueDiscarded;
  return n;
}

void ForwarderConnection::expressInterest(const Interest& interest)
{
  m_face->sendInterest(interest);
}

void ForwarderConnection::putData(const Data& data)
{
  m_face->sendData(data);
}

void ForwarderConnection::putNack(const Nack& nack)
{
  m_face->sendNack(nack);
}

void ForwarderConnection::request(const Interest& interest, RequestCallback done)
{
  Interest copy = interest;
  if (!copy.nonce())
    copy.setNonce(m_env.rng().next32());
  m_pending.push_back(Pending{copy, std::move(done), 0});
  auto it = std::prev(m_pending.end());
  it->timer = m_env.timers().schedule(copy.lifetime(), [this, it] {
    auto cb = std::move(it->done);
    m_pending.erase(it);
    cb(nullptr, nullptr);
  });
  m_face->sendInterest(copy);
}

void ForwarderConnection::failOnClose(ToolRuntime& rt, int& rc)
{
  onClose = [&rt, &rc](const std::string& reason) {
    printError(reason);
    rc = exitcode::Failure;
    rt.stop();
  };
}

} // namespace ndnlab::tools
