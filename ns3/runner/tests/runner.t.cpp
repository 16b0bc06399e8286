#include "ns3/runner/run-context.hpp"
#include "ns3/runner/tests/run-cli.hpp"

#include <ns3/simulator.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ndnlab::runner::test {
namespace {

using simtest::expectUsageError;

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

// A scenario with a check (--Events at most 100) whose run throws from inside an event.
const Registration g_regThrows{Scenario{
  "test-throws",
  "an event throws; check rejects --Events > 100",
  {{"Events", ParamType::Int, "1", "", "events", {}, Range::closed(0, 1000)}},
  [](RunContext& ctx) {
    ns3::Simulator::Schedule(ns3::MilliSeconds(1), [] { throw std::runtime_error("boom\nsecond line"); });
    ctx.runSimulation(ns3::Seconds(1));
  },
  [](const Params& p) {
    if (p.getInt("Events") > 100)
      throw UsageError("--Events: at most 100 here");
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

TEST(Params, NumbersAreStrict)
{
  for (const char* bad : {" 3", "3 ", "+3", "0x10", "1e3", "3.0", "", "-", "99999999999999999999"})
    EXPECT_THROW(Params(specs(), {{"Flows", bad}}), UsageError) << "'" << bad << "'";
  for (const char* bad : {" 1", "+1", "1 ", "inf", "nan", "0x1p3", "1e999", "1,5", ".", "e5"})
    EXPECT_THROW(Params(specs(), {{"Rate", bad}}), UsageError) << "'" << bad << "'";
  EXPECT_EQ(Params(specs(), {{"Flows", "-7"}}).getInt("Flows"), -7);
  for (const char* good : {"1e-3", "-2.5", ".5", "5.", "1E+06", "0"})
    EXPECT_NO_THROW(Params(specs(), {{"Rate", good}})) << good;
}

TEST(Params, RangesAreChecked)
{
  const std::vector<ParamSpec> ranged = {
    {"Time", ParamType::Double, "1", "s", "a time", {}, Range::positive(10)},
    {"Count", ParamType::Int, "1", "", "a count", {}, Range::closed(1, 5)},
    {"Share", ParamType::Double, "0", "", "a share", {}, Range{0, 1, false, true}},
  };
  EXPECT_NO_THROW(Params(ranged, {{"Time", "10"}, {"Count", "5"}, {"Share", "0.999"}}));
  for (auto [name, value] : std::vector<std::pair<std::string, std::string>>{{"Time", "0"},
                                                                             {"Time", "-1"},
                                                                             {"Time", "10.001"},
                                                                             {"Time", "1e300"},
                                                                             {"Count", "0"},
                                                                             {"Count", "6"},
                                                                             {"Share", "1"},
                                                                             {"Share", "-0.1"}}) {
    try {
      Params p(ranged, {{name, value}});
      ADD_FAILURE() << name << "=" << value << " accepted";
    }
    catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(toString(Range::positive(1e6)), "(0, 1000000]");
  EXPECT_EQ(toString(Range{0, 1, false, true}), "[0, 1)");
  EXPECT_EQ(toString(Range{}), "");
  // a default outside its own range is a bug of the scenario
  EXPECT_THROW(Params({{"Bad", ParamType::Double, "0", "", "", {}, Range::positive(1)}}, {}), std::logic_error);
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

TEST(Runner, BadCommandLinesAreOneLineUsageErrors)
{
  // given twice: parameters, runner options, ns-3 overrides
  expectUsageError({"test-events", "--Events=1", "--Events=2"}, "--Events given twice");
  expectUsageError({"test-events", "--seed=2", "--seed", "3"}, "--seed given twice");
  expectUsageError({"test-events", "--ns3::UniformRandomVariable::Min=1", "--ns3::UniformRandomVariable::Min=2"},
                   "given twice");
  // seeds MRG32k3a accepts: 1..4294944442; no wrap-around of larger ones
  for (const char* seed : {"0", "4294944443", "4294967295", "4294967296", "4294967297", "-1", "+5", " 5", "1e3"})
    expectUsageError({"test-events", "--seed", seed}, "not an integer in [1, 4294944442]");
  expectUsageError({"test-events", "--run", "18446744073709551616"}, "--run");
  expectUsageError({"test-events", "--run=-1"}, "--run");
  // ns-3 attribute values are checked by the attribute's checker without aborting the process
  expectUsageError({"test-events", "--ns3::UniformRandomVariable::Min=abc"}, "UniformRandomVariable::Min");
  expectUsageError({"test-events", "--ns3::RandomVariableStream::Stream=1.5"}, "RandomVariableStream::Stream");
  expectUsageError({"test-events", "--ns3::UniformRandomVariable::Nope=1"}, "declares no attribute 'Nope'");
  expectUsageError({"test-events", "--ns3::NoSuchType::Attr=1"}, "unknown ns-3 type");
  // the scenario's check runs before the output directory exists
  auto dir = std::filesystem::temp_directory_path() / "ndnlab-runner-check-test";
  std::filesystem::remove_all(dir);
  expectUsageError({"test-throws", "--Events=101", "--out", dir.string()}, "at most 100");
  expectUsageError({"test-throws", "--Events=1001"}, "--Events=1001: out of range [0, 1000]");
  EXPECT_FALSE(std::filesystem::exists(dir));
}

TEST(Runner, LimitsOfSeedAndRunAreAccepted)
{
  auto r = simtest::runCli({"test-events", "--seed", "4294944442", "--run", "18446744073709551615"});
  ASSERT_EQ(r.exitCode, 0) << r.result;
  EXPECT_EQ(r.result["seed"], 4294944442u);
  EXPECT_EQ(r.result["run"], 18446744073709551615u);
  r = simtest::runCli({"test-events", "--ns3::UniformRandomVariable::Min=0.5"});
  ASSERT_EQ(r.exitCode, 0) << r.result;
  EXPECT_EQ(r.result["ns3_defaults"]["ns3::UniformRandomVariable::Min"], "0.5");
}

TEST(Runner, ExceptionsOfARunAreOneLineErrors)
{
  auto r = simtest::runCli({"test-throws"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.result["stderr"], "ndnlab-sim: error: boom second line\n");
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
