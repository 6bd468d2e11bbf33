// An HTTP/1.1 response read as it arrives (http/http_stream.hpp).
#include "http_stream.hpp"

#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>

#include "plain_http.hpp"
#include "response_head.hpp"
#include "tls_tunnel.hpp"

namespace toolguard::detail {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMaxHeaderBytes = 64u << 10;

bool hasLineBreak(std::string_view text) {
  return text.find_first_of("\r\n") != std::string_view::npos ||
         text.find('\0') != std::string_view::npos;
}

// Writes all of `bytes` to the non-blocking socket by `deadline`.
Expected<bool> sendWhole(int fd, std::string_view bytes, Clock::time_point deadline) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n > 0) {
      bytes.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!waitFor(fd, POLLOUT, deadline)) return fail("timed out sending the request");
      continue;
    }
    return fail(std::string("cannot send the request: ") + std::strerror(errno));
  }
  return true;
}

// Whether a whole answer's bytes may be waiting (HttpResponseStream::arrivedAnswerType).
constexpr size_t kMostPeeked = 64 * 1024;

// Whether `body` holds a whole chunked body: every chunk, the last (size
// 0) and an empty trailer. Anything unusual (extensions, trailers) is "no".
bool wholeChunkedBody(std::string_view body) {
  for (;;) {
    const size_t line_end = body.find("\r\n");
    if (line_end == std::string_view::npos || line_end == 0) return false;
    size_t size = 0;
    const auto [end, error] = std::from_chars(body.data(), body.data() + line_end, size, 16);
    if (error != std::errc() || end != body.data() + line_end) return false;
    body.remove_prefix(line_end + 2);
    if (size == 0) return body.substr(0, 2) == "\r\n";
    if (body.size() < size + 2 || body.substr(size, 2) != "\r\n") return false;
    body.remove_prefix(size + 2);
  }
}

}  // namespace

Expected<HttpUrl> parseHttpUrl(std::string_view url) {
  HttpUrl parsed;
  parsed.tls = url.starts_with("https://");
  if (!parsed.tls && !url.starts_with("http://")) {
    return fail("the URL must start with http:// or https://");
  }
  std::string_view rest = url.substr(parsed.tls ? 8 : 7);
  const size_t path_start = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, path_start);
  std::string_view path = path_start == std::string_view::npos ? "" : rest.substr(path_start);
  if (path.find('#') != std::string_view::npos) return fail("a URL fragment (#) is not sent");
  if (authority.find('@') != std::string_view::npos) {
    return fail("credentials in the URL are not taken: give them as a header");
  }
  if (authority.empty()) return fail("the URL names no host");
  for (char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) {
      return fail("the URL holds a space or a control character");
    }
  }
  parsed.authority = std::string(authority);
  if (authority.starts_with('[')) {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return fail("an unclosed [ in the URL");
    parsed.host = std::string(authority.substr(1, close - 1));
    authority.remove_prefix(close + 1);
    if (!authority.empty() && !authority.starts_with(':')) return fail("junk after ] in the URL");
    if (authority.starts_with(':')) parsed.port = std::string(authority.substr(1));
  } else if (const size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    parsed.host = std::string(authority.substr(0, colon));
    parsed.port = std::string(authority.substr(colon + 1));
  } else {
    parsed.host = std::string(authority);
  }
  if (parsed.port.empty()) parsed.port = parsed.tls ? "443" : "80";
  if (parsed.host.empty() || parsed.port.size() > 5 ||
      parsed.port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(parsed.port) == 0 || std::stoul(parsed.port) > 65535) {
    return fail("expected http://HOST[:PORT][/PATH]");
  }
  parsed.path = path.empty() ? "/" : std::string(path);
  if (parsed.path.front() == '?') parsed.path.insert(0, "/");
  return parsed;
}

