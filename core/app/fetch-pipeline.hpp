#pragma once
// The loss policy of a SegmentFetcher: what a Data, a Nack and the periodic timeout scan do to
// the window and to the segment they concern. The fetcher keeps what every policy shares (the
// segment table, the retransmission queue, the window and its pacing, the RTT estimate, in-order
// delivery, the end of the content); a pipeline decides the rest, as ndn-tools'
// PipelineInterests implementations do:
// - FixedPipeline: N Interests outstanding (the "fixed" window), each segment retried on its
//   own after lifetime expiry or a Nack, with a per-segment backoff after Nack Congestion
//   (ndncatchunks' DataFetcher);
// - AdaptivePipeline: a congestion window (AIMD, CUBIC) moved by loss events, found by RTO and
//   lifetime expiry or also by the order Data return in (RACK, with a tail-loss probe).
// - RatePipeline ("mircc"): Interests leave at a rate, the one stamped in the latest Data or
//   Nack (MIRCC's explicit rate, docs/mechanisms/mircc.md), not under a window; on a coarse
//   clock (`rateTick` > 0) the Interests that fell due are released together at the next tick,
//   and with `rateSmoothening` also whenever a Data or Nack arrives (Kato et al., Sec. V).
//   Losses are found and retransmitted as the adaptive pipeline finds them.
// makeFetchPipeline() picks one from the pipeline name.

#include "core/app/segment-fetcher.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ndnlab::app {

class FetchPipeline
{
public:
  using Segment = SegmentFetcher::SegInfo;

  explicit FetchPipeline(SegmentFetcher& fetcher) : m_f(fetcher) {}
  virtual ~FetchPipeline() = default;
  FetchPipeline(const FetchPipeline&) = delete;
  FetchPipeline& operator=(const FetchPipeline&) = delete;

  /// An Interest for `seg` left with transmission number `transmission`; `previous` is the
  /// number of the segment's earlier Interest (0: none).
  virtual void onSent(uint64_t /*seg*/, uint64_t /*previous*/, uint64_t /*transmission*/) {}
  /// The Interest with this transmission number stopped being outstanding (answered, queued
  /// for retransmission, or the segment was dropped).
  virtual void onLeaveFlight(uint64_t /*transmission*/) {}
  /// Data for the outstanding segment `seg`, before it is counted and delivered; `rtt` runs
  /// from its latest Interest. The segment has already left the flight.
  virtual void onData(uint64_t seg, Segment& info, Duration rtt, const Data& data) = 0;
  /// After a Data was delivered, while the fetch goes on.
  virtual void afterData() {}
  /// A Nack for the latest Interest of outstanding segment `seg`; `reason` is the error text
  /// should it fail the segment.
  virtual void onNack(uint64_t seg, Segment& info, const Nack& nack, const std::string& reason) = 0;
  /// The periodic scan (every rtoCheckInterval) for Interests that timed out.
  virtual void scanTimeouts(TimePoint now) = 0;
  /// Adds the pipeline's own counters to `stats`.
  virtual void addStats(FetchStats& /*stats*/) const {}
  /// How many Interests may leave now: nullopt = as many as the window allows; a number = the
  /// Interests released by a rate (then the window does not limit them).
  virtual std::optional<size_t> sendAllowance() const { return std::nullopt; }
  /// The fetch ended or stopped: cancel the pipeline's own timers.
  virtual void stop() {}

protected:
  SegmentFetcher& m_f;
};

/// The pipeline named `pipeline` ("mircc": RatePipeline), else the one for a window algorithm
/// that is `adaptive` (cc::CongestionWindow::isAdaptive()) or not.
std::unique_ptr<FetchPipeline> makeFetchPipeline(std::string_view pipeline, bool adaptive, SegmentFetcher& fetcher);

} // namespace ndnlab::app
