#pragma once
// FaceTable: owns every Face of one forwarder and assigns FaceIds (NFD daemon/fw/face-table.hpp).
//
// Regular faces get ids from FirstRegularFaceId (256) upward; an id is never reused within one
// FaceTable. Reserved ids (InternalFaceId 1, ContentStoreFaceId 254, NullFaceId 255, any id
// below 256) are given explicitly with addReserved(). A face whose transport reaches Closed or
// Failed is removed automatically, one zero-delay timer later (never inside its own callback).

#include "core/face/face.hpp"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace ndnlab::face {

/// A list of callbacks invoked in connection order. Handlers may disconnect themselves or
/// connect new handlers while being invoked (new ones run from the next emit on).
template<typename... Args>
class Signal
{
public:
  using Handler = std::function<void(Args...)>;
  using ConnectionId = uint64_t;

  ConnectionId connect(Handler h)
  {
    m_handlers.push_back({++m_lastId, std::move(h)});
    return m_lastId;
  }

  void disconnect(ConnectionId id)
  {
    for (auto& slot : m_handlers) {
      if (slot.id == id)
        slot.handler = nullptr;
    }
  }

  void operator()(Args... args)
  {
    size_t n = m_handlers.size();
    for (size_t i = 0; i < n; ++i) {
      // copy: a handler may disconnect itself (clearing the stored function) while running
      Handler h = m_handlers[i].handler;
      if (h)
        h(args...);
    }
    std::erase_if(m_handlers, [](const Slot& s) { return !s.handler; });
  }

  size_t size() const { return m_handlers.size(); }

private:
  struct Slot
  {
    ConnectionId id;
    Handler handler;
  };
  std::vector<Slot> m_handlers;
  ConnectionId m_lastId = 0;
};

class FaceTable
{
public:
  explicit FaceTable(Env& env);
  /// Destroys all faces without emitting beforeRemove.
  ~FaceTable();
  FaceTable(const FaceTable&) = delete;
  FaceTable& operator=(const FaceTable&) = delete;

  /// Adds a face, assigns the next regular FaceId (>= 256), emits afterAdd; returns the id.
  /// Throws std::invalid_argument if `face` is null.
  FaceId add(std::unique_ptr<Face> face);
  /// Adds a face under a reserved id (< 256, not InvalidFaceId). Throws std::invalid_argument
  /// when the id is out of range or already used.
  void addReserved(std::unique_ptr<Face> face, FaceId id);

  /// Emits beforeRemove, then destroys the face. Returns false if the id is unknown.
  /// Must not be called from inside that face's own callbacks (use removeLater or close()).
  bool remove(FaceId id);
  /// Removes the face one zero-delay timer later (safe from inside its callbacks).
  void removeLater(FaceId id);

  /// The face with this id, or nullptr.
  Face* get(FaceId id) const;
  size_t size() const { return m_faces.size(); }
  /// The id the next add() will assign.
  FaceId nextFaceId() const { return m_nextId; }

  /// Iteration in FaceId order; yields Face&.
  class const_iterator
  {
  public:
    using Inner = std::map<FaceId, std::unique_ptr<Face>>::const_iterator;
    explicit const_iterator(Inner it) : m_it(it) {}
    Face& operator*() const { return *m_it->second; }
    Face* operator->() const { return m_it->second.get(); }
    const_iterator& operator++()
    {
      ++m_it;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return m_it == o.m_it; }

  private:
    Inner m_it;
  };
  const_iterator begin() const { return const_iterator(m_faces.begin()); }
  const_iterator end() const { return const_iterator(m_faces.end()); }

  /// After a face is added and has its id.
  Signal<Face&> afterAdd;
  /// Before a face is removed (and destroyed); the face is still fully usable.
  Signal<Face&> beforeRemove;

private:
  void install(std::unique_ptr<Face> face, FaceId id);

  Env& m_env;
  std::map<FaceId, std::unique_ptr<Face>> m_faces;
  FaceId m_nextId = FirstRegularFaceId;
  std::map<FaceId, TimerId> m_pendingRemovals;
};

} // namespace ndnlab::face
