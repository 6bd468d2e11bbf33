#pragma once
// Reading the chat-completions wire format: replies, tool calls and the
// servers' error bodies. Each parser returns "" on success, else what is wrong.

#include <nlohmann/json.hpp>
#include <string>

#include "toolguard/chat_client.hpp"
#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// Tool calls one reply may carry; more is a protocol error (a hostile
/// server must not make the agent run a tool thousands of times at once).
inline constexpr size_t kMaxToolCallsPerReply = 128;

/// JSON from the server nested deeper than this is refused before anything
/// copies or prints it (copies and dumps recurse).
inline constexpr size_t kMaxServerJsonDepth = 128;

/// Parses JSON from the server; a discarded value when it is not JSON or is
/// nested deeper than kMaxServerJsonDepth.
nlohmann::json parseServerJson(std::string_view text);

/// A tool call's "arguments" as text: a string as is, an object or array
/// (some servers send those) as compact JSON, null or absent as "".
std::string argumentsText(const nlohmann::json& value, std::string& out);

/// Message content as text: a string, null (""), or an array of text parts
/// (some servers), joined.
std::string contentText(const nlohmann::json& value, std::string& out);

/// An id for a tool call the server sent without one ("call_0", ...).
std::string fallbackToolCallId(size_t index);

/// Parses choices[0].message of a chat.completion into an assistant message.
std::string parseAssistantMessage(const nlohmann::json& message, ChatMessage& out);

/// Parses a whole (non-streamed) chat.completion body.
std::string parseCompletion(const nlohmann::json& body, ChatReply& out);

/// The JSON body of a request to `endpoint` (model, messages, tools, stream,
/// then extra_body's own fields). Fails, saying why, on an unusable endpoint.
Expected<nlohmann::json> chatRequestBody(const ChatEndpoint& endpoint, const ChatRequest& request);

/// The error text of an error body ({"error":{"message":...}},
/// {"error":"..."}, {"message":...} or {"detail":...}); "" when there is none.
std::string serverErrorMessage(const nlohmann::json& body);

}  // namespace toolguard::detail
