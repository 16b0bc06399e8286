#include "daemon/config.hpp"

#include "core/face/link-service-fields.hpp"
#include "core/fw/forwarder-fields.hpp"
#include "core/mgmt/management-fields.hpp"
#include "io/asio-env.hpp"
#include "io/ethernet-socket.hpp"

#include "core/lp/interest-bundler.hpp"

#include <asio/ip/address.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace ndnlab::daemon {

// --- durations -----------------------------------------------------------------------------

namespace {

struct Unit
{
  std::string_view suffix;
  Duration size;
};
constexpr Unit Units[] = {
  {"h", std::chrono::hours(1)},         {"min", std::chrono::minutes(1)},     {"s", std::chrono::seconds(1)},
  {"ms", std::chrono::milliseconds(1)}, {"us", std::chrono::microseconds(1)}, {"ns", std::chrono::nanoseconds(1)},
};

} // namespace

std::string formatDuration(Duration d)
{
  if (d == Duration::zero())
    return "0s";
  for (const auto& u : Units) {
    if (d.count() % u.size.count() == 0)
      return std::to_string(d.count() / u.size.count()) + std::string(u.suffix);
  }
  return std::to_string(d.count()) + "ns";
}

bool parseDuration(std::string_view text, Duration& out)
{
  size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9')
    ++i;
  if (i == 0)
    return false;
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + i, n);
  if (ec != std::errc())
    return false;
  std::string_view unit = text.substr(i);
  while (!unit.empty() && unit.front() == ' ')
    unit.remove_prefix(1);
  for (const auto& u : Units) {
    if (unit == u.suffix) {
      if (n > std::numeric_limits<int64_t>::max() / u.size.count())
        return false;
      out = Duration(n * u.size.count());
      return true;
    }
  }
  return false;
}

// --- rates ---------------------------------------------------------------------------------

namespace {

struct RateUnit
{
  std::string_view suffix;
  double bps;
};
constexpr RateUnit RateUnits[] = {{"Gbit", 1e9}, {"Mbit", 1e6}, {"kbit", 1e3}, {"bit", 1}};

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

} // namespace

std::string formatRate(Rate r)
{
  if (r.bps() <= 0)
    return "0";
  for (const auto& u : RateUnits) {
    double n = r.bps() / u.bps;
    if (n >= 1 && n == std::floor(n))
      return std::to_string(static_cast<uint64_t>(n)) + std::string(u.suffix);
  }
  return std::to_string(static_cast<uint64_t>(std::llround(r.bps()))) + "bit";
}

bool parseRate(std::string_view text, Rate& out)
{
  if (text == "0") {
    out = Rate();
    return true;
  }
  size_t i = 0;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.'))
    ++i;
  if (i == 0)
    return false;
  double n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + i, n);
  if (ec != std::errc() || end != text.data() + i || !(n >= 0) || !std::isfinite(n))
    return false;
  std::string_view unit = text.substr(i);
  while (!unit.empty() && unit.front() == ' ')
    unit.remove_prefix(1);
  for (const auto& u : RateUnits) {
    if (equalsIgnoreCase(unit, u.suffix)) {
      out = Rate::bitsPerSecond(n * u.bps);
      return true;
    }
  }
  return false;
}

// --- key builders --------------------------------------------------------------------------

namespace {

std::string quote(std::string_view s)
{
  // a TOML basic string: quotation mark, backslash and control characters other than tab escaped
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    }
    else if ((u < 0x20 && c != '\t') || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", u);
      out += buf;
    }
    else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

std::string typeName(const toml::node& n)
{
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    default: return "a date/time";
  }
}

template<typename Access>
ConfigKey boolKey(std::string section, std::string name, std::string doc, Access access)
{
  return ConfigKey{
    std::move(section),
    std::move(name),
    "boolean",
    std::move(doc),
    [access](const DaemonOptions& o) { return std::string(access(const_cast<DaemonOptions&>(o)) ? "true" : "false"); },
    [access](DaemonOptions& o, const toml::node& v) -> std::string {
      if (!v.is_boolean())
        return "expected a boolean, got " + typeName(v);
      access(o) = *v.value<bool>();
      return {};
    }};
}

template<typename Access>
ConfigKey intKey(std::string section, std::string name, std::string doc, Access access, int64_t min, int64_t max)
{
  return ConfigKey{std::move(section),
                   std::move(name),
                   "integer",
                   std::move(doc),
                   [access](const DaemonOptions& o) { return std::to_string(access(const_cast<DaemonOptions&>(o))); },
                   [access, min, max](DaemonOptions& o, const toml::node& v) -> std::string {
                     if (!v.is_integer())
                       return "expected an integer, got " + typeName(v);
                     int64_t n = *v.value<int64_t>();
                     if (n < min || n > max)
                       return "value " + std::to_string(n) + " out of range [" + std::to_string(min) + ", " +
                              std::to_string(max) + "]";
                     using T = std::remove_reference_t<decltype(access(o))>;
                     access(o) = static_cast<T>(n);
                     return {};
                   }};
}

