#pragma once
// Routes for simulated topologies.
//
// Static routes: AddRoute(node, prefix, face | device | neighbour node, cost).
// Shortest paths: AddOrigin(prefix, node) for every producer, then CalculateRoutes(). The graph
// has one vertex per node with an NdnStack and an edge from a face to every node with a stack
// that has a device on the same ns-3 Channel (radio range is not considered on wireless
// channels). Edge weights are 1 (hop count) unless SetFaceMetric() says otherwise. Every other
// node gets a FIB entry for the prefix via the face(s) of its shortest paths, cost = distance;
// with AllPaths, via every face whose neighbour can reach the origin, cost = metric + the
// neighbour's distance (ndnSIM CalculateAllPossibleRoutes).

#include "ns3/ndnlab/model/ndn-stack.hpp"

#include <ns3/node-container.h>

#include <map>
#include <string>
#include <vector>

namespace ndnlab::sim {

class RouteHelper
{
public:
  // --- static routes (throw std::invalid_argument when the face/neighbour does not exist) ---
  static void AddRoute(ns3::Ptr<ns3::Node> node, const std::string& prefix, face::FaceId face, uint64_t cost = 0);
  static void AddRoute(ns3::Ptr<ns3::Node> node, const std::string& prefix, ns3::Ptr<ns3::NetDevice> device,
                       uint64_t cost = 0);
  /// Via the face whose device shares a channel with a device of `neighbour`.
  static void AddRoute(ns3::Ptr<ns3::Node> node, const std::string& prefix, ns3::Ptr<ns3::Node> neighbour,
                       uint64_t cost = 0);
  /// The face of `node` whose device shares a channel with `neighbour`, or InvalidFaceId.
  static face::FaceId FaceToward(ns3::Ptr<ns3::Node> node, ns3::Ptr<ns3::Node> neighbour);

  // --- shortest paths ---
  void AddOrigin(const std::string& prefix, ns3::Ptr<ns3::Node> node);
  void AddOrigins(const std::string& prefix, const ns3::NodeContainer& nodes);
  /// Weight of the edges leaving `face` of `node` (default 1).
  void SetFaceMetric(ns3::Ptr<ns3::Node> node, face::FaceId face, uint64_t metric);
  /// Installs the routes for every origin on every node with a stack.
  void CalculateRoutes(bool allPaths = false);

private:
  std::vector<std::pair<Name, ns3::Ptr<ns3::Node>>> m_origins;
  std::map<std::pair<uint32_t, face::FaceId>, uint64_t> m_metrics;
};

} // namespace ndnlab::sim
