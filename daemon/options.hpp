#pragma once
// Every knob of ndnlabd, one Options struct per component, with defaults and a one-line doc.
// The TOML config keys, `--print-default-config` and the table in docs/daemon.md are all
// derived from the key list in config.cpp, which binds each key to a field below.

#include "core/face/impaired-transport.hpp"
#include "core/face/link-service.hpp"
#include "core/fw/forwarder.hpp"
#include "core/mgmt/management.hpp"
#include "io/tcp-channel.hpp"
#include "io/udp-channel.hpp"
#include "io/udp-multicast-transport.hpp"
#include "io/unix-stream-channel.hpp"
#include "io/websocket-channel.hpp"

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