std::string formatFloat(double x)
{
  std::ostringstream os;
  os << x;
  std::string s = os.str();
  return s.find_first_of(".e") == std::string::npos ? s + ".0" : s;
}

template<typename Access>
ConfigKey floatKey(std::string section, std::string name, std::string doc, Access access, double min, double max)
{
  return ConfigKey{std::move(section),
                   std::move(name),
                   "float",
                   std::move(doc),
                   [access](const DaemonOptions& o) { return formatFloat(access(const_cast<DaemonOptions&>(o))); },
                   [access, min, max](DaemonOptions& o, const toml::node& v) -> std::string {
                     if (!v.is_number())
                       return "expected a number, got " + typeName(v);
                     double x = *v.value<double>();
                     if (!(x >= min && x <= max))
                       return "value " + formatFloat(x) + " out of range [" + formatFloat(min) + ", " +
                              formatFloat(max) + "]";
                     access(o) = x;
                     return {};
                   }};
}

template<typename Access>
ConfigKey stringKey(std::string section, std::string name, std::string doc, Access access)
{
  return ConfigKey{std::move(section),
                   std::move(name),
                   "string",
                   std::move(doc),
                   [access](const DaemonOptions& o) { return quote(access(const_cast<DaemonOptions&>(o))); },
                   [access](DaemonOptions& o, const toml::node& v) -> std::string {
                     if (!v.is_string())
                       return "expected a string, got " + typeName(v);
                     access(o) = *v.value<std::string>();
                     return {};
                   }};
}

template<typename Access>
ConfigKey durationKey(std::string section, std::string name, std::string doc, Access access,
                      Duration min = Duration::zero())
{
  return ConfigKey{
    std::move(section),
    std::move(name),
    "duration",
    std::move(doc),
    [access](const DaemonOptions& o) { return quote(formatDuration(access(const_cast<DaemonOptions&>(o)))); },
    [access, min](DaemonOptions& o, const toml::node& v) -> std::string {
      if (!v.is_string())
        return "expected a duration string such as \"500ms\" or \"10s\", got " + typeName(v);
      Duration d;
      std::string text = *v.value<std::string>();
      if (!parseDuration(text, d))
        return "bad duration \"" + text + "\" (use <integer><ns|us|ms|s|min|h>)";
      if (d < min)
        return "duration \"" + text + "\" is below the minimum " + formatDuration(min);
      access(o) = d;
      return {};
    }};
}

/// What an address key must hold.
enum class AddressKind {
  Any,         ///< IPv4 or IPv6 (listen addresses)
  V4,          ///< IPv4 (the multicast interface)
  V4Multicast, ///< IPv4 multicast group
};

/// A string key holding a numeric IP address, checked here so that a bad one is a file:line
/// configuration error (exit 2) instead of a failure after the daemon started listening.
template<typename Access>
ConfigKey addressKey(std::string section, std::string name, std::string doc, AddressKind kind, Access access)
{
  return ConfigKey{std::move(section),
                   std::move(name),
                   "string",
                   std::move(doc),
                   [access](const DaemonOptions& o) { return quote(access(const_cast<DaemonOptions&>(o))); },
                   [access, kind](DaemonOptions& o, const toml::node& v) -> std::string {
                     if (!v.is_string())
                       return "expected a string, got " + typeName(v);
                     std::string text = *v.value<std::string>();
                     std::error_code ec;
                     if (kind == AddressKind::Any) {
                       asio::ip::make_address(text, ec);
                       if (ec)
                         return "bad IP address \"" + text +
                                "\" (a numeric IPv4 or IPv6 address, e.g. \"0.0.0.0\" or \"::\")";
                     }
                     else {
                       auto a = asio::ip::make_address_v4(text, ec);
                       if (ec)
                         return "bad IPv4 address \"" + text + "\"";
                       if (kind == AddressKind::V4Multicast && !a.is_multicast())
                         return "\"" + text + "\" is not an IPv4 multicast group (224.0.0.0/4)";
                     }
                     access(o) = text;
                     return {};
                   }};
}

