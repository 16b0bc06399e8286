#pragma once
// What a scenario's run function receives: its parameters, seed/run, the output directory
// for trace files, the metrics object that ends up in result.json, and the one call that
// runs the simulator (so the runner can count events and simulated time).

#include "ns3/runner/scenario.hpp"

#include <ns3/nstime.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

namespace ndnlab::runner {

class RunContext
{
public:
  /// `outDir` empty: no trace files are written (openTrace returns nullptr).
  /// `ns3Defaults`: `--ns3::Type::Attribute=value` overrides from the command line.
  RunContext(const Scenario& scenario, Params params, uint32_t seed, uint64_t run, std::filesystem::path outDir,
             std::map<std::string, std::string> ns3Defaults = {});

  const Scenario& scenario() const { return m_scenario; }
  const Params& params() const { return m_params; }
  uint32_t seed() const { return m_seed; }
  uint64_t run() const { return m_run; }

  /// ns-3 Config::SetDefault, unless the user overrode the same attribute on the command line
  /// (the command line wins). Use it for every ns-3 default a scenario changes.
  void setDefault(const std::string& attribute, const std::string& value);

  /// Runs the simulator until `stop` (Simulator::Stop + Run) and records the event count and
  /// simulated time. Call once; the runner calls Simulator::Destroy after the scenario returns.
  void runSimulation(ns3::Time stop);

  bool hasOutDir() const { return !m_outDir.empty(); }
  const std::filesystem::path& outDir() const { return m_outDir; }
  /// A new file `name` in the output directory, or nullptr without --out. Files are listed in
  /// result.json under "traces".
  std::unique_ptr<std::ofstream> openTrace(const std::string& name);

  /// Scenario results: numbers, strings, small arrays. Large series go to trace files.
  nlohmann::json metrics = nlohmann::json::object();

  // Filled by the runner.
  uint64_t eventCount() const { return m_eventCount; }
  double simulatedSeconds() const { return m_simSeconds; }
  const std::vector<std::string>& traces() const { return m_traces; }
  const std::map<std::string, std::string>& ns3Defaults() const { return m_ns3Defaults; }

private:
  const Scenario& m_scenario;
  Params m_params;
  uint32_t m_seed;
  uint64_t m_run;
  std::filesystem::path m_outDir;
  std::map<std::string, std::string> m_ns3Defaults;
  std::vector<std::string> m_traces;
  uint64_t m_eventCount = 0;
  double m_simSeconds = 0;
  bool m_ran = false;
};

/// The whole `ndnlab-sim` command line; returns the process exit status
/// (0 ok, 1 scenario failure, 2 usage error).
int runnerMain(int argc, char** argv);

} // namespace ndnlab::runner
