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

  /// NDNLPv2 congestion marking on every face (NFD default: on).
  bool congestionMarking = true;
  Duration congestionMarkingInterval = std::chrono::milliseconds(100);
  size_t congestionThreshold = 65536;
  /// Also mark Data read from a face whose receive backlog stays above the threshold.
  bool receiveCongestionMarking = true;
  /// Accept and emit IncomingFaceId/NextHopFaceId on local faces (Unix, TCP from loopback).
  bool localFieldsOnLocalFaces = false;
  /// BLEnD Interest bundling on every face whose medium is wireless (docs/mechanisms/bundling.md);
  /// bundles are decoded on every face regardless.
  bool bundling = face::LinkServiceOptions{}.bundling;
  /// Bundle interval BI (0 = no bundling), prefixes remembered and their idle lifetime.
  uint32_t bundleInterval = face::LinkServiceOptions{}.bundleInterval;
  size_t bundleMaxEntries = face::LinkServiceOptions{}.bundleMaxEntries;
  Duration bundleEntryLifetime = face::LinkServiceOptions{}.bundleEntryLifetime;
  /// Beyond the paper (VI-B): encoder-side loss detection from the inter-Data gap, and the
  /// dynamic bundle interval (face::LinkServiceOptions has the meaning of each).
  bool bundleLossDetection = face::LinkServiceOptions{}.bundleLossDetection;
  double bundleGapK = face::LinkServiceOptions{}.bundleGapK;
  Duration bundleGapMin = face::LinkServiceOptions{}.bundleGapMin;
  uint32_t bundleMaxRecoveries = face::LinkServiceOptions{}.bundleMaxRecoveries;
  bool bundleDynamicInterval = face::LinkServiceOptions{}.bundleDynamicInterval;
  uint32_t bundleIntervalMin = face::LinkServiceOptions{}.bundleIntervalMin;
  double bundleCwndShare = face::LinkServiceOptions{}.bundleCwndShare;
};

/// [limits]: memory bounds not covered by [tables].
struct LimitsOptions
{
  /// Bytes held in partially reassembled packets, per face.
  size_t reassemblyMaxBytes = 4 * 1024 * 1024;
  /// A partial packet is dropped after this long.
  Duration reassemblyTimeout = std::chrono::milliseconds(500);
  /// Fragments per packet, both directions.
  size_t maxFragments = 400;
};

struct DaemonOptions
{
  GeneralOptions general;
  /// [tables] and [forwarder]
  fw::ForwarderOptions forwarder;
  /// [management] and tables.rib_max_routes
  mgmt::ManagementOptions management;
  FaceSystemOptions faceSystem;
  LimitsOptions limits;
};

} // namespace ndnlab::daemon
