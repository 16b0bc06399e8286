// `ndnlab ping PREFIX` and `ndnlab pingserver PREFIX` (ndnping / ndnpingserver).

#include "core/app/ping.hpp"
#include "tools/common/connection.hpp"
#include "tools/common/mgmt-client.hpp"
#include "tools/common/runtime.hpp"
#include "tools/common/summaries.hpp"

#include <cstdio>
#include <iostream>

namespace ndnlab::tools {

int runPing(int argc, char** argv)
{
  std::string prefixText;
  app::PingClientOptions po;
  double intervalMs = 1000;
  double timeoutMs = 4000;
  bool json = false;
  Verbosity verbosity;
  ConnectionOptions connection;

  CLI::App app{"Send Interests <PREFIX>/ping/<seq> at an interval and report replies, Nacks and\n"
               "timeouts with RTT statistics (like ndnping). Exit code 0 if any reply came back.",
               "ndnlab ping"};
  app.add_option("PREFIX", prefixText, "Prefix to ping")->required();
  addUnsignedOption(app, "-c,--count", po.count, "Number of pings (0 = until interrupted)")->capture_default_str();
  app.add_option("-i,--interval", intervalMs, "Time between pings (ms)")
    ->check(check::positive(check::MaxMillis))
    ->capture_default_str();
  app.add_option("-t,--timeout", timeoutMs, "Ping timeout = Interest lifetime (ms)")
    ->check(check::positive(check::MaxMillis))
    ->capture_default_str();
  addUnsignedOption(app, "-n,--start", po.startSeq, "First sequence number (default random)");
  app.add_flag("-a,--allow-stale", po.allowStale, "Do not set MustBeFresh");
  app.add_option("-p,--identifier", po.clientId, "Client identifier component after 'ping'")->check(check::nonEmpty());
  app.add_flag("--json", json, "Print the statistics as one JSON object instead of the text (the last line on stdout)");
  addVerbosityOptions(app, verbosity);
  addConnectionOptions(app, connection);
  if (auto rc = parseCommandLine(app, argc, argv))
    return *rc;

  auto prefix = parseNameArgument(prefixText);
  if (!prefix)
    return exitcode::BadArgs;
  po.interval = millisArgument(intervalMs);
  po.timeout = millisArgument(timeoutMs);

  ToolRuntime rt(verbosity.logLevel());
  auto conn = ForwarderConnection::open(rt, connection);
  if (!conn)
    return rt.failureExitCode();

  const std::string p = prefix->toUri();
  app::PingClient client(rt.env, *conn, *prefix, po);
  client.onReply = [&](uint64_t seq, Duration rtt) {
    if (!verbosity.quiet)
      std::printf("content from %s: seq=%llu time=%.3f ms\n", p.c_str(), static_cast<unsigned long long>(seq),
                  toMillis(rtt));
    std::fflush(stdout);
  };
  client.onNackReply = [&](uint64_t seq, Duration rtt, NackReason r) {
    if (!verbosity.quiet)
      std::printf("nack from %s: seq=%llu time=%.3f ms reason=%s\n", p.c_str(), static_cast<unsigned long long>(seq),
                  toMillis(rtt), std::string(toString(r)).c_str());
    std::fflush(stdout);
  };
  client.onTimeout = [&](uint64_t seq) {
    if (!verbosity.quiet)
      std::printf("timeout from %s: seq=%llu\n", p.c_str(), static_cast<unsigned long long>(seq));
    std::fflush(stdout);
  };
  client.onFinish = [&] { rt.stop(); };
  int rc = exitcode::Ok;
  conn->failOnClose(rt, rc);
  rt.onSignal = [&](int) { rt.stop(); };

  if (!verbosity.quiet)
    std::printf("PING %s\n", p.c_str());
  client.start();
  rt.run();
  client.stop();

  if (json)
    std::cout << formatPingJson(*prefix, client.stats(), client.elapsed()) << std::endl;
  else
    std::cout << formatPingSummary(*prefix, client.stats(), client.elapsed());
  if (rc == exitcode::Ok && client.stats().received == 0)
    rc = exitcode::Failure;
  return rc;
}

int runPingServer(int argc, char** argv)
{
  std::string prefixText;
  app::PingServerOptions so;
  double freshnessMs = 1000;
  std::string signing = "digest";
  Verbosity verbosity;
  ConnectionOptions connection;

  CLI::App app{"Answer Interests under <PREFIX>/ping with Data of the same name (like ndnpingserver).",
               "ndnlab pingserver"};
  app.add_option("PREFIX", prefixText, "Prefix to serve (registers <PREFIX>/ping)")->required();
  addUnsignedOption(app, "-s,--size", so.payloadSize, "Payload bytes of each reply", 0, 8800)->capture_default_str();
  app.add_option("-x,--freshness", freshnessMs, "FreshnessPeriod of replies (ms)")
    ->check(check::nonNegative(check::MaxMillis))
    ->capture_default_str();
  addUnsignedOption(app, "-p,--max-pings", so.maxPings, "Exit after answering this many (0 = never)")
    ->capture_default_str();
  app.add_option("--signing", signing, "Signature of replies")
    ->check(CLI::IsMember({"digest", "null"}))
    ->capture_default_str();
  addVerbosityOptions(app, verbosity);
  addConnectionOptions(app, connection);
  if (auto rc = parseCommandLine(app, argc, argv))
    return *rc;

  auto prefix = parseNameArgument(prefixText);
  if (!prefix)
    return exitcode::BadArgs;
  so.freshness = millisArgument(freshnessMs);

  ToolRuntime rt(verbosity.logLevel());
  auto conn = ForwarderConnection::open(rt, connection);
  if (!conn)
    return rt.failureExitCode();
  std::unique_ptr<security::Signer> signer;
  if (signing == "null")
    signer = std::make_unique<security::NullSigner>();
  else
    signer = std::make_unique<security::DigestSigner>();

  app::PingServer server(rt.env, *conn, *prefix, *signer, so);
  server.onPing = [&](const Name& n) {
    if (!verbosity.quiet)
      std::printf("interest received: %s\n", n.toUri().c_str());
    std::fflush(stdout);
  };
  server.onFinish = [&] { rt.stop(); };
  int rc = exitcode::Ok;
  conn->failOnClose(rt, rc);
  rt.onSignal = [&](int) { rt.stop(); };

  MgmtClient mgmt(rt.env, *conn);
  mgmt.servePrefix(rt, server.pingPrefix(), false, rc, [&] {
    if (!verbosity.quiet)
      std::printf("PING SERVER %s\n", server.pingPrefix().toUri().c_str());
    std::fflush(stdout);
  });
  rt.run();
  // Replies the connection could not send (its send queue toward a slow forwarder was full,
  // ...) are counted there; the summary says how many of the answered pings got no reply.
  if (!verbosity.quiet)
    std::printf("\n--- %s ping server statistics ---\n%llu packets processed, %llu replies dropped\n",
                prefix->toUri().c_str(), static_cast<unsigned long long>(server.answered()),
                static_cast<unsigned long long>(conn->outgoingDrops()));
  return rc;
}

} // namespace ndnlab::tools
