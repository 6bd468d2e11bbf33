#pragma once
// A chat-completions server for tests: answers each request with the next
// reply of a script, as a chat.completion or as server-sent chunks.

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "toolguard/chat_client.hpp"

namespace toolguard::testing {

/// One scripted answer.
struct ScriptedReply {
  // The semantic reply, rendered as chat.completion JSON or as SSE chunks
  // depending on the request's "stream" field.
  std::string content;  ///< assistant text
  std::vector<toolguard::ChatToolCall> tool_calls;
  std::string finish_reason;  ///< "" -> "tool_calls" if tool_calls else "stop"
  // Raw overrides.
  int status = 200;
  std::optional<std::string> raw_body;  ///< sent as is (with raw_content_type), ignoring the above
  std::string raw_content_type = "application/json";
  /// SSE data payloads sent as "data: X\n\n" each (no automatic [DONE]).
  std::optional<std::vector<std::string>> raw_events;
  std::chrono::milliseconds delay_between_events{0};
  /// How long the server waits before answering at all (a slow model).
  std::chrono::milliseconds delay_before_reply{0};

  static ScriptedReply text(std::string content) {
    ScriptedReply r;
    r.content = std::move(content);
    return r;
  }
  static ScriptedReply toolCalls(std::vector<toolguard::ChatToolCall> calls,
                                 std::string content = "") {
    ScriptedReply r;
    r.tool_calls = std::move(calls);
    r.content = std::move(content);
    return r;
  }
  static ScriptedReply httpError(int status, std::string body) {
    return raw(std::move(body), status);
  }
  static ScriptedReply raw(std::string body, int status = 200,
                           std::string content_type = "application/json") {
    ScriptedReply r;
    r.raw_body = std::move(body);
    r.status = status;
    r.raw_content_type = std::move(content_type);
    return r;
  }
  static ScriptedReply rawStream(std::vector<std::string> data_payloads) {
    ScriptedReply r;
    r.raw_events = std::move(data_payloads);
    return r;
  }
};

namespace scripted_detail {

using nlohmann::json;

inline std::string dumpJson(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// `text` cut into pieces of at most `size` bytes, never inside a UTF-8 sequence.
inline std::vector<std::string> splitText(const std::string& text, size_t size) {
  std::vector<std::string> pieces;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = std::min(text.size(), start + size);
    while (end < text.size() && end > start + 1 &&
           (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
      --end;
    }
    pieces.push_back(text.substr(start, end - start));
    start = end;
  }
  return pieces;
}

inline std::string finishReason(const ScriptedReply& reply) {
  if (!reply.finish_reason.empty()) return reply.finish_reason;
  return reply.tool_calls.empty() ? "stop" : "tool_calls";
}

inline json usage(const ScriptedReply& reply) {
  size_t completion = reply.content.size();
  for (const auto& call : reply.tool_calls) completion += call.arguments.size();
  return {
      {"prompt_tokens", 10}, {"completion_tokens", completion}, {"total_tokens", 10 + completion}};
}

inline json completion(const ScriptedReply& reply) {
  json message = {{"role", "assistant"}};
  bool only_calls = reply.content.empty() && !reply.tool_calls.empty();
  message["content"] = only_calls ? json(nullptr) : json(reply.content);
  if (!reply.tool_calls.empty()) {
    json calls = json::array();
    for (const auto& call : reply.tool_calls) {
      calls.push_back({{"id", call.id},
                       {"type", "function"},
                       {"function", {{"name", call.name}, {"arguments", call.arguments}}}});
    }
    message["tool_calls"] = std::move(calls);
  }
  return {{"id", "chatcmpl-scripted"},
          {"object", "chat.completion"},
          {"created", 1700000000},
          {"model", "scripted"},
          {"choices", json::array({{{"index", 0},
                                    {"message", std::move(message)},
                                    {"finish_reason", finishReason(reply)}}})},
          {"usage", usage(reply)}};
}

inline json chunk(json delta, json finish_reason = nullptr) {
  return {{"id", "chatcmpl-scripted"},
          {"object", "chat.completion.chunk"},
          {"created", 1700000000},
          {"model", "scripted"},
          {"choices", json::array({{{"index", 0},
                                    {"delta", std::move(delta)},
                                    {"finish_reason", std::move(finish_reason)}}})}};
}

// The data payloads of a streamed reply, "[DONE]" included.
inline std::vector<std::string> chunks(const ScriptedReply& reply) {
  std::vector<std::string> out;
  out.push_back(dumpJson(chunk({{"role", "assistant"}})));
  for (const std::string& piece : splitText(reply.content, 5)) {
    out.push_back(dumpJson(chunk({{"content", piece}})));
  }
  for (size_t i = 0; i < reply.tool_calls.size(); ++i) {
    const auto& call = reply.tool_calls[i];
    json first = {{"index", i},
                  {"id", call.id},
                  {"type", "function"},
                  {"function", {{"name", call.name}, {"arguments", ""}}}};
    out.push_back(dumpJson(chunk({{"tool_calls", json::array({first})}})));
    size_t third = std::max<size_t>(1, (call.arguments.size() + 2) / 3);
    for (const std::string& piece : splitText(call.arguments, third)) {
      json more = {{"index", i}, {"function", {{"arguments", piece}}}};
      out.push_back(dumpJson(chunk({{"tool_calls", json::array({more})}})));
    }
  }
  out.push_back(dumpJson(chunk(json::object(), finishReason(reply))));
  json usage_chunk = chunk(json::object());
  usage_chunk["choices"] = json::array();
  usage_chunk["usage"] = usage(reply);
  out.push_back(dumpJson(usage_chunk));
  out.push_back("[DONE]");
  return out;
}

}  // namespace scripted_detail

/// Serves a script on 127.0.0.1 (a free port) from a background thread.
class ScriptedChatServer {
 public:
  /// Listens on 127.0.0.1, random free port, in a background thread; ready
  /// when the constructor returns.
  explicit ScriptedChatServer(std::vector<ScriptedReply> script) : script_(std::move(script)) {
    server_.set_keep_alive_max_count(1);
    server_.Post("/v1/chat/completions",
                 [this](const httplib::Request& req, httplib::Response& res) { answer(req, res); });
    port_ = server_.bind_to_any_port("127.0.0.1");
    if (port_ <= 0) throw std::runtime_error("ScriptedChatServer: cannot bind 127.0.0.1");
    thread_ = std::thread([this] {
      server_.listen_after_bind();
      listen_returned_ = true;
    });
    while (!server_.is_running()) {
      if (listen_returned_) {
        thread_.join();
        throw std::runtime_error("ScriptedChatServer: the server did not start");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  /// Stops and joins.
  ~ScriptedChatServer() {
    *stopping_ = true;
    server_.stop();
    thread_.join();
  }

  ScriptedChatServer(const ScriptedChatServer&) = delete;
  ScriptedChatServer& operator=(const ScriptedChatServer&) = delete;

  /// "http://127.0.0.1:PORT/v1".
  std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

  /// The request bodies received, in order (a body that is not JSON as a string).
  std::vector<nlohmann::json> requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }

  /// The Authorization header of each request ("" when absent).
  std::vector<std::string> authorizations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return authorizations_;
  }

  size_t requestCount() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_.size();
  }

