#pragma once
// The CLI11 flags of a core Options struct, from its field list (core/runtime/fields.hpp): one
// flag per field whose hosts include fields::Cli, named --kebab-name unless the field names
// its flags, checked against the field's range or choices, showing the value the struct holds
// when the flags are added (a profile's defaults included) as the default.
//
//   bool      --name / --no-name (or the field's own pair)
//   Duration  milliseconds, fractions allowed
//   numbers   the field's range (integers: integers only, no octal)
//   string    the field's choices, if any
//   optional<uint64_t>  an unsigned integer; absent: none
//   enum      its choices, parsed into the member after the command line is read

#include "tools/common/runtime.hpp"

#include "core/runtime/fields.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace ndnlab::tools {

namespace detail {

/// The flag's help: its doc with the unit it is written in (ms for a duration).
inline std::string flagHelp(const fields::Info& info, bool isTime)
{
  return info.help(isTime ? "ms" : info.unit);
}

/// check:: validator of a floating-point range (check::positive etc. print one readable line).
inline CLI::Validator rangeCheck(const fields::Range& r)
{
  if (r.min == 0 && r.max == 1 && r.minOpen)
    return check::fraction(!r.maxOpen);
  const double max = std::isfinite(r.max) ? r.max : std::numeric_limits<double>::max();
  if (r.min == 0)
    return r.minOpen ? check::positive(max) : check::nonNegative(max);
  return check::between(r.min, max);
}

inline std::string numberDefault(double v)
{
  return std::isfinite(v) ? check::numberText(v) : (v > 0 ? "inf" : "-inf");
}

template<typename Options, typename T>
void addFlag(CLI::App& app, Options& o, const fields::Field<Options, T>& f)
{
  const auto& info = f.info;
  T& member = f.ref(o);
  if constexpr (std::is_same_v<T, bool>) {
    const std::string names =
      info.flags.empty() ? "--" + std::string(info.name) + ",!--no-" + std::string(info.name) : std::string(info.flags);
    app.add_flag(names, member, flagHelp(info, false))->capture_default_str();
  }
  else if constexpr (std::is_same_v<T, Duration>) {
    auto* opt = app.add_option_function<double>(
      info.flagNames(), [&member](double ms) { member = millisArgument(ms); }, flagHelp(info, true));
    opt->default_str(check::numberText(toMillis(member)));
    opt->check(rangeCheck(info.range.value_or(fields::Range::nonNegative(check::MaxMillis))));
  }
  else if constexpr (std::is_floating_point_v<T>) {
    auto* opt = app.add_option(info.flagNames(), member, flagHelp(info, false));
    opt->default_str(numberDefault(member));
    if (info.range)
      opt->check(rangeCheck(*info.range));
  }
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    const fields::Range r = info.range.value_or(fields::Range{});
    app.add_option(info.flagNames(), member, flagHelp(info, false))
      ->transform(
        check::integerBetween(std::isfinite(r.min) ? static_cast<int64_t>(r.min) : std::numeric_limits<T>::min(),
                              std::isfinite(r.max) ? static_cast<int64_t>(r.max) : std::numeric_limits<T>::max()))
      ->capture_default_str();
  }
  else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
    const fields::Range r = info.range.value_or(fields::Range::nonNegative());
    addUnsignedOption(app, info.flagNames(), member, flagHelp(info, false), static_cast<uint64_t>(std::max(0.0, r.min)),
                      r.max < static_cast<double>(std::numeric_limits<T>::max()) ? static_cast<uint64_t>(r.max)
                                                                                 : std::numeric_limits<T>::max())
      ->capture_default_str();
  }
  else if constexpr (std::is_same_v<T, std::optional<uint64_t>>) {
    addUnsignedOption(app, info.flagNames(), member, flagHelp(info, false));
  }
  else if constexpr (std::is_same_v<T, std::string>) {
    auto* opt = app.add_option(info.flagNames(), member, flagHelp(info, false))->capture_default_str();
    if (!f.choices.empty())
      opt->check(CLI::IsMember(std::vector<std::string>(f.choices.begin(), f.choices.end())));
  }
  else {
    static_assert(sizeof(T) == 0, "no CLI flag for this field type");
  }
}

template<typename Options, typename E>
void addFlag(CLI::App& app, Options& o, const fields::EnumField<Options, E>& f)
{
  E& member = f.ref(o);
  auto* opt = app.add_option_function<std::string>(
    f.info.flagNames(), [&member, parse = f.parse](const std::string& s) { member = *parse(s); },
    flagHelp(f.info, false));
  const auto choices = f.choices();
  opt->check(CLI::IsMember(std::vector<std::string>(choices.begin(), choices.end())));
  opt->default_str(std::string(f.print(member)));
}

} // namespace detail

