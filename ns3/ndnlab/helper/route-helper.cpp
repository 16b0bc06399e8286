#include "ns3/ndnlab/helper/route-helper.hpp"

#include <ns3/channel.h>
#include <ns3/node-list.h>
#include <ns3/log.h>

#include <limits>
#include <queue>
#include <stdexcept>

NS_LOG_COMPONENT_DEFINE("ndnlab.RouteHelper");

namespace ndnlab::sim {

namespace {

ns3::Ptr<NdnStack> stackOf(ns3::Ptr<ns3::Node> node)
{
  ns3::Ptr<NdnStack> s = node->GetObject<NdnStack>();
  if (!s || !s->IsBuilt())
    throw std::invalid_argument("node " + std::to_string(node->GetId()) + " has no NdnStack");
  return s;
}

Name parsePrefix(const std::string& prefix)
{
  auto n = Name::parse(prefix);
  if (!n)
    throw std::invalid_argument("invalid prefix '" + prefix + "': " + n.error());
  return *n;
}

struct Edge
{
  uint32_t from;     ///< node id
  face::FaceId face; ///< face of `from`
  uint32_t to;       ///< neighbour node id
  uint64_t weight;
};

} // namespace

void RouteHelper::AddRoute(ns3::Ptr<ns3::Node> node, const std::string& prefix, face::FaceId face, uint64_t cost)
{
  stackOf(node)->AddRoute(parsePrefix(prefix), face, cost);
}

void RouteHelper::AddRoute(ns3::Ptr<ns3::Node> node, const std::string& prefix, ns3::Ptr<ns3::NetDevice> device,
                           uint64_t cost)
{
  face::FaceId id = stackOf(node)->GetFaceId(device);
  if (id == face::InvalidFaceId)
    throw std::invalid_argument("device has no NDN face on node " + std::to_string(node->GetId()));
  AddRoute(node, prefix, id, cost);
}

face::FaceId RouteHelper::FaceToward(ns3::Ptr<ns3::Node> node, ns3::Ptr<ns3::Node> neighbour)
{
  ns3::Ptr<NdnStack> stack = stackOf(node);
  for (face::FaceId id : stack->GetNetDeviceFaces()) {
    ns3::Ptr<ns3::Channel> ch = stack->GetTransport(id)->GetNetDevice()->GetChannel();
    if (!ch)
      continue;
    for (std::size_t j = 0; j < ch->GetNDevices(); ++j) {
      ns3::Ptr<ns3::NetDevice> other = ch->GetDevice(j);
      if (other && other->GetNode() == neighbour)
        return id;
    }
  }
  return face::InvalidFaceId;
}

void RouteHelper::AddRoute(ns3::Ptr<ns3::Node> node, const std::string& prefix, ns3::Ptr<ns3::Node> neighbour,
                           uint64_t cost)
{
  face::FaceId id = FaceToward(node, neighbour);
  if (id == face::InvalidFaceId)
    throw std::invalid_argument("node " + std::to_string(node->GetId()) + " has no face toward node " +
                                std::to_string(neighbour->GetId()));
  AddRoute(node, prefix, id, cost);
}

void RouteHelper::AddOrigin(const std::string& prefix, ns3::Ptr<ns3::Node> node)
{
  stackOf(node);
  m_origins.emplace_back(parsePrefix(prefix), node);
}

void RouteHelper::AddOrigins(const std::string& prefix, const ns3::NodeContainer& nodes)
{
  for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    AddOrigin(prefix, *it);
}

void RouteHelper::SetFaceMetric(ns3::Ptr<ns3::Node> node, face::FaceId face, uint64_t metric)
{
  m_metrics[{node->GetId(), face}] = metric;
}

void RouteHelper::CalculateRoutes(bool allPaths)
{
  constexpr uint64_t Inf = std::numeric_limits<uint64_t>::max();

  // the channel graph: out-edges by node, in-edges by node
  std::map<uint32_t, ns3::Ptr<ns3::Node>> nodes;
  std::map<uint32_t, std::vector<Edge>> out, in;
  for (auto it = ns3::NodeList::Begin(); it != ns3::NodeList::End(); ++it) {
    ns3::Ptr<NdnStack> stack = (*it)->GetObject<NdnStack>();
    if (!stack || !stack->IsBuilt())
      continue;
    nodes[(*it)->GetId()] = *it;
  }
  for (const auto& [id, node] : nodes) {
    ns3::Ptr<NdnStack> stack = node->GetObject<NdnStack>();
    for (face::FaceId f : stack->GetNetDeviceFaces()) {
      ns3::Ptr<ns3::NetDevice> dev = stack->GetTransport(f)->GetNetDevice();
      ns3::Ptr<ns3::Channel> ch = dev->GetChannel();
      if (!ch)
        continue;
      auto m = m_metrics.find({id, f});
      uint64_t w = m == m_metrics.end() ? 1 : m->second;
      for (std::size_t j = 0; j < ch->GetNDevices(); ++j) {
        ns3::Ptr<ns3::NetDevice> other = ch->GetDevice(j);
        if (!other || other == dev)
          continue;
        uint32_t to = other->GetNode()->GetId();
        if (to == id || !nodes.contains(to))
          continue;
        Edge e{id, f, to, w};
        out[id].push_back(e);
        in[to].push_back(e);
      }
    }
  }

  // one multi-source Dijkstra per prefix, toward the origins
  std::map<Name, std::vector<uint32_t>> origins;
  for (const auto& [prefix, node] : m_origins)
    origins[prefix].push_back(node->GetId());

  for (const auto& [prefix, srcs] : origins) {
    std::map<uint32_t, uint64_t> dist;
    for (const auto& [id, node] : nodes)
      dist[id] = Inf;
    using Item = std::pair<uint64_t, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
    for (uint32_t s : srcs) {
      dist[s] = 0;
      pq.emplace(0, s);
    }
    while (!pq.empty()) {
      auto [d, u] = pq.top();
      pq.pop();
      if (d != dist[u])
        continue;
      for (const Edge& e : in[u]) {
        uint64_t nd = d + e.weight;
        if (nd < dist[e.from]) {
          dist[e.from] = nd;
          pq.emplace(nd, e.from);
        }
      }
    }

    for (const auto& [id, node] : nodes) {
      if (dist[id] == 0 || dist[id] == Inf)
        continue; // an origin, or cut off
      std::map<face::FaceId, uint64_t> faceCost;
      for (const Edge& e : out[id]) {
        if (dist[e.to] == Inf)
          continue;
        uint64_t c = e.weight + dist[e.to];
        auto [it, isNew] = faceCost.emplace(e.face, c);
        if (!isNew)
          it->second = std::min(it->second, c);
      }
      ns3::Ptr<NdnStack> stack = node->GetObject<NdnStack>();
      for (const auto& [f, c] : faceCost) {
        if (!allPaths && c != dist[id])
          continue;
        stack->AddRoute(prefix, f, c);
        NS_LOG_DEBUG("node " << id << " " << prefix.toUri() << " via face " << f << " cost " << c);
      }
    }
  }
}

} // namespace ndnlab::sim
