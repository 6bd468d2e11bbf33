// ChatClient against a scripted server: replies streamed and not, tool
// calls, the request on the wire, and every way a request can fail.
#include "toolguard/chat_client.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "support/loopback_listener.hpp"
#include "support/piece_server.hpp"
#include "support/scripted_chat_server.hpp"

namespace toolguard {
namespace chat_client_test {

using nlohmann::json;
using testing::PieceServer;
using testing::ScriptedChatServer;
using testing::ScriptedReply;
using Kind = ChatError::Kind;

ChatEndpoint endpointFor(const ScriptedChatServer& server, std::string key = "") {
  ChatEndpoint endpoint;
  endpoint.base_url = server.baseUrl();
  endpoint.model = "test-model";
  endpoint.api_key = std::move(key);
  endpoint.timeout = std::chrono::seconds(10);
  return endpoint;
}

ChatRequest ask(std::string text, bool stream = false) {
  ChatRequest request;
  request.messages = {ChatMessage::user(std::move(text))};
  request.stream = stream;
  return request;
}

std::string completionsUrl(const ScriptedChatServer& server) {
  return server.baseUrl() + "/chat/completions";
}

// The error of a failed result ("not an error" marks a success).
ChatError errorOf(const ChatResult& result) {
  EXPECT_FALSE(result.ok());
  return result.error.value_or(ChatError{Kind::Protocol, 0, "not an error"});
}

// A port with nothing listening on it.
int closedPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

const std::vector<ChatToolCall> kCalls = {
    {"call_1", "write_file", R"({"path":"/tmp/a b.txt","content":"line1\nline2 \"q\""})"},
    {"call_2", "bash", R"({"command":"ls -la ~"})"},
    {"call_3", "noop", "{}"},
};

TEST(ChatClient, NonStreamedText) {
  ScriptedChatServer server({ScriptedReply::text("Hello, world")});
  ChatResult result = ChatClient(endpointFor(server)).complete(ask("hi"));
  ASSERT_TRUE(result.ok()) << result.error->message;
  EXPECT_FALSE(result.error.has_value());
  EXPECT_EQ(result.reply->message.role, "assistant");
  EXPECT_EQ(result.reply->message.content, "Hello, world");
  EXPECT_TRUE(result.reply->message.tool_calls.empty());
  EXPECT_EQ(result.reply->finish_reason, "stop");
  EXPECT_EQ(result.reply->usage,
            json({{"prompt_tokens", 10}, {"completion_tokens", 12}, {"total_tokens", 22}}));
}

TEST(ChatClient, StreamedTextArrivesInPieces) {
  std::string text = "The quick brown fox, ünïcödé ✓, jumps over the lazy dog.";
  ScriptedChatServer server({ScriptedReply::text(text)});
  std::vector<std::string> pieces;
  ChatStreamCallbacks callbacks;
  callbacks.on_content = [&](std::string_view piece) { pieces.emplace_back(piece); };
  ChatResult result = ChatClient(endpointFor(server)).complete(ask("hi", true), callbacks);
  ASSERT_TRUE(result.ok()) << result.error->message;
  EXPECT_EQ(result.reply->message.role, "assistant");
  EXPECT_EQ(result.reply->message.content, text);
  EXPECT_EQ(result.reply->finish_reason, "stop");
  EXPECT_EQ(result.reply->usage["completion_tokens"], text.size());
  ASSERT_GT(pieces.size(), 5u);
  std::string joined;
  for (const auto& piece : pieces) joined += piece;
  EXPECT_EQ(joined, text);
}

TEST(ChatClient, StreamedToolCallsAreAssembled) {
  ScriptedChatServer server({ScriptedReply::toolCalls(kCalls, "Let me look.")});
  std::vector<std::pair<size_t, ChatToolCall>> started;
  ChatStreamCallbacks callbacks;
  callbacks.on_tool_call_started = [&](size_t index, const ChatToolCall& call) {
    started.emplace_back(index, call);
  };
  ChatResult result = ChatClient(endpointFor(server)).complete(ask("go", true), callbacks);
  ASSERT_TRUE(result.ok()) << result.error->message;
  const ChatMessage& message = result.reply->message;
  EXPECT_EQ(message.content, "Let me look.");
  ASSERT_EQ(message.tool_calls.size(), 3u);
  for (size_t i = 0; i < kCalls.size(); ++i) {
    EXPECT_EQ(message.tool_calls[i].id, kCalls[i].id);
    EXPECT_EQ(message.tool_calls[i].name, kCalls[i].name);
    EXPECT_EQ(message.tool_calls[i].arguments, kCalls[i].arguments);
  }
  EXPECT_EQ(result.reply->finish_reason, "tool_calls");
  ASSERT_EQ(started.size(), 3u);
  for (size_t i = 0; i < started.size(); ++i) {
    EXPECT_EQ(started[i].first, i);
    EXPECT_EQ(started[i].second.id, kCalls[i].id);
    EXPECT_EQ(started[i].second.name, kCalls[i].name);
    EXPECT_EQ(started[i].second.arguments, "");
  }
}

TEST(ChatClient, NonStreamedToolCallsWithNullContent) {
  ScriptedChatServer server({ScriptedReply::toolCalls(kCalls)});
  ChatResult result = ChatClient(endpointFor(server)).complete(ask("go"));
  ASSERT_TRUE(result.ok()) << result.error->message;
  EXPECT_EQ(result.reply->message.content, "");
  ASSERT_EQ(result.reply->message.tool_calls.size(), 3u);
  for (size_t i = 0; i < kCalls.size(); ++i) {
    EXPECT_EQ(result.reply->message.tool_calls[i].id, kCalls[i].id);
    EXPECT_EQ(result.reply->message.tool_calls[i].name, kCalls[i].name);
    EXPECT_EQ(result.reply->message.tool_calls[i].arguments, kCalls[i].arguments);
  }
  EXPECT_EQ(result.reply->finish_reason, "tool_calls");
}

TEST(ChatClient, StreamedAndNonStreamedRepliesAreEqual) {
  ScriptedReply reply = ScriptedReply::toolCalls(kCalls, "Some text first.");
  reply.finish_reason = "length";
  ScriptedChatServer server({reply, reply});
  ChatClient client(endpointFor(server));
  ChatResult plain = client.complete(ask("a"));
  ChatResult streamed = client.complete(ask("a", true));
  ASSERT_TRUE(plain.ok() && streamed.ok());
  EXPECT_EQ(plain.reply->message.toJson(), streamed.reply->message.toJson());
  EXPECT_EQ(plain.reply->finish_reason, "length");
  EXPECT_EQ(streamed.reply->finish_reason, "length");
  EXPECT_EQ(plain.reply->usage, streamed.reply->usage);
}

TEST(ChatClient, RequestBodyIsTheWireFormat) {
  ScriptedChatServer server({ScriptedReply::text("one"), ScriptedReply::text("two")});
  ChatEndpoint endpoint = endpointFor(server);
  endpoint.extra_body = {{"temperature", 0.25}, {"seed", 7}, {"model", "not-this"}};
  ChatClient client(endpoint);

  ChatMessage assistant;
  assistant.role = "assistant";
  assistant.tool_calls = {kCalls[1]};
  ChatRequest request;
  request.messages = {ChatMessage::system("Be careful."), ChatMessage::user("List files."),
                      assistant, ChatMessage::tool("call_2", "bash", "a\nb\n")};
  request.tools = json::array(
      {{{"type", "function"}, {"function", {{"name", "bash"}, {"parameters", json::object()}}}}});
  ASSERT_TRUE(client.complete(request).ok());
  ASSERT_TRUE(client.complete(ask("again", true)).ok());

  std::vector<json> bodies = server.requests();
  ASSERT_EQ(bodies.size(), 2u);
  json expected_messages = json::parse(R"([
    {"role":"system","content":"Be careful."},
    {"role":"user","content":"List files."},
    {"role":"assistant","content":null,"tool_calls":[{"id":"call_2","type":"function",
      "function":{"name":"bash","arguments":"{\"command\":\"ls -la ~\"}"}}]},
    {"role":"tool","content":"a\nb\n","tool_call_id":"call_2","name":"bash"}])");
  EXPECT_EQ(bodies[0], json({{"model", "test-model"},
                             {"messages", expected_messages},
                             {"tools", request.tools},
                             {"stream", false},
                             {"temperature", 0.25},
                             {"seed", 7}}));
  EXPECT_EQ(bodies[1], json({{"model", "test-model"},
                             {"messages", json::array({{{"role", "user"}, {"content", "again"}}})},
                             {"stream", true},
                             {"stream_options", {{"include_usage", true}}},
                             {"temperature", 0.25},
                             {"seed", 7}}));
}

