#pragma once
// Retransmission timeout estimator (RFC 6298 with a configurable variance multiplier k),
// with the sample weighting of ndncatchunks and min/avg/max statistics.
//
//   first sample R:   SRTT = R, RTTVAR = R/2
//   later samples:    RTTVAR = (1-b)*RTTVAR + b*|SRTT-R|,  SRTT = (1-a)*SRTT + a*R
//                     with a = alpha/n, b = beta/n for n expected samples per RTT
//   RTO = clamp(SRTT + k*RTTVAR, minRto, maxRto);  backoff: RTO = clamp(RTO*multiplier, ...)
//
// k is the BLEnD paper's gamma. Pure state: no clock, no timers.

#include "core/runtime/units.hpp"

#include <cstddef>
#include <cstdint>

namespace ndnlab::cc {

struct RttEstimatorOptions
{
  double alpha = 0.125;                             ///< SRTT gain (RFC 6298 alpha)
  double beta = 0.25;                               ///< RTTVAR gain (RFC 6298 beta)
  double k = 8;                                     ///< RTO = SRTT + k*RTTVAR; ndncatchunks 8, RFC 6298 4 (BLEnD gamma)
  Duration initialRto = std::chrono::seconds(1);    ///< RTO before the first sample
  Duration minRto = std::chrono::milliseconds(200); ///< lower clamp of the RTO
  Duration maxRto = std::chrono::seconds(60);       ///< upper clamp of the RTO
  double backoffMultiplier = 2;                     ///< RTO multiplier on each backoff

  /// Throws std::invalid_argument when a value is out of range (gains in (0,1], k >= 0,
  /// 0 < minRto <= maxRto, multiplier >= 1). initialRto is clamped to [minRto, maxRto].
  void validate() const;
};

class RttEstimator
{
public:
  using Options = RttEstimatorOptions;

  explicit RttEstimator(Options opts = {});

  /// Adds one RTT sample. `nExpectedSamples` (>= 1) divides the gains, so a window of samples
  /// per RTT moves the estimate about as much as one sample would (ndncatchunks uses
  /// max((inFlight+1)/2, 1)).
  void addMeasurement(Duration rtt, size_t nExpectedSamples = 1);
  /// Multiplies the RTO by the backoff multiplier, clamped to [minRto, maxRto].
  void backoffRto();
  /// Backoffs since the last sample (a sample recomputes the RTO from SRTT and RTTVAR).
  unsigned backoffsSinceSample() const { return m_backoffs; }

  Duration rto() const { return m_rto; }
  /// Smoothed RTT; zero before the first sample.
  Duration srtt() const { return m_srtt; }
  Duration rttVar() const { return m_rttVar; }
  bool hasSamples() const { return m_nSamples > 0; }

  // statistics over every sample added
  uint64_t sampleCount() const { return m_nSamples; }
  /// Zero before the first sample.
  Duration minRtt() const { return m_nSamples ? m_min : Duration::zero(); }
  Duration maxRtt() const { return m_max; }
  Duration avgRtt() const;

  const Options& options() const { return m_opts; }

private:
  Duration clampRto(double ns) const;

  Options m_opts;
  Duration m_srtt{0};
  Duration m_rttVar{0};
  Duration m_rto;
  uint64_t m_nSamples = 0;
  unsigned m_backoffs = 0;
  Duration m_min = Duration::max();
  Duration m_max{0};
  double m_sumNs = 0;
};

} // namespace ndnlab::cc
