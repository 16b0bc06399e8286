#pragma once
// SmallVector<T, N>: a vector whose first N elements live inside the object, so the common
// case (one in-record, one out-record, one PIT entry per name) needs no heap allocation.
// Iterators are pointers and are invalidated by any insertion or erasure.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <utility>

namespace ndnlab::table {

template<typename T, size_t N>
class SmallVector
{
public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  SmallVector(const SmallVector&) = delete;
  SmallVector& operator=(const SmallVector&) = delete;
  SmallVector(SmallVector&& o) noexcept { moveFrom(std::move(o)); }
  SmallVector& operator=(SmallVector&& o) noexcept
  {
    if (this != &o) {
      reset();
      moveFrom(std::move(o));
    }
    return *this;
  }
  ~SmallVector() { reset(); }

  size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  size_t capacity() const { return m_cap; }
  T* data() { return m_data; }
  const T* data() const { return m_data; }
  T* begin() { return m_data; }
  T* end() { return m_data + m_size; }
  const T* begin() const { return m_data; }
  const T* end() const { return m_data + m_size; }
  T& operator[](size_t i) { return m_data[i]; }
  const T& operator[](size_t i) const { return m_data[i]; }
  T& front() { return m_data[0]; }
  const T& front() const { return m_data[0]; }
  T& back() { return m_data[m_size - 1]; }
  const T& back() const { return m_data[m_size - 1]; }

  template<typename... Args>
  T& emplace_back(Args&&... args)
  {
    if (m_size == m_cap)
      grow(m_cap * 2);
    T* p = ::new (static_cast<void*>(m_data + m_size)) T(std::forward<Args>(args)...);
    ++m_size;
    return *p;
  }
  void push_back(T v) { emplace_back(std::move(v)); }

  /// Removes the element at `pos`, keeping order.
  T* erase(T* pos)
  {
    std::move(pos + 1, end(), pos);
    --m_size;
    m_data[m_size].~T();
    return pos;
  }

  void clear()
  {
    std::destroy(begin(), end());
    m_size = 0;
  }

private:
  T* inlineData() { return std::launder(reinterpret_cast<T*>(m_inline)); }

  void grow(size_t cap)
  {
    T* fresh = static_cast<T*>(::operator new(cap * sizeof(T), std::align_val_t(alignof(T))));
    std::uninitialized_move(begin(), end(), fresh);
    std::destroy(begin(), end());
    freeHeap();
    m_data = fresh;
    m_cap = cap;
  }

  void freeHeap()
  {
    if (m_data != inlineData())
      ::operator delete(m_data, std::align_val_t(alignof(T)));
  }

  void reset()
  {
    clear();
    freeHeap();
    m_data = inlineData();
    m_cap = N;
  }

  void moveFrom(SmallVector&& o)
  {
    if (o.m_data != o.inlineData()) {
      m_data = o.m_data;
      m_cap = o.m_cap;
      m_size = o.m_size;
      o.m_data = o.inlineData();
      o.m_cap = N;
      o.m_size = 0;
      return;
    }
    m_data = inlineData();
    m_cap = N;
    std::uninitialized_move(o.begin(), o.end(), m_data);
    m_size = o.m_size;
    o.clear();
  }

  alignas(T) std::byte m_inline[N * sizeof(T)];
  T* m_data = inlineData();
  size_t m_size = 0;
  size_t m_cap = N;
};

} // namespace ndnlab::table