namespace detail {

/// "-s,--pipeline-size" -> "`-s`, `--pipeline-size`"; "!--no-x" -> "`--no-x`"
inline std::string flagsText(std::string names)
{
  std::string out;
  size_t from = 0;
  while (from <= names.size()) {
    size_t comma = names.find(',', from);
    std::string one = names.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    if (!one.empty() && one[0] == '!')
      one.erase(0, 1);
    out += (out.empty() ? "`" : ", `") + one + "`";
    if (comma == std::string::npos)
      break;
    from = comma + 1;
  }
  return out;
}

template<typename Options, typename T>
std::string tableRow(const Options& d, const fields::Field<Options, T>& f)
{
  const T& v = f.ref(const_cast<Options&>(d));
  std::string names = f.info.flagNames();
  std::string def;
  std::string unit(f.info.unit);
  if constexpr (std::is_same_v<T, bool>) {
    if (f.info.flags.empty())
      names += ",--no-" + std::string(f.info.name);
    def = v ? "on" : "off";
  }
  else if constexpr (std::is_same_v<T, Duration>) {
    def = check::numberText(toMillis(v));
    unit = "ms";
  }
  else if constexpr (std::is_floating_point_v<T>)
    def = numberDefault(v);
  else if constexpr (std::is_integral_v<T>)
    def = std::to_string(v);
  else if constexpr (std::is_same_v<T, std::optional<uint64_t>>)
    def = v ? std::to_string(*v) : "none";
  else
    def = "`" + v + "`";
  std::string doc(f.info.doc);
  if constexpr (std::is_same_v<T, std::string>) {
    if (!f.choices.empty()) {
      doc += ":";
      for (size_t i = 0; i < f.choices.size(); ++i)
        doc += (i == 0 ? " `" : ", `") + std::string(f.choices[i]) + "`";
    }
  }
  return "| " + flagsText(names) + " | " + def + (unit.empty() ? "" : " " + unit) + " | " + doc + " |\n";
}

template<typename Options, typename E>
std::string tableRow(const Options& d, const fields::EnumField<Options, E>& f)
{
  std::string doc(f.info.doc);
  return "| " + flagsText(f.info.flagNames()) + " | `" + std::string(f.print(f.ref(const_cast<Options&>(d)))) + "` | " +
         doc + " |\n";
}

} // namespace detail

/// The Markdown table of the flags addFieldOptions() adds, with the defaults of `d`
/// (docs/tools.md embeds it; a test compares).
template<typename Options>
std::string optionsTable(const Options& d = Options{})
{
  std::string t = "| option | default | meaning |\n|---|---|---|\n";
  visitFields(std::type_identity<Options>{}, [&](const auto& f) {
    if ((f.info.hosts & fields::Cli) != 0)
      t += detail::tableRow(d, f);
  });
  return t;
}

/// Adds the flags of every field of `o`'s struct that the CLI exposes; the flags write into `o`,
/// which must outlive the parse.
template<typename Options>
void addFieldOptions(CLI::App& app, Options& o)
{
  visitFields(std::type_identity<Options>{}, [&](const auto& f) {
    if ((f.info.hosts & fields::Cli) != 0)
      detail::addFlag(app, o, f);
  });
}

/// The same flags without the CLI11 names in `drop` ("-l"): for a command whose own flags use
/// those letters (`perf client -l` is iperf3's length, `get -l` the lifetime). A field keeps
/// its other names.
template<typename Options>
void addFieldOptions(CLI::App& app, Options& o, std::initializer_list<std::string_view> drop)
{
  visitFields(std::type_identity<Options>{}, [&](const auto& f) {
    if ((f.info.hosts & fields::Cli) == 0)
      return;
    const std::string names = f.info.flagNames();
    std::string kept;
    bool dropped = false;
    size_t from = 0;
    while (from <= names.size()) {
      size_t comma = names.find(',', from);
      std::string one = names.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
      if (std::find(drop.begin(), drop.end(), std::string_view(one)) != drop.end())
        dropped = true;
      else
        kept += (kept.empty() ? "" : ",") + one;
      if (comma == std::string::npos)
        break;
      from = comma + 1;
    }
    if (!dropped) {
      detail::addFlag(app, o, f);
      return;
    }
    auto g = f;
    g.info.flags = kept; // CLI11 copies the names while adding the flag
    detail::addFlag(app, o, g);
  });
}

} // namespace ndnlab::tools
