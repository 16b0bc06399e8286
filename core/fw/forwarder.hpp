#pragma once
// Forwarder: the NFD forwarding pipelines (NFD daemon/fw/forwarder.cpp; ndn-spec-facts.md §4)
// over FaceTable, Fib, Pit, Cs, DeadNonceList and StrategyChoice.
//
// Incoming Interest: IncomingFaceId tag, PitToken moved to the in-record, HopLimit (drop 0,
// else decrement), Nonce added if missing, /localhost scope, Dead Nonce List, forwarding-hint
// stripping in the producer region, PIT find-or-insert (bounded), duplicate Nonce -> loop,
// CS lookup when the entry has no in-record, CS hit or miss (in-record, expiry,
// NextHopFaceId, strategy). Outgoing Interest: HopLimit 0 to a non-local face dropped,
// out-record, send. Interest finalize: Dead Nonce List, counters, PIT erase. Incoming Data:
// /localhost scope, PIT match, unsolicited policy, CS insert, downstreams (with their
// PitTokens), Dead Nonce List. Incoming Nack: point-to-point only, out-record Nonce check.
// Outgoing Nack: needs an in-record and a point-to-point egress.
//
// MIRCC explicit rate (docs/mechanisms/mircc.md): Data and Nacks carry the path's rate as
// PacketTags::mirccRate. When one arrives from upstream face f with MIRCC on
// (LinkServiceOptions::mircc), the forwarder stamps min(carried rate, R_f), R_f from the
// MirccRateSource, else from the forwarder's MirccRegulator (mircc-regulator.hpp), which also
// shapes the Interests forwarded toward f; nothing when neither has a rate for f. A Nack sent downstream carries
// the smallest rate of the Nacks its PIT entry received.
//
// Trace events: the kinds of layer "fw" in core/runtime/events.hpp (interest_in ... nack_out,
// cs_hit, interest_loop, interest_satisfied, interest_unsatisfied, data_unsolicited) and drop,
// whose DropReason names each ForwarderCounters drop field below.
//
// Nothing is freed under a running pipeline: entries whose expiry is "now" are finalized when
// the outermost pipeline returns (re-entrant calls through synchronous faces are safe), and
// one Env timer covers the earliest future expiry. Every drop is counted per reason, logged at
// debug level ending in DROP, and emitted as trace event {kind="drop", face, reason}.

#include "core/fw/mircc.hpp"
#include "core/face/face-table.hpp"
#include "core/fw/mircc-regulator.hpp"
#include "core/fw/strategy.hpp"
#include "core/table/cs.hpp"
#include "core/table/dead-nonce-list.hpp"
#include "core/table/fib.hpp"
#include "core/table/name-tree.hpp"
#include "core/table/pit.hpp"
#include "core/table/strategy-choice.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ndnlab::fw {

/// What to do with Data that matches no PIT entry (NFD unsolicited-data policies).
enum class UnsolicitedDataPolicy : uint8_t {
  DropAll,      ///< never cache (NFD default)
  AdmitLocal,   ///< cache when it arrived on a local face
  AdmitNetwork, ///< cache when it arrived on a non-local face
  AdmitAll,     ///< always cache
};
std::string_view toString(UnsolicitedDataPolicy p);
/// Parses "drop-all", "admit-local", "admit-network", "admit-all".
std::optional<UnsolicitedDataPolicy> parseUnsolicitedDataPolicy(std::string_view s);

