#include "ns3/runner/run-context.hpp"

#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace ndnlab::runner::test {
namespace {

std::vector<ParamSpec> specs()
{
  return {
    {"Flows", ParamType::Int, "15", "", "number of flows"},
    {"Rate", ParamType::Double, "10", "Gbps", "link rate"},
    {"Dcib", ParamType::Bool, "true", "", "DCIB on/off"},
    {"Tcp", ParamType::String, "cubic", "", "TCP variant", {"reno", "cubic", "bbr"}},
  };
}

// A scenario that schedules `Events` no-op events and reports how many ran.
int g_fired = 0;
const Registration g_reg{Scenario{
  "test-events",
  "schedules --Events no-op events",
  {{"Events", ParamType::Int, "5", "", "events to schedule"}},
  [](RunContext& ctx) {
    g_fired = 0;
    for (int64_t i = 0; i < ctx.params().getInt("Events"); ++i)
      ns3::Simulator::Schedule(ns3::MilliSeconds(i), [] { ++g_fired; });
    if (auto f = ctx.openTrace("trace.csv"))
      *f << "t\n0\n";
    ctx.runSimulation(ns3::Seconds(1));
    ctx.metrics["fired"] = g_fired;
  },
}};

int runArgs(std::vector<std::string> args)
{
  args.insert(args.begin(), "ndnlab-sim");
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  return runnerMain(static_cast<int>(argv.size()), argv.data());
}

TEST(Params, DefaultsAndOverrides)
{
  Params p(specs(), {{"Rate", "2.5"}, {"Tcp", "bbr"}});
  EXPECT_EQ(p.getInt("Flows"), 15);
  EXPECT_DOUBLE_EQ(p.getDouble("Rate"), 2.5);
  EXPECT_TRUE(p.getBool("Dcib"));
  EXPECT_EQ(p.getString("Tcp"), "bbr");
  EXPECT_TRUE(p.isSet("Rate"));
  EXPECT_FALSE(p.isSet("Flows"));
  auto j = p.toJson();
  EXPECT_EQ(j["Flows"], 15);
  EXPECT_EQ(j["Dcib"], true);
  EXPECT_EQ(j["Tcp"], "bbr");
}

TEST(Params, UnknownNameListsValidOnes)
{
  try {
    Params p(specs(), {{"Flow", "3"}});
    FAIL() << "no exception";
  }
  catch (const UsageError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("--Flow"), std::string::npos);
    EXPECT_NE(msg.find("--Flows"), std::string::npos);
    EXPECT_NE(msg.find("--Tcp"), std::string::npos);
  }
}

TEST(Params, BadValues)
{
  EXPECT_THROW(Params(specs(), {{"Flows", "3.5"}}), UsageError);
  EXPECT_THROW(Params(specs(), {{"Rate", "fast"}}), UsageError);
  EXPECT_THROW(Params(specs(), {{"Dcib", "maybe"}}), UsageError);
  EXPECT_THROW(Params(specs(), {{"Tcp", "vegas"}}), UsageError);
  EXPECT_NO_THROW(Params(specs(), {{"Dcib", "off"}}));
}

TEST(Params, ReadingWrongTypeIsABug)
{
  Params p(specs(), {});
  EXPECT_THROW(p.getDouble("Flows"), std::logic_error);
  EXPECT_THROW(p.getInt("Nope"), std::logic_error);
}

TEST(Runner, UsageErrorsExitTwo)
{
  EXPECT_EQ(runArgs({}), 2);
  EXPECT_EQ(runArgs({"no-such-scenario"}), 2);
  EXPECT_EQ(runArgs({"test-events", "--Bogus=1"}), 2);
  EXPECT_EQ(runArgs({"test-events", "--Events=x"}), 2);
  EXPECT_EQ(runArgs({"test-events", "stray"}), 2);
  EXPECT_EQ(runArgs({"test-events", "--seed=0"}), 2);
  EXPECT_EQ(runArgs({"test-events", "--ns3::NoSuchType::Attr=1"}), 2);
  EXPECT_EQ(runArgs({"--list"}), 0);
  EXPECT_EQ(runArgs({"test-events", "--help"}), 0);
  EXPECT_EQ(runArgs({"--describe", "test-events"}), 0);
}

TEST(Runner, WritesResultJson)
{
  auto dir = std::filesystem::temp_directory_path() / "ndnlab-runner-test";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(runArgs({"test-events", "--Events=7", "--seed", "3", "--run=4", "--out", dir.string()}), 0);
  std::ifstream f(dir / "result.json");
  ASSERT_TRUE(f);
  auto j = nlohmann::json::parse(f);
  EXPECT_EQ(j["scenario"], "test-events");
  EXPECT_EQ(j["parameters"]["Events"], 7);
  EXPECT_EQ(j["seed"], 3);
  EXPECT_EQ(j["run"], 4);
  EXPECT_EQ(j["metrics"]["fired"], 7);
  EXPECT_GE(j["event_count"].get<uint64_t>(), 7u);
  EXPECT_DOUBLE_EQ(j["simulated_s"].get<double>(), 1.0);
  EXPECT_EQ(j["ns3_version"], "3.37");
  EXPECT_EQ(j["traces"], nlohmann::json::array({"trace.csv"}));
  EXPECT_TRUE(std::filesystem::exists(dir / "trace.csv"));
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace ndnlab::runner::test
