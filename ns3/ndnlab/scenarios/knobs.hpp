#pragma once
// Scenario parameters made from core field lists (core/runtime/fields.hpp): every field a
// core Options struct declares for the Scenario host becomes one `ndnlab sim` parameter with
// the core's default, unit, range and doc, and is applied to the ns-3 attribute of the field.

#include "ns3/ndnlab/scenarios/scenario-kit.hpp"

#include "core/runtime/fields.hpp"
#include "core/runtime/units.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ndnlab::sim::scenarios {

/// Range of the knobs in ms (ns3::Time attributes): positive, at most MaxTimeSeconds. Other
/// ranges are the core's (and each Options struct's validate() checks the assembled options).
inline constexpr runner::Range MsRange = runner::Range::positive(runner::MaxTimeSeconds * 1e3);

/// One knob: scenario parameter -> ns-3 attribute.
struct Knob
{
  ParamSpec spec;
  std::string attribute;
  bool isMs = false; ///< the parameter is in ms, the attribute a Time
  /// `ndnlab get`'s flag of the same field ("--rto-k"; empty when the tools lack it); for a
  /// bool, `cli` sets it and `cliNo` clears it. `ndnlab emu` passes a knob on with it.
  std::string cli, cliNo;
  /// ndnlabd's key of the same field: TOML table and key ("face_system.link",
  /// "bundle_gap_k"); empty when the daemon has none. `ndnlab emu` configures daemons with it.
  std::string tomlSection, tomlKey;
};

/// `get`'s flags of a field, as tools/common/option-flags.hpp names them: {set, clear}.
inline std::pair<std::string, std::string> cliFlagsOf(const fields::Info& info, bool isBool)
{
  if ((info.hosts & fields::Cli) == 0)
    return {};
  if (info.flags.empty())
    return {"--" + std::string(info.name), isBool ? "--no-" + std::string(info.name) : ""};
  std::string set, clear;
  std::string_view rest = info.flags;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view name = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (name.rfind("!--", 0) == 0 && clear.empty())
      clear = std::string(name.substr(1));
    else if (name.rfind("--", 0) == 0 && set.empty())
      set = std::string(name);
  }
  return {set, clear};
}

/// The scenario parameter `name` of one core field, with the default in `d`.
template<typename Options, typename T>
Knob knobOf(const fields::Field<Options, T>& f, const Options& d, std::string name)
{
  const T& v = f.ref(const_cast<Options&>(d));
  ParamSpec p{name,
              ParamType::Double,
              "",
              std::string(f.info.unit),
              std::string(f.info.doc),
              {},
              f.info.range.value_or(runner::Range{})};
  bool isMs = false;
  if constexpr (std::is_same_v<T, bool>) {
    p.type = ParamType::Bool;
    p.defaultValue = v ? "true" : "false";
  }
  else if constexpr (std::is_same_v<T, Duration>) {
    p.defaultValue = formatNumber(toMillis(v));
    p.unit = "ms";
    p.range.max = std::min(p.range.max, MsRange.max);
    isMs = true;
  }
  else if constexpr (std::is_floating_point_v<T>) {
    p.defaultValue = formatNumber(v);
  }
  else if constexpr (std::is_integral_v<T>) {
    p.type = ParamType::Int;
    p.defaultValue = std::to_string(v);
  }
  else if constexpr (std::is_same_v<T, std::string>) {
    p.type = ParamType::String;
    p.defaultValue = v;
    p.choices.assign(f.choices.begin(), f.choices.end());
  }
  else {
    static_assert(sizeof(T) == 0, "no scenario parameter type for this field");
  }
  auto [cli, cliNo] = cliFlagsOf(f.info, std::is_same_v<T, bool>);
  return {std::move(p),
          f.info.attributeName(),
          isMs,
          std::move(cli),
          std::move(cliNo),
          std::string(f.info.section),
          f.info.section.empty() ? std::string() : f.info.tomlKey()};
}

template<typename Options, typename E>
Knob knobOf(const fields::EnumField<Options, E>& f, const Options& d, std::string name)
{
  ParamSpec p{std::move(name),
              ParamType::String,
              std::string(f.print(f.ref(const_cast<Options&>(d)))),
              std::string(f.info.unit),
              std::string(f.info.doc),
              {},
              {}};
  const auto choices = f.choices();
  p.choices.assign(choices.begin(), choices.end());
  auto [cli, cliNo] = cliFlagsOf(f.info, false);
  return {std::move(p),
          f.info.attributeName(),
          false,
          std::move(cli),
          std::move(cliNo),
          std::string(f.info.section),
          f.info.section.empty() ? std::string() : f.info.tomlKey()};
}

/// The knobs of every field of `Options` declared for the Scenario host, in declaration
/// order, with the values of `d` as defaults; `nameOf` names each parameter.
template<typename Options>
std::vector<Knob> scenarioKnobs(const std::function<std::string(const fields::Info&)>& nameOf,
                                const Options& d = Options{})
{
  std::vector<Knob> k;
  visitFields(std::type_identity<Options>{}, [&](const auto& f) {
    if ((f.info.hosts & fields::Scenario) != 0)
      k.push_back(knobOf(f, d, nameOf(f.info)));
  });
  return k;
}

/// The value of a knob's parameter as text, without unit.
inline std::string knobText(const Params& params, const Knob& k)
{
  switch (k.spec.type) {
    case ParamType::Double: return formatNumber(params.getDouble(k.spec.name));
    case ParamType::Int: return std::to_string(params.getInt(k.spec.name));
    case ParamType::Bool: return params.getBool(k.spec.name) ? "true" : "false";
    case ParamType::String: return params.getString(k.spec.name);
  }
  return {};
}

/// The attribute value of a knob's parameter (a Time in ms where the parameter is in ms).
inline std::string knobValue(const Params& params, const Knob& k)
{
  return k.isMs ? knobText(params, k) + "ms" : knobText(params, k);
}

/// The flags with which `ndnlab emu` passes the knobs set in `params` on to `tool` (its name
/// for errors, e.g. "ndnlab get"): a bool as its set or clear flag, anything else as flag and
/// value (a duration in ms, as the tools take it). UsageError for a set knob the tool has no
/// flag for.
inline std::vector<std::string> knobFlags(const Params& params, const std::vector<Knob>& knobs, std::string_view tool)
{
  std::vector<std::string> args;
  for (const Knob& k : knobs) {
    if (!params.isSet(k.spec.name))
      continue;
    const bool off = k.spec.type == ParamType::Bool && !params.getBool(k.spec.name);
    if (k.cli.empty() || (off && k.cliNo.empty()))
      throw UsageError("--" + k.spec.name + "=" + knobText(params, k) + " has no `" + std::string(tool) +
                       "` flag; ndnlab emu cannot pass it on");
    if (k.spec.type == ParamType::Bool) {
      args.push_back(off ? k.cliNo : k.cli);
    }
    else {
      args.push_back(k.cli);
      args.push_back(knobText(params, k));
    }
  }
  return args;
}

} // namespace ndnlab::sim::scenarios
