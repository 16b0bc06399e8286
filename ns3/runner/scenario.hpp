#pragma once
// Scenario registry of `ndnlab-sim`: a scenario is a name, a one-line description, a list of
// typed parameters (default, unit, doc) and a run function. Scenario libraries register
// themselves with a static `Registration` object (docs/mechanisms/ns3-runner.md); the runner
// links them as CMake OBJECT libraries, so every registration object is kept by the linker.
//
// This library depends on ns-3, nlohmann-json and the std-only core/runtime/fields.hpp (whose
// Range the parameters use), not on NDN code, so TCP/IP scenarios (ns3/dcib) and NDN
// scenarios (ns3/ndnlab) share one runner, one result format and one CLI.

#include "core/runtime/fields.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ndnlab::runner {

class RunContext;

/// Bad command line or bad parameter value: the runner prints the message and exits with 2.
class UsageError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

enum class ParamType { Int, Double, Bool, String };

/// "int", "double", "bool", "string".
const char* toString(ParamType t);

/// Longest simulated time (s) a time parameter may name: 10^6 s, about 11.6 days. ns-3 Time
/// counts int64 nanoseconds (about 292 years), so sums of a few such times cannot overflow.
inline constexpr double MaxTimeSeconds = 1e6;

/// The values an Int or Double parameter may take: min..max, each end closed unless marked open.
/// The runner checks every value (defaults included) against it; --help and --describe show it.
/// Accepted values of an Int or Double parameter (the core's, core/runtime/fields.hpp).
using Range = fields::Range;
using fields::toString;

/// One scenario parameter, set on the command line as `--Name=value`.
struct ParamSpec
{
  std::string name; ///< PascalCase, as in `--Name=value`
  ParamType type = ParamType::Double;
  std::string defaultValue;         ///< textual default, parsed like a command-line value
  std::string unit;                 ///< e.g. "s", "ms", "Gbps", "B"; empty when unitless
  std::string doc;                  ///< one line
  std::vector<std::string> choices; ///< String only: allowed values (empty = any string)
  Range range;                      ///< Int and Double only: allowed values (default: any)
  /// String only: parameters that a choice sets unless they are given (choice -> name -> value),
  /// as a consumer profile sets its knobs. `--describe` lists them, so that a campaign spec can
  /// name the choice and store the parameters it stands for.
  std::map<std::string, std::map<std::string, std::string>> presets;
};

/// Parameter values of one run, defaults applied, each checked against its ParamSpec.
class Params
{
public:
  Params() = default;
  /// Defaults of every spec, then `values` (name -> text). Throws UsageError for an unknown
  /// name (the message lists the valid ones), a value that does not parse as its type or one
  /// outside its range; std::logic_error for a default that does either.
  Params(const std::vector<ParamSpec>& specs, const std::map<std::string, std::string>& values);

  int64_t getInt(const std::string& name) const;
  double getDouble(const std::string& name) const;
  bool getBool(const std::string& name) const;
  const std::string& getString(const std::string& name) const;
  /// True when the value was given on the command line (not the default).
  bool isSet(const std::string& name) const;

  /// Every parameter with its typed value: {"Name": 3, "Tcp": "cubic", ...}.
  nlohmann::json toJson() const;

private:
  const std::string& raw(const std::string& name, ParamType expected) const;

  std::map<std::string, std::pair<ParamType, std::string>> m_values;
  std::map<std::string, bool> m_set;
};

struct Scenario
{
  std::string name; ///< kebab-case, e.g. "dcib-artificial-loss"
  std::string description;
  std::vector<ParamSpec> params;
  /// Builds the topology, calls ctx.runSimulation(...) once, then fills ctx.metrics.
  /// Throws UsageError for parameter values that make no sense together.
  std::function<void(RunContext& ctx)> run;
  /// Optional: checks what the specs cannot (value lists, combinations, a core Options' own
  /// validate()) right after parsing, once the --ns3:: overrides are applied and before the
  /// output directory exists; throws UsageError.
  std::function<void(const Params& params)> check;
  /// Optional: the network and applications of a run as data (nodes, links with rate, delay,
  /// loss and queue, routes, applications with their tools' arguments), from the same checked
  /// parameters the run builds its topology from: `ndnlab-sim <scenario> --network` prints it,
  /// and `ndnlab emu` builds the same network of namespaces and daemons from it
  /// (docs/emulation.md). Throws UsageError for what real daemons cannot run.
  std::function<nlohmann::json(const Params& params)> network;
};

/// Process-wide list of scenarios (one per executable; filled before main by Registration).
class Registry
{
public:
  static Registry& instance();

  /// Throws std::logic_error when the name is taken (two libraries registering one name).
  void add(Scenario scenario);
  const Scenario* find(const std::string& name) const;
  /// Sorted by name.
  std::vector<const Scenario*> all() const;

  /// Maps a run's ns-3 overrides (`--ns3::Type::Attribute=value`, after Config::SetDefault) to
  /// ndnlabd's configuration tables for `--network` (ndnlab emu), and lists in `simulatorOnly`
  /// the ones no daemon key stands for.
  using DaemonKeys = nlohmann::json (*)(const std::map<std::string, std::string>& ns3Defaults,
                                        std::vector<std::string>& simulatorOnly);
  /// Throws std::logic_error when one is set already.
  void setDaemonKeys(DaemonKeys f);
  /// With none set, every override is simulator-only.
  nlohmann::json daemonKeys(const std::map<std::string, std::string>& ns3Defaults,
                            std::vector<std::string>& simulatorOnly) const;

private:
  std::map<std::string, Scenario> m_scenarios;
  DaemonKeys m_daemonKeys = nullptr;
};

/// `static const Registration reg{Scenario{...}};` in a scenario's .cpp file.
struct Registration
{
  explicit Registration(Scenario scenario);
};

/// Sets Registry::daemonKeys at static initialisation (one module of the simulator does).
struct DaemonKeysRegistration
{
  explicit DaemonKeysRegistration(Registry::DaemonKeys f) { Registry::instance().setDaemonKeys(f); }
};

/// Parses `text` as `type`; throws UsageError naming `name` on failure. Int: decimal digits with
/// an optional leading '-', in int64 range; Double: a finite decimal number (optional '-',
/// digits, '.', exponent); neither accepts spaces or '+'. Bool accepts
/// true/false/1/0/yes/no/on/off.
void checkValue(const std::string& name, ParamType type, const std::string& text);

/// The strict parsers behind checkValue; false when `text` is not such a number.
bool parseInt(const std::string& text, int64_t& out);
bool parseDouble(const std::string& text, double& out);

} // namespace ndnlab::runner
