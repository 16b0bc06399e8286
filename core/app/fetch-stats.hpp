#pragma once
// Statistics of one SegmentFetcher run and their two renderings: the ndncatchunks-style
// summary (stderr of `ndnlab get`) and a JSON object (`ndnlab get --json`).

#include "core/codec/name.hpp"
#include "core/runtime/units.hpp"

#include <cstdint>
#include <string>

namespace ndnlab::app {

struct FetchStats
{
  Name versionedName;
  std::string pipeline;           ///< cc algorithm name
  Duration discoveryTime{0};      ///< time spent discovering the version
  Duration elapsed{0};            ///< segment retrieval time (ndncatchunks "Time elapsed")
  uint64_t segments = 0;          ///< distinct segments received
  Bytes bytes;                    ///< content bytes received
  uint64_t interestsSent = 0;     ///< segment Interests sent, retransmissions included
  uint64_t retransmissions = 0;   ///< segment Interests that were retransmissions
  uint64_t skippedRetx = 0;       ///< queued retransmissions dropped because the Data came
  uint64_t timeouts = 0;          ///< RTO or lifetime expiries
  uint64_t lostByOrder = 0;       ///< losses found from the order Data return in (no timeout)
  uint64_t probes = 0;            ///< tail loss probes sent (Interests outside the window)
  uint64_t nacks = 0;             ///< Nacks received for segment Interests
  uint64_t marks = 0;             ///< congestion-marked Data
  uint64_t markDecreases = 0;     ///< window decreases caused by marks
  uint64_t lossDecreases = 0;     ///< window decreases caused by losses
  uint64_t hystartExits = 0;      ///< HyStart++ RTT rises that ended slow start (entries into CSS)
  uint64_t unexpectedData = 0;    ///< Data that matched no outstanding segment (duplicates, strays)
  uint64_t rttSamples = 0;
  Duration rttMin{0};
  Duration rttAvg{0};
  Duration rttMax{0};
  double cwnd = 0;                ///< window at the end
  Duration rto{0};                ///< RTO at the end

  /// Content bytes per elapsed time.
  Rate goodput() const { return Rate::of(bytes, elapsed); }
};

/// `v` with `precision` digits after the point (printf "%.*f").
std::string formatFixed(double v, int precision);
/// ndncatchunks-style rate text: "12.345678 Mbit/s" (steps of 1000).
std::string formatRate(Rate r);
/// The summary printed by ndncatchunks after a successful transfer, with the adaptive
/// lines (marks, timeouts, retransmissions, RTT) when `adaptive`.
std::string formatSummary(const FetchStats& s, bool adaptive);
/// One JSON object (no trailing newline). `status` is "ok" or an error name; `error` text.
std::string toJson(const FetchStats& s, std::string_view status, std::string_view error = {});

} // namespace ndnlab::app
