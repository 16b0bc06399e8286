// The ndnlab executable: exit codes and messages of bad command lines (no forwarder needed),
// and ctl against a real ndnlabd (faces that do not exist, route expiry).
#include "tests/support/child-process.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace ndnlab::testsupport;
using namespace std::chrono_literals;

/// Runs `exe args...` with NDNLAB_SOCKET = `socket` (a path nobody listens on unless a test
/// starts ndnlabd there), so no test reaches a real forwarder.
pid_t spawnWithSocket(const std::string& exe, const std::vector<std::string>& args, const fs::path& out,
                      const fs::path& err, const fs::path& socket)
{
  return spawn(exe, args, out, err, [&socket] {
    ::setenv("NDNLAB_SOCKET", socket.c_str(), 1);
    ::unsetenv("NDN_CLIENT_TRANSPORT");
  });
}

constexpr auto ExitTimeout = 10000ms;

struct Outcome
{
  int rc = 0;
  std::string out;
  std::string err;
};

std::ostream& operator<<(std::ostream& os, const Outcome& r)
{
  return os << "rc=" << r.rc << "\nstdout: " << r.out << "\nstderr: " << r.err;
}

class NdnlabProcess : public ::testing::Test
{
protected:
  NdnlabProcess()
  {
    dir = freshTestDirectory("ndnlab-proc");
    socket = dir / "nfd.sock";
  }

  ~NdnlabProcess() override
  {
    if (daemonPid > 0) {
      ::kill(daemonPid, SIGTERM);
      waitExit(daemonPid, ExitTimeout);
    }
    fs::remove_all(dir);
  }

  /// Runs `ndnlab args...` to completion (killed after `timeout`).
  Outcome ndnlab(const std::vector<std::string>& args, std::chrono::milliseconds timeout = ExitTimeout)
  {
    ++runs;
    fs::path out = dir / ("out" + std::to_string(runs));
    fs::path err = dir / ("err" + std::to_string(runs));
    Outcome r;
    r.rc = waitExit(spawnWithSocket(NDNLAB_PATH, args, out, err, socket), timeout);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  /// Starts ndnlabd on `socket` (Unix socket only).
  void startDaemon()
  {
    std::ofstream(dir / "ndnlabd.toml") << "[face_system.unix]\npath = \"" << socket.string() << "\"\n"
                                        << "[face_system.tcp]\nport = 0\n[face_system.udp]\nport = 0\n";
    daemonPid = spawnWithSocket(NDNLABD_PATH, {"--config", (dir / "ndnlabd.toml").string()}, dir / "daemon.out",
                                dir / "daemon.err", socket);
    ASSERT_TRUE(waitFor([&] { return fs::exists(socket); })) << slurp(dir / "daemon.err");
  }

  fs::path dir;
  fs::path socket;
  pid_t daemonPid = -1;
  int runs = 0;
};

#define EXPECT_USAGE_ERROR(run, text)                                                                                  \
  do {                                                                                                                 \
    Outcome r_ = (run);                                                                                                \
    EXPECT_EQ(r_.rc, 2) << r_;                                                                                         \
    EXPECT_NE(r_.err.find(text), std::string::npos) << r_;                                                             \
    EXPECT_EQ(r_.out.find("18446744073709551"), std::string::npos) << r_;                                              \
  } while (false)

TEST_F(NdnlabProcess, NegativeUnsignedOptionsAreUsageErrors)
{
  // Every unsigned option of every tool: CLI11 alone reads "-1" as 2^64-1.
  const std::vector<std::vector<std::string>> commands = {
    {"ctl", "face", "destroy", "-1"},
    {"ctl", "face", "update", "-1", "--bundling", "on"},
    {"ctl", "face", "create", "udp4://127.0.0.1:6363", "--mtu", "-1"},
    {"ctl", "face", "create", "udp4://127.0.0.1:6363", "--bundle-interval", "-1"},
    {"ctl", "route", "add", "/x", "-1"},
    {"ctl", "route", "add", "/x", "1", "-5"},
    {"ctl", "route", "add", "/x", "1", "--origin", "-1"},
    {"ctl", "route", "add", "/x", "1", "--expires", "-1"},
    {"ctl", "route", "remove", "/x", "-1"},
    {"ctl", "route", "remove", "/x", "1", "--origin", "-1"},
    {"ping", "/x", "-c", "-1"},
    {"ping", "/x", "-n", "-1"},
    {"pingserver", "/x", "-p", "-1"},
    {"pingserver", "/x", "-s", "-1"},
    {"serve", "/x", "--version", "-1"},
    {"serve", "/x", "-s", "-1"},
    {"get", "/x", "--max-in-flight", "-1"},
    {"get", "/x", "--reorder-buffer", "-1"},
    {"perf", "client", "/x", "-P", "-1"},
    {"perf", "client", "/x", "-l", "-1"},
    {"perf", "server", "/x", "--max-payload", "-1"},
  };
  for (const auto& args : commands) {
    SCOPED_TRACE(args[0] + " ... " + args[args.size() - 2] + " " + args.back());
    EXPECT_USAGE_ERROR(ndnlab(args, 5000ms), "got '-");
  }
  EXPECT_USAGE_ERROR(
    ndnlab({"ctl", "face", "destroy", "-1"}),
    "FACE: must be a FaceId (a positive integer) or a FaceUri such as udp4://192.0.2.1:6363, got '-1'");
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "route", "add", "/x", "0"}),
                     "FACE: must be a FaceId (a positive integer) or a FaceUri, got '0'");
  EXPECT_USAGE_ERROR(ndnlab({"ping", "/x", "-c", "-1"}), "--count: must be a non-negative integer, got '-1'");
  // past the type, hexadecimal, and 0 where it means nothing
  EXPECT_USAGE_ERROR(ndnlab({"ping", "/x", "-c", "18446744073709551616"}), "--count: must be");
  EXPECT_USAGE_ERROR(ndnlab({"ping", "/x", "-c", "0x10"}), "--count: must be");
  EXPECT_USAGE_ERROR(ndnlab({"serve", "/x", "-s", "8801"}), "--size: must be an integer from 1 to 8800");
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "face", "update", "1", "--bundle-interval", "257"}),
                     "--bundle-interval: must be an integer from 0 to 256");
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "route", "add", "/x", "1", "--expires", "0"}),
                     "--expires: must be a positive integer, got '0'");
}

