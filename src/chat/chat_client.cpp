// The chat-completions client: the request out, the response through a ResponseReader.
#include "toolguard/chat_client.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <exception>
#include <utility>
#include <vector>

#include "chat_wire.hpp"
#include "core/unicode_text.hpp"
#include "endpoint_url.hpp"
#include "http/http_helper.hpp"
#include "response_reader.hpp"

namespace toolguard {

using nlohmann::json;

namespace {

/// How long connecting may take.
constexpr std::chrono::milliseconds kConnectTimeout{10'000};

using Kind = ChatError::Kind;

bool hasControlCharacters(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

// What the helper's callbacks reach: the reader and the cancellation.
// Nothing may throw through the helper's C frames: an exception is kept and
// thrown again after the call.
struct Transfer {
  detail::ResponseReader& reader;
  const CancellationToken& cancellation;
  std::exception_ptr failure;

  static void onStatus(void* context, int status, const char* content_type) {
    auto& self = *static_cast<Transfer*>(context);
    if (self.failure) return;
    try {
      self.reader.onStatus(status, detail::asciiLowercase(content_type));
    } catch (...) {
      self.failure = std::current_exception();
    }
  }
  static int onData(void* context, const char* data, size_t size) {
    auto& self = *static_cast<Transfer*>(context);
    if (self.failure) return 0;
    try {
      return self.reader.onData(std::string_view(data, size)) ? 1 : 0;
    } catch (...) {
      self.failure = std::current_exception();
      return 0;
    }
  }
  static int cancelled(void* context) {
    return static_cast<Transfer*>(context)->cancellation.cancelled() ? 1 : 0;
  }
};

ChatResult send(const ChatEndpoint& endpoint, const ChatRequest& request,
                const ChatStreamCallbacks& callbacks, const CancellationToken& cancellation) {
  const Expected<detail::EndpointUrl> url = detail::parseEndpointUrl(endpoint.base_url);
  if (!url) return detail::chatFailure(Kind::Connection, url.error());
  if (hasControlCharacters(endpoint.api_key)) {
    return detail::chatFailure(Kind::Connection, "the API key contains control characters");
  }
  const Expected<json> body_json = detail::chatRequestBody(endpoint, request);
  if (!body_json) return detail::chatFailure(Kind::Connection, body_json.error());
  std::string body = body_json->dump(-1, ' ', false, json::error_handler_t::replace);
  std::string path = url->path_prefix + "/chat/completions";
  std::string where = url->origin() + path;

  const Expected<const detail::HttpHelper*> helper = detail::HttpHelper::installed();
  if (!helper) return detail::chatFailure(Kind::Connection, helper.error());
  auto timeout = std::max(endpoint.timeout, std::chrono::milliseconds(1));

  detail::ResponseReader reader(request.stream, callbacks, cancellation);
  Transfer transfer{reader, cancellation, nullptr};
  detail::HelperPost post;
  post.origin = url->origin();
  post.path = path;
  post.headers = {{"Content-Type", "application/json"},
                  {"Accept", request.stream ? "text/event-stream" : "application/json"}};
  if (!endpoint.api_key.empty())
    post.headers.emplace_back("Authorization", "Bearer " + endpoint.api_key);
  post.body = body;
  post.timeout_ms = static_cast<long>(timeout.count());
  // Connecting gets a short limit of its own (a cancel also stops it: the
  // helper program is killed).
  post.connect_limit_ms = static_cast<long>(kConnectTimeout.count());
  post.context = &transfer;
  post.on_status = &Transfer::onStatus;
  post.on_data = &Transfer::onData;
  post.cancelled = &Transfer::cancelled;
  const toolguard_http_outcome outcome = (*helper)->post(post);
  if (transfer.failure) std::rethrow_exception(transfer.failure);
  if (outcome.client_made == 0) {
    return detail::chatFailure(Kind::Connection, "cannot make a client for " + where +
                                                     (outcome.failure_text[0] != '\0'
                                                          ? std::string(": ") + outcome.failure_text
                                                          : std::string()));
  }
  const std::string transfer_error =
      outcome.failure == TOOLGUARD_HTTP_OK ? std::string() : std::string(outcome.failure_text);
  // The helper tells a read or write that waited the whole timeout from a
  // broken connection; connecting waited it out when its limit is the timeout.
  const bool waited_out = outcome.failure == TOOLGUARD_HTTP_READ_TIMEOUT ||
                          outcome.failure == TOOLGUARD_HTTP_WRITE_TIMEOUT ||
                          (outcome.failure == TOOLGUARD_HTTP_CONNECTION_TIMEOUT &&
                           post.connect_limit_ms >= post.timeout_ms);
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
