#pragma once
// The DCIB experiments of the paper (section IV) as ndnlab-sim scenarios: one topology (N
// senders - A - DCI - B - N receivers), long-lived flows (IV-A..C) or web-search flows with
// Poisson arrivals (IV-D), with and without DCIB. Parameters, metrics and trace files are
// listed in docs/mechanisms/dcib.md.

#include "ns3/runner/run-context.hpp"

#include <string>
#include <vector>

namespace ndnlab::dcib::scenarios {

/// Scenario-specific defaults of the shared parameter list.
struct Defaults
{
  std::string tcp = "cubic";
  std::string wanLoss = "cooperative";
  double lossRate = 0.05;
  std::string mode = "stalled";
  double edgeBufferMb = 2.0;
  double rttMs = 0; ///< 0: from DciDelay
  double durationS = 2.0;
  double warmupS = 0.5;
};

std::vector<runner::ParamSpec> longFlowParams(const Defaults& d);
std::vector<runner::ParamSpec> webSearchParams(const Defaults& d);

/// Long-lived flows; throughput metrics.
void runLongFlows(runner::RunContext& ctx);
/// Web-search flows, Poisson arrivals; flow completion time metrics.
void runWebSearch(runner::RunContext& ctx);

} // namespace ndnlab::dcib::scenarios
