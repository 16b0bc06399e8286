#pragma once
// The measuring parts of the real-time stream consumer (issue 29 item 1), after the paper
// (Gusev et al., "Real-Time Streaming Data Delivery over Named Data Networking",
// shared/papers/ndn-rtc-realtime-streaming.txt, Sect. 3.3 and 4.1.3) with NDN-RTC's code where
// the paper gives no number (shared/reference/mechanism-facts.md 3.3). Each departure from the
// paper is listed in docs/mechanisms/streaming.md. Pure state: times and delays are passed in.
//
// - Interest demand, Eq. (1): lambda_d = ceil(DRD_est / T), DRD_est = DRD' - d_gen.
// - DRD estimation: the effective data retrieval delay DRD' (Interest to Data) averaged over a
//   time window, Data from the producer (original) and from caches kept apart.
// - Latest-data detection, Eq. (3): the mean of the last N inter-arrival delays D_arr (m1) and of
//   the N before (m2); a sample is stable when D_arr has settled (|m1/m2 - 1| <= theta1) and
//   settled at the producer's sample period (1 - |m1 - T| / T >= theta2); the data is the latest
//   after K stable samples in a row. Parameter sets Low, Medium and High (Sect. 5.2.1).
// - Pipeline adjustments, Sect. 4.1.3: bursting lambda <- 2 lambda, withholding lambda <- 3/4 lambda.

#include "core/runtime/units.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

namespace ndnlab::stream {

/// Eq. (1): Interests to keep in flight so that Data arrive every sample period `period`:
/// ceil(drdEst / period), at least 1. `drdEst` = DRD' - d_gen (never below zero).
/// std::invalid_argument unless period > 0.
size_t interestDemand(Duration drdEst, Duration period);

/// Bursting (x2) and withholding (x3/4, at least 1) of the pipeline size.
size_t burst(size_t lambda);
size_t withhold(size_t lambda);

/// Effective DRD (Interest sent to Data received) averaged over the samples of the last
/// `window`, original Data and cached Data apart (a consumer behind a cache sees a shorter DRD'
/// that says nothing about the producer). Before any sample of a kind: `initial`.
class DrdEstimator
{
public:
  /// NDN-RTC's code: 150 ms before the first sample, a 200 ms window.
  explicit DrdEstimator(Duration window = std::chrono::milliseconds(200),
                        Duration initial = std::chrono::milliseconds(150));

  /// A Data arrived at `now`, `drd` after its Interest; `cached` = not from the producer (how
  /// the consumer tells is the stream engine's: NDN-RTC compares the segment's generation delay
  /// with the DRD).
  void add(TimePoint now, Duration drd, bool cached);
  /// Mean DRD' of the window ending at `now` (samples older than the window are dropped): of
  /// original Data, or of cached Data.
  Duration original(TimePoint now);
  Duration cached(TimePoint now);
  /// The latest mean over whichever kind last arrived (what the pipeline follows).
  Duration latest(TimePoint now);

private:
  struct Samples
  {
    std::deque<std::pair<TimePoint, Duration>> window;
    Duration sum{0};
    std::optional<Duration> last; ///< the mean when the window last held samples
  };
  Duration mean(Samples& s, TimePoint now);

  Duration m_window;
  Duration m_initial;
  Samples m_original, m_cached;
  bool m_lastCached = false;
};

/// Eq. (3)'s constants: attenuation coefficient theta1, similarity theta2, attenuation window N,
/// consecutive stable samples K.
struct StabilityParams
{
  double theta1;
  double theta2;
  size_t n;
  size_t k;

  /// Sect. 5.2.1: Low (0.6, 0.5, 3, 4), Medium (0.3, 0.7, 10, 4), High (0.1, 0.95, 30, 4).
  static StabilityParams low() { return {0.6, 0.5, 3, 4}; }
  static StabilityParams medium() { return {0.3, 0.7, 10, 4}; }
  static StabilityParams high() { return {0.1, 0.95, 30, 4}; }
  /// "low", "medium" or "high"; std::invalid_argument with the choices otherwise.
  static StabilityParams named(const std::string& name);
};

/// Latest-data detection (Eq. 3) over Data inter-arrival delays.
class StabilityEstimator
{
public:
  /// `period` = the producer's sample period T (> 0); std::invalid_argument for bad params.
  StabilityEstimator(StabilityParams params, Duration period);

  /// The next Data arrived `delta` after the previous one. Returns whether this sample was
  /// stable (false until 2N samples were seen).
  bool add(Duration delta);
  /// K stable samples in a row: the data arriving is the latest.
  bool latest() const { return m_run >= m_params.k; }
  /// A new sample period (the stream's rate changed); the samples are kept.
  void setPeriod(Duration period);
  /// Forgets the samples (after a pipeline change, the old pattern says nothing).
  void reset();
  size_t stableRun() const { return m_run; }

private:
  StabilityParams m_params;
  double m_period;             ///< seconds
  std::deque<double> m_deltas; ///< the last 2N, seconds
  size_t m_run = 0;
};

} // namespace ndnlab::stream
