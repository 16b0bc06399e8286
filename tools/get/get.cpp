// `ndnlab get NAME [-o FILE]`: fetch a named object with app::SegmentFetcher (ndnget /
// ndncatchunks options and exit codes) and write its exact bytes to a file or stdout.

#include "core/app/segment-fetcher-fields.hpp"
#include "tools/common/connection.hpp"
#include "tools/common/option-flags.hpp"
#include "tools/common/runtime.hpp"
#include "tools/common/summaries.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <variant>

namespace ndnlab::tools {

namespace {

namespace fs = std::filesystem;

/// Where the bytes go. A regular FILE (or a new one) is written as a temporary file in its
/// directory that replaces FILE only after a complete fetch, so a fetch that fails, is
/// interrupted or fills the disk leaves FILE as it was. The temporary file is unnamed
/// (O_TMPFILE) until the fetch is complete, so even a SIGKILL leaves nothing behind; where the
/// file system cannot do that, it is a hidden file that only a SIGKILL can leave. Anything
/// else (stdout, a FIFO, /dev/null, a terminal) is written directly.
class Output
{
public:
  /// Opens the output of `path` ("" or "-": stdout); an error text on failure.
  static std::variant<Output, std::string> open(const std::string& path)
  {
    Output o;
    if (path.empty() || path == "-")
      return o;
    std::error_code ec;
    fs::path target = fs::weakly_canonical(path, ec); // through symlinks: replace their target
    if (ec)
      target = path;
    auto status = fs::status(target, ec);
    int fd = -1;
    std::string temp;
    if (!fs::exists(status) || fs::is_regular_file(status)) {
      std::tie(fd, temp) = openUnnamed(target.parent_path());
      if (fd < 0) {
        temp = hiddenName(target, "XXXXXX");
        fd = ::mkstemp(temp.data());
      }
    }
    if (fd < 0) {
      // not a regular file, or no temporary file possible (a directory we may not create files
      // in, holding a FILE we may write): in place; an error here is the one to report
      std::FILE* file = std::fopen(path.c_str(), "wb");
      if (file == nullptr)
        return "cannot open " + path + ": " + std::strerror(errno);
      o.m_file = file;
      return o;
    }
    struct stat st
    {};
    mode_t mode = 0;
    if (::stat(target.c_str(), &st) == 0) {
      mode = st.st_mode & 07777; // FILE keeps its permissions
    }
    else {
      mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask; // as a new file from fopen()
    }
    (void)::fchmod(fd, mode);
    std::FILE* file = ::fdopen(fd, "wb");
    if (file == nullptr) {
      ::close(fd);
      if (!isUnnamed(temp))
        ::unlink(temp.c_str());
      return "cannot write " + path + ": " + std::strerror(errno);
    }
    o.m_file = file;
    o.m_temp = temp;
    o.m_target = target.string();
    return o;
  }

  Output(Output&& other) noexcept
    : m_file(std::exchange(other.m_file, stdout)), m_temp(std::move(other.m_temp)), m_target(std::move(other.m_target))
  {
    other.m_temp.clear();
  }
  Output& operator=(Output&&) = delete;
  ~Output() { discard(); }

  std::FILE* stream() const { return m_file; }

  /// Flushes and closes; on success the temporary file becomes FILE. An error text on failure
  /// (FILE is then left as it was).
  std::string commit()
  {
    std::string error;
    if (std::fflush(m_file) != 0 || (!m_temp.empty() && ::fsync(::fileno(m_file)) != 0))
      error = std::string("write error: ") + std::strerror(errno);
    if (error.empty() && isUnnamed(m_temp))
      error = giveName(); // while the file is open
    if (m_file != stdout) {
      if (std::fclose(std::exchange(m_file, stdout)) != 0 && error.empty())
        error = std::string("write error: ") + std::strerror(errno);
    }
    if (!m_temp.empty()) {
      if (error.empty() && std::rename(m_temp.c_str(), m_target.c_str()) != 0)
        error = "cannot replace " + m_target + ": " + std::strerror(errno);
      if (error.empty())
        m_temp.clear();
    }
    discard();
    return error;
  }

