#pragma once
// The fields of StreamProducerOptions, declared once (core/runtime/fields.hpp): the flags of
// `ndnlab stream publish` (docs/tools.md, `ndnlab stream publish --print-options-table`,
// checked). The threads and the sample rate are not fields: the tool takes them from its
// inputs (--input, --synthetic, --fps).

#include "core/runtime/fields.hpp"
#include "core/stream/producer.hpp"

namespace ndnlab::stream {

/// Calls `v` with every field of StreamProducerOptions but `threads` and `sampleRate`.
template<typename Visitor>
void visitFields(std::type_identity<StreamProducerOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = StreamProducerOptions;
  constexpr double MaxMs = 1e12;
  v(field<O>({.name = "stream", .doc = "The stream's name component under the prefix"}, NDNLAB_FIELD_REF(o.stream)));
  v(field<O>({.name = "payload-size",
              .doc = "Octets of frame per segment (the paper's 1000 and 8000)",
              .unit = "B",
              .range = Range::closed(1, 8000),
              .flags = "--payload,--payload-size"},
             NDNLAB_FIELD_REF(o.payloadSize)));
  v(field<O>({.name = "parity-ratio",
              .doc = "Reed-Solomon parity segments per data segment; 0: no FEC",
              .range = Range::closed(0, 1),
              .flags = "--fec,--parity-ratio"},
             NDNLAB_FIELD_REF(o.parityRatio)));
  v(field<O>(
    {.name = "delta-freshness", .doc = "FreshnessPeriod of delta frames' segments", .range = Range::nonNegative(MaxMs)},
    NDNLAB_FIELD_REF(o.deltaFreshness)));
  v(field<O>(
    {.name = "key-freshness", .doc = "FreshnessPeriod of key frames' segments", .range = Range::nonNegative(MaxMs)},
    NDNLAB_FIELD_REF(o.keyFreshness)));
  v(field<O>({.name = "metadata-freshness",
              .doc = "FreshnessPeriod of the metadata and end markers",
              .range = Range::nonNegative(MaxMs)},
             NDNLAB_FIELD_REF(o.metadataFreshness)));
  v(field<O>({.name = "history",
              .doc = "Frames kept per thread, key and delta together",
              .unit = "frames",
              .range = Range::closed(1, 1e6)},
             NDNLAB_FIELD_REF(o.history)));
  v(field<O>({.name = "pit-limit",
              .doc = "Interests held for frames not produced yet, all threads",
              .range = Range::closed(1, 1e7)},
             NDNLAB_FIELD_REF(o.pitLimit)));
}

} // namespace ndnlab::stream
