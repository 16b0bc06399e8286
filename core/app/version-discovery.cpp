#include "core/app/version-discovery.hpp"

#include "core/codec/tlv.hpp"

#include <algorithm>
#include <utility>

namespace ndnlab::app {

namespace {
constexpr std::string_view LogModule = "fetcher";
} // namespace

std::string_view toString(VersionDiscovery d)
{
  switch (d) {
    case VersionDiscovery::Rdr: return "rdr";
    case VersionDiscovery::FirstSegment: return "first-segment";
    case VersionDiscovery::None: return "none";
  }
  return "unknown";
}

std::optional<VersionDiscovery> parseVersionDiscovery(std::string_view s)
{
  if (s == "rdr")
    return VersionDiscovery::Rdr;
  if (s == "first-segment")
    return VersionDiscovery::FirstSegment;
  if (s == "none")
    return VersionDiscovery::None;
  return std::nullopt;
}

VersionDiscoverer::VersionDiscoverer(Env& env, Endpoint& endpoint, Options opts)
  : m_env(env), m_ep(endpoint), m_opts(opts)
{}

void VersionDiscoverer::start(const Name& name)
{
  m_name = name;
  if (m_opts.mode == VersionDiscovery::Rdr)
    m_name.appendKeyword("metadata");
  m_active = true;
  send();
}

void VersionDiscoverer::stop()
{
  m_active = false;
  if (m_timer)
    m_env.timers().cancel(std::exchange(m_timer, 0));
}

void VersionDiscoverer::send()
{
  Interest interest(m_name);
  interest.setCanBePrefix(true).setMustBeFresh(true).setLifetime(m_opts.lifetime);
  m_nonce = m_env.rng().next32();
  interest.setNonce(m_nonce);
  if (m_timer)
    m_env.timers().cancel(m_timer);
  m_timer = m_env.timers().schedule(m_opts.lifetime, [this] {
    m_timer = 0;
    onTimeout();
  });
  NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, "discovery Interest ", m_name);
  m_ep.expressInterest(interest);
}

void VersionDiscoverer::fail(Failure f, std::string message)
{
  stop();
  if (onFailure)
    onFailure(f, std::move(message));
}

void VersionDiscoverer::handleData(const Data& data)
{
  if (!m_active || !m_name.isPrefixOf(data.name()))
    return;
  if (m_timer)
    m_env.timers().cancel(std::exchange(m_timer, 0));

  if (m_opts.mode == VersionDiscovery::FirstSegment) {
    if (data.name().size() <= m_name.size() || !data.name()[-1].isSegment())
      return fail(Failure::BadMetadata,
                  strcat("Reply ", data.name().toUri(), " to ", m_name.toUri(), " is not a segment"));
    m_active = false;
    if (onFound)
      onFound(data.name().getPrefix(-1), &data);
    return;
  }

  if (data.contentType() != static_cast<uint64_t>(ContentType::Blob))
    return fail(Failure::BadMetadata,
                strcat("Invalid metadata packet ", data.name().toUri(), ": ContentType ", data.contentType()));
  TlvReader reader(data.content());
  auto first = reader.next();
  if (!first || first->type != tlv::Name)
    return fail(Failure::BadMetadata,
                strcat("Invalid metadata packet ", data.name().toUri(), ": Content does not start with a Name"));
  auto versioned = Name::decode(first->wire);
  if (!versioned)
    return fail(Failure::BadMetadata,
                strcat("Invalid metadata packet ", data.name().toUri(), ": ", reasonName(versioned.error().code)));
  if (versioned->empty() || !(*versioned)[-1].isVersion())
    return fail(Failure::BadMetadata,
                strcat("Name in metadata (", versioned->toUri(), ") does not end with a version"));
  m_active = false;
  if (onFound)
    onFound(*versioned, nullptr);
}

void VersionDiscoverer::handleNack(const Nack& nack)
{
  if (!m_active || nack.interest.name() != m_name || nack.interest.nonce() != m_nonce)
    return;
  if (m_timer)
    m_env.timers().cancel(std::exchange(m_timer, 0));
  ++m_nacks;
  if (retriesExceeded(m_nacks))
    return fail(Failure::RetriesExhausted, strcat("Reached the maximum number of nack retries (", m_opts.retries,
                                                  ") while retrieving data for ", m_name.toUri()));
  switch (nack.reason) {
    case NackReason::Duplicate: send(); break;
    case NackReason::Congestion: {
      Duration backoff = std::chrono::milliseconds(uint64_t{1} << std::min<uint32_t>(m_congestion, 20));
      if (backoff >= MaxCongestionBackoff)
        backoff = MaxCongestionBackoff;
      else
        ++m_congestion;
      m_timer = m_env.timers().schedule(backoff, [this] {
        m_timer = 0;
        send();
      });
      break;
    }
    default:
      fail(Failure::Nack, strcat("Could not retrieve data for ", m_name.toUri(), ", reason: ", toString(nack.reason)));
      break;
  }
}

void VersionDiscoverer::onTimeout()
{
  ++m_timeouts;
  if (retriesExceeded(m_timeouts))
    return fail(Failure::RetriesExhausted, strcat("Reached the maximum number of timeout retries (", m_opts.retries,
                                                  ") while retrieving data for ", m_name.toUri()));
  NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, "discovery timeout, retrying");
  send();
}

} // namespace ndnlab::app