  /// Closes and removes the temporary file: FILE stays as it was.
  void discard()
  {
    if (m_file != stdout)
      std::fclose(std::exchange(m_file, stdout)); // an unnamed temporary file vanishes here
    else
      std::fflush(stdout); // what a failed fetch had delivered, in order, as before
    if (!m_temp.empty() && !isUnnamed(m_temp))
      ::unlink(m_temp.c_str());
    m_temp.clear();
  }

private:
  Output() = default;

  /// An unnamed file in `dir` (O_TMPFILE), which no kill can leave behind, and the
  /// /proc/self/fd path that links it into `dir` at commit; {-1, ""} where the file system
  /// or a missing /proc cannot do that.
  static std::pair<int, std::string> openUnnamed(const fs::path& dir)
  {
    int fd = ::open(dir.empty() ? "." : dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0)
      return {-1, {}};
    std::string proc = "/proc/self/fd/" + std::to_string(fd);
    if (::access(proc.c_str(), F_OK) != 0) {
      ::close(fd);
      return {-1, {}};
    }
    return {fd, proc};
  }
  /// The hidden name of a temporary file beside FILE: ".FILE.ndnlab-get-<suffix>".
  static std::string hiddenName(const fs::path& target, const std::string& suffix)
  {
    return (target.parent_path() / ("." + target.filename().string() + ".ndnlab-get-" + suffix)).string();
  }
  static bool isUnnamed(const std::string& temp) { return temp.starts_with("/proc/self/fd/"); }

  /// Links the unnamed file into FILE's directory under a temporary name (m_temp becomes that
  /// name); an error text on failure.
  std::string giveName()
  {
    fs::path target(m_target);
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string name = hiddenName(target, std::to_string(::getpid()) + "-" + std::to_string(attempt));
      if (::linkat(AT_FDCWD, m_temp.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        m_temp = name;
        return {};
      }
      if (errno != EEXIST)
        return "cannot replace " + m_target + ": " + std::strerror(errno);
    }
    return "cannot replace " + m_target + ": " + std::strerror(EEXIST);
  }

