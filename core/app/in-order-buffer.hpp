#pragma once
// In-order delivery of a segmented object: segments that arrive ahead of the next one wait
// (sharing the Data's wire, no content copy) and leave in order as soon as the gap fills.

#include "core/codec/data.hpp"

#include <cstdint>
#include <map>
#include <optional>

namespace ndnlab::app {

class InOrderBuffer
{
public:
  /// Segment `seg` arrived. When it is the next one, `out(data)` is called for it, then for
  /// every waiting segment it unblocks, in order, for as long as `out` returns true; a later one
  /// waits; an earlier (already delivered) one is ignored.
  template<typename Out>
  void add(uint64_t seg, const Data& data, Out&& out)
  {
    if (seg != m_next) {
      if (seg > m_next)
        m_waiting.emplace(seg, data); // shares the wire; no content copy
      return;
    }
    bool more = out(data);
    ++m_next;
    while (more && !m_waiting.empty() && m_waiting.begin()->first == m_next) {
      auto node = m_waiting.extract(m_waiting.begin());
      more = out(node.mapped());
      ++m_next;
    }
  }

  /// Forgets the waiting segments after `seg` (beyond the object's end).
  void dropAfter(uint64_t seg) { m_waiting.erase(m_waiting.upper_bound(seg), m_waiting.end()); }

  /// The next segment to deliver (the number delivered so far).
  uint64_t next() const { return m_next; }
  /// Segments waiting for an earlier one.
  size_t waiting() const { return m_waiting.size(); }
  /// The highest segment received so far (delivered or waiting); nullopt before any.
  std::optional<uint64_t> highestReceived() const
  {
    if (!m_waiting.empty())
      return m_waiting.rbegin()->first;
    return m_next > 0 ? std::optional<uint64_t>(m_next - 1) : std::nullopt;
  }

private:
  uint64_t m_next = 0;
  std::map<uint64_t, Data> m_waiting;
};

} // namespace ndnlab::app
