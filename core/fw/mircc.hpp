#pragma once
// MIRCC's router side as pure state machines (issue 28, items 2 and 3): the per-upstream-face
// rate controller that computes the explicit rate R(t) stamped into Data, and the Interest
// shaper that releases Interests toward that face so the returning Data fits its capacity.
// Time is passed in; nothing here arms a timer. docs/mechanisms/mircc.md lists every equation
// with its source.
//
// Sources: Kato, Enda, Yamamoto, Ohzahata, "... Explicit Rate Report based Congestion Control
// under Coarse-grained Clock Management" (FedCSIS 2020, shared/papers/mircc-coarse-grained-
// clock.txt, "the paper"; Sec. II-C eq. (1)-(5), Sec. III-A, IV-A), whose equation images were
// lost, and the public mircc-1 implementation (nostalgicz/mircc-1, mircc-strategy.cpp; "the
// implementation"; shared/reference/mechanism-facts.md 1.3), which gives their form. Where
// the two disagree the paper's words are the default, the implementation's choice an option.

#include "core/runtime/events.hpp"
#include "core/runtime/units.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ndnlab::fw {

/// Every knob of MIRCC on one upstream face. Rates in bit/s (Rate), sizes in Bytes.
struct MirccOptions
{
  /// Router interval T: R(t) is recomputed once per T (paper Sec. III-A; 100 ms in the
  /// implementation; the paper's coarse clock sets it to 100-750 ms).
  Duration interval = 100ms;
  /// EWMA weight a of the previous base and excess rates: x <- a*x + (1-a)*x*. Paper: 0.5;
  /// the implementation: 0.8.
  double ewmaWeight = 0.5;
  /// eta: the share of the capacity the rates fill (eta*C). Paper: 1; the implementation's
  /// C = 0.99 x link rate is eta = 0.99.
  double eta = 1.0;
  /// beta: gain of the queue term beta*g(t)/d of the base rate (eq. 2). The paper gives no
  /// value; the implementation's beta0 = 0.1.
  double beta = 0.1;
  /// Dynamic beta (the implementation's eq. 3 analogue): beta(t) = max(beta, (y(t)-y(t-T))/y(t))
  /// while y grows, else beta. Off: beta is constant.
  bool dynamicBeta = false;
  /// Weight of a new Interest-to-Data delay sample in the smoothed delay d:
  /// d <- (1-g)*d + g*sample. The paper gives none; the implementation's 0.3.
  double delayGain = 0.3;
  /// d before the first sample (the implementation's 30 ms).
  Duration initialDelay = 30ms;
  /// R(0) as a share of eta*C (the rate stamped before the first update).
  double initialShare = 1.0;
  /// C: the face's capacity. No default: the host sets the link's rate (a face option in the
  /// daemon, the device's DataRate in ns-3). Must be positive.
  Rate capacity;
  /// Size of one Data, turning Interest counts into expected Data bits: y(t) and g(t) are
  /// counts x dataSize, and the shaper releases one Interest per dataSize/C. Paper: 1,250-byte
  /// Data (10,000 bits); the implementation: 8,696 bits.
  size_t dataSize = 1250; ///< bytes
  /// dataSize as a size.
  Bytes dataBytes() const { return Bytes(dataSize); }
  /// Floor of R(t) and of R(t-T) in the flow count: one 1,250-byte Data per second (the
  /// implementation's consumer floor of one packet per second).
  Rate minRate = Rate::kbps(10);
  /// Depth of the Interest shaper, in Interests (paper Sec. IV-A: 200 at consumers and routers;
  /// the implementation: 10).
  size_t shaperDepth = 200;
  /// How a router steps the controller: false, a timer every T (the paper); true, the first
  /// Interest or Data of the face once T has elapsed (issue 28, 8(b): no timer of its own; an
  /// idle face then keeps its rate until traffic returns).
  bool updateOnArrival = false;
  /// Beyond the paper (issue 28 8(a)): stamp R(t) x max(1 - g/depth, 1/2), the share of the
  /// shaper still free, so that a filling shaper lowers the rate consumers hear before the next
  /// update.
  bool queueStamping = false;
  /// Beyond the paper (issue 28 8(a)): the shaper holds at least this long of Interests at the
  /// face's capacity, depth = max(shaperDepth, shaperHold x C / dataSize). A coarse clock sends
  /// a whole tick of Interests at once, and a shaper that holds less than a tick drops the rest:
  /// hold = the tick sizes it for the clock. Zero: shaperDepth alone (the paper).
  Duration shaperHold = Duration::zero();

