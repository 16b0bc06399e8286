#pragma once
// Units live in types: Bytes, Rate and time. Convert only at the edges
// (config strings, ns-3 Time/DataRate, Python floats).

#include <chrono>
#include <compare>
#include <cstdint>

namespace ndnlab {

using Duration = std::chrono::nanoseconds;
using namespace std::chrono_literals;

/// Monotonic time of an Env. It has no now(): time is read from Env::clock().
struct MonoClock
{
  using duration = Duration;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<MonoClock, Duration>;
  static constexpr bool is_steady = true;
};
using TimePoint = MonoClock::time_point;

/// Wall-clock time as milliseconds since the Unix epoch (versions, SignatureTime).
using UnixMillis = std::chrono::milliseconds;

/// A byte count.
class Bytes
{
public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(uint64_t n) : m_n(n) {}
  constexpr uint64_t count() const { return m_n; }
  constexpr double bits() const { return static_cast<double>(m_n) * 8.0; }

  constexpr Bytes& operator+=(Bytes o)
  {
    m_n += o.m_n;
    return *this;
  }
  constexpr Bytes& operator-=(Bytes o)
  {
    m_n -= o.m_n;
    return *this;
  }
  friend constexpr Bytes operator+(Bytes a, Bytes b) { return Bytes(a.m_n + b.m_n); }
  friend constexpr Bytes operator-(Bytes a, Bytes b) { return Bytes(a.m_n - b.m_n); }
  friend constexpr auto operator<=>(Bytes, Bytes) = default;

private:
  uint64_t m_n = 0;
};

constexpr Bytes operator""_B(unsigned long long n)
{
  return Bytes(n);
}
constexpr Bytes operator""_KiB(unsigned long long n)
{
  return Bytes(n * 1024);
}
constexpr Bytes operator""_MiB(unsigned long long n)
{
  return Bytes(n * 1024 * 1024);
}

/// A data rate, stored in bits per second.
class Rate
{
public:
  constexpr Rate() = default;
  static constexpr Rate bitsPerSecond(double v) { return Rate(v); }
  static constexpr Rate kbps(double v) { return Rate(v * 1e3); }
  static constexpr Rate mbps(double v) { return Rate(v * 1e6); }
  static constexpr Rate gbps(double v) { return Rate(v * 1e9); }
  /// Rate of moving `b` in `d`; zero when d is not positive.
  static constexpr Rate of(Bytes b, Duration d)
  {
    return d.count() > 0 ? Rate(b.bits() * 1e9 / static_cast<double>(d.count())) : Rate();
  }

  constexpr double bps() const { return m_bps; }
  constexpr double mbps() const { return m_bps / 1e6; }
  /// Time to serialize `b` at this rate (zero rate: zero duration).
  constexpr Duration transmissionTime(Bytes b) const
  {
    return m_bps > 0 ? Duration(static_cast<int64_t>(b.bits() * 1e9 / m_bps)) : Duration::zero();
  }
  friend constexpr auto operator<=>(Rate, Rate) = default;

private:
  constexpr explicit Rate(double bps) : m_bps(bps) {}
  double m_bps = 0;
};

/// Seconds as double, for statistics and printing only.
constexpr double toSeconds(Duration d)
{
  return std::chrono::duration<double>(d).count();
}
constexpr double toMillis(Duration d)
{
  return std::chrono::duration<double, std::milli>(d).count();
}

} // namespace ndnlab