template<typename Access>
ConfigKey mediumKey(std::string section, std::string doc, Access access)
{
  return ConfigKey{
    std::move(section),
    "medium",
    "string",
    std::move(doc),
    [access](const DaemonOptions& o) { return quote(face::toString(access(const_cast<DaemonOptions&>(o)))); },
    [access](DaemonOptions& o, const toml::node& v) -> std::string {
      if (!v.is_string())
        return "expected a string, got " + typeName(v);
      std::string text = *v.value<std::string>();
      if (text == "wired")
        access(o) = face::Medium::Wired;
      else if (text == "wireless")
        access(o) = face::Medium::Wireless;
      else
        return "unknown medium \"" + text + "\" (wired, wireless)";
      return {};
    }};
}

/// An array of interface patterns (io::interfaceMatches), each checked when read.
template<typename Access>
ConfigKey interfaceListKey(std::string section, std::string name, std::string doc, Access access)
{
  return ConfigKey{std::move(section),
                   std::move(name),
                   "array of strings",
                   std::move(doc),
                   [access](const DaemonOptions& o) {
                     std::string out = "[";
                     for (const auto& p : access(const_cast<DaemonOptions&>(o)))
                       out += (out.size() > 1 ? ", " : "") + quote(p);
                     return out + "]";
                   },
                   [access](DaemonOptions& o, const toml::node& v) -> std::string {
                     const toml::array* a = v.as_array();
                     if (a == nullptr)
                       return "expected an array of strings such as [\"veth*\", \"eth0\"], got " + typeName(v);
                     std::vector<std::string> patterns;
                     for (const toml::node& e : *a) {
                       if (!e.is_string())
                         return "expected an array of strings, got " + typeName(e) + " in it";
                       std::string p = *e.value<std::string>();
                       if (std::string err = io::interfacePatternError(p); !err.empty())
                         return err + " (an interface name, with * and ? wildcards, or a MAC address)";
                       patterns.push_back(std::move(p));
                     }
                     access(o) = std::move(patterns);
                     return {};
                   }};
}

constexpr int64_t MaxInt = std::numeric_limits<int64_t>::max();
constexpr int64_t MaxInt32 = std::numeric_limits<int32_t>::max();

/// `max_faces` and `max_faces_per_address` of a channel's io::FaceLimits, reached by `limits`;
/// `what` names its faces ("accepted TCP faces").
template<typename Access>
void addFaceLimitKeys(std::vector<ConfigKey>& k, const std::string& section, const std::string& what, Access limits)
{
  k.push_back(intKey(
    section, "max_faces",
    "most " + what +
      " at once; further connections are refused (too_many_faces) "
      "until faces close",
    [limits](DaemonOptions& o) -> decltype(auto) { return (limits(o).maxFaces); }, 1, MaxInt));
  k.push_back(intKey(
    section, "max_faces_per_address",
    "most " + what +
      " from one remote address at once; further connections from it "
      "are refused (too_many_faces_per_address)",
    [limits](DaemonOptions& o) -> decltype(auto) { return (limits(o).maxFacesPerAddress); }, 1, MaxInt));
}

/// ndnlabd's key of a core field (core/runtime/fields.hpp) of the Options struct that `sub`
/// reaches in DaemonOptions: [section] name_in_snake_case, the field's doc, its range.
template<typename Sub, typename Options, typename T>
ConfigKey keyOf(const fields::Field<Options, T>& f, Sub sub)
{
  auto ref = f.ref;
  auto access = [ref, sub](DaemonOptions& o) -> T& { return ref(sub(o)); };
  std::string section(f.info.section);
  std::string doc(f.info.doc);
  const fields::Range r = f.info.range.value_or(fields::Range{});
  if constexpr (std::is_same_v<T, bool>)
    return boolKey(section, f.info.tomlKey(), doc, access);
  else if constexpr (std::is_same_v<T, Duration>)
    return durationKey(section, f.info.tomlKey(), doc, access,
                       std::isfinite(r.min)
                         ? std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(r.min))
                         : Duration::zero());
  else if constexpr (std::is_floating_point_v<T>)
    return floatKey(section, f.info.tomlKey(), doc, access, r.min, r.max);
  else if constexpr (std::is_integral_v<T>)
    return intKey(section, f.info.tomlKey(), doc, access,
                  std::isfinite(r.min) ? static_cast<int64_t>(r.min) : std::numeric_limits<int64_t>::min(),
                  r.max < static_cast<double>(MaxInt) ? static_cast<int64_t>(r.max) : MaxInt);
  else if constexpr (std::is_same_v<T, std::string>)
    return stringKey(section, f.info.tomlKey(), doc, access);
  else
    static_assert(sizeof(T) == 0, "no config key type for this field");
}

