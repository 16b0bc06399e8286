#pragma once
// ProducerApp: app::SegmentServer (the engine of `ndnlab serve`) as an ns-3 application,
// publishing FileSize bytes of synthetic content (content.hpp, stream ContentSeed) under Prefix
// and routing Prefix to itself on its node.
//
// Attributes: Prefix, FileSize, ContentSeed, Signing (digest | hmac | ecdsa | null; ecdsa
// signatures vary in length from run to run, so runs with it are not reproducible), and every
// SegmentServerOptions field of options-attributes.hpp (PayloadSize, Freshness, Version, ...).

#include "ns3/ndnlab/apps/ndn-app.hpp"

#include "core/app/segment-server.hpp"
#include "core/security/signer.hpp"

namespace ndnlab::sim {

/// A signer by name: digest | hmac (key derived from `identity`) | ecdsa (fresh key) | null.
/// Throws std::invalid_argument for other names.
std::unique_ptr<security::Signer> makeSigner(std::string_view kind, const Name& identity);

class ProducerApp : public NdnApp
{
public:
  static ns3::TypeId GetTypeId();
  ProducerApp();
  ~ProducerApp() override;

  app::SegmentServerOptions& OptionsRef() { return m_opts; }
  const app::SegmentServerOptions& GetOptions() const { return m_opts; }
  /// The running server, or nullptr.
  const app::SegmentServer* GetServer() const { return m_server.get(); }
  uint64_t GetFileSize() const { return m_fileSize; }
  uint64_t GetContentSeed() const { return m_seed; }

private:
  void StartEngine() override;
  void StopEngine() override;

  app::SegmentServerOptions m_opts;
  uint64_t m_fileSize = 0;
  uint64_t m_seed = 0;
  std::string m_signing;
  std::unique_ptr<security::Signer> m_signer;
  std::unique_ptr<app::SegmentServer> m_server;
};

} // namespace ndnlab::sim