TEST_F(NdnlabProcess, NumericOptionsSayWhatIsExpected)
{
  EXPECT_USAGE_ERROR(ndnlab({"ping", "/x", "-i", "0"}), "--interval: must be a positive number, got '0'");
  EXPECT_USAGE_ERROR(ndnlab({"ping", "/x", "-i", "nan"}), "--interval: must be a positive number");
  EXPECT_USAGE_ERROR(ndnlab({"ping", "/x", "-t", "1e300"}), "--timeout: must be at most 1e+12, got '1e300'");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "-l", "-5"}), "--lifetime: must be a positive number");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--min-rto", "-1"}), "--min-rto: must be a positive number");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "-r", "-2"}), "--retries: must be an integer from -1 to 1024");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "-s", "0"}), "--pipeline-size: must be a number from 1 to 65536");
  EXPECT_USAGE_ERROR(ndnlab({"serve", "/x", "-f", "-1"}), "--freshness: must be a number >= 0");
  EXPECT_USAGE_ERROR(ndnlab({"pingserver", "/x", "-x", "-1"}), "--freshness: must be a number >= 0");
  EXPECT_USAGE_ERROR(ndnlab({"ping", "/x", "--mark-interval", "-1"}),
                     "--mark-interval: must be a number from 0 to 10000");
  // The engine's own checks (SegmentFetcherOptions::validate) would catch these too, but
  // without naming the option.
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--cubic-beta", "1"}), "--cubic-beta: must be a number in (0, 1), got '1'");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--aimd-beta", "0"}), "--aimd-beta: must be a number in (0, 1)");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--rto-alpha", "1.5"}), "--rto-alpha: must be a number in (0, 1]");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--rto-beta", "nan"}), "--rto-beta: must be a number in (0, 1]");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--aimd-step", "0"}), "--aimd-step: must be a positive number");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--init-ssthresh", "-3"}), "--init-ssthresh: must be a positive number");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--min-rto", "500", "--max-rto", "100"}),
                     "--max-rto: must not be below --min-rto (100 < 500 ms)");
  for (const auto& args : std::vector<std::vector<std::string>>{
         {"ping", "/x", "-i", "0"}, {"get", "/x", "-l", "-5"}, {"serve", "/x", "-f", "-1"}}) {
    Outcome r = ndnlab(args);
    EXPECT_EQ(r.err.find("not in range"), std::string::npos) << r;
    EXPECT_EQ(r.err.find("179769"), std::string::npos) << r;
  }
}

