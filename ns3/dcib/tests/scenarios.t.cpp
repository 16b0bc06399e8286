// The DCIB scenarios of ndnlab-sim (ns3/dcib/scenarios) reject bad parameter values with exit
// status 2 and a one-line message before anything is simulated.

#include "ns3/runner/tests/run-cli.hpp"

#include <gtest/gtest.h>

namespace ndnlab::dcib::test {
namespace {

using simtest::expectUsageError;

TEST(DcibScenarios, RatesAndDelaysAreCheckedUpFront)
{
  for (const char* s : {"dcib-no-loss", "dcib-artificial-loss", "dcib-limited-buffer", "dcib-fct"}) {
    expectUsageError({s, "--DciRate=-1"}, "--DciRate=-1: out of range (0, 1000] Gbps");
    expectUsageError({s, "--DciRate=0"}, "--DciRate=0: out of range");
    expectUsageError({s, "--HostRate=0"}, "--HostRate=0: out of range");
    expectUsageError({s, "--DciDelay=-3"}, "--DciDelay=-3: out of range");
    expectUsageError({s, "--HostDelay=-1"}, "--HostDelay=-1: out of range");
    expectUsageError({s, "--Rtt=-1"}, "--Rtt=-1: out of range");
    expectUsageError({s, "--MinRto=0"}, "--MinRto=0: out of range");
    expectUsageError({s, "--DciRate=1e-12"}, "--DciRate and --HostRate must be positive");
  }
  // a 2-BDP socket buffer beyond ns-3's uint32 byte count
  expectUsageError({"dcib-no-loss", "--DciRate=1000", "--DciDelay=1e9"}, "socket buffer");
}

TEST(DcibScenarios, IntervalsAndDurationsAreCheckedUpFront)
{
  // SampleInterval 0 used to schedule the sampler at the same instant forever
  expectUsageError(
    {"dcib-no-loss", "--Duration=0.2", "--Warmup=0.1", "--Flows=1", "--DciRate=0.1", "--SampleInterval=0"},
    "--SampleInterval=0: out of range [0.001, 1000000000] ms");
  expectUsageError({"dcib-fct", "--SampleInterval=-1"}, "--SampleInterval=-1: out of range");
  expectUsageError({"dcib-fct", "--MaxDuration=-1"}, "--MaxDuration=-1: out of range (0, 1000000] s");
  expectUsageError({"dcib-fct", "--MaxDuration=1e300"}, "--MaxDuration=1e300: out of range");
  expectUsageError({"dcib-no-loss", "--Duration=1e300"}, "--Duration=1e300: out of range");
  expectUsageError({"dcib-no-loss", "--Warmup=0"}, "--Warmup=0: out of range");
  expectUsageError({"dcib-no-loss", "--Duration=0.5", "--Warmup=0.5"}, "need Duration > Warmup");
  expectUsageError({"dcib-no-loss", "--StartSpread=-1"}, "--StartSpread=-1: out of range");
  expectUsageError({"dcib-no-loss", "--DupAckHold=-1"}, "--DupAckHold=-1: out of range");
}

TEST(DcibScenarios, IgnoredValuesAreUsageErrors)
{
  expectUsageError({"dcib-no-loss", "--BufferBdp=0"}, "--BufferBdp=0: out of range");
  expectUsageError({"dcib-no-loss", "--SocketBuffer=-1"}, "--SocketBuffer=-1: out of range");
  expectUsageError({"dcib-no-loss", "--SocketBuffer=0.001"}, "less than one MTU");
  expectUsageError({"dcib-no-loss", "--RedQw=0"}, "--RedQw=0: out of range (0, 1]");
  expectUsageError({"dcib-no-loss", "--RedQw=-1"}, "--RedQw=-1: out of range");
  expectUsageError({"dcib-no-loss", "--EdgeBuffer=-1"}, "--EdgeBuffer=-1: out of range");
  expectUsageError({"dcib-no-loss", "--DupAckAllowance=-1"}, "--DupAckAllowance=-1: out of range");
  expectUsageError({"dcib-no-loss", "--DupAckThreshold=0"}, "--DupAckThreshold=0: out of range");
  expectUsageError({"dcib-fct", "--Load=0"}, "--Load=0: out of range");
  expectUsageError({"dcib-fct", "--Hosts=0"}, "--Hosts=0: out of range");
}

TEST(DcibScenarios, ACooperativeWanNeedsAsManySelectedPacketsAsItDrops)
{
  // EdgeBuffer 20 kB: the bound B/(tau C) is 0.0027 < LossRate 0.05; the WAN would drop every
  // selected packet, the stalled buffer would fill with their clones after two selections, and
  // the run would go on without DCIB and without loss
  const std::string s = "dcib-artificial-loss";
  expectUsageError({s, "--Dcib=true", "--WanLoss=cooperative", "--EdgeBuffer=0.02"},
                   "--WanLoss=cooperative drops --LossRate=0.05 of the traffic among the Not-ECT");
  expectUsageError({s, "--Dcib=true", "--WanLoss=cooperative", "--SelectionRatio=0.04"},
                   "raise --EdgeBuffer or --SelectionRatio");
}

} // namespace
} // namespace ndnlab::dcib::test
