#include "io/stream-transport.hpp"
#include "io/socket-buffers.hpp"

#include <asio/post.hpp>

#include <sys/ioctl.h>
#include <linux/sockios.h>

#include <algorithm>
#include <cstring>

namespace ndnlab::io {

namespace {

constexpr size_t MaxIov = 64; // asio gathers at most 64 buffers per call
/// skipOversizedFrames: a larger announced frame is not a packet at all (a broken or hostile
/// peer); skipping it could swallow the stream forever, so it closes the transport instead.
constexpr uint64_t MaxSkippedFrameSize = 1024 * 1024;

template<typename Socket>
void setBuffers(Socket& s, int size)
{
  if (size > 0)
    (void)setSocketBuffers(s.native_handle(), size);
}

} // namespace

void configureStreamSocket(asio::local::stream_protocol::socket& s, const StreamTransportOptions& o)
{
  setBuffers(s, o.socketBufferSize);
}

void configureStreamSocket(asio::ip::tcp::socket& s, const StreamTransportOptions& o)
{
  setBuffers(s, o.socketBufferSize);
  std::error_code ec;
  s.set_option(asio::ip::tcp::no_delay(true), ec);
}

template<typename Protocol>
StreamTransport<Protocol>::StreamTransport(Env& env, Socket&& socket, const TransportInfo& info,
                                           const StreamTransportOptions& options)
  : SocketTransport(env, info), m_socket(std::move(socket)), m_options(options)
{
  m_options.receiveBufferSize = std::max(m_options.receiveBufferSize, 2 * m_options.maxFrameSize);
  m_rsize = 2 * m_options.maxFrameSize;
  m_iov.reserve(MaxIov);
  adoptSocket(std::move(m_socket));
  m_lastReceive = env.now();
  if (m_options.idleTimeout > Duration::zero())
    scheduleIdleCheck(m_options.idleTimeout);
}

template<typename Protocol>
void StreamTransport<Protocol>::scheduleIdleCheck(Duration after)
{
  m_idleTimer = m_env.timers().schedule(after, [this, g = guard()] {
    if (g.expired())
      return;
    m_idleTimer = 0;
    if (isGoingAway())
      return;
    const Duration idle = m_env.now() - m_lastReceive;
    if (idle >= m_options.idleTimeout)
      closeWithReason(CloseReason::IdleTimeout, false);
    else
      scheduleIdleCheck(m_options.idleTimeout - idle);
  });
}

template<typename Protocol>
StreamTransport<Protocol>::~StreamTransport()
{
  m_guard.reset(); // pending handlers see the transport gone
  if (m_idleTimer)
    m_env.timers().cancel(m_idleTimer);
  std::error_code ec;
  m_socket.close(ec);
}

template<typename Protocol>
void StreamTransport<Protocol>::adoptSocket(Socket&& socket)
{
  if (&socket != &m_socket)
    m_socket = std::move(socket);
  std::error_code ec;
  m_socket.non_blocking(true, ec);
  configureStreamSocket(m_socket, m_options);
  m_rend = 0;
  m_skip = 0;
  m_reading = false;
  startReceive();
}

template<typename Protocol>
void StreamTransport<Protocol>::startReceive()
{
  if (m_reading || !m_socket.is_open())
    return;
  m_reading = true;
  if (m_rend == 0) {
    // Nothing of a frame is held: give the buffer back and wait for bytes without one.
    m_rbuf.reset();
    m_rcap = 0;
    m_socket.async_wait(Socket::wait_read, [this, g = guard()](const std::error_code& ec) {
      if (g.expired())
        return;
      m_reading = false;
      if (ec)
        handleReceive(ec, 0);
      else
        readAvailable();
    });
    return;
  }
  ensureReceiveBuffer();
  size_t room = m_rcap - m_rend;
  m_socket.async_read_some(asio::buffer(m_rbuf.get() + m_rend, room),
                           [this, room, g = guard()](const std::error_code& ec, size_t n) {
                             if (g.expired())
                               return;
                             m_reading = false;
                             afterRead(ec, n, room);
                           });
}

template<typename Protocol>
void StreamTransport<Protocol>::readAvailable()
{
  if (!m_socket.is_open())
    return;
  ensureReceiveBuffer();
  const size_t room = m_rcap - m_rend;
  std::error_code ec;
  size_t n = m_socket.read_some(asio::buffer(m_rbuf.get() + m_rend, room), ec); // non-blocking
  if (ec == asio::error::would_block || ec == asio::error::try_again) {
    startReceive(); // woken without bytes after all
    return;
  }
  afterRead(ec, n, room);
}

template<typename Protocol>
void StreamTransport<Protocol>::afterRead(const std::error_code& ec, size_t n, size_t room)
{
  const bool filled = !ec && n == room;
  updateReceiveBacklog(filled);
  if (filled)
    m_rsize = std::min(2 * m_rsize, m_options.receiveBufferSize);
  else if (!ec && n <= m_rsize / 4)
    m_rsize = std::max(m_rsize / 2, 2 * m_options.maxFrameSize);
  handleReceive(ec, n);
}

template<typename Protocol>
void StreamTransport<Protocol>::ensureReceiveBuffer()
{
  if (m_rbuf && m_rcap >= m_rsize)
    return;
  // a partial frame (< maxFrameSize) may be held: the new buffer keeps it
  auto bigger = std::make_unique_for_overwrite<uint8_t[]>(m_rsize);
  if (m_rend > 0)
    std::memcpy(bigger.get(), m_rbuf.get(), m_rend);
  m_rbuf = std::move(bigger);
  m_rcap = m_rsize;
}

template<typename Protocol>
void StreamTransport<Protocol>::handleReceive(const std::error_code& ec, size_t n)
{
  if (ec) {
    if (ec == asio::error::operation_aborted || !m_socket.is_open())
      return;
    if (ec == asio::error::eof) {
      if (m_rend > 0 || m_skip > 0) {
        // The peer closed in the middle of a frame: what it sent of it is lost.
        ++m_ioCounters.nEofMidFrame;
        traceDrop(DropReason::EofMidFrame, static_cast<int64_t>(m_rend));
        handleFailure(CloseReason::EofMidFrame, false);
      }
      else
        handleFailure(CloseReason::Eof, false);
    }
    else {
      ++m_ioCounters.nSocketErrors;
      handleFailure(CloseReason::SocketError, true);
    }
    return;
  }
  m_rend += n;
  if (n > 0)
    m_lastReceive = m_env.now();
  auto g = guard();
  size_t pos = 0;
  if (m_skip > 0) { // the rest of an oversized frame
    size_t k = static_cast<size_t>(std::min<uint64_t>(m_skip, m_rend));
    m_skip -= k;
    pos = k;
  }
  while (pos < m_rend) {
    ByteSpan rest(m_rbuf.get() + pos, m_rend - pos);
    FrameCheck c = checkFrame(rest, m_options.maxFrameSize);
    if (c.status == FrameStatus::NeedMore)
      break;
    if (c.status == FrameStatus::TooLarge && m_options.skipOversizedFrames && c.announced <= MaxSkippedFrameSize) {
      ++m_ioCounters.nFrameTooLarge;
      traceDrop(dropReason(c.status), static_cast<int64_t>(std::min<uint64_t>(c.announced, INT64_MAX)));
      if (c.announced <= rest.size())
        pos += static_cast<size_t>(c.announced);
      else {
        m_skip = c.announced - rest.size();
        pos = m_rend;
      }
      continue;
    }
    if (c.status != FrameStatus::Complete) {
      if (c.status == FrameStatus::TooLarge)
        ++m_ioCounters.nFrameTooLarge;
      else
        ++m_ioCounters.nBadHeader;
      traceDrop(dropReason(c.status), static_cast<int64_t>(rest.size()));
      closeWithReason(io::closeReason(c.status), true);
      return;
    }
    receive(rest.first(c.size));
    if (g.expired())
      return;
    if (state() != face::TransportState::Up && state() != face::TransportState::Down)
      return;
    pos += c.size;
  }
  if (pos > 0) {
    if (pos < m_rend)
      std::memmove(m_rbuf.get(), m_rbuf.get() + pos, m_rend - pos);
    m_rend -= pos;
  }
  startReceive();
}

template<typename Protocol>
void StreamTransport<Protocol>::doSend(SharedBuffer frame, face::EndpointId)
{
  if (!m_socket.is_open())
    return;
  size_t n = frame->size();
  if (m_sendQueueBytes + n > m_options.maxSendQueueBytes) {
    ++m_ioCounters.nSendQueueFull;
    traceDrop(DropReason::SendQueueFull, static_cast<int64_t>(n));
    return;
  }
  m_sendQueue.push_back(std::move(frame));
  m_sendQueueBytes += n;
  scheduleFlush();
}

template<typename Protocol>
void StreamTransport<Protocol>::scheduleFlush()
{
  if (m_flushPosted || m_waitingWritable)
    return;
  m_flushPosted = true;
  asio::post(m_socket.get_executor(), [this, g = guard()] {
    if (g.expired())
      return;
    m_flushPosted = false;
    flush();
  });
}

template<typename Protocol>
void StreamTransport<Protocol>::flush()
{
  while (!m_sendQueue.empty() && m_socket.is_open()) {
    m_iov.clear();
    for (auto it = m_sendQueue.begin(); it != m_sendQueue.end() && m_iov.size() < MaxIov; ++it) {
      const Buffer& b = **it;
      size_t skip = m_iov.empty() ? m_frontOffset : 0;
      m_iov.emplace_back(b.data() + skip, b.size() - skip);
    }
    std::error_code ec;
    size_t n = m_socket.write_some(m_iov, ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      updateKernelQueue();
      m_waitingWritable = true;
      m_socket.async_wait(Socket::wait_write, [this, g = guard()](const std::error_code& ec) {
        if (g.expired())
          return;
        m_waitingWritable = false;
        if (ec) {
          if (ec != asio::error::operation_aborted && m_socket.is_open()) {
            ++m_ioCounters.nSocketErrors;
            handleFailure(CloseReason::SocketError, true);
          }
          return;
        }
        flush();
      });
      return;
    }
    if (ec == asio::error::interrupted)
      continue;
    if (ec) {
      ++m_ioCounters.nSocketErrors;
      handleFailure(ec == asio::error::broken_pipe || ec == asio::error::connection_reset ? CloseReason::Eof
                                                                                          : CloseReason::SocketError,
                    !(ec == asio::error::broken_pipe || ec == asio::error::connection_reset));
      return;
    }
    consume(n);
  }
}

template<typename Protocol>
void StreamTransport<Protocol>::consume(size_t n)
{
  while (n > 0 && !m_sendQueue.empty()) {
    size_t size = m_sendQueue.front()->size();
    size_t remaining = size - m_frontOffset;
    if (n >= remaining) {
      n -= remaining;
      m_sendQueueBytes -= size;
      m_sendQueue.pop_front();
      m_frontOffset = 0;
    }
    else {
      m_frontOffset += n;
      n = 0;
    }
  }
}

template<typename Protocol>
size_t StreamTransport<Protocol>::sendQueueLength() const
{
  // While a flush is pending (frames of this event-loop turn are being queued) or the socket
  // is blocked, the sample taken at the start of the batch / at EAGAIN stands.
  if (!m_flushPosted && !m_waitingWritable)
    const_cast<StreamTransport*>(this)->updateKernelQueue();
  return m_sendQueueBytes - m_frontOffset + m_kernelQueue;
}

template<typename Protocol>
void StreamTransport<Protocol>::updateReceiveBacklog(bool readFilledBuffer)
{
  int pending = 0;
  if (readFilledBuffer && m_socket.is_open() && ::ioctl(m_socket.native_handle(), FIONREAD, &pending) == 0 &&
      pending > 0)
    m_receiveBacklog = static_cast<size_t>(pending);
  else
    m_receiveBacklog = 0;
}

template<typename Protocol>
void StreamTransport<Protocol>::updateKernelQueue()
{
  int kernel = 0;
  if (m_socket.is_open() && ::ioctl(m_socket.native_handle(), SIOCOUTQ, &kernel) == 0 && kernel > 0)
    m_kernelQueue = static_cast<size_t>(kernel);
  else
    m_kernelQueue = 0;
}

template<typename Protocol>
void StreamTransport<Protocol>::clearQueues()
{
  if (!m_sendQueue.empty()) {
    size_t bytes = m_sendQueueBytes - m_frontOffset;
    m_ioCounters.nQueueDiscarded += m_sendQueue.size();
    for (const SharedBuffer& f : m_sendQueue)
      m_env.emit(TraceEvent::dropped(EventKind::IoDrop, m_traceFaceId, DropReason::SendQueueDiscarded,
                                     static_cast<int64_t>(f->size())));
    NDNLAB_LOG(m_env, LogLevel::Debug, "io", remoteUri(), " send_queue_discarded frames=", m_sendQueue.size(),
               " octets=", bytes, " DROP");
  }
  m_sendQueue.clear();
  m_sendQueueBytes = 0;
  m_frontOffset = 0;
  m_kernelQueue = 0;
  m_rend = 0;
  m_skip = 0;
}

template<typename Protocol>
void StreamTransport<Protocol>::closeSocket()
{
  std::error_code ec;
  if (m_socket.is_open()) {
    m_socket.shutdown(asio::socket_base::shutdown_both, ec);
    m_socket.close(ec);
  }
  m_reading = false;
  m_waitingWritable = false;
}

template<typename Protocol>
void StreamTransport<Protocol>::handleFailure(CloseReason reason, bool isError)
{
  closeWithReason(reason, isError);
}

template<typename Protocol>
void StreamTransport<Protocol>::closeWithReason(CloseReason reason, bool isError)
{
  if (isGoingAway())
    return;
  recordClose(reason, isError ? LogLevel::Info : LogLevel::Debug);
  closeSocket();
  clearQueues();
  closeNextTurn(isError ? face::TransportState::Failed : face::TransportState::Closing);
}

template<typename Protocol>
void StreamTransport<Protocol>::close()
{
  if (isGoingAway())
    return;
  recordClose(CloseReason::ClosedLocally, LogLevel::Debug);
  auto g = guard();
  // Give queued frames one last non-blocking attempt (e.g. a final management response).
  flush();
  if (g.expired())
    return;
  if (isGoingAway())
    return;
  closeSocket();
  clearQueues();
  closeNextTurn(face::TransportState::Closing);
}

template class StreamTransport<asio::local::stream_protocol>;
template class StreamTransport<asio::ip::tcp>;

} // namespace ndnlab::io
