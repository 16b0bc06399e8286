#include "ns3/runner/run-context.hpp"

#include <ns3/config.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/version-defines.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>

namespace ndnlab::runner {

RunContext::RunContext(const Scenario& scenario, Params params, uint32_t seed, uint64_t run,
                       std::filesystem::path outDir, std::map<std::string, std::string> ns3Defaults)
  : m_scenario(scenario),
    m_params(std::move(params)),
    m_seed(seed),
    m_run(run),
    m_outDir(std::move(outDir)),
    m_ns3Defaults(std::move(ns3Defaults))
{}

void RunContext::setDefault(const std::string& attribute, const std::string& value)
{
  if (m_ns3Defaults.count(attribute))
    return;
  // Config::SetDefault would abort the process; the scenario should have rejected the parameter
  if (!ns3::Config::SetDefaultFailSafe(attribute, ns3::StringValue(value)))
    throw std::logic_error("ns-3 rejected the scenario's default " + attribute + "=" + value);
}

void RunContext::runSimulation(ns3::Time stop)
{
  if (m_ran)
    throw std::logic_error("RunContext::runSimulation called twice");
  m_ran = true;
  ns3::Simulator::Stop(stop);
  ns3::Simulator::Run();
  m_eventCount = ns3::Simulator::GetEventCount();
  m_simSeconds = ns3::Simulator::Now().GetSeconds();
}

std::unique_ptr<std::ofstream> RunContext::openTrace(const std::string& name)
{
  if (m_outDir.empty())
    return nullptr;
  auto f = std::make_unique<std::ofstream>(m_outDir / name);
  if (!*f)
    throw std::runtime_error("cannot write " + (m_outDir / name).string());
  m_traces.push_back(name);
  return f;
}

namespace {

std::string ns3Version()
{
  std::ostringstream os;
  os << NS3_VERSION_MAJOR << "." << NS3_VERSION_MINOR;
  if (NS3_VERSION_PATCH)
    os << "." << NS3_VERSION_PATCH;
  return os.str();
}

void printUsage(std::ostream& os)
{
  os << "Usage: ndnlab-sim <scenario> [--Name=value ...] [--seed N] [--run N] [--out DIR]\n"
        "       ndnlab-sim <scenario> --help     parameters of one scenario\n"
        "       ndnlab-sim --list                scenarios, one per line\n"
        "       ndnlab-sim --version             version (part of each campaign run's key)\n"
        "       ndnlab-sim --describe [scenario] scenarios and parameters as JSON\n"
        "       ndnlab-sim --attributes ns3::Type  attributes of an ns-3 type and its parents\n"
        "       ndnlab-sim <scenario> [--Name=value ...] --network\n"
        "                                        the network and applications as JSON (ndnlab emu)\n"
        "\n"
        "  --seed N     ns-3 RngSeedManager seed, 1..4294944442 (default 1)\n"
        "  --run N      ns-3 RngSeedManager run number, 0..2^64-1 (default 1): independent replications\n"
        "  --out DIR    write DIR/result.json and the scenario's trace files (DIR is created)\n"
        "  --ns3::Type::Attribute=value   ns-3 default override; wins over the scenario's own\n"
        "  Each option and parameter may be given once. Exit status: 0 done, 1 the scenario\n"
        "  failed, 2 bad command line or parameter value (nothing is simulated).\n"
        "\n"
        "result.json: {scenario, parameters, seed, run, metrics, traces, wall_time_s,\n"
        "              event_count, simulated_s, ns3_version, ns3_defaults}\n";
}

void printList(std::ostream& os)
{
  for (const auto* s : Registry::instance().all())
    os << s->name << "\t" << s->description << "\n";
}

void printScenarioHelp(std::ostream& os, const Scenario& s)
{
  os << s.name << ": " << s.description << "\n\nParameters (--Name=value):\n";
  size_t width = 0;
  for (const auto& p : s.params)
    width = std::max(width, p.name.size());
  for (const auto& p : s.params) {
    os << "  --" << p.name << std::string(width - p.name.size() + 2, ' ') << p.doc << "\n"
       << std::string(width + 6, ' ') << "[" << toString(p.type) << ", default " << p.defaultValue;
    if (!p.unit.empty())
      os << " " << p.unit;
    if (!p.choices.empty()) {
      os << "; one of";
      for (const auto& c : p.choices)
        os << " " << c;
    }
    if (p.range.bounded()) {
      os << "; allowed " << toString(p.range);
      if (!p.unit.empty())
        os << " " << p.unit;
    }
    os << "]\n";
  }
  os << "\nCommon options: --seed N --run N --out DIR --ns3::Type::Attribute=value\n";
}

nlohmann::json describe(const Scenario& s)
{
  auto params = nlohmann::json::array();
  for (const auto& p : s.params) {
    nlohmann::json j = {
      {"name", p.name}, {"type", toString(p.type)}, {"unit", p.unit}, {"doc", p.doc}, {"choices", p.choices}};
    // the default as a typed value
    j["default"] = Params({p}, {}).toJson()[p.name];
    if (p.range.bounded()) {
      // an unbounded end is null: JSON has no infinity
      auto bound = [&p](double v) {
        if (!std::isfinite(v))
          return nlohmann::json();
        return p.type == ParamType::Int ? nlohmann::json(static_cast<int64_t>(v)) : nlohmann::json(v);
      };
      j["range"] = {{"min", bound(p.range.min)},
                    {"max", bound(p.range.max)},
                    {"min_exclusive", p.range.minOpen},
                    {"max_exclusive", p.range.maxOpen}};
    }
    if (!p.presets.empty()) {
      // each value typed as the parameter it sets
      nlohmann::json presets = nlohmann::json::object();
      for (const auto& [choice, values] : p.presets) {
        nlohmann::json set = nlohmann::json::object();
        for (const auto& [name, value] : values) {
          auto target =
            std::find_if(s.params.begin(), s.params.end(), [&](const ParamSpec& q) { return q.name == name; });
          if (target == s.params.end())
            throw std::logic_error("preset " + p.name + "=" + choice + " sets unknown parameter " + name);
          set[name] = Params({*target}, {{name, value}}).toJson()[name];
        }
        presets[choice] = std::move(set);
      }
      j["presets"] = std::move(presets);
    }
    params.push_back(std::move(j));
  }
  return {{"name", s.name}, {"description", s.description}, {"parameters", params}};
}

std::string scenarioNames()
{
  std::string names;
  for (const auto* s : Registry::instance().all())
    names += (names.empty() ? "" : ", ") + s->name;
  return names.empty() ? "(none registered)" : names;
}

/// "--key=value" or "--key value" for the runner's own options.
bool takeOption(const std::vector<std::string>& args, size_t& i, const std::string& key, std::string& value)
{
  const std::string& a = args[i];
  if (a == "--" + key) {
    if (i + 1 >= args.size())
      throw UsageError("--" + key + " needs a value");
    value = args[++i];
    return true;
  }
  if (a.rfind("--" + key + "=", 0) == 0) {
    value = a.substr(key.size() + 3);
    return true;
  }
  return false;
}

/// Largest seed ns-3 accepts: every one of MRG32k3a's six state words starts at the seed and
/// must stay below the second modulus m2 = 4294944443 (ns-3 RngStream aborts otherwise).
constexpr uint64_t MaxSeed = 4294944442;

/// `v` as a decimal integer in [min, max] (digits only, no sign or spaces); throws UsageError.
uint64_t parseCount(const std::string& opt, const std::string& v, uint64_t min, uint64_t max)
{
  auto isDigit = [](unsigned char c) { return std::isdigit(c) != 0; };
  bool digits = !v.empty() && std::all_of(v.begin(), v.end(), isDigit);
  errno = 0;
  unsigned long long n = digits ? std::strtoull(v.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE || n < min || n > max)
    throw UsageError("--" + opt + " " + v + ": not an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                     "]");
  return n;
}

/// Runs `probe` in a child process and reports whether it returned true there. A probe that
/// aborts (ns-3's NS_ABORT on a malformed attribute value) only ends the child.
bool probeInChild(const std::function<bool()>& probe)
{
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0)
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    int devNull = ::open("/dev/null", O_WRONLY);
    if (devNull >= 0) {
      ::dup2(devNull, STDOUT_FILENO);
      ::dup2(devNull, STDERR_FILENO);
    }
    ::_exit(probe() ? 0 : 1);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/// Throws UsageError unless `value` is a valid value of `path` = "ns3::Type::Attribute", an
/// attribute declared by that type itself (what Config::SetDefault accepts), checked by the
/// attribute's own checker. ns-3 aborts on some malformed values (UintegerValue "abc", TimeValue
/// "2 parsecs"), so the value is first parsed in a child process. Types outside namespace ns3
/// ("ndnlab::ConsumerApp") are named with the same "ns3::" prefix. Returns the path as
/// Config::SetDefault takes it.
std::string checkNs3Default(const std::string& path, const std::string& value)
{
  const std::string arg = "--" + path + "=" + value;
  auto sep = path.rfind("::");
  if (sep == std::string::npos || sep + 2 == path.size())
    throw UsageError(arg + ": expected --ns3::Type::Attribute=value");
  std::string type = path.substr(0, sep);
  const std::string name = path.substr(sep + 2);
  ns3::TypeId tid;
  if (!ns3::TypeId::LookupByNameFailSafe(type, &tid)) {
    if (type.rfind("ns3::", 0) != 0 || !ns3::TypeId::LookupByNameFailSafe(type.substr(5), &tid))
      throw UsageError(arg + ": unknown ns-3 type '" + type + "' (is its module linked?)");
    type = type.substr(5);
  }
  for (uint32_t i = 0; i < tid.GetAttributeN(); ++i) {
    const auto info = tid.GetAttribute(i);
    if (info.name != name)
      continue;
    auto parses = [&] {
      auto v = info.checker->Create();
      return v->DeserializeFromString(value, info.checker) && info.checker->Check(*v);
    };
    if (!probeInChild(parses)) {
      std::string what = info.checker->GetValueTypeName();
      if (info.checker->HasUnderlyingTypeInformation())
        what += " " + info.checker->GetUnderlyingTypeInformation();
      throw UsageError(arg + ": not a valid value of " + path + " (" + what + ")");
    }
    return type + "::" + name;
  }
  throw UsageError(arg + ": " + type + " declares no attribute '" + name + "' (ndnlab-sim --attributes " + type +
                   " lists them with the declaring type)");
}

/// `what` with line breaks replaced, so every error is one line.
std::string oneLine(std::string what)
{
  for (char& c : what) {
    if (c == '\n' || c == '\r')
      c = ' ';
  }
  return what;
}

int runMain(const std::vector<std::string>& args)
{
  if (args.empty()) {
    printUsage(std::cerr);
    std::cerr << "\nScenarios: " << scenarioNames() << "\n";
    return 2;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h") {
    printUsage(std::cout);
    std::cout << "\nScenarios:\n";
    printList(std::cout);
    return 0;
  }
  if (first == "--version") {
    std::cout << "ndnlab-sim " << NDNLAB_VERSION << " ns-" << ns3Version() << "\n";
    return 0;
  }
  if (first == "--list") {
    printList(std::cout);
    return 0;
  }
  if (first == "--attributes") {
    if (args.size() < 2)
      throw UsageError("--attributes needs an ns-3 type name, e.g. ns3::TcpCubic");
    ns3::TypeId tid;
    if (!ns3::TypeId::LookupByNameFailSafe(args[1], &tid))
      throw UsageError("unknown ns-3 type '" + args[1] + "' (is its module linked?)");
    for (;; tid = tid.GetParent()) {
      for (uint32_t i = 0; i < tid.GetAttributeN(); ++i) {
        auto info = tid.GetAttribute(i);
        std::cout << tid.GetName() << "::" << info.name << " = " << info.initialValue->SerializeToString(info.checker)
                  << "  " << info.help << "\n";
      }
      if (tid == tid.GetParent())
        break;
    }
    return 0;
  }
  if (first == "--describe") {
    auto out = nlohmann::json::array();
    for (const auto* s : Registry::instance().all())
      if (args.size() < 2 || s->name == args[1])
        out.push_back(describe(*s));
    if (args.size() >= 2 && out.empty())
      throw UsageError("unknown scenario '" + args[1] + "'; scenarios: " + scenarioNames());
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  if (first.rfind("-", 0) == 0)
    throw UsageError("expected a scenario name before '" + first + "'; scenarios: " + scenarioNames());
  const Scenario* scenario = Registry::instance().find(first);
  if (!scenario)
    throw UsageError("unknown scenario '" + first + "'; scenarios: " + scenarioNames());

  uint32_t seed = 1;
  uint64_t run = 1;
  std::filesystem::path outDir;
  std::map<std::string, std::string> values;
  std::map<std::string, std::string> ns3Defaults;
  bool network = false;
  std::set<std::string> given;
  auto once = [&given](const std::string& key) {
    if (!given.insert(key).second)
      throw UsageError("--" + key + " given twice");
  };
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string v;
    if (a == "--help" || a == "-h") {
      printScenarioHelp(std::cout, *scenario);
      return 0;
    }
    if (a == "--network") {
      once("network");
      network = true;
    }
    else if (takeOption(args, i, "seed", v)) {
      once("seed");
      seed = static_cast<uint32_t>(parseCount("seed", v, 1, MaxSeed));
    }
    else if (takeOption(args, i, "run", v)) {
      once("run");
      run = parseCount("run", v, 0, std::numeric_limits<uint64_t>::max());
    }
    else if (takeOption(args, i, "out", v)) {
      once("out");
      outDir = v;
    }
    else if (a.rfind("--ns3::", 0) == 0) {
      auto eq = a.find('=');
      if (eq == std::string::npos)
        throw UsageError(a + ": expected --ns3::Type::Attribute=value");
      once(a.substr(2, eq - 2));
      ns3Defaults[a.substr(2, eq - 2)] = a.substr(eq + 1);
    }
    else if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      auto eq = a.find('=');
      once(a.substr(2, eq - 2));
      values[a.substr(2, eq - 2)] = a.substr(eq + 1);
    }
    else {
      std::ostringstream os;
      os << "unexpected argument '" << a << "' (parameters are --Name=value); valid parameters:";
      for (const auto& p : scenario->params)
        os << " --" << p.name;
      throw UsageError(os.str());
    }
  }