/// Every forwarder knob (daemon config section [forwarder]/[tables], ns-3 attributes).
struct ForwarderOptions
{
  /// PIT size bound: Interests that would create more entries are dropped (reason pit_full).
  size_t pitMaxEntries = 65536;
  /// Hard cap on the in-records one downstream face may hold; 0 = none beyond the fair share
  /// (reason pit_face_quota).
  size_t pitMaxInRecordsPerFace = 0;
  /// PIT fair share among downstream faces (dynamic threshold, table/pit.hpp): a face may add
  /// an in-record only while it holds fewer than this factor x the free entries; 0 = off.
  /// With 1, n flooding faces hold 1/(n+1) of the PIT each and newcomers are always admitted
  /// (reason pit_face_quota).
  double pitShareFactor = 1.0;
  /// Cap on InterestLifetime used for PIT records (NFD: 10 days).
  Duration pitMaxLifetime = std::chrono::hours(24 * 10);
  /// Content Store capacity in packets (NFD tables.cs_max_packets); 0 disables caching.
  size_t csCapacity = 65536;
  /// Content Store capacity in bytes of Data wire encoding; 0 = no byte limit.
  size_t csMaxBytes = 256 * 1024 * 1024;
  /// CanBePrefix CS lookups examine at most this many candidates; 0 = unlimited.
  size_t csScanLimit = 1024;
  /// NFD CS flags: admit (insert Data) and serve (answer from cache).
  bool csAdmit = true;
  bool csServe = true;
  /// Dead Nonce List entry lifetime (NFD 6 s, at least 50 ms).
  Duration dnlLifetime = std::chrono::seconds(6);
  /// Dead Nonce List size bound, entries (~32 bytes each); oldest evicted first.
  size_t dnlCapacity = 1 << 19;
  /// Unsolicited Data handling (NFD tables.cs_unsolicited_policy).
  UnsolicitedDataPolicy unsolicitedDataPolicy = UnsolicitedDataPolicy::DropAll;
  /// HopLimit added to Interests that carry none (NFD forwarder.default_hop_limit); 0 = off.
  uint8_t defaultHopLimit = 0;
  /// Strategy of "/" (NFD default best-route).
  Name defaultStrategy = Name("/localhost/nfd/strategy/best-route");
  /// Producer-region names (NFD network_region): a forwarding hint that is a prefix of one of
  /// them is stripped on arrival.
  std::vector<Name> networkRegions;
  /// MIRCC on the upstream faces where it is enabled (MirccRegulator::enable with the face's
  /// capacity; `capacity` here is unused): router interval T, EWMA, shaper depth, ...
  fw::MirccOptions mircc;
};

/// NFD ForwarderStatus counters plus per-reason drops.
struct ForwarderCounters
{
  uint64_t nInInterests = 0, nInData = 0, nInNacks = 0;
  uint64_t nOutInterests = 0, nOutData = 0, nOutNacks = 0;
  uint64_t nSatisfiedInterests = 0, nUnsatisfiedInterests = 0;
  uint64_t nCsHits = 0, nCsMisses = 0;
  uint64_t nUnsolicitedData = 0;

  // drops, by reason (trace/log reason in comments)
  uint64_t nDropHopLimitZero = 0;      ///< hop_limit_zero: Interest arrived with HopLimit 0
  uint64_t nDropOutHopLimitZero = 0;   ///< out_hop_limit_zero: HopLimit 0 to a non-local face
  uint64_t nDropLocalhostInterest = 0; ///< localhost_scope: /localhost Interest on non-local face
  uint64_t nDropLocalhostData = 0;     ///< localhost_scope_data: /localhost Data in/out non-local
  uint64_t nLoopDnl = 0;               ///< loop_dnl: Name+Nonce found in the Dead Nonce List
  uint64_t nLoopPit = 0;               ///< loop_pit: duplicate Nonce in the PIT entry
  uint64_t nDropLoop = 0;              ///< loop_drop: loop on a non-point-to-point face
  uint64_t nDropPitFull = 0;           ///< pit_full
  uint64_t nDropPitFaceQuota = 0;      ///< pit_face_quota
  uint64_t nDropNackNotP2p = 0;        ///< nack_not_p2p: Nack on a multi-access/ad hoc face
  uint64_t nDropNackNoPit = 0;         ///< nack_no_pit
  uint64_t nDropNackNoOutRecord = 0;   ///< nack_no_out_record
  uint64_t nDropNackNonce = 0;         ///< nack_nonce_mismatch
  uint64_t nDropOutNackNoInRecord = 0; ///< out_nack_no_in_record
  uint64_t nDropOutNackNotP2p = 0;     ///< out_nack_not_p2p
  uint64_t nDropUnknownNextHop = 0;    ///< next_hop_unknown: NextHopFaceId names no face
  uint64_t nDropShaperFull = 0;        ///< shaper_full: MIRCC's Interest shaper toward the face was full
};

