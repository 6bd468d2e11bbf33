// Chat messages: factories, the wire format out, and replies in.
#include "chat_wire.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard {

using nlohmann::json;

ChatMessage ChatMessage::system(std::string content) {
  ChatMessage m;
  m.role = "system";
  m.content = std::move(content);
  return m;
}

ChatMessage ChatMessage::user(std::string content) {
  ChatMessage m;
  m.role = "user";
  m.content = std::move(content);
  return m;
}

ChatMessage ChatMessage::tool(std::string tool_call_id, std::string name, std::string content) {
  ChatMessage m;
  m.role = "tool";
  m.tool_call_id = std::move(tool_call_id);
  m.name = std::move(name);
  m.content = std::move(content);
  return m;
}

json ChatMessage::toJson() const {
  json out = {{"role", role}};
  // An assistant message with only tool calls has content null, as OpenAI sends it.
  if (content.empty() && !tool_calls.empty()) {
    out["content"] = nullptr;
  } else {
    out["content"] = content;
  }
  if (!tool_calls.empty()) {
    json calls = json::array();
    for (const ChatToolCall& call : tool_calls) {
      calls.push_back({{"id", call.id},
                       {"type", "function"},
                       {"function", {{"name", call.name}, {"arguments", call.arguments}}}});
    }
    out["tool_calls"] = std::move(calls);
  }
  if (role == "tool") {
    out["tool_call_id"] = tool_call_id;
    if (!name.empty()) out["name"] = name;
  }
  return out;
}

namespace detail {
namespace {

std::string parseToolCall(const json& value, size_t index, ChatToolCall& out) {
  std::string where = "tool_calls[" + std::to_string(index) + "]";
  if (!value.is_object()) return where + " is not an object";
  auto function = value.find("function");
  if (function == value.end() || !function->is_object()) {
    return where + " has no \"function\" object";
  }
  auto name = function->find("name");
  if (name == function->end() || !name->is_string() || name->get<std::string>().empty()) {
    return where + ".function.name is not a non-empty string";
  }
  out.name = name->get<std::string>();
  auto id = value.find("id");
  if (id != value.end() && !id->is_null() && !id->is_string()) {
    return where + ".id is not a string";
  }
  out.id = id != value.end() && id->is_string() ? id->get<std::string>() : "";
  if (out.id.empty()) out.id = fallbackToolCallId(index);
  auto arguments = function->find("arguments");
  std::string error =
      argumentsText(arguments == function->end() ? json() : *arguments, out.arguments);
  return error.empty() ? "" : where + ".function." + error;
}

}  // namespace

std::string contentText(const json& value, std::string& out) {
  out.clear();
  if (value.is_null()) return "";
  if (value.is_string()) {
    out = value.get<std::string>();
    return "";
  }
  if (!value.is_array()) return "\"content\" is neither a string, null nor an array of parts";
  for (const json& part : value) {
    auto text = part.is_object() ? part.find("text") : part.end();
    if (!part.is_object() || text == part.end() || !text->is_string()) {
      return "a \"content\" part has no string \"text\"";
    }
    out += text->get<std::string>();
  }
  return "";
}

std::string argumentsText(const json& value, std::string& out) {
  out.clear();
  if (value.is_string()) {
    out = value.get<std::string>();
  } else if (value.is_object() || value.is_array()) {
    out = value.dump(-1, ' ', false, json::error_handler_t::replace);
  } else if (!value.is_null()) {
    return "arguments is neither a string nor an object";
  }
  return "";
}

json parseServerJson(std::string_view text) {
  json value = json::parse(text, nullptr, false);
  if (!value.is_discarded() && jsonDepth(value, kMaxServerJsonDepth + 1) > kMaxServerJsonDepth) {
    return json(json::value_t::discarded);
  }
  return value;
}

std::string fallbackToolCallId(size_t index) {
  return "call_" + std::to_string(index);
}

std::string parseAssistantMessage(const json& message, ChatMessage& out) {
  if (!message.is_object()) return "the message is not an object";
  out = ChatMessage{};
  out.role = "assistant";
  auto content = message.find("content");
  if (content != message.end()) {
    std::string error = contentText(*content, out.content);
    if (!error.empty()) return error;
  }
  auto calls = message.find("tool_calls");
  if (calls == message.end() || calls->is_null()) return "";
  if (!calls->is_array()) return "\"tool_calls\" is not an array";
  if (calls->size() > kMaxToolCallsPerReply) {
    return "more than " + std::to_string(kMaxToolCallsPerReply) + " tool calls in one reply";
  }
  for (size_t i = 0; i < calls->size(); ++i) {
    ChatToolCall call;
    std::string error = parseToolCall((*calls)[i], i, call);
    if (!error.empty()) return error;
    out.tool_calls.push_back(std::move(call));
  }
  return "";
}

std::string parseCompletion(const json& body, ChatReply& out) {
  if (!body.is_object()) return "the reply is not a JSON object";
  auto choices = body.find("choices");
  if (choices == body.end() || !choices->is_array() || choices->empty()) {
    return "the reply has no \"choices\"";
  }
  const json& choice = choices->front();
  if (!choice.is_object()) return "choices[0] is not an object";
  auto message = choice.find("message");
  if (message == choice.end()) return "choices[0] has no \"message\"";
  std::string error = parseAssistantMessage(*message, out.message);
  if (!error.empty()) return "choices[0].message: " + error;
  out.finish_reason.clear();
  auto finish = choice.find("finish_reason");
  if (finish != choice.end() && !finish->is_null()) {
    if (!finish->is_string()) return "choices[0].finish_reason is not a string";
    out.finish_reason = finish->get<std::string>();
  }
  auto usage = body.find("usage");
  out.usage = usage != body.end() && usage->is_object() ? *usage : json();
  return "";
}

std::string serverErrorMessage(const json& body) {
  if (!body.is_object()) return "";
  auto error = body.find("error");
  if (error != body.end()) {
    if (error->is_string()) return error->get<std::string>();
    if (error->is_object()) {
      auto message = error->find("message");
      if (message != error->end() && message->is_string()) return message->get<std::string>();
      return error->dump(-1, ' ', false, json::error_handler_t::replace);
    }
  }
  for (const char* key : {"message", "detail"}) {
    auto value = body.find(key);
    if (value == body.end()) continue;
    if (value->is_string()) return value->get<std::string>();
    return value->dump(-1, ' ', false, json::error_handler_t::replace);
  }
  return "";
}

}  // namespace detail
}  // namespace toolguard

namespace toolguard::detail {

Expected<json> chatRequestBody(const ChatEndpoint& endpoint, const ChatRequest& request) {
  if (!endpoint.extra_body.is_null() && !endpoint.extra_body.is_object()) {
    return fail("endpoint.extra_body is not a JSON object");
  }
  json body = {{"model", endpoint.model}, {"messages", json::array()}};
  for (const ChatMessage& message : request.messages) body["messages"].push_back(message.toJson());
  if (!request.tools.is_null() && !request.tools.empty()) body["tools"] = request.tools;
  body["stream"] = request.stream;
  json extra = endpoint.extra_body.is_object() ? endpoint.extra_body : json::object();
  // Streamed usage is sent only when asked for (OpenAI); extra_body may say otherwise.
  if (request.stream) extra.emplace("stream_options", json{{"include_usage", true}});
  for (const auto& [key, value] : extra.items()) {
    // The fields above are the client's: extra_body adds, it does not replace.
    body.emplace(key, value);
  }
  return body;
}

}  // namespace toolguard::detail