template<typename Sub, typename Options, typename E>
ConfigKey keyOf(const fields::EnumField<Options, E>& f, Sub sub)
{
  auto ref = f.ref;
  auto print = f.print;
  auto parse = f.parse;
  std::string choices;
  for (std::string_view c : f.choices())
    choices += (choices.empty() ? "" : ", ") + std::string(c);
  return ConfigKey{
    std::string(f.info.section),
    f.info.tomlKey(),
    "string",
    std::string(f.info.doc),
    [ref, sub, print](const DaemonOptions& o) { return quote(print(ref(sub(const_cast<DaemonOptions&>(o))))); },
    [ref, sub, parse, choices](DaemonOptions& o, const toml::node& v) -> std::string {
      if (!v.is_string())
        return "expected a string, got " + typeName(v);
      std::string text = *v.value<std::string>();
      auto e = parse(text);
      if (!e)
        return "unknown value \"" + text + "\" (" + choices + ")";
      ref(sub(o)) = *e;
      return {};
    }};
}

/// The keys of every field of `Options` (visitFields next to the struct) in `section`.
template<typename Options, typename Sub>
void addFieldKeys(std::vector<ConfigKey>& k, std::string_view section, Sub sub)
{
  visitFields(std::type_identity<Options>{}, [&](const auto& f) {
    if (f.info.section == section)
      k.push_back(keyOf(f, sub));
  });
}