TEST(ChatClient, AuthorizationOnlyWithAKey) {
  ScriptedChatServer server({ScriptedReply::text("a"), ScriptedReply::text("b")});
  ASSERT_TRUE(ChatClient(endpointFor(server, "sk-test-123")).complete(ask("x")).ok());
  ASSERT_TRUE(ChatClient(endpointFor(server)).complete(ask("x", true)).ok());
  EXPECT_EQ(server.authorizations(), (std::vector<std::string>{"Bearer sk-test-123", ""}));
}

TEST(ChatClient, HttpErrorCarriesTheServersMessage) {
  ScriptedChatServer server(
      {ScriptedReply::httpError(500, R"({"error":{"message":"model crashed","type":"server"}})"),
       ScriptedReply::httpError(401, R"({"error":{"message":"Invalid API key","code":null}})"),
       ScriptedReply::httpError(503, "upstream overloaded, try later"),
       ScriptedReply::httpError(404, R"({"error":"model 'x' not found"})")});
  ChatClient client(endpointFor(server));
  std::string url = completionsUrl(server);

  ChatError e500 = errorOf(client.complete(ask("x")));
  EXPECT_EQ(e500.kind, Kind::Http);
  EXPECT_EQ(e500.http_status, 500);
  EXPECT_EQ(e500.message, "HTTP 500 from " + url + ": model crashed");

  ChatError e401 = errorOf(client.complete(ask("x", true)));
  EXPECT_EQ(e401.kind, Kind::Http);
  EXPECT_EQ(e401.http_status, 401);
  EXPECT_EQ(e401.message, "HTTP 401 from " + url + ": Invalid API key");

  ChatError e503 = errorOf(client.complete(ask("x")));
  EXPECT_EQ(e503.http_status, 503);
  EXPECT_EQ(e503.message, "HTTP 503 from " + url + ": upstream overloaded, try later");

  ChatError e404 = errorOf(client.complete(ask("x", true)));
  EXPECT_EQ(e404.http_status, 404);
  EXPECT_EQ(e404.message, "HTTP 404 from " + url + ": model 'x' not found");
}

