#pragma once
// Admission of on-demand stream faces (TCP, Unix): at most `maxFaces` at once on a channel and
// at most `maxFacesPerAddress` from one remote address. A connection that would pass either
// bound is refused (closed at once), counted with its reason and logged at most once per
// `logInterval`, never per connection: one host that can reach the port must not make the
// daemon hold thousands of faces (docs/daemon.md "Limits").
//
// admit() hands out a ticket that the accepted transport holds for its lifetime; the face's end
// gives its places back. Tickets may outlive the admission object.

#include "core/runtime/env.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <optional>
#include <unordered_map>

namespace ndnlab::io {

struct FaceLimits
{
  size_t maxFaces = 0;           ///< faces of the channel at once; 0 = no bound
  size_t maxFacesPerAddress = 0; ///< faces from one remote address at once; 0 = no bound
};

struct AdmissionCounters
{
  uint64_t nTooManyFaces = 0;           ///< "too_many_faces": maxFaces reached
  uint64_t nTooManyFacesPerAddress = 0; ///< "too_many_faces_per_address"
};

class FaceAdmission
{
public:
  using Ticket = std::shared_ptr<void>;

  /// `what` names the channel in log lines ("tcp4://0.0.0.0:6363").
  FaceAdmission(Env& env, FaceLimits limits, std::string what);

  /// A ticket for one more face from `address` (empty for Unix sockets), or null when a bound
  /// is reached: then the refusal is counted, traced as an io_drop and logged (rate-limited).
  Ticket admit(const std::string& address);

  size_t faces() const { return m_state->total; }
  size_t facesFrom(const std::string& address) const;
  const AdmissionCounters& counters() const { return m_counters; }
  const FaceLimits& limits() const { return m_state->limits; }

  /// At most one log line per this interval about refusals (with the count since the last).
  static constexpr Duration LogInterval = std::chrono::seconds(10);

private:
  struct State
  {
    FaceLimits limits;
    size_t total = 0;
    std::unordered_map<std::string, size_t> perAddress;
  };
  void refuse(DropReason reason, const std::string& address);

  Env& m_env;
  std::string m_what;
  std::shared_ptr<State> m_state;
  AdmissionCounters m_counters;
  TimePoint m_lastLog{};
  bool m_logged = false;
  uint64_t m_unlogged = 0; ///< refusals since the last log line
};

} // namespace ndnlab::io
