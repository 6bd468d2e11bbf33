// The chat client's parts on their own: server-sent events, base URLs and
// the assembly of streamed chunks.
#include <gtest/gtest.h>

#include "chat/endpoint_url.hpp"
#include "chat/stream_assembler.hpp"
#include "http/sse_parser.hpp"

namespace toolguard::detail {
namespace chat_internals_test {

using nlohmann::json;

std::vector<SseEvent> parseAll(std::string_view bytes, size_t cap = 1 << 20) {
  SseParser parser(cap);
  std::vector<SseEvent> out;
  EXPECT_TRUE(parser.feed(bytes, out)) << parser.error();
  EXPECT_TRUE(parser.finish(out));
  return out;
}

std::vector<std::string> dataOf(const std::vector<SseEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) out.push_back(e.data);
  return out;
}

const std::string kStream =
    ": keep-alive\r\n"
    "data: {\"a\":1}\r\n\r\n"
    "data: crlf one\r\ndata: crlf two\r\n\r\n"
    "event: message\n"
    "data: line one\n"
    "data:line two\n"
    "data:  indented\n"
    "id: 7\n"
    "retry: 100\n"
    "\n"
    "\n"
    "data\r"
    "\r"
    "error: {\"message\":\"boom\"}\n\n"
    "data: [DONE]\n\n";

TEST(SseParser, FieldsCommentsAndLineEnds) {
  std::vector<SseEvent> events = parseAll(kStream);
  ASSERT_EQ(events.size(), 6u);
  EXPECT_EQ(events[0].data, "{\"a\":1}");
  EXPECT_EQ(events[0].event, "");
  EXPECT_EQ(events[1].data, "crlf one\ncrlf two");
  events.erase(events.begin());
  EXPECT_EQ(events[1].event, "message");
  EXPECT_EQ(events[1].data, "line one\nline two\n indented");
  EXPECT_EQ(events[2].data, "");
  EXPECT_EQ(events[3].error, "{\"message\":\"boom\"}");
  EXPECT_EQ(events[3].data, "");
  EXPECT_EQ(events[4].data, "[DONE]");
}

TEST(SseParser, EveryByteBoundaryGivesTheSameEvents) {
  std::vector<std::string> whole = dataOf(parseAll(kStream));
  for (size_t cut = 0; cut <= kStream.size(); ++cut) {
    SseParser parser;
    std::vector<SseEvent> out;
    ASSERT_TRUE(parser.feed(std::string_view(kStream).substr(0, cut), out));
    ASSERT_TRUE(parser.feed(std::string_view(kStream).substr(cut), out));
    ASSERT_TRUE(parser.finish(out));
    EXPECT_EQ(dataOf(out), whole) << "cut at " << cut;
  }
  SseParser parser;
  std::vector<SseEvent> out;
  for (char c : kStream) ASSERT_TRUE(parser.feed(std::string_view(&c, 1), out));
  ASSERT_TRUE(parser.finish(out));
  EXPECT_EQ(dataOf(out), whole);
}

// Event ids carry over to later events until another id; a priming event
// (an id with empty data) sets the id; an id holding a NUL is ignored; the
// retry time is read when it is a number.
TEST(SseParser, IdsAndRetryAreKept) {
  const std::string stream = std::string(
                                 "id: e1\ndata: {\"a\":1}\n\ndata: {\"b\":2}\n\n"
                                 "id: p\ndata: \n\nretry: 1500\nid: bad") +
                             std::string(1, '\0') + "x\ndata: c\n\nretry: soon\n\n";
  SseParser parser;
  std::vector<SseEvent> out;
  ASSERT_TRUE(parser.feed(stream, out));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].id, "e1");
  EXPECT_EQ(out[1].id, "e1");
  EXPECT_EQ(out[2].id, "p");
  EXPECT_EQ(out[2].data, "");
  EXPECT_EQ(out[3].id, "p");
  EXPECT_EQ(parser.lastEventId(), "p");
  EXPECT_EQ(parser.retryMs(), 1500);
  // An event the stream broke in does not move the id: resuming asks for it.
  ASSERT_TRUE(parser.feed("id: q\ndata: {\"half\":", out));
  EXPECT_EQ(parser.lastEventId(), "p");
  ASSERT_TRUE(parser.feed("1}\n\n", out));
  EXPECT_EQ(parser.lastEventId(), "q");
}

