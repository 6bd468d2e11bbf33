// A streamed answer's body: bytes pushed from any thread, read by
// libmicrohttpd's event thread; the connection is suspended while nothing
// is queued, so a waiting stream costs no thread and no polling.
#include <cstring>

#include "serve/response_stream_mhd.hpp"

namespace toolguard::serve {

/// The server's side of a ResponseStream.
struct ResponseStream::Internal {
  struct Holder {
    std::shared_ptr<ResponseStream> stream;
    StreamReleased released;
  };

  static void resumeLocked(ResponseStream& s) {
    if (s.suspended_ && s.connection_ != nullptr) {
      s.suspended_ = false;
      MHD_resume_connection(static_cast<MHD_Connection*>(s.connection_));
    }
  }

  static ssize_t read(void* cls, uint64_t, char* buffer, size_t max) {
    ResponseStream& s = *static_cast<Holder*>(cls)->stream;
    std::lock_guard lock(s.mutex_);
    if (!s.queued_.empty()) {
      const size_t n = std::min(max, s.queued_.size());
      std::memcpy(buffer, s.queued_.data(), n);
      s.queued_.erase(0, n);
      return static_cast<ssize_t>(n);
    }
    if (s.gone_) return MHD_CONTENT_READER_END_WITH_ERROR;  // cut off: it did not read
    if (s.closed_) return MHD_CONTENT_READER_END_OF_STREAM;
    // Nothing yet: the connection waits, without a thread, for push().
    s.suspended_ = true;
    MHD_suspend_connection(static_cast<MHD_Connection*>(s.connection_));
    return 0;
  }

  static void release(void* cls) {
    auto* holder = static_cast<Holder*>(cls);
    ResponseStream& s = *holder->stream;
    bool ended_early = false;
    {
      std::lock_guard lock(s.mutex_);
      ended_early = !s.closed_;
      s.gone_ = true;
      s.connection_ = nullptr;
      s.suspended_ = false;
    }
    if (holder->released) holder->released(holder->stream, ended_early);
    delete holder;
  }

  static MHD_Response* create(const std::shared_ptr<ResponseStream>& stream,
                              MHD_Connection* connection, StreamReleased released) {
    auto* holder = new Holder{stream, std::move(released)};
    MHD_Response* r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, &read, holder, &release);
    if (!r) {
      delete holder;
      return nullptr;
    }
    std::lock_guard lock(stream->mutex_);
    stream->connection_ = connection;
    return r;
  }
};

MHD_Response* streamResponse(const std::shared_ptr<ResponseStream>& stream,
                             MHD_Connection* connection, StreamReleased released) {
  return ResponseStream::Internal::create(stream, connection, std::move(released));
}

bool ResponseStream::push(std::string_view bytes) {
  std::lock_guard lock(mutex_);
  if (closed_ || gone_) return false;
  if (queued_.size() + bytes.size() > max_queued_) {
    gone_ = true;  // the reader ends the answer with an error
    Internal::resumeLocked(*this);
    return false;
  }
  queued_.append(bytes);
  Internal::resumeLocked(*this);
  return true;
}

void ResponseStream::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  Internal::resumeLocked(*this);
}

bool ResponseStream::open() const {
  std::lock_guard lock(mutex_);
  return !closed_ && !gone_;
}

}  // namespace toolguard::serve
