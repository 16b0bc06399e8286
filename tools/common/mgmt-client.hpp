#pragma once
// NFD management from the tools: signed commands (v0.3 signed Interest, DigestSha256, like
// python-ndn appv2 and ndnd) and status datasets (segmented, fetched with app::SegmentFetcher
// in FirstSegment discovery mode).

#include "core/app/segment-fetcher.hpp"
#include "core/mgmt/control-parameters.hpp"
#include "core/security/signed-interest.hpp"
#include "tools/common/connection.hpp"

#include <functional>
#include <memory>
#include <string>

namespace ndnlab::tools {

class ToolRuntime;

class MgmtClient
{
public:
  /// Control response, or an error text (timeout, Nack, undecodable reply).
  using CommandCallback = std::function<void(const Result<mgmt::ControlResponse, std::string>&)>;
  /// Dataset content, or an error text.
  using DatasetCallback = std::function<void(const Result<Buffer, std::string>&)>;

  MgmtClient(io::AsioEnv& env, ForwarderConnection& conn);
  ~MgmtClient();

  /// /localhost/nfd/<module>/<verb>/<CP> as a signed Interest; `done` gets the response.
  void command(std::string_view module, std::string_view verb, const mgmt::ControlParameters& cp, CommandCallback done);
  /// /localhost/nfd/<module>/<verb> dataset; one at a time.
  void dataset(std::string_view module, std::string_view verb, DatasetCallback done);
  /// A dataset with a parameter, /localhost/nfd/<module>/<verb>/<parameter> (faces/query: the
  /// FaceQueryFilter TLV as one generic component).
  void dataset(std::string_view module, std::string_view verb, ByteSpan parameter, DatasetCallback done);

  /// rib/register of `prefix` on the connection's face (Origin app, Cost 0, like python-ndn);
  /// `done` gets an empty string on success, else an error text.
  void registerPrefix(const Name& prefix, std::function<void(const std::string& error)> done);

  static Name topPrefix() { return Name("/localhost/nfd"); }

  /// For a producer tool (serve, pingserver, perf server): `ready()` once `prefix` is served, at
  /// once with `noRegister` (a route exists already), else after rib/register succeeds. A
  /// refused registration prints "failed to register prefix P: why", sets `rc` to
  /// exitcode::Failure and stops `rt`.
  void servePrefix(ToolRuntime& rt, const Name& prefix, bool noRegister, int& rc, std::function<void()> ready);

private:
  io::AsioEnv& m_env;
  ForwarderConnection& m_conn;
  security::DigestSigner m_digest;
  security::InterestSigner m_signer;
  void fetchDataset(Name name, DatasetCallback done);

  std::unique_ptr<app::SegmentFetcher> m_fetcher;
};

} // namespace ndnlab::tools
