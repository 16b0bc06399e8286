#include "core/mgmt/dispatcher.hpp"

#include "core/security/signed-interest.hpp"

#include <algorithm>

namespace ndnlab::mgmt {

namespace {

constexpr std::string_view LogModule = "mgmt";

bool endsWithVersionOrSegment(const Name& name)
{
  if (name.empty())
    return false;
  ComponentRef last = name[-1];
  return last.isVersion() || last.isSegment();
}

} // namespace

Dispatcher::Dispatcher(Env& env, DispatcherOptions options) : m_env(env), m_options(std::move(options))
{
  if (m_options.segmentSize == 0)
    throw std::invalid_argument("DispatcherOptions.segmentSize must be positive");
  if (m_options.verifyCommands)
    m_replay = std::make_unique<security::ReplayChecker>(m_env.clock(), m_options.replay);
}

Dispatcher::~Dispatcher()
{
  *m_alive = false;
  if (m_expiryTimer != 0)
    m_env.timers().cancel(m_expiryTimer);
}

void Dispatcher::addCommand(std::string module, std::string verb, CommandHandler handler)
{
  m_commands[Key{std::move(module), std::move(verb)}] = std::move(handler);
}

void Dispatcher::addDataset(std::string module, std::string verb, DatasetHandler handler)
{
  m_datasets[Key{std::move(module), std::move(verb)}] = std::move(handler);
}

bool Dispatcher::knownModule(const std::string& module) const
{
  auto match = [&](const auto& table) {
    auto it = table.lower_bound(Key{module, {}});
    return it != table.end() && it->first.module == module;
  };
  return match(m_commands) || match(m_datasets);
}

void Dispatcher::onInterest(const Interest& interest)
{
  auto parsed = parseCommand(m_options.topPrefix, interest);
  if (!parsed) {
    drop(interest,
         parsed.error() == CommandErrc::NotUnderPrefix ? DropReason::MgmtNotUnderPrefix : DropReason::MgmtMissingVerb);
    return;
  }
  const ParsedCommand& cmd = *parsed;
  uint64_t incoming = interest.tags.incomingFaceId.value_or(0);

  Key key{cmd.module, cmd.verb};
  if (auto ds = m_datasets.find(key); ds != m_datasets.end()) {
    handleDataset(interest, cmd, ds->second, incoming);
    return;
  }
  if (auto c = m_commands.find(key); c != m_commands.end()) {
    handleCommand(interest, cmd, c->second, incoming);
    return;
  }
  ++m_counters.nCommands;
  reply(interest, ControlResponse(status::NotImplemented, knownModule(cmd.module) ? "Unknown verb" : "Unknown module"));
}

bool Dispatcher::authorize(const Interest& interest, const ParsedCommand& cmd)
{
  if (!m_options.verifyCommands)
    return true;
  if (m_verifier == nullptr || !cmd.signatureInfo)
    return false;
  security::CheckResult r = security::CheckResult::NotSigned;
  if (cmd.format == CommandFormat::SignedV03)
    r = security::verifyInterest(interest, *m_verifier);
  else if (cmd.format == CommandFormat::LegacyV02)
    r = security::verifyLegacyCommand(interest.name(), *m_verifier);
  if (r == security::CheckResult::Ok)
    r = m_replay->checkAndRecord(*cmd.signatureInfo);
  if (r != security::CheckResult::Ok) {
    NDNLAB_LOG(m_env, LogLevel::Info, LogModule, interest.name(), " rejected: ", security::reasonName(r));
    m_env.emit(TraceEvent{.kind = EventKind::MgmtRejected,
                          .face = interest.tags.incomingFaceId.value_or(0),
                          .reason = security::reasonName(r)});
    return false;
  }
  return true;
}

void Dispatcher::handleCommand(const Interest& interest, const ParsedCommand& cmd, const CommandHandler& handler,
                               uint64_t incomingFaceId)
{
  if (!cmd.parameters) {
    ++m_counters.nCommands;
    reply(interest, ControlResponse(status::BadRequest, cmd.malformedParameters ? "Malformed ControlParameters"
                                                                                : "Missing ControlParameters"));
    return;
  }
  if (!authorize(interest, cmd)) {
    ++m_counters.nCommands;
    ++m_counters.nRejected;
    reply(interest, ControlResponse(status::Forbidden, "Authorization rejected"));
    return;
  }

  // The reply needs only the request's name and PitToken; keep them, not the Interest.
  Interest replyTo(interest.name());
  replyTo.tags.pitToken = interest.tags.pitToken;
  std::weak_ptr<bool> alive = m_alive;
  auto called = std::make_shared<bool>(false);
  CommandDone done = [this, alive, called, replyTo = std::move(replyTo)](ControlResponse resp) {
    auto a = alive.lock();
    if (!a || !*a || *called)
      return;
    *called = true;
    ++m_counters.nCommands;
    reply(replyTo, resp);
  };
  RequestContext ctx{interest, cmd, incomingFaceId};
  handler(*cmd.parameters, ctx, std::move(done));
}

void Dispatcher::handleDataset(const Interest& interest, const ParsedCommand& cmd, const DatasetHandler& handler,
                               uint64_t incomingFaceId)
{
  expireStorage();
  const Name& name = interest.name();
  if (endsWithVersionOrSegment(name)) {
    // A later segment (or a specific version) of an earlier generation.
    Name lookup = name;
    if (name[-1].isVersion())
      lookup.appendSegment(0);
    auto it = m_storage.find(lookup);
    if (it == m_storage.end()) {
      drop(interest, DropReason::MgmtSegmentNotStored);
      return;
    }
    ++m_counters.nSegmentsServed;
    Data d = it->second.data;
    send(std::move(d), interest);
    return;
  }

  ++m_counters.nDatasets;
  RequestContext ctx{interest, cmd, incomingFaceId};
  auto generated = handler(ctx);
  if (!generated) {
    ++m_counters.nDatasetErrors;
    reply(interest, generated.error(), true);
    return;
  }
  const Buffer& content = *generated;

  uint64_t version = static_cast<uint64_t>(std::max<int64_t>(0, m_env.clock().unixNow().count()));
  version = std::max(version, m_lastVersion + 1);
  m_lastVersion = version;
  Name base = name;
  base.appendVersion(version);

  const size_t seg = m_options.segmentSize;
  const size_t nSegments = std::max<size_t>(1, (content.size() + seg - 1) / seg);
  Name finalComp;
  finalComp.appendSegment(nSegments - 1);
  for (size_t i = 0; i < nSegments; ++i) {
    Name segName = base;
    segName.appendSegment(i);
    Data d(std::move(segName));
    size_t begin = i * seg;
    size_t end = std::min(content.size(), begin + seg);
    d.setContent(ByteSpan(content).subspan(begin, end - begin));
    d.setFreshnessPeriod(m_options.datasetFreshness);
    if (i + 1 == nSegments)
      d.setFinalBlockId(finalComp[0]);
    security::signData(d, m_signer);
    store(d);
    if (i == 0) {
      ++m_counters.nSegmentsServed;
      send(std::move(d), interest);
    }
  }
}

void Dispatcher::drop(const Interest& interest, DropReason reason)
{
  ++m_counters.nDropped;
  NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, interest.name(), " ", toString(reason), " DROP");
  m_env.emit(TraceEvent::dropped(EventKind::Drop, interest.tags.incomingFaceId.value_or(0), reason));
}

