#include "tools/common/runtime.hpp"

#include <asio/post.hpp>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace ndnlab::tools {

void addVerbosityOptions(CLI::App& app, Verbosity& v)
{
  app.add_flag("-v,--verbose", v.verbose, "Print debug logs on stderr");
  app.add_flag("-q,--quiet", v.quiet, "Print only errors");
}

namespace {

/// When parsing stopped because a (sub)command needs a subcommand: the message naming the word
/// given instead, if any, and the subcommands there are. CLI11 only says "A subcommand is
/// required", also for `ndnlab ctl frobnicate`.
std::optional<std::string> missingSubcommandMessage(CLI::App& app)
{
  CLI::App* at = &app;
  std::string path = app.get_name();
  while (!at->get_subcommands().empty()) {
    at = at->get_subcommands().front();
    path += " " + at->get_name();
  }
  if (at->get_require_subcommand_min() == 0)
    return std::nullopt;
  std::string names;
  for (const auto* sub : at->get_subcommands(std::function<bool(CLI::App*)>{}))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  for (const auto& word : app.remaining(true)) {
    if (!word.empty() && word[0] != '-')
      return path + ": unknown subcommand '" + word + "' (expected one of: " + names + ")";
  }
  return path + ": a subcommand is required (one of: " + names + ")";
}

} // namespace

std::optional<int> parseCommandLine(CLI::App& app, int argc, char** argv)
{
  try {
    app.parse(argc, argv);
  }
  catch (const CLI::CallForHelp& e) {
    std::cout << app.help();
    return exitcode::Ok;
  }
  catch (const CLI::CallForAllHelp& e) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return exitcode::Ok;
  }
  catch (const CLI::RequiredError& e) {
    auto message = missingSubcommandMessage(app);
    std::cerr << (message ? *message : app.get_name() + ": " + e.what()) << "\n"
              << "Run with --help for more information.\n";
    return exitcode::BadArgs;
  }
  catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": " << e.what() << "\n"
              << "Run with --help for more information.\n";
    return exitcode::BadArgs;
  }
  return std::nullopt;
}

std::optional<Name> parseNameArgument(const std::string& text)
{
  if (text.empty()) {
    printError("empty name (the root name is '/')");
    return std::nullopt;
  }
  auto n = Name::parse(text);
  if (!n) {
    printError("invalid name '" + text + "': " + n.error());
    return std::nullopt;
  }
  return n.value();
}

namespace check {

std::string numberText(double x)
{
  std::ostringstream os;
  os << x;
  return os.str();
}

namespace {

/// `text` as a finite double, the whole string; nullopt otherwise.
std::optional<double> parseNumber(const std::string& text)
{
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    return std::nullopt;
  char* end = nullptr;
  errno = 0;
  double x = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(x))
    return std::nullopt;
  return x;
}

/// A validator of numbers in [min, max] (`minExclusive`: (min, max]): "must be <expected>"
/// below min or when not a finite number, "must be at most <max>" above max.
CLI::Validator numberValidator(double min, bool minExclusive, double max, std::string expected, std::string description)
{
  return CLI::Validator(
    [=](std::string& text) -> std::string {
      auto x = parseNumber(text);
      if (!x || *x < min || (minExclusive && *x == min))
        return "must be " + expected + ", got '" + text + "'";
      if (*x > max)
        return "must be at most " + numberText(max) + ", got '" + text + "'";
      return {};
    },
    std::move(description));
}

} // namespace

CLI::Validator positive(double max)
{
  return numberValidator(0, true, max, "a positive number", "POSITIVE");
}

CLI::Validator nonNegative(double max)
{
  return numberValidator(0, false, max, "a number >= 0", "NONNEGATIVE");
}

CLI::Validator between(double min, double max)
{
  std::string range = numberText(min) + " to " + numberText(max);
  return numberValidator(min, false, max, "a number from " + range,
                         "[" + numberText(min) + " - " + numberText(max) + "]");
}

CLI::Validator fraction(bool oneIncluded)
{
  std::string interval = oneIncluded ? "(0, 1]" : "(0, 1)";
  return CLI::Validator(
    [=](std::string& text) -> std::string {
      auto x = parseNumber(text);
      if (!x || *x <= 0 || *x > 1 || (!oneIncluded && *x == 1))
        return "must be a number in " + interval + ", got '" + text + "'";
      return {};
    },
    interval);
}