Expected<std::unique_ptr<HttpResponseStream>> HttpResponseStream::connect(const HttpUrl& url,
                                                                          long timeout_ms) {
  std::unique_ptr<HttpResponseStream> stream(new HttpResponseStream());
  if (url.tls) {
    Expected<TlsTunnel> tunnel = openTlsTunnel(url.host, url.port, timeout_ms);
    if (!tunnel) return fail("cannot connect to " + url.authority + ": " + tunnel.error());
    stream->fd_ = tunnel->fd;
    stream->tunnel_pid_ = tunnel->pid;
    return stream;
  }
  ServiceAddress address;
  address.host = url.host;
  address.port = url.port;
  Expected<int> connected =
      connectWithin(address, Clock::now() + std::chrono::milliseconds(timeout_ms));
  if (!connected) return fail("cannot connect to " + url.authority + ": " + connected.error());
  stream->fd_ = *connected;
  // A request's head and body, and a small answer, go out at once, not held
  // back for the acknowledgement of the last segment (40 ms with a delayed ACK).
  const int one = 1;
  ::setsockopt(stream->fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return stream;
}

Expected<bool> HttpResponseStream::send(const HttpUrl& url, const HttpRequest& request,
                                        long timeout_ms) {
  if (request.method.empty() || hasLineBreak(request.method) ||
      request.method.find(' ') != std::string::npos) {
    return fail("the method holds a space or a line break");
  }
  std::string head = request.method + " " + url.path + " HTTP/1.1\r\nHost: " + url.authority +
                     (request.keep_alive ? "\r\n" : "\r\nConnection: close\r\n");
  for (const auto& [name, value] : request.headers) {
    if (name.empty() || hasLineBreak(name) || name.find_first_of(": ") != std::string::npos ||
        hasLineBreak(value)) {
      return fail("the header \"" + (hasLineBreak(name) ? std::string("?") : name) +
                  "\" holds a line break or is not a header name");
    }
    head += name + ": " + value + "\r\n";
  }
  if (!request.body.empty() || request.method == "POST" || request.method == "PUT") {
    head += "Content-Length: " + std::to_string(request.body.size()) + "\r\n";
  }
  head += "\r\n";
  head_request_ = request.method == "HEAD";
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  // One write for the usual small message.
  if (request.body.size() <= (64u << 10)) {
    head += request.body;
    return sendWhole(fd_, head, deadline);
  }
  if (Expected<bool> sent = sendWhole(fd_, head, deadline); !sent) return sent;
  return sendWhole(fd_, request.body, deadline);
}

Expected<bool> HttpResponseStream::readHead(long timeout_ms) {
  // Interim answers (100 Continue, 103 Early Hints) come before the real one.
  for (;;) {
    Expected<bool> head = readOneHead(timeout_ms);
    if (!head || head_.status / 100 != 1 || head_.status == 101) return head;
    head_.headers.clear();
  }
}

Expected<bool> HttpResponseStream::readOneHead(long timeout_ms) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  size_t end = std::string::npos;
  while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (buffer_.size() > kMaxHeaderBytes) return fail("the response headers are too long");
    long left = -1;
    if (timeout_ms >= 0) {
      left = std::max<long>(
          0,
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
    }
    Read why = Read::Data;
    if (!fill(left, why)) {
      if (why == Read::TimedOut) return fail("timed out waiting for the response");
      return fail(error_.empty() ? "the server closed the connection before answering" : error_);
    }
  }
  if (end > kMaxHeaderBytes) return fail("the response headers are too long");
  Expected<ResponseHead> head = parseResponseHead(std::string_view(buffer_).substr(0, end));
  buffer_.erase(0, end + 4);
  if (!head) return fail(head.error());
  head_ = std::move(*head);
  Expected<BodyFraming> framing = bodyFramingOf(head_, head_request_);
  if (!framing) return fail(framing.error());
  switch (framing->kind) {
    case BodyFraming::Kind::None:
      finished_ = true;
      break;
    case BodyFraming::Kind::Chunked:
      framing_ = Framing::Chunked;
      break;
    case BodyFraming::Kind::Length:
      framing_ = Framing::Length;
      remaining_ = static_cast<size_t>(framing->length);
      finished_ = remaining_ == 0;
      break;
    case BodyFraming::Kind::UntilClose:
      break;
  }
  return true;
}

Expected<std::unique_ptr<HttpResponseStream>> HttpResponseStream::open(const HttpUrl& url,
                                                                       const HttpRequest& request,
                                                                       long timeout_ms) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  auto left = [&] {
    return std::max<long>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
  };
  Expected<std::unique_ptr<HttpResponseStream>> stream = connect(url, timeout_ms);
  if (!stream) return stream;
  if (Expected<bool> sent = (*stream)->send(url, request, left()); !sent) return fail(sent.error());
  if (Expected<bool> head = (*stream)->readHead(left()); !head) return fail(head.error());
  return stream;
}

