#pragma once
// Shared pieces of the NDN scenarios of ndnlab-sim (wifi-one-hop, p2p-chain, dumbbell):
// parameter specs and parsers, one consumer/producer pair ("Fetch") with its metrics and a
// streaming bit-exact check, per-node frame counters, and trace files. Glue only: every
// protocol decision is made by the core engines inside the ns3/ndnlab applications.

#include "ns3/runner/run-context.hpp"

#include "core/app/fetch-stats.hpp"
#include "core/app/perf-client.hpp"
#include "core/app/ping.hpp"

#include <ns3/application.h>
#include <ns3/net-device-container.h>
#include <ns3/node-container.h>
#include <ns3/nstime.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace ndnlab::sim {
class Tracers;
class WifiPhyCounter;
}

namespace ndnlab::sim::scenarios {

using runner::Params;
using runner::ParamSpec;
using runner::ParamType;
using runner::RunContext;
using runner::UsageError;

// --- parameter specs ---

/// `v` as `std::ostream <<` writes it (6 significant digits): parameter defaults and values.
std::string formatNumber(double v);
/// The parameter lists one after the other, in order.
std::vector<ParamSpec> joinParams(std::initializer_list<std::vector<ParamSpec>> lists);

/// Consumer (one-interest | fixed | aimd | cubic, or without one-interest), FileSize,
/// PayloadSize, Signing, StartTime, and the consumer knobs (RtoK, InitCwnd, MinRto, Lifetime,
/// RtoCheckInterval, CubicBeta, AimdBeta, AimdMinSsthresh, AimdFloorIncrease, CeilWindow, RtoBackoffPerTimeout,
/// RttFullGains, CubicTcpFriendly, FixedWindow, DisableCwa, CwaGate, CwaRttSuppress, Retries). The knobs default to the
/// ConsumerApp defaults (ndncatchunks) and are only applied when given, so
/// `--ns3::ndnlab::ConsumerApp::<Attr>=...` overrides keep working for the others; the
/// one-interest consumer ignores them (so one campaign grid can mix all consumers).
std::vector<ParamSpec> consumerParams(bool withOneInterest, const std::string& defaultFileSize);
/// Traces (none | periodic | all), TracePeriod, MaxTime.
std::vector<ParamSpec> runParams(double defaultMaxTime);
/// CsSize: the Content Store capacity of every node (packets, default 65536; 0: no caching).
ParamSpec csSizeParam();

/// What the specs of consumerParams() cannot check, for Scenario::check: FileSize parses, and
/// unless Consumer is one-interest, the ConsumerApp options the knobs give (its ns-3 defaults,
/// --ns3:: overrides included) pass the core's own SegmentFetcherOptions::validate(), applied
/// after each knob so the message names the first bad one: "--InitCwnd=0: initial cwnd must be
/// >= 1". Throws UsageError.
void checkConsumerParams(const Params& params);

// --- parsers (each throws UsageError naming the parameter) ---

/// Largest data rate of a rate parameter: 1000 Gbps.
inline constexpr double MaxRateBps = 1e12;
/// Smallest byte-counted device queue: one 1500-byte frame (a smaller one drops every frame).
inline constexpr double MinQueueBytes = 1500;

/// "104857600", "100MiB", "10MB", "1.5GB", "64KiB", "512k": bytes (k/M/G = 10^3.., Ki/Mi/Gi = 2^10..).
uint64_t parseByteSize(const std::string& name, const std::string& text);
/// One value for every element, or exactly `n` comma-separated values; no value may be empty.
std::vector<std::string> perElement(const std::string& name, const std::string& text, size_t n);
/// Checks an ns-3 DataRate string ("10Mbps", "1.5Gbps", "800kbps"): 1 bps .. MaxRateBps.
std::string checkRate(const std::string& name, const std::string& text);
/// Checks an ns-3 Time string with unit ("2ms", "0.5s", "100us"): 0 .. runner::MaxTimeSeconds.
std::string checkTime(const std::string& name, const std::string& text);
/// Checks an ns-3 QueueSize string ("100p", "64000B"): at least 1 packet or MinQueueBytes, at
/// most 2^32-1 (ns-3 counts in uint32).
std::string checkQueue(const std::string& name, const std::string& text);
/// A probability in [0, 1] (a strict decimal number, as runner::parseDouble).
double parseProbability(const std::string& name, const std::string& text);

// --- one fetch: producer + consumer ---

/// p[0..n) equals bytes offset..offset+n of the synthetic content stream of `seed`
/// (ns3/ndnlab/apps/content.hpp), without materialising it.
bool contentMatches(uint64_t seed, uint64_t offset, const uint8_t* p, size_t n);

struct FetchSpec
{
  std::string prefix = "/lab/file"; ///< the producer's prefix = the name the consumer fetches
  uint64_t contentSeed = 1;         ///< the producer's ContentSeed
  double startDelay = 0;            ///< the consumer starts at StartTime + startDelay (s)
};

/// One point-to-point link of a Scenario::network description: its ends, the rate, delay and
/// queue as the scenario's parameters give them (checked) and in bit/s and seconds, the loss, and
/// `loss_stream`: the ns-3 random stream of its losses (linkLossStream of link `index`), so the
/// emulated link loses the same frames as the simulated one.
nlohmann::json networkLink(size_t index, const std::string& a, const std::string& b, const std::string& rate,
                           const std::string& delay, double loss, const std::string& queue);

/// The producer and consumer of a Fetch as `ndnlab emu` runs them (Scenario::network): the
/// producer `ndnlab serve <prefix> FILE` of FileSize bytes in PayloadSize segments, the consumer
/// `ndnlab get <prefix>` at StartTime (+ startDelay) with the Consumer's `--cc`, the Profile and
/// every knob given as `get`'s own flags. Throws UsageError for what the tools cannot run (the
/// one-interest consumer, a knob without a flag).
nlohmann::json fetchApps(const Params& params, const FetchSpec& spec, const std::string& consumerNode,
                         const std::string& producerNode);

/// A producer and a consumer application chosen by the Consumer parameter. The delivered bytes
/// are compared, as they arrive, with the producer's synthetic content (content.hpp), so the
/// bit-exact check needs no copy of the file.
class Fetch
{
public:
  /// Installs the apps (the consumer starts at StartTime). `onDone` runs once, when the fetch
  /// completes or fails.
  Fetch(const Params& params, const FetchSpec& spec, ns3::Ptr<ns3::Node> consumerNode, ns3::Ptr<ns3::Node> producerNode,
        std::function<void()> onDone);

