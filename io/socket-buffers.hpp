#pragma once
// Socket buffer sizes for the daemon's sockets. A stock Linux kernel caps SO_SNDBUF and
// SO_RCVBUF at net.core.wmem_max / rmem_max (212992 octets), far below the 4 MiB the channels
// ask for: a burst of 8800-octet UDP datagrams then overflows the receive buffer and is lost
// before the daemon reads it (the kernel's Udp RcvbufErrors). A process with CAP_NET_ADMIN
// (ndnlabd as root, as NFD usually runs) may lift the cap with SO_SNDBUFFORCE /
// SO_RCVBUFFORCE; otherwise the capped size stays, and the caller can say so.

#include <string>

namespace ndnlab::io {

struct SocketBuffers
{
  int send = 0;        ///< octets the kernel granted (SO_SNDBUF as read back, halved: see below)
  int receive = 0;     ///< likewise SO_RCVBUF
  bool forced = false; ///< the sizes were set with the *FORCE options (CAP_NET_ADMIN)
};

/// Asks for `bytes` of send and receive buffer on socket `fd` (> 0), first with the FORCE
/// options, then, without the capability, with the plain ones. Returns what the kernel granted:
/// Linux reports twice the size set (the bookkeeping overhead), so the value read back is halved
/// to compare with `bytes`.
SocketBuffers setSocketBuffers(int fd, int bytes);

/// A warning when `got` is smaller than `bytes` asked for, naming the sysctl to raise; empty
/// when the sizes were granted.
std::string socketBufferWarning(const std::string& what, int bytes, const SocketBuffers& got);

} // namespace ndnlab::io
