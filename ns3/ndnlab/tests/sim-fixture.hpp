#pragma once
// Common set-up of the ns-3 module tests: every test starts and ends with a clean simulator
// (Simulator::Destroy, Config::Reset, seed 1 run 1) and builds small topologies with helpers.

#include "ns3/ndnlab/apps/consumer-app.hpp"
#include "ns3/ndnlab/apps/content.hpp"
#include "ns3/ndnlab/apps/producer-app.hpp"
#include "ns3/ndnlab/helper/app-helper.hpp"
#include "ns3/ndnlab/helper/route-helper.hpp"
#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/runner/tests/sim-test.hpp"

#include <ns3/config.h>
#include <ns3/error-model.h>
#include <ns3/net-device-container.h>
#include <ns3/node-container.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/pointer.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

namespace ndnlab::sim::test {

using SimTest = ndnlab::simtest::SimTest;

/// A chain of `n` nodes joined by point-to-point links of `rate`/`delay`.
struct Chain
{
  ns3::NodeContainer nodes;
  std::vector<ns3::NetDeviceContainer> links; ///< links[i] joins nodes i and i+1

  Chain(uint32_t n, const std::string& rate = "10Mbps", const std::string& delay = "2ms",
        const std::string& queue = "100p")
  {
    nodes.Create(n);
    ns3::PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", ns3::StringValue(rate));
    p2p.SetChannelAttribute("Delay", ns3::StringValue(delay));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue(queue));
    for (uint32_t i = 0; i + 1 < n; ++i)
      links.push_back(p2p.Install(nodes.Get(i), nodes.Get(i + 1)));
  }

  /// Packet loss with probability `rate` on frames received by end `end` (0 = left node,
  /// 1 = right node) of link `i`.
  ns3::Ptr<ns3::RateErrorModel> addLoss(size_t i, int end, double rate, int64_t stream)
  {
    auto em = ns3::CreateObject<ns3::RateErrorModel>();
    em->SetUnit(ns3::RateErrorModel::ERROR_UNIT_PACKET);
    em->SetRate(rate);
    em->AssignStreams(stream);
    links.at(i).Get(end)->SetAttribute("ReceiveErrorModel", ns3::PointerValue(em));
    return em;
  }
};

} // namespace ndnlab::sim::test