std::vector<ConfigKey> buildKeys()
{
  using O = DaemonOptions;
  std::vector<ConfigKey> k;
  // [general]
  addFieldKeys<GeneralOptions>(k, "general", [](O& o) -> GeneralOptions& { return o.general; });

  // [tables]: the forwarder's (core/fw/forwarder-fields.hpp), then the RIB's
  auto forwarder = [](O& o) -> fw::ForwarderOptions& { return o.forwarder; };
  addFieldKeys<fw::ForwarderOptions>(k, "tables", forwarder);
  auto management = [](O& o) -> mgmt::ManagementOptions& { return o.management; };
  addFieldKeys<mgmt::ManagementOptions>(k, "tables", management);

  // [forwarder]
  k.push_back(ConfigKey{"forwarder", "default_strategy", "string", "strategy of the prefix /",
                        [](const DaemonOptions& o) { return quote(o.forwarder.defaultStrategy.toUri()); },
                        [](DaemonOptions& o, const toml::node& v) -> std::string {
                          if (!v.is_string())
                            return "expected a string, got " + typeName(v);
                          auto name = Name::parse(*v.value<std::string>());
                          if (!name)
                            return "bad name: " + name.error();
                          o.forwarder.defaultStrategy = *name;
                          return {};
                        }});
  addFieldKeys<fw::ForwarderOptions>(k, "forwarder", forwarder);

  // [management]
  addFieldKeys<mgmt::ManagementOptions>(k, "management", management);

  // [face_system.unix]
  k.push_back(boolKey("face_system.unix", "enabled", "listen on a Unix stream socket",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.unixEnabled); }));
  k.push_back(stringKey("face_system.unix", "path",
                        "socket path (NFD's default, used by python-ndn and NDNts without config)",
                        [](O& o) -> decltype(auto) { return (o.faceSystem.unixSocket.path); }));
  k.push_back(intKey(
    "face_system.unix", "max_faces",
    "most Unix socket faces at once; further connections are refused "
    "(too_many_faces) until faces close",
    [](O& o) -> decltype(auto) { return (o.faceSystem.unixSocket.maxFaces); }, 1, MaxInt));

  // [face_system.tcp]
  k.push_back(boolKey("face_system.tcp", "enabled", "listen for TCP connections",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.tcpEnabled); }));
  k.push_back(addressKey("face_system.tcp", "listen_address", "listen address; \"::\" listens on IPv6 and IPv4",
                         AddressKind::Any, [](O& o) -> decltype(auto) { return (o.faceSystem.tcp.address); }));
  k.push_back(intKey(
    "face_system.tcp", "port", "listen port; 0 disables the TCP listener",
    [](O& o) -> decltype(auto) { return (o.faceSystem.tcp.port); }, 0, 65535));
  k.push_back(durationKey(
    "face_system.tcp", "connect_timeout", "faces/create gives up connecting after this long",
    [](O& o) -> decltype(auto) { return (o.faceSystem.tcp.connectTimeout); }, std::chrono::milliseconds(1)));
  k.push_back(durationKey(
    "face_system.tcp", "reconnect_initial_delay", "permanent TCP faces: first reconnection delay (doubles per failure)",
    [](O& o) -> decltype(auto) { return (o.faceSystem.tcp.reconnect.initialDelay); }, std::chrono::milliseconds(1)));
  k.push_back(durationKey(
    "face_system.tcp", "reconnect_max_delay", "permanent TCP faces: largest reconnection delay",
    [](O& o) -> decltype(auto) { return (o.faceSystem.tcp.reconnect.maxDelay); }, std::chrono::milliseconds(1)));
  addFaceLimitKeys(k, "face_system.tcp", "accepted TCP faces",
                   [](O& o) -> decltype(auto) { return (o.faceSystem.tcp.limits); });
  k.push_back(durationKey(
    "face_system.tcp", "idle_timeout", "accepted TCP faces that receive nothing this long are closed (idle_timeout)",
    [](O& o) -> decltype(auto) { return (o.faceSystem.tcp.idleTimeout); }, std::chrono::milliseconds(1)));

  // [face_system.websocket]
  k.push_back(boolKey("face_system.websocket", "enabled",
                      "listen for WebSocket connections (browsers; NFD listens by default)",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.websocketEnabled); }));
  k.push_back(addressKey("face_system.websocket", "listen_address", "listen address; \"::\" listens on IPv6 and IPv4",
                         AddressKind::Any, [](O& o) -> decltype(auto) { return (o.faceSystem.websocket.address); }));
  k.push_back(intKey(
    "face_system.websocket", "port", "listen port; 0 disables the WebSocket listener",
    [](O& o) -> decltype(auto) { return (o.faceSystem.websocket.port); }, 0, 65535));
  k.push_back(durationKey(
    "face_system.websocket", "ping_interval", "each connection is pinged this often; 0 = never",
    [](O& o) -> decltype(auto) { return (o.faceSystem.websocket.pingInterval); }, std::chrono::milliseconds(0)));
  k.push_back(durationKey(
    "face_system.websocket", "pong_timeout", "a connection that does not answer a ping this long is closed",
    [](O& o) -> decltype(auto) { return (o.faceSystem.websocket.pongTimeout); }, std::chrono::milliseconds(1)));
  addFaceLimitKeys(k, "face_system.websocket", "WebSocket faces",
                   [](O& o) -> decltype(auto) { return (o.faceSystem.websocket.limits); });

  // [face_system.udp]
  k.push_back(boolKey("face_system.udp", "enabled", "UDP unicast channel",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.udpEnabled); }));
  k.push_back(addressKey("face_system.udp", "listen_address", "listen address", AddressKind::Any,
                         [](O& o) -> decltype(auto) { return (o.faceSystem.udp.address); }));
  k.push_back(intKey(
    "face_system.udp", "port", "listen port; 0 disables the UDP channel",
    [](O& o) -> decltype(auto) { return (o.faceSystem.udp.port); }, 0, 65535));
  k.push_back(durationKey(
    "face_system.udp", "idle_timeout", "on-demand UDP faces that receive nothing this long are closed",
    [](O& o) -> decltype(auto) { return (o.faceSystem.udp.idleTimeout); }, std::chrono::milliseconds(1)));
  k.push_back(intKey(
    "face_system.udp", "mtu",
    "Largest MTU of UDP unicast faces, bytes; a face uses at most its path MTU less the IP and UDP headers, and "
    "NDNLPv2 fragments larger packets",
    [](O& o) -> decltype(auto) { return (o.faceSystem.udpMtu); }, 64, io::UdpMaxPayloadV4));
  k.push_back(boolKey("face_system.udp", "accept_new_faces",
                      "create on-demand faces for datagrams from unknown endpoints",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.udp.acceptNewFaces); }));
  k.push_back(intKey(
    "face_system.udp", "max_on_demand_faces",
    "most on-demand UDP faces at once; datagrams from further new endpoints are "
    "dropped (too_many_faces)",
    [](O& o) -> decltype(auto) { return (o.faceSystem.udp.maxOnDemandFaces); }, 1, MaxInt));
  k.push_back(intKey(
    "face_system.udp", "socket_buffer_size", "SO_SNDBUF/SO_RCVBUF of the UDP socket, bytes; 0 = kernel default",
    [](O& o) -> decltype(auto) { return (o.faceSystem.udp.socketBufferSize); }, 0, MaxInt32));
  k.push_back(mediumKey("face_system.udp",
                        "physical medium of UDP unicast faces: wired, wireless (wireless faces "
                        "bundle Interests with face_system.link.bundling)",
                        [](O& o) -> decltype(auto) { return (o.faceSystem.udpMedium); }));

  // [face_system.udp.impair]: egress impairment of UDP unicast faces (for hosts without netem)
  k.push_back(ConfigKey{"face_system.udp.impair", "loss", "float",
                        "probability in [0, 1] that a UDP unicast face drops an outgoing datagram",
                        [](const DaemonOptions& o) { return formatFloat(o.faceSystem.udpImpair.loss); },
                        [](DaemonOptions& o, const toml::node& v) -> std::string {
                          if (!v.is_number())
                            return "expected a number, got " + typeName(v);
                          double p = *v.value<double>();
                          if (!(p >= 0.0 && p <= 1.0))
                            return "loss must be a probability in [0, 1]";
                          o.faceSystem.udpImpair.loss = p;
                          return {};
                        }});
  k.push_back(durationKey("face_system.udp.impair", "delay",
                          "delay added to every outgoing datagram of a UDP unicast face",
                          [](O& o) -> decltype(auto) { return (o.faceSystem.udpImpair.delay); }));
  k.push_back(durationKey("face_system.udp.impair", "jitter",
                          "extra delay drawn uniformly from [0, jitter) per datagram (may reorder)",
                          [](O& o) -> decltype(auto) { return (o.faceSystem.udpImpair.jitter); }));
  k.push_back(ConfigKey{"face_system.udp.impair", "rate", "rate",
                        "egress rate limit per UDP unicast face, e.g. \"100Mbit\"; \"0\" = unlimited",
                        [](const DaemonOptions& o) { return quote(formatRate(o.faceSystem.udpImpair.rate)); },
                        [](DaemonOptions& o, const toml::node& v) -> std::string {
                          if (!v.is_string())
                            return "expected a rate string such as \"100Mbit\", got " + typeName(v);
                          std::string text = *v.value<std::string>();
                          if (!parseRate(text, o.faceSystem.udpImpair.rate))
                            return "bad rate \"" + text + "\" (use <number><bit|kbit|Mbit|Gbit> or \"0\")";
                          return {};
                        }});
  k.push_back(
    ConfigKey{"face_system.udp.impair", "queue_limit", "integer",
              "rate limiter backlog per face, bytes; datagrams beyond it are dropped",
              [](const DaemonOptions& o) { return std::to_string(o.faceSystem.udpImpair.queueCapacity.count()); },
              [](DaemonOptions& o, const toml::node& v) -> std::string {
                if (!v.is_integer())
                  return "expected an integer, got " + typeName(v);
                int64_t n = *v.value<int64_t>();
                if (n < 1)
                  return "value " + std::to_string(n) + " out of range [1, " + std::to_string(MaxInt) + "]";
                o.faceSystem.udpImpair.queueCapacity = Bytes(static_cast<uint64_t>(n));
                return {};
              }});

  // [face_system.multicast]
  k.push_back(boolKey("face_system.multicast", "enabled", "UDP multicast face (off by default)",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.multicastEnabled); }));
  k.push_back(addressKey("face_system.multicast", "group", "IPv4 multicast group (NFD default)",
                         AddressKind::V4Multicast,
                         [](O& o) -> decltype(auto) { return (o.faceSystem.multicast.group); }));
  k.push_back(intKey(
    "face_system.multicast", "port", "group port (NFD default)",
    [](O& o) -> decltype(auto) { return (o.faceSystem.multicast.port); }, 1, 65535));
  k.push_back(addressKey("face_system.multicast", "interface_address",
                         "local address to join and send on; \"0.0.0.0\" = the kernel's choice", AddressKind::V4,
                         [](O& o) -> decltype(auto) { return (o.faceSystem.multicast.interfaceAddress); }));
  k.push_back(intKey(
    "face_system.multicast", "ttl", "IP multicast TTL",
    [](O& o) -> decltype(auto) { return (o.faceSystem.multicast.ttl); }, 1, 255));
  k.push_back(boolKey("face_system.multicast", "loopback",
                      "loop datagrams back to this host (several daemons on one host)",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.multicast.loopback); }));
  k.push_back(intKey(
    "face_system.multicast", "mtu", "MTU of the multicast face, bytes",
    [](O& o) -> decltype(auto) { return (o.faceSystem.multicastMtu); }, 64, io::UdpMaxPayloadV4));
  k.push_back(boolKey("face_system.multicast", "ad_hoc",
                      "the multicast face's link type is ad hoc (members may not hear each other), not multi-access",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.multicast.adHoc); }));
  k.push_back(mediumKey("face_system.multicast", "physical medium of the multicast face: wired, wireless",
                        [](O& o) -> decltype(auto) { return (o.faceSystem.multicastMedium); }));

  // [face_system.ether] (NFD's keys, plus enabled, max_on_demand_faces, socket_buffer_size)
  k.push_back(boolKey("face_system.ether", "enabled",
                      "Ethernet faces on the selected interfaces (AF_PACKET, EtherType 0x8624; needs CAP_NET_RAW)",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.etherEnabled); }));
  k.push_back(boolKey("face_system.ether", "listen",
                      "create on-demand unicast faces for frames from unknown MAC addresses",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.ether.acceptNewFaces); }));
  k.push_back(durationKey(
    "face_system.ether", "idle_timeout", "on-demand Ethernet faces that receive nothing this long are closed",
    [](O& o) -> decltype(auto) { return (o.faceSystem.ether.idleTimeout); }, std::chrono::milliseconds(1)));
  k.push_back(intKey(
    "face_system.ether", "max_on_demand_faces",
    "most on-demand Ethernet faces per interface at once; frames from further new MAC addresses "
    "are dropped (too_many_faces)",
    [](O& o) -> decltype(auto) { return (o.faceSystem.ether.maxOnDemandFaces); }, 1, MaxInt));
  k.push_back(intKey(
    "face_system.ether", "socket_buffer_size",
    "SO_SNDBUF/SO_RCVBUF of each AF_PACKET socket, bytes; 0 = kernel default",
    [](O& o) -> decltype(auto) { return (o.faceSystem.ether.socketBufferSize); }, 0, MaxInt32));
  k.push_back(boolKey("face_system.ether", "mcast", "one multicast face per selected interface that can multicast",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.etherMulticastEnabled); }));
  k.push_back(ConfigKey{"face_system.ether", "mcast_group", "string",
                        "multicast group MAC address of the multicast faces (NFD default)",
                        [](const DaemonOptions& o) { return quote(o.faceSystem.etherMulticast.group.toString()); },
                        [](DaemonOptions& o, const toml::node& v) -> std::string {
                          if (!v.is_string())
                            return "expected a string, got " + typeName(v);
                          std::string text = *v.value<std::string>();
                          auto mac = io::MacAddress::parse(text);
                          if (!mac)
                            return "bad MAC address \"" + text + "\" (xx:xx:xx:xx:xx:xx)";
                          if (!mac->isMulticast())
                            return "\"" + text + "\" is not a multicast MAC address (the first octet is odd)";
                          o.faceSystem.etherMulticast.group = *mac;
                          return {};
                        }});
  k.push_back(boolKey("face_system.ether", "mcast_ad_hoc",
                      "the multicast faces' link type is ad hoc (members may not hear each other), "
                      "not multi-access",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.etherMulticast.adHoc); }));
  k.push_back(
    interfaceListKey("face_system.ether", "whitelist",
                     "interfaces with Ethernet faces: names with * and ? wildcards, or MAC addresses (not loopback)",
                     [](O& o) -> decltype(auto) { return (o.faceSystem.etherWhitelist); }));
  k.push_back(interfaceListKey("face_system.ether", "blacklist",
                               "interfaces without Ethernet faces, even when whitelisted (same patterns)",
                               [](O& o) -> decltype(auto) { return (o.faceSystem.etherBlacklist); }));

  // [face_system.stream]
  k.push_back(intKey(
    "face_system.stream", "max_frame_size",
    "largest frame on Unix/TCP faces, bytes; a larger TLV header closes the face",
    [](O& o) -> decltype(auto) { return (o.faceSystem.stream.maxFrameSize); }, 1024, 1 << 20));
  k.push_back(intKey(
    "face_system.stream", "socket_buffer_size", "SO_SNDBUF/SO_RCVBUF of Unix/TCP sockets, bytes; 0 = kernel default",
    [](O& o) -> decltype(auto) { return (o.faceSystem.stream.socketBufferSize); }, 0, MaxInt32));
  k.push_back(intKey(
    "face_system.stream", "max_send_queue", "per-face send queue bound, bytes; frames beyond it are dropped",
    [](O& o) -> decltype(auto) { return (o.faceSystem.stream.maxSendQueueBytes); }, 65536, MaxInt));

  // [face_system.link]
  auto link = [](O& o) -> decltype(auto) { return (o.faceSystem.link); };
  addFieldKeys<face::LinkServiceOptions>(k, "face_system.link", link);
  k.push_back(boolKey("face_system.link", "local_fields",
                      "IncomingFaceId/NextHopFaceId on local faces (Unix, TCP from loopback)",
                      [](O& o) -> decltype(auto) { return (o.faceSystem.localFieldsOnLocalFaces); }));
  // [limits]
  addFieldKeys<face::LinkServiceOptions>(k, "limits", link);
  return k;
}

