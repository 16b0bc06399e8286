#include "core/mgmt/rib.hpp"

#include <algorithm>

namespace ndnlab::mgmt {

Rib::Rib(Env& env, FibUpdater& fib, RibOptions options) : m_env(env), m_fib(fib), m_options(options)
{}

Rib::~Rib()
{
  for (auto& [name, entry] : m_entries) {
    for (auto& sr : entry.routes) {
      if (sr.timer != 0)
        m_env.timers().cancel(sr.timer);
    }
  }
}

void Rib::scheduleExpiry(const Name& prefix, StoredRoute& sr, std::optional<Duration> expiration)
{
  if (sr.timer != 0) {
    m_env.timers().cancel(sr.timer);
    sr.timer = 0;
  }
  if (!expiration) {
    sr.route.expires.reset();
    return;
  }
  // Bound the period so now + period cannot overflow (ExpirationPeriod may be up to 2^64 ms).
  constexpr Duration maxPeriod = std::chrono::hours(24 * 365 * 100);
  expiration = std::clamp(*expiration, Duration::zero(), maxPeriod);
  sr.route.expires = m_env.now() + *expiration;
  face::FaceId faceId = sr.route.faceId;
  uint64_t origin = sr.route.origin;
  sr.timer = m_env.timers().schedule(*expiration, [this, prefix, faceId, origin] {
    auto it = m_entries.find(prefix);
    if (it == m_entries.end())
      return;
    for (auto& r : it->second.routes) {
      if (r.route.faceId == faceId && r.route.origin == origin)
        r.timer = 0; // fired: nothing to cancel any more
    }
    erase(prefix, faceId, origin);
  });
}

Rib::InsertResult Rib::insert(const Name& prefix, const Route& route, std::optional<Duration> expiration)
{
  auto it = m_entries.find(prefix);
  if (it != m_entries.end()) {
    for (auto& sr : it->second.routes) {
      if (sr.route.faceId == route.faceId && sr.route.origin == route.origin) {
        sr.route.cost = route.cost;
        sr.route.flags = route.flags;
        scheduleExpiry(prefix, sr, expiration);
        updateSubtree(prefix);
        return InsertResult::Updated;
      }
    }
  }
  if (m_nRoutes >= m_options.maxRoutes)
    return InsertResult::Full;
  if (it == m_entries.end())
    it = m_entries.emplace(prefix, Entry{}).first;
  StoredRoute sr;
  sr.route = route;
  sr.route.expires.reset();
  it->second.routes.push_back(std::move(sr));
  ++m_nRoutes;
  scheduleExpiry(prefix, it->second.routes.back(), expiration);
  updateSubtree(prefix);
  return InsertResult::Inserted;
}

void Rib::removeRoute(std::map<Name, Entry>::iterator it, size_t index)
{
  auto& routes = it->second.routes;
  if (routes[index].timer != 0)
    m_env.timers().cancel(routes[index].timer);
  routes.erase(routes.begin() + static_cast<ptrdiff_t>(index));
  --m_nRoutes;
}

bool Rib::erase(const Name& prefix, face::FaceId faceId, uint64_t origin)
{
  auto it = m_entries.find(prefix);
  if (it == m_entries.end())
    return false;
  auto& routes = it->second.routes;
  for (size_t i = 0; i < routes.size(); ++i) {
    if (routes[i].route.faceId == faceId && routes[i].route.origin == origin) {
      removeRoute(it, i);
      updateSubtree(prefix);
      return true;
    }
  }
  return false;
}

size_t Rib::removeFace(face::FaceId faceId)
{
  size_t removed = 0;
  std::vector<Name> touched;
  for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
    auto& routes = it->second.routes;
    bool any = false;
    for (size_t i = routes.size(); i-- > 0;) {
      if (routes[i].route.faceId == faceId) {
        removeRoute(it, i);
        ++removed;
        any = true;
      }
    }
    if (any)
      touched.push_back(it->first);
  }
  for (const Name& n : touched)
    updateSubtree(n);
  return removed;
}

std::vector<Route> Rib::routes(const Name& prefix) const
{
  std::vector<Route> out;
  auto it = m_entries.find(prefix);
  if (it != m_entries.end()) {
    for (const auto& sr : it->second.routes)
      out.push_back(sr.route);
  }
  return out;
}

std::map<face::FaceId, uint64_t> Rib::computeNextHops(const Name& prefix) const
{
  std::map<face::FaceId, uint64_t> hops;
  auto it = m_entries.find(prefix);
  if (it == m_entries.end() || it->second.routes.empty())
    return hops;

  bool captured = false;
  for (const auto& sr : it->second.routes) {
    auto [pos, inserted] = hops.emplace(sr.route.faceId, sr.route.cost);
    if (!inserted)
      pos->second = std::min(pos->second, sr.route.cost);
    captured = captured || sr.route.capture();
  }
  if (captured)
    return hops;

  std::map<face::FaceId, uint64_t> inherited;
  for (ptrdiff_t len = static_cast<ptrdiff_t>(prefix.size()) - 1; len >= 0; --len) {
    auto anc = m_entries.find(prefix.getPrefix(len));
    if (anc == m_entries.end())
      continue;
    bool stop = false;
    for (const auto& sr : anc->second.routes) {
      stop = stop || sr.route.capture();
      if (!sr.route.childInherit() || hops.count(sr.route.faceId) > 0)
        continue;
      auto [pos, inserted] = inherited.emplace(sr.route.faceId, sr.route.cost);
      if (!inserted)
        pos->second = std::min(pos->second, sr.route.cost);
    }
    if (stop)
      break;
  }
  hops.insert(inherited.begin(), inherited.end());
  return hops;
}

void Rib::applyFib(const Name& prefix, Entry& entry)
{
  auto want = computeNextHops(prefix);
  for (const auto& [face, cost] : entry.installed) {
    if (want.count(face) == 0)
      m_fib.removeNextHop(prefix, face);
  }
  for (const auto& [face, cost] : want) {
    auto old = entry.installed.find(face);
    if (old == entry.installed.end() || old->second != cost)
      m_fib.addNextHop(prefix, face, cost);
  }
  entry.installed = std::move(want);
}

void Rib::updateSubtree(const Name& prefix)
{
  for (auto it = m_entries.lower_bound(prefix); it != m_entries.end() && prefix.isPrefixOf(it->first);) {
    applyFib(it->first, it->second);
    if (it->second.routes.empty())
      it = m_entries.erase(it);
    else
      ++it;
  }
}

std::vector<RibEntryStatus> Rib::list() const
{
  std::vector<RibEntryStatus> out;
  out.reserve(m_entries.size());
  TimePoint now = m_env.now();
  for (const auto& [name, entry] : m_entries) {
    RibEntryStatus s;
    s.prefix = name;
    for (const auto& sr : entry.routes) {
      RibEntryStatus::Route r;
      r.faceId = sr.route.faceId;
      r.origin = sr.route.origin;
      r.cost = sr.route.cost;
      r.flags = sr.route.flags;
      if (sr.route.expires) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*sr.route.expires - now);
        r.expirationPeriod = std::max(left, std::chrono::milliseconds(0));
      }
      s.routes.push_back(r);
    }
    out.push_back(std::move(s));
  }
  return out;
}

} // namespace ndnlab::mgmt
