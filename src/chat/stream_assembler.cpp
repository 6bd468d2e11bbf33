// Streamed chat.completion.chunk deltas into one reply.
#include "stream_assembler.hpp"

#include <iterator>

#include "chat_wire.hpp"

namespace toolguard::detail {

using nlohmann::json;

namespace {

// A string member of `object`: absent and null are "", other types an error.
bool optionalString(const json& object, const char* key, std::string& out) {
  out.clear();
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return true;
  if (!it->is_string()) return false;
  out = it->get<std::string>();
  return true;
}

}  // namespace

std::string StreamAssembler::apply(const json& chunk) {
  if (!chunk.is_object()) return "a chunk is not a JSON object";
  auto usage = chunk.find("usage");
  if (usage != chunk.end() && usage->is_object()) reply_.usage = *usage;
  auto choices = chunk.find("choices");
  if (choices == chunk.end() || choices->is_null()) return "";  // e.g. a usage-only chunk
  if (!choices->is_array()) return "a chunk's \"choices\" is not an array";
  for (const json& choice : *choices) {
    if (!choice.is_object()) return "a chunk's choice is not an object";
    auto index = choice.find("index");
    if (index != choice.end() && index->is_number_integer() && index->get<long long>() != 0) {
      continue;  // only choice 0 is asked for
    }
    std::string error = applyChoice(choice);
    if (!error.empty()) return error;
  }
  return "";
}

std::string StreamAssembler::applyChoice(const json& choice) {
  std::string finish;
  if (!optionalString(choice, "finish_reason", finish)) {
    return "a chunk's finish_reason is not a string";
  }
  if (!finish.empty()) reply_.finish_reason = finish;
  auto delta = choice.find("delta");
  if (delta == choice.end() || delta->is_null()) return "";
  if (!delta->is_object()) return "a chunk's delta is not an object";
  std::string text;
  auto content = delta->find("content");
  if (content != delta->end()) {
    std::string error = contentText(*content, text);
    if (!error.empty()) return "a delta's " + error;
  }
  if (!text.empty()) {
    reply_.message.content += text;
    if (callbacks_.on_content) callbacks_.on_content(text);
  }
  auto calls = delta->find("tool_calls");
  if (calls == delta->end() || calls->is_null()) return "";
  if (!calls->is_array()) return "a delta's tool_calls is not an array";
  for (size_t i = 0; i < calls->size(); ++i) {
    std::string error = applyToolCall((*calls)[i], i);
    if (!error.empty()) return error;
  }
  return "";
}

std::string StreamAssembler::applyToolCall(const json& delta, size_t position) {
  if (!delta.is_object()) return "a tool call delta is not an object";
  std::string id;
  if (!optionalString(delta, "id", id)) return "a tool call's id is not a string";
  size_t index = 0;
  auto given = delta.find("index");
  if (given != delta.end() && !given->is_null()) {
    if (!given->is_number_unsigned()) return "a tool call's index is not a non-negative integer";
    index = given->get<size_t>();
  } else if (calls_.empty()) {
    index = position;
  } else {
    // No index (a few servers): a new id starts a new call, else it continues the last.
    bool is_new = !id.empty() && id != calls_[last_index_].id;
    index = is_new ? calls_.rbegin()->first + 1 : last_index_;
  }
  if (calls_.count(index) == 0 && calls_.size() >= kMaxToolCallsPerReply) {
    return "more than " + std::to_string(kMaxToolCallsPerReply) + " tool calls in one reply";
  }
  last_index_ = index;
  ChatToolCall& call = calls_[index];
  if (call.id.empty()) call.id = id;
  auto function = delta.find("function");
  if (function != delta.end() && !function->is_null()) {
    if (!function->is_object()) return "a tool call's function is not an object";
    std::string name;
    if (!optionalString(*function, "name", name)) return "a tool call's name is not a string";
    // The name comes whole in the call's first chunk; some servers repeat it.
    if (call.name.empty()) call.name = name;
    auto arguments = function->find("arguments");
    if (arguments != function->end()) {
      std::string piece;
      std::string error = argumentsText(*arguments, piece);
      if (!error.empty()) return "a tool call's " + error;
      call.arguments += piece;
    }
  }
  if (!call.name.empty() && announced_.insert(index).second) {
    if (callbacks_.on_tool_call_started) {
      ChatToolCall started = call;
      auto position = std::distance(calls_.begin(), calls_.find(index));
      if (started.id.empty()) started.id = fallbackToolCallId(static_cast<size_t>(position));
      callbacks_.on_tool_call_started(index, started);
    }
  }
  return "";
}

ChatReply StreamAssembler::reply() const {
  ChatReply out = reply_;
  out.message.role = "assistant";
  size_t position = 0;
  for (const auto& [index, call] : calls_) {
    out.message.tool_calls.push_back(call);
    if (out.message.tool_calls.back().id.empty()) {
      out.message.tool_calls.back().id = fallbackToolCallId(position);
    }
    ++position;
  }
  return out;
}

}  // namespace toolguard::detail