TEST_F(NdnlabProcess, EmptyNamesAndPathsAreUsageErrors)
{
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "-o", ""}), "--output: must not be empty");
  EXPECT_USAGE_ERROR(ndnlab({"get", ""}), "empty name");
  EXPECT_USAGE_ERROR(ndnlab({"serve", ""}), "empty name");
  EXPECT_USAGE_ERROR(ndnlab({"serve", "/x", ""}), "FILE: must not be empty");
  EXPECT_USAGE_ERROR(ndnlab({"ping", ""}), "empty name");
  EXPECT_USAGE_ERROR(ndnlab({"pingserver", ""}), "empty name");
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "route", "add", "", "1"}), "empty name");
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "strategy", "set", "/x", ""}), "STRATEGY: must not be empty");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--socket", ""}), "--socket: must not be empty");
}

TEST_F(NdnlabProcess, MalformedConnectIsAUsageError)
{
  EXPECT_USAGE_ERROR(ndnlab({"ping", "/x", "--connect", "foo://127.0.0.1:6363"}),
                     "--connect: unsupported face URI scheme 'foo'");
  EXPECT_USAGE_ERROR(ndnlab({"get", "/x", "--connect", "tcp4://127.0.0.1:99999"}), "--connect: bad port");
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "status", "--connect", "udp4://127.0.0.1:6363"}),
                     "--connect: a forwarder URI must be unix:// or tcp://");
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "status", "--connect", "127.0.0.1"}), "--connect: missing '://'");
  // a well-formed URI nobody listens on is a failure (1), not a usage error
  Outcome r = ndnlab({"ctl", "status", "--connect", "unix://" + (dir / "nobody.sock").string()});
  EXPECT_EQ(r.rc, 1) << r;
}

TEST_F(NdnlabProcess, ConnectionErrorsSayWhereTheAddressCameFrom)
{
  // Nobody listens on `socket` ($NDNLAB_SOCKET here): a stale variable must be easy to spot.
  Outcome r = ndnlab({"ctl", "status"});
  EXPECT_EQ(r.rc, 1) << r;
  EXPECT_NE(r.err.find("cannot connect to forwarder at unix://" + socket.string() +
                       ": No such file or directory (from $NDNLAB_SOCKET; is the forwarder running?"),
            std::string::npos)
    << r;
  r = ndnlab({"ping", "/x", "--socket", (dir / "other.sock").string()});
  EXPECT_EQ(r.rc, 1) << r;
  EXPECT_NE(r.err.find("(from --socket;"), std::string::npos) << r;

  // A malformed $NDN_CLIENT_TRANSPORT is named as such, without the connection hint.
  fs::path out = dir / "env.out", err = dir / "env.err";
  int rc = waitExit(spawn(NDNLAB_PATH, {"get", "/x"}, out, err,
                          [] {
                            ::unsetenv("NDNLAB_SOCKET");
                            ::setenv("NDN_CLIENT_TRANSPORT", "bogus", 1);
                          }),
                    ExitTimeout);
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(slurp(err), "ERROR: forwarder address from $NDN_CLIENT_TRANSPORT: missing '://' in face URI "
                        "'bogus' (use unix:///PATH, tcp4://HOST:PORT or tcp://HOST[:PORT])\n");
}

