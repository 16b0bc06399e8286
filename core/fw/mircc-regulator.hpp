#pragma once
// MIRCC's router side installed in a forwarder (issue 28, items 2 and 3;
// docs/mechanisms/mircc.md): for every upstream face on which it is enabled, a
// fw::MirccRateController computes R_f, the rate stamped into Data and Nacks that come back
// through the face, and a fw::InterestShaper releases the Interests forwarded toward the face at
// the rate whose returning Data fits the face's capacity C.
//
// The regulator owns the per-face state and its timers (through the Env); the forwarder calls
// it from its pipelines: offer() from the outgoing Interest pipeline, onDataDelay() from the
// incoming Data pipeline, rate() when stamping. Interests released later leave through the
// `send` callback the forwarder passes in.
//
// R_f is recomputed once per T (MirccOptions::interval): by a timer every T (the paper's
// router), or, with MirccOptions::updateOnArrival, by the first Interest or Data of the face
// once T has elapsed (issue 28, 8(b): no timer of its own).

#include "core/fw/mircc.hpp"
#include "core/codec/interest.hpp"
#include "core/face/face.hpp"
#include "core/runtime/env.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace ndnlab::fw {

class MirccRegulator
{
public:
  /// Sends a released Interest toward a face (the forwarder's egress); the face may be gone.
  using SendInterest = std::function<void(face::FaceId, const Interest&)>;

  enum class Offer : uint8_t {
    NotRegulated, ///< the face is not enabled: nothing was done, the caller sends it
    Sent,         ///< left at once (the shaper was idle)
    Queued,       ///< waits in the face's shaper; `send` gets it when it falls due
    Dropped,      ///< the face's shaper was full (DropReason::ShaperFull)
  };

  /// Per-face knobs come from `options` (its `capacity` is ignored: each face has its own).
  MirccRegulator(Env& env, fw::MirccOptions options, SendInterest send);
  ~MirccRegulator();
  MirccRegulator(const MirccRegulator&) = delete;
  MirccRegulator& operator=(const MirccRegulator&) = delete;

  /// Rate control on upstream face `face`, whose returning Data crosses a link of `capacity`.
  /// On an enabled face: a new capacity, the rate and queue kept. Throws std::invalid_argument
  /// when the capacity is not positive or below the minimum rate.
  void enable(face::FaceId face, Rate capacity);
  /// Rate control off for `face`: queued Interests are discarded (counted as dropped).
  void disable(face::FaceId face);
  bool enabled(face::FaceId face) const { return m_faces.contains(face); }

  /// An Interest forwarded toward enabled face `face`: counted in y(t), and sent at once
  /// (through `send`), queued or dropped by the face's shaper.
  Offer offer(face::FaceId face, const Interest& interest);
  /// A Data came back from `face` `delay` after its Interest was forwarded.
  void onDataDelay(face::FaceId face, Duration delay);

  /// R_f, or nullopt when `face` is not enabled.
  std::optional<Rate> rate(face::FaceId face) const;
  /// The face's controller and shaper backlog (statistics, tests); nullptr / 0 when not enabled.
  const fw::MirccRateController* controller(face::FaceId face) const;
  size_t backlog(face::FaceId face) const;
  const fw::InterestShaper<Interest>::Counters* shaperCounters(face::FaceId face) const;

  const fw::MirccOptions& options() const { return m_options; }

private:
  struct FaceState;

  /// Runs the update when it is due; re-arms the update timer unless updates ride on arrivals.
  void maybeUpdate(FaceState& s);
  void armUpdateTimer(face::FaceId id, FaceState& s);
  /// Sends every Interest due now and arms the release timer for the next one.
  void release(face::FaceId id, FaceState& s);

  Env& m_env;
  fw::MirccOptions m_options;
  SendInterest m_send;
  std::map<face::FaceId, std::unique_ptr<FaceState>> m_faces;
};

} // namespace ndnlab::fw
