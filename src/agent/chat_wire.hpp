#pragma once
// Reading the chat-completions wire format: replies, tool calls and the
// servers' error bodies. Each parser returns "" on success, else what is wrong.

#include <nlohmann/json.hpp>
#include <string>

#include "toolguard/chat_client.hpp"

namespace toolguard::detail {

/// A tool call's "arguments" as text: a string as is, an object or array
/// (some servers send those) as compact JSON, null or absent as "".
std::string argumentsText(const nlohmann::json& value, std::string& out);

/// An id for a tool call the server sent without one ("call_0", ...).
std::string fallbackToolCallId(size_t index);

/// Parses choices[0].message of a chat.completion into an assistant message.
std::string parseAssistantMessage(const nlohmann::json& message, ChatMessage& out);

/// Parses a whole (non-streamed) chat.completion body.
std::string parseCompletion(const nlohmann::json& body, ChatReply& out);

/// The error text of an error body ({"error":{"message":...}},
/// {"error":"..."}, {"message":...} or {"detail":...}); "" when there is none.
std::string serverErrorMessage(const nlohmann::json& body);

}  // namespace toolguard::detail
