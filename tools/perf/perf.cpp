// `ndnlab perf server PREFIX` / `ndnlab perf client PREFIX`: iperf3 for NDN. The shells of
// app::PerfServer and app::PerfClient (core/app/perf-*.hpp): options with iperf3's letters and
// units (seconds, K/M/G suffixes), an AsioEnv, getrusage for the CPU figures, and the report
// as iperf3's text or JSON (`start` / `intervals` / `end`, docs/tools.md "ndnlab perf").

#include "core/app/perf-client.hpp"
#include "core/app/perf-server-fields.hpp"
#include "core/app/segment-fetcher-fields.hpp"
#include "tools/common/connection.hpp"
#include "tools/common/mgmt-client.hpp"
#include "tools/common/option-flags.hpp"
#include "tools/common/runtime.hpp"
#include "tools/common/signing.hpp"
#include "tools/common/summaries.hpp"

#include <nlohmann/json.hpp>

#include <sys/resource.h>
#include <sys/utsname.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <string>

namespace ndnlab::tools {

namespace {

using json = nlohmann::ordered_json;

app::perf::CpuTimes processCpu()
{
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  auto ns = [](const timeval& tv) {
    return Duration(static_cast<int64_t>(tv.tv_sec) * 1'000'000'000 + static_cast<int64_t>(tv.tv_usec) * 1000);
  };
  return {ns(ru.ru_utime), ns(ru.ru_stime)};
}

/// iperf3's byte counts: digits with an optional K, M, G or T (powers of 1024, either case).
std::optional<uint64_t> parseByteCount(std::string_view text)
{
  if (text.empty())
    return std::nullopt;
  uint64_t mult = 1;
  switch (text.back()) {
    case 'k':
    case 'K': mult = 1ULL << 10; break;
    case 'm':
    case 'M': mult = 1ULL << 20; break;
    case 'g':
    case 'G': mult = 1ULL << 30; break;
    case 't':
    case 'T': mult = 1ULL << 40; break;
    default: break;
  }
  if (mult != 1)
    text.remove_suffix(1);
  if (text.empty() || text.size() > 19)
    return std::nullopt;
  uint64_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  if (n > UINT64_MAX / mult)
    return std::nullopt;
  return n * mult;
}

std::string systemInfo()
{
  utsname u{};
  if (::uname(&u) != 0)
    return {};
  return std::string(u.sysname) + " " + u.nodename + " " + u.release + " " + u.version + " " + u.machine;
}

double bps(uint64_t bytes, Duration d)
{
  const double s = toSeconds(d);
  return s > 0 ? static_cast<double>(bytes) * 8 / s : 0.0;
}

double percentOf(Duration part, Duration whole)
{
  return whole.count() > 0 ? 100.0 * static_cast<double>(part.count()) / static_cast<double>(whole.count()) : 0.0;
}

/// The NDN figures of a flow or sum, under their own key.
json ndnJson(const app::PerfFlowStats& s)
{
  json j;
  j["interests"] = s.interests;
  j["data"] = s.segments;
  j["retransmissions"] = s.retransmissions;
  j["timeouts"] = s.timeouts;
  j["nacks"] = s.nacks;
  j["congestion_marks"] = s.marks;
  j["rtt_samples"] = s.rttSamples;
  j["rtt_min_ms"] = toMillis(s.rttMin);
  j["rtt_avg_ms"] = toMillis(s.rttAvg);
  j["rtt_max_ms"] = toMillis(s.rttMax);
  j["jitter_samples"] = s.jitterSamples;
  j["interarrival_frames"] = s.frames;
  j["interarrival_ave_us"] = s.interarrivalAveUs;
  j["interarrival_max_us"] = s.interarrivalMaxUs;
  j["interarrival_var_us2"] = s.interarrivalVarUs2;
  j["cwnd"] = s.cwnd;
  return j;
}

/// iperf3's interval/summary object of a receiving stream, plus its UDP figures and ours.
json streamJson(int socket, Duration start, Duration end, const app::PerfFlowStats& s)
{
  json j;
  if (socket > 0)
    j["socket"] = socket;
  j["start"] = toSeconds(start);
  j["end"] = toSeconds(end);
  j["seconds"] = toSeconds(end - start);
  j["bytes"] = s.bytes;
  j["bits_per_second"] = bps(s.bytes, end - start);
  j["retransmits"] = s.retransmissions;
  j["jitter_ms"] = s.jitterMs;
  j["lost_packets"] = s.lost;
  j["packets"] = s.packets();
  j["lost_percent"] = s.lostPercent();
  j["omitted"] = false;
  j["sender"] = false;
  j["ndn"] = ndnJson(s);
  return j;
}

json reportJson(const app::PerfReport& r, const app::PerfClientOptions& o, const std::string& error)
{
  json j;
  const std::time_t now = std::time(nullptr);
  char when[64];
  std::strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S GMT", std::gmtime(&now));
  json start;
  start["connected"] = json::array();
  for (size_t i = 0; i < o.parallel; ++i)
    start["connected"].push_back({{"socket", i + 1},
                                  {"local_host", ""},
                                  {"local_port", 0},
                                  {"remote_host", r.prefix.toUri()},
                                  {"remote_port", 0}});
  start["version"] = std::string("ndnlab perf ") + NDNLAB_VERSION;
  start["system_info"] = systemInfo();
  start["timestamp"] = {{"time", when}, {"timesecs", static_cast<int64_t>(now)}};
  start["connecting_to"] = {{"host", r.prefix.toUri()}, {"port", 0}};
  start["cookie"] = app::perf::sessionText(r.session);
  start["target_bitrate"] = o.bitrate;
  start["test_start"] = {{"protocol", "NDN"},
                         {"num_streams", o.parallel},
                         {"blksize", o.payload},
                         {"omit", 0},
                         {"duration", o.bytes > 0 ? 0.0 : toSeconds(o.duration)},
                         {"bytes", o.bytes},
                         {"blocks", 0},
                         {"reverse", 1},
                         {"tos", 0},
                         {"target_bitrate", o.bitrate},
                         {"bidir", 0},
                         {"fqrate", 0},
                         {"interval", toSeconds(o.interval)}};
  start["ndn"] = {{"prefix", r.prefix.toUri()},
                  {"session", app::perf::sessionText(r.session)},
                  {"mode", r.mode},
                  {"pipeline", r.pipeline},
                  {"payload", o.payload}};
  j["start"] = start;

  json intervals = json::array();
  for (const auto& iv : r.intervals) {
    json streams = json::array();
    for (size_t i = 0; i < iv.flows.size(); ++i)
      streams.push_back(streamJson(static_cast<int>(i + 1), iv.start, iv.end, iv.flows[i]));
    intervals.push_back({{"streams", streams}, {"sum", streamJson(0, iv.start, iv.end, iv.sum)}});
  }
  j["intervals"] = intervals;

  const Duration el = r.elapsed;
  json end;
  json streams = json::array();
  for (size_t i = 0; i < r.flows.size(); ++i) {
    json s = streamJson(static_cast<int>(i + 1), Duration::zero(), el, r.flows[i]);
    json entry;
    // what the server sent on the flow (its stats reply), with the retransmissions the consumer
    // drove: iperf3's sender side of a reverse test
    const auto* sent = r.server && r.server->flows.count(i) ? &r.server->flows.at(i) : nullptr;
    entry["sender"] = {{"socket", i + 1},
                       {"start", 0.0},
                       {"end", toSeconds(el)},
                       {"seconds", toSeconds(el)},
                       {"bytes", sent ? sent->bytes : 0},
                       {"bits_per_second", bps(sent ? sent->bytes : 0, el)},
                       {"retransmits", r.flows[i].retransmissions},
                       {"packets", sent ? sent->data : 0},
                       {"sender", true}};
    entry["receiver"] = s;
    if (r.mode == "paced") {
      json u = s;
      u["out_of_order"] = 0;
      entry["udp"] = u;
    }
    streams.push_back(entry);
  }
  end["streams"] = streams;
  const uint64_t sentBytes = r.server ? r.server->bytes : 0;
  end["sum_sent"] = {{"start", 0.0},
                     {"end", toSeconds(el)},
                     {"seconds", toSeconds(el)},
                     {"bytes", sentBytes},
                     {"bits_per_second", bps(sentBytes, el)},
                     {"retransmits", r.sum.retransmissions},
                     {"jitter_ms", 0.0},
                     {"lost_packets", 0},
                     {"packets", r.server ? r.server->data : 0},
                     {"lost_percent", 0.0},
                     {"sender", true}};
  json received = streamJson(0, Duration::zero(), el, r.sum);
  received.erase("ndn");
  end["sum_received"] = received;
  end["sum"] = streamJson(0, Duration::zero(), el, r.sum);
  json cpu = {{"host_total", 0.0},   {"host_user", 0.0},   {"host_system", 0.0},
              {"remote_total", 0.0}, {"remote_user", 0.0}, {"remote_system", 0.0}};
  if (r.cpu) {
    cpu["host_total"] = percentOf(r.cpu->user + r.cpu->system, el);
    cpu["host_user"] = percentOf(r.cpu->user, el);
    cpu["host_system"] = percentOf(r.cpu->system, el);
  }
  if (r.server && r.server->cpu) {
    const Duration se = r.server->elapsed;
    cpu["remote_total"] = percentOf(r.server->cpu->user + r.server->cpu->system, se);
    cpu["remote_user"] = percentOf(r.server->cpu->user, se);
    cpu["remote_system"] = percentOf(r.server->cpu->system, se);
  }
  end["cpu_utilization_percent"] = cpu;
  json ndn = ndnJson(r.sum);
  ndn["server_stats"] = r.server.has_value();
  if (r.server)
    ndn["server"] = {{"interests", r.server->interests},
                     {"data", r.server->data},
                     {"bytes", r.server->bytes},
                     {"nacks", r.server->nacks},
                     {"elapsed_s", toSeconds(r.server->elapsed)}};
  end["ndn"] = ndn;
  j["end"] = end;
  if (!error.empty())
    j["error"] = error;
  return j;
}

std::string bytesText(uint64_t n)
{
  char buf[32];
  const double v = static_cast<double>(n);
  if (n >= (1ULL << 30))
    std::snprintf(buf, sizeof(buf), "%.2f GBytes", v / (1ULL << 30));
  else if (n >= (1ULL << 20))
    std::snprintf(buf, sizeof(buf), "%.1f MBytes", v / (1ULL << 20));
  else if (n >= (1ULL << 10))
    std::snprintf(buf, sizeof(buf), "%.1f KBytes", v / (1ULL << 10));
  else
    std::snprintf(buf, sizeof(buf), "%llu Bytes", static_cast<unsigned long long>(n));
  return buf;
}

std::string rateText(double bitsPerSecond)
{
  char buf[32];
  if (bitsPerSecond >= 1e9)
    std::snprintf(buf, sizeof(buf), "%.2f Gbits/sec", bitsPerSecond / 1e9);
  else if (bitsPerSecond >= 1e6)
    std::snprintf(buf, sizeof(buf), "%.1f Mbits/sec", bitsPerSecond / 1e6);
  else
    std::snprintf(buf, sizeof(buf), "%.1f Kbits/sec", bitsPerSecond / 1e3);
  return buf;
}

/// One iperf3-style line: "[  1]   0.00-1.00   sec  1.2 MBytes  10.0 Mbits/sec  retx lost/total jitter".
std::string lineText(const std::string& id, Duration start, Duration end, const app::PerfFlowStats& s,
                     const std::string& tail = {})
{
  char buf[256];
  std::snprintf(buf, sizeof(buf), "[%s] %6.2f-%-6.2f sec  %12s  %16s  %5llu  %llu/%llu (%.2g%%)  %.3f ms%s\n",
                id.c_str(), toSeconds(start), toSeconds(end), bytesText(s.bytes).c_str(),
                rateText(bps(s.bytes, end - start)).c_str(), static_cast<unsigned long long>(s.retransmissions),
                static_cast<unsigned long long>(s.lost), static_cast<unsigned long long>(s.packets()), s.lostPercent(),
                s.jitterMs, tail.c_str());
  return buf;
}

std::string flowId(size_t i)
{
  std::string id = std::to_string(i + 1);
  return std::string(id.size() < 3 ? 3 - id.size() : 0, ' ') + id;
}

std::string reportText(const app::PerfReport& r)
{
  std::string t = "- - - - - - - - - - - - - - - - - - - - - - - - -\n";
  t += "[ ID] Interval           Transfer      Bitrate            Retr  Lost/Total     Jitter\n";
  for (size_t i = 0; i < r.flows.size(); ++i)
    t += lineText(flowId(i), Duration::zero(), r.elapsed, r.flows[i], "  receiver");
  if (r.flows.size() > 1)
    t += lineText("SUM", Duration::zero(), r.elapsed, r.sum, "  receiver");
  if (r.server) {
    char buf[200];
    std::snprintf(buf, sizeof(buf), "[SUM] %6.2f-%-6.2f sec  %12s  %16s  sender (server: %llu Data, %llu Nacks)\n", 0.0,
                  toSeconds(r.elapsed), bytesText(r.server->bytes).c_str(),
                  rateText(bps(r.server->bytes, r.elapsed)).c_str(), static_cast<unsigned long long>(r.server->data),
                  static_cast<unsigned long long>(r.server->nacks));
    t += buf;
  }
  else {
    t += "(no stats reply from the server)\n";
  }
  const auto& s = r.sum;
  char buf[400];
  std::snprintf(buf, sizeof(buf),
                "NDN: %llu Interests, %llu retransmitted, %llu timeouts, %llu Nacks, %llu congestion marks\n"
                "RTT min/avg/max = %.3f/%.3f/%.3f ms\n"
                "Jitter (RFC 3550) %.3f ms; inter-arrival (Cefore) ave %.1f us, max %.1f us, var %.1f us^2\n",
                static_cast<unsigned long long>(s.interests), static_cast<unsigned long long>(s.retransmissions),
                static_cast<unsigned long long>(s.timeouts), static_cast<unsigned long long>(s.nacks),
                static_cast<unsigned long long>(s.marks), toMillis(s.rttMin), toMillis(s.rttAvg), toMillis(s.rttMax),
                s.jitterMs, s.interarrivalAveUs, s.interarrivalMaxUs, s.interarrivalVarUs2);
  t += buf;
  if (r.cpu) {
    std::snprintf(buf, sizeof(buf), "CPU Utilization: local/receiver %.1f%% (%.1f%%u/%.1f%%s)",
                  percentOf(r.cpu->user + r.cpu->system, r.elapsed), percentOf(r.cpu->user, r.elapsed),
                  percentOf(r.cpu->system, r.elapsed));
    t += buf;
    if (r.server && r.server->cpu) {
      const auto& c = *r.server->cpu;
      std::snprintf(buf, sizeof(buf), ", remote/sender %.1f%% (%.1f%%u/%.1f%%s)",
                    percentOf(c.user + c.system, r.server->elapsed), percentOf(c.user, r.server->elapsed),
                    percentOf(c.system, r.server->elapsed));
      t += buf;
    }
    t += "\n";
  }
  return t;
}

int runServer(int argc, char** argv)
{
  if (argc == 2 && std::string_view(argv[1]) == "--print-options-table") {
    std::fputs(optionsTable(app::PerfServerOptions{}).c_str(), stdout);
    return exitcode::Ok;
  }
  std::string name;
  app::PerfServerOptions so;
  SigningOptions signing;
  bool noRegister = false;
  Verbosity verbosity;
  ConnectionOptions connection;
  CLI::App app{"Answer every perf client Interest under PREFIX with Data made on demand\n"
               "(any session, any flow, any segment; payload size as the client asks), and each\n"
               "client's final stats Interest with the session's figures and CPU time.",
               "ndnlab perf server"};
  app.add_option("PREFIX", name, "Prefix to serve")->required();
  addFieldOptions(app, so); // core/app/perf-server-fields.hpp
  addSigningOptions(app, signing);
  app.add_flag("--no-register", noRegister, "Do not register the prefix (a route exists already)");
  addVerbosityOptions(app, verbosity);
  addConnectionOptions(app, connection);
  if (auto rc = parseCommandLine(app, argc, argv))
    return *rc;
  auto prefix = parseNameArgument(name);
  if (!prefix)
    return exitcode::BadArgs;
  std::unique_ptr<security::Signer> signer;
  try {
    signer = makeSigner(signing);
    so.validate();
  }
  catch (const std::invalid_argument& e) {
    printError(e.what());
    return exitcode::BadArgs;
  }

  ToolRuntime rt(verbosity.logLevel());
  auto conn = ForwarderConnection::open(rt, connection);
  if (!conn)
    return rt.failureExitCode();
  app::PerfServer server(rt.env, *conn, *prefix, *signer, so);
  server.cpuTimes = processCpu;
  server.onSessionStats = [&](uint64_t session, const app::perf::ServerReport& r) {
    if (verbosity.quiet)
      return;
    std::cerr << "session " << app::perf::sessionText(session) << ": " << r.data << " Data, " << bytesText(r.bytes)
              << " in " << formatFixed(toSeconds(r.elapsed), 2) << " s, " << r.nacks << " Nacks" << std::endl;
  };
  int rc = exitcode::Ok;
  conn->failOnClose(rt, rc);
  rt.onSignal = [&](int) { rt.stop(); };
  MgmtClient mgmt(rt.env, *conn);
  auto announce = [&] {
    if (!verbosity.quiet)
      std::cerr << "Server listening on " << server.prefix() << std::endl;
  };
  mgmt.servePrefix(rt, server.prefix(), noRegister, rc, announce);
  rt.run();
  if (!verbosity.quiet) {
    const auto& c = server.counters();
    std::cerr << "Served " << c.data << " Data (" << c.bytes << " content bytes) in " << c.sessions << " session(s); "
              << c.interests << " Interests, " << c.statsSent << " stats replies, " << c.nacks << " Nacks (malformed "
              << c.malformed << ", too large " << c.tooLarge << ", beyond end " << c.beyondEnd << ")" << std::endl;
  }
  return rc;
}

int runClient(int argc, char** argv)
{
  std::string name;
  app::PerfClientOptions po;
  double seconds = toSeconds(po.duration);
  double intervalSeconds = toSeconds(po.interval);
  std::string bytesArg, bitrateArg;
  bool jsonOut = false;
  Verbosity verbosity;
  ConnectionOptions connection;
  CLI::App app{"Measure throughput, loss, RTT and jitter from a perf server under PREFIX, with\n"
               "iperf3's options and report (-J: iperf3's JSON). Exit codes: 0 the test ran, 1 it\n"
               "failed (forwarder, a flow's retries), 2 bad arguments, 130 interrupted (after the report).",
               "ndnlab perf client"};
  app.add_option("PREFIX", name, "Prefix of the perf server")->required();
  auto* t = app.add_option("-t,--time", seconds, "Length of the test (seconds)")
              ->check(check::positive(1e9))
              ->capture_default_str();
  app.add_option("-n,--bytes", bytesArg, "Content bytes to fetch over all flows instead of -t (K/M/G/T: x1024)")
    ->excludes(t);
  app.add_option("-i,--interval", intervalSeconds, "Seconds between interval reports; 0: none")
    ->check(check::nonNegative(1e9))
    ->capture_default_str();
  addUnsignedOption(app, "-P,--parallel", po.parallel, "Parallel flows", 1, 128)->capture_default_str();
  addUnsignedOption(app, "-l,--length", po.payload, "Content bytes per Data, asked of the server in the name", 16, 8400)
    ->capture_default_str();
  app.add_option("-b,--bitrate", bitrateArg,
                 "Paced mode (iperf3's UDP test): content bits per second per flow, Interests at that rate, "
                 "nothing retransmitted, loss counted (12M, 1.5G); 0: the window pipeline of --cc");
  app.add_flag("-J,--json", jsonOut, "Print the report as iperf3's JSON on stdout");
  // the consumer's pipeline options, as `ndnlab get` has them; -l and -f are iperf3's here
  addFieldOptions(app, po.fetch, {"-l", "-f"});
  addVerbosityOptions(app, verbosity);
  addConnectionOptions(app, connection);
  if (auto rc = parseCommandLine(app, argc, argv))
    return *rc;
  auto prefix = parseNameArgument(name);
  if (!prefix)
    return exitcode::BadArgs;
  if (!bytesArg.empty()) {
    auto n = parseByteCount(bytesArg);
    if (!n || *n == 0) {
      std::cerr << "ndnlab perf client: --bytes: must be a positive byte count (digits, optional K/M/G/T), got '"
                << bytesArg << "'\n";
      return exitcode::BadArgs;
    }
    po.bytes = *n;
  }
  if (!bitrateArg.empty()) {
    auto b = parseBitRate(bitrateArg);
    if (!b) {
      std::cerr << "ndnlab perf client: --bitrate: must be a bit rate (12M, 1.5Gbit/s, 500000), got '" << bitrateArg
                << "'\n";
      return exitcode::BadArgs;
    }
    po.bitrate = *b;
  }
  po.duration = std::chrono::duration_cast<Duration>(std::chrono::duration<double>(seconds));
  po.interval = std::chrono::duration_cast<Duration>(std::chrono::duration<double>(intervalSeconds));
  try {
    po.validate();
  }
  catch (const std::invalid_argument& e) {
    std::cerr << "ndnlab perf client: " << e.what() << "\n";
    return exitcode::BadArgs;
  }

  ToolRuntime rt(verbosity.logLevel());
  auto conn = ForwarderConnection::open(rt, connection);
  if (!conn)
    return rt.failureExitCode();

  int rc = exitcode::Ok;
  std::string failure;
  app::PerfClient client(rt.env, *conn, po);
  client.cpuTimes = processCpu;
  const bool text = !jsonOut && !verbosity.quiet;
  client.onInterval = [&](const app::PerfInterval& iv) {
    if (!text)
      return;
    std::string out;
    for (size_t i = 0; i < iv.flows.size(); ++i)
      out += lineText(flowId(i), iv.start, iv.end, iv.flows[i]);
    if (iv.flows.size() > 1)
      out += lineText("SUM", iv.start, iv.end, iv.sum);
    std::fputs(out.c_str(), stdout);
    std::fflush(stdout);
  };
  std::optional<app::PerfReport> report;
  client.onDone = [&](const app::PerfReport& r) {
    report = r;
    rt.stop();
  };
  conn->onClose = [&](const std::string& reason) {
    failure = reason;
    rc = exitcode::Failure;
    client.stop();
    rt.stop();
  };
  rt.onSignal = [&](int) {
    if (rc == exitcode::Interrupted) { // a second one: stop waiting for the server
      client.stop();
      rt.stop();
      return;
    }
    rc = exitcode::Interrupted;
    client.finishNow();
  };
  client.start(*prefix);
  if (text) {
    std::printf("Connecting to %s, session %s: %zu flow(s), %s %s, %zu-byte payload\n", prefix->toUri().c_str(),
                app::perf::sessionText(client.session()).c_str(), po.parallel, std::string(po.mode()).c_str(),
                po.bitrate > 0 ? rateText(static_cast<double>(po.bitrate)).c_str() : po.fetch.pipeline.c_str(),
                po.payload);
    std::printf("[ ID] Interval           Transfer      Bitrate            Retr  Lost/Total     Jitter\n");
    std::fflush(stdout);
  }
  rt.run();

  if (report && report->error) {
    failure = *report->error;
    rc = exitcode::Failure;
  }
  if (jsonOut) {
    app::PerfReport empty;
    empty.prefix = *prefix;
    empty.session = client.session();
    std::cout << reportJson(report ? *report : empty, po, failure).dump(2) << std::endl;
  }
  else if (report && !verbosity.quiet) {
    std::fputs(reportText(*report).c_str(), stdout);
  }
  if (!failure.empty() && !jsonOut)
    printError(failure);
  return rc;
}

} // namespace

int runPerf(int argc, char** argv)
{
  static const Subcommand subs[] = {{"server", runServer}, {"client", runClient}};
  return runSubcommand("perf", "Measure an NDN path as iperf3 measures an IP one (docs/tools.md).",
                       "usage: ndnlab perf server PREFIX [options] | ndnlab perf client PREFIX [options]\n"
                       "       ndnlab perf server --help | ndnlab perf client --help\n",
                       subs, argc, argv);
}

} // namespace ndnlab::tools
