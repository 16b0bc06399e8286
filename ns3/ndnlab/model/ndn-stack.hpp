#pragma once
// NdnStack: the NDN layer of one ns-3 Node (an ns3::Object aggregated to the Node). It owns
// the node's Ns3Env and fw::Forwarder, creates faces for NetDevices (NetDeviceTransport +
// GenericLinkService, fragmentation and reassembly on for MTU-limited devices) and app faces
// (AppEndpoint, see app-link.hpp), and turns the core's trace events into one ns-3 trace
// source, "Event".
//
// Attributes: the ForwarderOptions and LinkServiceOptions fields of options-attributes.hpp
// (CsSize, PitMaxEntries, ...). They are read once, when Build() creates the forwarder.
//
// One-hop bypass for the BLEnD "one Interest" bound (push-producer.hpp): AddDataTap() hands
// Data under a prefix that arrive on NetDevice faces to a callback instead of the forwarder,
// and SendDataDirect() puts a Data on a face without a PIT entry. Nothing else uses them.

#include "ns3/ndnlab/model/app-link.hpp"
#include "ns3/ndnlab/model/net-device-transport.hpp"
#include "ns3/ndnlab/model/ns3-env.hpp"

#include "core/face/link-service.hpp"
#include "core/fw/forwarder.hpp"

#include <ns3/net-device.h>
#include <ns3/node.h>
#include <ns3/object.h>
#include <ns3/traced-callback.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ndnlab::sim {

/// One core trace event as seen by ns-3 trace sinks. String views are valid during the call.
struct TraceRecord
{
  ns3::Time time;
  uint32_t node = 0;
  EventKind kind{};
  uint64_t face = 0;
  std::string_view reason;
  int64_t value = 0;
  double value2 = 0;
};

/// Attribute (name, value) pairs applied to a NetDeviceTransport after construction.
using AttributeList = std::vector<std::pair<std::string, ns3::Ptr<const ns3::AttributeValue>>>;

class NdnStack : public ns3::Object
{
public:
  static ns3::TypeId GetTypeId();
  NdnStack();
  ~NdnStack() override;

  /// Creates the Env and the forwarder for `node` from the attributes, and aggregates this
  /// stack to the node. Call once (StackHelper::Install does).
  void Build(ns3::Ptr<ns3::Node> node);
  bool IsBuilt() const { return m_forwarder != nullptr; }

  ns3::Ptr<ns3::Node> GetNode() const { return m_node; }
  Ns3Env& GetEnv() { return *m_env; }
  fw::Forwarder& GetForwarder() { return *m_forwarder; }
  const fw::Forwarder& GetForwarder() const { return *m_forwarder; }

  // --- faces ---
  /// Creates a face on `device` (a device of this node); returns its FaceId. `attributes`
  /// are NetDeviceTransport attributes (Addressing, LinkType).
  face::FaceId AddNetDeviceFace(ns3::Ptr<ns3::NetDevice> device, const AttributeList& attributes = {});
  /// The face on `device`, or InvalidFaceId.
  face::FaceId GetFaceId(ns3::Ptr<ns3::NetDevice> device) const;
  /// The transport of a NetDevice face, or nullptr.
  NetDeviceTransport* GetTransport(face::FaceId id) const;
  /// NetDevice faces in creation order.
  std::vector<face::FaceId> GetNetDeviceFaces() const;
  face::Face* GetFace(face::FaceId id) const;
  /// Creates an app face; the caller owns the endpoint (destroying it closes the face).
  std::unique_ptr<AppEndpoint> CreateAppEndpoint(const std::string& uri);

  // --- routes and strategies ---
  void AddRoute(const Name& prefix, face::FaceId face, uint64_t cost = 0);
  /// Throws std::invalid_argument for an unknown strategy.
  void SetStrategy(const Name& prefix, const Name& strategy);

  // --- one-Interest bypass ---
  using DataTap = std::function<void(const Data&)>;
  uint64_t AddDataTap(const Name& prefix, DataTap tap);
  void RemoveDataTap(uint64_t id);
  /// Sends `data` out of face `id` without the forwarder; false if there is no such face.
  bool SendDataDirect(face::FaceId id, const Data& data);

  // --- randomness ---
  /// Assigns the stream of this node's random variable; returns the number of streams used (1).
  int64_t AssignStreams(int64_t stream);

  // --- options (attribute storage) ---
  fw::ForwarderOptions& ForwarderOptionsRef() { return m_fwOptions; }
  face::LinkServiceOptions& LinkServiceOptionsRef() { return m_lsOptions; }

protected:
  void DoDispose() override;

private:
  void emitTrace(TimePoint when, const TraceEvent& e);
  void wrapDataTap(face::Face& face);

  ns3::Ptr<ns3::Node> m_node;
  fw::ForwarderOptions m_fwOptions;
  face::LinkServiceOptions m_lsOptions;
  std::unique_ptr<Ns3Env> m_env;
  std::unique_ptr<fw::Forwarder> m_forwarder;
  std::vector<std::pair<ns3::Ptr<ns3::NetDevice>, face::FaceId>> m_deviceFaces;
  std::map<face::FaceId, NetDeviceTransport*> m_transports;
  std::map<uint64_t, std::pair<Name, DataTap>> m_taps;
  uint64_t m_lastTapId = 0;

  ns3::TracedCallback<const TraceRecord&> m_eventTrace;
};

} // namespace ndnlab::sim
