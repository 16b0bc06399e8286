#include "io/face-uri.hpp"
#include "io/ethernet-frame.hpp"

#include <charconv>

namespace ndnlab::io {

std::string FaceUri::toString() const
{
  if (isUnix())
    return "unix://" + path;
  if (isEther())
    return "ether://[" + host + "]";
  if (isDev())
    return "dev://" + host;
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return scheme + "://" + h + (port != 0 ? ":" + std::to_string(port) : "");
}

Result<FaceUri, std::string> parseFaceUri(std::string_view text)
{
  auto sep = text.find("://");
  if (sep == std::string_view::npos)
    return fail(std::string("missing '://' in face URI '") + std::string(text) + "'");
  FaceUri u;
  u.scheme = std::string(text.substr(0, sep));
  std::string_view rest = text.substr(sep + 3);
  if (u.scheme == "unix") {
    if (rest.empty() || rest[0] != '/')
      return fail(std::string("unix URI needs an absolute path: '") + std::string(text) + "'");
    u.path = std::string(rest);
    return u;
  }
  if (u.scheme == "ether") {
    // as ndn-cxx: the MAC in brackets; accepted without them too, printed with them
    std::string_view mac = rest;
    if (!mac.empty() && mac.front() == '[') {
      if (mac.back() != ']')
        return fail(std::string("unterminated '[' in '") + std::string(text) + "'");
      mac = mac.substr(1, mac.size() - 2);
    }
    auto address = MacAddress::parse(mac);
    if (!address)
      return fail(std::string("bad MAC address in '") + std::string(text) + "' (use ether://[xx:xx:xx:xx:xx:xx])");
    u.host = address->toString();
    return u;
  }
  if (u.scheme == "dev") {
    // an interface name: 1 to 15 characters, no '/', ':' or blanks (Linux IFNAMSIZ)
    if (rest.empty() || rest.size() > 15 || rest.find_first_of("/: \t\n[]") != std::string_view::npos)
      return fail(std::string("bad interface name in '") + std::string(text) + "' (use dev://<ifname>)");
    u.host = std::string(rest);
    return u;
  }
  if (u.scheme != "udp" && u.scheme != "udp4" && u.scheme != "udp6" && u.scheme != "tcp" && u.scheme != "tcp4" &&
      u.scheme != "tcp6")
    return fail("unsupported face URI scheme '" + u.scheme + "'");
  // Strip a trailing path ("tcp4://h:p/").
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    if (rest.substr(slash) != "/")
      return fail(std::string("unexpected path in '") + std::string(text) + "'");
    rest = rest.substr(0, slash);
  }
  // As ndn-cxx's FaceUri: an IPv6 address in brackets (hex digits, ':' and '.', and a "%zone"),
  // any other host without ':', '[' or ']'.
  std::string_view portText;
  if (!rest.empty() && rest[0] == '[') {
    auto close = rest.find(']');
    if (close == std::string_view::npos)
      return fail(std::string("unterminated '[' in '") + std::string(text) + "'");
    u.host = std::string(rest.substr(1, close - 1));
    rest = rest.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':')
        return fail(std::string("bad port in '") + std::string(text) + "'");
      portText = rest.substr(1);
    }
    std::string_view address = u.host, zone;
    if (auto percent = address.find('%'); percent != std::string_view::npos) {
      zone = address.substr(percent + 1);
      address = address.substr(0, percent);
      if (zone.empty() || zone.find_first_of(":[]% \t") != std::string_view::npos)
        return fail(std::string("bad IPv6 zone in '") + std::string(text) + "'");
    }
    if (address.empty() || address.find_first_not_of("0123456789abcdefABCDEF:.") != std::string_view::npos)
      return fail(std::string("bad IPv6 address in '") + std::string(text) + "'");
  }
  else {
    auto colon = rest.find(':');
    u.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos)
      portText = rest.substr(colon + 1);
    if (u.host.find_first_of("[]") != std::string::npos || portText.find(':') != std::string_view::npos)
      return fail(std::string("bad host in '") + std::string(text) + "' (an IPv6 address goes in brackets)");
  }
  if (u.host.empty())
    return fail(std::string("missing host in '") + std::string(text) + "'");
  if (!portText.empty()) {
    unsigned p = 0;
    auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), p);
    if (ec != std::errc() || end != portText.data() + portText.size() || p == 0 || p > 65535)
      return fail(std::string("bad port in '") + std::string(text) + "'");
    u.port = static_cast<uint16_t>(p);
  }
  return u;
}

} // namespace ndnlab::io
