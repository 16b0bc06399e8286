#pragma once
// BLEnD Interest bundling as a link sub-service beside the fragmenter and the reassembler
// (NFD's GenericLinkService nests its fragmenter, reassembler and reliability the same way;
// docs/mechanisms/bundling.md): the bundle encoder and decoder, the hold of Data that arrive
// before the Interest they answer has come down, and the recovery timer of loss detection.
// GenericLinkService owns one and calls it on its send and receive paths; the service reads the
// options and writes the counters of its link service, and sends and hands up through `Hooks`.

#include "core/face/link-service.hpp"
#include "core/lp/interest-bundler.hpp"
#include "core/lp/packet.hpp"

#include <deque>
#include <functional>
#include <optional>

namespace ndnlab::face {

class BundlingService
{
public:
  /// What the service does through its link service.
  struct Hooks
  {
    /// Whether outgoing Interests go through the encoder now (bundling on, BI > 0, wireless).
    std::function<bool()> isActive;
    /// Sends a recovery bundle.
    std::function<void(lp::LpPacket&& header, SharedBuffer wire)> send;
    /// Counts and traces a dropped bundle.
    std::function<void(uint64_t& counter, DropReason reason, EndpointId endpoint, size_t octets,
                       std::string_view detail)>
      drop;
  };

  /// `owner` supplies the options, the counters, the face id and the upper callbacks
  /// (onReceiveInterest, onReceiveData); it outlives the service.
  BundlingService(Env& env, LinkService& owner, const LinkServiceOptions& options, LinkService::Counters& counters,
                  Hooks hooks);
  ~BundlingService();
  BundlingService(const BundlingService&) = delete;
  BundlingService& operator=(const BundlingService&) = delete;

  /// What happens to an outgoing Interest while the service is active.
  struct Outgoing
  {
    bool absorbed = false;                  ///< not sent: a bundle already sent covers it
    std::optional<lp::BundleHeader> bundle; ///< sent with this bundle header
  };
  /// The send path of an Interest (only while active): held Data it answers are handed up on
  /// the next timer turn; the encoder decides.
  Outgoing onOutgoingInterest(const Interest& interest);

  /// A received Interest with a bundle header: hands up the Interests it stands for, or drops it.
  void onIncomingBundle(const lp::BundleHeader& bundle, Interest&& interest, size_t octets, EndpointId endpoint);

  /// A received Data, before it is handed up: loss detection learns of it, and a Data a bundle
  /// asked for ahead of the consumer's Interest is held (returns true: consumed).
  bool onIncomingData(Data& data, EndpointId endpoint);

  void setBundleInterval(uint32_t bundleInterval) { m_encoder.setBundleInterval(bundleInterval); }

  size_t heldEarlyData() const { return m_early.size(); }
  size_t encoderEntries() const { return m_encoder.size(); }
  size_t decoderEntries() const { return m_decoder.size(); }

private:
  /// Hands up the early Data held for `interest`, if any, on the next timer turn.
  void releaseEarlyData(const Interest& interest);
  /// Drops held Data older than the hold time.
  void expireEarlyData();
  /// Arms the recovery timer for the encoder's next deadline when none is armed, or when
  /// `mayBeEarlier` (a bundle was just sent) and that deadline is earlier.
  void armRecoveryTimer(bool mayBeEarlier);
  /// Sends the recovery bundles due now, then re-arms.
  void sendRecoveries();

  Env& m_env;
  LinkService& m_owner;
  const LinkServiceOptions& m_options;
  LinkService::Counters& m_counters;
  Hooks m_hooks;
  lp::BundleEncoder m_encoder;
  lp::BundleDecoder m_decoder;
  struct EarlyData
  {
    Data data;
    EndpointId endpoint;
    TimePoint arrived;
  };
  std::deque<EarlyData> m_early; ///< oldest first, at most MaxEarlyData
  std::deque<EarlyData> m_ready; ///< released, handed up by m_readyTimer
  TimerId m_readyTimer = 0;
  TimerId m_recoveryTimer = 0; ///< loss detection: fires at m_recoveryAt
  TimePoint m_recoveryAt{};
};

} // namespace ndnlab::face