TEST_F(NdnlabProcess, UnknownSubcommandIsNamed)
{
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "frobnicate"}), "ndnlab ctl: unknown subcommand 'frobnicate'");
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "face", "frob"}), "ndnlab ctl face: unknown subcommand 'frob'");
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "face"}), "ndnlab ctl face: a subcommand is required");
  EXPECT_USAGE_ERROR(ndnlab({"ctl"}), "ndnlab ctl: a subcommand is required (one of: face, route,");
  // a required positional still says which
  EXPECT_USAGE_ERROR(ndnlab({"ctl", "face", "destroy"}), "FACE is required");
}

TEST_F(NdnlabProcess, FrontDoor)
{
  Outcome version = ndnlab({"--version"});
  EXPECT_EQ(version.rc, 0) << version;
  EXPECT_EQ(version.out.rfind("ndnlab ", 0), 0u) << version;
  EXPECT_USAGE_ERROR(ndnlab({"--version", "extra"}), "--version takes no arguments, got 'extra'");
  EXPECT_USAGE_ERROR(ndnlab({"version", "extra"}), "takes no arguments");
  EXPECT_USAGE_ERROR(ndnlab({"help", "get", "extra"}), "extra argument 'extra'");

  Outcome help = ndnlab({"help", "get"});
  EXPECT_EQ(help.rc, 0) << help;
  EXPECT_NE(help.out.find("--pipeline-size"), std::string::npos) << help;
  EXPECT_USAGE_ERROR(ndnlab({"help", "no-such-command"}), "no 'ndnlab-no-such-command' was found");

  // help of an external command runs `ndnlab-<command> --help`, found on PATH
  fs::path bin = dir / "bin";
  fs::create_directories(bin);
  std::ofstream(bin / "ndnlab-fake") << "#!/bin/sh\necho \"fake got: $*\"\n";
  fs::permissions(bin / "ndnlab-fake", fs::perms::owner_all);
  std::string oldPath = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (bin.string() + ":" + oldPath).c_str(), 1);
  Outcome ext = ndnlab({"help", "fake"});
  ::setenv("PATH", oldPath.c_str(), 1);
  EXPECT_EQ(ext.rc, 0) << ext;
  EXPECT_EQ(ext.out, "fake got: --help\n") << ext;
}

TEST_F(NdnlabProcess, CtlFaceThatDoesNotExist)
{
  startDaemon();
  Outcome r = ndnlab({"ctl", "face", "destroy", "99999"});
  EXPECT_EQ(r.rc, 1) << r;
  EXPECT_NE(r.err.find("Face not found: 99999"), std::string::npos) << r;
  EXPECT_EQ(r.out.find("face-destroyed"), std::string::npos) << r;
  r = ndnlab({"ctl", "route", "remove", "/x", "99999"});
  EXPECT_EQ(r.rc, 1) << r;
  EXPECT_NE(r.err.find("Face not found: 99999"), std::string::npos) << r;

  // a face that exists: a pingserver's; routes with an expiry show up, destroy works
  pid_t server = spawnWithSocket(NDNLAB_PATH, {"pingserver", "/t"}, dir / "ps.out", dir / "ps.err", socket);
  std::string faceId;
  ASSERT_TRUE(waitFor([&] {
    Outcome routes = ndnlab({"ctl", "route", "list"});
    std::smatch m;
    if (!std::regex_search(routes.out, m, std::regex("prefix=/t/ping nexthop=(\\d+)")))
      return false;
    faceId = m[1];
    return true;
  }))
    << slurp(dir / "ps.err");
  r = ndnlab({"ctl", "route", "add", "/e", faceId, "7", "--expires", "60000"});
  EXPECT_EQ(r.rc, 0) << r;
  EXPECT_NE(r.out.find("cost=7"), std::string::npos) << r;
  EXPECT_NE(r.out.find("expires=60s"), std::string::npos) << r;
  r = ndnlab({"ctl", "route", "list"});
  EXPECT_NE(r.out.find("prefix=/e nexthop=" + faceId), std::string::npos) << r;
  r = ndnlab({"ctl", "face", "destroy", faceId});
  EXPECT_EQ(r.rc, 0) << r;
  EXPECT_NE(r.out.find("face-destroyed id=" + faceId), std::string::npos) << r;
  EXPECT_EQ(waitExit(server, ExitTimeout), 1) << slurp(dir / "ps.err"); // its forwarder connection closed
}

