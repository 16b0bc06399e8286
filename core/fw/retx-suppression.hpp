#pragma once
// Exponential retransmission suppression (NFD daemon/fw/retx-suppression-exponential.*).
// A PIT entry (or one out-record) keeps a suppression interval: a retransmission arriving
// sooner than that after the last outgoing Interest is suppressed; one forwarded multiplies
// the interval, up to the maximum. Defaults: 10 ms, x2, 250 ms.

#include "core/table/pit.hpp"

#include <string>

namespace ndnlab::fw {

enum class RetxSuppressionResult : uint8_t {
  New,      ///< no pending out-record: a new Interest
  Forward,  ///< a retransmission to forward
  Suppress, ///< a retransmission to suppress
};

struct RetxSuppressionOptions
{
  /// First suppression interval (strategy parameter retx-suppression-initial, ms).
  Duration initial = std::chrono::milliseconds(10);
  /// Interval cap (retx-suppression-max, ms).
  Duration max = std::chrono::milliseconds(250);
  /// Growth factor after each forwarded retransmission (retx-suppression-multiplier).
  double multiplier = 2.0;

  /// Applies strategy parameters `retx-suppression-{initial,max,multiplier}`; an error for an
  /// unknown key, a bad number, or initial <= 0, max < initial, multiplier < 1.
  /// Returns the empty string on success.
  std::string applyParameter(const std::string& key, const std::string& value);
  std::string validate() const;
};

class RetxSuppressionExponential
{
public:
  /// Suppression state kept in a PIT entry or an out-record.
  struct Info : table::StrategyInfo
  {
    explicit Info(Duration d) : interval(d) {}
    Duration interval;
  };

  explicit RetxSuppressionExponential(RetxSuppressionOptions options = {}) : m_options(options) {}

  /// Per-entry decision (best-route). `owner` is the strategy serial owning the info slot.
  RetxSuppressionResult decidePerPitEntry(table::PitEntry& entry, uint64_t owner, TimePoint now) const;
  /// Per-upstream decision (multicast): New if there is no out-record for `upstream`.
  RetxSuppressionResult decidePerUpstream(table::PitEntry& entry, const face::Face& upstream, uint64_t owner,
                                          TimePoint now) const;
  /// After forwarding a retransmission to an upstream (multicast).
  void incrementIntervalForOutRecord(table::PitOutRecord& record, uint64_t owner) const;

  const RetxSuppressionOptions& options() const { return m_options; }

private:
  Duration grow(Duration d) const;
  RetxSuppressionOptions m_options;
};

} // namespace ndnlab::fw
