#include "core/fw/retx-suppression.hpp"

#include "core/fw/algorithm.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ndnlab::fw {

namespace {

bool parseDouble(const std::string& s, double& out)
{
  try {
    size_t pos = 0;
    out = std::stod(s, &pos);
    return pos == s.size() && std::isfinite(out);
  }
  catch (const std::exception&) {
    return false;
  }
}

} // namespace

std::string RetxSuppressionOptions::applyParameter(const std::string& key, const std::string& value)
{
  double v = 0;
  if (!parseDouble(value, v))
    return "invalid value '" + value + "' for " + key;
  if (key == "retx-suppression-initial")
    initial = std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(v));
  else if (key == "retx-suppression-max")
    max = std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(v));
  else if (key == "retx-suppression-multiplier")
    multiplier = v;
  else
    return "unknown strategy parameter '" + key + "'";
  return {};
}

std::string RetxSuppressionOptions::validate() const
{
  if (initial <= Duration::zero())
    return "retx-suppression-initial must be positive";
  if (max < initial)
    return "retx-suppression-max must not be less than retx-suppression-initial";
  if (multiplier < 1.0)
    return "retx-suppression-multiplier must be at least 1";
  return {};
}

Duration RetxSuppressionExponential::grow(Duration d) const
{
  auto grown = std::chrono::duration_cast<Duration>(
    std::chrono::duration<double, std::nano>(static_cast<double>(d.count()) * m_options.multiplier));
  return std::min(m_options.max, grown);
}

RetxSuppressionResult RetxSuppressionExponential::decidePerPitEntry(table::PitEntry& entry, uint64_t owner,
                                                                    TimePoint now) const
{
  if (!hasPendingOutRecords(entry, now))
    return RetxSuppressionResult::New;
  Duration sinceLastOutgoing = now - getLastOutgoing(entry);
  Info& info = entry.strategyInfo.getOrCreate<Info>(owner, m_options.initial);
  if (sinceLastOutgoing < info.interval)
    return RetxSuppressionResult::Suppress;
  info.interval = grow(info.interval);
  return RetxSuppressionResult::Forward;
}

RetxSuppressionResult RetxSuppressionExponential::decidePerUpstream(table::PitEntry& entry, const face::Face& upstream,
                                                                    uint64_t owner, TimePoint now) const
{
  table::PitOutRecord* r = entry.findOutRecord(upstream);
  if (r == nullptr)
    return RetxSuppressionResult::New;
  Duration sinceLastOutgoing = now - r->lastRenewed;
  Info& info = r->strategyInfo.getOrCreate<Info>(owner, m_options.initial);
  return sinceLastOutgoing < info.interval ? RetxSuppressionResult::Suppress : RetxSuppressionResult::Forward;
}

void RetxSuppressionExponential::incrementIntervalForOutRecord(table::PitOutRecord& record, uint64_t owner) const
{
  Info& info = record.strategyInfo.getOrCreate<Info>(owner, m_options.initial);
  info.interval = grow(info.interval);
}

} // namespace ndnlab::fw