std::set<std::string> knownTables(const std::vector<ConfigKey>& keys)
{
  std::set<std::string> tables;
  for (const auto& key : keys) {
    std::string s = key.section;
    while (true) {
      tables.insert(s);
      auto dot = s.rfind('.');
      if (dot == std::string::npos)
        break;
      s = s.substr(0, dot);
    }
  }
  return tables;
}

using Errors = std::vector<std::pair<uint32_t, std::string>>; // (line, message)

void walk(const toml::table& table, const std::string& prefix, DaemonOptions& o, const std::set<std::string>& tables,
          Errors& errors, std::string_view source)
{
  for (auto&& [k, v] : table) {
    std::string path = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    uint32_t line = v.source().begin.line;
    auto where = [&] { return std::string(source) + ":" + std::to_string(line) + ": "; };
    if (v.is_table() && tables.count(path)) {
      walk(*v.as_table(), path, o, tables, errors, source);
      continue;
    }
    const ConfigKey* key = nullptr;
    for (const auto& ck : configKeys()) {
      if (ck.path() == path) {
        key = &ck;
        break;
      }
    }
    if (key == nullptr) {
      errors.emplace_back(line, where() + "unknown " + (v.is_table() ? "table [" + path + "]" : "key '" + path + "'"));
      continue;
    }
    std::string err = key->store(o, v);
    if (!err.empty())
      errors.emplace_back(line, where() + path + ": " + err);
  }
}

} // namespace