/// MIRCC (docs/mechanisms/mircc.md): R_f, the rate this node offers Data returning through
/// upstream face f, or nullopt when it has none (yet) for f. Called once per Data or Nack
/// arriving on a face with MIRCC on; must not call back into the forwarder.
using MirccRateSource = std::function<std::optional<Rate>(face::FaceId)>;

/// Result of management operations on the FIB.
enum class FibStatus : uint8_t { Ok, FaceNotFound, PrefixTooLong, NotFound };

class Forwarder
{
public:
  explicit Forwarder(Env& env, ForwarderOptions options = {});
  ~Forwarder();
  Forwarder(const Forwarder&) = delete;
  Forwarder& operator=(const Forwarder&) = delete;

  // --- faces ---
  /// Adds a face (assigning FaceId >= 256) and connects it to the pipelines.
  face::FaceId addFace(std::unique_ptr<face::Face> face);
  /// Adds a face under a reserved id (e.g. InternalFaceId for management).
  void addReservedFace(std::unique_ptr<face::Face> face, face::FaceId id);
  face::FaceTable& faceTable() { return m_faceTable; }
  const face::FaceTable& faceTable() const { return m_faceTable; }
  /// Emitted before a face is removed, after its FIB nexthops and PIT records were removed.
  face::Signal<face::Face&> afterFaceCleanup;

  // --- management helpers ---
  FibStatus addNextHop(const Name& prefix, face::FaceId face, uint64_t cost);
  FibStatus removeNextHop(const Name& prefix, face::FaceId face);
  /// Sets the strategy of a prefix; error text when unknown/invalid.
  table::StrategyChoice::InsertResult setStrategy(const Name& prefix, const Name& strategyName);
  /// Unsets; false for "/" or when no choice exists.
  bool unsetStrategy(const Name& prefix);
  /// Strategy types this forwarder can instantiate (add custom ones before use).
  StrategyRegistry& strategyRegistry() { return m_registry; }
  /// Installs the per-upstream-face MIRCC rate (R_f); an empty source (the default) stamps
  /// nothing, and carried rates pass through unchanged.
  void setMirccRateSource(MirccRateSource source) { m_mirccRateSource = std::move(source); }
  /// MIRCC's per-upstream-face rate controllers and Interest shapers: enable(face, capacity)
  /// turns them on for a face whose link service has MIRCC on. Their R_f is the rate source
  /// unless setMirccRateSource installed another.
  MirccRegulator& mircc() { return m_mircc; }
  const MirccRegulator& mircc() const { return m_mircc; }

  // --- tables ---
  table::NameTree& nameTree() { return m_nameTree; }
  table::Fib& fib() { return m_fib; }
  const table::Fib& fib() const { return m_fib; }
  table::Pit& pit() { return m_pit; }
  const table::Pit& pit() const { return m_pit; }
  table::Cs& cs() { return m_cs; }
  const table::Cs& cs() const { return m_cs; }
  table::DeadNonceList& deadNonceList() { return m_dnl; }
  table::StrategyChoice& strategyChoice() { return m_strategyChoice; }
  const table::StrategyChoice& strategyChoice() const { return m_strategyChoice; }

  const ForwarderOptions& options() const { return m_options; }
  const ForwarderCounters& counters() const { return m_counters; }
  Env& env() const { return m_env; }
  /// When the forwarder was created (status/general StartTimestamp).
  UnixMillis startTimestamp() const { return m_startTimestamp; }

