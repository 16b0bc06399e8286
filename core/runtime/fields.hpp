#pragma once
// One declaration per knob (STYLE.md 3: one Options struct is the single source of every knob).
//
// A core Options struct lists its fields once, in a visitor function next to the struct:
// name, one-line doc, unit, range and how to reach the member. Every host that exposes the
// struct walks that list instead of naming the fields again: the tools' CLI11 flags
// (tools/common/option-flags.hpp), the ns-3 attributes and the scenario parameters of
// `ndnlab sim` (ns3/ndnlab/model/option-fields.hpp), and the options tables in docs/
// (checked by tests). The Options' default member initialisers stay the defaults.
//
// Names: `name` is kebab-case, the CLI flag `--name`; the ns-3 attribute and the scenario
// parameter are its CamelCase unless `attribute` names them (kept for stored experiment specs).
// Units: a Duration is shown and entered in milliseconds by the CLI and the scenarios, as an
// ns3::Time by the attributes.
//
// Core stays std-only: this header knows no host.

#include <cctype>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ndnlab::fields {

/// Accepted values of a numeric field, in its display unit (ms for a Duration).
struct Range
{
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool minOpen = false; ///< min itself is not allowed
  bool maxOpen = false; ///< max itself is not allowed

  /// [min, max]
  static constexpr Range closed(double lo, double hi) { return {lo, hi, false, false}; }
  /// (0, max]: positive
  static constexpr Range positive(double hi = std::numeric_limits<double>::infinity()) { return {0, hi, true, false}; }
  /// [0, max]: not negative
  static constexpr Range nonNegative(double hi = std::numeric_limits<double>::infinity())
  {
    return {0, hi, false, false};
  }
  /// (0, 1] or, with closedTop = false, (0, 1)
  static constexpr Range fraction(bool closedTop) { return {0, 1, true, !closedTop}; }

  bool bounded() const { return std::isfinite(min) || std::isfinite(max); }
  bool contains(double v) const { return (minOpen ? v > min : v >= min) && (maxOpen ? v < max : v <= max); }
};

/// "[0, 1000000]", "(0, 1]", "(0, inf]"; empty when unbounded.
inline std::string toString(const Range& r)
{
  if (!r.bounded())
    return {};
  // a bound as an integer when it is one (1000000, not 1e+06)
  auto bound = [](double v) {
    if (!std::isfinite(v))
      return std::string(v < 0 ? "-inf" : "inf");
    std::ostringstream os;
    if (std::abs(v) < 1e15 && v == std::floor(v))
      os << static_cast<int64_t>(v);
    else
      os << v;
    return os.str();
  };
  return (r.minOpen ? "(" : "[") + bound(r.min) + ", " + bound(r.max) + (r.maxOpen ? ")" : "]");
}

/// One field of an engine's result: its key wherever the result is written (`ndnlab get --json`,
/// the ns-3 scenarios' result.json, the Python columns), unit and meaning. An engine lists
/// its result fields once with their values (visitMetrics next to its stats struct).
struct Metric
{
  std::string_view key;  ///< snake_case, the unit as suffix where it has one (goodput_mbps)
  std::string_view unit; ///< "s", "ms", "Mbit/s", "B", ""; the key's suffix says the same
  std::string_view doc;  ///< one line
};

/// "init-cwnd" -> "InitCwnd"
inline std::string camelCase(std::string_view kebab)
{
  std::string out;
  bool upper = true;
  for (char c : kebab) {
    if (c == '-') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

/// Which hosts expose a field (all by default).
enum Host : unsigned {
  Cli = 1,      ///< a tool's CLI11 flag
  Ns3 = 2,      ///< an ns-3 attribute
  Scenario = 4, ///< an `ndnlab sim` scenario parameter (implies the attribute)
  AllHosts = Cli | Ns3 | Scenario,
};

/// What every field declares, whatever its type.
struct Info
{
  std::string_view name;           ///< kebab-case; the CLI flag is --name
  std::string_view doc;            ///< one line, no trailing period
  std::string_view unit = {};      ///< "segments", "ms", ...; a Duration is always "ms"
  std::optional<Range> range = {}; ///< numeric fields: accepted values (display unit)
  std::string_view attribute = {}; ///< ns-3 attribute / scenario name; empty: CamelCase(name)
  std::string_view flags = {};     ///< CLI11 names when not "--name" (aliases, "!--no-x")
  unsigned hosts = AllHosts;
  std::string_view section = {}; ///< ndnlabd: TOML table of the key `name` in snake_case; empty: none

  /// The doc with `unit` in brackets after it ("Initial window (segments)"); no brackets for
  /// an empty unit. Hosts pass the unit their value is written in.
  std::string help(std::string_view unit) const
  {
    return unit.empty() ? std::string(doc) : std::string(doc) + " (" + std::string(unit) + ")";
  }
  /// The ns-3 attribute and scenario parameter name.
  std::string attributeName() const { return attribute.empty() ? camelCase(name) : std::string(attribute); }
  /// ndnlabd's TOML key: the name in snake_case.
  std::string tomlKey() const
  {
    std::string k(name);
    for (char& c : k)
      c = c == '-' ? '_' : c;
    return k;
  }
  /// CLI11's names for the flag.
  std::string flagNames() const { return flags.empty() ? "--" + std::string(name) : std::string(flags); }
};

/// A plain field: bool, an arithmetic type, std::string, Duration or optional<uint64_t>.
template<typename Options, typename T>
struct Field
{
  Info info;
  T& (*ref)(Options&);
  std::vector<std::string_view> choices = {}; ///< std::string fields: the accepted values (empty: any)
};

/// An enum field, written and read as text: `print` and `parse` are the enum's own
/// toString and parser, `values` its enumerators in display order.
template<typename Options, typename E>
struct EnumField
{
  Info info;
  E& (*ref)(Options&);
  std::string_view (*print)(E);
  std::optional<E> (*parse)(std::string_view);
  std::vector<E> values;

  /// The accepted texts: `values` as `print` writes them.
  std::vector<std::string_view> choices() const
  {
    std::vector<std::string_view> c;
    for (E v : values)
      c.push_back(print(v));
    return c;
  }
};

/// A Field whose member type follows from `ref`.
template<typename Options, typename Ref>
auto field(Info info, Ref ref, std::vector<std::string_view> choices = {})
{
  using T = std::remove_reference_t<decltype(ref(std::declval<Options&>()))>;
  return Field<Options, T>{std::move(info), static_cast<T& (*)(Options&)>(ref), std::move(choices)};
}

/// An EnumField whose enum type follows from `ref`.
template<typename Options, typename Ref,
         typename E = std::remove_reference_t<decltype(std::declval<Ref>()(std::declval<Options&>()))>>
auto enumField(Info info, Ref ref, std::string_view (*print)(E), std::optional<E> (*parse)(std::string_view),
               std::vector<E> values)
{
  return EnumField<Options, E>{std::move(info), static_cast<E& (*)(Options&)>(ref), print, parse, std::move(values)};
}

} // namespace ndnlab::fields

/// The member a field reaches: NDNLAB_FIELD_REF(o.window.initCwnd).
#define NDNLAB_FIELD_REF(expr) [](auto& o) -> decltype(auto) { return (expr); }
