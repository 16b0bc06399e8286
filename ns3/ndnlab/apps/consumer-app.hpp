#pragma once
// ConsumerApp: app::SegmentFetcher (the engine of `ndnlab get`) as an ns-3 application.
//
// Attributes: Prefix (the name to fetch: a prefix to discover or a versioned name), every
// SegmentFetcherOptions field of options-attributes.hpp (Pipeline, RtoK, InitCwnd, MinRto,
// MaxRto, Lifetime, Retries, VersionDiscovery, ...), ExpectedSize (bytes; when non-zero, a
// completed fetch of another size is reported as trace event fetch_size_mismatch).
// Trace sources: "Bytes" (content delivered, in order: pointer, length), "Complete"
// (FetchStats of a successful fetch), "Failed" (FetchStats, error text); plus NdnApp's.
// Core trace events: the fetcher's own (fetch_data, fetch_rtt, ...) and app_bytes (value =
// content bytes delivered) for goodput tracers.

#include "ns3/ndnlab/apps/ndn-app.hpp"

#include "core/app/segment-fetcher.hpp"

namespace ndnlab::sim {

class ConsumerApp : public NdnApp
{
public:
  static ns3::TypeId GetTypeId();
  ConsumerApp();
  ~ConsumerApp() override;

  app::SegmentFetcherOptions& OptionsRef() { return m_opts; }
  const app::SegmentFetcherOptions& GetOptions() const { return m_opts; }
  /// The running fetcher, or nullptr.
  app::SegmentFetcher* GetFetcher() const { return m_fetcher.get(); }
  /// Statistics of the current or last fetch.
  app::FetchStats GetStats() const;
  bool IsComplete() const { return m_complete; }
  bool IsFailed() const { return m_failed; }
  uint64_t GetReceivedBytes() const { return m_received; }

private:
  void StartEngine() override;
  void StopEngine() override;

  app::SegmentFetcherOptions m_opts;
  uint64_t m_expectedSize = 0;
  std::unique_ptr<app::SegmentFetcher> m_fetcher;
  app::FetchStats m_lastStats;
  bool m_complete = false;
  bool m_failed = false;
  uint64_t m_received = 0;

  ns3::TracedCallback<const uint8_t*, size_t> m_bytesTrace;
  ns3::TracedCallback<const app::FetchStats&> m_completeTrace;
  ns3::TracedCallback<const app::FetchStats&, const std::string&> m_failedTrace;
};

} // namespace ndnlab::sim
