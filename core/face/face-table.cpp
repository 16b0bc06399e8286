#include "core/face/face-table.hpp"

#include "core/face/generic-link-service.hpp"

#include <stdexcept>

namespace ndnlab::face {

FaceTable::FaceTable(Env& env) : m_env(env)
{}

FaceTable::~FaceTable()
{
  for (const auto& [id, timer] : m_pendingRemovals)
    m_env.timers().cancel(timer);
  for (auto& [id, face] : m_faces)
    face->afterClose = nullptr;
}

FaceId FaceTable::add(std::unique_ptr<Face> face)
{
  if (!face)
    throw std::invalid_argument("FaceTable::add: null face");
  FaceId id = m_nextId++;
  install(std::move(face), id);
  return id;
}

void FaceTable::addReserved(std::unique_ptr<Face> face, FaceId id)
{
  if (!face)
    throw std::invalid_argument("FaceTable::addReserved: null face");
  if (id == InvalidFaceId || id >= FirstRegularFaceId)
    throw std::invalid_argument("FaceTable::addReserved: FaceId " + std::to_string(id) +
                                " is not a reserved id (1..255)");
  if (m_faces.count(id) != 0)
    throw std::invalid_argument("FaceTable::addReserved: FaceId " + std::to_string(id) + " is already used");
  install(std::move(face), id);
}

void FaceTable::install(std::unique_ptr<Face> face, FaceId id)
{
  Face& f = *face;
  f.setId(id);
  if (auto* gls = dynamic_cast<GenericLinkService*>(&f.linkService()))
    gls->setFaceId(id); // log lines and drop traces name the face
  m_faces.emplace(id, std::move(face));
  // The transport reports Closed/Failed from inside its own code; destroying the face there
  // would pull the rug from under it, so removal waits for a zero-delay timer.
  f.afterClose = [this](Face& closed) { removeLater(closed.id()); };
  afterAdd(f);
  // A face may already be closed when added (e.g. a connection that failed immediately).
  if (f.state() == TransportState::Closed || f.state() == TransportState::Failed)
    removeLater(id);
}

void FaceTable::removeLater(FaceId id)
{
  if (m_faces.count(id) == 0 || m_pendingRemovals.count(id) != 0)
    return;
  TimerId t = m_env.timers().schedule(Duration::zero(), [this, id] {
    m_pendingRemovals.erase(id);
    remove(id);
  });
  m_pendingRemovals.emplace(id, t);
}

bool FaceTable::remove(FaceId id)
{
  auto it = m_faces.find(id);
  if (it == m_faces.end())
    return false;
  if (auto p = m_pendingRemovals.find(id); p != m_pendingRemovals.end()) {
    m_env.timers().cancel(p->second);
    m_pendingRemovals.erase(p);
  }
  beforeRemove(*it->second);
  // beforeRemove handlers must not add or remove faces; look the face up again regardless.
  it = m_faces.find(id);
  if (it == m_faces.end())
    return true;
  std::unique_ptr<Face> face = std::move(it->second);
  m_faces.erase(it);
  face->afterClose = nullptr;
  face->afterReceiveInterest = nullptr;
  face->afterReceiveData = nullptr;
  face->afterReceiveNack = nullptr;
  face.reset();
  return true;
}

Face* FaceTable::get(FaceId id) const
{
  auto it = m_faces.find(id);
  return it == m_faces.end() ? nullptr : it->second.get();
}

} // namespace ndnlab::face
