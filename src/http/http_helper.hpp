#pragma once
// Internal: finds the toolguard-http helper program (the HTTP client) and
// sends one POST through it. See http_transfer.h for why it is a program of
// its own: a hook process never loads OpenSSL, and the toolguard command,
// which never calls dlopen, can be linked statically.

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/http_transfer.h"
#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// One POST as its senders (the chat client, the service client) hold it;
/// HttpHelper::post lays it out as a toolguard_http_post.
struct HelperPost {
  std::string origin;                                        ///< "https://HOST[:PORT]"
  std::string path;                                          ///< the request target, with its query
  std::vector<std::pair<std::string, std::string>> headers;  ///< sent in this order
  std::string_view body;
  long timeout_ms = 0;          ///< for reading, and for writing
  long connect_limit_ms = 0;    ///< connecting: at most the smaller of this and timeout_ms
  std::string certificate;      ///< a client certificate (PEM file) shown to the server, or ""
  std::string certificate_key;  ///< its key (PEM file), sent only with a certificate
  /// Where the answer goes: as in toolguard_http_post.
  void* context = nullptr;
  void (*on_status)(void* context, int status, const char* content_type) = nullptr;
  int (*on_data)(void* context, const char* data, size_t size) = nullptr;
  int (*cancelled)(void* context) = nullptr;
};

/// Opens one of toolguard's programs (`toolguard-serve`), found and checked
/// as HttpHelper::installed finds its helper, for fexecve: its descriptor.
/// Fails, saying what was tried, when none is usable.
Expected<int> openHelperProgram(const char* program);

/// The helper program, opened once and checked: it is run from that open
/// file (never found again by its name), so nobody can swap it afterwards.
class HttpHelper {
 public:
  ~HttpHelper();
  HttpHelper(const HttpHelper&) = delete;
  HttpHelper& operator=(const HttpHelper&) = delete;

  /// The installed helper, searched for once (never null); fails, saying
  /// what was tried, when none is usable (the request then fails as a
  /// connection error, never as an allow).
  ///
  /// Looked for, in order: beside the running executable; in
  /// ../LIBDIR/toolguard/ from it; in the install's LIBDIR/toolguard/; in the
  /// build tree that made this library. A file is used only when it is a
  /// regular file (not a symbolic link) owned by root or by this user,
  /// writable by no one else, in a directory no one else can write (or a
  /// sticky one).
  static Expected<const HttpHelper*> installed();

  /// The same search over the given files (for tests).
  static Expected<std::unique_ptr<HttpHelper>> from(
      const std::vector<std::filesystem::path>& files);

  /// Sends `request` through a new helper process and reports to its
  /// callbacks. A helper that cannot be started, dies, or says nothing
  /// usable gives a failure in `outcome` (never a response).
  void post(const toolguard_http_post& request, toolguard_http_outcome& outcome) const;

  /// The same for a request as its senders hold it.
  toolguard_http_outcome post(const HelperPost& request) const;

  /// Starts a helper in its tunnel mode (`toolguard-http --tunnel`) on a
  /// socket pair: our end (close-on-exec) and its process id.
  Expected<std::pair<int, pid_t>> startTunnel() const;

 private:
  HttpHelper(int fd, std::string program) : fd_(fd), program_(std::move(program)) {}
  // A helper process on a socket pair (`tunnel`: in its tunnel mode).
  Expected<std::pair<int, pid_t>> start(bool tunnel) const;
  int fd_;               // the checked program, open for fexecve
  std::string program_;  // where it was found, for messages
};

}  // namespace toolguard::detail