  bool done() const;
  bool complete() const;
  app::FetchStats stats() const;
  uint64_t fileSize() const { return m_fileSize; }
  /// Consumer start (s) and the time it completed or failed (s; now while running).
  double startTime() const { return m_start; }
  double endTime() const;
  /// Content bytes delivered so far.
  uint64_t deliveredBytes() const;
  ns3::Ptr<ns3::Application> consumerApp() const { return m_consumer; }
  ns3::Ptr<ns3::Application> producerApp() const { return m_producer; }

  /// goodput_mbps (content bytes / transfer time, as ndncatchunks), completion_time_s (start
  /// to last byte, null when not complete), transfer_time_s, completed, bit_exact, bytes,
  /// segments, interests_sent, retransmissions, timeouts, nacks, unexpected_data,
  /// data_received (Data on the consumer node's NetDevice faces, duplicates included),
  /// rtt_*_ms, cwnd_final, rto_final_ms.
  nlohmann::json metrics() const;

private:
  struct State;
  std::shared_ptr<State> m_state;
  std::string m_kind;
  uint64_t m_fileSize = 0;
  double m_start = 0;
  ns3::Ptr<ns3::Application> m_consumer;
  ns3::Ptr<ns3::Application> m_producer;
};

// --- one ping run: ping server + ping client ---

/// PingCount, PingInterval (ms), PingTimeout (ms), PingSize (B): a ping run as `ndnlab ping
/// -c -i -t` and `ndnlab pingserver -s` take it, with those tools' defaults but the count (10).
std::vector<ParamSpec> pingParams();

/// The ping server and client of a Ping as `ndnlab emu` runs them (Scenario::network): the
/// producer `ndnlab pingserver <prefix> --size PingSize` (registers <prefix>/ping), the consumer
/// `ndnlab ping <prefix> --count --interval --timeout` at StartTime.
nlohmann::json pingApps(const Params& params, const std::string& prefix, const std::string& consumerNode,
                        const std::string& producerNode);

/// A ping server on the producer node (PingServerApp) and a ping client on the consumer node
/// (PingClientApp, from StartTime), as `ndnlab pingserver` and `ndnlab ping` run them.
class Ping
{
public:
  /// Installs the apps. `onDone` runs once, when every ping has its outcome.
  Ping(const Params& params, const std::string& prefix, ns3::Ptr<ns3::Node> consumerNode,
       ns3::Ptr<ns3::Node> producerNode, std::function<void()> onDone);

