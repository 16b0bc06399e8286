// A translation unit whose first include is Asio's own header, before any standard header, as
// in io/ws/ws-server.cpp. asio-config.t.cpp compares its Asio configuration with a unit that
// includes a standard header first.
#include <asio/io_context.hpp>

namespace ndnlab::io::test {

bool asioFirstUsesStdAlignedAlloc()
{
#ifdef ASIO_HAS_STD_ALIGNED_ALLOC
  return true;
#else
  return false;
#endif
}

} // namespace ndnlab::io::test
