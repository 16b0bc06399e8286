// The ndnlabd executable: exit codes, --print-default-config, clean shutdown on signals, nohup.
#include "tests/support/child-process.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include <sys/wait.h>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace ndnlab::testsupport;
using namespace std::chrono_literals;

/// Runs ndnlabd with `args`, stdout/stderr to `out`; returns the pid.
pid_t spawn(const std::vector<std::string>& args, const fs::path& out)
{
  return ndnlab::testsupport::spawn(NDNLABD_PATH, args, out);
}

constexpr auto ExitTimeout = 5000ms;

class NdnlabdProcess : public ::testing::Test
{
protected:
  NdnlabdProcess() { dir = freshTestDirectory("ndnlabd-proc"); }
  ~NdnlabdProcess() override { fs::remove_all(dir); }

  fs::path writeConfig(const std::string& text)
  {
    fs::path p = dir / "ndnlabd.toml";
    std::ofstream(p) << text;
    return p;
  }

  std::string localConfig()
  {
    return "[face_system.unix]\npath = \"" + (dir / "run" / "nfd.sock").string() +
           "\"\n[face_system.tcp]\nport = 0\n[face_system.udp]\nport = 0\n";
  }

  fs::path dir;
};

TEST_F(NdnlabdProcess, PrintDefaultConfigAndHelp)
{
  pid_t pid = spawn({"--print-default-config"}, dir / "out");
  EXPECT_EQ(waitExit(pid, ExitTimeout), 0);
  std::string out = slurp(dir / "out");
  EXPECT_NE(out.find("[face_system.unix]"), std::string::npos);
  EXPECT_NE(out.find("path = \"/run/nfd/nfd.sock\""), std::string::npos);

  pid = spawn({"--help"}, dir / "help");
  EXPECT_EQ(waitExit(pid, ExitTimeout), 0);
  EXPECT_NE(slurp(dir / "help").find("--config"), std::string::npos);
}

TEST_F(NdnlabdProcess, BadConfigExitsWithTwo)
{
  auto cfg = writeConfig("[face_system.tcp]\nport = \"6363\"\n[nonsense]\n");
  pid_t pid = spawn({"--config", cfg.string()}, dir / "out");
  EXPECT_EQ(waitExit(pid, ExitTimeout), 2);
  std::string out = slurp(dir / "out");
  EXPECT_NE(out.find("face_system.tcp.port: expected an integer, got a string"), std::string::npos) << out;
  EXPECT_NE(out.find("unknown table [nonsense]"), std::string::npos) << out;

  pid = spawn({"--config", cfg.string(), "--bogus-flag"}, dir / "out2");
  EXPECT_EQ(waitExit(pid, ExitTimeout), 2);
}

TEST_F(NdnlabdProcess, UnknownStrategyIsAConfigError)
{
  auto cfg = writeConfig(localConfig() + "[forwarder]\ndefault_strategy = \"/localhost/nfd/strategy/nope\"\n");
  pid_t pid = spawn({"--config", cfg.string()}, dir / "out");
  EXPECT_EQ(waitExit(pid, ExitTimeout), 2);
}

TEST_F(NdnlabdProcess, BadAddressesAreConfigErrorsBeforeListening)
{
  for (std::string bad : {"[face_system.tcp]\nport = 0\n[face_system.multicast]\nenabled = true\n"
                          "group = \"10.1.2.3\"\n",
                          "[face_system.tcp]\nport = 16399\nlisten_address = \"not-an-address\"\n"}) {
    // the Unix socket section comes first, so a late failure would have created the socket
    auto cfg = writeConfig("[face_system.unix]\npath = \"" + (dir / "run" / "nfd.sock").string() +
                           "\"\n[face_system.udp]\nport = 0\n" + bad);
    pid_t pid = spawn({"--config", cfg.string()}, dir / "out");
    EXPECT_EQ(waitExit(pid, ExitTimeout), 2) << slurp(dir / "out");
    std::string out = slurp(dir / "out");
    EXPECT_NE(out.find(cfg.string() + ":"), std::string::npos) << out;
    EXPECT_NE(out.find("configuration error"), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(dir / "run" / "nfd.sock"));
  }
}

TEST_F(NdnlabdProcess, SigtermShutsDownCleanly)
{
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    auto cfg = writeConfig(localConfig());
    fs::path sock = dir / "run" / "nfd.sock";
    pid_t pid = spawn({"--config", cfg.string()}, dir / "out");
    ASSERT_TRUE(waitFor([&] { return fs::exists(sock); })) << slurp(dir / "out");
    ::kill(pid, sig);
    EXPECT_EQ(waitExit(pid, ExitTimeout), 0) << slurp(dir / "out");
    EXPECT_FALSE(fs::exists(sock)); // removed by the clean shutdown, not left by a killed process
  }
}

TEST_F(NdnlabdProcess, StartedUnderNohupItOutlivesAHangUp)
{
  auto cfg = writeConfig(localConfig());
  fs::path sock = dir / "run" / "nfd.sock";
  pid_t pid = ndnlab::testsupport::spawn(NDNLABD_PATH, {"--config", cfg.string()}, dir / "out", {},
                                         [] { std::signal(SIGHUP, SIG_IGN); }); // as nohup does
  ASSERT_TRUE(waitFor([&] { return fs::exists(sock); })) << slurp(dir / "out");
  ::kill(pid, SIGHUP);
  std::this_thread::sleep_for(200ms);
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, WNOHANG), 0) << "the hang-up stopped the daemon";
  ::kill(pid, SIGTERM); // a SIGHUP still pending would be delivered first (lower number)
  EXPECT_EQ(waitExit(pid, ExitTimeout), 0) << slurp(dir / "out");
  EXPECT_FALSE(fs::exists(sock));
}

TEST_F(NdnlabdProcess, SecondDaemonOnSameSocketFailsToStart)
{
  auto cfg = writeConfig(localConfig());
  fs::path sock = dir / "run" / "nfd.sock";
  pid_t first = spawn({"--config", cfg.string()}, dir / "out1");
  ASSERT_TRUE(waitFor([&] { return fs::exists(sock); }));
  pid_t second = spawn({"--config", cfg.string()}, dir / "out2");
  EXPECT_EQ(waitExit(second, ExitTimeout), 1);
  EXPECT_NE(slurp(dir / "out2").find("in use"), std::string::npos) << slurp(dir / "out2");
  ::kill(first, SIGTERM);
  EXPECT_EQ(waitExit(first, ExitTimeout), 0);
}

} // namespace
