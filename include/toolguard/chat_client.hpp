#pragma once
// A client for OpenAI-compatible chat-completions endpoints (llama.cpp's
// server, Ollama, vLLM, hosted APIs), streaming or not. The agent loop
// talks to the model through it.

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/cancellation.hpp"

namespace toolguard {

/// A tool call the model asked for. `arguments` is the JSON text exactly as
/// the model wrote it (it may not parse: the agent judges that, not the client).
struct ChatToolCall {
  std::string id;
  std::string name;
  std::string arguments;
};

/// One message of a conversation: role "system", "user", "assistant" (with
/// optional tool calls) or "tool" (answering tool_call_id).
struct ChatMessage {
  std::string role;
  std::string content;
  std::vector<ChatToolCall> tool_calls;  ///< assistant only
  std::string tool_call_id;              ///< tool only
  std::string name;                      ///< tool only: the tool's name (optional)

  static ChatMessage system(std::string content);
  static ChatMessage user(std::string content);
  static ChatMessage tool(std::string tool_call_id, std::string name, std::string content);

  /// The message in the chat-completions wire format.
  nlohmann::json toJson() const;
};

/// Where the model is and how to reach it.
struct ChatEndpoint {
  /// Base URL up to and including the API version, e.g.
  /// "http://127.0.0.1:8080/v1"; "/chat/completions" is appended.
  std::string base_url;
  std::string model;
  std::string api_key;  ///< sent as "Authorization: Bearer KEY" when not empty
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};  ///< connect, read and write
  /// Extra fields merged into every request body (temperature, seed, ...).
  nlohmann::json extra_body = nlohmann::json::object();
};

/// Reads the API key from the environment variable `name` ("" when unset).
std::string apiKeyFromEnvironment(const std::string& name = "OPENAI_API_KEY");

/// One request: the conversation so far and the tools the model may call
/// (OpenAI function definitions, as ToolRegistry::toolDefinitions returns).
struct ChatRequest {
  std::vector<ChatMessage> messages;
  nlohmann::json tools = nlohmann::json::array();
  bool stream = false;
};

/// Called while a streamed reply arrives. Any member may be empty.
struct ChatStreamCallbacks {
  /// A piece of the assistant's text.
  std::function<void(std::string_view text)> on_content;
  /// The first chunk of tool call number `index` arrived (id and name are
  /// known; arguments are still arriving).
  std::function<void(size_t index, const ChatToolCall& call)> on_tool_call_started;
};

/// The model's complete reply to one request.
struct ChatReply {
  ChatMessage message;        ///< role "assistant"; tool calls in the model's order
  std::string finish_reason;  ///< "stop", "tool_calls", "length", ... ("" if not sent)
  nlohmann::json usage;       ///< token counts if the server sent them, else null
};

/// Why a request failed.
struct ChatError {
  enum class Kind {
    Connection,  ///< could not connect, the connection broke, or nothing came within the timeout
    Http,        ///< the server answered with a status other than 200
    Protocol,    ///< the body was not valid JSON or not a chat completion
    Cancelled    ///< the cancellation token was cancelled
  };
  Kind kind = Kind::Protocol;
  int http_status = 0;  ///< Http: the status code
  std::string message;  ///< what went wrong, with the server's error text when it sent one
};

/// The lowercase name of an error kind ("connection", "http", "protocol", "cancelled").
std::string_view toString(ChatError::Kind kind);

/// A reply or an error: never both.
struct ChatResult {
  std::optional<ChatReply> reply;
  std::optional<ChatError> error;
  bool ok() const { return reply.has_value(); }
};

/// Sends chat-completions requests to one endpoint. A streamed request
/// reads server-sent events ("data: {...}" chunks up to "data: [DONE]")
/// and assembles the same ChatReply a non-streamed one returns, so callers
/// see one behaviour either way. Thread-safe (each request uses its own
/// connection). Never throws.
class ChatClient {
 public:
  explicit ChatClient(ChatEndpoint endpoint);

  /// Sends one request and waits for the whole reply. `callbacks` are used
  /// only when request.stream is true. Cancelling the token stops reading
  /// within about 20 ms and returns a Cancelled error; connecting is not
  /// interrupted, but takes at most 10 s (or endpoint.timeout if shorter).
  /// endpoint.timeout bounds each read, not the whole reply: a stream may
  /// last as long as the server keeps sending.
  ChatResult complete(const ChatRequest& request, const ChatStreamCallbacks& callbacks = {},
                      const CancellationToken& cancellation = {}) const;

  const ChatEndpoint& endpoint() const { return endpoint_; }

 private:
  ChatEndpoint endpoint_;
};

}  // namespace toolguard
