#pragma once
// Statistics of one SegmentFetcher run and their result fields (visitMetrics: the one list of
// keys that `ndnlab get --json`, the ns-3 scenarios' result.json and Python read). The text
// summary of `ndnlab get` is the tool's (tools/common/summaries.hpp).

#include "core/codec/name.hpp"
#include "core/runtime/fields.hpp"
#include "core/runtime/units.hpp"

#include <cstdint>
#include <string>

namespace ndnlab::app {

struct FetchStats
{
  Name versionedName;
  std::string pipeline;         ///< cc algorithm name
  Duration discoveryTime{0};    ///< time spent discovering the version
  Duration elapsed{0};          ///< segment retrieval time (ndncatchunks "Time elapsed")
  uint64_t segments = 0;        ///< distinct segments received
  Bytes bytes;                  ///< content bytes received
  uint64_t interestsSent = 0;   ///< segment Interests sent, retransmissions included
  uint64_t retransmissions = 0; ///< segment Interests that were retransmissions
  uint64_t skippedRetx = 0;     ///< queued retransmissions dropped because the Data came
  uint64_t timeouts = 0;        ///< RTO or lifetime expiries
  uint64_t lostByOrder = 0;     ///< losses found from the order Data return in (no timeout)
  uint64_t lateByOrder = 0;     ///< of those, answered too soon after: late Data or a nearer cache
  uint64_t probes = 0;          ///< tail loss probes sent (Interests outside the window)
  uint64_t nacks = 0;           ///< Nacks received for segment Interests
  uint64_t marks = 0;           ///< congestion-marked Data
  uint64_t markDecreases = 0;   ///< window decreases caused by marks
  uint64_t lossDecreases = 0;   ///< window decreases caused by losses
  uint64_t hystartExits = 0;    ///< HyStart++ RTT rises that ended slow start (entries into CSS)
  uint64_t unexpectedData = 0;  ///< Data that matched no outstanding segment (duplicates, strays)
  uint64_t rttSamples = 0;
  uint64_t ratesHeard = 0; ///< mircc: Data and Nacks that carried a MIRCC rate
  double rateFinal = 0;    ///< mircc: Interests per second at the end
  Duration rttMin{0};
  Duration rttAvg{0};
  Duration rttMax{0};
  double cwnd = 0; ///< window at the end
  Duration rto{0}; ///< RTO at the end

  /// Content bytes per elapsed time.
  Rate goodput() const { return Rate::of(bytes, elapsed); }
};

/// Calls v(metric, value) for each result field of a fetch, in display order; `value` is a
/// std::string, uint64_t or double. Goodput is content bytes over the transfer time (after
/// version discovery), as ndncatchunks reports it.
template<typename Visitor>
void visitMetrics(const FetchStats& s, Visitor&& v)
{
  using fields::Metric;
  const double elapsed = toSeconds(s.elapsed);
  const double bits = static_cast<double>(s.bytes.count()) * 8;
  v(Metric{"name", "", "versioned name of the object"}, s.versionedName.toUri());
  v(Metric{"pipeline", "", "congestion control"}, s.pipeline);
  v(Metric{"discovery_s", "s", "time spent discovering the version"}, toSeconds(s.discoveryTime));
  v(Metric{"transfer_time_s", "s", "segment retrieval time (ndncatchunks' Time elapsed)"}, elapsed);
  v(Metric{"segments", "", "distinct segments received"}, s.segments);
  v(Metric{"bytes", "B", "content bytes received"}, s.bytes.count());
  v(Metric{"goodput_mbps", "Mbit/s", "content bits per transfer time"}, elapsed > 0 ? bits / elapsed / 1e6 : 0.0);
  v(Metric{"interests_sent", "", "segment Interests sent, retransmissions included"}, s.interestsSent);
  v(Metric{"retransmissions", "", "segment Interests that were retransmissions"}, s.retransmissions);
  v(Metric{"skipped_retx", "", "retransmissions not sent because the Data came meanwhile"}, s.skippedRetx);
  v(Metric{"timeouts", "", "RTO or lifetime expiries"}, s.timeouts);
  v(Metric{"lost_by_order", "", "losses found from the order Data return in"}, s.lostByOrder);
  v(Metric{"late_by_order", "",
           "of those, answered before their retransmission left or sooner than a minimum RTT after it: late "
           "Data, or a nearer cache's copy"},
    s.lateByOrder);
  v(Metric{"probes", "", "tail loss probes"}, s.probes);
  v(Metric{"nacks", "", "Nacks for segment Interests"}, s.nacks);
  v(Metric{"marks", "", "congestion-marked Data"}, s.marks);
  v(Metric{"mark_decreases", "", "window decreases caused by marks"}, s.markDecreases);
  v(Metric{"loss_decreases", "", "window decreases caused by losses"}, s.lossDecreases);
  v(Metric{"hystart_exits", "", "RTT rises that ended slow start"}, s.hystartExits);
  v(Metric{"unexpected_data", "", "Data that matched no outstanding segment"}, s.unexpectedData);
  v(Metric{"rtt_samples", "", "RTT samples"}, s.rttSamples);
  v(Metric{"rtt_min_ms", "ms", "lowest RTT sample"}, toMillis(s.rttMin));
  v(Metric{"rtt_avg_ms", "ms", "mean RTT sample"}, toMillis(s.rttAvg));
  v(Metric{"rtt_max_ms", "ms", "highest RTT sample"}, toMillis(s.rttMax));
  v(Metric{"cwnd_final", "", "congestion window at the end"}, s.cwnd);
  v(Metric{"rto_final_ms", "ms", "RTO at the end"}, toMillis(s.rto));
  v(Metric{"rates_heard", "", "mircc: Data and Nacks that carried a MIRCC rate"}, s.ratesHeard);
  v(Metric{"rate_final_pps", "Interests/s", "mircc: sending rate at the end"}, s.rateFinal);
}

} // namespace ndnlab::app
