#include "io/face-admission.hpp"

namespace ndnlab::io {

FaceAdmission::FaceAdmission(Env& env, FaceLimits limits, std::string what)
  : m_env(env), m_what(std::move(what)), m_state(std::make_shared<State>())
{
  m_state->limits = limits;
}

size_t FaceAdmission::facesFrom(const std::string& address) const
{
  auto it = m_state->perAddress.find(address);
  return it == m_state->perAddress.end() ? 0 : it->second;
}

FaceAdmission::Ticket FaceAdmission::admit(const std::string& address)
{
  State& s = *m_state;
  if (s.limits.maxFaces > 0 && s.total >= s.limits.maxFaces) {
    ++m_counters.nTooManyFaces;
    refuse(DropReason::TooManyFaces, address);
    return nullptr;
  }
  const bool perAddress = !address.empty() && s.limits.maxFacesPerAddress > 0;
  if (perAddress && facesFrom(address) >= s.limits.maxFacesPerAddress) {
    ++m_counters.nTooManyFacesPerAddress;
    refuse(DropReason::TooManyFacesPerAddress, address);
    return nullptr;
  }
  ++s.total;
  if (perAddress)
    ++s.perAddress[address];
  // The deleter gives the places back, if the channel still exists.
  // (The pointer is only non-null; the deleter deletes nothing.)
  return Ticket(static_cast<void*>(m_state.get()), [w = std::weak_ptr<State>(m_state), address, perAddress](void*) {
    auto st = w.lock();
    if (!st)
      return;
    --st->total;
    if (perAddress) {
      auto it = st->perAddress.find(address);
      if (it != st->perAddress.end() && --it->second == 0)
        st->perAddress.erase(it);
    }
  });
}

void FaceAdmission::refuse(DropReason reason, const std::string& address)
{
  m_env.emit(TraceEvent::dropped(EventKind::IoDrop, 0, reason));
  ++m_unlogged;
  const TimePoint now = m_env.now();
  if (m_logged && now - m_lastLog < LogInterval)
    return;
  const auto& l = m_state->limits;
  NDNLAB_LOG(m_env, LogLevel::Warn, "io", m_what, ": refused ", m_unlogged, " connection(s) (", reason,
             ", latest from ", address.empty() ? "a local client" : address, "); limits: ", l.maxFaces, " faces, ",
             l.maxFacesPerAddress, " per address (0 = none)");
  m_logged = true;
  m_lastLog = now;
  m_unlogged = 0;
}

} // namespace ndnlab::io
