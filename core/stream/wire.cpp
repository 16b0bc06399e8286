#include "core/stream/wire.hpp"

#include "core/runtime/env.hpp"

#include <algorithm>
#include <cmath>

namespace ndnlab::stream {

namespace {

constexpr std::string_view kKey = "key";
constexpr std::string_view kDelta = "delta";
constexpr std::string_view kData = "data";
constexpr std::string_view kParity = "parity";

std::string_view asText(ByteSpan b)
{
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

bool isGeneric(const ComponentRef& c, std::string_view text)
{
  return c.isGeneric() && asText(c.value()) == text;
}

Unexpected<WireError> refuse(std::string message)
{
  return fail(WireError{std::move(message)});
}

std::string_view fieldName(uint32_t type)
{
  switch (type) {
    case tlv::StreamSegmentHeader: return "StreamSegmentHeader";
    case tlv::DataSegmentCount: return "DataSegmentCount";
    case tlv::ParitySegmentCount: return "ParitySegmentCount";
    case tlv::FrameLength: return "FrameLength";
    case tlv::GenerationDelay: return "GenerationDelay";
    case tlv::PlaybackNumber: return "PlaybackNumber";
    case tlv::GopKeyNumber: return "GopKeyNumber";
    case tlv::CaptureTime: return "CaptureTime";
    case tlv::StreamMeta: return "StreamMeta";
    case tlv::SampleRate: return "SampleRate";
    case tlv::StreamThread: return "StreamThread";
    case tlv::ThreadName: return "ThreadName";
    case tlv::Bitrate: return "Bitrate";
    case tlv::LatestKey: return "LatestKey";
    case tlv::LatestDelta: return "LatestDelta";
    default: return "unknown";
  }
}

std::string describe(const DecodeError& e)
{
  return strcat(reasonName(e.code), e.tlvType != 0 ? strcat(" in ", fieldName(e.tlvType), " (", e.tlvType, ")") : "");
}

/// The NonNegativeInteger fields of one TLV's value, by type; each at most once. Unknown even
/// types are skipped, unknown odd ones refused.
class Fields
{
public:
  /// `known`: the number fields this element may hold; `octets`: the one field of raw octets
  /// (0 for none); `nested`: the one repeated nested element (0 for none).
  WireResult<bool> read(ByteSpan value, std::string_view where, std::initializer_list<uint32_t> known,
                        uint32_t octets = 0, uint32_t nested = 0)
  {
    TlvReader r(value);
    while (!r.atEnd()) {
      auto e = r.next();
      if (!e)
        return refuse(strcat(where, ": ", describe(e.error())));
      const uint32_t t = e->type;
      if (t == nested) {
        m_nested.push_back(e->value);
        continue;
      }
      if (t == octets) {
        if (m_octets)
          return refuse(strcat(where, ": ", fieldName(t), " (", t, ") repeated"));
        m_octets = e->value;
        continue;
      }
      if (std::find(known.begin(), known.end(), t) == known.end()) {
        if (ndnlab::tlv::isCritical(t))
          return refuse(strcat(where, ": unknown critical field ", t));
        continue;
      }
      for (const auto& [type, n] : m_numbers)
        if (type == t)
          return refuse(strcat(where, ": ", fieldName(t), " (", t, ") repeated"));
      auto n = readNonNegInt(*e);
      if (!n)
        return refuse(strcat(where, ": ", fieldName(t), " (", t, ") is not a NonNegativeInteger"));
      m_numbers.emplace_back(t, *n);
    }
    return true;
  }

  std::optional<uint64_t> get(uint32_t type) const
  {
    for (const auto& [t, n] : m_numbers)
      if (t == type)
        return n;
    return std::nullopt;
  }
  const std::optional<ByteSpan>& octets() const { return m_octets; }
  const std::vector<ByteSpan>& nested() const { return m_nested; }

private:
  std::vector<std::pair<uint32_t, uint64_t>> m_numbers;
  std::optional<ByteSpan> m_octets;
  std::vector<ByteSpan> m_nested;
};

Unexpected<WireError> missing(std::string_view where, uint32_t type)
{
  return refuse(strcat(where, ": ", fieldName(type), " (", type, ") missing"));
}

} // namespace

std::string_view toString(FrameType t)
{
  return t == FrameType::Key ? kKey : kDelta;
}

std::string_view toString(SegmentKind k)
{
  return k == SegmentKind::Data ? kData : kParity;
}

// --- names --------------------------------------------------------------------------------

Name streamBase(const Name& prefix, std::string_view stream)
{
  Name n = prefix;
  n.append(stream);
  return n;
}

Name frameName(const Name& base, std::string_view thread, FrameType type, uint64_t frame)
{
  Name n = base;
  n.append(thread).append(toString(type)).appendSequenceNumber(frame);
  return n;
}

Name segmentName(const Name& base, std::string_view thread, FrameType type, uint64_t frame, SegmentKind kind,
                 uint64_t segment)
{
  Name n = frameName(base, thread, type, frame);
  n.append(toString(kind)).appendSegment(segment);
  return n;
}

Name metaName(const Name& base)
{
  Name n = base;
  n.append(MetaComponent);
  return n;
}

WireResult<StreamName> parseStreamName(const Name& base, const Name& name)
{
  const size_t b = base.size();
  const size_t rest = name.size() - b;
  StreamName out;
  if (rest >= 1 && isGeneric(name[b], MetaComponent)) {
    out.meta = true;
    return out;
  }
  if (rest < 3)
    return refuse(
      strcat(name.toUri(), ": names no frame (<thread>/<key|delta>/seq=<frame> expected after ", base.toUri(), ")"));
  if (!name[b].isGeneric())
    return refuse(strcat(name.toUri(), ": the thread component is not generic"));
  out.thread = std::string(asText(name[b].value()));
  if (isGeneric(name[b + 1], kKey))
    out.type = FrameType::Key;
  else if (isGeneric(name[b + 1], kDelta))
    out.type = FrameType::Delta;
  else
    return refuse(strcat(name.toUri(), ": `key` or `delta` expected, not ", name[b + 1].toUri()));
  if (!name[b + 2].isSequenceNumber())
    return refuse(strcat(name.toUri(), ": the frame is not a sequence number (seq=<n>)"));
  out.frame = *name[b + 2].toNumber();
  size_t i = b + 3;
  if (i < name.size() && !name[i].isImplicitDigest()) {
    if (isGeneric(name[i], kData))
      out.kind = SegmentKind::Data;
    else if (isGeneric(name[i], kParity))
      out.kind = SegmentKind::Parity;
    else
      return refuse(strcat(name.toUri(), ": `data` or `parity` expected, not ", name[i].toUri()));
    ++i;
    if (i < name.size() && !name[i].isImplicitDigest()) {
      if (!name[i].isSegment())
        return refuse(strcat(name.toUri(), ": the segment is not a segment number (seg=<n>)"));
      out.segment = *name[i].toNumber();
      ++i;
    }
  }
  if (i < name.size() && name[i].isImplicitDigest())
    ++i;
  if (i != name.size())
    return refuse(strcat(name.toUri(), ": unexpected component ", name[i].toUri(), " after the segment"));
  return out;
}

// --- segment header -----------------------------------------------------------------------

void encodeSegmentHeader(Buffer& out, const SegmentHeader& h)
{
  Buffer v;
  appendTlvNonNegInt(v, tlv::DataSegmentCount, h.dataSegments);
  appendTlvNonNegInt(v, tlv::ParitySegmentCount, h.paritySegments);
  appendTlvNonNegInt(v, tlv::FrameLength, h.frameLength);
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(h.generationDelay).count();
  appendTlvNonNegInt(v, tlv::GenerationDelay, us > 0 ? static_cast<uint64_t>(us) : 0);
  appendTlvNonNegInt(v, tlv::PlaybackNumber, h.playbackNumber);
  if (h.gopKey)
    appendTlvNonNegInt(v, tlv::GopKeyNumber, *h.gopKey);
  appendTlvNonNegInt(v, tlv::CaptureTime, static_cast<uint64_t>(std::max<int64_t>(h.captureTime.count(), 0)));
  appendTlv(out, tlv::StreamSegmentHeader, v);
}

WireResult<SegmentContent> decodeSegmentContent(ByteSpan content)
{
  constexpr std::string_view where = "segment header";
  TlvReader r(content);
  auto outer = r.next();
  if (!outer)
    return refuse(strcat(where, ": ", describe(outer.error())));
  if (outer->type != tlv::StreamSegmentHeader)
    return refuse(strcat(where, ": the Content starts with TLV type ", outer->type, ", not StreamSegmentHeader (",
                         tlv::StreamSegmentHeader, ")"));
  Fields f;
  if (auto ok = f.read(outer->value, where,
                       {tlv::DataSegmentCount, tlv::ParitySegmentCount, tlv::FrameLength, tlv::GenerationDelay,
                        tlv::PlaybackNumber, tlv::GopKeyNumber, tlv::CaptureTime});
      !ok)
    return fail(ok.error());
  for (uint32_t t : {tlv::DataSegmentCount, tlv::ParitySegmentCount, tlv::FrameLength, tlv::GenerationDelay,
                     tlv::PlaybackNumber, tlv::CaptureTime})
    if (!f.get(t))
      return missing(where, t);

  SegmentContent out;
  SegmentHeader& h = out.header;
  h.dataSegments = *f.get(tlv::DataSegmentCount);
  h.paritySegments = *f.get(tlv::ParitySegmentCount);
  h.frameLength = *f.get(tlv::FrameLength);
  const uint64_t us = *f.get(tlv::GenerationDelay);
  constexpr uint64_t maxUs = static_cast<uint64_t>(INT64_MAX) / 1000;
  if (us > maxUs)
    return refuse(strcat(where, ": GenerationDelay ", us, " us out of range"));
  h.generationDelay = std::chrono::microseconds(us);
  h.playbackNumber = *f.get(tlv::PlaybackNumber);
  h.gopKey = f.get(tlv::GopKeyNumber);
  const uint64_t capture = *f.get(tlv::CaptureTime);
  if (capture > static_cast<uint64_t>(INT64_MAX))
    return refuse(strcat(where, ": CaptureTime ", capture, " out of range"));
  h.captureTime = UnixMillis(static_cast<int64_t>(capture));
  out.payload = content.subspan(r.position());

  if (h.dataSegments == 0)
    return refuse(strcat(where, ": DataSegmentCount is 0"));
  if (h.paritySegments > 0 &&
      (h.dataSegments > MaxFrameSegments || h.paritySegments > MaxFrameSegments - h.dataSegments))
    return refuse(
      strcat(where, ": ", h.dataSegments, " data + ", h.paritySegments, " parity segments exceed ", MaxFrameSegments));
  // k payloads of p octets hold the frame and k - 1 would not: k = ceil(L / p), 1 for L = 0
  const uint64_t p = out.payload.size();
  const uint64_t L = h.frameLength;
  if (L > 0 && p == 0)
    return refuse(strcat(where, ": FrameLength ", L, " with an empty payload"));
  const uint64_t expected = L == 0 ? 1 : L / p + (L % p != 0);
  if (h.dataSegments != expected)
    return refuse(strcat(where, ": FrameLength ", L, " in payloads of ", p, " octets takes ", expected,
                         " data segments, yet DataSegmentCount is ", h.dataSegments));
  return out;
}

// --- stream metadata ----------------------------------------------------------------------

Buffer encodeStreamMeta(const StreamMeta& m)
{
  Buffer v;
  appendTlvNonNegInt(v, tlv::SampleRate, static_cast<uint64_t>(std::llround(m.sampleRate * 1000)));
  for (const auto& t : m.threads) {
    Buffer tv;
    appendTlv(tv, tlv::ThreadName, asBytes(t.name));
    appendTlvNonNegInt(tv, tlv::Bitrate, static_cast<uint64_t>(std::llround(t.bitrate.bps())));
    if (t.latestKey)
      appendTlvNonNegInt(tv, tlv::LatestKey, *t.latestKey);
    if (t.latestDelta)
      appendTlvNonNegInt(tv, tlv::LatestDelta, *t.latestDelta);
    if (t.frameCount)
      appendTlvNonNegInt(tv, tlv::FrameCount, *t.frameCount);
    appendTlv(v, tlv::StreamThread, tv);
  }
  Buffer out;
  appendTlv(out, tlv::StreamMeta, v);
  return out;
}

WireResult<StreamMeta> decodeStreamMeta(ByteSpan content)
{
  constexpr std::string_view where = "stream metadata";
  auto outer = readSingleTlv(content);
  if (!outer)
    return refuse(strcat(where, ": ", describe(outer.error())));
  if (outer->type != tlv::StreamMeta)
    return refuse(strcat(where, ": TLV type ", outer->type, ", not StreamMeta (", tlv::StreamMeta, ")"));
  Fields f;
  if (auto ok = f.read(outer->value, where, {tlv::SampleRate}, 0, tlv::StreamThread); !ok)
    return fail(ok.error());
  if (!f.get(tlv::SampleRate))
    return missing(where, tlv::SampleRate);
  if (*f.get(tlv::SampleRate) == 0)
    return refuse(strcat(where, ": SampleRate is 0"));
  if (f.nested().empty())
    return refuse(strcat(where, ": no StreamThread"));
  StreamMeta m;
  m.sampleRate = static_cast<double>(*f.get(tlv::SampleRate)) / 1000;
  for (ByteSpan tv : f.nested()) {
    Fields tf;
    if (auto ok = tf.read(tv, strcat(where, " thread ", m.threads.size()),
                          {tlv::Bitrate, tlv::LatestKey, tlv::LatestDelta, tlv::FrameCount}, tlv::ThreadName);
        !ok)
      return fail(ok.error());
    if (!tf.octets() || tf.octets()->empty())
      return refuse(strcat(where, " thread ", m.threads.size(), ": ThreadName missing or empty"));
    if (!tf.get(tlv::Bitrate))
      return missing(strcat(where, " thread ", m.threads.size()), tlv::Bitrate);
    ThreadMeta t;
    t.name = std::string(asText(*tf.octets()));
    t.bitrate = Rate::bitsPerSecond(static_cast<double>(*tf.get(tlv::Bitrate)));
    t.latestKey = tf.get(tlv::LatestKey);
    t.latestDelta = tf.get(tlv::LatestDelta);
    t.frameCount = tf.get(tlv::FrameCount);
    m.threads.push_back(std::move(t));
  }
  return m;
}

bool isEndMarker(ByteSpan content)
{
  TlvReader r(content);
  auto first = r.next();
  return first && first->type == tlv::StreamMeta;
}

} // namespace ndnlab::stream
