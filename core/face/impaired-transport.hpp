#pragma once
// ImpairedTransport: a Transport decorator that owns another Transport and impairs its EGRESS
// the way `tc netem` (loss, delay, jitter) plus `tbf` (rate, bounded drop-tail queue) would,
// for hosts whose kernel has no sch_netem. Sans-I/O: time comes only from env.timers(),
// randomness only from env.rng(), so a seeded Env replays the same losses and delays.
//
// Egress, per frame handed to send():
//   1. loss: dropped with probability `loss` (counter nLost, trace "impair_drop"/"loss");
//   2. rate (when non-zero): serialized after the frames already queued; a frame that would
//      take the backlog above `queueCapacity` is dropped (nQueueDropped, "queue_full");
//   3. delay + uniform jitter in [0, jitter): the frame reaches the inner transport after its
//      serialization end plus that delay. Like netem, jitter may reorder frames.
// A frame with nothing to wait for goes to the inner transport synchronously.
//
// Pass-through: received frames, state changes, MTU, scope, link type, medium and URIs come
// from the inner transport; persistency is copied at construction and by syncFromInner().
// sendQueueLength() = the inner transport's queue + the rate-limiter backlog (bytes not yet
// serialized), so congestion marking sees a rate bottleneck but not pure propagation delay.
// Frames still held when the transport closes or is destroyed are discarded.

#include "core/face/transport.hpp"
#include "core/runtime/env.hpp"

#include <deque>
#include <memory>
#include <queue>
#include <vector>

namespace ndnlab::face {

/// Egress impairment of one transport. The defaults impair nothing.
struct ImpairmentOptions
{
  /// Probability in [0, 1] that a frame is dropped before anything else.
  double loss = 0.0;
  /// Fixed delay added to every frame (after serialization when `rate` is set).
  Duration delay = Duration::zero();
  /// Extra delay drawn uniformly from [0, jitter) per frame.
  Duration jitter = Duration::zero();
  /// Serialization rate; zero = unlimited.
  Rate rate;
  /// Bound of the rate limiter's backlog (bytes waiting for serialization); drop-tail beyond.
  Bytes queueCapacity = 256_KiB;

  /// True when any impairment is configured.
  bool enabled() const { return loss > 0 || delay > Duration::zero() || jitter > Duration::zero() || rate.bps() > 0; }
  /// Throws std::invalid_argument naming the first invalid field.
  void validate() const;
};

class ImpairedTransport final : public Transport
{
public:
  struct ImpairmentCounters
  {
    uint64_t nLost = 0;         ///< "loss": dropped by the random loss draw
    uint64_t nQueueDropped = 0; ///< queue_full: rate limiter backlog above queueCapacity
    uint64_t nDelayed = 0;      ///< frames held for a delay, jitter or serialization > 0
    uint64_t nDiscarded = 0;    ///< held frames discarded because the transport closed
  };

  /// Takes ownership of `inner`. Throws std::invalid_argument on invalid options.
  ImpairedTransport(Env& env, std::unique_ptr<Transport> inner, ImpairmentOptions options);
  ~ImpairedTransport() override;

  void close() override;
  size_t sendQueueLength() const override;
  size_t receiveQueueLength() const override { return m_inner->receiveQueueLength(); }

  Transport& inner() { return *m_inner; }
  const Transport& inner() const { return *m_inner; }
  const ImpairmentOptions& options() const { return m_options; }
  const ImpairmentCounters& impairmentCounters() const { return m_impairCounters; }
  /// Frames currently held (delayed or queued for serialization).
  size_t heldFrames() const { return m_held.size(); }
  /// Copies MTU and persistency from the inner transport (after e.g. a persistency upgrade).
  void syncFromInner();
  /// FaceId reported in trace events.
  void setTraceFaceId(FaceId id) { m_traceFaceId = id; }

  /// `inner` if `t` is an ImpairedTransport, else `t` itself.
  static const Transport& unwrap(const Transport& t);
  static Transport& unwrap(Transport& t);

protected:
  void doSend(SharedBuffer frame, EndpointId endpoint) override;

private:
  struct Held
  {
    TimePoint due;
    uint64_t seq; ///< ties broken by send order
    SharedBuffer frame;
    EndpointId endpoint;
  };
  struct Later
  {
    bool operator()(const Held& a, const Held& b) const { return a.due != b.due ? a.due > b.due : a.seq > b.seq; }
  };

  void drop(uint64_t& counter, DropReason reason, size_t octets);
  /// Bytes of the rate limiter's backlog at `now` (forgets frames already serialized).
  size_t backlog(TimePoint now) const;
  void onInnerStateChange(TransportState newState);
  void arm();
  void release();
  void discardHeld();

  Env& m_env;
  std::unique_ptr<Transport> m_inner;
  ImpairmentOptions m_options;
  ImpairmentCounters m_impairCounters;
  FaceId m_traceFaceId = InvalidFaceId;

  std::priority_queue<Held, std::vector<Held>, Later> m_held;
  uint64_t m_nextSeq = 0;
  TimerId m_timer = 0;
  TimePoint m_timerDue = TimePoint::max();
  /// Rate limiter: (serialization end, bytes) of frames not yet serialized, in send order.
  mutable std::deque<std::pair<TimePoint, size_t>> m_serializing;
  mutable size_t m_backlogBytes = 0;
  TimePoint m_busyUntil{};
  /// Expires when this transport is destroyed (checked after calls that may destroy it).
  std::shared_ptr<char> m_alive = std::make_shared<char>(0);
};

} // namespace ndnlab::face
