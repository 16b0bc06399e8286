#pragma once
// The fixture of every test suite that runs an ns-3 simulation (ns3/ndnlab, ns3/dcib): each test
// starts and ends with a clean simulator (Simulator::Destroy, Config::Reset, seed 1 run 1).

#include <ns3/config.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <cstdint>

namespace ndnlab::simtest {

class SimTest : public ::testing::Test
{
protected:
  void SetUp() override { reset(); }
  void TearDown() override { reset(); }

  static void reset(uint32_t seed = 1, uint64_t run = 1)
  {
    ns3::Simulator::Destroy();
    ns3::Config::Reset();
    ns3::RngSeedManager::SetSeed(seed);
    ns3::RngSeedManager::SetRun(run);
  }
};

} // namespace ndnlab::simtest
