#pragma once
// The fields of ManagementOptions, declared once (core/runtime/fields.hpp): ndnlabd's
// [management] and [tables] keys of the dispatcher and the RIB (docs/daemon.md).

#include "core/mgmt/management.hpp"
#include "core/runtime/fields.hpp"

#include <limits>

namespace ndnlab::mgmt {

/// Calls `v` with every field of ManagementOptions that is a daemon key.
template<typename Visitor>
void visitFields(std::type_identity<ManagementOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = ManagementOptions;
  v(field<O>({.name = "verify-commands",
              .doc = "verify command signatures and replay fields (NFD default certfile any: off)",
              .hosts = 0,
              .section = "management"},
             NDNLAB_FIELD_REF(o.dispatcher.verifyCommands)));
  v(field<O>({.name = "rib-max-routes",
              .doc = "RIB capacity; rib/register beyond it is refused",
              .range = Range::closed(1, static_cast<double>(std::numeric_limits<int64_t>::max())),
              .hosts = 0,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.rib.maxRoutes)));
}

} // namespace ndnlab::mgmt
