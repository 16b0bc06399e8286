#pragma once
// Consumer congestion windows as pure state machines: each event carries its time, nothing
// reads a clock. The algorithms are registered under one name used everywhere (CLI flags,
// config keys, ns-3 attributes, result files): "fixed", "aimd", "cubic".
//
// Semantics and defaults follow ndncatchunks (ndn-tools tools/chunks/catchunks,
// pipeline-interests-{aimd,cubic}.cpp); see docs/tools.md and ndn-spec-facts.md section 5.

#include "core/runtime/units.hpp"

#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ndnlab::cc {

struct AimdOptions
{
  double step = 1.0;        ///< additive increase per RTT in congestion avoidance (segments)
  double beta = 0.5;        ///< multiplicative decrease coefficient (ssthresh = cwnd*beta)
  bool resetToInit = false; ///< on decrease, reset cwnd to initCwnd instead of ssthresh
  /// Floor of ssthresh on a decrease (ndncatchunks' MIN_SSTHRESH 2; ndnSIM's ConsumerPcon
  /// lets the window fall to its initial window, 1 by default).
  double minSsthresh = 2.0;
  /// Congestion avoidance adds step / floor(cwnd) per Data (ndncatchunks); false: step / cwnd
  /// (ndnSIM's ConsumerPcon).
  bool floorIncrease = true;
};

struct CubicOptions
{
  double beta = 0.7;            ///< window reduction factor on a congestion event
  double c = 0.4;               ///< CUBIC scaling constant C (RFC 8312); a constant in ndncatchunks
  bool fastConvergence = false; ///< release bandwidth faster when wmax shrinks (RFC 8312 4.6)
  /// Grow at least as fast as Reno would (RFC 8312 4.2, W_est; ndncatchunks). ndnSIM's
  /// ConsumerPcon has it disabled: after a decrease its window only follows the cubic curve.
  bool tcpFriendly = true;
};

/// Every knob of every window algorithm; each algorithm reads the fields it needs.
struct WindowOptions
{
  double initCwnd = 2.0;                                         ///< initial window (segments), adaptive
  double initSsthresh = std::numeric_limits<double>::infinity(); ///< initial slow-start threshold
  double fixedSize = 1;                                          ///< window of "fixed" (segments)
  AimdOptions aimd;                                              ///< "aimd" parameters
  CubicOptions cubic;                                            ///< "cubic" parameters

  /// Throws std::invalid_argument when a value is out of range.
  void validate() const;
};

/// Window event kinds, for callers that dispatch generically (see CongestionWindow::onEvent).
enum class WindowEvent : uint8_t {
  Ack,        ///< an unmarked Data arrived (or a marked one while marks are ignored): grow
  Congestion, ///< a loss or congestion-mark event that passed window adaptation: shrink
};

/// A congestion window, in segments (may be fractional; senders use floor(cwnd)).
class CongestionWindow
{
public:
  virtual ~CongestionWindow() = default;

  /// The registered name ("fixed", "aimd", "cubic").
  virtual std::string_view algorithm() const = 0;
  /// False for windows that never change (fixed): the consumer then retries on Interest
  /// lifetime expiry only, without RTO or loss events.
  virtual bool isAdaptive() const { return true; }

  double cwnd() const { return m_cwnd; }
  double ssthresh() const { return m_ssthresh; }

  /// Grows the window for one acknowledged segment. `srtt` is the consumer's smoothed RTT
  /// (zero before the first sample), used by CUBIC's TCP-friendly estimate.
  virtual void increase(TimePoint now, Duration srtt) = 0;
  /// Shrinks the window for one congestion event.
  virtual void decrease(TimePoint now) = 0;
  /// Ends slow start without a decrease (HyStart++): ssthresh = cwnd, congestion avoidance
  /// from `now` on.
  virtual void exitSlowStart(TimePoint /*now*/) { m_ssthresh = m_cwnd; }

  void onEvent(WindowEvent e, TimePoint now, Duration srtt)
  {
    if (e == WindowEvent::Ack)
      increase(now, srtt);
    else
      decrease(now);
  }

protected:
  CongestionWindow(double cwnd, double ssthresh) : m_cwnd(cwnd), m_ssthresh(ssthresh) {}

  double m_cwnd;
  double m_ssthresh;
};

/// Constant window of WindowOptions::fixedSize segments.
class FixedWindow final : public CongestionWindow
{
public:
  explicit FixedWindow(const WindowOptions& o) : CongestionWindow(o.fixedSize, o.fixedSize) {}
  std::string_view algorithm() const override { return "fixed"; }
  bool isAdaptive() const override { return false; }
  void increase(TimePoint, Duration) override {}
  void decrease(TimePoint) override {}
};

/// AIMD as in ndncatchunks: slow start adds `step` per Data below ssthresh, congestion
/// avoidance adds step/floor(cwnd); a decrease sets ssthresh = max(2, cwnd*beta) and
/// cwnd = ssthresh (or initCwnd with resetToInit).
class AimdWindow final : public CongestionWindow
{
public:
  explicit AimdWindow(const WindowOptions& o);
  std::string_view algorithm() const override { return "aimd"; }
  void increase(TimePoint now, Duration srtt) override;
  void decrease(TimePoint now) override;

private:
  double m_initCwnd;
  AimdOptions m_opts;
};

/// CUBIC as in ndncatchunks (RFC 8312 window growth with W_est, increment clamped at 0):
/// slow start adds 1 per Data below ssthresh; in congestion avoidance
///   K = cbrt(wmax*(1-beta)/C), W_cubic = C*(t-K)^3 + wmax,
///   W_est = wmax*beta + 3(1-beta)/(1+beta) * t/SRTT,
///   cwnd += max(0, max(W_cubic, W_est) - cwnd) / cwnd
/// with t = seconds since the last decrease (or since construction). A decrease sets
/// wmax (fast convergence: cwnd*(1+beta)/2 when cwnd < last wmax), ssthresh =
/// max(initCwnd, cwnd*beta), cwnd = ssthresh. W_est is skipped while SRTT is zero
/// (ndncatchunks would divide by zero there).
class CubicWindow final : public CongestionWindow
{
public:
  CubicWindow(const WindowOptions& o, TimePoint start);
  std::string_view algorithm() const override { return "cubic"; }
  void increase(TimePoint now, Duration srtt) override;
  void decrease(TimePoint now) override;
  /// Also starts a CUBIC epoch at `now` with wmax = cwnd (growth plateaus there first).
  void exitSlowStart(TimePoint now) override;

  double wmax() const { return m_wmax; }
  double lastWmax() const { return m_lastWmax; }

private:
  double m_initCwnd;
  CubicOptions m_opts;
  double m_wmax = 0;
  double m_lastWmax = 0;
  TimePoint m_lastDecrease;
};

/// Registered algorithm names, in display order.
const std::vector<std::string>& windowAlgorithms();
/// True if `name` is registered.
bool isWindowAlgorithm(std::string_view name);
/// Creates the window named `name`; throws std::invalid_argument for an unknown name (the
/// message lists the registered ones) or invalid options. `now` starts CUBIC's epoch.
std::unique_ptr<CongestionWindow> makeWindow(std::string_view name, const WindowOptions& opts, TimePoint now);

} // namespace ndnlab::cc