TEST(ChatClient, LongErrorBodyIsCut) {
  ScriptedChatServer server({ScriptedReply::httpError(502, std::string(200000, 'x'))});
  ChatError error = errorOf(ChatClient(endpointFor(server)).complete(ask("x")));
  EXPECT_EQ(error.kind, Kind::Http);
  EXPECT_EQ(error.http_status, 502);
  EXPECT_EQ(error.message,
            "HTTP 502 from " + completionsUrl(server) + ": " + std::string(2000, 'x') + "...");
}

TEST(ChatClient, ScriptExhaustedIsAnHttpError) {
  ScriptedChatServer server({});
  ChatError error = errorOf(ChatClient(endpointFor(server)).complete(ask("x")));
  EXPECT_EQ(error.kind, Kind::Http);
  EXPECT_EQ(error.message, "HTTP 500 from " + completionsUrl(server) + ": script exhausted");
  EXPECT_EQ(server.requestCount(), 1u);
}

TEST(ChatClient, MalformedBodiesAreProtocolErrors) {
  std::string prefix = R"({"choices":[{"index":0,"finish_reason":"stop","message":)";
  ScriptedChatServer server({
      ScriptedReply::raw("{not json"),
      ScriptedReply::raw(R"({"id":"x","object":"chat.completion"})"),
      ScriptedReply::raw(prefix + R"({"role":"assistant","tool_calls":{"id":"a"}}}]})"),
      ScriptedReply::raw(prefix + R"({"tool_calls":[{"id":"a","function":{"name":"f",
                         "arguments":42}}]}}]})"),
      ScriptedReply::raw(prefix + R"({"content":7}}]})"),
      ScriptedReply::raw(""),
      ScriptedReply::raw(R"({"error":{"message":"busy"}})"),
  });
  ChatClient client(endpointFor(server));
  std::string url = completionsUrl(server);
  std::vector<std::string> expected = {
      "the reply from " + url + " is not JSON (or is nested too deeply): {not json",
      "the reply from " + url + " is not a chat completion: the reply has no \"choices\"",
      "the reply from " + url +
          " is not a chat completion: choices[0].message: \"tool_calls\" is not an array",
      "the reply from " + url +
          " is not a chat completion: choices[0].message: tool_calls[0].function.arguments is "
          "neither a string nor an object",
      "the reply from " + url +
          " is not a chat completion: choices[0].message: \"content\" is neither a string, null "
          "nor an array of parts",
      "the reply from " + url + " is not JSON (or is nested too deeply): (empty body)",
      "the server reported an error: busy",
  };
  for (const std::string& message : expected) {
    ChatError error = errorOf(client.complete(ask("x")));
    EXPECT_EQ(error.kind, Kind::Protocol);
    EXPECT_EQ(error.message, message);
  }
}

