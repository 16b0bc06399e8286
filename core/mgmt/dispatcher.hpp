#pragma once
// Dispatcher: serves management Interests under one top prefix (/localhost/nfd), after
// ndn-cxx mgmt/dispatcher.cpp. Commands are routed by (module, verb) to a handler that
// answers with a ControlResponse; status datasets are generated on demand, versioned and
// segmented, and kept briefly in a bounded in-memory store so later segments can be fetched.
//
// Replies (spec facts 3.2, interop-facts.md "Responses"): a command's reply has the command's
// name, ContentType 0, FreshnessPeriod `replyFreshness`, DigestSha256 signature; a dataset
// segment is named <dataset prefix>/v=<unix ms>/seg=<n>, carries at most `segmentSize` payload
// octets, FinalBlockId on the last segment, FreshnessPeriod `datasetFreshness`. Every reply
// copies the request's PitToken and is marked CachePolicy=NoCache.
//
// Status codes: 501 unknown module or verb, 400 malformed ControlParameters, 403 rejected by
// the (optional) command authorization; handlers add their own (see docs/mechanisms/management.md).
// A dataset handler may refuse its request (faces/query: 400 for a malformed filter).
// Trace events: {kind="drop", reason="mgmt_not_under_prefix" | "mgmt_missing_verb" |
// "mgmt_segment_not_stored"} for unanswered Interests, {kind="mgmt_rejected", reason=<check>}
// for commands refused by verification.

#include "core/codec/data.hpp"
#include "core/mgmt/command.hpp"
#include "core/runtime/env.hpp"
#include "core/security/replay-checker.hpp"
#include "core/security/signer.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace ndnlab::mgmt {

struct DispatcherOptions
{
  /// Prefix served; commands are /<topPrefix>/<module>/<verb>/<ControlParameters>/...
  Name topPrefix{"/localhost/nfd"};
  /// Check command signatures (verifier + replay checker). Off = accept every command, as
  /// NFD's default `certfile any` and ndnd do.
  bool verifyCommands = false;
  /// Replay protection used when verifyCommands is on.
  security::ReplayCheckerOptions replay;
  /// FreshnessPeriod of command replies (NFD: 1 s).
  Duration replyFreshness = std::chrono::seconds(1);
  /// FreshnessPeriod of dataset segments (NFD: 1 s).
  Duration datasetFreshness = std::chrono::seconds(1);
  /// Payload octets per dataset segment (NFD: 8800 - 800).
  size_t segmentSize = 8000;
  /// How long generated dataset segments stay fetchable (NFD: 1 s).
  Duration storageLifetime = std::chrono::seconds(1);
  /// Upper bound on octets of stored dataset segments; the oldest are dropped beyond it.
  size_t maxStorageBytes = 16 * 1024 * 1024;
};

/// What a handler knows about the request.
struct RequestContext
{
  const Interest& interest;
  const ParsedCommand& command;
  /// The face the request came from (IncomingFaceId tag), 0 if unknown.
  uint64_t incomingFaceId = 0;
};

class Dispatcher
{
public:
  struct Counters
  {
    uint64_t nCommands = 0;       ///< commands answered (any status)
    uint64_t nDatasets = 0;       ///< dataset generations
    uint64_t nDatasetErrors = 0;  ///< dataset requests refused by their handler (e.g. 400)
    uint64_t nSegmentsServed = 0; ///< dataset segments sent (fresh or from storage)
    uint64_t nRejected = 0;       ///< authorization failures (403)
    uint64_t nDropped = 0;        ///< Interests not answered (not under prefix, storage miss)
  };

  using CommandDone = std::function<void(ControlResponse)>;
  /// Handles a command whose ControlParameters decoded; must call `done` exactly once (it may
  /// do so later, e.g. after a face is created).
  using CommandHandler = std::function<void(const ControlParameters&, const RequestContext&, CommandDone done)>;
  /// Produces the full (unsegmented) content of a dataset, or refuses the request (a dataset
  /// with a parameter, e.g. faces/query's filter): the refusal is sent as a ControlResponse in
  /// a Data of ContentType Nack named by the request, as ndn-cxx's StatusDatasetContext::reject.
  using DatasetHandler = std::function<Result<Buffer, ControlResponse>(const RequestContext&)>;

  Dispatcher(Env& env, DispatcherOptions options = {});
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  void addCommand(std::string module, std::string verb, CommandHandler handler);
  void addDataset(std::string module, std::string verb, DatasetHandler handler);

  /// Verifier for commands when options().verifyCommands is set (not owned; must outlive
  /// the dispatcher). Without one, every signed command is rejected in verifying mode.
  void setVerifier(const security::Verifier* verifier) { m_verifier = verifier; }

  /// Handles one Interest; replies go out through `sendData`.
  void onInterest(const Interest& interest);

  /// Installed by the owner: sends one reply Data towards the requester.
  std::function<void(Data&&)> sendData;

  const Counters& counters() const { return m_counters; }
  const DispatcherOptions& options() const { return m_options; }
  /// Octets of dataset segments currently stored.
  size_t storageBytes() const { return m_storageBytes; }

private:
  struct Key
  {
    std::string module, verb;
    bool operator<(const Key& o) const { return std::tie(module, verb) < std::tie(o.module, o.verb); }
  };
  struct Stored
  {
    Data data;
    TimePoint expires;
  };

  void handleCommand(const Interest& interest, const ParsedCommand& cmd, const CommandHandler& h,
                     uint64_t incomingFaceId);
  void handleDataset(const Interest& interest, const ParsedCommand& cmd, const DatasetHandler& h,
                     uint64_t incomingFaceId);
  bool authorize(const Interest& interest, const ParsedCommand& cmd);
  /// Counts, logs and traces an unanswered Interest; `reason` must be a string literal.
  void drop(const Interest& interest, DropReason reason);
  /// A ControlResponse Data named by `interest`; `nack` sets ContentType Nack (dataset refusals).
  void reply(const Interest& interest, const ControlResponse& resp, bool nack = false);
  void send(Data&& data, const Interest& request);
  void store(const Data& data);
  void expireStorage();
  bool knownModule(const std::string& module) const;

  Env& m_env;
  DispatcherOptions m_options;
  std::map<Key, CommandHandler> m_commands;
  std::map<Key, DatasetHandler> m_datasets;
  const security::Verifier* m_verifier = nullptr;
  std::unique_ptr<security::ReplayChecker> m_replay;
  security::DigestSigner m_signer;
  std::map<Name, Stored> m_storage;
  size_t m_storageBytes = 0;
  TimerId m_expiryTimer = 0;
  uint64_t m_lastVersion = 0;
  /// Cleared on destruction so pending asynchronous `done` callbacks become no-ops.
  std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
  Counters m_counters;
};

} // namespace ndnlab::mgmt