const std::vector<ConfigKey>& configKeys()
{
  static const std::vector<ConfigKey> keys = buildKeys();
  return keys;
}

void validate(const DaemonOptions& o)
{
  std::vector<std::string> errors;
  const auto& fs = o.faceSystem;
  if (fs.unixEnabled && fs.unixSocket.path.empty())
    errors.push_back("face_system.unix.path: must not be empty when the Unix socket is enabled");
  if (fs.unixEnabled && !fs.unixSocket.path.empty() && fs.unixSocket.path[0] != '/')
    errors.push_back("face_system.unix.path: must be an absolute path");
  if (fs.stream.maxFrameSize < io::MaxNdnPacketSize)
    errors.push_back("face_system.stream.max_frame_size: must be at least 8800");
  if (o.forwarder.dnlLifetime < table::DeadNonceList::MinLifetime)
    errors.push_back("tables.dnl_lifetime: must be at least 50ms");
  try {
    fs.udpImpair.validate();
  }
  catch (const std::invalid_argument& e) {
    errors.push_back(std::string("face_system.udp.impair: ") + e.what());
  }
  if (fs.udpEnabled && fs.multicastEnabled && fs.udp.port != 0 && fs.udp.port == fs.multicast.port)
    errors.push_back("face_system.multicast.port: must differ from face_system.udp.port (" +
                     std::to_string(fs.udp.port) + "); one UDP port cannot serve both");
  if (fs.tcp.reconnect.maxDelay < fs.tcp.reconnect.initialDelay)
    errors.push_back("face_system.tcp.reconnect_max_delay: must not be below reconnect_initial_delay");
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors)
      all += e + "\n";
    throw ConfigError(all);
  }
}

