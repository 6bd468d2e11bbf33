// One chat-completions response, streamed or not, into a ChatResult.
#include "response_reader.hpp"

#include "chat_wire.hpp"

namespace toolguard::detail {

using nlohmann::json;

ChatResult chatFailure(ChatError::Kind kind, std::string message, int http_status) {
  ChatResult result;
  result.error = ChatError{kind, http_status, std::move(message)};
  return result;
}

std::string excerpt(std::string_view text, size_t limit) {
  if (text.size() <= limit) return std::string(text);
  size_t cut = limit;
  // Do not split a UTF-8 sequence.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

void ResponseReader::onStatus(int status, std::string_view content_type) {
  status_ = status;
  bool json_body = content_type.substr(0, 16) == "application/json";
  sse_ = stream_ && status == 200 && !json_body;
}

bool ResponseReader::onData(std::string_view bytes) {
  if (cancellation_.cancelled()) {
    cancelled_ = true;
    return false;
  }
  if (error_ || done_) return false;
  try {
    return consume(bytes);
  } catch (const std::exception& e) {
    fail(ChatError::Kind::Protocol, std::string("reading the reply failed: ") + e.what());
  } catch (...) {
    fail(ChatError::Kind::Protocol, "reading the reply failed");
  }
  return false;
}

bool ResponseReader::consume(std::string_view bytes) {
  received_ += bytes.size();
  if (status_ != 200) {
    size_t room = kMaxErrorBodyBytes - body_.size();
    body_.append(bytes.substr(0, room));
    body_cut_ = bytes.size() > room;
    return !body_cut_;
  }
  if (received_ > kMaxResponseBytes) {
    fail(ChatError::Kind::Protocol,
         "the reply exceeds " + std::to_string(kMaxResponseBytes) + " bytes");
    return false;
  }
  if (!sse_) {
    body_.append(bytes);
    return true;
  }
  events_.clear();
  bool parsed = parser_.feed(bytes, events_);
  for (const SseEvent& event : events_) {
    if (!onEvent(event)) return false;
    // A callback may have cancelled: the events after it are not delivered.
    if (cancellation_.cancelled()) {
      cancelled_ = true;
      return false;
    }
  }
  if (!parsed) fail(ChatError::Kind::Protocol, parser_.error());
  return parsed;
}

bool ResponseReader::onEvent(const SseEvent& event) {
  if (!event.error.empty()) {
    failWithServerError(parseServerJson(event.error), event.error);
    return false;
  }
  if (event.data == "[DONE]") {
    done_ = true;
    return false;
  }
  json chunk = parseServerJson(event.data);
  if (chunk.is_discarded()) {
    fail(ChatError::Kind::Protocol,
         "a stream chunk is not JSON (or is nested too deeply): " + excerpt(event.data));
    return false;
  }
  if (chunk.is_object() && chunk.contains("error") && !chunk["error"].is_null()) {
    failWithServerError(chunk, event.data);
    return false;
  }
  std::string error = assembler_.apply(chunk);
  if (error.empty()) return true;
  fail(ChatError::Kind::Protocol, error + ": " + excerpt(event.data));
  return false;
}

void ResponseReader::fail(ChatError::Kind kind, std::string message, int http_status) {
  if (!error_) error_ = ChatError{kind, http_status, std::move(message)};
}

void ResponseReader::failWithServerError(const json& body, std::string_view raw) {
  std::string message = body.is_discarded() ? "" : serverErrorMessage(body);
  if (message.empty()) message = std::string(raw);
  message = "the server reported an error: " + excerpt(message, 2000);
  // An error object may carry the HTTP status the server would have sent.
  const json* code = nullptr;
  if (body.is_object() && body.contains("error") && body["error"].is_object()) {
    auto it = body["error"].find("code");
    if (it != body["error"].end()) code = &*it;
  }
  if (code && code->is_number_integer() && *code >= 400 && *code <= 599) {
    fail(ChatError::Kind::Http, std::move(message), code->get<int>());
  } else {
    fail(ChatError::Kind::Protocol, std::move(message));
  }
}

ChatResult ResponseReader::finish(const std::string& transfer_error, const std::string& url) {
  if (error_) return ChatResult{std::nullopt, error_};
  if (cancelled_ || (!transfer_error.empty() && cancellation_.cancelled())) {
    return chatFailure(ChatError::Kind::Cancelled, "the request to " + url + " was cancelled");
  }
  // A stream that carried its finish_reason is complete enough without "[DONE]".
  bool stopped_on_purpose = done_ || body_cut_ || (sse_ && assembler_.finished());
  if (!transfer_error.empty() && !stopped_on_purpose) {
    std::string what =
        status_ == 0 ? "could not get a reply from " : "the connection broke reading ";
    return chatFailure(ChatError::Kind::Connection, what + url + ": " + transfer_error);
  }
  if (status_ != 200) {
    json body = parseServerJson(body_);
    std::string message = body.is_discarded() ? "" : serverErrorMessage(body);
    if (message.empty()) message = body_.empty() ? "(empty body)" : body_;
    return chatFailure(
        ChatError::Kind::Http,
        "HTTP " + std::to_string(status_) + " from " + url + ": " + excerpt(message, 2000),
        status_);
  }
  if (!sse_) return finishJson(url);
  if (!done_) {
    events_.clear();
    if (!parser_.finish(events_)) fail(ChatError::Kind::Protocol, parser_.error());
    for (const SseEvent& event : events_) {
      if (!onEvent(event)) break;
    }
    if (error_) return ChatResult{std::nullopt, error_};
  }
  if (!done_ && !assembler_.finished()) {
    return chatFailure(ChatError::Kind::Protocol,
                       "the stream from " + url + " ended early (no finish_reason, no [DONE])");
  }
  ChatReply reply = assembler_.reply();
  for (const ChatToolCall& call : reply.message.tool_calls) {
    // The same rule as a plain reply: a call without a name is malformed.
    if (call.name.empty()) {
      return chatFailure(ChatError::Kind::Protocol,
                         "the stream from " + url + " has a tool call without a name");
    }
  }
  return ChatResult{std::move(reply), std::nullopt};
}

ChatResult ResponseReader::finishJson(const std::string& url) {
  json body = parseServerJson(body_);
  if (body.is_discarded()) {
    return chatFailure(ChatError::Kind::Protocol,
                       "the reply from " + url + " is not JSON (or is nested too deeply): " +
                           (body_.empty() ? std::string("(empty body)") : excerpt(body_)));
  }
  if (body.is_object() && body.contains("error") && !body["error"].is_null()) {
    failWithServerError(body, body_);
    return ChatResult{std::nullopt, error_};
  }
  ChatReply reply;
  std::string error = parseCompletion(body, reply);
  if (!error.empty()) {
    return chatFailure(ChatError::Kind::Protocol,
                       "the reply from " + url + " is not a chat completion: " + error);
  }
  // A server that ignored "stream": the callbacks still see the reply.
  if (stream_ && callbacks_.on_content && !reply.message.content.empty()) {
    callbacks_.on_content(reply.message.content);
  }
  for (size_t i = 0;
       stream_ && callbacks_.on_tool_call_started && i < reply.message.tool_calls.size(); ++i) {
    callbacks_.on_tool_call_started(i, reply.message.tool_calls[i]);
  }
  return ChatResult{std::move(reply), std::nullopt};
}

}  // namespace toolguard::detail
