#pragma once
// Every knob of ndnlabd, one Options struct per component, with defaults and a one-line doc.
// The TOML config keys, `--print-default-config` and the table in docs/daemon.md are all
// derived from the key list in config.cpp, which binds each key to a field below.

#include "core/face/impaired-transport.hpp"
#include "core/face/link-service.hpp"
#include "core/fw/forwarder.hpp"
#include "core/mgmt/management.hpp"
#include "core/runtime/fields.hpp"
#include "io/asio-env.hpp"
#include "io/ethernet-channel.hpp"
#include "io/ethernet-multicast-transport.hpp"
#include "io/tcp-channel.hpp"
#include "io/udp-channel.hpp"
#include "io/udp-multicast-transport.hpp"
#include "io/unix-stream-channel.hpp"
#include "io/websocket-channel.hpp"

#include <limits>
#include <optional>
#include <string_view>

namespace ndnlab::daemon {

/// [general]
struct GeneralOptions
{
  /// Minimum log level: trace, debug, info, warn, error, off.
  LogLevel logLevel = LogLevel::Info;
  /// Log file; empty = standard error.
  std::string logFile;
  /// Count trace events (drops per reason, face closes, ...).
  bool traceCounters = true;
  /// Append every trace event as a JSON line to this file; empty = off.
  std::string traceFile;
  /// Seed of the random number generator; 0 = random.
  uint64_t seed = 0;
};

/// The log level named `text` (trace, debug, info, warn, error, off).
inline std::optional<LogLevel> logLevelNamed(std::string_view text)
{
  LogLevel l;
  return io::parseLogLevel(text, l) ? std::optional<LogLevel>(l) : std::nullopt;
}

/// The fields of GeneralOptions: the [general] keys (core/runtime/fields.hpp).
template<typename Visitor>
void visitFields(std::type_identity<GeneralOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = GeneralOptions;
  v(enumField<O>({.name = "log-level",
                  .doc = "minimum log level: trace, debug, info, warn, error, off",
                  .hosts = 0,
                  .section = "general"},
                 NDNLAB_FIELD_REF(o.logLevel), &io::toString, &logLevelNamed,
                 {LogLevel::Trace, LogLevel::Debug, LogLevel::Info, LogLevel::Warn, LogLevel::Error, LogLevel::Off}));
  v(field<O>({.name = "log-file", .doc = "log file; empty = standard error", .hosts = 0, .section = "general"},
             NDNLAB_FIELD_REF(o.logFile)));
  v(field<O>({.name = "trace-counters",
              .doc = "count trace events per kind and reason (drops, face closes)",
              .hosts = 0,
              .section = "general"},
             NDNLAB_FIELD_REF(o.traceCounters)));
  v(field<O>({.name = "trace-file",
              .doc = "append every trace event as a JSON line to this file; empty = off",
              .hosts = 0,
              .section = "general"},
             NDNLAB_FIELD_REF(o.traceFile)));
  v(field<O>({.name = "seed",
              .doc = "random number generator seed; 0 = random",
              .range = fields::Range::closed(0, static_cast<double>(std::numeric_limits<int64_t>::max())),
              .hosts = 0,
              .section = "general"},
             NDNLAB_FIELD_REF(o.seed)));
}

/// ndnlabd's link service defaults: LinkServiceOptions' own, with NFD's congestion marking on
/// and reassembly allowed.
inline face::LinkServiceOptions defaultLinkServiceOptions()
{
  face::LinkServiceOptions o;
  o.allowCongestionMarking = true;
  o.allowReassembly = true;
  return o;
}

/// [face_system.*]
struct FaceSystemOptions
{
  bool unixEnabled = true;
  io::UnixChannelOptions unixSocket;

  bool tcpEnabled = true;
  io::TcpChannelOptions tcp;

  /// Off by default, unlike NFD: a second daemon on the machine would fail on port 9696.
  bool websocketEnabled = false;
  io::WebSocketChannelOptions websocket;

  bool udpEnabled = true;
  io::UdpChannelOptions udp;
  /// MTU of UDP unicast faces (link-service override of the transport MTU), bytes.
  size_t udpMtu = 8800;
  /// Egress impairment (loss, delay, jitter, rate) of every UDP unicast face; default none.
  face::ImpairmentOptions udpImpair;
  /// Physical medium of UDP unicast faces; wireless faces may bundle Interests (BLEnD).
  face::Medium udpMedium = face::Medium::Wired;

  bool multicastEnabled = false;
  io::UdpMulticastOptions multicast;
  /// MTU of the UDP multicast face, bytes.
  size_t multicastMtu = 8800;
  /// Physical medium of the UDP multicast face.
  face::Medium multicastMedium = face::Medium::Wired;

  /// Ethernet faces ([face_system.ether]; AF_PACKET, needs CAP_NET_RAW). Off by default, unlike
  /// NFD: without the capability every interface would log an error.
  bool etherEnabled = false;
  /// One unicast channel per selected interface (NFD's `listen`, `idle_timeout`).
  io::EthernetChannelOptions ether;
  /// One multicast face per selected interface that can multicast (NFD's `mcast`).
  bool etherMulticastEnabled = true;
  /// NFD's `mcast_group` and `mcast_ad_hoc`.
  io::EthernetMulticastOptions etherMulticast;
  /// Interfaces with Ethernet faces: those matching an entry of the whitelist and none of the
  /// blacklist (io::interfaceMatches: "*", a name with wildcards, or a MAC address).
  std::vector<std::string> etherWhitelist{"*"};
  std::vector<std::string> etherBlacklist;

  /// Unix and TCP transports.
  io::StreamTransportOptions stream;

  /// Link service of every face ([face_system.link] and [limits]; the fields of
  /// core/face/link-service-fields.hpp). Each face then sets what is its own: fragmentation and
  /// the MTU override by transport kind, local fields on local faces.
  face::LinkServiceOptions link = defaultLinkServiceOptions();
  /// Accept and emit IncomingFaceId/NextHopFaceId on local faces (Unix, TCP from loopback).
  bool localFieldsOnLocalFaces = false;
};

struct DaemonOptions
{
  GeneralOptions general;
  /// [tables] and [forwarder]
  fw::ForwarderOptions forwarder;
  /// [management] and tables.rib_max_routes
  mgmt::ManagementOptions management;
  FaceSystemOptions faceSystem;
};

} // namespace ndnlab::daemon
