#pragma once
// Routing Information Base (NFD daemon/rib/rib.hpp, simplified; spec facts 3.2-3.4).
//
// Routes are keyed by (prefix, FaceId, origin) and carry cost, flags and an optional
// expiration (Env timers). Re-registering the same key updates cost/flags and restarts the
// expiration, so periodic refreshes (NDNts every 300 s) never duplicate routes.
//
// FIB computation, per RIB prefix P (only prefixes that have routes get FIB entries):
//   - P's own routes: per face, the lowest cost among them;
//   - unless one of P's own routes has the Capture flag, routes of ancestors that have the
//     ChildInherit flag are inherited for faces P does not reach itself, lowest cost per
//     face; the upward walk stops after an ancestor that has a Capture route.
// NFD differs slightly: among inherited routes the nearest ancestor wins rather than the
// lowest cost. The result is applied to the FIB as a diff through FibUpdater.

#include "core/face/transport.hpp"
#include "core/mgmt/datasets.hpp"
#include "core/runtime/env.hpp"

#include <map>
#include <optional>
#include <vector>

namespace ndnlab::mgmt {

struct RibOptions
{
  /// Upper bound on routes; register beyond it is refused (503).
  size_t maxRoutes = 1'000'000;
};

/// Receives the FIB changes the RIB wants (implemented over table::Fib by the RibManager).
/// Implementations must tolerate faces that no longer exist (removeFace() emits removals for
/// a face that is being closed).
class FibUpdater
{
public:
  virtual ~FibUpdater() = default;
  virtual void addNextHop(const Name& prefix, face::FaceId face, uint64_t cost) = 0;
  virtual void removeNextHop(const Name& prefix, face::FaceId face) = 0;
};

struct Route
{
  face::FaceId faceId = 0;
  uint64_t origin = 0;
  uint64_t cost = 0;
  uint64_t flags = 0;
  /// Monotonic expiry time; nullopt = never.
  std::optional<TimePoint> expires;

  bool childInherit() const { return flags & RouteFlagChildInherit; }
  bool capture() const { return flags & RouteFlagCapture; }
};

class Rib
{
public:
  Rib(Env& env, FibUpdater& fib, RibOptions options = {});
  ~Rib();
  Rib(const Rib&) = delete;
  Rib& operator=(const Rib&) = delete;

  enum class InsertResult : uint8_t { Inserted, Updated, Full };

  /// Adds or refreshes the route (prefix, route.faceId, route.origin). `expiration` = how long
  /// until it is removed; nullopt = never. The route's `expires` field is ignored.
  InsertResult insert(const Name& prefix, const Route& route, std::optional<Duration> expiration);
  /// Removes one route; false if it did not exist.
  bool erase(const Name& prefix, face::FaceId faceId, uint64_t origin);
  /// Removes every route of `faceId` (face closed). Returns the number removed.
  size_t removeFace(face::FaceId faceId);

  /// Routes of exactly `prefix` (empty if none).
  std::vector<Route> routes(const Name& prefix) const;
  /// Nexthops (face -> cost) the RIB currently wants for `prefix`.
  std::map<face::FaceId, uint64_t> computeNextHops(const Name& prefix) const;

  size_t nPrefixes() const { return m_entries.size(); }
  size_t nRoutes() const { return m_nRoutes; }

  /// rib/list entries in canonical name order, ExpirationPeriod = time left.
  std::vector<RibEntryStatus> list() const;

private:
  struct StoredRoute
  {
    Route route;
    TimerId timer = 0;
  };
  struct Entry
  {
    std::vector<StoredRoute> routes;
    /// What this entry last installed in the FIB.
    std::map<face::FaceId, uint64_t> installed;
  };

  void scheduleExpiry(const Name& prefix, StoredRoute& sr, std::optional<Duration> expiration);
  /// Recomputes and applies the FIB for `prefix` and every RIB prefix below it.
  void updateSubtree(const Name& prefix);
  void applyFib(const Name& prefix, Entry& entry);
  void removeRoute(std::map<Name, Entry>::iterator it, size_t index);

  Env& m_env;
  FibUpdater& m_fib;
  RibOptions m_options;
  std::map<Name, Entry> m_entries; ///< canonical order: a prefix's subtree is contiguous after it
  size_t m_nRoutes = 0;
};

} // namespace ndnlab::mgmt
