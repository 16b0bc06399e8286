#include "core/stream/producer.hpp"

#include "core/app/answer.hpp"
#include "core/fec/reed-solomon.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <stdexcept>

namespace ndnlab::stream {

namespace {
constexpr std::string_view kModule = "stream-producer";
constexpr size_t kMaxPayload = 8000; // the paper's larger payload; a segment stays within 8800
} // namespace

void StreamProducerOptions::validate() const
{
  if (stream.empty())
    throw std::invalid_argument("stream name must not be empty");
  if (threads.empty())
    throw std::invalid_argument("a stream needs at least one thread");
  std::set<std::string> names;
  for (const auto& t : threads) {
    if (t.name.empty())
      throw std::invalid_argument("thread name must not be empty");
    if (t.name == MetaComponent)
      throw std::invalid_argument(strcat("thread name ", t.name, " is the metadata component"));
    if (!names.insert(t.name).second)
      throw std::invalid_argument(strcat("thread name ", t.name, " given twice"));
    if (!(t.bitrate.bps() > 0) || !std::isfinite(t.bitrate.bps()))
      throw std::invalid_argument(strcat("thread ", t.name, ": bitrate must be positive"));
  }
  if (!(sampleRate > 0) || !std::isfinite(sampleRate))
    throw std::invalid_argument("sample rate must be a positive number of frames per second");
  if (payloadSize < 1 || payloadSize > kMaxPayload)
    throw std::invalid_argument("payload size must be in [1, 8000]");
  if (!(parityRatio >= 0 && parityRatio <= 1))
    throw std::invalid_argument("parity ratio must be in [0, 1]");
  if (deltaFreshness < Duration::zero() || keyFreshness < Duration::zero() || metadataFreshness < Duration::zero())
    throw std::invalid_argument("freshness must not be negative");
  if (history < 1)
    throw std::invalid_argument("history must keep at least one frame");
  if (pitLimit < 1)
    throw std::invalid_argument("PIT limit must be at least 1");
}

StreamProducer::StreamProducer(Env& env, app::Endpoint& endpoint, const Name& prefix, const security::Signer& signer,
                               Options opts)
  : m_env(env), m_ep(endpoint), m_signer(signer), m_opts(std::move(opts))
{
  m_opts.validate();
  m_base = streamBase(prefix, m_opts.stream);
  m_threads.resize(m_opts.threads.size());
  m_ep.onInterest = [this](const Interest& i) { handleInterest(i); };
}

StreamProducer::~StreamProducer()
{
  m_ep.onInterest = nullptr;
  for (auto& [key, waiting] : m_pit)
    for (auto& w : waiting)
      m_env.timers().cancel(w.timer);
}

Data StreamProducer::makeSegment(const Name& name, uint64_t lastSegment, Duration freshness,
                                 const SegmentHeader& header, ByteSpan payload) const
{
  Name last;
  last.appendSegment(lastSegment);
  Buffer content;
  content.reserve(payload.size() + 48);
  encodeSegmentHeader(content, header);
  content.insert(content.end(), payload.begin(), payload.end());
  Data data(name);
  data.setFreshnessPeriod(freshness);
  data.setFinalBlockId(last[0]);
  data.setContent(std::make_shared<const Buffer>(std::move(content)));
  security::signData(data, m_signer);
  auto decoded = Data::decode(data.wireEncode()); // content becomes a view into the wire
  if (!decoded)
    throw std::logic_error("StreamProducer: own segment does not decode");
  return std::move(decoded.value());
}

PublishedFrame StreamProducer::publish(size_t thread, const Frame& frame)
{
  if (m_ended)
    throw std::logic_error("StreamProducer: publish after end()");
  ThreadState& ts = m_threads.at(thread);
  const std::string& threadName = m_opts.threads[thread].name;
  const FrameType type = frame.key ? FrameType::Key : FrameType::Delta;
  PublishedFrame out{type, frame.key ? ts.nextKey++ : ts.nextDelta++, ts.nextPlayback++, 0, 0};
  if (frame.key)
    ts.lastKey = out.number;

  // equal shards of ceil(L / k) octets, k = ceil(L / payload): less than k octets of padding
  const size_t length = frame.data.size();
  const size_t k = length == 0 ? 1 : (length + m_opts.payloadSize - 1) / m_opts.payloadSize;
  std::vector<fec::Shard> shards =
    length == 0 ? std::vector<fec::Shard>(1) : fec::split(frame.data, (length + k - 1) / k);
  size_t m = 0;
  if (length > 0 && m_opts.parityRatio > 0) {
    const size_t wanted = fec::parityCount(k, m_opts.parityRatio);
    m = k < MaxFrameSegments ? std::min(wanted, MaxFrameSegments - k) : 0;
    if (m < wanted)
      ++m_counters.fecLimited;
  }
  if (m > 0) {
    std::vector<fec::ShardView> views(shards.begin(), shards.end());
    auto parity = fec::ReedSolomon(k, m).encode(views);
    for (auto& p : parity)
      shards.push_back(std::move(p));
  }
  out.dataSegments = k;
  out.paritySegments = m;

  // the Interests held for this frame: which segment each asks for, and the earliest per segment
  const FrameKey key{thread, type, out.number};
  std::vector<Waiting> waiting;
  if (auto it = m_pit.find(key); it != m_pit.end()) {
    waiting = std::move(it->second);
    m_pit.erase(it);
    m_pitSize -= waiting.size();
  }
  const TimePoint now = m_env.now();
  std::vector<std::optional<size_t>> slots(waiting.size());
  std::vector<std::optional<TimePoint>> earliest(k + m);
  for (size_t i = 0; i < waiting.size(); ++i) {
    m_env.timers().cancel(waiting[i].timer);
    auto sn = parseStreamName(m_base, waiting[i].interest.name()); // held only when it parsed
    slots[i] = slotFor(sn.value(), waiting[i].interest, k, m);
    if (slots[i] && (!earliest[*slots[i]] || waiting[i].arrival < *earliest[*slots[i]]))
      earliest[*slots[i]] = waiting[i].arrival;
  }

  SegmentHeader h;
  h.dataSegments = k;
  h.paritySegments = m;
  h.frameLength = length;
  h.playbackNumber = out.playback;
  h.gopKey = ts.lastKey;
  h.captureTime = frame.captureTime.value_or(m_env.clock().unixNow());
  const Duration freshness = frame.key ? m_opts.keyFreshness : m_opts.deltaFreshness;
  StoredFrame stored;
  stored.data.reserve(k);
  stored.parity.reserve(m);
  for (size_t i = 0; i < k + m; ++i) {
    const bool isData = i < k;
    const size_t seg = isData ? i : i - k;
    h.generationDelay = earliest[i] ? now - *earliest[i] : Duration::zero();
    Name name =
      segmentName(m_base, threadName, type, out.number, isData ? SegmentKind::Data : SegmentKind::Parity, seg);
    (isData ? stored.data : stored.parity).push_back(makeSegment(name, (isData ? k : m) - 1, freshness, h, shards[i]));
    shards[i] = fec::Shard();
  }
  m_counters.frames++;
  m_counters.keyFrames += frame.key;
  m_counters.segments += k;
  m_counters.paritySegments += m;

  for (size_t i = 0; i < waiting.size(); ++i) {
    const Data* d = nullptr;
    if (slots[i])
      d = *slots[i] < k ? &stored.data[*slots[i]] : &stored.parity[*slots[i] - k];
    if (d && waiting[i].interest.matchesData(*d)) {
      ++m_counters.answeredAfterWait;
      reply(waiting[i].interest, *d);
    }
    else {
      ++m_counters.noSuchSegment;
      NDNLAB_LOG(m_env, LogLevel::Debug, kModule, waiting[i].interest.name(), ": no such segment in a frame of ", k,
                 " + ", m, " segments DROP");
    }
  }

  ts.frames.emplace(std::make_pair(type, out.number), std::move(stored));
  ts.order.emplace_back(type, out.number);
  while (ts.order.size() > m_opts.history) {
    ts.frames.erase(ts.order.front());
    ts.order.pop_front();
  }
  NDNLAB_LOG(m_env, LogLevel::Trace, kModule, "published ", frameName(m_base, threadName, type, out.number), ": ",
             length, " octets in ", k, " + ", m, " segments, ", waiting.size(), " Interests waited");
  return out;
}

std::optional<size_t> StreamProducer::slotFor(const StreamName& sn, const Interest& interest, size_t k, size_t m)
{
  if (sn.kind && sn.segment) {
    const size_t count = *sn.kind == SegmentKind::Data ? k : m;
    if (*sn.segment >= count)
      return std::nullopt;
    return (*sn.kind == SegmentKind::Data ? 0 : k) + static_cast<size_t>(*sn.segment);
  }
  if (!interest.canBePrefix())
    return std::nullopt;
  if (!sn.kind || *sn.kind == SegmentKind::Data)
    return 0;
  return m > 0 ? std::optional<size_t>(k) : std::nullopt;
}

const Data* StreamProducer::find(const StoredFrame& f, const StreamName& sn, const Interest& interest)
{
  auto slot = slotFor(sn, interest, f.data.size(), f.parity.size());
  if (!slot)
    return nullptr;
  const Data& d = *slot < f.data.size() ? f.data[*slot] : f.parity[*slot - f.data.size()];
  return interest.matchesData(d) ? &d : nullptr;
}

void StreamProducer::handleInterest(const Interest& interest)
{
  const Name& name = interest.name();
  if (!m_base.isPrefixOf(name)) {
    ++m_counters.ignored;
    return;
  }
  ++m_counters.interests;
  auto sn = parseStreamName(m_base, name);
  if (!sn) {
    ++m_counters.malformed;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, sn.error().message, " DROP");
    return;
  }
  if (sn->meta) {
    if (name.size() == m_base.size() + 1 && interest.canBePrefix()) {
      answerMeta(interest);
      return;
    }
    ++m_counters.malformed;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, name, ": metadata is asked for as ", metaName(m_base),
               " with CanBePrefix DROP");
    return;
  }
  auto t = std::find_if(m_opts.threads.begin(), m_opts.threads.end(),
                        [&](const ThreadOptions& o) { return o.name == sn->thread; });
  if (t == m_opts.threads.end()) {
    ++m_counters.malformed;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, name, ": no thread ", sn->thread, " DROP");
    return;
  }
  const size_t thread = static_cast<size_t>(t - m_opts.threads.begin());
  const ThreadState& ts = m_threads[thread];
  const uint64_t next = sn->type == FrameType::Key ? ts.nextKey : ts.nextDelta;
  if (sn->frame >= next && m_ended) {
    answerEnd(interest);
    return;
  }
  if (sn->frame >= next) {
    hold(interest, FrameKey{thread, sn->type, sn->frame});
    return;
  }
  auto f = ts.frames.find({sn->type, sn->frame});
  if (f == ts.frames.end()) {
    ++m_counters.tooOld;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, name, ": older than the ", m_opts.history, " frames kept DROP");
    return;
  }
  if (const Data* d = find(f->second, *sn, interest)) {
    ++m_counters.answeredAtOnce;
    reply(interest, *d);
    return;
  }
  ++m_counters.noSuchSegment;
  NDNLAB_LOG(m_env, LogLevel::Debug, kModule, name, ": no such segment in a frame of ", f->second.data.size(), " + ",
             f->second.parity.size(), " segments DROP");
}