// A FACE argument may be the face's remote URI, resolved by faces/query (as nfdc does).
TEST_F(NdnlabProcess, CtlFaceByUri)
{
  startDaemon();
  pid_t server = spawnWithSocket(NDNLAB_PATH, {"pingserver", "/t"}, dir / "ps.out", dir / "ps.err", socket);
  std::string faceId;
  ASSERT_TRUE(waitFor([&] {
    std::smatch m;
    std::string routes = ndnlab({"ctl", "route", "list"}).out;
    if (!std::regex_search(routes, m, std::regex("prefix=/t/ping nexthop=(\\d+)")))
      return false;
    faceId = m[1];
    return true;
  }))
    << slurp(dir / "ps.err");
  std::smatch m;
  std::string faces = ndnlab({"ctl", "face", "list"}).out;
  ASSERT_TRUE(std::regex_search(faces, m, std::regex("faceid=" + faceId + " remote=(\\S+)"))) << faces;
  const std::string remote = m[1]; // fd://N: the server's end of the Unix socket

  Outcome r = ndnlab({"ctl", "face", "list", "--remote", remote});
  EXPECT_EQ(r.rc, 0) << r;
  EXPECT_EQ(r.out.rfind("faceid=" + faceId + " remote=" + remote + " ", 0), 0u) << r;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r;
  r = ndnlab({"ctl", "face", "list", "--scheme", "unix"});
  EXPECT_NE(r.out.find("faceid=" + faceId + " "), std::string::npos) << "the local URI's scheme counts" << r;
  r = ndnlab({"ctl", "face", "list", "--scheme", "udp4"});
  EXPECT_EQ(r.rc, 0) << r;
  EXPECT_EQ(r.out, "") << r;

  r = ndnlab({"ctl", "route", "add", "/u", remote, "3"});
  EXPECT_EQ(r.rc, 0) << r;
  EXPECT_NE(r.out.find("prefix=/u nexthop=" + faceId + " "), std::string::npos) << r;
  r = ndnlab({"ctl", "route", "remove", "/u", remote});
  EXPECT_EQ(r.rc, 0) << r;
  EXPECT_NE(r.out.find("route-removed prefix=/u nexthop=" + faceId), std::string::npos) << r;

  // A numeric URI is looked up in the form forwarders report (udp4://...:6363), and the
  // error says which.
  r = ndnlab({"ctl", "face", "destroy", "udp://192.0.2.1"});
  EXPECT_EQ(r.rc, 1) << r;
  EXPECT_NE(r.err.find("Face not found: udp4://192.0.2.1:6363"), std::string::npos) << r;
  r = ndnlab({"ctl", "route", "add", "/v", "tcp://[2001:db8::1]:7000"});
  EXPECT_EQ(r.rc, 1) << r;
  EXPECT_NE(r.err.find("Face not found: tcp6://[2001:db8::1]:7000 (create it first: ndnlab ctl face create "
                       "tcp6://[2001:db8::1]:7000)"),
            std::string::npos)
    << r;

  r = ndnlab({"ctl", "face", "destroy", remote});
  EXPECT_EQ(r.rc, 0) << r;
  EXPECT_NE(r.out.find("face-destroyed id=" + faceId), std::string::npos) << r;
  EXPECT_EQ(waitExit(server, ExitTimeout), 1) << slurp(dir / "ps.err");
}

/// FILE's bytes, and the temporary files `ndnlab get -o FILE` left beside it.
std::pair<std::string, int> fileAndLeftovers(const fs::path& file)
{
  int leftovers = 0;
  for (const auto& e : fs::directory_iterator(file.parent_path()))
    leftovers += e.path().filename().string().find(".ndnlab-get-") != std::string::npos;
  return {fs::exists(file) ? slurp(file) : "(missing)", leftovers};
}

