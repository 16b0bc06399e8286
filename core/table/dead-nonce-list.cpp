#include "core/table/dead-nonce-list.hpp"

#include "core/table/name-tree.hpp"

#include <stdexcept>

namespace ndnlab::table {

DeadNonceList::DeadNonceList(Env& env, DeadNonceListOptions options) : m_env(env), m_options(options), m_slots(64, 0)
{
  if (m_options.lifetime < MinLifetime)
    throw std::invalid_argument("DeadNonceList lifetime must be at least 50 ms");
  if (m_options.capacity == 0)
    throw std::invalid_argument("DeadNonceList capacity must be positive");
}

uint64_t DeadNonceList::makeKey(const Name& name, uint32_t nonce)
{
  uint64_t k = hashBytes(name.value(), 0x6E6F6E6365ULL ^ (uint64_t(nonce) << 16));
  return k == 0 ? 1 : k;
}

bool DeadNonceList::has(const Name& name, uint32_t nonce)
{
  expire(m_env.now());
  if (m_queue.empty())
    return false;
  return setContains(makeKey(name, nonce));
}

void DeadNonceList::add(const Name& name, uint32_t nonce)
{
  TimePoint now = m_env.now();
  expire(now);
  while (m_queue.size() >= m_options.capacity) {
    popFront();
    ++m_nEvictedEarly;
  }
  uint64_t key = makeKey(name, nonce);
  m_queue.push_back({key, now});
  setInsert(key);
}

void DeadNonceList::expire(TimePoint now)
{
  while (!m_queue.empty() && m_queue.front().added + m_options.lifetime <= now)
    popFront();
}

void DeadNonceList::popFront()
{
  setErase(m_queue.front().key);
  m_queue.pop_front();
  if (m_slots.size() > 64 && m_nSlotsUsed * 8 < m_slots.size())
    setRehash(m_slots.size() / 2);
}

bool DeadNonceList::setContains(uint64_t key) const
{
  size_t mask = m_slots.size() - 1;
  for (size_t i = key & mask;; i = (i + 1) & mask) {
    if (m_slots[i] == key)
      return true;
    if (m_slots[i] == 0)
      return false;
  }
}

void DeadNonceList::setInsert(uint64_t key)
{
  if ((m_nSlotsUsed + 1) * 2 > m_slots.size())
    setRehash(m_slots.size() * 2);
  size_t mask = m_slots.size() - 1;
  size_t i = key & mask;
  while (m_slots[i] != 0)
    i = (i + 1) & mask;
  m_slots[i] = key;
  ++m_nSlotsUsed;
}

void DeadNonceList::setErase(uint64_t key)
{
  size_t mask = m_slots.size() - 1;
  size_t i = key & mask;
  while (m_slots[i] != key) {
    if (m_slots[i] == 0)
      return; // not present (cannot happen: every queued key is in the set)
    i = (i + 1) & mask;
  }
  // Backward-shift deletion keeps probe chains intact without tombstones.
  size_t j = i;
  while (true) {
    j = (j + 1) & mask;
    if (m_slots[j] == 0)
      break;
    size_t home = m_slots[j] & mask;
    // Move slot j into the hole at i if its home position is not in (i, j] (cyclically).
    bool inRange = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (!inRange) {
      m_slots[i] = m_slots[j];
      i = j;
    }
  }
  m_slots[i] = 0;
  --m_nSlotsUsed;
}

void DeadNonceList::setRehash(size_t newSize)
{
  std::vector<uint64_t> old(newSize, 0);
  old.swap(m_slots);
  size_t mask = m_slots.size() - 1;
  for (uint64_t key : old) {
    if (key == 0)
      continue;
    size_t i = key & mask;
    while (m_slots[i] != 0)
      i = (i + 1) & mask;
    m_slots[i] = key;
  }
}

} // namespace ndnlab::table