CLI::Validator integerBetween(int64_t min, int64_t max)
{
  std::string range = std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
    [min, max, range](std::string& text) -> std::string {
      size_t digits = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
      bool ok = text.size() > digits && text.find_first_not_of("0123456789", digits) == std::string::npos;
      errno = 0;
      long long v = ok ? std::strtoll(text.c_str(), nullptr, 10) : 0;
      if (!ok || errno == ERANGE || v < min || v > max)
        return "must be an integer from " + range + ", got '" + text + "'";
      text = std::to_string(v); // no leading zeros: CLI11 would read "010" as octal
      return {};
    },
    "[" + std::to_string(min) + " - " + std::to_string(max) + "]");
}

CLI::Validator unsignedInteger(uint64_t min, uint64_t max)
{
  std::string expected;
  if (max != std::numeric_limits<uint64_t>::max())
    expected = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  else if (min == 0)
    expected = "a non-negative integer";
  else if (min == 1)
    expected = "a positive integer";
  else
    expected = "an integer >= " + std::to_string(min);
  std::string description;
  if (max != std::numeric_limits<uint64_t>::max())
    description = "[" + std::to_string(min) + " - " + std::to_string(max) + "]";
  return CLI::Validator(
    [min, max, expected](std::string& text) -> std::string {
      bool ok = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
      errno = 0;
      unsigned long long v = ok ? std::strtoull(text.c_str(), nullptr, 10) : 0;
      if (!ok || errno == ERANGE || v < min || v > max)
        return "must be " + expected + ", got '" + text + "'";
      text = std::to_string(v); // no leading zeros: CLI11 would read "010" as octal
      return {};
    },
    description);
}

CLI::Validator nonEmpty()
{
  return CLI::Validator([](std::string& text) -> std::string { return text.empty() ? "must not be empty" : ""; }, "");
}

} // namespace check

Duration millisArgument(double ms)
{
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(ms));
}

ToolRuntime::ToolRuntime(LogLevel level, const std::string& traceFile)
  : env(io,
        [&] {
          io::AsioEnvOptions o;
          o.logLevel = level;
          o.traceCounters = false; // the tools report from the engines' own statistics
          o.traceFile = traceFile;
          return o;
        }()),
    m_signals(io, SIGINT, SIGTERM)
{
  m_signals.async_wait([this](const std::error_code& ec, int sig) {
    if (ec)
      return;
    m_signalled = true;
    if (onSignal)
      onSignal(sig);
    else
      stop();
  });
}

bool ToolRuntime::interrupted()
{
  if (!m_signalled) {
    io.poll();
    io.restart(); // run() may still follow
  }
  return m_signalled;
}

int ToolRuntime::failureExitCode()
{
  return interrupted() ? exitcode::Interrupted : exitcode::Failure;
}

ToolRuntime::~ToolRuntime()
{
  std::error_code ec;
  m_signals.cancel(ec);
}

void ToolRuntime::run()
{
  io.run();
}

void ToolRuntime::stop()
{
  // Posted, so handlers already queued (e.g. the flush of a reply just sent) run first.
  asio::post(io, [this] { io.stop(); });
}

int runSubcommand(std::string_view command, std::string_view description, std::string_view usage,
                  std::span<const Subcommand> subs, int argc, char** argv)
{
  std::string names;
  for (const auto& s : subs)
    names += (names.empty() ? "" : ", ") + std::string(s.name);
  if (argc < 2) {
    std::cerr << "ndnlab " << command << ": missing subcommand (expected one of: " << names << ")\n" << usage;
    return exitcode::BadArgs;
  }
  const std::string_view sub = argv[1];
  if (sub == "-h" || sub == "--help") {
    std::cout << description << "\n" << usage;
    return exitcode::Ok;
  }
  for (const auto& s : subs)
    if (s.name == sub)
      return s.run(argc - 1, argv + 1);
  std::cerr << "ndnlab " << command << ": unknown subcommand '" << sub << "' (expected one of: " << names << ")\n";
  return exitcode::BadArgs;
}

std::span<const BuiltinCommand> builtinCommands()
{
  static const BuiltinCommand commands[] = {
    {"get", "Fetch a named object and write its bytes (like ndnget/ndncatchunks)", runGet},
    {"serve", "Publish a file or stdin as segmented Data (like ndnserve/ndnputchunks)", runServe},
    {"ping", "Reachability test of a name prefix (like ndnping)", runPing},
    {"pingserver", "Answer ping Interests under a prefix (like ndnpingserver)", runPingServer},
    {"perf", "Measure throughput, loss, RTT and jitter of a path (like iperf3): server, client", runPerf},
    {"stream", "Publish and play real-time video streams (NDN-RTC): publish, play", runStream},
    {"ctl", "Manage the forwarder: faces, routes, strategies, status (like nfdc)", runCtl},
  };
  return commands;
}

void printError(std::string_view message)
{
  std::cerr << "ERROR: " << message << std::endl;
}

} // namespace ndnlab::tools
