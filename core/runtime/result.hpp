#pragma once
// Result<T, E>: a value or an error, for the packet path where nothing throws.

#include <cassert>
#include <utility>
#include <variant>

namespace ndnlab {

template<typename E>
struct Unexpected
{
  E error;
};

template<typename E>
Unexpected<E> fail(E e)
{
  return Unexpected<E>{std::move(e)};
}

template<typename T, typename E>
class [[nodiscard]] Result
{
public:
  Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}
  template<typename E2>
  Result(Unexpected<E2> u) : m_v(std::in_place_index<1>, E(std::move(u.error)))
  {}

  bool ok() const { return m_v.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() &
  {
    assert(ok());
    return std::get<0>(m_v);
  }
  const T& value() const&
  {
    assert(ok());
    return std::get<0>(m_v);
  }
  T&& value() &&
  {
    assert(ok());
    return std::get<0>(std::move(m_v));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const E& error() const
  {
    assert(!ok());
    return std::get<1>(m_v);
  }

private:
  std::variant<T, E> m_v;
};

} // namespace ndnlab