  std::FILE* m_file = stdout;
  std::string m_temp; ///< non-empty: written here (a /proc/self/fd path while unnamed), renamed to m_target by commit()
  std::string m_target;
};

struct GetOptions
{
  std::string name;
  std::string output;               ///< empty or "-" = stdout
  app::SegmentFetcherOptions fetch; ///< the profile's, then the flags (core/app/segment-fetcher-fields.hpp)
  bool noDiscovery = false;
  std::string profile = "ndnlab";
  bool json = false;
  bool noProgress = false;
  std::string traceFile;
  Verbosity verbosity;
  ConnectionOptions connection;
};

std::string humanBytes(uint64_t n)
{
  char buf[32];
  if (n >= 1'000'000'000)
    std::snprintf(buf, sizeof(buf), "%.2f GB", static_cast<double>(n) / 1e9);
  else if (n >= 1'000'000)
    std::snprintf(buf, sizeof(buf), "%.2f MB", static_cast<double>(n) / 1e6);
  else if (n >= 1'000)
    std::snprintf(buf, sizeof(buf), "%.1f kB", static_cast<double>(n) / 1e3);
  else
    std::snprintf(buf, sizeof(buf), "%llu B", static_cast<unsigned long long>(n));
  return buf;
}

/// The consumer profile named on the command line ("--profile NAME" or "--profile=NAME"),
/// read before the other options because it sets their defaults; "ndnlab" when absent. An
/// unknown name is left for the option's own check to report.
std::string profileArgument(int argc, char** argv)
{
  const std::string_view flag = "--profile";
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--")
      break;
    if (a == flag && i + 1 < argc)
      return argv[i + 1];
    if (a.size() > flag.size() && a.substr(0, flag.size() + 1) == "--profile=")
      return std::string(a.substr(flag.size() + 1));
  }
  return "ndnlab";
}

} // namespace

int runGet(int argc, char** argv)
{
  // docs/tools.md embeds this table (tools/tests checks it); with --profile, that profile's
  // defaults
  if (argc >= 2 && std::string_view(argv[1]) == "--print-options-table") {
    const std::string_view second = argc > 2 ? argv[2] : "";
    const bool wellFormed =
      argc == 2 || (argc == 3 && second.starts_with("--profile=")) || (argc == 4 && second == "--profile");
    auto profile = app::fetcherProfile(profileArgument(argc, argv));
    if (!wellFormed || !profile) {
      std::string names;
      for (const std::string& n : app::fetcherProfiles())
        names += (names.empty() ? "" : ", ") + n;
      printError("usage: ndnlab get --print-options-table [--profile NAME]; profiles: " + names);
      return exitcode::BadArgs;
    }
    std::fputs(optionsTable(*profile).c_str(), stdout);
    return exitcode::Ok;
  }
  if (argc == 2 && std::string_view(argv[1]) == "--print-result-table") {
    std::string t = "| key | unit | meaning |\n|---|---|---|\n";
    app::visitMetrics(app::FetchStats{}, [&t](const fields::Metric& m, const auto&) {
      t += "| `" + std::string(m.key) + "` | " + std::string(m.unit) + " | " + std::string(m.doc) + " |\n";
    });
    std::fputs(t.c_str(), stdout);
    return exitcode::Ok;
  }
  GetOptions o;
  auto& f = o.fetch;
  o.profile = profileArgument(argc, argv);
  if (auto profile = app::fetcherProfile(o.profile))
    f = *profile;
  CLI::App app{"Fetch a named object (version discovery by RDR, pipelined segment retrieval) and\n"
               "write its bytes to stdout or a file. Options and exit codes follow ndnget/ndncatchunks:\n"
               "0 success, 1 failure, 2 bad arguments, 3 application-level Nack, 4 output file error.",
               "ndnlab get"};
  app.add_option("NAME", o.name, "Name of the object (versioned, or a prefix to discover)")->required();
  app.add_option("-o,--output", o.output, "Write the bytes to FILE instead of stdout ('-': stdout)")
    ->check(check::nonEmpty());
  app
    .add_option("--profile", o.profile,
                "Consumer behaviour whose defaults the other options change: ndnlab (losses found from "
                "the order Data return in, one window decrease per loss episode, failure only after "
                "consecutive silent timeouts, HyStart) or ndncatchunks (ndn-tools' consumer: timeouts only, "
                "the lost-segment CWA gate, every retransmission counted); docs/tools.md")
    ->check(CLI::IsMember(app::fetcherProfiles()))
    ->capture_default_str();
  addFieldOptions(app, f); // one flag per field of SegmentFetcherOptions
  app.add_flag("-D,--no-version-discovery", o.noDiscovery, "Fetch segments of NAME as given");
  app.add_flag("--json", o.json, "Print the summary as one JSON object (the last line on stderr)");
  app.add_flag("--no-progress", o.noProgress, "No progress line, even on a terminal");
  app
    .add_option("--trace", o.traceFile,
                "Write the fetcher's trace events (fetch_data, fetch_rtt, fetch_cwnd, ...) as JSON lines to FILE")
    ->check(check::nonEmpty());
  addVerbosityOptions(app, o.verbosity);
  addConnectionOptions(app, o.connection);
  app.final_callback([&f] {
    if (f.rtt.maxRto < f.rtt.minRto)
      throw CLI::ValidationError("--max-rto", "must not be below --min-rto (" +
                                                check::numberText(toMillis(f.rtt.maxRto)) + " < " +
                                                check::numberText(toMillis(f.rtt.minRto)) + " ms)");
  });
  if (auto rc = parseCommandLine(app, argc, argv))
    return *rc;

  auto name = parseNameArgument(o.name);
  if (!name)
    return exitcode::BadArgs;
  if (o.noDiscovery)
    f.discovery = app::VersionDiscovery::None;
  try {
    f.validate();
  }
  catch (const std::invalid_argument& e) {
    printError(e.what());
    return exitcode::BadArgs;
  }

  std::vector<char> outBuf(1 << 20); // outlives `output`, whose stream buffers in it
  auto opened = Output::open(o.output);
  if (auto* error = std::get_if<std::string>(&opened)) {
    printError(*error);
    return exitcode::FileError;
  }
  Output& output = std::get<Output>(opened);
  std::FILE* out = output.stream();
  std::setvbuf(out, outBuf.data(), _IOFBF, outBuf.size());

  ToolRuntime rt(o.verbosity.logLevel(), o.traceFile);
  auto conn = ForwarderConnection::open(rt, o.connection);
  if (!conn)
    return rt.failureExitCode();

  int rc = exitcode::Failure;
  std::string failure;
  app::SegmentFetcher fetcher(rt.env, *conn, f);
  fetcher.onBytes = [&](ByteSpan b) {
    if (std::fwrite(b.data(), 1, b.size(), out) != b.size() && failure.empty()) {
      failure = std::string("write error: ") + std::strerror(errno);
      rc = exitcode::FileError;
      fetcher.stop();
      rt.stop();
    }
  };
  fetcher.onComplete = [&] {
    rc = exitcode::Ok;
    rt.stop();
  };
  fetcher.onError = [&](const app::FetchError& e) {
    failure = e.message;
    rc = e.code == app::FetchErrc::ApplicationNack ? exitcode::AppNack : exitcode::Failure;
    rt.stop();
  };
  conn->onClose = [&](const std::string& reason) {
    if (fetcher.state() == app::SegmentFetcher::State::Done)
      return;
    failure = reason;
    rc = exitcode::Failure;
    fetcher.stop();
    rt.stop();
  };
  rt.onSignal = [&](int) {
    failure = "interrupted";
    rc = exitcode::Interrupted;
    fetcher.stop();
    rt.stop();
  };

  // progress line on a terminal
  const bool progress = !o.noProgress && !o.verbosity.quiet && !o.json && ::isatty(STDERR_FILENO);
  bool progressShown = false;
  std::function<void()> tick = [&] {
    auto s = fetcher.stats();
    if (fetcher.state() == app::SegmentFetcher::State::Fetching) {
      std::fprintf(stderr, "\r%s  %s  cwnd %.0f  rtx %llu   ", humanBytes(s.bytes.count()).c_str(),
                   formatRate(s.goodput()).c_str(), s.cwnd, static_cast<unsigned long long>(s.retransmissions));
      progressShown = true;
    }
    rt.env.timers().schedule(std::chrono::milliseconds(500), tick);
  };
  if (progress)
    rt.env.timers().schedule(std::chrono::milliseconds(500), tick);

  fetcher.start(*name);
  rt.run();

  if (progressShown)
    std::fprintf(stderr, "\r\033[K");
  if (rc == exitcode::Ok) {
    if (auto error = output.commit(); !error.empty()) {
      failure = error;
      rc = exitcode::FileError;
    }
  }
  else {
    output.discard();
  }

  auto stats = fetcher.stats();
  if (o.json) {
    // always stderr, as the last line: stdout may carry the bytes
    // the result fields of the fetch (app::visitMetrics), as the ns-3 scenarios write them
    nlohmann::ordered_json j;
    j["status"] = rc == exitcode::Ok ? "ok" : "error";
    if (!failure.empty())
      j["error"] = failure;
    app::visitMetrics(stats, [&j](const fields::Metric& m, const auto& v) { j[std::string(m.key)] = v; });
    // the process's own costs (docs/tools.md): its event loop's timer wake-ups and CPU time
    j["timer_wakeups"] = rt.env.asioTimers().wakeups();
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    j["cpu_s"] = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                 static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    std::cerr << j.dump() << std::endl;
  }
  else {
    if (rc != exitcode::Ok)
      printError(failure);
    else if (!o.verbosity.quiet)
      std::cerr << formatFetchSummary(stats, f.pipeline != "fixed");
  }
  return rc;
}

} // namespace ndnlab::tools
