#pragma once
// Runs ndnlab-sim's command line in-process, the way the scenario tests drive it: the arguments
// are those after the program name, stdout and stderr are captured, and a run that succeeds
// yields the result.json it printed (a failed one yields {"stderr": <what it printed there>}).
// expectUsageError() checks the runner's rule for bad input: exit status 2 and one line.

#include "ns3/runner/run-context.hpp"

#include <ns3/config.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace ndnlab::simtest {

struct CliRun
{
  int exitCode = -1;
  nlohmann::json result;
};

inline CliRun runCli(std::vector<std::string> args)
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

/// Runs `args` and expects exit status 2 with a one-line message on stderr containing `fragment`.
inline void expectUsageError(std::vector<std::string> args, const std::string& fragment)
{
  std::string cmd;
  for (const auto& a : args)
    cmd += " " + a;
  const CliRun r = runCli(std::move(args));
  EXPECT_EQ(r.exitCode, 2) << cmd;
  const std::string err = r.result.value("stderr", "");
  EXPECT_NE(err.find(fragment), std::string::npos) << cmd << " -> " << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << cmd << " -> " << err;
}

} // namespace ndnlab::simtest
