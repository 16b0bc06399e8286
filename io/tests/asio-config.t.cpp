// Asio's handler memory must be allocated and freed by the same functions in every translation
// unit: a block cached by one unit's handler may be freed by another's. Asio 1.24 picks
// std::aligned_alloc/free or operator new/delete by whether a standard header came first, so
// io/CMakeLists.txt fixes the choice (ndnlab-asio). Without it the two units below disagree.
#include <cstdlib>

#include <asio/io_context.hpp>

#include <gtest/gtest.h>

namespace ndnlab::io::test {

bool asioFirstUsesStdAlignedAlloc(); // asio-first.cpp

namespace {

#ifdef ASIO_HAS_STD_ALIGNED_ALLOC
constexpr bool standardFirstUsesStdAlignedAlloc = true;
#else
constexpr bool standardFirstUsesStdAlignedAlloc = false;
#endif

TEST(AsioConfig, HandlerMemoryFunctionsDoNotDependOnIncludeOrder)
{
  EXPECT_EQ(asioFirstUsesStdAlignedAlloc(), standardFirstUsesStdAlignedAlloc);
}

} // namespace
} // namespace ndnlab::io::test
