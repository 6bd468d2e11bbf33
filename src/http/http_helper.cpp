// Finding the toolguard-http helper and sending a POST through it.
#include "http/http_helper.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "http/http_helper_protocol.hpp"

extern char** environ;

namespace toolguard::detail {
namespace {

namespace fs = std::filesystem;
namespace protocol = http_protocol;

constexpr const char* kHelperFile = "toolguard-http";
// Far above any piece cpp-httplib hands over; a larger frame is a broken helper.
constexpr uint32_t kMaxFrame = 16u << 20;

std::vector<fs::path> candidates(const char* program = kHelperFile) {
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back(exe.parent_path() / program);
    out.push_back(exe.parent_path() / TOOLGUARD_HTTP_HELPER_RELATIVE_DIR / program);
  }
  out.push_back(fs::path(TOOLGUARD_HTTP_HELPER_INSTALL_DIR) / program);
  out.push_back(fs::path(TOOLGUARD_HTTP_HELPER_BUILD_DIR) / program);
  return out;
}

// A helper someone else could have written is never run: it would run as us.
// The file is opened itself (never through a symbolic link) and what was
// opened is checked; its directory must not let others replace it between
// this check and the open. Returns the descriptor, or fails, saying why.
Expected<int> openTrustworthy(const fs::path& file) {
  const uid_t me = ::geteuid();
  struct stat st {};
  if (::stat(file.parent_path().c_str(), &st) != 0) return fail("not found");
  if (st.st_uid != 0 && st.st_uid != me) return fail("in a directory owned by another user");
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0) {
    return fail("in a directory others can write");
  }
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return fail(errno == ELOOP ? "a symbolic link" : "not found");
  const char* why = nullptr;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else if (st.st_uid != 0 && st.st_uid != me) {
    why = "owned by another user";
  } else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    why = "writable by others";
  } else if ((st.st_mode & S_IXUSR) == 0) {
    why = "not executable";
  } else {
    return fd;
  }
  ::close(fd);
  return fail(why);
}

void setText(toolguard_http_outcome& outcome, const std::string& text) {
  std::snprintf(outcome.failure_text, sizeof outcome.failure_text, "%s", text.c_str());
}

// A descriptor numbered 3 or more, so that the child's dup2 onto 0 and 1
// never lands on it.
int aboveStandard(int fd) {
  if (fd < 0 || fd > 2) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  return moved;
}