HttpResponseStream::~HttpResponseStream() {
  TlsTunnel tunnel{fd_, tunnel_pid_};
  if (tunnel_pid_ > 0) {
    closeTlsTunnel(tunnel);
  } else if (fd_ >= 0) {
    ::close(fd_);
  }
}

std::string HttpResponseStream::header(std::string_view lowercase_name) const {
  return head_.header(lowercase_name);
}

std::string HttpResponseStream::mediaType() const {
  return head_.mediaType();
}

void HttpResponseStream::readTrailer(long timeout_ms) {
  for (;;) {
    const size_t line_end = buffer_.find("\r\n");
    if (line_end == 0) {
      buffer_.erase(0, 2);
      return;
    }
    if (line_end != std::string::npos) {
      buffer_.erase(0, line_end + 2);
      continue;
    }
    Read why = Read::Data;
    if (buffer_.size() > kMaxHeaderBytes || !fill(timeout_ms, why)) {
      buffer_ += '!';  // cut short: the connection is not reused
      return;
    }
  }
}

bool HttpResponseStream::reusable() const {
  if (!finished_ || !error_.empty() || aborted_ || framing_ == Framing::UntilClose ||
      !buffer_.empty() || fd_ < 0) {
    return false;
  }
  std::string connection = header("connection");
  for (char& c : connection) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (connection.find("close") != std::string::npos) return false;
  pollfd p{fd_, POLLIN, 0};
  return ::poll(&p, 1, 0) == 0;  // readable while idle: closed (or junk)
}

bool HttpResponseStream::sendsAtOnce() const {
  int unsent = -1;
  return fd_ >= 0 && ::ioctl(fd_, SIOCOUTQ, &unsent) == 0 && unsent == 0;
}

void HttpResponseStream::forgetAnswer() {
  head_ = ResponseHead{};
  framing_ = Framing::UntilClose;
  remaining_ = 0;
  chunk_open_ = false;
  finished_ = false;
}

void HttpResponseStream::abort() {
  aborted_ = true;
  if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

bool HttpResponseStream::fill(long timeout_ms, Read& why) {
  char chunk[16384];
  // What has arrived is taken at once; poll() only when nothing has.
  bool waited = false;
  for (;;) {
    if (aborted_) {
      error_ = "the exchange was cut off";
      why = Read::Failed;
      return false;
    }
    if (waited) {
      pollfd p{fd_, POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(timeout_ms));
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) {
        why = Read::TimedOut;
        return false;
      }
    }
    waited = true;
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    why = Read::End;  // closed by the server (or reset)
    if (n < 0) error_ = std::string("the connection broke: ") + std::strerror(errno);
    if (aborted_) error_ = "the exchange was cut off";
    return false;
  }
}

HttpResponseStream::Read HttpResponseStream::read(std::string& out, long timeout_ms) {
  if (!error_.empty()) return Read::Failed;
  if (finished_) return Read::End;
  if (framing_ == Framing::Chunked) return readChunked(out, timeout_ms);
  if (buffer_.empty()) {
    Read why = Read::Data;
    if (!fill(timeout_ms, why)) {
      if (why == Read::TimedOut) return why;
      if (!error_.empty()) return Read::Failed;
      if (framing_ == Framing::Length) {
        error_ = "the server closed the connection before the whole body";
        return Read::Failed;
      }
      finished_ = true;
      return Read::End;
    }
  }
  size_t take = buffer_.size();
  if (framing_ == Framing::Length) take = std::min(take, remaining_);
  out.append(buffer_, 0, take);
  buffer_.erase(0, take);
  if (framing_ == Framing::Length) {
    remaining_ -= take;
    finished_ = remaining_ == 0;
  }
  return Read::Data;
}