void StreamProducer::hold(const Interest& interest, const FrameKey& key)
{
  if (m_pitSize >= m_opts.pitLimit) {
    ++m_counters.pitFull;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, interest.name(), ": PIT full (", m_opts.pitLimit, ") DROP");
    return;
  }
  const uint64_t id = m_nextWaitingId++;
  const TimerId timer = m_env.timers().schedule(interest.lifetime(), [this, key, id] { expire(key, id); });
  m_pit[key].push_back(Waiting{interest, m_env.now(), timer, id});
  ++m_pitSize;
}

void StreamProducer::expire(const FrameKey& key, uint64_t id)
{
  auto it = m_pit.find(key);
  if (it == m_pit.end())
    return;
  auto& waiting = it->second;
  auto w = std::find_if(waiting.begin(), waiting.end(), [id](const Waiting& x) { return x.id == id; });
  if (w == waiting.end())
    return;
  NDNLAB_LOG(m_env, LogLevel::Debug, kModule, w->interest.name(), ": expired before its frame was published");
  waiting.erase(w);
  --m_pitSize;
  ++m_counters.expired;
  if (waiting.empty())
    m_pit.erase(it);
}

StreamMeta StreamProducer::metadata() const
{
  StreamMeta meta;
  meta.sampleRate = m_opts.sampleRate;
  for (size_t i = 0; i < m_opts.threads.size(); ++i) {
    const ThreadState& ts = m_threads[i];
    ThreadMeta t{m_opts.threads[i].name, m_opts.threads[i].bitrate, ts.lastKey, std::nullopt, std::nullopt};
    if (ts.nextDelta > 0)
      t.latestDelta = ts.nextDelta - 1;
    if (m_ended)
      t.frameCount = ts.nextPlayback;
    meta.threads.push_back(std::move(t));
  }
  return meta;
}

