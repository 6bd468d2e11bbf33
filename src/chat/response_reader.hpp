#pragma once
// Reading one chat-completions response as it arrives: the status, then
// server-sent events or a JSON body, into a ChatResult.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/sse_parser.hpp"
#include "stream_assembler.hpp"
#include "toolguard/chat_client.hpp"

namespace toolguard::detail {

/// The most a response body may hold (a streamed one in total).
inline constexpr size_t kMaxResponseBytes = 16u << 20;
/// The most of an error body kept for its message.
inline constexpr size_t kMaxErrorBodyBytes = 64u << 10;

/// A failed result.
ChatResult chatFailure(ChatError::Kind kind, std::string message, int http_status = 0);

/// At most `limit` bytes of `text` for an error message, "..." marking a cut.
std::string excerpt(std::string_view text, size_t limit = 300);

/// Receives one response: onStatus once, onData for each piece of the
/// body, then finish. Never throws out of its members.
class ResponseReader {
 public:
  ResponseReader(bool stream, const ChatStreamCallbacks& callbacks,
                 const CancellationToken& cancellation)
      : stream_(stream),
        callbacks_(callbacks),
        cancellation_(cancellation),
        assembler_(callbacks) {}

  /// The status line and headers arrived.
  void onStatus(int status, std::string_view content_type);

  /// A piece of the body; false stops reading (done, failed or cancelled).
  bool onData(std::string_view bytes);

  /// The result once the transfer ended. `transfer_error` describes how it
  /// failed ("" when it completed); `url` names the endpoint in messages.
  ChatResult finish(const std::string& transfer_error, const std::string& url);

 private:
  // Handles one server-sent event; false when reading should stop.
  bool onEvent(const SseEvent& event);
  // Handles data in the current mode; false when reading should stop.
  bool consume(std::string_view bytes);
  // Records the first error.
  void fail(ChatError::Kind kind, std::string message, int http_status = 0);
  // An error the server reported inside a 200 response.
  void failWithServerError(const nlohmann::json& body, std::string_view raw);
  // The result of a complete JSON (non-streamed) body.
  ChatResult finishJson(const std::string& url);

  bool stream_;
  const ChatStreamCallbacks& callbacks_;
  const CancellationToken& cancellation_;
  int status_ = 0;
  bool sse_ = false;  // reading server-sent events (else collecting a body)
  std::string body_;
  size_t received_ = 0;
  bool body_cut_ = false;  // an error body was cut at kMaxErrorBodyBytes
  bool cancelled_ = false;
  bool done_ = false;  // "[DONE]" arrived
  std::optional<ChatError> error_;
  SseParser parser_;
  StreamAssembler assembler_;
  std::vector<SseEvent> events_;
};

}  // namespace toolguard::detail