  // every check before the output directory exists and anything is simulated
  Params params(scenario->params, values);
  for (const auto& [attr, value] : ns3Defaults) {
    if (!ns3::Config::SetDefaultFailSafe(checkNs3Default(attr, value), ns3::StringValue(value)))
      throw UsageError("--" + attr + "=" + value + ": ns-3 rejected the value");
  }
  ns3::RngSeedManager::SetSeed(seed);
  ns3::RngSeedManager::SetRun(run);
  if (scenario->check)
    scenario->check(params);
  if (network) {
    std::string with;
    for (const auto* s : Registry::instance().all())
      if (s->network)
        with += (with.empty() ? "" : ", ") + s->name;
    if (!scenario->network)
      throw UsageError("scenario " + scenario->name + " has no network description; scenarios with one: " + with);
    nlohmann::json n = scenario->network(params);
    std::vector<std::string> simulatorOnly;
    // an override wins over the scenario's own keys, as it does in ns-3
    const nlohmann::json stackKeys = Registry::instance().daemonKeys(ns3Defaults, simulatorOnly);
    for (const auto& [table, keys] : stackKeys.items())
      for (const auto& [key, value] : keys.items())
        n["daemon_config"][table][key] = value;
    if (!simulatorOnly.empty())
      n["simulator_only"] = simulatorOnly;
    n["scenario"] = scenario->name;
    n["parameters"] = params.toJson();
    n["seed"] = seed;
    std::cout << n.dump(2) << "\n";
    return 0;
  }
  bool createdOutDir = !outDir.empty() && !std::filesystem::exists(outDir);
  if (!outDir.empty()) {
    std::filesystem::create_directories(outDir);
    // A result.json of an earlier run in DIR must not outlive this one's start: if this run
    // fails or is killed, DIR holds no result that its traces do not belong to.
    std::filesystem::remove(outDir / "result.json");
  }

