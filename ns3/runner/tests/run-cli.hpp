#pragma once
// Runs ndnlab-sim's command line in-process, the way the scenario tests drive it: the arguments
// are those after the program name, stdout and stderr are captured, and a run that succeeds
// yields the result.json it printed (a failed one yields {"stderr": <what it printed there>}).

#include "ns3/runner/run-context.hpp"

#include <ns3/config.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ndnlab::simtest {

struct CliRun
{
  int exitCode = -1;
  nlohmann::json result;
};

inline CliRun
runCli(std::vector<std::string> args)
{
  ns3::Config::Reset();
  args.insert(args.begin(), "ndnlab-sim");
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  CliRun r;
  r.exitCode = runner::runnerMain(static_cast<int>(argv.size()), argv.data());
  const std::string out = ::testing::internal::GetCapturedStdout();
  const std::string err = ::testing::internal::GetCapturedStderr();
  r.result = r.exitCode == 0 ? nlohmann::json::parse(out) : nlohmann::json{{"stderr", err}};
  return r;
}

} // namespace ndnlab::simtest