DaemonOptions parseConfig(std::string_view text, std::string_view source)
{
  toml::table table;
  try {
    table = toml::parse(text, source);
  }
  catch (const toml::parse_error& e) {
    std::ostringstream os;
    os << source << ":" << e.source().begin.line << ":" << e.source().begin.column << ": " << e.description() << "\n";
    throw ConfigError(os.str());
  }
  DaemonOptions o;
  Errors errors;
  walk(table, "", o, knownTables(configKeys()), errors, source);
  if (!errors.empty()) {
    std::stable_sort(errors.begin(), errors.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string all;
    for (const auto& e : errors)
      all += e.second + "\n";
    throw ConfigError(all);
  }
  validate(o);
  return o;
}

DaemonOptions loadConfigFile(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ConfigError("cannot read config file " + path + "\n");
  std::ostringstream os;
  os << in.rdbuf();
  return parseConfig(os.str(), path);
}

std::string defaultConfigToml()
{
  DaemonOptions defaults;
  std::ostringstream os;
  os << "# ndnlabd configuration. Every key is optional; the values below are the defaults.\n"
     << "# Durations are strings with a unit: ns, us, ms, s, min, h. Sizes are bytes.\n";
  std::string current;
  for (const auto& key : configKeys()) {
    if (key.section != current) {
      current = key.section;
      os << "\n[" << current << "]\n";
    }
    os << "# " << key.doc << " (" << key.type << ")\n";
    os << key.name << " = " << key.print(defaults) << "\n";
  }
  return os.str();
}

std::string configReferenceMarkdown()
{
  DaemonOptions defaults;
  std::ostringstream os;
  os << "| key | type | default | description |\n";
  os << "|---|---|---|---|\n";
  for (const auto& key : configKeys()) {
    std::string def = key.print(defaults);
    os << "| `" << key.path() << "` | " << key.type << " | `" << def << "` | " << key.doc << " |\n";
  }
  return os.str();
}

} // namespace ndnlab::daemon
