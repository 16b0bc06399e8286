#pragma once
// NdnApp: base of the ns-3 applications that wrap core endpoint engines. A shell only: it
// finds the node's NdnStack, opens an app face (AppEndpoint) at start and closes it at stop;
// subclasses parse attributes into the engine's Options, build the engine on that endpoint
// and wire its callbacks to trace sources.
//
// Attributes: Prefix (the name the app serves or fetches), plus StartTime/StopTime of
// ns3::Application. Trace sources: "Interest" (every Interest the engine expresses) and
// "Data" (every Data the engine puts), before they enter the forwarder.

#include "ns3/ndnlab/model/ndn-stack.hpp"

#include "core/codec/name.hpp"

#include <ns3/application.h>
#include <ns3/traced-callback.h>

#include <memory>
#include <string>

namespace ndnlab::sim {

class NdnApp : public ns3::Application
{
public:
  static ns3::TypeId GetTypeId();
  NdnApp();
  ~NdnApp() override;

  /// The Prefix attribute as a Name (throws std::invalid_argument if it does not parse).
  Name GetPrefix() const;
  ns3::Ptr<NdnStack> GetStack() const { return m_stack; }
  /// The app face's endpoint while running, else nullptr.
  AppEndpoint* GetEndpoint() const { return m_endpoint.get(); }
  bool IsRunning() const { return m_endpoint != nullptr; }

protected:
  /// Called after the endpoint exists.
  virtual void StartEngine() = 0;
  /// Called before the endpoint is destroyed; must destroy the engine.
  virtual void StopEngine() = 0;

  /// Routes `prefix` on this node to the app face (producers).
  void RegisterPrefix(const Name& prefix);
  /// Emits a core trace event through the node's Env (e.g. app_bytes for goodput).
  void EmitEvent(const TraceEvent& e);
  /// Aborts the simulation with `what` (invalid attribute values found at start).
  [[noreturn]] void Fatal(const std::string& what) const;

  void DoDispose() override;

  std::string m_prefix;

private:
  void StartApplication() override;
  void StopApplication() override;

  ns3::Ptr<NdnStack> m_stack;
  std::unique_ptr<AppEndpoint> m_endpoint;
  ns3::TracedCallback<const Interest&> m_interestTrace;
  ns3::TracedCallback<const Data&> m_dataTrace;
};

} // namespace ndnlab::sim