bool sendAll(int fd, const std::string& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

std::string encodeRequest(const toolguard_http_post& request) {
  std::string out(protocol::kGreeting);
  protocol::putField(out, request.origin);
  protocol::putField(out, request.path);
  protocol::putField(out, std::string_view(request.body, request.body_size));
  protocol::putU64(out, request.header_count);
  for (size_t i = 0; i < request.header_count; ++i) {
    protocol::putField(out, request.header_names[i]);
    protocol::putField(out, request.header_values[i]);
  }
  protocol::putU64(out, static_cast<uint64_t>(request.connect_timeout_ms));
  protocol::putU64(out, static_cast<uint64_t>(request.read_timeout_ms));
  protocol::putU64(out, static_cast<uint64_t>(request.write_timeout_ms));
  protocol::putField(out, request.client_certificate ? request.client_certificate : "");
  protocol::putField(out, request.client_key ? request.client_key : "");
  return out;
}

std::string exitText(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

// Reads the helper's frames until it ends or the caller stops the transfer.
class AnswerReader {
 public:
  AnswerReader(const toolguard_http_post& request, toolguard_http_outcome& outcome)
      : request_(request), outcome_(outcome) {}

  enum class Stop { Ended, StoppedByCaller, Broken };

  Stop run(int socket) {
    char chunk[65536];
    for (;;) {
      // Once the helper said how it ended, only its exit is waited for.
      if (!ended_ && request_.cancelled(request_.context) != 0) return Stop::StoppedByCaller;
      pollfd ready{socket, POLLIN, 0};
      const int r = ::poll(&ready, 1, 20);
      if (r < 0 && errno != EINTR) return Stop::Broken;
      if (r <= 0) continue;
      const ssize_t n = ::read(socket, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return ended_ ? Stop::Ended : Stop::Broken;
      buffer_.append(chunk, static_cast<size_t>(n));
      if (const std::optional<Stop> stop = dispatch()) return *stop;
    }
  }

 private:
  // Hands every whole frame in the buffer to the caller.
  std::optional<Stop> dispatch() {
    size_t at = 0;
    std::optional<Stop> stop;
    while (!stop && buffer_.size() - at >= protocol::kFrameHeader) {
      const char tag = buffer_[at];
      const uint32_t size = protocol::getU32(buffer_.data() + at + 1);
      if (size > kMaxFrame || ended_) {
        stop = Stop::Broken;
        break;
      }
      if (buffer_.size() - at - protocol::kFrameHeader < size) break;
      stop = frame(tag, std::string_view(buffer_).substr(at + protocol::kFrameHeader, size));
      at += protocol::kFrameHeader + size;
    }
    buffer_.erase(0, at);
    return stop;
  }

  std::optional<Stop> frame(char tag, std::string_view payload) {
    if (tag == protocol::kStatus && payload.size() >= 4) {
      const std::string content_type(payload.substr(4));
      request_.on_status(request_.context, static_cast<int>(protocol::getU32(payload.data())),
                         content_type.c_str());
      return std::nullopt;
    }
    if (tag == protocol::kData) {
      if (request_.on_data(request_.context, payload.data(), payload.size()) == 0) {
        return Stop::StoppedByCaller;
      }
      return std::nullopt;
    }
    if (tag == protocol::kEnd && payload.size() >= 8) {
      outcome_.failure = static_cast<int>(protocol::getU32(payload.data()));
      outcome_.client_made = protocol::getU32(payload.data() + 4) != 0 ? 1 : 0;
      setText(outcome_, std::string(payload.substr(8)));
      ended_ = true;
      return std::nullopt;
    }
    return Stop::Broken;
  }

  const toolguard_http_post& request_;
  toolguard_http_outcome& outcome_;
  std::string buffer_;
  bool ended_ = false;
};

}  // namespace

HttpHelper::~HttpHelper() {
  ::close(fd_);
}

Expected<std::unique_ptr<HttpHelper>> HttpHelper::from(const std::vector<fs::path>& files) {
  std::string tried;
  for (const fs::path& file : files) {
    const Expected<int> fd = openTrustworthy(file);
    if (fd) return std::unique_ptr<HttpHelper>(new HttpHelper(*fd, file.string()));
    tried += (tried.empty() ? "" : "; ") + file.string() + ": " + fd.error();
  }
  return fail("the HTTP client " + std::string(kHelperFile) +
              " could not be found (reinstall toolguard): " + tried);
}

Expected<int> openHelperProgram(const char* program) {
  std::string tried;
  for (const fs::path& file : candidates(program)) {
    const Expected<int> fd = openTrustworthy(file);
    if (fd) return *fd;
    tried += (tried.empty() ? "" : "; ") + file.string() + ": " + fd.error();
  }
  return fail(std::string(program) + " could not be found (reinstall toolguard): " + tried);
}

Expected<const HttpHelper*> HttpHelper::installed() {
  static const Expected<std::unique_ptr<HttpHelper>> helper = from(candidates());
  if (!helper) return fail(helper.error());
  return helper->get();
}

toolguard_http_outcome HttpHelper::post(const HelperPost& request) const {
  std::vector<const char*> names, values;
  for (const auto& [name, value] : request.headers) {
    names.push_back(name.c_str());
    values.push_back(value.c_str());
  }
  toolguard_http_post laid_out{};
  laid_out.origin = request.origin.c_str();
  laid_out.path = request.path.c_str();
  laid_out.body = request.body.data();
  laid_out.body_size = request.body.size();
  laid_out.header_names = names.data();
  laid_out.header_values = values.data();
  laid_out.header_count = names.size();
  laid_out.connect_timeout_ms = std::min(request.timeout_ms, request.connect_limit_ms);
  laid_out.read_timeout_ms = request.timeout_ms;
  laid_out.write_timeout_ms = request.timeout_ms;
  laid_out.context = request.context;
  laid_out.on_status = request.on_status;
  laid_out.on_data = request.on_data;
  laid_out.cancelled = request.cancelled;
  if (!request.certificate.empty()) {
    laid_out.client_certificate = request.certificate.c_str();
    laid_out.client_key = request.certificate_key.c_str();
  }
  toolguard_http_outcome outcome{};
  post(laid_out, outcome);
  return outcome;
}

void HttpHelper::post(const toolguard_http_post& request, toolguard_http_outcome& outcome) const {
  outcome.failure = TOOLGUARD_HTTP_OTHER;
  outcome.failure_text[0] = '\0';
  outcome.client_made = 0;
  const std::string message = encodeRequest(request);
  const Expected<std::pair<int, pid_t>> started = start(false);
  if (!started) {
    setText(outcome, started.error());
    return;
  }
  const auto [ours, pid] = *started;
  AnswerReader::Stop stop = AnswerReader::Stop::Broken;
  if (sendAll(ours, message)) {
    ::shutdown(ours, SHUT_WR);
    try {
      stop = AnswerReader(request, outcome).run(ours);
    } catch (const std::exception&) {  // no memory for a piece: the transfer failed
      stop = AnswerReader::Stop::Broken;
    }
  }
  if (stop != AnswerReader::Stop::Ended) ::kill(pid, SIGKILL);
  ::close(ours);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (stop == AnswerReader::Stop::StoppedByCaller) {
    // What cpp-httplib reports for a transfer its caller stopped.
    outcome.failure = TOOLGUARD_HTTP_OTHER;
    outcome.client_made = 1;
    setText(outcome, "Canceled");
  } else if (stop == AnswerReader::Stop::Broken) {
    outcome.failure = TOOLGUARD_HTTP_OTHER;
    outcome.client_made = 0;
    setText(outcome, "the HTTP client " + program_ + " stopped without an answer (" +
                         exitText(status) + "; reinstall toolguard)");
  }
}

Expected<std::pair<int, pid_t>> HttpHelper::startTunnel() const {
  return start(true);
}

Expected<std::pair<int, pid_t>> HttpHelper::start(bool tunnel) const {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    return fail("the HTTP client " + program_ + " could not be started: " + std::strerror(errno));
  }
  const int ours = aboveStandard(ends[0]);
  const int theirs = aboveStandard(ends[1]);
  char name[] = "toolguard-http";
  char mode[] = "--tunnel";
  char* argv[] = {name, tunnel ? mode : nullptr, nullptr};
  const pid_t pid = ours < 0 || theirs < 0 ? -1 : ::fork();
  if (pid == 0) {
    // Only async-signal-safe calls here: the parent may have other threads.
    ::dup2(theirs, 0);
    ::dup2(theirs, 1);
    // Nothing of ours leaks into it (kernels before 5.11: one by one).
    if (::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
      for (int fd = 3; fd < 4096; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    ::fexecve(fd_, argv, environ);
    ::_exit(127);
  }
  const int error = errno;
  if (theirs >= 0) ::close(theirs);
  if (pid < 0) {
    if (ours >= 0) ::close(ours);
    return fail("the HTTP client " + program_ + " could not be started: " + std::strerror(error));
  }
  return std::make_pair(ours, pid);
}

}  // namespace toolguard::detail
