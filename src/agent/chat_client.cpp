// The chat-completions client: the request out, the response through a ResponseReader.
#include "toolguard/chat_client.hpp"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "chat_wire.hpp"
#include "endpoint_url.hpp"
#include "response_reader.hpp"

namespace toolguard {

using nlohmann::json;

namespace {

/// How long connecting may take (it cannot be cancelled).
constexpr std::chrono::milliseconds kConnectTimeout{10'000};

using Kind = ChatError::Kind;

// Stops `client` from a second thread once the token is cancelled, so that a
// server that sends nothing (still connecting, or thinking) is not waited for.
class CancellationWatcher {
 public:
  CancellationWatcher(httplib::Client& client, const CancellationToken& token)
      : client_(client), token_(token), thread_([this] { run(); }) {}

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
      if (token_.cancelled()) client_.stop();
      wakeup_.wait_for(lock, std::chrono::milliseconds(20), [this] { return finished_; });
    }
  }

  httplib::Client& client_;
  const CancellationToken& token_;
  std::mutex mutex_;
  std::condition_variable wakeup_;
  bool finished_ = false;
  std::thread thread_;
};

bool hasControlCharacters(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

ChatResult send(const ChatEndpoint& endpoint, const ChatRequest& request,
                const ChatStreamCallbacks& callbacks, const CancellationToken& cancellation) {
  std::string error;
  std::optional<detail::EndpointUrl> url = detail::parseEndpointUrl(endpoint.base_url, error);
  if (!url) return detail::chatFailure(Kind::Connection, error);
  if (hasControlCharacters(endpoint.api_key)) {
    return detail::chatFailure(Kind::Connection, "the API key contains control characters");
  }
  json body_json = detail::chatRequestBody(endpoint, request, error);
  if (!error.empty()) return detail::chatFailure(Kind::Connection, error);
  std::string body = body_json.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string path = url->path_prefix + "/chat/completions";
  std::string where = url->origin() + path;

  httplib::Client client(url->origin());
  if (!client.is_valid()) {
    return detail::chatFailure(Kind::Connection, "cannot make a client for " + where);
  }
  auto timeout = std::max(endpoint.timeout, std::chrono::milliseconds(1));
  // Connecting cannot be cancelled, so it gets a short limit of its own.
  client.set_connection_timeout(std::min(timeout, kConnectTimeout));
  client.set_read_timeout(timeout);
  client.set_write_timeout(timeout);
  client.set_keep_alive(false);

  httplib::Request req;
  req.method = "POST";
  req.path = path;
  req.body = std::move(body);
  req.set_header("Content-Type", "application/json");
  req.set_header("Accept", request.stream ? "text/event-stream" : "application/json");
  if (!endpoint.api_key.empty()) req.set_header("Authorization", "Bearer " + endpoint.api_key);

  detail::ResponseReader reader(request.stream, callbacks, cancellation);
  // When the server last sent something: a transfer that fails a whole
  // timeout after it waited for the server, not for a broken connection.
  auto last_heard = std::chrono::steady_clock::now();
  req.response_handler = [&reader, &last_heard](const httplib::Response& res) {
    last_heard = std::chrono::steady_clock::now();
    reader.onStatus(res.status, lowercase(res.get_header_value("Content-Type")));
    return true;
  };
  req.content_receiver = [&reader, &last_heard](const char* data, size_t size, uint64_t, uint64_t) {
    last_heard = std::chrono::steady_clock::now();
    return reader.onData(std::string_view(data, size));
  };

  httplib::Result result = [&] {
    CancellationWatcher watcher(client, cancellation);
    return client.send(req);
  }();
  // httplib skips the response handler for 204 (no body): the status comes from the result.
  if (result) reader.onStatus(result->status, lowercase(result->get_header_value("Content-Type")));
  std::string transfer_error;
  if (result.error() != httplib::Error::Success) {
    transfer_error = httplib::to_string(result.error());
  }
  const httplib::Error failure = result.error();
  const bool waited_out = (failure == httplib::Error::Read || failure == httplib::Error::Write ||
                           failure == httplib::Error::ConnectionTimeout) &&
                          std::chrono::steady_clock::now() - last_heard >= timeout;
  ChatResult out = reader.finish(transfer_error, where);
  if (waited_out && out.error && out.error->kind == Kind::Connection) {
    out.error->message = "no answer from " + where + " within " + std::to_string(timeout.count()) +
                         " ms (" + transfer_error + ")";
  }
  return out;
}

}  // namespace

ChatClient::ChatClient(ChatEndpoint endpoint) : endpoint_(std::move(endpoint)) {}

ChatResult ChatClient::complete(const ChatRequest& request, const ChatStreamCallbacks& callbacks,
                                const CancellationToken& cancellation) const {
  if (cancellation.cancelled()) {
    return detail::chatFailure(Kind::Cancelled, "the request was cancelled before it was sent");
  }
  try {
    return send(endpoint_, request, callbacks, cancellation);
  } catch (const std::exception& e) {
    return detail::chatFailure(Kind::Protocol, std::string("the request failed: ") + e.what());
  } catch (...) {
    return detail::chatFailure(Kind::Protocol, "the request failed");
  }
}

std::string apiKeyFromEnvironment(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  return value ? value : "";
}

std::string_view toString(ChatError::Kind kind) {
  switch (kind) {
    case Kind::Connection:
      return "connection";
    case Kind::Http:
      return "http";
    case Kind::Protocol:
      return "protocol";
    case Kind::Cancelled:
      return "cancelled";
  }
  return "unknown";
}

}  // namespace toolguard
