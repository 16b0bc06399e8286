#pragma once
// NFD-compatible management attached to a Forwarder (NFD daemon/mgmt/*; spec facts 3.2-3.4;
// docs/mechanisms/management.md).
//
// Wiring: an InternalTransport pair; the forwarder end becomes face InternalFaceId (1) with a
// GenericLinkService that has local fields enabled (so each command arrives with its
// IncomingFaceId), and the FIB routes /localhost/nfd to it. The management end decodes
// NDNLPv2 frames itself (IncomingFaceId, PitToken) and hands Interests to the Dispatcher;
// replies go back as LpPacket{PitToken, CachePolicy=NoCache, Data}. The forwarder enforces the
// /localhost scope, so only local faces reach management.
//
// Modules: rib (register, unregister, list), fib (add-nexthop, remove-nexthop, list), faces
// (create via FaceSystem, destroy, list, channels), strategy-choice (set, unset, list),
// cs (config, erase, info), status (general), and the ndnlab extension dataset ndnlab/drops
// (per-reason drop counters from setDropCounters; empty without a source).
//
// Lifetime: construct after the Forwarder and destroy before it.

#include "core/face/internal-transport.hpp"
#include "core/fw/forwarder.hpp"
#include "core/mgmt/datasets.hpp"
#include "core/mgmt/dispatcher.hpp"
#include "core/mgmt/face-system.hpp"
#include "core/mgmt/rib.hpp"

#include <memory>
#include <string>

namespace ndnlab::mgmt {

struct ManagementOptions
{
  /// Dispatcher knobs: prefix, signature verification, reply/dataset freshness, storage.
  DispatcherOptions dispatcher;
  /// RIB knobs (route bound).
  RibOptions rib;
  /// status/general NfdVersion.
  std::string version = "ndnlab-0.1.0";
};

class Management
{
public:
  /// Attaches to `forwarder`. `faceSystem` (not owned, may be null: faces/create then answers
  /// 501) must outlive this object.
  Management(Env& env, fw::Forwarder& forwarder, ManagementOptions options = {}, FaceSystem* faceSystem = nullptr);
  ~Management();
  Management(const Management&) = delete;
  Management& operator=(const Management&) = delete;

  Dispatcher& dispatcher() { return m_dispatcher; }
  Rib& rib() { return m_rib; }
  const Rib& rib() const { return m_rib; }
  /// The forwarder's management face (FaceId 1).
  face::Face* internalFace() const { return m_forwarder.faceTable().get(face::InternalFaceId); }

  /// Decode failures of frames arriving from the forwarder (should stay 0).
  uint64_t nInvalidFrames() const { return m_nInvalidFrames; }

  /// Source of the ndnlab/drops dataset: the host's counted drop events (the daemon reads
  /// them from its CountingTrace). Called for each dataset generation.
  using DropCounterSource = std::function<std::vector<DropCounterStatus>()>;
  void setDropCounters(DropCounterSource source) { m_dropCounters = std::move(source); }

private:
  class FibAdapter final : public FibUpdater
  {
  public:
    explicit FibAdapter(fw::Forwarder& fw) : m_fw(fw) {}
    void addNextHop(const Name& prefix, face::FaceId face, uint64_t cost) override;
    void removeNextHop(const Name& prefix, face::FaceId face) override;

  private:
    fw::Forwarder& m_fw;
  };

  void onFrame(ByteSpan frame);
  void sendData(Data&& data);
  void registerHandlers();

  // --- command handlers ---
  void ribRegister(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  void ribUnregister(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  void fibAddNextHop(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  void fibRemoveNextHop(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  void facesCreate(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  void facesDestroy(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  /// faces/update: only the LpReliability flag, the BLEnD settings (Bundling flag, Medium,
  /// BundleInterval) and MirccCapacity change.
  void facesUpdate(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  void strategySet(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  void strategyUnset(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  void csConfig(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);
  void csErase(const ControlParameters& p, const RequestContext& ctx, Dispatcher::CommandDone done);

  // --- datasets ---
  Buffer statusGeneral() const;
  FaceStatus faceStatus(const face::Face& f) const;
  Buffer facesList() const;
  /// faces/query: the faces matching the FaceQueryFilter in the name component after the verb;
  /// 400 "Malformed filter" when that component is missing or does not decode (NFD's reply).
  Result<Buffer, ControlResponse> facesQuery(const RequestContext& ctx) const;
  Buffer facesChannels() const;
  Buffer fibList() const;
  Buffer ribList() const;
  Buffer strategyChoiceList() const;
  Buffer csInfo() const;
  Buffer ndnlabDrops() const;

  Env& m_env;
  fw::Forwarder& m_forwarder;
  ManagementOptions m_options;
  FaceSystem* m_faceSystem;
  FibAdapter m_fibAdapter;
  Rib m_rib;
  Dispatcher m_dispatcher;
  std::unique_ptr<face::InternalTransport> m_transport; ///< management end
  face::Signal<face::Face&>::ConnectionId m_cleanupConnection = 0;
  uint64_t m_nInvalidFrames = 0;
  DropCounterSource m_dropCounters;
};

} // namespace ndnlab::mgmt
