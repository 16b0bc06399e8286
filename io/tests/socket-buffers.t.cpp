#include "io/socket-buffers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include <linux/capability.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ndnlab::io {
namespace {

int sysctlValue(const char* path)
{
  int v = 0;
  std::ifstream(path) >> v;
  return v;
}

/// Whether CAP_NET_ADMIN is in this process's effective set.
bool hasNetAdmin()
{
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (::syscall(SYS_capget, &header, data) != 0)
    return false;
  return data[CAP_NET_ADMIN / 32].effective & (1u << (CAP_NET_ADMIN % 32));
}

/// Removes CAP_NET_ADMIN from the effective set (in a child process).
bool dropNetAdmin()
{
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (::syscall(SYS_capget, &header, data) != 0)
    return false;
  data[CAP_NET_ADMIN / 32].effective &= ~(1u << (CAP_NET_ADMIN % 32));
  return ::syscall(SYS_capset, &header, data) == 0;
}

class SocketBuffersTest : public ::testing::Test
{
protected:
  void SetUp() override { ASSERT_GE(fd, 0); }
  void TearDown() override { ::close(fd); }

  int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  /// More than the kernel's cap, so granting it needs the FORCE options.
  int beyondCap = sysctlValue("/proc/sys/net/core/rmem_max") + 65536;
};

TEST_F(SocketBuffersTest, TheCapIsLiftedWithNetAdmin)
{
  if (!hasNetAdmin())
    GTEST_SKIP() << "needs CAP_NET_ADMIN (the test suite runs as root)";
  SocketBuffers got = setSocketBuffers(fd, beyondCap);
  EXPECT_TRUE(got.forced);
  EXPECT_EQ(got.receive, beyondCap);
  EXPECT_EQ(got.send, beyondCap);
  EXPECT_EQ(socketBufferWarning("udp4://0.0.0.0:6363", beyondCap, got), "");
}

TEST_F(SocketBuffersTest, WithoutNetAdminTheCapStays)
{
  const int rmemMax = sysctlValue("/proc/sys/net/core/rmem_max");
  const int wmemMax = sysctlValue("/proc/sys/net/core/wmem_max");
  const int ask = std::max(rmemMax, wmemMax) + 65536;
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!dropNetAdmin())
      ::_exit(3);
    SocketBuffers got = setSocketBuffers(fd, ask);
    // The kernel grants min(asked, cap) through the plain options.
    ::_exit(!got.forced && got.receive == rmemMax && got.send == wmemMax ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: could not drop CAP_NET_ADMIN; 1: unexpected sizes";
}

TEST(SocketBufferWarning, NamesTheSysctlsAndTheSizes)
{
  EXPECT_EQ(socketBufferWarning("udp4://0.0.0.0:6363", 4194304, {4194304, 4194304, true}), "");
  std::string w = socketBufferWarning("udp4://0.0.0.0:6363", 4194304, {212992, 212992, false});
  EXPECT_NE(w.find("udp4://0.0.0.0:6363"), std::string::npos) << w;
  EXPECT_NE(w.find("212992 octets (receive)"), std::string::npos) << w;
  EXPECT_NE(w.find("net.core.rmem_max=4194304 net.core.wmem_max=4194304"), std::string::npos) << w;
  EXPECT_NE(w.find("CAP_NET_ADMIN"), std::string::npos) << w;
  // Only the send side short is still a warning.
  EXPECT_NE(socketBufferWarning("x", 100, {50, 100, false}), "");
}

} // namespace
} // namespace ndnlab::io