TEST(SseParser, CrLfSplitAcrossChunksIsOneLineEnd) {
  SseParser parser;
  std::vector<SseEvent> out;
  ASSERT_TRUE(parser.feed("data: a\r", out));
  ASSERT_TRUE(parser.feed("\ndata: b\r", out));
  ASSERT_TRUE(parser.feed("\n\r", out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, "a\nb");
  ASSERT_TRUE(parser.feed("\n", out));  // the "\n" of the blank line's "\r\n"
  EXPECT_EQ(out.size(), 1u);
}

TEST(SseParser, FinishDispatchesAnUnterminatedEvent) {
  EXPECT_EQ(dataOf(parseAll("data: x\n")), std::vector<std::string>{"x"});
  EXPECT_EQ(dataOf(parseAll("data: y")), std::vector<std::string>{"y"});
  EXPECT_TRUE(parseAll(": only a comment\n\n\n").empty());
  EXPECT_TRUE(parseAll("event: lonely\n\n").empty());
}

TEST(SseParser, EventSizeIsCapped) {
  SseParser parser(16);
  std::vector<SseEvent> out;
  ASSERT_TRUE(parser.feed("data: 0123456789\n\n", out));  // 16 bytes of line: at the cap
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(parser.feed("data: 0123456789A\n\n", out));
  EXPECT_EQ(parser.error(), "a server-sent event exceeds 16 bytes");
  EXPECT_FALSE(parser.feed("data: x\n\n", out));
  EXPECT_FALSE(parser.finish(out));
  EXPECT_EQ(out.size(), 1u);

  // Many data lines, each small, add up; and a line without an end is counted too.
  SseParser lines(16);
  std::vector<SseEvent> none;
  ASSERT_TRUE(lines.feed("data: 0123\ndata: 4567\n", none));
  EXPECT_FALSE(lines.feed("data: 89", none));
  SseParser endless(16);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(endless.feed("xxxxx", none));
  EXPECT_FALSE(endless.feed("xx", none));
  EXPECT_TRUE(none.empty());
}

TEST(EndpointUrl, Parses) {
  auto openai = parseEndpointUrl("https://api.openai.com/v1");
  ASSERT_TRUE(openai) << openai.error();
  EXPECT_EQ(openai.error(), "");
  EXPECT_EQ(openai->scheme, "https");
  EXPECT_EQ(openai->host, "api.openai.com");
  EXPECT_EQ(openai->port, 443);
  EXPECT_EQ(openai->path_prefix, "/v1");
  EXPECT_EQ(openai->origin(), "https://api.openai.com:443");

  auto local = parseEndpointUrl("http://127.0.0.1:8080");
  ASSERT_TRUE(local);
  EXPECT_EQ(local->port, 8080);
  EXPECT_EQ(local->path_prefix, "");

  auto v6 = parseEndpointUrl("Http://[::1]:11434/api/v1//");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->scheme, "http");
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->path_prefix, "/api/v1");
  EXPECT_EQ(v6->origin(), "http://[::1]:11434");

  auto plain = parseEndpointUrl("http://my_host.local/");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->port, 80);
  EXPECT_EQ(plain->path_prefix, "");
}

TEST(EndpointUrl, Rejects) {
  for (const char* url : {"", "https:/x", "http://[zz]/v1", "http://[::1]x/v1", "http://a\tb/",
                          "http://h/#frag", "http://h:123456"}) {
    auto parsed = parseEndpointUrl(url);
    EXPECT_FALSE(parsed) << url;
    EXPECT_EQ(parsed.error(), std::string("invalid base URL \"") + url +
                                  "\": expected http://host[:port][/path] or https://...");
  }
}

