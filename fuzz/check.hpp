#pragma once
// What every fuzz target does when an input breaks a property it checks: name the property on
// stderr and abort, so that libFuzzer keeps the input and its log says what failed.

#include <cstdio>
#include <cstdlib>

namespace ndnlab::fuzz {

[[noreturn]] inline void bug(const char* what)
{
  std::fprintf(stderr, "fuzz: %s\n", what);
  std::abort();
}

inline void require(bool ok, const char* what)
{
  if (!ok)
    bug(what);
}

} // namespace ndnlab::fuzz
