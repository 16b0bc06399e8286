#pragma once
// Tests that run a built executable as a user would (ndnlab, ndnlabd): start it with its output
// in files, wait for its exit status, read what it printed, poll for a condition; and an empty
// directory per test for those files.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace ndnlab::testsupport {

/// An empty directory for the running test: <temp>/<prefix>-<pid>-<test name>.
inline std::filesystem::path freshTestDirectory(const std::string& prefix)
{
  auto dir = std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(::getpid()) + "-" +
                                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// The whole file as a string (empty if it cannot be read).
inline std::string slurp(const std::filesystem::path& p)
{
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

/// Whether `pred` became true within `timeout`, polled every 10 ms.
inline bool waitFor(const std::function<bool()>& pred,
                    std::chrono::milliseconds timeout = std::chrono::milliseconds(5000))
{
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

/// Forks `exe args...` with stdout to `out` and stderr to `err` (to `out` as well when `err` is
/// empty). The child starts with SIGINT, SIGTERM and SIGHUP at their default actions and no
/// signal blocked, as a terminal's foreground job does, whatever runs the tests (nohup ignores
/// SIGHUP, a script's background job SIGINT). `inChild` runs in the child just before exec, e.g.
/// to set its environment or ignore a signal.
inline pid_t spawn(const std::string& exe, const std::vector<std::string>& args, const std::filesystem::path& out,
                   const std::filesystem::path& err = {}, const std::function<void()>& inChild = {})
{
  pid_t pid = ::fork();
  if (pid == 0) {
    FILE* o = std::fopen(out.c_str(), "w");
    FILE* e = err.empty() ? o : std::fopen(err.c_str(), "w");
    ::dup2(fileno(o), 1);
    ::dup2(fileno(e), 2);
    for (int signo : {SIGINT, SIGTERM, SIGHUP})
      std::signal(signo, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (inChild)
      inChild();
    std::vector<char*> argv;
    std::string exeCopy = exe;
    argv.push_back(exeCopy.data());
    for (auto& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Exit code, or 128 + signal, or -1 after killing a process still running at `timeout`.
inline int waitExit(pid_t pid, std::chrono::milliseconds timeout)
{
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return -1;
}

} // namespace ndnlab::testsupport
