#include "core/security/replay-checker.hpp"

#include <string_view>

namespace ndnlab::security {

namespace {

size_t nonceHash(const Buffer& nonce)
{
  return std::hash<std::string_view>()(std::string_view(reinterpret_cast<const char*>(nonce.data()), nonce.size()));
}

} // namespace

ReplayChecker::ReplayChecker(const Clock& clock, ReplayCheckerOptions options) : m_clock(clock), m_options(options)
{}

std::string ReplayChecker::keyOf(const SignatureInfo& si)
{
  if (!si.keyLocator)
    return {};
  std::string key;
  if (const Name* n = std::get_if<Name>(&*si.keyLocator)) {
    key.push_back('N');
    key.append(reinterpret_cast<const char*>(n->value().data()), n->value().size());
  }
  else {
    const auto& d = std::get<KeyDigest>(*si.keyLocator).bytes;
    key.push_back('D');
    key.append(reinterpret_cast<const char*>(d.data()), d.size());
  }
  return key;
}

const ReplayChecker::Record* ReplayChecker::find(const std::string& key) const
{
  auto it = m_records.find(key);
  if (it == m_records.end() || m_clock.now() - it->second.lastUsed > m_options.recordLifetime)
    return nullptr;
  return &it->second;
}

CheckResult ReplayChecker::check(const SignatureInfo& si) const
{
  if (!si.time && !si.nonce && !si.seqNum)
    return m_options.requireReplayField ? CheckResult::NoReplayFields : CheckResult::Ok;

  const Record* rec = find(keyOf(si));
  if (si.time) {
    int64_t now = m_clock.unixNow().count();
    int64_t grace = std::chrono::duration_cast<std::chrono::milliseconds>(m_options.gracePeriod).count();
    // SignatureTime is unsigned on the wire; anything beyond int64 is far in the future.
    if (*si.time > static_cast<uint64_t>(INT64_MAX))
      return CheckResult::TimeOutOfGrace;
    int64_t t = static_cast<int64_t>(*si.time);
    if (t < now - grace || t > now + grace)
      return CheckResult::TimeOutOfGrace;
    if (rec && rec->lastTime && *si.time <= *rec->lastTime)
      return CheckResult::TimeReordered;
  }
  if (si.nonce && rec && rec->nonces.count(nonceHash(*si.nonce)) > 0)
    return CheckResult::NonceReused;
  if (si.seqNum && rec && rec->lastSeqNum && *si.seqNum <= *rec->lastSeqNum)
    return CheckResult::SeqNumReordered;
  return CheckResult::Ok;
}

void ReplayChecker::record(const SignatureInfo& si)
{
  if (m_options.maxRecords == 0)
    return;
  std::string key = keyOf(si);
  TimePoint now = m_clock.now();
  auto it = m_records.find(key);
  if (it != m_records.end() && now - it->second.lastUsed > m_options.recordLifetime) {
    m_lru.erase(it->second.lruPos);
    m_records.erase(it);
    it = m_records.end();
  }
  if (it == m_records.end()) {
    while (m_records.size() >= m_options.maxRecords) {
      m_records.erase(m_lru.front());
      m_lru.pop_front();
    }
    it = m_records.emplace(key, Record{}).first;
    it->second.lruPos = m_lru.insert(m_lru.end(), key);
  }
  else {
    m_lru.splice(m_lru.end(), m_lru, it->second.lruPos);
  }

  Record& rec = it->second;
  rec.lastUsed = now;
  if (si.time)
    rec.lastTime = std::max(rec.lastTime.value_or(0), *si.time);
  if (si.seqNum)
    rec.lastSeqNum = std::max(rec.lastSeqNum.value_or(0), *si.seqNum);
  if (si.nonce && m_options.maxNoncesPerKey > 0) {
    size_t h = nonceHash(*si.nonce);
    rec.nonceOrder.push_back(h);
    rec.nonces.insert(h);
    while (rec.nonceOrder.size() > m_options.maxNoncesPerKey) {
      rec.nonces.erase(rec.nonces.find(rec.nonceOrder.front()));
      rec.nonceOrder.pop_front();
    }
  }
}

CheckResult ReplayChecker::checkAndRecord(const SignatureInfo& si)
{
  CheckResult r = check(si);
  if (r == CheckResult::Ok)
    record(si);
  return r;
}

} // namespace ndnlab::security
