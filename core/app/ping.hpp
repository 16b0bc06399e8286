#pragma once
// Ping client and server with ndnping/ndnpingserver semantics (ndn-tools tools/ping):
// the client sends `<prefix>/ping/<seq>` (seq as a decimal generic component) every interval,
// with MustBeFresh unless stale Data is allowed and InterestLifetime = timeout, and reports a
// reply, Nack or timeout per sequence number plus RTT statistics; the server answers any
// Interest under `<prefix>/ping` with a Data of the same name carrying a payload.

#include "core/app/endpoint.hpp"
#include "core/runtime/env.hpp"
#include "core/security/signer.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace ndnlab::app {

struct PingClientOptions
{
  Duration interval = std::chrono::milliseconds(1000); ///< time between pings
  Duration timeout = std::chrono::milliseconds(4000);  ///< InterestLifetime; no reply by then = timeout
  uint64_t count = 0;                                  ///< pings to send; 0 = until stopped
  std::optional<uint64_t> startSeq;                    ///< first sequence number; default random
  bool allowStale = false;                             ///< omit MustBeFresh
  std::string clientId;                                ///< optional component after `ping`

  /// Throws std::invalid_argument for non-positive interval or timeout.
  void validate() const;
};

struct PingStats
{
  uint64_t sent = 0;
  uint64_t received = 0;
  uint64_t nacked = 0;
  uint64_t timeouts = 0;
  Duration rttMin{0};
  Duration rttMax{0};
  double rttSumMs = 0;
  double rttSumSqMs = 0;

  double lossPercent() const { return sent ? 100.0 * static_cast<double>(timeouts) / static_cast<double>(sent) : 0; }
  double nackPercent() const { return sent ? 100.0 * static_cast<double>(nacked) / static_cast<double>(sent) : 0; }
  double rttAvgMs() const { return received ? rttSumMs / static_cast<double>(received) : 0; }
  /// Standard deviation of the RTT (ndnping "mdev").
  double rttMdevMs() const;
};

class PingClient
{
public:
  using Options = PingClientOptions;

  /// Installs endpoint.onData/onNack (cleared by the destructor).
  PingClient(Env& env, Endpoint& endpoint, const Name& prefix, Options opts = {});
  ~PingClient();
  PingClient(const PingClient&) = delete;
  PingClient& operator=(const PingClient&) = delete;

  void start();
  /// Stops sending; outstanding pings are abandoned (not counted as timeouts).
  void stop();

  std::function<void(uint64_t seq, Duration rtt)> onReply;
  std::function<void(uint64_t seq, Duration rtt, NackReason reason)> onNackReply;
  std::function<void(uint64_t seq)> onTimeout;
  /// All `count` pings are resolved.
  std::function<void()> onFinish;

  void handleData(const Data& data);
  void handleNack(const Nack& nack);

  const PingStats& stats() const { return m_stats; }
  /// Time since start().
  Duration elapsed() const { return m_env.now() - m_start; }
  Name makeName(uint64_t seq) const;

private:
  struct Pending
  {
    TimePoint sent;
    uint32_t nonce;
    TimerId timer;
  };

  void sendPing();
  std::optional<uint64_t> seqOf(const Name& name) const;
  void resolved();

  Env& m_env;
  Endpoint& m_ep;
  Name m_pingPrefix; ///< <prefix>/ping[/<clientId>]
  Options m_opts;
  uint64_t m_nextSeq = 0;
  uint64_t m_nSent = 0;
  bool m_running = false;
  TimerId m_sendTimer = 0;
  TimePoint m_start;
  std::map<uint64_t, Pending> m_pending;
  PingStats m_stats;
};

struct PingServerOptions
{
  size_t payloadSize = 0;                               ///< content bytes of each reply
  Duration freshness = std::chrono::milliseconds(1000); ///< FreshnessPeriod of replies
  uint64_t maxPings = 0;                                ///< stop answering after this many; 0 = unlimited

  void validate() const;
};

class PingServer
{
public:
  using Options = PingServerOptions;

  /// Answers Interests under `<prefix>/ping`. Installs endpoint.onInterest (cleared by the
  /// destructor). `signer` must outlive the server.
  PingServer(Env& env, Endpoint& endpoint, const Name& prefix, const security::Signer& signer, Options opts = {});
  ~PingServer();
  PingServer(const PingServer&) = delete;
  PingServer& operator=(const PingServer&) = delete;

  void handleInterest(const Interest& interest);

  /// Called after each reply with the Interest name.
  std::function<void(const Name&)> onPing;
  /// maxPings reached.
  std::function<void()> onFinish;

  uint64_t answered() const { return m_answered; }
  const Name& pingPrefix() const { return m_pingPrefix; }

private:
  Env& m_env;
  Endpoint& m_ep;
  const security::Signer& m_signer;
  Name m_pingPrefix;
  Options m_opts;
  SharedBuffer m_payload;
  uint64_t m_answered = 0;
};

} // namespace ndnlab::app