json chunk(const json& delta, const json& finish = nullptr) {
  return {{"choices", json::array({{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}};
}

json callDelta(size_t index, const json& fields) {
  json call = fields;
  call["index"] = index;
  return chunk({{"tool_calls", json::array({call})}});
}

TEST(StreamAssembler, ToolCallsByIndexInTheirOrder) {
  std::vector<std::string> started;
  ChatStreamCallbacks callbacks;
  callbacks.on_tool_call_started = [&](size_t index, const ChatToolCall& call) {
    started.push_back(std::to_string(index) + ":" + call.id + ":" + call.name);
  };
  StreamAssembler assembler(callbacks);
  // Index 1 starts before index 0 ends; the name of 0 is repeated (a few servers do).
  for (const json& c :
       {callDelta(0, {{"id", "a"}, {"function", {{"name", "f"}, {"arguments", ""}}}}),
        callDelta(1, {{"id", "b"}, {"function", {{"name", "g"}, {"arguments", "[1"}}}}),
        callDelta(0, {{"function", {{"name", "f"}, {"arguments", "{\"k\""}}}}),
        callDelta(1, {{"function", {{"arguments", ",2]"}}}}),
        callDelta(0, {{"function", {{"arguments", ":null}"}}}}),
        chunk(json::object(), "tool_calls"),
        json{{"choices", json::array()}, {"usage", {{"total_tokens", 3}}}}}) {
    ASSERT_EQ(assembler.apply(c), "") << c.dump();
  }
  EXPECT_TRUE(assembler.finished());
  ChatReply reply = assembler.reply();
  EXPECT_EQ(reply.message.role, "assistant");
  ASSERT_EQ(reply.message.tool_calls.size(), 2u);
  EXPECT_EQ(reply.message.tool_calls[0].name, "f");
  EXPECT_EQ(reply.message.tool_calls[0].arguments, "{\"k\":null}");
  EXPECT_EQ(reply.message.tool_calls[1].arguments, "[1,2]");
  EXPECT_EQ(reply.finish_reason, "tool_calls");
  EXPECT_EQ(reply.usage, json({{"total_tokens", 3}}));
  EXPECT_EQ(started, (std::vector<std::string>{"0:a:f", "1:b:g"}));
}

TEST(StreamAssembler, JoinsContentSentAsPartsLikeAPlainReply) {
  std::string seen;
  ChatStreamCallbacks callbacks;
  callbacks.on_content = [&](std::string_view text) { seen += text; };
  StreamAssembler assembler(callbacks);
  json parts = json::array({{{"type", "text"}, {"text", "a"}}, {{"type", "text"}, {"text", "b"}}});
  EXPECT_EQ(assembler.apply(chunk({{"content", parts}})), "");
  EXPECT_EQ(assembler.apply(chunk({{"content", "c"}})), "");
  EXPECT_EQ(assembler.reply().message.content, "abc");
  EXPECT_EQ(seen, "abc");
}

TEST(StreamAssembler, RejectsBadShapes) {
  ChatStreamCallbacks none;
  std::vector<std::pair<json, std::string>> cases = {
      {json::array(), "a chunk is not a JSON object"},
      {{{"choices", 1}}, "a chunk's \"choices\" is not an array"},
      {chunk("text"), "a chunk's delta is not an object"},
      {chunk({{"content", 1}}),
       "a delta's \"content\" is neither a string, null nor an array of parts"},
      {chunk({{"tool_calls", json::object()}}), "a delta's tool_calls is not an array"},
      {chunk(json::object(), 3), "a chunk's finish_reason is not a string"},
      {callDelta(0, {{"function", {{"arguments", true}}}}),
       "a tool call's arguments is neither a string nor an object"},
      {callDelta(0, {{"function", {{"name", 5}}}}), "a tool call's name is not a string"},
      {callDelta(0, {{"id", 5}}), "a tool call's id is not a string"},
  };
  for (const auto& [c, message] : cases) {
    StreamAssembler assembler(none);
    EXPECT_EQ(assembler.apply(c), message) << c.dump();
  }
}

TEST(StreamAssembler, OtherChoicesAndNullsAreIgnored) {
  ChatStreamCallbacks none;
  StreamAssembler assembler(none);
  json other = {{"choices", json::array({{{"index", 1}, {"delta", {{"content", "no"}}}}})}};
  ASSERT_EQ(assembler.apply(other), "");
  ASSERT_EQ(assembler.apply(chunk({{"content", nullptr}, {"tool_calls", nullptr}})), "");
  ASSERT_EQ(assembler.apply(chunk({{"content", "yes"}})), "");
  EXPECT_FALSE(assembler.finished());
  ChatReply reply = assembler.reply();
  EXPECT_EQ(reply.message.content, "yes");
  EXPECT_TRUE(reply.usage.is_null());
  EXPECT_EQ(reply.finish_reason, "");
}

}  // namespace chat_internals_test
}  // namespace toolguard::detail
