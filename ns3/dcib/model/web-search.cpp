#include "ns3/dcib/model/web-search.hpp"

#include <algorithm>
#include <cmath>

namespace ndnlab::dcib {

const std::vector<std::pair<double, double>>& WebSearchWorkload::cdf()
{
  static const std::vector<std::pair<double, double>> points{
    {0, 0.0},      {10e3, 0.15}, {20e3, 0.20}, {30e3, 0.30}, {50e3, 0.40}, {80e3, 0.53},
    {200e3, 0.60}, {1e6, 0.70},  {2e6, 0.80},  {5e6, 0.90},  {10e6, 0.97}, {30e6, 1.00},
  };
  return points;
}

uint64_t WebSearchWorkload::sample(double u)
{
  const auto& c = cdf();
  u = std::clamp(u, 0.0, 1.0);
  for (size_t i = 1; i < c.size(); ++i) {
    if (u <= c[i].second) {
      double span = c[i].second - c[i - 1].second;
      double f = span > 0 ? (u - c[i - 1].second) / span : 1.0;
      double bytes = c[i - 1].first + f * (c[i].first - c[i - 1].first);
      return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(bytes)));
    }
  }
  return static_cast<uint64_t>(c.back().first);
}

double WebSearchWorkload::meanBytes()
{
  const auto& c = cdf();
  double mean = 0;
  for (size_t i = 1; i < c.size(); ++i)
    mean += (c[i].second - c[i - 1].second) * (c[i].first + c[i - 1].first) / 2;
  return mean;
}

double WebSearchWorkload::arrivalRate(double load, double bitsPerSecond)
{
  return load * bitsPerSecond / (meanBytes() * 8.0);
}

} // namespace ndnlab::dcib
