#include "core/table/pit.hpp"

#include <algorithm>

namespace ndnlab::table {

namespace {

TimePoint recordExpiry(const Interest& interest, TimePoint now, Duration maxLifetime)
{
  Duration lifetime = std::clamp(interest.lifetime(), Duration::zero(), maxLifetime);
  return now + lifetime;
}

} // namespace

// --- PitEntry -----------------------------------------------------------------------------

PitEntry::PitEntry(std::shared_ptr<const Interest> interest, NameTreeEntry* nte)
  : m_interest(std::move(interest)), m_nte(nte)
{}

bool PitEntry::canMatch(const Interest& other) const
{
  return m_interest->canBePrefix() == other.canBePrefix() && m_interest->mustBeFresh() == other.mustBeFresh() &&
         m_interest->name() == other.name();
}

const PitInRecord* PitEntry::findInRecord(const face::Face& face) const
{
  for (const PitInRecord& r : m_inRecords) {
    if (r.face == &face)
      return &r;
  }
  return nullptr;
}

PitOutRecord* PitEntry::findOutRecord(const face::Face& face)
{
  for (PitOutRecord& r : m_outRecords) {
    if (r.face == &face)
      return &r;
  }
  return nullptr;
}

const PitOutRecord* PitEntry::findOutRecord(const face::Face& face) const
{
  return const_cast<PitEntry*>(this)->findOutRecord(face);
}

PitOutRecord& PitEntry::insertOrUpdateOutRecord(face::Face& face, const Interest& interest, TimePoint now,
                                                Duration maxLifetime)
{
  PitOutRecord* r = findOutRecord(face);
  if (r == nullptr) {
    m_outRecords.emplace_back();
    r = &m_outRecords.back();
    r->face = &face;
  }
  r->lastNonce = interest.nonce().value_or(0);
  r->lastRenewed = now;
  r->expiry = recordExpiry(interest, now, maxLifetime);
  r->incomingNack.reset();
  r->incomingNackRate.reset();
  return *r;
}

bool PitEntry::deleteOutRecord(const face::Face& face)
{
  auto it =
    std::find_if(m_outRecords.begin(), m_outRecords.end(), [&](const PitOutRecord& r) { return r.face == &face; });
  if (it == m_outRecords.end())
    return false;
  m_outRecords.erase(it);
  return true;
}

// --- Pit ----------------------------------------------------------------------------------

Pit::Pit(NameTree& nameTree, PitOptions options) : m_nameTree(nameTree), m_options(options)
{}

Pit::~Pit() = default;

size_t Pit::keyDepth(const Name& name)
{
  size_t n = name.size();
  if (n > 0 && name[-1].isImplicitDigest())
    --n;
  return std::min(n, NameTree::MaxDepth);
}

PitEntry* Pit::find(const Interest& interest) const
{
  NameTreeEntry* nte = m_nameTree.findExactMatch(interest.name(), keyDepth(interest.name()));
  if (nte == nullptr)
    return nullptr;
  for (const auto& e : nte->pitEntries()) {
    if (e->canMatch(interest))
      return e.get();
  }
  return nullptr;
}

std::pair<PitEntry*, bool> Pit::insert(const std::shared_ptr<const Interest>& interest)
{
  size_t depth = keyDepth(interest->name());
  NameTreeEntry* nte = m_nameTree.findExactMatch(interest->name(), depth);
  if (nte != nullptr) {
    for (const auto& e : nte->pitEntries()) {
      if (e->canMatch(*interest))
        return {e.get(), false};
    }
  }
  if (m_nItems >= m_options.maxEntries)
    return {nullptr, false};
  if (nte == nullptr)
    nte = &m_nameTree.create(interest->name(), depth);
  nte->m_pitEntries.push_back(std::make_unique<PitEntry>(interest, nte));
  ++m_nItems;
  return {nte->m_pitEntries.back().get(), true};
}

void Pit::erase(PitEntry* entry)
{
  if (entry->m_heapIndex != PitEntry::NotInHeap)
    heapRemove(entry->m_heapIndex);
  for (const PitInRecord& r : entry->m_inRecords)
    countInRecord(r.face->id(), -1);
  NameTreeEntry* nte = entry->m_nte;
  auto& vec = nte->m_pitEntries;
  auto it = std::find_if(vec.begin(), vec.end(), [&](const auto& p) { return p.get() == entry; });
  if (it != vec.end()) {
    vec.erase(it);
    --m_nItems;
  }
  m_nameTree.eraseIfEmpty(nte);
}

Pit::DataMatches Pit::findAllDataMatches(const Data& data) const
{
  DataMatches matches;
  NameTreeEntry* nte = m_nameTree.findLongestPrefixMatch(data.name());
  for (NameTreeEntry* e = nte; e != nullptr; e = e->parent()) {
    for (const auto& pe : e->pitEntries()) {
      if (pe->interest().matchesData(data))
        matches.push_back(pe.get());
    }
  }
  return matches;
}

// --- in-records ---------------------------------------------------------------------------

void Pit::countInRecord(face::FaceId face, int delta)
{
  if (delta > 0) {
    ++m_inRecordsPerFace[face];
    return;
  }
  auto it = m_inRecordsPerFace.find(face);
  if (it == m_inRecordsPerFace.end())
    return;
  if (--it->second == 0)
    m_inRecordsPerFace.erase(it);
}

size_t Pit::inRecordCount(face::FaceId face) const
{
  auto it = m_inRecordsPerFace.find(face);
  return it == m_inRecordsPerFace.end() ? 0 : it->second;
}

bool Pit::canAddInRecord(face::FaceId face, size_t reserved) const
{
  size_t held = inRecordCount(face);
  if (m_options.maxInRecordsPerFace != 0 && held >= m_options.maxInRecordsPerFace)
    return false;
  if (m_options.shareFactor <= 0)
    return true;
  size_t used = m_nItems >= reserved ? m_nItems - reserved : 0;
  size_t free = m_options.maxEntries > used ? m_options.maxEntries - used : 0;
  return static_cast<double>(held) < m_options.shareFactor * static_cast<double>(free);
}

PitInRecord& Pit::insertOrUpdateInRecord(PitEntry& entry, face::Face& face, face::EndpointId endpoint,
                                         std::shared_ptr<const Interest> interest, std::optional<PitToken> token,
                                         TimePoint now)
{
  PitInRecord* r = nullptr;
  for (PitInRecord& x : entry.m_inRecords) {
    if (x.face == &face) {
      r = &x;
      break;
    }
  }
  if (r == nullptr) {
    entry.m_inRecords.emplace_back();
    r = &entry.m_inRecords.back();
    r->face = &face;
    countInRecord(face.id(), +1);
  }
  r->endpoint = endpoint;
  r->lastNonce = interest->nonce().value_or(0);
  r->lastRenewed = now;
  r->expiry = recordExpiry(*interest, now, m_options.maxLifetime);
  r->interest = std::move(interest);
  r->pitToken = std::move(token);
  return *r;
}

bool Pit::deleteInRecord(PitEntry& entry, const face::Face& face)
{
  auto& v = entry.m_inRecords;
  auto it = std::find_if(v.begin(), v.end(), [&](const PitInRecord& r) { return r.face == &face; });
  if (it == v.end())
    return false;
  countInRecord(face.id(), -1);
  v.erase(it);
  return true;
}

void Pit::clearInRecords(PitEntry& entry)
{
  for (const PitInRecord& r : entry.m_inRecords)
    countInRecord(r.face->id(), -1);
  entry.m_inRecords.clear();
}

void Pit::removeFace(const face::Face& face)
{
  m_nameTree.forEach([&](NameTreeEntry& nte) {
    for (auto& e : nte.m_pitEntries) {
      deleteInRecord(*e, face);
      e->deleteOutRecord(face);
    }
  });
  m_inRecordsPerFace.erase(face.id());
}

// --- expiry heap --------------------------------------------------------------------------

void Pit::heapSwap(size_t a, size_t b)
{
  std::swap(m_heap[a], m_heap[b]);
  m_heap[a]->m_heapIndex = a;
  m_heap[b]->m_heapIndex = b;
}

void Pit::siftUp(size_t i)
{
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!(m_heap[i]->m_expiry < m_heap[parent]->m_expiry))
      break;
    heapSwap(i, parent);
    i = parent;
  }
}

