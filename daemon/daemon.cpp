#include "daemon/daemon.hpp"
#include "daemon/config.hpp"

#include <algorithm>
#include <sstream>

namespace ndnlab::daemon {

namespace {

io::AsioEnvOptions envOptions(const GeneralOptions& g)
{
  io::AsioEnvOptions o;
  o.seed = g.seed;
  o.logLevel = g.logLevel;
  o.logFile = g.logFile;
  o.traceCounters = g.traceCounters;
  o.traceFile = g.traceFile;
  return o;
}

} // namespace

Daemon::Daemon(asio::io_context& io, const DaemonOptions& options) : m_options(options)
{
  try {
    m_env = std::make_unique<io::AsioEnv>(io, envOptions(options.general));
  }
  catch (const std::exception& e) {
    throw ConfigError(std::string("general: ") + e.what() + "\n");
  }
  try {
    m_forwarder = std::make_unique<fw::Forwarder>(*m_env, options.forwarder);
  }
  catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("forwarder: ") + e.what() + "\n");
  }
  m_faceSystem = std::make_unique<FaceSystem>(*m_env, io, *m_forwarder, options.faceSystem);
  m_management = std::make_unique<mgmt::Management>(*m_env, *m_forwarder, options.management, m_faceSystem.get());
  m_management->setDropCounters([this] { return dropCounters(); });
}

Daemon::~Daemon()
{
  stop();
  // Management and the face system go before the forwarder that owns the faces.
  m_management.reset();
  m_faceSystem.reset();
  m_forwarder.reset();
}

void Daemon::start()
{
  m_faceSystem->start();
  NDNLAB_LOG(*m_env, LogLevel::Info, "ndnlabd", "started (seed ", m_env->seed(), ")");
}

void Daemon::stop()
{
  if (m_stopped || !m_faceSystem)
    return;
  m_stopped = true;
  m_faceSystem->stop();
}

std::string Daemon::summary() const
{
  std::ostringstream os;
  const auto& c = m_forwarder->counters();
  os << "in: " << c.nInInterests << " Interests, " << c.nInData << " Data, " << c.nInNacks
     << " Nacks; out: " << c.nOutInterests << " Interests, " << c.nOutData << " Data, " << c.nOutNacks
     << " Nacks; satisfied " << c.nSatisfiedInterests << ", unsatisfied " << c.nUnsatisfiedInterests << "; CS hits "
     << c.nCsHits << ", misses " << c.nCsMisses;
  for (const auto& c : dropCounters())
    os << "\n  " << c.kind << (c.reason.empty() ? "" : "/") << c.reason << ": " << c.count;
  return os.str();
}

std::vector<mgmt::DropCounterStatus> Daemon::dropCounters() const
{
  std::vector<mgmt::DropCounterStatus> out;
  for (const auto& [key, n] : m_env->countingTrace().snapshot()) {
    std::string_view k = key;
    size_t slash = k.find('/');
    std::string_view kind = k.substr(0, slash);
    std::optional<EventKind> parsed = parseEventKind(kind);
    if (!parsed || !info(*parsed).isDrop)
      continue;
    out.push_back({std::string(kind), slash == std::string_view::npos ? "" : std::string(k.substr(slash + 1)), n});
  }
  return out;
}

} // namespace ndnlab::daemon
