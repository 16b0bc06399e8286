#include "ns3/runner/scenario.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace ndnlab::runner {

const char* toString(ParamType t)
{
  switch (t) {
    case ParamType::Int: return "int";
    case ParamType::Double: return "double";
    case ParamType::Bool: return "bool";
    case ParamType::String: return "string";
  }
  return "?";
}

bool parseInt(const std::string& s, int64_t& out)
{
  // strtoll alone would take leading spaces and '+'
  size_t sign = !s.empty() && s[0] == '-' ? 1 : 0;
  auto isDigit = [](unsigned char c) { return std::isdigit(c) != 0; };
  if (sign == s.size() || !std::all_of(s.begin() + sign, s.end(), isDigit))
    return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || end != s.c_str() + s.size())
    return false;
  out = v;
  return true;
}

bool parseDouble(const std::string& s, double& out)
{
  // strtod alone would take leading spaces, '+', hexadecimal, "inf" and "nan"
  static const std::regex re(R"(^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$)");
  if (!std::regex_match(s, re))
    return false;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || end != s.c_str() + s.size() || !std::isfinite(v))
    return false;
  out = v;
  return true;
}

namespace {

bool parseBool(const std::string& s, bool& out)
{
  std::string l = s;
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
  if (l == "1" || l == "true" || l == "yes" || l == "on") {
    out = true;
    return true;
  }
  if (l == "0" || l == "false" || l == "no" || l == "off") {
    out = false;
    return true;
  }
  return false;
}

} // namespace

void checkValue(const std::string& name, ParamType type, const std::string& text)
{
  bool ok = true;
  switch (type) {
    case ParamType::Int: {
      int64_t v;
      ok = parseInt(text, v);
      break;
    }
    case ParamType::Double: {
      double v;
      ok = parseDouble(text, v);
      break;
    }
    case ParamType::Bool: {
      bool v;
      ok = parseBool(text, v);
      break;
    }
    case ParamType::String: break;
  }
  if (!ok)
    throw UsageError("--" + name + "=" + text + ": not a valid " + toString(type));
}

namespace {

/// Throws UsageError when the value `text` (already checked against the type) is outside the
/// range of `spec`.
void checkRange(const ParamSpec& spec, const std::string& text)
{
  if (!spec.range.bounded() || (spec.type != ParamType::Int && spec.type != ParamType::Double))
    return;
  double v = 0;
  if (spec.type == ParamType::Int) {
    int64_t i = 0;
    parseInt(text, i);
    v = static_cast<double>(i);
  }
  else {
    parseDouble(text, v);
  }
  if (!spec.range.contains(v)) {
    std::string msg = "--" + spec.name + "=" + text + ": out of range " + toString(spec.range);
    if (!spec.unit.empty())
      msg += " " + spec.unit;
    throw UsageError(msg);
  }
}

} // namespace

Params::Params(const std::vector<ParamSpec>& specs, const std::map<std::string, std::string>& values)
{
  for (const auto& s : specs) {
    try {
      checkValue(s.name, s.type, s.defaultValue);
      checkRange(s, s.defaultValue);
    }
    catch (const UsageError& e) {
      throw std::logic_error(std::string("bad default of a parameter spec: ") + e.what());
    }
    m_values[s.name] = {s.type, s.defaultValue};
    m_set[s.name] = false;
  }
  for (const auto& [name, text] : values) {
    auto it = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == name; });
    if (it == specs.end()) {
      std::ostringstream os;
      os << "unknown parameter --" << name << "; valid parameters:";
      for (const auto& s : specs)
        os << " --" << s.name;
      throw UsageError(os.str());
    }
    checkValue(name, it->type, text);
    checkRange(*it, text);
    if (!it->choices.empty() && std::find(it->choices.begin(), it->choices.end(), text) == it->choices.end()) {
      std::ostringstream os;
      os << "--" << name << "=" << text << ": must be one of";
      for (const auto& c : it->choices)
        os << " " << c;
      throw UsageError(os.str());
    }
    m_values[name].second = text;
    m_set[name] = true;
  }
}

const std::string& Params::raw(const std::string& name, ParamType expected) const
{
  auto it = m_values.find(name);
  if (it == m_values.end())
    throw std::logic_error("scenario reads undeclared parameter '" + name + "'");
  if (it->second.first != expected)
    throw std::logic_error("parameter '" + name + "' is " + toString(it->second.first) + ", read as " +
                           toString(expected));
  return it->second.second;
}

int64_t Params::getInt(const std::string& name) const
{
  int64_t v = 0;
  parseInt(raw(name, ParamType::Int), v);
  return v;
}

double Params::getDouble(const std::string& name) const
{
  double v = 0;
  parseDouble(raw(name, ParamType::Double), v);
  return v;
}

bool Params::getBool(const std::string& name) const
{
  bool v = false;
  parseBool(raw(name, ParamType::Bool), v);
  return v;
}

const std::string& Params::getString(const std::string& name) const
{
  return raw(name, ParamType::String);
}

bool Params::isSet(const std::string& name) const
{
  auto it = m_set.find(name);
  return it != m_set.end() && it->second;
}

nlohmann::json Params::toJson() const
{
  auto j = nlohmann::json::object();
  for (const auto& [name, tv] : m_values) {
    switch (tv.first) {
      case ParamType::Int: j[name] = getInt(name); break;
      case ParamType::Double: j[name] = getDouble(name); break;
      case ParamType::Bool: j[name] = getBool(name); break;
      case ParamType::String: j[name] = tv.second; break;
    }
  }
  return j;
}

Registry& Registry::instance()
{
  static Registry registry;
  return registry;
}

void Registry::add(Scenario scenario)
{
  auto name = scenario.name;
  if (!m_scenarios.emplace(name, std::move(scenario)).second)
    throw std::logic_error("ndnlab-sim: scenario '" + name + "' registered twice");
}

const Scenario* Registry::find(const std::string& name) const
{
  auto it = m_scenarios.find(name);
  return it == m_scenarios.end() ? nullptr : &it->second;
}

std::vector<const Scenario*> Registry::all() const
{
  std::vector<const Scenario*> v;
  for (const auto& [name, s] : m_scenarios)
    v.push_back(&s);
  return v;
}

void Registry::setDaemonKeys(DaemonKeys f)
{
  if (m_daemonKeys != nullptr)
    throw std::logic_error("two modules map ns-3 overrides to daemon keys");
  m_daemonKeys = f;
}

nlohmann::json Registry::daemonKeys(const std::map<std::string, std::string>& ns3Defaults,
                                    std::vector<std::string>& simulatorOnly) const
{
  if (m_daemonKeys != nullptr)
    return m_daemonKeys(ns3Defaults, simulatorOnly);
  for (const auto& [path, value] : ns3Defaults)
    simulatorOnly.push_back("--" + path + "=" + value);
  return nlohmann::json::object();
}

Registration::Registration(Scenario scenario)
{
  Registry::instance().add(std::move(scenario));
}

} // namespace ndnlab::runner
