#pragma once
// Replay protection for signed Interests (spec signed-interest.rst "Signed Interest
// validation"; ndn-cxx ValidationPolicyCommandInterest). Per signing key (identified by the
// KeyLocator; all DigestSha256 signers share the empty key) it remembers the last
// SignatureTime, the last SignatureSeqNum and recent SignatureNonces. Memory is bounded:
// at most maxRecords keys (least recently used evicted), maxNoncesPerKey nonces per key
// (oldest forgotten), and records idle longer than recordLifetime are dropped.
//
// Records are updated only by record(), which callers invoke after the whole validation
// (signature included) succeeded.

#include "core/codec/signature-info.hpp"
#include "core/runtime/env.hpp"
#include "core/security/signed-interest.hpp"

#include <deque>
#include <list>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace ndnlab::security {

struct ReplayCheckerOptions
{
  /// SignatureTime must be within now +- gracePeriod (spec recommends 60 s; NFD uses 2 min).
  Duration gracePeriod = std::chrono::seconds(60);
  /// Maximum number of keys remembered; the least recently used is evicted beyond it.
  size_t maxRecords = 1000;
  /// A key's record is forgotten after this long without a successful Interest.
  Duration recordLifetime = std::chrono::hours(1);
  /// Nonces remembered per key (FIFO).
  size_t maxNoncesPerKey = 256;
  /// Reject Interests that carry none of SignatureTime, SignatureNonce, SignatureSeqNum.
  bool requireReplayField = true;
};

class ReplayChecker
{
public:
  explicit ReplayChecker(const Clock& clock, ReplayCheckerOptions options = {});

  /// Checks the replay fields of `si` against the records; does not modify them.
  CheckResult check(const SignatureInfo& si) const;
  /// Records the fields of an accepted Interest.
  void record(const SignatureInfo& si);
  /// check(), then record() if it passed.
  CheckResult checkAndRecord(const SignatureInfo& si);

  /// Number of keys currently remembered.
  size_t size() const { return m_records.size(); }
  const ReplayCheckerOptions& options() const { return m_options; }

private:
  struct Record
  {
    std::optional<uint64_t> lastTime;
    std::optional<uint64_t> lastSeqNum;
    std::deque<size_t> nonceOrder;
    std::unordered_multiset<size_t> nonces; ///< hashes of recent nonce values
    TimePoint lastUsed{};
    std::list<std::string>::iterator lruPos;
  };

  static std::string keyOf(const SignatureInfo& si);
  const Record* find(const std::string& key) const;

  const Clock& m_clock;
  ReplayCheckerOptions m_options;
  std::unordered_map<std::string, Record> m_records;
  std::list<std::string> m_lru; ///< front = least recently used
};

} // namespace ndnlab::security
