// libFuzzer target for what the io layer reads from peers and management clients. Each input is
//   1. a face URI (faces/create's Uri and LocalUri): a URI that parses must print to a URI that
//      parses to the same fields;
//   2. the start of a byte stream given to the TLV framer of the stream and datagram transports,
//      under a small and the default frame limit: a Complete frame fits the input and the limit,
//      and every shorter prefix of it needs more; a stream that needs more needs more at every
//      prefix too; a TooLarge frame announces more than the limit.

#include "io/face-uri.hpp"
#include "io/tlv-framer.hpp"
#include "fuzz/check.hpp"

#include <cstdint>
#include <string_view>

namespace {

using namespace ndnlab;

using fuzz::require;

void checkUri(std::string_view text)
{
  auto u = io::parseFaceUri(text);
  if (!u.ok())
    return;
  auto again = io::parseFaceUri(u->toString());
  require(again.ok() && again->scheme == u->scheme && again->host == u->host && again->port == u->port &&
            again->path == u->path,
          "a face URI does not parse back from its printed form");
}

void checkFramer(ByteSpan in, size_t limit)
{
  io::FrameCheck whole = io::checkFrame(in, limit);
  switch (whole.status) {
    case io::FrameStatus::Complete:
      require(whole.size > 0 && whole.size <= in.size() && whole.size <= limit,
              "a complete frame is empty, or larger than the input or the limit");
      for (size_t n = 0; n < whole.size; ++n)
        require(io::checkFrame(in.first(n), limit).status == io::FrameStatus::NeedMore,
                "a prefix of a complete frame does not need more");
      break;
    case io::FrameStatus::NeedMore:
      for (size_t n = 0; n < in.size(); ++n)
        require(io::checkFrame(in.first(n), limit).status == io::FrameStatus::NeedMore,
                "a prefix of an input that needs more does not");
      break;
    case io::FrameStatus::TooLarge:
      require(whole.announced > limit && whole.size <= limit + 1,
              "a frame too large announces no more than the limit, or its size passes limit + 1");
      break;
    case io::FrameStatus::BadHeader: break;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  checkUri(std::string_view(reinterpret_cast<const char*>(data), size));
  ByteSpan in(data, size);
  checkFramer(in, 300);
  checkFramer(in, io::DefaultMaxFrameSize);
  return 0;
}