TEST(ChatClient, LenientServerShapesAreAccepted) {
  std::string prefix = R"({"choices":[{"index":0,"finish_reason":"tool_calls","message":)";
  ScriptedChatServer server(
      {ScriptedReply::raw(prefix + R"({"role":"assistant","content":[{"type":"text","text":"a"},
      {"type":"text","text":"b"}],"tool_calls":[{"type":"function","function":{"name":"f",
      "arguments":{"x":[1,2]}}}]}}]})")});
  ChatResult result = ChatClient(endpointFor(server)).complete(ask("x"));
  ASSERT_TRUE(result.ok()) << result.error->message;
  EXPECT_EQ(result.reply->message.content, "ab");
  ASSERT_EQ(result.reply->message.tool_calls.size(), 1u);
  EXPECT_EQ(result.reply->message.tool_calls[0].id, "call_0");
  EXPECT_EQ(result.reply->message.tool_calls[0].arguments, R"({"x":[1,2]})");
  EXPECT_TRUE(result.reply->usage.is_null());
}

std::string chunk(const json& delta, const json& finish = nullptr) {
  return json({{"object", "chat.completion.chunk"},
               {"choices",
                json::array({{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}})
      .dump();
}

TEST(ChatClient, MalformedChunkIsAProtocolError) {
  ScriptedChatServer server({ScriptedReply::rawStream(
      {chunk({{"role", "assistant"}}), chunk({{"content", "Hi"}}), "{oops", "[DONE]"})});
  std::string seen;
  ChatStreamCallbacks callbacks;
  callbacks.on_content = [&](std::string_view text) { seen += text; };
  ChatError error = errorOf(ChatClient(endpointFor(server)).complete(ask("x", true), callbacks));
  EXPECT_EQ(error.kind, Kind::Protocol);
  EXPECT_EQ(error.message, "a stream chunk is not JSON (or is nested too deeply): {oops");
  EXPECT_EQ(seen, "Hi");
}

TEST(ChatClient, BadChunkShapeIsAProtocolError) {
  std::string bad = chunk({{"tool_calls", json::array({{{"index", -1}}})}});
  ScriptedChatServer server({ScriptedReply::rawStream({bad, "[DONE]"})});
  ChatError error = errorOf(ChatClient(endpointFor(server)).complete(ask("x", true)));
  EXPECT_EQ(error.kind, Kind::Protocol);
  EXPECT_EQ(error.message, "a tool call's index is not a non-negative integer: " + bad);
}

TEST(ChatClient, StreamEndingEarlyIsAProtocolError) {
  ScriptedChatServer server(
      {ScriptedReply::rawStream({chunk({{"role", "assistant"}}), chunk({{"content", "Hi"}})})});
  ChatError error = errorOf(ChatClient(endpointFor(server)).complete(ask("x", true)));
  EXPECT_EQ(error.kind, Kind::Protocol);
  EXPECT_EQ(error.message, "the stream from " + completionsUrl(server) +
                               " ended early (no finish_reason, no [DONE])");
}

TEST(ChatClient, StreamNeedsFinishReasonOrDone) {
  ScriptedChatServer server({
      ScriptedReply::rawStream({chunk({{"content", "a"}}), chunk(json::object(), "stop")}),
      ScriptedReply::rawStream({chunk({{"content", "b"}}), "[DONE]"}),
  });
  ChatClient client(endpointFor(server));
  ChatResult no_done = client.complete(ask("x", true));
  ASSERT_TRUE(no_done.ok()) << no_done.error->message;
  EXPECT_EQ(no_done.reply->message.content, "a");
  EXPECT_EQ(no_done.reply->finish_reason, "stop");
  ChatResult no_finish = client.complete(ask("x", true));
  ASSERT_TRUE(no_finish.ok()) << no_finish.error->message;
  EXPECT_EQ(no_finish.reply->message.content, "b");
  EXPECT_EQ(no_finish.reply->finish_reason, "");
}

TEST(ChatClient, ErrorChunkInAStream) {
  ScriptedChatServer server({
      ScriptedReply::rawStream(
          {chunk({{"content", "Hi"}}), R"({"error":{"message":"out of memory","code":500}})"}),
      ScriptedReply::rawStream({R"({"error":{"message":"odd","type":"x"}})"}),
  });
  ChatClient client(endpointFor(server));
  ChatError http = errorOf(client.complete(ask("x", true)));
  EXPECT_EQ(http.kind, Kind::Http);
  EXPECT_EQ(http.http_status, 500);
  EXPECT_EQ(http.message, "the server reported an error: out of memory");
  ChatError protocol = errorOf(client.complete(ask("x", true)));
  EXPECT_EQ(protocol.kind, Kind::Protocol);
  EXPECT_EQ(protocol.message, "the server reported an error: odd");
}

TEST(ChatClient, ToolCallChunksWithoutIndex) {
  // Some servers send each call whole, without "index".
  json first = {{"id", "a"}, {"function", {{"name", "f"}, {"arguments", "{\"x\":"}}}};
  json more = {{"function", {{"arguments", "1}"}}}};
  json second = {{"id", "b"}, {"function", {{"name", "g"}, {"arguments", {{"y", 2}}}}}};
  ScriptedChatServer server({ScriptedReply::rawStream(
      {chunk({{"tool_calls", json::array({first})}}), chunk({{"tool_calls", json::array({more})}}),
       chunk({{"tool_calls", json::array({second})}}, "tool_calls"), "[DONE]"})});
  ChatResult result = ChatClient(endpointFor(server)).complete(ask("x", true));
  ASSERT_TRUE(result.ok()) << result.error->message;
  ASSERT_EQ(result.reply->message.tool_calls.size(), 2u);
  EXPECT_EQ(result.reply->message.tool_calls[0].id, "a");
  EXPECT_EQ(result.reply->message.tool_calls[0].arguments, "{\"x\":1}");
  EXPECT_EQ(result.reply->message.tool_calls[1].id, "b");
  EXPECT_EQ(result.reply->message.tool_calls[1].name, "g");
  EXPECT_EQ(result.reply->message.tool_calls[1].arguments, "{\"y\":2}");
}

TEST(ChatClient, ServerIgnoringStreamStillCallsBack) {
  ScriptedChatServer server({ScriptedReply::raw(
      R"({"choices":[{"index":0,"finish_reason":"stop","message":{"content":"whole"}}]})")});
  std::string seen;
  ChatStreamCallbacks callbacks;
  callbacks.on_content = [&](std::string_view text) { seen += text; };
  ChatResult result = ChatClient(endpointFor(server)).complete(ask("x", true), callbacks);
  ASSERT_TRUE(result.ok()) << result.error->message;
  EXPECT_EQ(result.reply->message.content, "whole");
  EXPECT_EQ(seen, "whole");
}

TEST(ChatClient, ConnectionRefused) {
  ChatEndpoint endpoint;
  endpoint.base_url = "http://127.0.0.1:" + std::to_string(closedPort()) + "/v1";
  endpoint.timeout = std::chrono::seconds(5);
  ChatError error = errorOf(ChatClient(endpoint).complete(ask("x")));
  EXPECT_EQ(error.kind, Kind::Connection);
  EXPECT_EQ(error.message.rfind(
                "could not get a reply from " + endpoint.base_url + "/chat/completions: ", 0),
            0u)
      << error.message;
}

TEST(ChatClient, HttpsConnectionRefused) {
  ChatEndpoint endpoint;
  endpoint.base_url = "https://127.0.0.1:" + std::to_string(closedPort()) + "/v1";
  ChatError error = errorOf(ChatClient(endpoint).complete(ask("x")));
  EXPECT_EQ(error.kind, Kind::Connection);
  EXPECT_EQ(error.message.rfind(
                "could not get a reply from " + endpoint.base_url + "/chat/completions: ", 0),
            0u)
      << error.message;
}

TEST(ChatClient, NoContentIsAnHttpError) {
  ScriptedChatServer server({ScriptedReply::httpError(204, "")});
  ChatError error = errorOf(ChatClient(endpointFor(server)).complete(ask("x")));
  EXPECT_EQ(error.kind, Kind::Http);
  EXPECT_EQ(error.http_status, 204);
  EXPECT_EQ(error.message, "HTTP 204 from " + completionsUrl(server) + ": (empty body)");
}

TEST(ChatClient, ReadTimeoutIsAConnectionErrorThatSaysItTimedOut) {
  ScriptedReply slow = ScriptedReply::rawStream({chunk({{"content", "a"}}), "[DONE]"});
  slow.delay_between_events = std::chrono::minutes(1);  // ends when the server stops
  ScriptedChatServer server({slow});
  ChatEndpoint endpoint = endpointFor(server);
  endpoint.timeout = std::chrono::milliseconds(300);
  auto start = std::chrono::steady_clock::now();
  ChatError error = errorOf(ChatClient(endpoint).complete(ask("x", true)));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(error.kind, Kind::Connection);
  EXPECT_EQ(error.message, "no answer from " + completionsUrl(server) + " within 300 ms (Read)");
}

TEST(ChatClient, ASlowFirstReplyIsATimeoutToo) {
  ScriptedReply slow = ScriptedReply::text("late");
  slow.delay_before_reply = std::chrono::minutes(1);
  ScriptedChatServer server({slow});
  ChatEndpoint endpoint = endpointFor(server);
  endpoint.timeout = std::chrono::milliseconds(300);
  ChatError error = errorOf(ChatClient(endpoint).complete(ask("x")));
  EXPECT_EQ(error.kind, Kind::Connection);
  EXPECT_EQ(error.message, "no answer from " + completionsUrl(server) + " within 300 ms (Read)");
}

// A streamed answer's head and its events as HTTP chunks, for PieceServer.
std::string streamHead() {
  return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
         "Transfer-Encoding: chunked\r\n\r\n";
}
std::string eventChunk(const std::string& payload) {
  const std::string event = "data: " + payload + "\n\n";
  char size[16];
  std::snprintf(size, sizeof size, "%zx", event.size());
  return std::string(size) + "\r\n" + event + "\r\n";
}

ChatEndpoint endpointOnPort(int port, std::chrono::milliseconds timeout) {
  ChatEndpoint endpoint;
  endpoint.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  endpoint.model = "test-model";
  endpoint.timeout = timeout;
  return endpoint;
}

// Whether a read waited out its timeout is the HTTP helper's to say, on its
// own clock: this process hears of each piece later than the helper got it
// (here the first piece's callback holds the relay back 250 ms), and by its
// own clock the server went quiet only ~50 ms before the helper gave up.
TEST(ChatClient, ATimeoutIsSaidSoWhenTheRelayOfTheLastPieceWasLate) {
  PieceServer server({streamHead(), eventChunk(chunk({{"content", "a"}})),
                      eventChunk(chunk({{"content", "b"}})), "<wait>"});
  ChatStreamCallbacks callbacks;
  std::string seen;
  callbacks.on_content = [&](std::string_view text) {
    if (seen.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(250));
    seen += text;
  };
  const ChatEndpoint endpoint = endpointOnPort(server.port(), std::chrono::milliseconds(300));
  ChatError error = errorOf(ChatClient(endpoint).complete(ask("x", true), callbacks));
  EXPECT_EQ(seen, "ab");
  EXPECT_EQ(error.kind, Kind::Connection);
  EXPECT_EQ(error.message,
            "no answer from " + endpoint.base_url + "/chat/completions within 300 ms (Read)");
}

// A server that closes in the middle of the body broke the connection: that
// is not a timeout, however long the timeout is.
TEST(ChatClient, AConnectionClosedMidStreamIsBrokenNotATimeout) {
  PieceServer server({streamHead(), eventChunk(chunk({{"content", "a"}}))});
  const ChatEndpoint endpoint = endpointOnPort(server.port(), std::chrono::milliseconds(300));
  ChatError error = errorOf(ChatClient(endpoint).complete(ask("x", true)));
  EXPECT_EQ(error.kind, Kind::Connection);
  EXPECT_EQ(error.message,
            "the connection broke reading " + endpoint.base_url + "/chat/completions: Read");
}

// A server that never reads the request: the write waits out the timeout.
TEST(ChatClient, AWriteThatWaitsOutTheTimeoutSaysSo) {
  int port = 0;
  const int listener = testing::loopbackListener(port);  // never accepted, never read
  ChatRequest request = ask(std::string(16u << 20, 'x'));
  const ChatEndpoint endpoint = endpointOnPort(port, std::chrono::milliseconds(300));
  ChatError error = errorOf(ChatClient(endpoint).complete(request));
  ::close(listener);
  EXPECT_EQ(error.kind, Kind::Connection);
  EXPECT_EQ(error.message,
            "no answer from " + endpoint.base_url + "/chat/completions within 300 ms (Write)");
}

TEST(ChatClient, BadBaseUrlsAreRejected) {
  for (std::string url :
       {"", "localhost:8080/v1", "ftp://host/v1", "http://", "http:///v1", "http://host:/v1",
        "http://host:0/v1", "http://host:65536", "http://host:8o/v1", "http://user@host/v1",
        "http://host/v1?x=1", "http://ho st/v1", "http://host/v 1", "http://[::1/v1"}) {
    ChatEndpoint endpoint;
    endpoint.base_url = url;
    ChatError error = errorOf(ChatClient(endpoint).complete(ask("x")));
    EXPECT_EQ(error.kind, Kind::Connection) << url;
    EXPECT_EQ(error.message, "invalid base URL \"" + url +
                                 "\": expected http://host[:port][/path] or https://...");
  }
}

TEST(ChatClient, TrailingSlashAndUppercaseScheme) {
  ScriptedChatServer server({ScriptedReply::text("ok")});
  ChatEndpoint endpoint = endpointFor(server);
  endpoint.base_url = "HTTP" + endpoint.base_url.substr(4) + "/";
  ChatResult result = ChatClient(endpoint).complete(ask("x"));
  ASSERT_TRUE(result.ok()) << result.error->message;
  EXPECT_EQ(result.reply->message.content, "ok");
}

TEST(ChatClient, BadExtraBodyIsRejected) {
  ChatEndpoint endpoint;
  endpoint.base_url = "http://127.0.0.1:1/v1";
  endpoint.extra_body = json::array({1});
  ChatError error = errorOf(ChatClient(endpoint).complete(ask("x")));
  EXPECT_EQ(error.kind, Kind::Connection);
  EXPECT_EQ(error.message, "endpoint.extra_body is not a JSON object");
}

TEST(ChatClient, CancelledBeforeSending) {
  ScriptedChatServer server({ScriptedReply::text("never")});
  CancellationToken token;
  token.cancel();
  ChatError error = errorOf(ChatClient(endpointFor(server)).complete(ask("x"), {}, token));
  EXPECT_EQ(error.kind, Kind::Cancelled);
  EXPECT_EQ(server.requestCount(), 0u);
}

TEST(ChatClient, CancelledFromACallbackStopsReading) {
  ScriptedReply slow = ScriptedReply::text("one two three four five six seven eight nine ten");
  // Ten events half a second apart: the whole stream takes five seconds, a
  // stop at the first event well under three, even on a loaded machine.
  slow.delay_between_events = std::chrono::milliseconds(500);
  ScriptedChatServer server({slow});
  CancellationToken token;
  std::string seen;
  ChatStreamCallbacks callbacks;
  callbacks.on_content = [&](std::string_view text) {
    seen += text;
    token.cancel();
  };
  auto start = std::chrono::steady_clock::now();
  ChatError error =
      errorOf(ChatClient(endpointFor(server)).complete(ask("x", true), callbacks, token));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  EXPECT_EQ(error.kind, Kind::Cancelled);
  EXPECT_EQ(error.message, "the request to " + completionsUrl(server) + " was cancelled");
  EXPECT_EQ(seen, "one t");
}

TEST(ChatClient, CancelledWhileTheServerIsSilent) {
  ScriptedReply slow = ScriptedReply::text("first second");
  slow.delay_between_events = std::chrono::seconds(5);
  ScriptedChatServer server({slow});
  CancellationToken token;
  std::thread canceller([token] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    token.cancel();
  });
  auto start = std::chrono::steady_clock::now();
  ChatError error = errorOf(ChatClient(endpointFor(server)).complete(ask("x", true), {}, token));
  auto elapsed = std::chrono::steady_clock::now() - start;
  canceller.join();
  EXPECT_EQ(error.kind, Kind::Cancelled);
  EXPECT_GE(elapsed, std::chrono::milliseconds(150));
  EXPECT_LT(elapsed, std::chrono::seconds(4));  // the server's silence lasts five
}

TEST(ChatClient, ErrorKindNames) {
  EXPECT_EQ(toString(Kind::Connection), "connection");
  EXPECT_EQ(toString(Kind::Http), "http");
  EXPECT_EQ(toString(Kind::Protocol), "protocol");
  EXPECT_EQ(toString(Kind::Cancelled), "cancelled");
}

TEST(ChatClient, ApiKeyFromEnvironment) {
  ::setenv("TOOLGUARD_TEST_CHAT_KEY", "sk-env", 1);
  EXPECT_EQ(apiKeyFromEnvironment("TOOLGUARD_TEST_CHAT_KEY"), "sk-env");
  ::unsetenv("TOOLGUARD_TEST_CHAT_KEY");
  EXPECT_EQ(apiKeyFromEnvironment("TOOLGUARD_TEST_CHAT_KEY"), "");
}

TEST(ChatMessage, FactoriesAndWireFormat) {
  EXPECT_EQ(ChatMessage::system("s").toJson(), json({{"role", "system"}, {"content", "s"}}));
  EXPECT_EQ(ChatMessage::user("u").toJson(), json({{"role", "user"}, {"content", "u"}}));
  EXPECT_EQ(ChatMessage::tool("id1", "", "out").toJson(),
            json({{"role", "tool"}, {"content", "out"}, {"tool_call_id", "id1"}}));
  ChatMessage assistant;
  assistant.role = "assistant";
  assistant.content = "text";
  assistant.tool_calls = {{"c", "f", "{}"}};
  EXPECT_EQ(assistant.toJson(),
            json::parse(R"({"role":"assistant","content":"text","tool_calls":[{"id":"c",
                "type":"function","function":{"name":"f","arguments":"{}"}}]})"));
}

}  // namespace chat_client_test
}  // namespace toolguard
