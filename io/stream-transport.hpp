#pragma once
// Transport over a stream socket (Unix or TCP): TLV framing of the byte stream, a bounded
// receive buffer, a bounded output queue flushed by gathered non-blocking writes.
//
// Receive: an idle transport holds no receive buffer: it waits for the socket to become
// readable, then takes a buffer (uninitialised) and reads as many bytes as it holds, and
// delivers every whole TLV in them, directly from the buffer. When every byte read was
// delivered, the buffer is given back, so an idle face costs no buffer at all (3,000 idle
// connections used to hold 256 KiB each). The buffer's size adapts: from 2 x maxFrameSize,
// doubled after a read that filled it, up to receiveBufferSize, and halved after a read that
// used a quarter of it or less. An invalid TLV header cannot be resynchronised, so it closes
// the transport (Failed) with reason "bad_tlv_header". A valid header announcing a frame above
// maxFrameSize closes it too ("frame_too_large", as NFD and ndn-cxx do), unless
// skipOversizedFrames is set and the frame is at most 1 MiB: then its bytes are skipped as
// they arrive and counted as one drop, and the stream goes on.
// Send: frames queue; one flush per io_context turn writes the whole queue with writev
// (up to 64 frames per call). EOF -> Closing -> Closed ("eof", or "eof_mid_frame" when the
// peer left part of a frame unread, counted with those octets); socket errors -> Failed ->
// Closed ("socket_error"). Frames still queued when the transport closes are counted drops
// ("send_queue_discarded", one per frame). Final state changes are posted, so a face is never
// destroyed inside a call into its transport.

#include "io/socket-transport.hpp"
#include "io/tlv-framer.hpp"

#include <asio/ip/tcp.hpp>
#include <asio/local/stream_protocol.hpp>

#include <deque>
#include <vector>

namespace ndnlab::io {

struct StreamTransportOptions
{
  /// Largest frame (whole top-level TLV) accepted, bytes; a larger header closes the face.
  size_t maxFrameSize = DefaultMaxFrameSize;
  /// Largest receive buffer, bytes: the most one read takes (raised to 2 x maxFrameSize if
  /// smaller). Reads start at 2 x maxFrameSize and grow towards it while they fill the buffer.
  size_t receiveBufferSize = 256 * 1024;
  /// Send queue bound, bytes; frames beyond it are dropped ("send_queue_full").
  size_t maxSendQueueBytes = 32 * 1024 * 1024;
  /// SO_SNDBUF and SO_RCVBUF, bytes; 0 = kernel default (the kernel may cap the value).
  int socketBufferSize = 4 * 1024 * 1024;
  /// Skip (count and discard) a frame above maxFrameSize, up to 1 MiB, instead of closing.
  /// Off in the daemon (a peer that sends one is broken, NFD closes it); on in the tools'
  /// connection to their forwarder, so an application survives one oversized frame from a
  /// foreign forwarder.
  bool skipOversizedFrames = false;
  /// A transport that receives nothing this long is closed ("idle_timeout"); 0 = never. The
  /// TCP channel sets it on accepted (on-demand) faces.
  Duration idleTimeout = Duration::zero();
};

template<typename Protocol>
class StreamTransport : public SocketTransport
{
public:
  using Socket = typename Protocol::socket;

  /// Takes a connected socket and starts reading.
  StreamTransport(Env& env, Socket&& socket, const TransportInfo& info, const StreamTransportOptions& options = {});
  ~StreamTransport() override;

  void close() override;
  /// Internal queue + bytes the kernel has not sent (SIOCOUTQ). The kernel figure is sampled
  /// at most once per event-loop batch (the link service asks for every outgoing packet).
  size_t sendQueueLength() const override;
  /// Bytes left in the socket's receive queue after the last read (FIONREAD, sampled only when
  /// a read filled the whole buffer; a shorter read drained the socket).
  size_t receiveQueueLength() const override { return m_receiveBacklog; }

  const StreamTransportOptions& options() const { return m_options; }
  /// Bytes of receive buffer held now (0 while idle).
  size_t receiveBufferCapacity() const { return m_rcap; }

protected:
  void doSend(SharedBuffer frame, face::EndpointId endpoint) override;

  /// EOF (`isError` false) or socket error. Default: close ("eof") or fail ("socket_error").
  virtual void handleFailure(CloseReason reason, bool isError);

  /// Closes the socket, records `reason`, sets Failed (error) or Closing, then posts Closed.
  void closeWithReason(CloseReason reason, bool isError);
  /// Starts reading and writing on `socket` (used by reconnecting subclasses).
  void adoptSocket(Socket&& socket);
  void closeSocket();
  /// Empties the send queue (each frame a counted "send_queue_discarded" drop) and the
  /// receive buffer.
  void clearQueues();
  void startReceive();

  Socket m_socket;

private:
  /// The socket is readable: a non-blocking read into a fresh buffer.
  void readAvailable();
  /// After a read of `n` bytes into `room`: backlog sample, buffer size, then handleReceive.
  void afterRead(const std::error_code& ec, size_t n, size_t room);
  void handleReceive(const std::error_code& ec, size_t n);
  /// A buffer of the current size holding the m_rend bytes already received.
  void ensureReceiveBuffer();
  /// options.idleTimeout: checks `after` from now whether anything arrived meanwhile.
  void scheduleIdleCheck(Duration after);
  void scheduleFlush();
  void flush();
  void consume(size_t n);
  void updateKernelQueue();
  void updateReceiveBacklog(bool readFilledBuffer);

  StreamTransportOptions m_options;
  std::unique_ptr<uint8_t[]> m_rbuf; ///< null while idle (nothing of a frame held)
  size_t m_rcap = 0;                 ///< size of m_rbuf
  size_t m_rsize = 0;                ///< size of the next buffer (adapts to the reads)
  size_t m_rend = 0;
  uint64_t m_skip = 0; ///< octets of an oversized frame still to discard (skipOversizedFrames)
  bool m_reading = false;
  TimePoint m_lastReceive{};
  TimerId m_idleTimer = 0;
  std::deque<SharedBuffer> m_sendQueue;
  size_t m_sendQueueBytes = 0;
  size_t m_frontOffset = 0;
  size_t m_kernelQueue = 0;    ///< last SIOCOUTQ sample
  size_t m_receiveBacklog = 0; ///< last FIONREAD sample
  bool m_flushPosted = false;
  bool m_waitingWritable = false;
  std::vector<asio::const_buffer> m_iov;
};

extern template class StreamTransport<asio::local::stream_protocol>;
extern template class StreamTransport<asio::ip::tcp>;

/// Unix stream socket transport. NFD URIs: local "unix://<path>", remote "fd://<fd>".
using UnixStreamTransport = StreamTransport<asio::local::stream_protocol>;

/// Sets the socket options every stream transport wants (buffers, TCP_NODELAY for TCP).
void configureStreamSocket(asio::local::stream_protocol::socket& s, const StreamTransportOptions& o);
void configureStreamSocket(asio::ip::tcp::socket& s, const StreamTransportOptions& o);

} // namespace ndnlab::io