/// Whether process `pid` has a temporary file of `ndnlab get` open in `dir`: an unnamed one
/// (O_TMPFILE, "DIR/#inode (deleted)") or a hidden one.
bool writesTemporaryFileIn(pid_t pid, const fs::path& dir)
{
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    std::string target = fs::read_symlink(e.path(), ec).string();
    if (target.starts_with(dir.string() + "/") &&
        (target.find("/#") != std::string::npos || target.find(".ndnlab-get-") != std::string::npos))
      return true;
  }
  return false;
}

TEST_F(NdnlabProcess, GetReplacesItsFileOnlyWithACompleteObject)
{
  fs::path keep = dir / "keep.bin";
  std::ofstream(keep) << "precious";
  fs::permissions(keep, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);

  // no forwarder: FILE is not touched (it used to be truncated before connecting)
  Outcome r = ndnlab({"get", "/t", "-o", keep.string()});
  EXPECT_EQ(r.rc, 1) << r;
  EXPECT_EQ(fileAndLeftovers(keep), std::make_pair(std::string("precious"), 0));
  // a FILE that cannot be created: a file error, checked before connecting
  r = ndnlab({"get", "/t", "-o", (dir / "no-such-dir" / "f").string()});
  EXPECT_EQ(r.rc, 4) << r;
  EXPECT_NE(r.err.find("cannot open " + (dir / "no-such-dir" / "f").string() + ": No such file"), std::string::npos)
    << r;

  startDaemon();
  std::string content(300000, '\0');
  for (size_t i = 0; i < content.size(); ++i)
    content[i] = static_cast<char>(i * 7 + i / 1000);
  std::ofstream(dir / "object.bin", std::ios::binary) << content;
  pid_t server =
    spawnWithSocket(NDNLAB_PATH, {"serve", "/t", (dir / "object.bin").string()}, dir / "s.out", dir / "s.err", socket);
  ASSERT_TRUE(waitFor([&] { return slurp(dir / "s.err").find("Published") != std::string::npos; }))
    << slurp(dir / "s.err");

  // interrupted, then killed: FILE as it was, no temporary file left
  ::kill(server, SIGSTOP); // the producer stops answering: the fetch waits
  for (int signal : {SIGINT, SIGKILL}) {
    pid_t get = spawnWithSocket(NDNLAB_PATH, {"get", "/t", "-o", keep.string()}, dir / "g.out", dir / "g.err", socket);
    ASSERT_TRUE(waitFor([&] { return writesTemporaryFileIn(get, dir); }));
    std::this_thread::sleep_for(200ms);
    ::kill(get, signal);
    EXPECT_EQ(waitExit(get, ExitTimeout), signal == SIGINT ? 130 : 128 + SIGKILL) << slurp(dir / "g.err");
    EXPECT_EQ(fileAndLeftovers(keep), std::make_pair(std::string("precious"), 0)) << "after signal " << signal;
  }
  ::kill(server, SIGCONT);

  // complete: FILE replaced, its permissions kept
  r = ndnlab({"get", "/t", "-o", keep.string()});
  EXPECT_EQ(r.rc, 0) << r;
  EXPECT_EQ(fileAndLeftovers(keep), std::make_pair(content, 0));
  EXPECT_EQ(fs::status(keep).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);

  // not a regular file: written in place, never replaced
  r = ndnlab({"get", "/t", "-o", "/dev/null"});
  EXPECT_EQ(r.rc, 0) << r;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  ::kill(server, SIGTERM);
  waitExit(server, ExitTimeout);
}

TEST_F(NdnlabProcess, SignalDuringABlockingStepIsAnInterruption)
{
  // serve blocked reading its input (a FIFO whose writer stays open): Ctrl-C means exit 130,
  // not "read error on input" (exit 4)
  startDaemon();
  fs::path fifo = dir / "in.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  pid_t serve = spawnWithSocket(NDNLAB_PATH, {"serve", "/t", fifo.string()}, dir / "s.out", dir / "s.err", socket);
  int writer = -1;
  ASSERT_TRUE(waitFor([&] { return (writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK)) >= 0; }));
  ASSERT_EQ(::write(writer, "abc", 3), 3);
  ASSERT_TRUE(waitFor([&] { return slurp(dir / "s.err").find("Loading input") != std::string::npos; }));
  std::this_thread::sleep_for(200ms); // in read() now
  ::kill(serve, SIGINT);
  EXPECT_EQ(waitExit(serve, ExitTimeout), 130) << slurp(dir / "s.err");
  EXPECT_NE(slurp(dir / "s.err").find("ERROR: interrupted"), std::string::npos) << slurp(dir / "s.err");
  ::close(writer);
}

