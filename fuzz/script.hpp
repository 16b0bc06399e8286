#pragma once
// What the fuzz targets that run a script against sans-I/O engines on a manual clock share:
// a quiet Env, and the loop that plays the input step by step.

#include "core/runtime/manual-env.hpp"

#include <fuzzer/FuzzedDataProvider.h>

namespace ndnlab::fuzz {

/// No captured log (its sink would grow without bound over a run) and no trace events.
inline void quiet(ManualEnv& env)
{
  env.logImpl = CaptureLog(LogLevel::Off);
  env.traceImpl.on = false;
}

/// Calls `h.step()` while input remains, at most `maxSteps` times, then `h.finish()` (the
/// end-of-script checks) if the harness has one.
template<typename Harness>
void runScript(Harness& h, FuzzedDataProvider& in, int maxSteps)
{
  for (int steps = 0; steps < maxSteps && in.remaining_bytes() > 0; ++steps)
    h.step();
  if constexpr (requires { h.finish(); })
    h.finish();
}

} // namespace ndnlab::fuzz