 private:
  // Once the script is exhausted every request gets 500 {"error":{"message":"script exhausted"}}.
  void answer(const httplib::Request& req, httplib::Response& res) {
    nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
    if (body.is_discarded()) body = req.body;
    std::optional<ScriptedReply> reply;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      requests_.push_back(body);
      authorizations_.push_back(req.get_header_value("Authorization"));
      if (next_ < script_.size()) reply = script_[next_++];
    }
    if (reply && reply->delay_before_reply.count() > 0 &&
        !pause(reply->delay_before_reply, *stopping_)) {
      res.status = 503;
      return;
    }
    if (!reply) {
      res.status = 500;
      res.set_content(R"({"error":{"message":"script exhausted"}})", "application/json");
      return;
    }
    res.status = reply->status;
    if (reply->raw_body) {
      res.set_content(*reply->raw_body, reply->raw_content_type);
      return;
    }
    bool stream = body.is_object() && body.contains("stream") && body["stream"] == true;
    if (!stream && !reply->raw_events) {
      res.set_content(scripted_detail::dumpJson(scripted_detail::completion(*reply)),
                      "application/json");
      return;
    }
    auto events = std::make_shared<std::vector<std::string>>(
        reply->raw_events ? *reply->raw_events : scripted_detail::chunks(*reply));
    auto next = std::make_shared<size_t>(0);
    res.set_chunked_content_provider("text/event-stream",
                                     [events, next, delay = reply->delay_between_events,
                                      stopping = stopping_](size_t, httplib::DataSink& sink) {
                                       if (*next > 0 && !pause(delay, *stopping)) return false;
                                       if (*next < events->size()) {
                                         std::string event = "data: " + (*events)[*next] + "\n\n";
                                         if (!sink.write(event.data(), event.size())) return false;
                                         ++*next;
                                       }
                                       if (*next == events->size()) sink.done();
                                       return true;
                                     });
  }

  // Sleeps `delay` unless the server stops first (then false).
  static bool pause(std::chrono::milliseconds delay, const std::atomic<bool>& stopping) {
    auto until = std::chrono::steady_clock::now() + delay;
    while (std::chrono::steady_clock::now() < until) {
      if (stopping) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return !stopping;
  }

  std::vector<ScriptedReply> script_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<bool> listen_returned_{false};
  std::shared_ptr<std::atomic<bool>> stopping_ = std::make_shared<std::atomic<bool>>(false);
  mutable std::mutex mutex_;
  size_t next_ = 0;
  std::vector<nlohmann::json> requests_;
  std::vector<std::string> authorizations_;
};

}  // namespace toolguard::testing
