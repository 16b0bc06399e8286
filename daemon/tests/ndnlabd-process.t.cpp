// The ndnlabd executable: exit codes, --print-default-config, clean shutdown on signals.
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
using namespace std::chrono_literals;

/// Runs ndnlabd with `args`, stdout/stderr to `out`; returns the pid.
pid_t spawn(const std::vector<std::string>& args, const fs::path& out)
{
  pid_t pid = ::fork();
  if (pid == 0) {
    FILE* f = std::fopen(out.c_str(), "w");
    ::dup2(fileno(f), 1);
    ::dup2(fileno(f), 2);
    std::vector<char*> argv;
    std::string exe = NDNLABD_PATH;
    argv.push_back(exe.data());
    for (auto& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

int waitExit(pid_t pid, std::chrono::milliseconds timeout = 5000ms)
{
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::this_thread::sleep_for(10ms);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return -1;
}

std::string slurp(const fs::path& p)
{
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

class NdnlabdProcess : public ::testing::Test
{
protected:
  NdnlabdProcess()
  {
    dir = fs::temp_directory_path() / ("ndnlabd-proc-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
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

bool waitFor(const std::function<bool()>& pred, std::chrono::milliseconds timeout = 5000ms)
{
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

TEST_F(NdnlabdProcess, PrintDefaultConfigAndHelp)
{
  pid_t pid = spawn({"--print-default-config"}, dir / "out");
  EXPECT_EQ(waitExit(pid), 0);
  std::string out = slurp(dir / "out");
  EXPECT_NE(out.find("[face_system.unix]"), std::string::npos);
  EXPECT_NE(out.find("path = \"/run/nfd/nfd.sock\""), std::string::npos);

  pid = spawn({"--help"}, dir / "help");
  EXPECT_EQ(waitExit(pid), 0);
  EXPECT_NE(slurp(dir / "help").find("--config"), std::string::npos);
}

TEST_F(NdnlabdProcess, BadConfigExitsWithTwo)
{
  auto cfg = writeConfig("[face_system.tcp]\nport = \"6363\"\n[nonsense]\n");
  pid_t pid = spawn({"--config", cfg.string()}, dir / "out");
  EXPECT_EQ(waitExit(pid), 2);
  std::string out = slurp(dir / "out");
  EXPECT_NE(out.find("face_system.tcp.port: expected an integer, got a string"), std::string::npos) << out;
  EXPECT_NE(out.find("unknown table [nonsense]"), std::string::npos) << out;

  pid = spawn({"--config", cfg.string(), "--bogus-flag"}, dir / "out2");
  EXPECT_EQ(waitExit(pid), 2);
}

TEST_F(NdnlabdProcess, UnknownStrategyIsAConfigError)
{
  auto cfg = writeConfig(localConfig() + "[forwarder]\ndefault_strategy = \"/localhost/nfd/strategy/nope\"\n");
  pid_t pid = spawn({"--config", cfg.string()}, dir / "out");
  EXPECT_EQ(waitExit(pid), 2);
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
    EXPECT_EQ(waitExit(pid), 2) << slurp(dir / "out");
    std::string out = slurp(dir / "out");
    EXPECT_NE(out.find(cfg.string() + ":"), std::string::npos) << out;
    EXPECT_NE(out.find("configuration error"), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(dir / "run" / "nfd.sock"));
  }
}

TEST_F(NdnlabdProcess, SigtermShutsDownCleanly)
{
  for (int sig : {SIGTERM, SIGINT}) {
    auto cfg = writeConfig(localConfig());
    fs::path sock = dir / "run" / "nfd.sock";
    pid_t pid = spawn({"--config", cfg.string()}, dir / "out");
    ASSERT_TRUE(waitFor([&] { return fs::exists(sock); })) << slurp(dir / "out");
    ::kill(pid, sig);
    EXPECT_EQ(waitExit(pid), 0) << slurp(dir / "out");
    EXPECT_FALSE(fs::exists(sock));
    EXPECT_NE(slurp(dir / "out").find("shutting down"), std::string::npos);
  }
}

TEST_F(NdnlabdProcess, SecondDaemonOnSameSocketFailsToStart)
{
  auto cfg = writeConfig(localConfig());
  fs::path sock = dir / "run" / "nfd.sock";
  pid_t first = spawn({"--config", cfg.string()}, dir / "out1");
  ASSERT_TRUE(waitFor([&] { return fs::exists(sock); }));
  pid_t second = spawn({"--config", cfg.string()}, dir / "out2");
  EXPECT_EQ(waitExit(second), 1);
  EXPECT_NE(slurp(dir / "out2").find("in use"), std::string::npos) << slurp(dir / "out2");
  ::kill(first, SIGTERM);
  EXPECT_EQ(waitExit(first), 0);
}

} // namespace
