#pragma once
// The fields of SegmentServerOptions, declared once (core/runtime/fields.hpp): the flags of
// `ndnlab serve` (docs/tools.md, `ndnlab serve --print-options-table`, checked) and the
// attributes of ndnlab::ProducerApp and ndnlab::OneInterestProducerApp (docs/mechanisms/ns3.md)
// come from this list.

#include "core/app/segment-server.hpp"
#include "core/runtime/fields.hpp"

namespace ndnlab::app {

/// Calls `v` with every field of SegmentServerOptions.
template<typename Visitor>
void visitFields(std::type_identity<SegmentServerOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = SegmentServerOptions;
  constexpr double MaxMs = 1e12;
  v(field<O>({.name = "size",
              .doc = "content bytes per segment unless packet-size is set (`serve`: given, it wins; "
                     "ndnputchunks' default is 8000)",
              .unit = "B",
              .range = Range::closed(1, MaxNdnPacketSize),
              .attribute = "PayloadSize",
              .flags = "-s,--size",
              .hosts = Cli | Ns3},
             NDNLAB_FIELD_REF(o.segmentSize)));
  v(field<O>({.name = "packet-size",
              .doc = "when non-zero, replaces the segment size: each segment carries as much content as keeps "
                     "its Data (name, metadata, signature) within this many bytes; 1420 fits a UDP datagram "
                     "in a 1500-byte MTU with room for NDNLPv2 headers, so no Data is fragmented "
                     "(docs/decisions/0004)",
              .unit = "B",
              .range = Range::closed(0, MaxNdnPacketSize),
              .hosts = Cli},
             NDNLAB_FIELD_REF(o.packetSize)));
  v(field<O>({.name = "freshness",
              .doc = "FreshnessPeriod of the segments",
              .range = Range::closed(0, MaxMs),
              .flags = "-f,--freshness",
              .hosts = Cli | Ns3},
             NDNLAB_FIELD_REF(o.freshness)));
  v(field<O>({.name = "metadata-freshness",
              .doc = "FreshnessPeriod of the RDR metadata replies (ndn-cxx default)",
              .range = Range::closed(0, MaxMs),
              .hosts = Cli | Ns3},
             NDNLAB_FIELD_REF(o.metadataFreshness)));
  v(field<O>({.name = "version",
              .doc = "version number to publish; default: the name's, else the Unix time in ms (ns-3: 0 for "
                     "that default, in simulated time)",
              .hosts = Cli | Ns3},
             NDNLAB_FIELD_REF(o.version)));
  v(field<O>({.name = "nack-unsatisfiable",
              .doc = "Nack Interests under the prefix that match no segment",
              .flags = "--nack-unsatisfiable,!--no-nack-unsatisfiable",
              .hosts = Cli | Ns3},
             NDNLAB_FIELD_REF(o.nackUnsatisfiable)));
}

} // namespace ndnlab::app
