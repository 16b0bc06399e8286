#include "io/socket-buffers.hpp"

#include <sys/socket.h>

namespace ndnlab::io {

namespace {

/// Sets one buffer: `force` (SO_*BUFFORCE) first, then `plain`; returns whether force worked.
bool setBuffer(int fd, int force, int plain, int bytes)
{
  if (::setsockopt(fd, SOL_SOCKET, force, &bytes, sizeof(bytes)) == 0)
    return true;
  (void)::setsockopt(fd, SOL_SOCKET, plain, &bytes, sizeof(bytes));
  return false;
}

int granted(int fd, int option)
{
  int value = 0;
  socklen_t len = sizeof(value);
  if (::getsockopt(fd, SOL_SOCKET, option, &value, &len) != 0)
    return 0;
  return value / 2;
}

} // namespace

SocketBuffers setSocketBuffers(int fd, int bytes)
{
  SocketBuffers out;
  bool sendForced = setBuffer(fd, SO_SNDBUFFORCE, SO_SNDBUF, bytes);
  bool receiveForced = setBuffer(fd, SO_RCVBUFFORCE, SO_RCVBUF, bytes);
  out.forced = sendForced && receiveForced;
  out.send = granted(fd, SO_SNDBUF);
  out.receive = granted(fd, SO_RCVBUF);
  return out;
}

std::string socketBufferWarning(const std::string& what, int bytes, const SocketBuffers& got)
{
  if (got.send >= bytes && got.receive >= bytes)
    return {};
  return what + ": socket buffers capped by the kernel at " + std::to_string(got.receive) + " octets (receive) and " +
         std::to_string(got.send) + " (send) instead of " + std::to_string(bytes) +
         "; bursts may be dropped before they are read. Raise the caps (sysctl -w "
         "net.core.rmem_max=" +
         std::to_string(bytes) + " net.core.wmem_max=" + std::to_string(bytes) + ") or run ndnlabd with CAP_NET_ADMIN";
}

} // namespace ndnlab::io
