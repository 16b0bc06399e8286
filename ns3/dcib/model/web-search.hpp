#pragma once
// Flow sizes of the web-search workload (DCTCP, Alizadeh et al. 2010) as used by the paper's
// FCT experiment (section IV-D). The CDF is the one of alibaba-edu/High-Precision-Congestion-
// Control traffic_gen/WebSearch_distribution.txt (the same curve as HomaSimulation's
// DCTCP_MsgSizeDist_Original in packets), sampled by inverse transform with piecewise-linear
// interpolation between the points, as both tools do. Sizes in bytes (1 KB = 1000 B).

#include <cstdint>
#include <utility>
#include <vector>

namespace ndnlab::dcib {

class WebSearchWorkload
{
public:
  /// (size in bytes, cumulative probability), increasing in both, ending at probability 1.
  static const std::vector<std::pair<double, double>>& cdf();

  /// The size for a uniform sample `u` in [0, 1): at least 1 byte.
  static uint64_t sample(double u);
  /// Mean flow size of the piecewise-linear distribution, bytes.
  static double meanBytes();
  /// Poisson arrival rate (flows per second) loading a link of `bitsPerSecond` to `load`.
  static double arrivalRate(double load, double bitsPerSecond);
};

} // namespace ndnlab::dcib