  /// The shaper depth of a face of `capacity`: shaperDepth, or more to hold shaperHold.
  size_t shaperDepthFor(Rate capacity) const;

  /// Throws std::invalid_argument when a value is out of range.
  void validate() const;
};

/// The rate controller of one upstream face: every T it turns the Interests forwarded toward the
/// face (y), its shaper's backlog (g) and the smoothed Interest-to-Data delay (d) into the rate
/// R(t) a flow through the face may send at. Stepped by its caller: a timer every T, or the
/// packets that arrive once T has elapsed (issue 28, 8(b)).
class MirccRateController
{
public:
  /// Validates `opts` (std::invalid_argument); `start` begins the first interval.
  MirccRateController(const MirccOptions& opts, TimePoint start);

  /// An Interest was forwarded toward this face (offered to its shaper, whether the shaper then
  /// takes or drops it): it counts toward y(t), the Data expected back (paper: y(t) = received
  /// Interests / T).
  void onInterestForwarded(TimePoint now);
  /// A Data came back from this face `sample` after its Interest left: updates d. Negative
  /// samples are ignored.
  void onDataDelay(Duration sample);

  /// Runs the update if T has elapsed since the last one (or since `start`); `queuedInterests`
  /// is g(t), the face's shaper backlog. Returns whether it ran. y(t) is the Interests counted
  /// since the last update over the time actually elapsed (T when called on time).
  bool update(TimePoint now, size_t queuedInterests);
  /// When the next update falls due.
  TimePoint nextUpdateTime() const { return m_lastUpdate + m_opts.interval; }

  /// The face's capacity changed (a new link rate): later updates use it; R is clamped to it.
  /// Throws std::invalid_argument when not positive.
  void setCapacity(Rate capacity);

  /// R(t) = base + excess, in [minRate, eta*C]: the rate stamped into Data from this face.
  Rate rate() const { return Rate::bitsPerSecond(m_rate); }
  Rate baseRate() const { return Rate::bitsPerSecond(m_base); }
  Rate excessRate() const { return Rate::bitsPerSecond(m_excess); }
  /// N(t) of the last update (1 before the first).
  double flowCount() const { return m_flows; }
  /// y(t) of the last update: expected returning Data.
  Rate arrivalRate() const { return Rate::bitsPerSecond(m_y); }
  /// The smoothed Interest-to-Data delay d.
  Duration smoothedDelay() const { return m_delay; }
  Rate capacity() const { return m_opts.capacity; }
  const MirccOptions& options() const { return m_opts; }
  /// Updates run so far.
  uint64_t updates() const { return m_updates; }

private:
  MirccOptions m_opts;
  TimePoint m_lastUpdate;
  uint64_t m_interests = 0; ///< forwarded since m_lastUpdate
  Duration m_delay;         ///< d
  // rates in bit/s (double inside; the interface is Rate)
  double m_rate;      ///< R(t-T) until the next update
  double m_base;      ///< EWMA of base_rate
  double m_excess;    ///< EWMA of excess_rate
  double m_y = 0;     ///< y of the last update, y(t-T) in the dynamic beta
  double m_flows = 1; ///< N of the last update
  uint64_t m_updates = 0;
};

/// A per-face leaky bucket of Interests: at most `depth` wait; the head leaves one dataSize/rate
/// after the previous one left, and never before it arrived, so an idle face banks no burst. A
/// caller that looks late (a coarse clock) gets every Interest that fell due since, at once.
/// The paper calls it a token bucket of depth 200 (Sec. IV-A); its depth is the queue's.
/// `T` is whatever the caller queues (an Interest and its face, an index).
template<typename T>
class InterestShaper
{
public:
  enum class Verdict : uint8_t {
    Accepted,
    Dropped, ///< the shaper was full: DropReason::ShaperFull
  };

