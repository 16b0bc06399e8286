#pragma once
// Tracers: CSV files generated from the core's single event list (every NdnStack's "Event"
// trace source), plus periodic samples of table sizes and transport byte counters.
//
//   Tracers tracers;                                    // all nodes with a stack
//   tracers.EnableRates("rates.csv", Seconds(1));       // per face and period
//   tracers.EnableAppDelays("delays.csv");              // per Data
//   tracers.EnableTableSizes("tables.csv", Seconds(1));
//   tracers.EnableDrops("drops.csv", Seconds(1));
//   tracers.EnableGoodput("goodput.csv", Seconds(1));
//   tracers.EnableBundles("bundles.csv", Seconds(1));   // BLEnD link-service counters
//   Tracers::EnablePcap("trace", devices);              // optional pcap per device
//   Simulator::Stop(...); Simulator::Run(); tracers.Flush();
//
// Files (one header line, then rows; time_s is the end of the period or the event time):
// - rates: time_s,node,face,in_interests,out_interests,in_data,out_data,in_nacks,out_nacks,
//   in_bytes,out_bytes  -- packets from interest_in/out, data_in/out, nack_in/out events;
//   bytes are NDN frame bytes from the face's transport counters (0 on app faces).
// - delays: time_s,node,segment,delay_s,retx,kind  -- one row per fetch_data event of a
//   consumer engine (kind first|retx|push|repair; delay since the first Interest for it;
//   retx from fetch_data_retx).
// - tables: time_s,node,pit,cs
// - drops: time_s,node,face,reason,count  -- per period, from drop and impair_drop events, plus
//   device-level drops (reasons mac_tx_drop, phy_rx_drop for point-to-point and CSMA devices,
//   wifi_mac_drop and wifi_phy_rx_drop for Wi-Fi) counted from the ns-3 devices of NDN faces.
// - goodput: time_s,node,bytes,mbps  -- content bytes delivered to consumer apps (app_bytes).
// - bundles: time_s,node,face,out_interests,out_bundles,out_absorbed,in_bundles,in_regenerated,
//   in_gap_filled,in_stale,in_invalid,in_data_early,in_data_early_expired  -- per NetDevice
//   face and period: Interests the forwarder
//   sent to the face, then the BLEnD link-service counters (link-service.hpp); the Interest
//   frames on the air are out_interests - out_absorbed. Also counted over the whole run as
//   events bundle_out, interest_absorbed, bundle_in, interest_regenerated, data_early,
//   drop/bundle_stale.
// Periodic tracers keep scheduling events: run the simulation with Simulator::Stop.
// Every event kind and reason is also counted over the whole run (Counts()).

#include "ns3/ndnlab/model/ndn-stack.hpp"

#include <ns3/net-device-container.h>
#include <ns3/node-container.h>
#include <ns3/nstime.h>

#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>

namespace ndnlab::sim {

class Tracers
{
public:
  /// Listens to the stacks of `nodes` (default: every node that has one now).
  explicit Tracers(const ns3::NodeContainer& nodes = ns3::NodeContainer::GetGlobal());
  ~Tracers();
  Tracers(const Tracers&) = delete;
  Tracers& operator=(const Tracers&) = delete;

  /// Each throws std::runtime_error if the file cannot be opened.
  void EnableRates(const std::string& file, ns3::Time period);
  void EnableAppDelays(const std::string& file);
  void EnableTableSizes(const std::string& file, ns3::Time period);
  void EnableDrops(const std::string& file, ns3::Time period);
  void EnableGoodput(const std::string& file, ns3::Time period);
  void EnableBundles(const std::string& file, ns3::Time period);

  /// pcap files `<prefix>-<node>-<device>.pcap` for point-to-point, CSMA and Wi-Fi devices
  /// (Wi-Fi with radiotap headers); other device types are skipped.
  static void EnablePcap(const std::string& prefix, const ns3::NetDeviceContainer& devices);

  /// Writes pending rows and flushes the files.
  void Flush();

  /// Events of the whole run by "kind" and by "kind/reason" (when the reason is not empty).
  const std::map<std::string, uint64_t>& Counts() const;
  /// Content bytes delivered to consumer apps, per node, over the whole run.
  const std::map<uint32_t, uint64_t>& AppBytes() const { return m_appBytesTotal; }

private:
  struct FaceRates
  {
    uint64_t inInterests = 0, outInterests = 0, inData = 0, outData = 0, inNacks = 0, outNacks = 0;
    uint64_t lastInBytes = 0, lastOutBytes = 0;
  };
  struct PendingDelay
  {
    bool valid = false;
    double time = 0;
    int64_t segment = 0;
    double delay = 0;
    std::string kind;
    uint64_t retx = 0;
  };
  struct StringHash
  {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  void onEvent(const TraceRecord& r);
  void count(EventKind kind, std::string_view reason);
  void countDrop(uint32_t node, uint64_t face, std::string_view reason);
  void writeDelay(uint32_t node, PendingDelay& p);
  void connectDeviceDrops();
  void sampleRates();
  void sampleTables();
  void sampleDrops();
  void sampleGoodput();
  void sampleBundles();
  static std::ofstream open(const std::string& file, const char* header);

  std::vector<ns3::Ptr<NdnStack>> m_stacks;

  std::ofstream m_rates, m_delays, m_tables, m_drops, m_goodput, m_bundles;
  ns3::Time m_ratesPeriod, m_tablesPeriod, m_dropsPeriod, m_goodputPeriod;
  /// Counters at the previous bundles sample, per (node, face).
  std::map<std::pair<uint32_t, uint64_t>, std::pair<uint64_t, face::LinkService::Counters>> m_lastBundles;
  std::map<std::pair<uint32_t, uint64_t>, FaceRates> m_faceRates;
  std::map<uint32_t, PendingDelay> m_pendingDelays;
  std::map<std::tuple<uint32_t, uint64_t, std::string>, uint64_t> m_dropsInPeriod;
  bool m_deviceDropsConnected = false;
  std::map<uint32_t, uint64_t> m_appBytes; ///< in the current goodput period
  std::map<uint32_t, uint64_t> m_appBytesTotal;

  std::unordered_map<std::string, uint64_t, StringHash, std::equal_to<>> m_counts;
  mutable std::map<std::string, uint64_t> m_countsSorted;
  mutable bool m_countsDirty = false;
  /// Periodic samplers stop when this goes (they hold a weak reference).
  std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

} // namespace ndnlab::sim