  // --- pipelines (public for faces and tests; strategies use Strategy actions) ---
  void onIncomingInterest(face::Face& face, Interest&& interest, face::EndpointId endpoint);
  void onIncomingData(face::Face& face, Data&& data, face::EndpointId endpoint);
  void onIncomingNack(face::Face& face, Nack&& nack, face::EndpointId endpoint);

private:
  friend class Strategy;

  void onInterestLoop(const Interest& interest, const FaceEndpoint& ingress, const std::optional<PitToken>& token);
  void onContentStoreMiss(const std::shared_ptr<Interest>& interest, const FaceEndpoint& ingress,
                          std::optional<PitToken>&& token, table::PitEntry& entry);
  void onContentStoreHit(const Interest& interest, const FaceEndpoint& ingress, const std::optional<PitToken>& token,
                         table::PitEntry& entry, const std::shared_ptr<Data>& data);
  table::PitOutRecord* onOutgoingInterest(const Interest& interest, face::Face& egress, table::PitEntry& entry);
  void onInterestFinalize(table::PitEntry& entry);
  void onDataUnsolicited(const FaceEndpoint& ingress, const std::shared_ptr<Data>& data);
  /// Sends `data` to `egress` with `token` as its PitToken (tags are per-send scratch).
  bool onOutgoingData(const Data& data, face::Face& egress, const std::optional<PitToken>& token);
  bool onOutgoingNack(NackReason reason, face::Face& egress, table::PitEntry& entry);
  /// MIRCC: tags.mirccRate = min(tags.mirccRate, R_upstream) when MIRCC is on for `upstream`
  /// and the rate source (else the regulator) has a rate for it.
  void stampMirccRate(const face::Face& upstream, PacketTags& tags) const;
  /// Sends an Interest MIRCC's shaper released toward face `id` (gone: nothing).
  void sendShapedInterest(face::FaceId id, const Interest& interest);

  void setExpiryTimer(table::PitEntry& entry, Duration delay);
  void insertDeadNonceList(table::PitEntry& entry, const face::Face* upstream);
  Strategy& effectiveStrategy(const table::PitEntry& entry) const;
  Strategy& effectiveStrategy(const Name& name) const;

  void drop(uint64_t& counter, DropReason reason, face::FaceId face, const Name& name);
  bool isInProducerRegion(const std::vector<Name>& forwardingHint) const;

  void connectFace(face::Face& face);
  void cleanupOnFaceRemoval(face::Face& face);
  void afterNewNextHop(const Name& prefix, const table::NextHop& nexthop);

  /// Runs when the outermost pipeline returns: finalizes due entries, frees retired strategies,
  /// re-arms the expiry timer.
  void afterPipeline();
  void rearmExpiryTimer();
  struct PipelineGuard
  {
    explicit PipelineGuard(Forwarder& f) : fw(f) { ++fw.m_depth; }
    ~PipelineGuard()
    {
      if (--fw.m_depth == 0)
        fw.afterPipeline();
    }
    Forwarder& fw;
  };

  Env& m_env;
  ForwarderOptions m_options;
  UnixMillis m_startTimestamp;
  StrategyRegistry m_registry;
  // Declaration order = destruction order reversed: faces outlive the tables that point at them.
  face::FaceTable m_faceTable;
  table::NameTree m_nameTree;
  table::Fib m_fib;
  table::Pit m_pit;
  table::Cs m_cs;
  table::DeadNonceList m_dnl;
  table::StrategyChoice m_strategyChoice;
  ForwarderCounters m_counters;
  MirccRateSource m_mirccRateSource;
  MirccRegulator m_mircc; // after the face table: released Interests leave through it

  int m_depth = 0;
  bool m_inAfterPipeline = false;
  TimerId m_expiryTimer = 0;
  TimePoint m_expiryTimerAt{};
};

} // namespace ndnlab::fw