  struct Counters
  {
    uint64_t nAccepted = 0;
    uint64_t nReleased = 0;
    uint64_t nDropped = 0; ///< shaper_full
  };

  /// `depth` >= 1 Interests; `rate` > 0: one Interest per dataSize/rate (the rate whose
  /// returning Data fits C: pass the face's capacity). Throws std::invalid_argument otherwise.
  InterestShaper(size_t depth, Bytes dataSize, Rate rate);

  /// Queues `item` that arrived at `now` (times must not go backwards), or drops it when
  /// `depth` wait already.
  Verdict enqueue(TimePoint now, T item);
  /// Removes and returns, in arrival order, every item whose release time is at or before `now`.
  std::vector<T> releaseDue(TimePoint now);
  /// When the head may leave; nullopt when empty.
  std::optional<TimePoint> nextReleaseTime() const;
  /// Interests waiting: g(t).
  size_t size() const { return m_queue.size(); }
  bool empty() const { return m_queue.empty(); }

  /// A new release rate (> 0; std::invalid_argument otherwise): the next Interest leaves one
  /// new interval after the previous one.
  void setRate(Rate rate);
  /// A new depth (>= 1; std::invalid_argument otherwise). Interests already queued stay, even
  /// beyond it; new ones are dropped until the queue is below it.
  void setDepth(size_t depth);
  size_t depth() const { return m_depth; }
  Duration releaseInterval() const { return m_interval; }
  const Counters& counters() const { return m_counters; }

  /// Reason of every drop, for the caller's trace event.
  static constexpr DropReason dropReason = DropReason::ShaperFull;

private:
  /// One interval after the previous release, never before the head arrived.
  TimePoint headReleaseTime() const
  {
    const TimePoint arrived = m_queue.front().first;
    return m_lastRelease ? std::max(*m_lastRelease + m_interval, arrived) : arrived;
  }

  size_t m_depth;
  Bytes m_dataSize;
  Duration m_interval;
  std::optional<TimePoint> m_lastRelease; ///< when the previous Interest left
  std::deque<std::pair<TimePoint, T>> m_queue;
  Counters m_counters;
};

/// Throws std::invalid_argument unless depth >= 1 and dataSize/rate is a positive duration.
Duration shaperInterval(size_t depth, Bytes dataSize, Rate rate);

template<typename T>
InterestShaper<T>::InterestShaper(size_t depth, Bytes dataSize, Rate rate)
  : m_depth(depth), m_dataSize(dataSize), m_interval(shaperInterval(depth, dataSize, rate))
{}

template<typename T>
typename InterestShaper<T>::Verdict InterestShaper<T>::enqueue(TimePoint now, T item)
{
  if (m_queue.size() >= m_depth) {
    ++m_counters.nDropped;
    return Verdict::Dropped;
  }
  m_queue.emplace_back(now, std::move(item));
  ++m_counters.nAccepted;
  return Verdict::Accepted;
}

template<typename T>
std::vector<T> InterestShaper<T>::releaseDue(TimePoint now)
{
  std::vector<T> out;
  while (!m_queue.empty()) {
    const TimePoint at = headReleaseTime();
    if (at > now)
      break;
    out.push_back(std::move(m_queue.front().second));
    m_queue.pop_front();
    m_lastRelease = at;
  }
  m_counters.nReleased += out.size();
  return out;
}

template<typename T>
std::optional<TimePoint> InterestShaper<T>::nextReleaseTime() const
{
  if (m_queue.empty())
    return std::nullopt;
  return headReleaseTime();
}

template<typename T>
void InterestShaper<T>::setRate(Rate rate)
{
  m_interval = shaperInterval(m_depth, m_dataSize, rate);
}

template<typename T>
void InterestShaper<T>::setDepth(size_t depth)
{
  if (depth == 0)
    throw std::invalid_argument("shaper depth must be at least 1");
  m_depth = depth;
}

} // namespace ndnlab::fw
