// libFuzzer target for the IVF reader (core/stream/ivf.hpp), which `ndnlab stream publish`
// feeds with files and ffmpeg's output. Each input is fed in two pieces (split at its first
// byte's value); the reader must take frames out or throw IvfError, and every frame it gives
// must lie within the input. Any other exception, a crash or a sanitizer report is a bug.

#include "core/stream/ivf.hpp"
#include "fuzz/check.hpp"

#include <cstdint>
#include <span>

using ndnlab::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  std::span<const uint8_t> in(data, size);
  const size_t cut = size > 0 ? data[0] % (size + 1) : 0;
  ndnlab::stream::IvfReader r(1 << 16);
  size_t frameBytes = 0;
  try {
    r.feed(in.first(cut));
    while (auto f = r.next())
      frameBytes += f->data.size() + 12;
    r.feed(in.subspan(cut));
    while (auto f = r.next())
      frameBytes += f->data.size() + 12;
    r.finish();
  }
  catch (const ndnlab::stream::IvfError&) {
  }
  require(frameBytes <= size, "frames larger than the input");
  return 0;
}