HttpResponseStream::Read HttpResponseStream::readChunked(std::string& out, long timeout_ms) {
  const size_t before = out.size();
  for (;;) {
    if (chunk_open_ && remaining_ > 0 && !buffer_.empty()) {
      const size_t take = std::min(remaining_, buffer_.size());
      out.append(buffer_, 0, take);
      buffer_.erase(0, take);
      remaining_ -= take;
      continue;
    }
    if (chunk_open_ && remaining_ == 0 && buffer_.size() >= 2) {
      if (buffer_.compare(0, 2, "\r\n") != 0) {
        error_ = "a chunk does not end with CRLF";
        return Read::Failed;
      }
      buffer_.erase(0, 2);
      chunk_open_ = false;
      continue;
    }
    if (!chunk_open_) {
      const size_t line_end = buffer_.find("\r\n");
      if (line_end != std::string::npos) {
        std::string_view size_text = std::string_view(buffer_).substr(0, line_end);
        if (const size_t ext = size_text.find(';'); ext != std::string_view::npos) {
          size_text = size_text.substr(0, ext);
        }
        size_text = trimmedHeaderText(size_text);
        if (size_text.empty() || size_text.size() > 15 ||
            size_text.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) {
          error_ = "a chunk size is malformed";
          return Read::Failed;
        }
        remaining_ = std::stoull(std::string(size_text), nullptr, 16);
        if (remaining_ == 0) {
          // The last chunk, then trailer fields (skipped) up to an empty
          // line, so that the connection can carry another request.
          buffer_.erase(0, line_end + 2);
          readTrailer(timeout_ms);
          finished_ = true;
          return out.size() > before ? Read::Data : Read::End;
        }
        buffer_.erase(0, line_end + 2);
        chunk_open_ = true;
        continue;
      }
      if (buffer_.size() > kMaxHeaderBytes) {
        error_ = "a chunk size line is too long";
        return Read::Failed;
      }
    }
    if (out.size() > before) return Read::Data;
    Read why = Read::Data;
    if (!fill(timeout_ms, why)) {
      if (why == Read::TimedOut) return why;
      if (error_.empty()) error_ = "the server closed the connection inside a chunked body";
      return Read::Failed;
    }
  }
}

// --- an answer that has arrived whole (the proxy reads it on its own thread) ---

std::optional<std::string> wholeHttpAnswer(std::string_view bytes) {
  const size_t head_end = bytes.find("\r\n\r\n");
  if (head_end == std::string_view::npos || head_end > kMaxHeaderBytes) return std::nullopt;
  // Read as readOneHead reads it: what it would refuse is not whole here.
  const Expected<ResponseHead> head = parseResponseHead(bytes.substr(0, head_end));
  // An interim answer (100 Continue) is followed by another: not this one.
  if (!head || head->status / 100 == 1) return std::nullopt;
  const Expected<BodyFraming> framing = bodyFramingOf(*head, false);
  if (!framing) return std::nullopt;
  const std::string_view body = bytes.substr(head_end + 4);
  bool whole = false;
  switch (framing->kind) {
    case BodyFraming::Kind::None:
      whole = true;
      break;
    case BodyFraming::Kind::Length:
      whole = body.size() >= framing->length;
      break;
    case BodyFraming::Kind::Chunked:
      whole = wholeChunkedBody(body);
      break;
    case BodyFraming::Kind::UntilClose:
      break;  // its end is the connection's: never known while it is open
  }
  if (!whole) return std::nullopt;
  return head->mediaType();
}

std::optional<std::string> HttpResponseStream::arrivedAnswerType() const {
  if (fd_ < 0 || aborted_ || !buffer_.empty() || head_request_) return std::nullopt;
  // Most answers fit the first look; a larger one is looked at again whole.
  char first[8192];
  ssize_t n = ::recv(fd_, first, sizeof first, MSG_PEEK | MSG_DONTWAIT);
  if (n <= 0) return std::nullopt;
  if (static_cast<size_t>(n) < sizeof first) {
    return wholeHttpAnswer(std::string_view(first, static_cast<size_t>(n)));
  }
  std::string peeked(kMostPeeked, '\0');
  n = ::recv(fd_, peeked.data(), peeked.size(), MSG_PEEK | MSG_DONTWAIT);
  if (n <= 0) return std::nullopt;
  peeked.resize(static_cast<size_t>(n));
  return wholeHttpAnswer(peeked);
}

}  // namespace toolguard::detail
