#include "core/app/perf-protocol.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

namespace ndnlab::app::perf {

namespace {

/// A generic component holding decimal digits only (no sign, no leading zero except "0"),
/// within 64 bits.
std::optional<uint64_t> decimalComponent(const ComponentRef& c)
{
  if (!c.isGeneric())
    return std::nullopt;
  ByteSpan v = c.value();
  if (v.empty() || v.size() > 20 || (v.size() > 1 && v[0] == '0'))
    return std::nullopt;
  uint64_t n = 0;
  const char* begin = reinterpret_cast<const char*>(v.data());
  auto [end, ec] = std::from_chars(begin, begin + v.size(), n);
  if (ec != std::errc() || end != begin + v.size())
    return std::nullopt;
  return n;
}

std::optional<uint64_t> sessionComponent(const ComponentRef& c)
{
  if (!c.isGeneric() || c.value().size() != 16)
    return std::nullopt;
  uint64_t n = 0;
  for (uint8_t b : c.value()) {
    int d = b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ? b - 'a' + 10 : -1;
    if (d < 0)
      return std::nullopt;
    n = (n << 4) | static_cast<uint64_t>(d);
  }
  return n;
}

void putBe64(uint8_t* out, size_t room, uint64_t v)
{
  for (size_t i = 0; i < 8 && i < room; ++i)
    out[i] = static_cast<uint8_t>(v >> (56 - 8 * i));
}

} // namespace

std::string sessionText(uint64_t session)
{
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, session >>= 4)
    s[static_cast<size_t>(i)] = digits[session & 0xf];
  return s;
}

Name flowName(const Name& prefix, uint64_t session, uint64_t flow, uint64_t payload, uint64_t total)
{
  Name n = prefix;
  n.append(sessionText(session));
  n.append(std::to_string(flow));
  n.append(std::to_string(payload));
  n.append(std::to_string(total));
  return n;
}

Name statsName(const Name& prefix, uint64_t session)
{
  Name n = prefix;
  n.append(sessionText(session));
  n.append(StatsKeyword);
  return n;
}

std::optional<Request> parseRequest(const Name& prefix, const Name& name)
{
  if (!prefix.isPrefixOf(name))
    return std::nullopt;
  const size_t p = prefix.size();
  const size_t rest = name.size() - p;
  if (rest < 2)
    return std::nullopt;
  Request r;
  auto session = sessionComponent(name[static_cast<ptrdiff_t>(p)]);
  if (!session)
    return std::nullopt;
  r.session = *session;
  if (rest == 2) {
    ComponentRef c = name[static_cast<ptrdiff_t>(p + 1)];
    if (!c.isGeneric() ||
        std::string_view(reinterpret_cast<const char*>(c.value().data()), c.value().size()) != StatsKeyword)
      return std::nullopt;
    r.stats = true;
    return r;
  }
  if (rest != 5)
    return std::nullopt;
  auto flow = decimalComponent(name[static_cast<ptrdiff_t>(p + 1)]);
  auto payload = decimalComponent(name[static_cast<ptrdiff_t>(p + 2)]);
  auto total = decimalComponent(name[static_cast<ptrdiff_t>(p + 3)]);
  ComponentRef segC = name[static_cast<ptrdiff_t>(p + 4)];
  if (!flow || !payload || !total || !segC.isSegment())
    return std::nullopt;
  r.flow = *flow;
  r.payload = *payload;
  r.total = *total;
  r.segment = *segC.toNumber();
  return r;
}

void writeHeader(uint8_t* buf, size_t size, Duration stamp, uint64_t seg)
{
  putBe64(buf, size, static_cast<uint64_t>(stamp.count()));
  if (size > 8)
    putBe64(buf + 8, size - 8, seg);
}

std::optional<Duration> readTimestamp(ByteSpan content)
{
  if (content.size() < HeaderSize)
    return std::nullopt;
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i)
    v = (v << 8) | content[i];
  return Duration(static_cast<int64_t>(v));
}

std::string encodeServerReport(const ServerReport& r)
{
  std::string s;
  auto line = [&s](std::string_view k, uint64_t v) {
    s += k;
    s += ' ';
    s += std::to_string(v);
    s += '\n';
  };
  line("interests", r.interests);
  line("data", r.data);
  line("bytes", r.bytes);
  line("nacks", r.nacks);
  line("elapsed_ns", static_cast<uint64_t>(std::max<int64_t>(0, r.elapsed.count())));
  if (r.cpu) {
    line("cpu_user_ns", static_cast<uint64_t>(std::max<int64_t>(0, r.cpu->user.count())));
    line("cpu_system_ns", static_cast<uint64_t>(std::max<int64_t>(0, r.cpu->system.count())));
  }
  for (const auto& [flow, f] : r.flows) {
    line("flow_data." + std::to_string(flow), f.data);
    line("flow_bytes." + std::to_string(flow), f.bytes);
  }
  return s;
}

std::optional<ServerReport> decodeServerReport(std::string_view text)
{
  std::map<std::string, uint64_t, std::less<>> kv;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    size_t sp = line.find(' ');
    if (sp == std::string_view::npos || sp == 0)
      return std::nullopt;
    std::string_view value = line.substr(sp + 1);
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size())
      return std::nullopt;
    kv[std::string(line.substr(0, sp))] = v;
  }
  for (std::string_view required : {"interests", "data", "bytes", "elapsed_ns"}) {
    if (kv.find(required) == kv.end())
      return std::nullopt;
  }
  // a value beyond the range of a Duration is no duration this server measured
  constexpr uint64_t maxNs = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  ServerReport r;
  r.interests = kv.find("interests")->second;
  r.data = kv.find("data")->second;
  r.bytes = kv.find("bytes")->second;
  if (auto it = kv.find("nacks"); it != kv.end())
    r.nacks = it->second;
  if (kv.find("elapsed_ns")->second > maxNs)
    return std::nullopt;
  r.elapsed = Duration(static_cast<int64_t>(kv.find("elapsed_ns")->second));
  auto user = kv.find("cpu_user_ns");
  auto sys = kv.find("cpu_system_ns");
  if (user != kv.end() && sys != kv.end()) {
    if (user->second > maxNs || sys->second > maxNs)
      return std::nullopt;
    r.cpu = CpuTimes{Duration(static_cast<int64_t>(user->second)), Duration(static_cast<int64_t>(sys->second))};
  }
  for (const auto& [key, value] : kv) {
    for (std::string_view kind : {"flow_data.", "flow_bytes."}) {
      if (!key.starts_with(kind))
        continue;
      const std::string_view digits = std::string_view(key).substr(kind.size());
      uint64_t flow = 0;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), flow);
      if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
        return std::nullopt;
      if (r.flows.size() >= MaxReportedFlows && r.flows.find(flow) == r.flows.end())
        continue; // more flows than any client runs: not kept
      (kind == "flow_data." ? r.flows[flow].data : r.flows[flow].bytes) = value;
    }
  }
  return r;
}

} // namespace ndnlab::app::perf
