// Tracers: the CSV files agree with the face counters, the fetcher's statistics and the
// losses the error model caused.

#include "ns3/ndnlab/tests/sim-fixture.hpp"

#include "ns3/ndnlab/helper/tracers.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ndnlab::sim::test {
namespace {

using Table = std::vector<std::map<std::string, std::string>>;

Table readCsv(const std::string& path)
{
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> header;
  Table rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ','))
      cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i)
      row[header[i]] = cells[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

uint64_t sum(const Table& t, const std::string& col,
             std::function<bool(const std::map<std::string, std::string>&)> where = {})
{
  uint64_t s = 0;
  for (const auto& r : t) {
    if (!where || where(r))
      s += std::stoull(r.at(col));
  }
  return s;
}

class TracersTest : public SimTest
{};

TEST_F(TracersTest, FilesAgreeWithCountersAndStatistics)
{
  std::string dir = ::testing::TempDir() + "ndnlab-tracers-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);

  Chain chain(3, "10Mbps", "2ms");
  chain.addLoss(1, 0, 0.02, 900); // Data into node 1 from the producer
  StackHelper stack;
  stack.Install(chain.nodes);
  RouteHelper routes;
  routes.AddOrigin("/lab", chain.nodes.Get(2));
  routes.CalculateRoutes();
  AppHelper producer("ndnlab::ProducerApp");
  producer.SetPrefix("/lab/file");
  producer.SetAttribute("FileSize", ns3::UintegerValue(200'000));
  producer.SetAttribute("PayloadSize", ns3::UintegerValue(1000));
  producer.Install(chain.nodes.Get(2));
  AppHelper consumer("ndnlab::ConsumerApp");
  consumer.SetPrefix("/lab/file");
  consumer.SetAttribute("Pipeline", ns3::StringValue("aimd"));
  auto app = ns3::DynamicCast<ConsumerApp>(consumer.Install(chain.nodes.Get(0)).Get(0));

  {
    Tracers tracers;
    tracers.EnableRates(dir + "/rates.csv", ns3::MilliSeconds(100));
    tracers.EnableAppDelays(dir + "/delays.csv");
    tracers.EnableTableSizes(dir + "/tables.csv", ns3::MilliSeconds(100));
    tracers.EnableDrops(dir + "/drops.csv", ns3::MilliSeconds(100));
    tracers.EnableGoodput(dir + "/goodput.csv", ns3::MilliSeconds(100));
    ns3::Simulator::Stop(ns3::Seconds(10));
    ns3::Simulator::Run();
    tracers.Flush();
    ASSERT_TRUE(app->IsComplete());
    app::FetchStats st = app->GetStats();

    // rates: per-face sums equal the face and transport counters
    Table rates = readCsv(dir + "/rates.csv");
    ASSERT_FALSE(rates.empty());
    for (uint32_t n = 0; n < 3; ++n) {
      auto s = chain.nodes.Get(n)->GetObject<NdnStack>();
      for (const face::Face& f : s->GetForwarder().faceTable()) {
        auto at = [n, &f](const std::map<std::string, std::string>& r) {
          return r.at("node") == std::to_string(n) && r.at("face") == std::to_string(f.id());
        };
        SCOPED_TRACE("node " + std::to_string(n) + " face " + std::to_string(f.id()));
        EXPECT_EQ(sum(rates, "in_interests", at), f.counters().nInInterests);
        EXPECT_EQ(sum(rates, "out_interests", at), f.counters().nOutInterests);
        EXPECT_EQ(sum(rates, "in_data", at), f.counters().nInData);
        EXPECT_EQ(sum(rates, "out_data", at), f.counters().nOutData);
        EXPECT_EQ(sum(rates, "in_bytes", at), f.transport().counters().nInBytes);
        EXPECT_EQ(sum(rates, "out_bytes", at), f.transport().counters().nOutBytes);
      }
    }

    // delays: one row per segment, retransmitted ones marked
    Table delays = readCsv(dir + "/delays.csv");
    EXPECT_EQ(delays.size(), st.segments);
    uint64_t retxRows = 0;
    for (const auto& r : delays) {
      EXPECT_GT(std::stod(r.at("delay_s")), 0.0);
      retxRows += r.at("kind") == "retx";
      if (r.at("kind") == "retx") {
        EXPECT_GE(std::stoull(r.at("retx")), 1u);
      }
    }
    EXPECT_GT(retxRows, 0u);
    EXPECT_LE(retxRows, st.retransmissions);

    // drops: every frame the error model destroyed
    Table drops = readCsv(dir + "/drops.csv");
    uint64_t phyDrops = sum(drops, "count", [](const auto& r) { return r.at("reason") == "phy_rx_drop"; });
    EXPECT_GT(phyDrops, 0u);
    EXPECT_EQ(phyDrops, tracers.Counts().at("dev_drop/phy_rx_drop"));

    // tables: three nodes per sample
    Table tables = readCsv(dir + "/tables.csv");
    ASSERT_GE(tables.size(), 3u);
    EXPECT_EQ(tables.size() % 3, 0u);

    // goodput: all content bytes, at the consumer node
    Table goodput = readCsv(dir + "/goodput.csv");
    EXPECT_EQ(sum(goodput, "bytes"), 200'000u);
    EXPECT_EQ(tracers.AppBytes().at(0), 200'000u);

    // whole-run counts
    EXPECT_EQ(tracers.Counts().at("fetch_done"), 1u);
    EXPECT_GT(tracers.Counts().at("interest_out"), 0u);
  }
  std::filesystem::remove_all(dir);
}

TEST_F(TracersTest, PcapFilesForPointToPointDevices)
{
  std::string dir = ::testing::TempDir() + "ndnlab-pcap-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  Chain chain(2);
  StackHelper stack;
  stack.Install(chain.nodes);
  RouteHelper::AddRoute(chain.nodes.Get(0), "/lab", chain.nodes.Get(1));
  Tracers::EnablePcap(dir + "/trace", chain.links[0]);
  AppHelper producer("ndnlab::ProducerApp");
  producer.SetPrefix("/lab/file");
  producer.SetAttribute("FileSize", ns3::UintegerValue(10'000));
  producer.Install(chain.nodes.Get(1));
  AppHelper consumer("ndnlab::ConsumerApp");
  consumer.SetPrefix("/lab/file");
  consumer.Install(chain.nodes.Get(0));
  ns3::Simulator::Stop(ns3::Seconds(5));
  ns3::Simulator::Run();
  ns3::Simulator::Destroy(); // closes the pcap files
  std::string file = dir + "/trace-0-0.pcap";
  ASSERT_TRUE(std::filesystem::exists(file));
  EXPECT_GT(std::filesystem::file_size(file), 24u + 16u); // pcap header + at least one record
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace ndnlab::sim::test
