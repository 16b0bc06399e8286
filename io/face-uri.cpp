#include "io/face-uri.hpp"

#include <charconv>

namespace ndnlab::io {

std::string FaceUri::toString() const
{
  if (isUnix())
    return "unix://" + path;
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
  if (u.scheme != "udp" && u.scheme != "udp4" && u.scheme != "udp6" && u.scheme != "tcp" &&
      u.scheme != "tcp4" && u.scheme != "tcp6")
    return fail("unsupported face URI scheme '" + u.scheme + "'");
  // Strip a trailing path ("tcp4://h:p/").
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    if (rest.substr(slash) != "/")
      return fail(std::string("unexpected path in '") + std::string(text) + "'");
    rest = rest.substr(0, slash);
  }
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
  }
  else {
    auto colon = rest.rfind(':');
    if (colon != std::string_view::npos) {
      u.host = std::string(rest.substr(0, colon));
      portText = rest.substr(colon + 1);
    }
    else
      u.host = std::string(rest);
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