  /// The keys of `ndnlab ping --json` (pingMetrics).
  nlohmann::json metrics() const;

private:
  ns3::Ptr<ns3::Application> m_client;
  std::shared_ptr<std::function<void()>> m_onDone;
};

/// A ping run's result fields, the keys `ndnlab ping --json` writes (tools/ping; the test of
/// `ndnlab emu` compares them): pings_sent, pings_received, pings_nacked, pings_timed_out,
/// loss_percent and nack_percent (of those sent), rtt_min/avg/max/mdev_ms (null without a
/// reply) and elapsed_s (from the first ping to the last outcome).
nlohmann::json pingMetrics(const app::PingStats& s, Duration elapsed);

// --- one perf run: perf server + perf client ---

/// PerfTime (s), PerfBitRate (bit/s per flow; 0: the window pipeline of the Consumer parameter),
/// PerfParallel, PerfLength (B), PerfInterval (s): a test as `ndnlab perf client -t -b -P -l -i`
/// takes it, with that tool's defaults.
std::vector<ParamSpec> perfParams();

/// The perf server and client of a Perf as `ndnlab emu` runs them (Scenario::network): the
/// producer `ndnlab perf server <prefix>`, the consumer `ndnlab perf client <prefix> -J -t -b -P
/// -l -i [--cc Consumer]` at StartTime.
nlohmann::json perfApps(const Params& params, const std::string& prefix, const std::string& consumerNode,
                        const std::string& producerNode);

/// A perf server on the producer node (PerfProducerApp) and a perf client on the consumer node
/// (PerfConsumerApp, from StartTime), as `ndnlab perf server` and `ndnlab perf client` run them.
class Perf
{
public:
  /// Installs the apps. `onDone` runs once, when the test has its report.
  Perf(const Params& params, const std::string& prefix, ns3::Ptr<ns3::Node> consumerNode,
       ns3::Ptr<ns3::Node> producerNode, std::function<void()> onDone);

  /// perfMetrics of the report; an empty report when the test did not end.
  nlohmann::json metrics() const;

private:
  ns3::Ptr<ns3::Application> m_client;
  std::shared_ptr<std::function<void()>> m_onDone;
};

/// A perf test's result fields, each named after the figure of `ndnlab perf client -J` it is
/// (ndnlab.emu reads them from there): goodput_mbps (end.sum_received.bits_per_second / 1e6),
/// bytes, lost_packets, lost_percent, jitter_ms (RFC 3550), retransmissions, interests, data,
/// timeouts, nacks, congestion_marks, rtt_min/avg/max_ms (end.ndn), interarrival_ave_us,
/// interarrival_max_us, interarrival_var_us2 (Cefore's), elapsed_s, server_bytes (what the
/// server sent), intervals_mbps (intervals[].sum.bits_per_second / 1e6), mode, completed (no
/// flow failed), cpu_host_percent and cpu_remote_percent (null: simulated hosts have no CPU).
nlohmann::json perfMetrics(const app::PerfReport& r);

// --- per-node counters ---

/// NDN frames and packets of a node's NetDevice faces: tx_frames, rx_frames, tx_bytes,
/// rx_bytes (NDN frame bytes, as the transports count them), interests_out/in, data_out/in,
/// nacks_out/in (face counters).
nlohmann::json nodeFrames(ns3::Ptr<ns3::Node> node);

/// Device drops of point-to-point devices: MacTxDrop (queue full) and PhyRxDrop (error model).
class P2pDropCounter
{
public:
  explicit P2pDropCounter(const ns3::NetDeviceContainer& devices);
  /// {"queue_drops": n, "loss_drops": n} summed over the devices of `node`.
  nlohmann::json forNode(ns3::Ptr<ns3::Node> node) const;

private:
  struct Counts
  {
    uint32_t node = 0;
    uint64_t queue = 0, loss = 0;
  };
  std::vector<std::shared_ptr<Counts>> m_counts;
};

/// nodeFrames() of `node` plus its drops (P2pDropCounter::forNode): a point-to-point
/// scenario's entry of `nodes` in result.json.
nlohmann::json nodeReport(ns3::Ptr<ns3::Node> node, const P2pDropCounter& drops);

/// {"phy_tx": n, "phy_tx_data": n, "phy_tx_ctl": n, "phy_tx_mgt": n}: the PHY transmissions
/// of device `i` of a WifiPhyCounter by frame type (every MPDU of an A-MPDU counts).
nlohmann::json phyCounters(const WifiPhyCounter& phy, size_t i);

// --- traces ---

/// Trace files of ns3/ndnlab's Tracers in ctx.outDir() as asked by Traces/TracePeriod:
/// periodic = rates.csv, drops.csv, goodput.csv, tables.csv; all = those + delays.csv (one row
/// per Data). Nothing without --out or with Traces=none. Flushes when destroyed.
class ScenarioTraces
{
public:
  ScenarioTraces(RunContext& ctx, const ns3::NodeContainer& nodes);
  ~ScenarioTraces();
  ScenarioTraces(const ScenarioTraces&) = delete;
  ScenarioTraces& operator=(const ScenarioTraces&) = delete;

  /// Event kinds and kind/reason counted over the run (empty without tracers).
  nlohmann::json counts() const;
  /// The "drop/<reason>" entries of counts() keyed by reason (empty without tracers or drops).
  nlohmann::json drops() const;

private:
  std::unique_ptr<Tracers> m_tracers;
};

/// Registers `name` as a trace of the run (listed in result.json) and returns its path, or an
/// empty string without --out.
std::string tracePath(RunContext& ctx, const std::string& name);

} // namespace ndnlab::sim::scenarios