void Dispatcher::reply(const Interest& interest, const ControlResponse& resp, bool nack)
{
  Data d(interest.name());
  d.setContent(resp.wireEncode());
  if (nack)
    d.setContentType(static_cast<uint64_t>(ContentType::Nack));
  d.setFreshnessPeriod(m_options.replyFreshness);
  security::signData(d, m_signer);
  NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, interest.name().getPrefix(4), " -> ", resp.code, " ", resp.text);
  send(std::move(d), interest);
}

void Dispatcher::send(Data&& data, const Interest& request)
{
  data.tags.pitToken = request.tags.pitToken;
  data.tags.noCache = true;
  if (sendData)
    sendData(std::move(data));
}

void Dispatcher::store(const Data& data)
{
  size_t size = data.wireSize();
  if (size > m_options.maxStorageBytes)
    return;
  auto [it, inserted] = m_storage.insert_or_assign(data.name(), Stored{data, m_env.now() + m_options.storageLifetime});
  if (inserted)
    m_storageBytes += size;
  // Bound memory: drop the oldest entries (smallest expiry) until under the limit.
  while (m_storageBytes > m_options.maxStorageBytes && !m_storage.empty()) {
    auto oldest = std::min_element(m_storage.begin(), m_storage.end(),
                                   [](const auto& a, const auto& b) { return a.second.expires < b.second.expires; });
    m_storageBytes -= oldest->second.data.wireSize();
    m_storage.erase(oldest);
  }
  if (m_expiryTimer == 0) {
    m_expiryTimer = m_env.timers().schedule(m_options.storageLifetime, [this] {
      m_expiryTimer = 0;
      expireStorage();
    });
  }
}

void Dispatcher::expireStorage()
{
  TimePoint now = m_env.now();
  TimePoint next = TimePoint::max();
  for (auto it = m_storage.begin(); it != m_storage.end();) {
    if (it->second.expires <= now) {
      m_storageBytes -= it->second.data.wireSize();
      it = m_storage.erase(it);
    }
    else {
      next = std::min(next, it->second.expires);
      ++it;
    }
  }
  if (m_expiryTimer == 0 && next != TimePoint::max()) {
    m_expiryTimer = m_env.timers().schedule(next - now, [this] {
      m_expiryTimer = 0;
      expireStorage();
    });
  }
}

} // namespace ndnlab::mgmt