void StreamProducer::answerMeta(const Interest& interest)
{
  Name name = metaName(m_base);
  name.appendVersion(m_counters.frames + (m_ended ? 1 : 0)).appendSegment(0); // a new version at the end
  Data data(std::move(name));
  data.setFreshnessPeriod(m_opts.metadataFreshness);
  data.setFinalBlockId(data.name()[-1]);
  data.setContent(std::make_shared<const Buffer>(encodeStreamMeta(metadata())));
  security::signData(data, m_signer);
  data.tags.pitToken = interest.tags.pitToken;
  ++m_counters.metadataSent;
  m_ep.putData(data);
}

void StreamProducer::end()
{
  if (m_ended)
    return;
  m_ended = true;
  auto pit = std::move(m_pit);
  m_pit.clear();
  m_pitSize = 0;
  for (auto& [key, waiting] : pit) {
    for (auto& w : waiting) {
      m_env.timers().cancel(w.timer);
      answerEnd(w.interest);
    }
  }
  NDNLAB_LOG(m_env, LogLevel::Info, kModule, m_base, ": ended after ", m_counters.frames, " frames");
}

void StreamProducer::answerEnd(const Interest& interest)
{
  if (!interest.name().empty() && interest.name()[-1].isImplicitDigest())
    return; // no Data of ours can have that digest
  Data data(interest.name());
  data.setFreshnessPeriod(m_opts.metadataFreshness);
  data.setContent(std::make_shared<const Buffer>(encodeStreamMeta(metadata())));
  security::signData(data, m_signer);
  ++m_counters.endMarkers;
  reply(interest, data);
}

void StreamProducer::reply(const Interest& interest, const Data& data)
{
  ++m_counters.dataSent;
  app::putDataFor(m_ep, interest, data);
}

const Data* StreamProducer::segment(size_t thread, FrameType type, uint64_t frame, SegmentKind kind, uint64_t seg) const
{
  if (thread >= m_threads.size())
    return nullptr;
  const auto& frames = m_threads[thread].frames;
  auto f = frames.find({type, frame});
  if (f == frames.end())
    return nullptr;
  const auto& v = kind == SegmentKind::Data ? f->second.data : f->second.parity;
  return seg < v.size() ? &v[seg] : nullptr;
}

} // namespace ndnlab::stream
