#pragma once
// Test doubles for app engines: an Endpoint that records what an engine sends, and a Link that
// joins two endpoints with a one-way delay on the manual clock, with hooks to drop or modify
// packets in flight.

#include "core/app/endpoint.hpp"
#include "core/runtime/manual-env.hpp"

#include <functional>
#include <vector>

namespace ndnlab::app::test {

/// Records every packet the engine sends and forwards it to `sink` when set.
class FakeEndpoint final : public Endpoint
{
public:
  void expressInterest(const Interest& i) override
  {
    sentInterests.push_back(i);
    if (interestSink)
      interestSink(i);
  }
  void putData(const Data& d) override
  {
    sentData.push_back(d);
    if (dataSink)
      dataSink(d);
  }
  void putNack(const Nack& n) override
  {
    sentNacks.push_back(n);
    if (nackSink)
      nackSink(n);
  }

  std::vector<Interest> sentInterests;
  std::vector<Data> sentData;
  std::vector<Nack> sentNacks;
  std::function<void(const Interest&)> interestSink;
  std::function<void(const Data&)> dataSink;
  std::function<void(const Nack&)> nackSink;
};

/// consumer <-> producer with `delay` each way. Hooks return false to drop a packet.
class Link
{
public:
  Link(ManualEnv& env, Duration delay) : m_env(env), m_delay(delay)
  {
    consumer.interestSink = [this](const Interest& i) {
      Interest copy = i;
      if (interestFilter && !interestFilter(copy))
        return;
      m_env.timers().schedule(m_delay, [this, copy] { producer.deliverInterest(copy); });
    };
    producer.dataSink = [this](const Data& d) {
      Data copy = d;
      if (dataFilter && !dataFilter(copy))
        return;
      m_env.timers().schedule(m_delay, [this, copy] { consumer.deliverData(copy); });
    };
    producer.nackSink = [this](const Nack& n) {
      Nack copy = n;
      if (nackFilter && !nackFilter(copy))
        return;
      m_env.timers().schedule(m_delay, [this, copy] { consumer.deliverNack(copy); });
    };
  }

  FakeEndpoint consumer;
  FakeEndpoint producer;
  std::function<bool(Interest&)> interestFilter;
  std::function<bool(Data&)> dataFilter;
  std::function<bool(Nack&)> nackFilter;

private:
  ManualEnv& m_env;
  Duration m_delay;
};

} // namespace ndnlab::app::test
