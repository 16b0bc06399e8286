#pragma once
// PushConsumer: the consumer half of the BLEnD "one Interest" bound (see push-producer.hpp).
//
// 1. Sends one trigger Interest `<name>` (CanBePrefix, MustBeFresh as configured). When no
//    Data at all arrives within the Interest lifetime, the trigger is sent again (at most
//    triggerRetries times).
// 2. Accepts every Data `<versioned>/seg=k` under `<name>`: the versioned prefix and the last
//    segment (FinalBlockId) are learned from the first Data; duplicates and strays are counted.
//    Content is delivered in segment order through onBytes.
// 3. When segments are missing and no Data arrived for idleTimeout, repairs them with ordinary
//    Interests for `<versioned>/seg=k`, at most repairWindow outstanding, each re-sent after
//    repairTimeout, at most `retries` times per segment.
//
// Statistics use FetchStats with pipeline "push": elapsed runs from the trigger to the last
// segment; rtt* describe the delay from the trigger to the first Data.
// Trace events, as SegmentFetcher's where they mean the same: fetch_data (value = segment,
// value2 = delay since the trigger (push) or since the repair Interest, reason "push" |
// "repair"), fetch_timeout (value = segment, reason "trigger" | "repair"), fetch_done /
// fetch_fail (value = bytes).

#include "core/app/endpoint.hpp"
#include "core/app/fetch-stats.hpp"
#include "core/app/segment-fetcher.hpp"
#include "core/runtime/env.hpp"

#include <map>
#include <optional>
#include <vector>

namespace ndnlab::app {

struct PushConsumerOptions
{
  Duration lifetime = std::chrono::milliseconds(4000);     ///< InterestLifetime of the trigger and repairs
  int triggerRetries = 15;                                 ///< trigger re-sends when no Data arrives; -1 = unlimited
  bool mustBeFresh = true;                                 ///< MustBeFresh on the trigger
  Duration idleTimeout = std::chrono::milliseconds(200);   ///< no Data for this long with segments missing: repair
  size_t repairWindow = 8;                                 ///< repair Interests outstanding
  Duration repairTimeout = std::chrono::milliseconds(500); ///< a repair Interest unanswered this long is re-sent
  int retries = 15;                                        ///< repair re-sends per segment; -1 = unlimited

  /// Throws std::invalid_argument for out-of-range values.
  void validate() const;
};

class PushConsumer
{
public:
  using Options = PushConsumerOptions;
  enum class State : uint8_t { Idle, Waiting, Receiving, Repairing, Done, Failed, Stopped };

  /// Installs endpoint.onData and endpoint.onNack (cleared by the destructor).
  PushConsumer(Env& env, Endpoint& endpoint, Options opts = {});
  ~PushConsumer();
  PushConsumer(const PushConsumer&) = delete;
  PushConsumer& operator=(const PushConsumer&) = delete;

  /// Sends the trigger for `name` (a prefix or a versioned name). Call once.
  void start(const Name& name);
  /// Stops without further callbacks.
  void stop();

  std::function<void(ByteSpan)> onBytes;
  std::function<void()> onComplete;
  std::function<void(const FetchError&)> onError;
  std::function<void(const SegmentEvent&)> onSegment;

  void handleData(const Data& data);
  void handleNack(const Nack& nack);

  State state() const { return m_state; }
  FetchStats stats() const;
  const Options& options() const { return m_opts; }
  /// Segments received so far (distinct).
  uint64_t segmentsReceived() const { return m_stats.segments; }
  /// Repair Interests sent so far.
  uint64_t repairsSent() const { return m_repairsSent; }

private:
  struct Repair
  {
    TimePoint sent;
    uint32_t tries = 0;
  };

  void sendTrigger();
  void onTriggerTimeout();
  void armIdleTimer();
  void onIdleTimer();
  void repair();
  void sendRepair(uint64_t seg, Repair& r);
  void deliverInOrder();
  void finish();
  void fail(FetchErrc code, std::string message);
  void cancelTimers();

  Env& m_env;
  Endpoint& m_ep;
  Options m_opts;
  State m_state = State::Idle;

  Name m_name;
  Name m_versioned;
  TimePoint m_start;
  TimePoint m_lastData;
  uint32_t m_triggerSends = 0;
  TimerId m_triggerTimer = 0;
  TimerId m_idleTimer = 0;
  bool m_anyData = false;

  std::optional<uint64_t> m_lastSeg;
  std::vector<bool> m_have;           ///< by segment
  std::map<uint64_t, Data> m_reorder; ///< received, not yet delivered
  uint64_t m_nextDeliver = 0;
  std::map<uint64_t, Repair> m_repairs; ///< outstanding repair Interests
  uint64_t m_repairsSent = 0;

  FetchStats m_stats;
};

} // namespace ndnlab::app