TEST_F(NdnlabProcess, GetTablesInDocsAreTheGeneratedOnes)
{
  // every field of SegmentFetcherOptions is a get flag, and docs/tools.md shows each as declared
  Outcome r = ndnlab({"get", "--print-options-table"});
  ASSERT_EQ(r.rc, 0) << r;
  EXPECT_NE(r.out.find("| `--hystart-css-rounds` |"), std::string::npos) << r.out;
  std::string docs = slurp(fs::path(NDNLAB_SOURCE_DIR) / "docs" / "tools.md");
  ASSERT_FALSE(docs.empty());
  EXPECT_NE(docs.find(r.out), std::string::npos)
    << "docs/tools.md is out of date: paste the table `ndnlab get --print-options-table` prints:\n"
    << r.out;

  // serve's segment options, from SegmentServerOptions' field list
  Outcome serve = ndnlab({"serve", "--print-options-table"});
  ASSERT_EQ(serve.rc, 0) << serve;
  EXPECT_NE(serve.out.find("| `--packet-size` | 1420 B |"), std::string::npos) << serve.out;
  EXPECT_NE(docs.find(serve.out), std::string::npos)
    << "docs/tools.md is out of date: paste the table `ndnlab serve --print-options-table` prints:\n"
    << serve.out;

  // perf server's options, from PerfServerOptions' field list
  Outcome perf = ndnlab({"perf", "server", "--print-options-table"});
  ASSERT_EQ(perf.rc, 0) << perf;
  EXPECT_NE(perf.out.find("| `--max-payload` | 8000 B |"), std::string::npos) << perf.out;
  EXPECT_NE(docs.find(perf.out), std::string::npos)
    << "docs/tools.md is out of date: paste the table `ndnlab perf server --print-options-table` prints:\n"
    << perf.out;

  // stream publish and play, from StreamProducerOptions' and StreamConsumerOptions' field lists
  Outcome publish = ndnlab({"stream", "publish", "--print-options-table"});
  ASSERT_EQ(publish.rc, 0) << publish;
  EXPECT_NE(publish.out.find("| `--payload`, `--payload-size` | 1000 B |"), std::string::npos) << publish.out;
  EXPECT_NE(docs.find(publish.out), std::string::npos)
    << "docs/tools.md is out of date: paste the table `ndnlab stream publish --print-options-table` prints:\n"
    << publish.out;
  Outcome play = ndnlab({"stream", "play", "--print-options-table"});
  ASSERT_EQ(play.rc, 0) << play;
  EXPECT_NE(play.out.find("| `--stability` | `medium` |"), std::string::npos) << play.out;
  EXPECT_NE(docs.find(play.out), std::string::npos)
    << "docs/tools.md is out of date: paste the table `ndnlab stream play --print-options-table` prints:\n"
    << play.out;

  // a profile's defaults
  Outcome pcon = ndnlab({"get", "--print-options-table", "--profile", "ndnsim"});
  ASSERT_EQ(pcon.rc, 0) << pcon;
  EXPECT_NE(pcon.out.find("| `--init-cwnd` | 1 segments |"), std::string::npos) << pcon.out;
  EXPECT_EQ(ndnlab({"get", "--print-options-table", "--profile", "nope"}).rc, 2);

  // and the result fields of `get --json` (the keys of the ns-3 scenarios' results too)
  Outcome fields = ndnlab({"get", "--print-result-table"});
  ASSERT_EQ(fields.rc, 0) << fields;
  EXPECT_NE(fields.out.find("| `goodput_mbps` | Mbit/s |"), std::string::npos) << fields.out;
  EXPECT_NE(docs.find(fields.out), std::string::npos)
    << "docs/tools.md is out of date: paste the table `ndnlab get --print-result-table` prints:\n"
    << fields.out;
}

} // namespace