  RunContext ctx(*scenario, params, seed, run, outDir, ns3Defaults);
  auto t0 = std::chrono::steady_clock::now();
  try {
    scenario->run(ctx);
  }
  catch (const UsageError&) {
    // A parameter that only the built topology can check (e.g. a DataMode of the standard):
    // nothing was simulated, so a directory made for this run goes away again.
    ns3::Simulator::Destroy();
    if (createdOutDir) {
      std::error_code ignore; // trace files still open are unlinked; nothing reads them
      std::filesystem::remove_all(outDir, ignore);
    }
    throw;
  }
  catch (...) {
    ns3::Simulator::Destroy(); // the next run in this process (tests) starts clean
    throw;
  }
  auto wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ns3::Simulator::Destroy();

  nlohmann::json result = {
    {"scenario", scenario->name},
    {"parameters", params.toJson()},
    {"seed", seed},
    {"run", run},
    {"metrics", ctx.metrics},
    {"traces", ctx.traces()},
    {"wall_time_s", wall},
    {"event_count", ctx.eventCount()},
    {"simulated_s", ctx.simulatedSeconds()},
    {"ns3_version", ns3Version()},
    {"ns3_defaults", ns3Defaults},
  };
  if (!outDir.empty()) {
    // written whole or not at all: a full disk or a kill leaves no half result.json
    const auto path = outDir / "result.json";
    const auto temp = outDir / "result.json.tmp";
    {
      std::ofstream f(temp);
      f << result.dump(2) << "\n";
      f.flush();
      if (!f) {
        std::error_code ignore;
        std::filesystem::remove(temp, ignore);
        throw std::runtime_error("cannot write " + path.string());
      }
    }
    std::filesystem::rename(temp, path);
  }
  std::cout << result.dump(2) << "\n";
  return 0;
}

} // namespace

int runnerMain(int argc, char** argv)
{
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return runMain(args);
  }
  catch (const UsageError& e) {
    std::cerr << "ndnlab-sim: " << oneLine(e.what()) << "\n";
    return 2;
  }
  catch (const std::exception& e) {
    std::cerr << "ndnlab-sim: error: " << oneLine(e.what()) << "\n";
    return 1;
  }
  catch (...) {
    std::cerr << "ndnlab-sim: error: unknown exception\n";
    return 1;
  }
}

} // namespace ndnlab::runner
