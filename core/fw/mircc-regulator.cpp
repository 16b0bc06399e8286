#include "core/fw/mircc-regulator.hpp"

#include <stdexcept>
#include <utility>

namespace ndnlab::fw {

struct MirccRegulator::FaceState
{
  FaceState(const fw::MirccOptions& opts, TimePoint now)
    : controller(opts, now), shaper(opts.shaperDepthFor(opts.capacity), opts.dataBytes(), opts.capacity)
  {}

  fw::MirccRateController controller;
  fw::InterestShaper<Interest> shaper;
  TimerId releaseTimer = 0;
  TimerId updateTimer = 0;
};

MirccRegulator::MirccRegulator(Env& env, fw::MirccOptions options, SendInterest send)
  : m_env(env), m_options(std::move(options)), m_send(std::move(send))
{}

MirccRegulator::~MirccRegulator()
{
  for (auto& [id, s] : m_faces) {
    m_env.timers().cancel(s->releaseTimer);
    m_env.timers().cancel(s->updateTimer);
  }
}

void MirccRegulator::enable(face::FaceId face, Rate capacity)
{
  if (auto it = m_faces.find(face); it != m_faces.end()) {
    FaceState& s = *it->second;
    s.controller.setCapacity(capacity); // validates
    s.shaper.setRate(capacity);
    s.shaper.setDepth(m_options.shaperDepthFor(capacity));
    release(face, s); // the next release time follows the new rate
    return;
  }
  fw::MirccOptions opts = m_options;
  opts.capacity = capacity;
  auto s = std::make_unique<FaceState>(opts, m_env.now()); // validates
  FaceState& ref = *s;
  m_faces.emplace(face, std::move(s));
  armUpdateTimer(face, ref);
}

void MirccRegulator::disable(face::FaceId face)
{
  auto it = m_faces.find(face);
  if (it == m_faces.end())
    return;
  m_env.timers().cancel(it->second->releaseTimer);
  m_env.timers().cancel(it->second->updateTimer);
  m_faces.erase(it);
}

MirccRegulator::Offer MirccRegulator::offer(face::FaceId face, const Interest& interest)
{
  auto it = m_faces.find(face);
  if (it == m_faces.end())
    return Offer::NotRegulated;
  FaceState& s = *it->second;
  const TimePoint now = m_env.now();
  // y(t) counts what was offered, dropped or not (the paper's "received Interests")
  s.controller.onInterestForwarded(now);
  maybeUpdate(s);
  if (s.shaper.enqueue(now, interest) == fw::InterestShaper<Interest>::Verdict::Dropped)
    return Offer::Dropped;
  const bool leavesNow = s.shaper.size() == 1 && s.shaper.nextReleaseTime() <= now;
  release(face, s);
  return leavesNow ? Offer::Sent : Offer::Queued;
}

void MirccRegulator::onDataDelay(face::FaceId face, Duration delay)
{
  auto it = m_faces.find(face);
  if (it == m_faces.end())
    return;
  it->second->controller.onDataDelay(delay);
  maybeUpdate(*it->second);
}

std::optional<Rate> MirccRegulator::rate(face::FaceId face) const
{
  auto it = m_faces.find(face);
  if (it == m_faces.end())
    return std::nullopt;
  const Rate r = it->second->controller.rate();
  if (!m_options.queueStamping)
    return r;
  // beyond the paper: between updates, a filling shaper lowers the stamp at once, in proportion
  // to its free share, to half of R(t) at most (below that a full shaper nearly stops the flows,
  // which then learn a higher rate only from the few Data they still get)
  const double free =
    1.0 - static_cast<double>(it->second->shaper.size()) / static_cast<double>(it->second->shaper.depth());
  return Rate::bitsPerSecond(std::max(r.bps() * std::max(free, 0.5), m_options.minRate.bps()));
}

const fw::MirccRateController* MirccRegulator::controller(face::FaceId face) const
{
  auto it = m_faces.find(face);
  return it == m_faces.end() ? nullptr : &it->second->controller;
}

size_t MirccRegulator::backlog(face::FaceId face) const
{
  auto it = m_faces.find(face);
  return it == m_faces.end() ? 0 : it->second->shaper.size();
}

const fw::InterestShaper<Interest>::Counters* MirccRegulator::shaperCounters(face::FaceId face) const
{
  auto it = m_faces.find(face);
  return it == m_faces.end() ? nullptr : &it->second->shaper.counters();
}

void MirccRegulator::maybeUpdate(FaceState& s)
{
  if (m_options.updateOnArrival)
    s.controller.update(m_env.now(), s.shaper.size());
}

void MirccRegulator::armUpdateTimer(face::FaceId id, FaceState& s)
{
  if (m_options.updateOnArrival)
    return;
  s.updateTimer = m_env.timers().schedule(s.controller.nextUpdateTime() - m_env.now(), [this, id] {
    auto it = m_faces.find(id);
    if (it == m_faces.end())
      return;
    FaceState& st = *it->second;
    st.updateTimer = 0;
    st.controller.update(m_env.now(), st.shaper.size());
    armUpdateTimer(id, st);
  });
}

void MirccRegulator::release(face::FaceId id, FaceState& s)
{
  m_env.timers().cancel(s.releaseTimer);
  s.releaseTimer = 0;
  std::vector<Interest> due = s.shaper.releaseDue(m_env.now());
  if (auto next = s.shaper.nextReleaseTime()) {
    s.releaseTimer = m_env.timers().schedule(*next - m_env.now(), [this, id] {
      auto it = m_faces.find(id);
      if (it == m_faces.end())
        return;
      it->second->releaseTimer = 0;
      release(id, *it->second);
    });
  }
  // last: sending may re-enter the forwarder, which may offer more to this face
  for (const Interest& interest : due)
    m_send(id, interest);
}

} // namespace ndnlab::fw
