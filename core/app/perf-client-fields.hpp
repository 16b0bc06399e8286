#pragma once
// The fields of PerfClientOptions, declared once (core/runtime/fields.hpp): the attributes of
// ndnlab::PerfConsumerApp (docs/mechanisms/ns3.md). `ndnlab perf client` writes its flags by
// hand instead, in iperf3's letters and units (-t seconds, -n with K/M/G, -b 12M: docs/tools.md),
// which the field list's conventions (ms, plain numbers) would change; the nested `fetch`
// options keep their SegmentFetcherOptions list (get's flags, ConsumerApp's attributes).

#include "core/app/perf-client.hpp"
#include "core/runtime/fields.hpp"

namespace ndnlab::app {

/// Calls `v` with every field of PerfClientOptions except the nested `fetch`.
template<typename Visitor>
void visitFields(std::type_identity<PerfClientOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = PerfClientOptions;
  constexpr double MaxMs = 1e12;
  v(field<O>({.name = "duration",
              .doc = "length of the test when Bytes is 0 (iperf3 -t)",
              .range = Range::positive(MaxMs),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.duration)));
  v(field<O>({.name = "bytes",
              .doc = "content bytes to fetch over all flows, split evenly; 0 = run for Duration (iperf3 -n)",
              .unit = "B",
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.bytes)));
  v(field<O>({.name = "interval",
              .doc = "period of the interval reports; 0 = none (iperf3 -i)",
              .range = Range::nonNegative(MaxMs),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.interval)));
  v(field<O>({.name = "parallel",
              .doc = "independent flows, each its own name and fetcher (iperf3 -P)",
              .range = Range::closed(1, 128),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.parallel)));
  v(field<O>({.name = "payload",
              .doc = "content bytes per Data, asked of the server in the name (iperf3 -l)",
              .unit = "B",
              .range = Range::closed(16, 8400),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.payload)));
  v(field<O>({.name = "bit-rate",
              .doc = "paced mode: content bits per second per flow, nothing retransmitted, loss counted; 0 = the "
                     "window pipeline (iperf3 -b)",
              .unit = "bit/s",
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.bitrate)));
  v(field<O>({.name = "stats-timeout",
              .doc = "lifetime of each of the 3 Interests for the server's final figures",
              .range = Range::positive(MaxMs),
              .hosts = Ns3},
             NDNLAB_FIELD_REF(o.statsTimeout)));
}

} // namespace ndnlab::app
