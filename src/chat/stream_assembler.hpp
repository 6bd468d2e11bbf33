#pragma once
// Assembling a streamed reply: chat.completion.chunk deltas in, the same
// ChatReply a non-streamed request returns out.

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "toolguard/chat_client.hpp"

namespace toolguard::detail {

/// Accumulates the chunks of one streamed reply (choice 0), calling the
/// callbacks as text and tool calls arrive.
class StreamAssembler {
 public:
  explicit StreamAssembler(const ChatStreamCallbacks& callbacks) : callbacks_(callbacks) {}

  /// Applies one chunk; returns "" or what is wrong with it. The caller
  /// handles error chunks ({"error": ...}) before.
  std::string apply(const nlohmann::json& chunk);

  /// True once a chunk carried a finish_reason.
  bool finished() const { return !reply_.finish_reason.empty(); }

  /// The reply so far: content, tool calls by index, finish_reason, usage.
  ChatReply reply() const;

 private:
  // Applies one element of delta.tool_calls (`position` in its array).
  std::string applyToolCall(const nlohmann::json& delta, size_t position);
  // Applies choice 0 of a chunk.
  std::string applyChoice(const nlohmann::json& choice);

  const ChatStreamCallbacks& callbacks_;
  ChatReply reply_;
  std::map<size_t, ChatToolCall> calls_;  // by the servers' "index"
  std::set<size_t> announced_;            // on_tool_call_started was called
  size_t last_index_ = 0;
};

}  // namespace toolguard::detail
