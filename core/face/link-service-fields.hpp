#pragma once
// The fields of LinkServiceOptions, declared once (core/runtime/fields.hpp): ndnlabd's keys
// ([face_system.link], [limits]; docs/daemon.md), the ns-3 attributes of ndnlab::NdnStack
// (Lp...; docs/mechanisms/ns3.md) and the bundling parameters of the BLEnD scenarios of
// `ndnlab sim` (the name in CamelCase, without the Lp prefix) come from this list. Fields
// that each face decides for itself (local fields, fragmentation, the MTU override of UDP
// faces, the BundleTag of application faces) are not knobs and are not listed.

#include "core/face/link-service.hpp"
#include "core/lp/interest-bundler.hpp"
#include "core/runtime/fields.hpp"

#include <limits>

namespace ndnlab::face {

/// Calls `v` with every field of LinkServiceOptions, in the order of the daemon's reference.
template<typename Visitor>
void visitFields(std::type_identity<LinkServiceOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = LinkServiceOptions;
  constexpr double MaxCount = static_cast<double>(std::numeric_limits<int64_t>::max());
  constexpr double MaxMs = 1e12;
  constexpr double Span = static_cast<double>(lp::MaxBundleSpan);
  constexpr unsigned Bundling = Ns3 | Scenario;

  // [face_system.link]: congestion marking
  v(field<O>({.name = "congestion-marking",
              .doc = "NDNLPv2 congestion marks when a face's send queue stays long",
              .attribute = "LpCongestionMarking",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.allowCongestionMarking)));
  v(field<O>({.name = "congestion-marking-interval",
              .doc = "congestion marking base interval (NFD default)",
              .range = Range::closed(1, MaxMs),
              .attribute = "LpCongestionMarkingInterval",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.baseCongestionMarkingInterval)));
  v(field<O>({.name = "congestion-threshold",
              .doc = "send queue length above which marking starts, bytes (NFD default)",
              .range = Range::closed(1, MaxCount),
              .attribute = "LpCongestionThreshold",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.defaultCongestionThreshold)));
  v(field<O>({.name = "receive-congestion-marking",
              .doc = "also mark Data read from a face whose receive backlog stays long (this forwarder "
                     "is the bottleneck)",
              .attribute = "LpReceiveCongestionMarking",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.markReceiveBacklog)));
  v(field<O>({.name = "mircc",
              .doc = "MIRCC explicit rate: Data and Nacks carry the path's rate (NDNLPv2 MirccRate, 888) toward "
                     "these faces, and the forwarder stamps what arrives on them with its rate; off: stripped",
              .attribute = "LpMircc",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.mircc)));
  // NDNLPv2 link reliability (docs/mechanisms/reliability.md)
  v(field<O>({.name = "reliability",
              .doc = "NDNLPv2 link reliability on point-to-point faces (NFD's LpReliability): frames carry "
                     "TxSequence and Acks, unacknowledged ones are sent again; the peer must run it too",
              .attribute = "LpReliability",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.reliability.enabled)));
  v(field<O>({.name = "reliability-max-retx",
              .doc = "link reliability: retransmissions of a frame before its packet is given up (NFD default)",
              .range = Range::closed(0, 255),
              .attribute = "LpReliabilityMaxRetx",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.reliability.maxRetx)));
  v(field<O>({.name = "reliability-idle-ack-period",
              .doc = "link reliability: Acks not piggybacked within this long leave in an IDLE frame (NFD "
                     "default)",
              .range = Range::closed(0.001, MaxMs),
              .attribute = "LpReliabilityIdleAckPeriod",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.reliability.idleAckPeriod)));
  v(field<O>({.name = "reliability-loss-threshold",
              .doc = "link reliability: a frame is lost once a frame sent this many TxSequences later is "
                     "acknowledged",
              .range = Range::closed(1, 65536),
              .attribute = "LpReliabilityLossThreshold",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.reliability.lossThreshold)));
  v(field<O>({.name = "reliability-max-unacked-bytes",
              .doc = "link reliability: octets of packets held for retransmission, per face; the oldest is "
                     "given up beyond it",
              .range = Range::closed(1, MaxCount),
              .attribute = "LpReliabilityMaxUnackedBytes",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.reliability.maxUnackedBytes)));
  // BLEnD Interest bundling (docs/mechanisms/bundling.md)
  v(field<O>({.name = "bundling",
              .doc = "BLEnD Interest bundling on wireless faces; the peer must decode bundles (ndnlab does, "
                     "on every face)",
              .attribute = "LpBundling",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundling)));
  v(field<O>({.name = "bundle-interval",
              .doc = "bundle interval BI: most Interests one bundle stands for; 0 = no bundling",
              .unit = "Interests",
              .range = Range::closed(0, Span),
              .attribute = "LpBundleInterval",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.bundleInterval)));
  v(field<O>({.name = "bundle-max-entries",
              .doc = "name prefixes a face's bundle encoder and decoder remember (each)",
              .range = Range::closed(1, MaxCount),
              .attribute = "LpBundleMaxEntries",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.maxEntries)));
  v(field<O>({.name = "bundle-entry-lifetime",
              .doc = "a face's bundle encoder and decoder forget a prefix unused this long",
              .range = Range::closed(1, MaxMs),
              .attribute = "LpBundleEntryLifetime",
              .hosts = Ns3,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.entryLifetime)));
  v(field<O>({.name = "bundle-loss-detection",
              .doc = "beyond BLEnD (VI-B): re-request a prefix's unanswered bundled range when its Data "
                     "stall (inter-Data gap and link round-trip estimates)",
              .attribute = "LpBundleLossDetection",
              .hosts = Bundling,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.lossDetection)));
  v(field<O>({.name = "bundle-gap-k",
              .doc = "loss detection: stall threshold = mean + k x mean deviation of the inter-Data gaps",
              .range = Range::closed(0, 1000),
              .attribute = "LpBundleGapK",
              .hosts = Bundling,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.gapK)));
  v(field<O>({.name = "bundle-gap-min",
              .doc = "loss detection: lower bound of the stall threshold",
              .range = Range::closed(0.001, MaxMs),
              .attribute = "LpBundleGapMin",
              .hosts = Bundling,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.gapMin)));
  v(field<O>({.name = "bundle-max-recoveries",
              .doc = "loss detection: recovery bundles per stall (the wait doubles after each)",
              .range = Range::closed(0, 64),
              .attribute = "LpBundleMaxRecoveries",
              .hosts = Bundling,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.maxRecoveries)));
  v(field<O>({.name = "bundle-dynamic-interval",
              .doc = "beyond BLEnD: bundles of ceil(cwnd x bundle-cwnd-share) Interests within "
                     "[bundle-interval-min, bundle-interval] instead of min(cwnd, bundle-interval)",
              .attribute = "LpBundleDynamicInterval",
              .hosts = Bundling,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.dynamicInterval)));
  v(field<O>({.name = "bundle-interval-min",
              .doc = "dynamic interval: smallest bundle when the window allows it",
              .unit = "Interests",
              .range = Range::closed(1, Span),
              .attribute = "LpBundleIntervalMin",
              .hosts = Bundling,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.intervalMin)));
  v(field<O>({.name = "bundle-cwnd-share",
              .doc = "dynamic interval: share of the consumer's window one bundle stands for",
              .range = Range::closed(0.01, 1),
              .attribute = "LpBundleCwndShare",
              .hosts = Bundling,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.cwndShare)));
  v(field<O>({.name = "bundle-paper-encoder",
              .doc = "the BLEnD paper's encoder rule (IV-A): a new bundle only at seq >= LSS + BI, every "
                     "other Interest but a retransmission absorbed, also past a bundle shorter than BI",
              .attribute = "LpBundlePaperEncoder",
              .hosts = Bundling,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.paperEncoder)));
  v(field<O>({.name = "bundle-hold-early-data",
              .doc = "hold Data a bundle asked for ahead of the consumer's Interest until it comes down; "
                     "false = the paper (the forwarder drops them as unsolicited)",
              .attribute = "LpBundleHoldEarlyData",
              .hosts = Bundling,
              .section = "face_system.link"},
             NDNLAB_FIELD_REF(o.bundler.holdEarlyData)));
  // [limits]: reassembly
  v(field<O>({.name = "reassembly-max-bytes",
              .doc = "bytes held in partially reassembled packets, per face",
              .range = Range::closed(0, MaxCount),
              .attribute = "LpReassemblyMaxBytes",
              .hosts = Ns3,
              .section = "limits"},
             NDNLAB_FIELD_REF(o.maxReassemblyBytes)));
  v(field<O>({.name = "reassembly-timeout",
              .doc = "a partially reassembled packet is dropped after this long",
              .range = Range::closed(1, MaxMs),
              .attribute = "LpReassemblyTimeout",
              .hosts = Ns3,
              .section = "limits"},
             NDNLAB_FIELD_REF(o.reassemblyTimeout)));
  v(field<O>({.name = "max-fragments",
              .doc = "fragments per packet, both directions",
              .range = Range::closed(1, 65535),
              .attribute = "LpMaxFragments",
              .hosts = Ns3,
              .section = "limits"},
             NDNLAB_FIELD_REF(o.maxFragments)));
  // ns-3 only: ndnlabd decides these per face
  v(field<O>({.name = "always-use-lp-packet",
              .doc = "wrap every packet in an LpPacket",
              .attribute = "LpAlwaysUseLpPacket",
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.alwaysUseLpPacket)));
  v(field<O>({.name = "override-mtu",
              .doc = "frame size limit below the device MTU, bytes; 0 = device MTU",
              .range = Range::closed(0, MaxCount),
              .attribute = "LpOverrideMtu",
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.overrideMtu)));
}

} // namespace ndnlab::face
