// libtoolguard-http.so: the HTTP client (cpp-httplib with OpenSSL) behind the
// C interface of http_plugin_abi.h. Nothing escapes it but what that says.
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include "http/http_plugin_abi.h"

namespace {

// Stops `client` from a second thread once the caller says it is cancelled,
// so that a server that sends nothing is not waited for.
class CancellationWatcher {
 public:
  CancellationWatcher(httplib::Client& client, const toolguard_http_post& request)
      : client_(client), request_(request), thread_([this] { run(); }) {}

  ~CancellationWatcher() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished_ = true;
    }
    wakeup_.notify_all();
    thread_.join();
  }

  CancellationWatcher(const CancellationWatcher&) = delete;
  CancellationWatcher& operator=(const CancellationWatcher&) = delete;

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!finished_) {
      // Repeated while cancelled: a stop before the request is in flight does nothing.
      if (request_.cancelled(request_.context) != 0) client_.stop();
      wakeup_.wait_for(lock, std::chrono::milliseconds(20), [this] { return finished_; });
    }
  }

  httplib::Client& client_;
  const toolguard_http_post& request_;
  std::mutex mutex_;
  std::condition_variable wakeup_;
  bool finished_ = false;
  std::thread thread_;
};

// Allocates nothing, so it is safe in a catch handler of the C entry point.
void setText(toolguard_http_outcome& outcome, const char* first, const char* second = "") {
  std::snprintf(outcome.failure_text, sizeof outcome.failure_text, "%s%s", first, second);
}

int failureOf(httplib::Error error) {
  switch (error) {
    case httplib::Error::Success:
      return TOOLGUARD_HTTP_OK;
    case httplib::Error::Read:
      return TOOLGUARD_HTTP_READ;
    case httplib::Error::Write:
      return TOOLGUARD_HTTP_WRITE;
    case httplib::Error::ConnectionTimeout:
      return TOOLGUARD_HTTP_CONNECTION_TIMEOUT;
    default:
      return TOOLGUARD_HTTP_OTHER;
  }
}

void post(const toolguard_http_post& request, toolguard_http_outcome& outcome) {
  httplib::Client client(request.origin);
  if (!client.is_valid()) return;
  outcome.client_made = 1;
  client.set_connection_timeout(std::chrono::milliseconds(request.connect_timeout_ms));
  client.set_read_timeout(std::chrono::milliseconds(request.read_timeout_ms));
  client.set_write_timeout(std::chrono::milliseconds(request.write_timeout_ms));
  client.set_keep_alive(false);

  httplib::Request req;
  req.method = "POST";
  req.path = request.path;
  req.body.assign(request.body, request.body_size);
  for (size_t i = 0; i < request.header_count; ++i) {
    req.set_header(request.header_names[i], request.header_values[i]);
  }
  req.response_handler = [&request](const httplib::Response& res) {
    request.on_status(request.context, res.status, res.get_header_value("Content-Type").c_str());
    return true;
  };
  req.content_receiver = [&request](const char* data, size_t size, uint64_t, uint64_t) {
    return request.on_data(request.context, data, size) != 0;
  };
  httplib::Result result = [&] {
    CancellationWatcher watcher(client, request);
    return client.send(req);
  }();
  // httplib skips the response handler for 204 (no body): the status comes from the result.
  if (result) {
    request.on_status(request.context, result->status,
                      result->get_header_value("Content-Type").c_str());
  }
  outcome.failure = failureOf(result.error());
  if (result.error() != httplib::Error::Success)
    setText(outcome, httplib::to_string(result.error()).c_str());
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void toolguard_http_post_v1(
    const toolguard_http_post* request, toolguard_http_outcome* outcome) {
  outcome->failure = TOOLGUARD_HTTP_OTHER;
  outcome->failure_text[0] = '\0';
  outcome->client_made = 0;
  try {
    post(*request, *outcome);
  } catch (const std::exception& e) {
    outcome->failure = TOOLGUARD_HTTP_OTHER;
    setText(*outcome, "the HTTP client failed: ", e.what());
  } catch (...) {
    outcome->failure = TOOLGUARD_HTTP_OTHER;
    setText(*outcome, "the HTTP client failed");
  }
}

extern "C" __attribute__((visibility("default"))) int toolguard_http_abi_version(void) {
  return TOOLGUARD_HTTP_ABI_VERSION;
}