void Pit::siftDown(size_t i)
{
  size_t n = m_heap.size();
  while (true) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < n && m_heap[l]->m_expiry < m_heap[m]->m_expiry)
      m = l;
    if (r < n && m_heap[r]->m_expiry < m_heap[m]->m_expiry)
      m = r;
    if (m == i)
      break;
    heapSwap(i, m);
    i = m;
  }
}

void Pit::heapRemove(size_t i)
{
  PitEntry* e = m_heap[i];
  size_t last = m_heap.size() - 1;
  if (i != last) {
    heapSwap(i, last);
    m_heap.pop_back();
    siftDown(i);
    siftUp(i);
  }
  else {
    m_heap.pop_back();
  }
  e->m_heapIndex = PitEntry::NotInHeap;
}

void Pit::setExpiry(PitEntry& entry, TimePoint when)
{
  entry.m_expiry = when;
  if (entry.m_heapIndex == PitEntry::NotInHeap) {
    entry.m_heapIndex = m_heap.size();
    m_heap.push_back(&entry);
    siftUp(entry.m_heapIndex);
  }
  else {
    siftDown(entry.m_heapIndex);
    siftUp(entry.m_heapIndex);
  }
}

void Pit::cancelExpiry(PitEntry& entry)
{
  if (entry.m_heapIndex != PitEntry::NotInHeap)
    heapRemove(entry.m_heapIndex);
}

std::optional<TimePoint> Pit::nextExpiry() const
{
  if (m_heap.empty())
    return std::nullopt;
  return m_heap.front()->m_expiry;
}

PitEntry* Pit::popExpired(TimePoint now)
{
  if (m_heap.empty() || m_heap.front()->m_expiry > now)
    return nullptr;
  PitEntry* e = m_heap.front();
  heapRemove(0);
  return e;
}

} // namespace ndnlab::table
