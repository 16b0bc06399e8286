#pragma once
// Pending Interest Table (NFD daemon/table/pit*).
//
// An entry is keyed by Name + CanBePrefix + MustBeFresh and hangs on the NameTree entry of its
// name minus a trailing implicit digest (so a Data finds full-name Interests at its own name).
// In-records remember each downstream (face, last Nonce, renewal, expiry, the Interest and its
// PitToken); out-records each upstream (face, last Nonce, renewal, expiry, incoming Nack).
// The table is bounded: at most maxEntries entries; the forwarder drops Interests that would
// exceed it. Admission is shared fairly among downstream faces by a dynamic threshold (the
// shared-buffer rule of Choudhury and Hahne): a face may add an in-record only while it holds
// fewer than shareFactor x (free entries). Flooding faces therefore settle at
// maxEntries x a / (1 + n a) each and never fill the table: a newcomer (a legitimate consumer,
// a management command) always finds free entries and is admitted at once. An optional hard
// cap per face (maxInRecordsPerFace) applies on top.
// Entry expiry is an indexed min-heap kept here; the forwarder arms one Env timer for the
// earliest expiry instead of one timer per entry.

#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "core/codec/nack.hpp"
#include "core/face/face.hpp"
#include "core/table/name-tree.hpp"

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ndnlab::table {

/// Base of per-strategy state stored in PIT entries and out-records.
class StrategyInfo
{
public:
  virtual ~StrategyInfo() = default;
};

/// One strategy-info slot, owned by the strategy instance whose serial number wrote it; another
/// strategy (after a strategy-choice change) sees it as empty.
class StrategyInfoSlot
{
public:
  template<typename T>
  T* get(uint64_t owner) const
  {
    return m_owner == owner ? static_cast<T*>(m_info.get()) : nullptr;
  }

  template<typename T, typename... Args>
  T& getOrCreate(uint64_t owner, Args&&... args)
  {
    if (m_owner != owner || !m_info) {
      m_info = std::make_unique<T>(std::forward<Args>(args)...);
      m_owner = owner;
    }
    return static_cast<T&>(*m_info);
  }

  void clear()
  {
    m_info.reset();
    m_owner = 0;
  }

private:
  uint64_t m_owner = 0;
  std::unique_ptr<StrategyInfo> m_info;
};

struct PitInRecord
{
  face::Face* face = nullptr;
  face::EndpointId endpoint = 0;
  uint32_t lastNonce = 0;
  TimePoint lastRenewed{};
  TimePoint expiry{};
  /// The last Interest received from this downstream (its PitToken is kept below, not as a tag).
  std::shared_ptr<const Interest> interest;
  /// PitToken of that Interest, echoed on Data/Nack returned to this downstream.
  std::optional<PitToken> pitToken;
};

struct PitOutRecord
{
  face::Face* face = nullptr;
  uint32_t lastNonce = 0;
  TimePoint lastRenewed{};
  TimePoint expiry{};
  /// Reason of a Nack received from this upstream for lastNonce.
  std::optional<NackReason> incomingNack;
  /// MIRCC rate that Nack carried, after this node's stamping (docs/mechanisms/mircc.md).
  std::optional<Rate> incomingNackRate;
  StrategyInfoSlot strategyInfo;
};

class PitEntry
{
public:
  PitEntry(std::shared_ptr<const Interest> interest, NameTreeEntry* nte);
  PitEntry(const PitEntry&) = delete;
  PitEntry& operator=(const PitEntry&) = delete;

  /// The representative Interest (the one that created the entry).
  const Interest& interest() const { return *m_interest; }
  const Name& name() const { return m_interest->name(); }
  /// Same Name, CanBePrefix and MustBeFresh (NFD pit::Entry::canMatch).
  bool canMatch(const Interest& other) const;

  const SmallVector<PitInRecord, 1>& inRecords() const { return m_inRecords; }
  bool hasInRecords() const { return !m_inRecords.empty(); }
  const PitInRecord* findInRecord(const face::Face& face) const;

  SmallVector<PitOutRecord, 1>& outRecords() { return m_outRecords; }
  const SmallVector<PitOutRecord, 1>& outRecords() const { return m_outRecords; }
  bool hasOutRecords() const { return !m_outRecords.empty(); }
  PitOutRecord* findOutRecord(const face::Face& face);
  const PitOutRecord* findOutRecord(const face::Face& face) const;
  /// Inserts or renews the out-record of `face` with the Interest's Nonce and lifetime; clears
  /// any recorded Nack. Precondition: the Interest has a Nonce.
  PitOutRecord& insertOrUpdateOutRecord(face::Face& face, const Interest& interest, TimePoint now,
                                        Duration maxLifetime);
  bool deleteOutRecord(const face::Face& face);

  NameTreeEntry* nameTreeEntry() const { return m_nte; }
  /// When the forwarder will finalize the entry; meaningful while isExpiryScheduled().
  TimePoint expiry() const { return m_expiry; }
  bool isExpiryScheduled() const { return m_heapIndex != NotInHeap; }

  bool isSatisfied = false;
  /// FreshnessPeriod of the Data that satisfied the entry.
  Duration dataFreshnessPeriod{0};
  StrategyInfoSlot strategyInfo;

private:
  friend class Pit;
  static constexpr size_t NotInHeap = static_cast<size_t>(-1);

  std::shared_ptr<const Interest> m_interest;
  NameTreeEntry* m_nte;
  SmallVector<PitInRecord, 1> m_inRecords;
  SmallVector<PitOutRecord, 1> m_outRecords;
  TimePoint m_expiry{};
  size_t m_heapIndex = NotInHeap;
};

struct PitOptions
{
  /// Maximum number of PIT entries; Interests that would create more are dropped.
  size_t maxEntries = 65536;
  /// Hard cap on the in-records one downstream face may hold; 0 = no cap beyond the share.
  size_t maxInRecordsPerFace = 0;
  /// Dynamic-threshold factor a: a face may add an in-record only while it holds fewer than
  /// a x (maxEntries - size()). 1 = one face alone gets half the table, n flooding faces
  /// get 1/(n+1) each; 0 = off (first come, first served up to maxEntries).
  double shareFactor = 1.0;
  /// In/out-record lifetime cap (NFD: 10 days), whatever the InterestLifetime says.
  Duration maxLifetime = std::chrono::hours(24 * 10);
};

class Pit
{
public:
  Pit(NameTree& nameTree, PitOptions options = {});
  ~Pit();

  /// The entry matching the Interest's Name, CanBePrefix and MustBeFresh, or nullptr.
  PitEntry* find(const Interest& interest) const;
  /// Finds or creates the entry for `interest`: {entry, isNew}. {nullptr, false} when a new
  /// entry would exceed maxEntries.
  std::pair<PitEntry*, bool> insert(const std::shared_ptr<const Interest>& interest);
  /// Removes the entry (and its in-record accounting) and prunes the NameTree.
  void erase(PitEntry* entry);

  using DataMatches = SmallVector<PitEntry*, 4>;
  /// Every entry whose Interest matches `data` (ndn-cxx Interest::matchesData), deepest first.
  DataMatches findAllDataMatches(const Data& data) const;

  // --- in-records (through the table, which counts them per face) ---
  /// Inserts or renews the in-record of `face`. Precondition: the Interest has a Nonce.
  PitInRecord& insertOrUpdateInRecord(PitEntry& entry, face::Face& face, face::EndpointId endpoint,
                                      std::shared_ptr<const Interest> interest, std::optional<PitToken> token,
                                      TimePoint now);
  bool deleteInRecord(PitEntry& entry, const face::Face& face);
  void clearInRecords(PitEntry& entry);
  /// In-records currently held by the face.
  size_t inRecordCount(face::FaceId face) const;
  /// True if `face` may add one more in-record under its hard cap and its dynamic share.
  /// `reserved` entries already inserted for the Interest being admitted are not counted as
  /// used (the forwarder inserts the entry before it checks the face).
  bool canAddInRecord(face::FaceId face, size_t reserved = 0) const;
  /// Deletes every in- and out-record of `face` (face removal); entries stay until expiry.
  void removeFace(const face::Face& face);

  // --- expiry (indexed min-heap) ---
  /// Schedules (or reschedules) the entry's finalization at `when`.
  void setExpiry(PitEntry& entry, TimePoint when);
  void cancelExpiry(PitEntry& entry);
  /// The earliest scheduled expiry, if any.
  std::optional<TimePoint> nextExpiry() const;
  /// Unschedules and returns an entry whose expiry is <= now, or nullptr.
  PitEntry* popExpired(TimePoint now);

  size_t size() const { return m_nItems; }
  const PitOptions& options() const { return m_options; }
  void setMaxEntries(size_t n) { m_options.maxEntries = n; }
  void setMaxInRecordsPerFace(size_t n) { m_options.maxInRecordsPerFace = n; }
  void setShareFactor(double a) { m_options.shareFactor = a; }

  /// Calls f(PitEntry&) for every entry; `f` must not insert or erase entries.
  template<typename F>
  void forEach(F&& f) const
  {
    m_nameTree.forEach([&](const NameTreeEntry& nte) {
      for (const auto& e : nte.pitEntries())
        f(*e);
    });
  }

private:
  static size_t keyDepth(const Name& name);
  void heapSwap(size_t a, size_t b);
  void siftUp(size_t i);
  void siftDown(size_t i);
  void heapRemove(size_t i);
  void countInRecord(face::FaceId face, int delta);

  NameTree& m_nameTree;
  PitOptions m_options;
  size_t m_nItems = 0;
  std::vector<PitEntry*> m_heap;
  std::unordered_map<face::FaceId, size_t> m_inRecordsPerFace;
};

} // namespace ndnlab::table
