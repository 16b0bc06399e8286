// Registration of the DCIB scenarios with ndnlab-sim (paper section IV-A..D).
#include "ns3/dcib/scenarios/dci-experiment.hpp"

namespace ndnlab::dcib::scenarios {
namespace {

using runner::Registration;
using runner::Scenario;

Defaults artificialLoss()
{
  Defaults d;
  d.tcp = "reno";
  d.wanLoss = "cooperative";
  d.lossRate = 0.05;
  return d;
}

Defaults noLoss()
{
  Defaults d;
  d.tcp = "cubic";
  d.wanLoss = "none";
  d.lossRate = 0.0;
  return d;
}

Defaults limitedBuffer()
{
  Defaults d;
  d.tcp = "cubic";
  d.wanLoss = "cooperative";
  d.lossRate = 0.05;
  d.mode = "lowprio";
  d.rttMs = 20;
  return d;
}

Defaults fct()
{
  Defaults d;
  d.tcp = "cubic";
  d.wanLoss = "cooperative";
  d.lossRate = 0.05;
  d.mode = "lowprio";
  d.durationS = 10;
  return d;
}

const Registration a{Scenario{"dcib-artificial-loss",
                              "DCIB IV-A: 15 long flows over a 10 Gbps / 3 ms DCI with 5% artificial WAN loss",
                              longFlowParams(artificialLoss()), runLongFlows}};

const Registration b{Scenario{"dcib-no-loss",
                              "DCIB IV-B: 15 long flows, congestion losses only (RED with ECN at the DCI egress)",
                              longFlowParams(noLoss()), runLongFlows}};

const Registration c{Scenario{"dcib-limited-buffer",
                              "DCIB IV-C: limited edge buffer (low-priority copies), end-to-end RTT 10-30 ms",
                              longFlowParams(limitedBuffer()), runLongFlows}};

const Registration d{Scenario{"dcib-fct",
                              "DCIB IV-D: 1000 web-search flows, Poisson arrivals at 80% load; flow completion times",
                              webSearchParams(fct()), runWebSearch}};

} // namespace
} // namespace ndnlab::dcib::scenarios
