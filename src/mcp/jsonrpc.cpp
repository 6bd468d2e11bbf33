// JSON-RPC 2.0 message shapes and the responses the proxy writes itself.
#include "mcp/jsonrpc.hpp"

#include "json/json_error.hpp"

namespace toolguard::mcp {
namespace {

using json = nlohmann::json;

/// The top-level members a message is routed by; `discarded` marks absent ones.
struct TopMembers {
  bool is_object = false;
  bool is_array = false;
  json id = json::value_t::discarded;
  json method = json::value_t::discarded;
  json jsonrpc = json::value_t::discarded;
  bool has_result = false;
  bool has_error = false;
};

MessageShape classify(const TopMembers& top) {
  MessageShape s;
  bool has_id = !top.id.is_discarded();
  if (has_id) s.id = top.id;
  if (top.is_array) {
    s.kind = MessageKind::Batch;
  } else if (!top.is_object) {
    s.problem = "not a JSON-RPC message (not an object)";
  } else if (top.jsonrpc != "2.0") {
    s.problem = "not a JSON-RPC 2.0 message (no \"jsonrpc\": \"2.0\")";
  } else if (!top.method.is_discarded()) {
    if (!top.method.is_string()) {
      s.problem = "\"method\" is not a string";
    } else {
      s.method = top.method.get<std::string>();
      s.kind = has_id ? MessageKind::Request : MessageKind::Notification;
    }
  } else if (has_id && (top.has_result || top.has_error)) {
    s.kind = MessageKind::Response;
  } else {
    s.problem = "neither a request, a notification nor a response";
  }
  bool id_ok = !has_id || top.id.is_string() || top.id.is_number() ||
               (s.kind == MessageKind::Response && top.id.is_null());
  if (s.kind != MessageKind::Invalid && s.kind != MessageKind::Batch && !id_ok) {
    s.kind = MessageKind::Invalid;
    s.problem = "\"id\" is not a string or a number";
  }
  if (s.kind == MessageKind::Invalid && has_id && !id_ok) s.id = nullptr;
  return s;
}

/// SAX handler that records the top-level members the proxy routes by and
/// ignores everything nested.
class ShapeScanner : public json::json_sax_t {
 public:
  bool null() override { return value(json()); }
  bool boolean(bool v) override { return value(json(v)); }
  bool number_integer(number_integer_t v) override { return value(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return value(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return value(json(v)); }
  bool string(string_t& v) override { return value(json(std::move(v))); }
  bool binary(binary_t&) override { return value(json()); }
  bool start_object(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    if (depth_ == 1) key_ = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) override {
    error_ = toolguard::detail::jsonErrorSentence(e) + " (byte " + std::to_string(position) + ")";
    return false;
  }

  MessageShape shape() const {
    if (!error_.empty()) return MessageShape{MessageKind::Invalid, nullptr, "", error_};
    return classify(top_);
  }

 private:
  bool open(bool array) {
    if (depth_ == 0) (array ? top_.is_array : top_.is_object) = true;
    if (depth_ == 1) member();
    ++depth_;
    // A batch's elements are read by the caller, but the whole line is still
    // scanned: a batch that is not JSON must not be relayed as it came.
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }
  bool value(json v) {
    if (depth_ == 1) member(std::move(v));
    return true;
  }
  void member(json v = json::object()) {  // a nested value: never a valid id or method
    if (key_ == "id") {
      top_.id = std::move(v);
    } else if (key_ == "method") {
      top_.method = std::move(v);
    } else if (key_ == "jsonrpc") {
      top_.jsonrpc = std::move(v);
    } else if (key_ == "result") {
      top_.has_result = true;
    } else if (key_ == "error") {
      top_.has_error = true;
    }
  }

  int depth_ = 0;
  std::string key_;
  std::string error_;
  TopMembers top_;
};

}  // namespace

MessageShape scanMessage(std::string_view line) {
  // The JSON library reads a NUL byte as the end of the text: "[...]\0..."
  // would pass as its first part. JSON text never holds one.
  if (line.find('\0') != std::string_view::npos) {
    MessageShape refused;
    refused.kind = MessageKind::Invalid;
    refused.problem = "a NUL byte (JSON text never holds one)";
    return refused;
  }
  ShapeScanner scanner;
  bool complete = json::sax_parse(line, &scanner);
  MessageShape shape = scanner.shape();
  if (!complete && shape.problem.empty()) {
    shape.kind = MessageKind::Invalid;
    shape.problem = "not JSON";
  }
  return shape;
}

MessageShape shapeOf(const nlohmann::json& message) {
  TopMembers top;
  top.is_object = message.is_object();
  top.is_array = message.is_array();
  if (top.is_object) {
    for (const char* key : {"id", "method", "jsonrpc"}) {
      auto it = message.find(key);
      if (it == message.end()) continue;
      (key[0] == 'i' ? top.id : key[0] == 'm' ? top.method : top.jsonrpc) = *it;
    }
    top.has_result = message.contains("result");
    top.has_error = message.contains("error");
  }
  return classify(top);
}

json errorResponse(const json& id, int code, const std::string& message, const json& data) {
  json error = {{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = data;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

json toolErrorResponse(const json& id, const std::string& text) {
  json content = json::array({{{"type", "text"}, {"text", text}}});
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"result", {{"content", std::move(content)}, {"isError", true}}}};
}

std::string toLine(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string errorMessageOf(const nlohmann::json& error, const std::string& otherwise) {
  if (!error.is_object()) return otherwise;
  auto message = error.find("message");
  return message != error.end() && message->is_string() ? message->get<std::string>() : otherwise;
}

}  // namespace toolguard::mcp
