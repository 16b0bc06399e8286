#pragma once
// The fields of PerfServerOptions, declared once (core/runtime/fields.hpp): the flags of
// `ndnlab perf server` (docs/tools.md, `ndnlab perf server --print-options-table`, checked).

#include "core/app/perf-server.hpp"
#include "core/runtime/fields.hpp"

namespace ndnlab::app {

/// Calls `v` with every field of PerfServerOptions.
template<typename Visitor>
void visitFields(std::type_identity<PerfServerOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = PerfServerOptions;
  v(field<O>({.name = "max-payload",
              .doc = "largest content a client may ask for per Data; larger requests get a Nack",
              .unit = "B",
              .range = Range::closed(1, 8400),
              .hosts = Cli | Ns3},
             NDNLAB_FIELD_REF(o.maxPayload)));
  v(field<O>({.name = "freshness",
              .doc = "FreshnessPeriod of the generated Data",
              .range = Range::closed(0, 1e12),
              .flags = "-f,--freshness",
              .hosts = Cli | Ns3},
             NDNLAB_FIELD_REF(o.freshness)));
  v(field<O>({.name = "max-sessions",
              .doc = "sessions whose figures are kept for their final stats Interest, the oldest forgotten first",
              .range = Range::closed(1, 1e6),
              .hosts = Cli | Ns3},
             NDNLAB_FIELD_REF(o.maxSessions)));
}

} // namespace ndnlab::app
