#pragma once
// Transport over a stream socket (Unix or TCP): TLV framing of the byte stream, a bounded
// receive buffer, a bounded output queue flushed by gathered non-blocking writes.
//
// Receive: every read takes as many bytes as the buffer holds and delivers every whole TLV in
// them, directly from the buffer. An invalid TLV header cannot be resynchronised, so it closes
// the transport (Failed) with reason "bad-tlv-header". A valid header announcing a frame above
// maxFrameSize closes it too ("frame-too-large", as NFD and ndn-cxx do), unless
// skipOversizedFrames is set and the frame is at most 1 MiB: then its bytes are skipped as
// they arrive and counted as one drop, and the stream goes on.
// Send: frames queue; one flush per io_context turn writes the whole queue with writev
// (up to 64 frames per call). EOF -> Closing -> Closed ("eof", or "eof-mid-frame" when the
// peer left part of a frame unread, counted with those octets); socket errors -> Failed ->
// Closed ("socket-error"). Frames still queued when the transport closes are counted drops
// ("send-queue-discarded", one per frame). Final state changes are posted, so a face is never
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
  /// Receive buffer, bytes: the most one read takes (raised to 2 x maxFrameSize if smaller).
  size_t receiveBufferSize = 256 * 1024;
  /// Send queue bound, bytes; frames beyond it are dropped ("send-queue-full").
  size_t maxSendQueueBytes = 32 * 1024 * 1024;
  /// SO_SNDBUF and SO_RCVBUF, bytes; 0 = kernel default (the kernel may cap the value).
  int socketBufferSize = 4 * 1024 * 1024;
  /// Skip (count and discard) a frame above maxFrameSize, up to 1 MiB, instead of closing.
  /// Off in the daemon (a peer that sends one is broken, NFD closes it); on in the tools'
  /// connection to their forwarder, so an application survives one oversized frame from a
  /// foreign forwarder.
  bool skipOversizedFrames = false;
};

template<typename Protocol>
class StreamTransport : public SocketTransport
{
public:
  using Socket = typename Protocol::socket;

  /// Takes a connected socket and starts reading.
  StreamTransport(Env& env, Socket&& socket, const TransportInfo& info,
                  const StreamTransportOptions& options = {});
  ~StreamTransport() override;

  void close() override;
  /// Internal queue + bytes the kernel has not sent (SIOCOUTQ). The kernel figure is sampled
  /// at most once per event-loop batch (the link service asks for every outgoing packet).
  size_t sendQueueLength() const override;
  /// Bytes left in the socket's receive queue after the last read (FIONREAD, sampled only when
  /// a read filled the whole buffer; a shorter read drained the socket).
  size_t receiveQueueLength() const override { return m_receiveBacklog; }

  const StreamTransportOptions& options() const { return m_options; }

protected:
  void doSend(SharedBuffer frame, face::EndpointId endpoint) override;

  /// EOF (`isError` false) or socket error. Default: close ("eof") or fail ("socket-error").
  virtual void handleFailure(std::string_view reason, bool isError);

  /// Closes the socket, records `reason`, sets Failed (error) or Closing, then posts Closed.
  void closeWithReason(std::string_view reason, bool isError);
  /// Starts reading and writing on `socket` (used by reconnecting subclasses).
  void adoptSocket(Socket&& socket);
  void closeSocket();
  /// Empties the send queue (each frame a counted "send-queue-discarded" drop) and the
  /// receive buffer.
  void clearQueues();
  void startReceive();

  Socket m_socket;

private:
  void handleReceive(const std::error_code& ec, size_t n);
  void scheduleFlush();
  void flush();
  void consume(size_t n);
  void updateKernelQueue();
  void updateReceiveBacklog(bool readFilledBuffer);

  StreamTransportOptions m_options;
  Buffer m_rbuf;
  size_t m_rend = 0;
  uint64_t m_skip = 0; ///< octets of an oversized frame still to discard (skipOversizedFrames)
  bool m_reading = false;
  std::deque<SharedBuffer> m_sendQueue;
  size_t m_sendQueueBytes = 0;
  size_t m_frontOffset = 0;
  size_t m_kernelQueue = 0; ///< last SIOCOUTQ sample
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
