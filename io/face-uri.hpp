#pragma once
// Face URIs of the NFD management protocol: udp4://host:port, tcp4://host:port,
// udp6://[addr]:port, tcp6://[addr]:port, unix:///path (plus "udp"/"tcp" without a version),
// ether://[xx:xx:xx:xx:xx:xx] (a MAC address, canonical in lower case) and dev://<ifname>.

#include "core/runtime/result.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace ndnlab::io {

struct FaceUri
{
  std::string scheme; ///< "udp4", "udp6", "tcp4", "tcp6", "udp", "tcp", "unix", "ether", "dev"
  std::string host;   ///< without brackets; the MAC (lower case) for ether, the interface for dev
  uint16_t port = 0;  ///< 0 when absent
  std::string path;   ///< unix only

  bool isUdp() const { return scheme.rfind("udp", 0) == 0; }
  bool isTcp() const { return scheme.rfind("tcp", 0) == 0; }
  bool isUnix() const { return scheme == "unix"; }
  bool isEther() const { return scheme == "ether"; }
  bool isDev() const { return scheme == "dev"; }
  std::string toString() const;
};

/// Parses a face URI; the error names what is wrong.
Result<FaceUri, std::string> parseFaceUri(std::string_view text);

} // namespace ndnlab::io
