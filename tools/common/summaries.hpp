#pragma once
// The human summaries the tools print at the end, ndn-tools' wording: `ndnlab get`'s is
// ndncatchunks', `ndnlab ping`'s is ndnping's. Core engines keep statistics only; text (and
// JSON, from visitMetrics) is written here.

#include "core/app/fetch-stats.hpp"
#include "core/app/ping.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ndnlab::tools {

/// `v` with `precision` digits after the point (printf "%.*f").
std::string formatFixed(double v, int precision);
/// ndncatchunks-style rate text: "12.345678 Mbit/s" (steps of 1000).
std::string formatRate(Rate r);
/// A bit rate typed by a user: a number, an optional SI prefix (k, M, G; case-insensitive) and
/// an optional unit (bit/s, bps, bit): "12Mbit/s", "12M", "1.5gbit", "500000". Nullopt for
/// anything else, a negative value or one that does not fit 64 bits; 0 is allowed.
std::optional<uint64_t> parseBitRate(std::string_view text);
/// The summary printed by ndncatchunks after a successful transfer, with the adaptive
/// lines (marks, timeouts, retransmissions) when `adaptive`.
std::string formatFetchSummary(const app::FetchStats& s, bool adaptive);
/// ndnping's closing statistics.
std::string formatPingSummary(const Name& prefix, const app::PingStats& s, Duration elapsed);
/// `ndnlab ping --json`: the statistics as one line of JSON, `status` ("ok" when a reply
/// came, else "error"), `prefix`, then the keys the ns-3 scenarios write for a ping run
/// (scenario-kit's pingMetrics; the test of `ndnlab emu` compares them): pings_sent,
/// pings_received, pings_nacked, pings_timed_out, loss_percent, nack_percent,
/// rtt_min/avg/max/mdev_ms (null without a reply) and elapsed_s.
std::string formatPingJson(const Name& prefix, const app::PingStats& s, Duration elapsed);

} // namespace ndnlab::tools
