// The agent loop against a scripted OpenAI-compatible server on loopback,
// streamed and not: the same events and outcomes either way.
#include <gtest/gtest.h>

#include <atomic>

#include "support/scripted_chat_server.hpp"
#include "toolguard/agent.hpp"
#include "toolguard/policy_builder.hpp"

namespace toolguard {
namespace agent_loop_test {

using nlohmann::json;
using testing::ScriptedChatServer;
using testing::ScriptedReply;

ChatToolCall toolCall(std::string id, std::string name, json args) {
  return ChatToolCall{std::move(id), std::move(name), args.dump()};
}

// "c" followed by the number (append, not +: GCC 12 -Wrestrict misfires on +).
std::string callId(int number) {
  std::string id = "c";
  id.append(std::to_string(number));
  return id;
}

// A registry with `lookup` (allowed), `erase` (denied by policy) and, when
// asked, a validator that aborts calls of `launch`.
struct Tools {
  std::atomic<int> lookups{0};
  std::atomic<int> launches{0};
  std::unique_ptr<ToolRegistry> registry;

  Tools() {
    GuardOptions options;
    options.validator = [](const ValidationContext&, const ToolInfo& tool, const json& args) {
      std::promise<ValidationResult> answer;
      answer.set_value(tool.name == "launch"
                           ? ValidationResult::abort("launching is out of scope",
                                                     {{"target", args.value("target", "")}})
                           : ValidationResult::allow());
      return answer.get_future();
    };
    registry = std::make_unique<ToolRegistry>(
        PolicyBuilder().deny("erase", "erasing records is not allowed").buildPolicy(), options);
    registry->registerTool(info("lookup"), [this](const ToolInvocation& invocation) {
      ++lookups;
      return json("found " + invocation.call.args.value("key", "?"));
    });
    registry->registerTool(info("erase"), [](const ToolInvocation&) { return json("erased"); });
    registry->registerTool(info("launch"), [this](const ToolInvocation&) {
      ++launches;
      return json("launched");
    });
  }

  static ToolInfo info(std::string name) {
    ToolInfo tool;
    tool.name = std::move(name);
    tool.description = "test tool";
    tool.policy = ToolPolicy::Allow;
    tool.input_schema = {{"type", "object"}, {"properties", {{"key", {{"type", "string"}}}}}};
    return tool;
  }
};

class AgentLoop : public ::testing::TestWithParam<bool> {
 protected:
  AgentOptions optionsFor(const ScriptedChatServer& server) const {
    AgentOptions options;
    options.endpoint.base_url = server.baseUrl();
    options.endpoint.model = "scripted-model";
    options.endpoint.api_key = "sk-test";
    options.endpoint.timeout = std::chrono::seconds(10);
    options.stream = GetParam();
    options.max_turns = 4;
    options.context.cwd = "/work/app";
    options.context.session = "s1";
    return options;
  }

  // Runs a prompt and records every event's type.
  AgentResult runRecording(Agent& agent, std::vector<AgentEvent>& events) {
    return agent.run("do it", [&](const AgentEvent& e) { events.push_back(e); });
  }

  Tools tools;
};

std::vector<std::string> typesOf(const std::vector<AgentEvent>& events) {
  std::vector<std::string> types;
  for (const auto& e : events) {
    if (e.type != AgentEventType::Content) types.emplace_back(toString(e.type));
  }
  return types;
}

std::string contentOf(const std::vector<AgentEvent>& events) {
  std::string text;
  for (const auto& e : events) {
    if (e.type == AgentEventType::Content) text += e.text;
  }
  return text;
}

TEST_P(AgentLoop, PlainAnswerEndsTheGeneration) {
  ScriptedChatServer server({ScriptedReply::text("Hello there, nothing to run.")});
  Agent agent(optionsFor(server), *tools.registry);
  std::vector<AgentEvent> events;
  AgentResult result = runRecording(agent, events);
  EXPECT_EQ(result.stop, AgentStop::Completed) << result.reason;
  EXPECT_EQ(result.text, "Hello there, nothing to run.");
  EXPECT_EQ(contentOf(events), "Hello there, nothing to run.");
  EXPECT_EQ(typesOf(events), std::vector<std::string>{"end"});
  EXPECT_EQ(result.turns, 1u);

  ASSERT_EQ(server.requestCount(), 1u);
  json request = server.requests()[0];
  EXPECT_EQ(request["model"], "scripted-model");
  EXPECT_EQ(request["stream"], GetParam());
  EXPECT_EQ(request["messages"][0]["role"], "system");
  EXPECT_NE(request["messages"][0]["content"].get<std::string>().find(kGuardedToolsSystemPrompt),
            std::string::npos);
  EXPECT_EQ(request["messages"][1], (json{{"role", "user"}, {"content", "do it"}}));
  // The denied tool is not offered to the model.
  std::vector<std::string> offered;
  for (const auto& tool : request["tools"]) offered.push_back(tool["function"]["name"]);
  EXPECT_EQ(offered, (std::vector<std::string>{"lookup", "launch"}));
  EXPECT_EQ(server.authorizations()[0], "Bearer sk-test");
}

TEST_P(AgentLoop, AllowedCallRunsAndItsResultIsSentBack) {
  ScriptedChatServer server(
      {ScriptedReply::toolCalls({toolCall("c1", "lookup", {{"key", "alpha"}})}),
       ScriptedReply::text("alpha is found")});
  Agent agent(optionsFor(server), *tools.registry);
  std::vector<AgentEvent> events;
  AgentResult result = runRecording(agent, events);
  EXPECT_EQ(result.stop, AgentStop::Completed) << result.reason;
  EXPECT_EQ(typesOf(events), (std::vector<std::string>{"tool-call-preparing", "tool-call-running",
                                                       "tool-call-completed", "end"}));
  EXPECT_EQ(events[1].args, (json{{"key", "alpha"}}));
  ASSERT_TRUE(events[2].outcome);
  EXPECT_EQ(events[2].outcome->result, "found alpha");
  EXPECT_EQ(tools.lookups, 1);

  ASSERT_EQ(server.requestCount(), 2u);
  json second = server.requests()[1]["messages"];
  ASSERT_EQ(second.size(), 4u) << second.dump();
  EXPECT_EQ(second[2]["role"], "assistant");
  EXPECT_EQ(second[2]["tool_calls"][0]["id"], "c1");
  EXPECT_EQ(second[2]["tool_calls"][0]["function"]["name"], "lookup");
  EXPECT_EQ(json::parse(second[2]["tool_calls"][0]["function"]["arguments"].get<std::string>()),
            (json{{"key", "alpha"}}));
  EXPECT_EQ(second[3]["role"], "tool");
  EXPECT_EQ(second[3]["tool_call_id"], "c1");
  EXPECT_EQ(second[3]["content"], "found alpha");
}

// The decision table of the validation-callback model: streaming, a deny
// cancels the call and the generation goes on; not streaming, a deny skips
// the tool and stops the generation. Either way the reason reaches the model
// in the tool message.
TEST_P(AgentLoop, ADeniedCallsReasonReachesTheModelAndOnlyStreamingGoesOn) {
  ScriptedChatServer server({ScriptedReply::toolCalls({toolCall("c1", "erase", {{"key", "a"}})}),
                             ScriptedReply::text("I could not erase it.")});
  Agent agent(optionsFor(server), *tools.registry);
  std::vector<AgentEvent> events;
  AgentResult result = runRecording(agent, events);
  EXPECT_EQ(typesOf(events),
            (std::vector<std::string>{"tool-call-preparing", "tool-call-canceled", "end"}));
  EXPECT_NE(events[1].reason.find("erasing records is not allowed"), std::string::npos);
  json tool_message;
  for (const ChatMessage& message : result.messages) {
    if (message.role == "tool") tool_message = message.toJson();
  }
  EXPECT_EQ(tool_message["tool_call_id"], "c1");
  std::string content = tool_message["content"];
  EXPECT_EQ(content.rfind("Blocked by toolguard", 0), 0u) << content;
  EXPECT_NE(content.find("erasing records is not allowed"), std::string::npos) << content;
  if (GetParam()) {
    EXPECT_EQ(result.stop, AgentStop::Completed);
    ASSERT_EQ(server.requestCount(), 2u);
    EXPECT_EQ(server.requests()[1]["messages"][3], tool_message);
  } else {
    EXPECT_EQ(result.stop, AgentStop::Denied);
    EXPECT_EQ(events.back().stop, AgentStop::Denied);
    EXPECT_NE(result.reason.find("erasing records is not allowed"), std::string::npos);
    EXPECT_EQ(server.requestCount(), 1u) << "not streaming, nothing is requested after a deny";
  }
}

TEST_P(AgentLoop, ParallelCallsAreJudgedEachOnItsOwnWhenStreaming) {
  ScriptedChatServer server({ScriptedReply::toolCalls({toolCall("c1", "lookup", {{"key", "a"}}),
                                                       toolCall("c2", "erase", {{"key", "b"}}),
                                                       toolCall("c3", "lookup", {{"key", "c"}})}),
                             ScriptedReply::text("done")});
  Agent agent(optionsFor(server), *tools.registry);
  std::vector<AgentEvent> events;
  AgentResult result = runRecording(agent, events);
  if (!GetParam()) {
    // Not streaming, the deny of c2 stops the turn: c3 never runs.
    EXPECT_EQ(result.stop, AgentStop::Denied);
    EXPECT_EQ(tools.lookups, 1);
    EXPECT_EQ(server.requestCount(), 1u);
    EXPECT_EQ(typesOf(events),
              (std::vector<std::string>{"tool-call-preparing", "tool-call-preparing",
                                        "tool-call-preparing", "tool-call-running",
                                        "tool-call-completed", "tool-call-canceled", "end"}));
    return;
  }
  EXPECT_EQ(result.stop, AgentStop::Completed);
  EXPECT_EQ(tools.lookups, 2);
  json messages = server.requests().at(1)["messages"];
  ASSERT_EQ(messages.size(), 6u) << messages.dump();
  EXPECT_EQ(messages[3]["tool_call_id"], "c1");
  EXPECT_EQ(messages[3]["content"], "found a");
  EXPECT_EQ(messages[4]["tool_call_id"], "c2");
  EXPECT_EQ(messages[4]["content"].get<std::string>().rfind("Blocked by toolguard", 0), 0u);
  EXPECT_EQ(messages[5]["tool_call_id"], "c3");
  EXPECT_EQ(messages[5]["content"], "found c");
  std::vector<std::string> expected = {
      "tool-call-preparing", "tool-call-preparing", "tool-call-preparing",
      "tool-call-running",   "tool-call-completed", "tool-call-canceled",
      "tool-call-running",   "tool-call-completed", "end"};
  EXPECT_EQ(typesOf(events), expected);
}

TEST_P(AgentLoop, AbortStopsEverythingAndCarriesTheExtraData) {
  ScriptedChatServer server(
      {ScriptedReply::toolCalls({toolCall("c1", "launch", {{"target", "moon"}}),
                                 toolCall("c2", "lookup", {{"key", "after"}})}),
       ScriptedReply::text("must never be requested")});
  Agent agent(optionsFor(server), *tools.registry);
  std::vector<AgentEvent> events;
  AgentResult result = runRecording(agent, events);
  EXPECT_EQ(result.stop, AgentStop::Aborted);
  EXPECT_EQ(result.extra, (json{{"target", "moon"}}));
  EXPECT_NE(result.reason.find("launching is out of scope"), std::string::npos);
  EXPECT_EQ(typesOf(events), (std::vector<std::string>{"tool-call-preparing", "tool-call-preparing",
                                                       "tool-call-aborted", "end"}));
  EXPECT_EQ(events.back().stop, AgentStop::Aborted);
  EXPECT_EQ(events.back().extra, (json{{"target", "moon"}}));
  EXPECT_EQ(tools.launches, 0);
  EXPECT_EQ(tools.lookups, 0) << "nothing runs after an abort";
  EXPECT_EQ(server.requestCount(), 1u);
}

TEST_P(AgentLoop, ServerErrorsEndTheGenerationAsErrorValues) {
  ScriptedChatServer server(
      {ScriptedReply::httpError(500, R"({"error":{"message":"model overloaded"}})")});
  Agent agent(optionsFor(server), *tools.registry);
  std::vector<AgentEvent> events;
  AgentResult result = runRecording(agent, events);
  EXPECT_EQ(result.stop, AgentStop::Error);
  ASSERT_TRUE(result.error);
  EXPECT_EQ(result.error->kind, ChatError::Kind::Http);
  EXPECT_EQ(result.error->http_status, 500);
  EXPECT_NE(result.reason.find("model overloaded"), std::string::npos) << result.reason;
  ASSERT_EQ(typesOf(events), std::vector<std::string>{"end"});
  EXPECT_EQ(events.back().stop, AgentStop::Error);
}

TEST_P(AgentLoop, MalformedRepliesAreProtocolErrors) {
  ScriptedChatServer server(
      {GetParam()
           ? ScriptedReply::rawStream({"{\"choices\":[{\"delta\":{\"content\":\"hi\"", "[DONE]"})
           : ScriptedReply::raw("{\"choices\": [ {\"message\": ")});
  Agent agent(optionsFor(server), *tools.registry);
  AgentResult result = agent.run("do it");
  EXPECT_EQ(result.stop, AgentStop::Error);
  ASSERT_TRUE(result.error);
  EXPECT_EQ(result.error->kind, ChatError::Kind::Protocol) << result.error->message;
}

TEST_P(AgentLoop, ArgumentsThatAreNotJsonAreRefusedWithoutRunning) {
  ScriptedChatServer server({ScriptedReply::toolCalls({ChatToolCall{"c1", "lookup", "{key: 1"}}),
                             ScriptedReply::text("sorry")});
  Agent agent(optionsFor(server), *tools.registry);
  AgentResult result = agent.run("do it");
  EXPECT_EQ(result.stop, AgentStop::Completed);
  EXPECT_EQ(tools.lookups, 0);
  std::string content = server.requests().at(1)["messages"][3]["content"];
  EXPECT_NE(content.find("not valid JSON"), std::string::npos) << content;
}

TEST_P(AgentLoop, ArgumentsWithADuplicateKeyAreRefusedWithoutRunning) {
  ScriptedChatServer server({ScriptedReply::toolCalls({ChatToolCall{
                                 "c1", "lookup", R"({"key":"a","opts":{"n":1,"n":2}})"}}),
                             ScriptedReply::text("sorry")});
  Agent agent(optionsFor(server), *tools.registry);
  AgentResult result = agent.run("do it");
  EXPECT_EQ(result.stop, AgentStop::Completed);
  EXPECT_EQ(tools.lookups, 0);
  std::string content = server.requests().at(1)["messages"][3]["content"];
  EXPECT_NE(content.find("duplicate key \"n\" at /opts/n"), std::string::npos) << content;
}

TEST_P(AgentLoop, DeeplyNestedArgumentsAreRefusedWithoutCrashing) {
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  ScriptedChatServer server(
      {ScriptedReply::toolCalls({ChatToolCall{"c1", "lookup", deep}}), ScriptedReply::text("ok")});
  Agent agent(optionsFor(server), *tools.registry);
  AgentResult result = agent.run("do it");
  EXPECT_EQ(result.stop, AgentStop::Completed) << result.reason;
  EXPECT_EQ(tools.lookups, 0);
  std::string content = server.requests().at(1)["messages"][3]["content"];
  EXPECT_NE(content.find("nested deeper"), std::string::npos) << content;
}

TEST_P(AgentLoop, TooManyToolCallsInOneReplyAreAProtocolError) {
  std::vector<ChatToolCall> calls;
  for (int i = 0; i < 200; ++i) calls.push_back(toolCall(callId(i), "lookup", {}));
  ScriptedChatServer server({ScriptedReply::toolCalls(calls)});
  Agent agent(optionsFor(server), *tools.registry);
  AgentResult result = agent.run("do it");
  EXPECT_EQ(result.stop, AgentStop::Error);
  ASSERT_TRUE(result.error);
  EXPECT_EQ(result.error->kind, ChatError::Kind::Protocol);
  EXPECT_EQ(tools.lookups, 0);
}

TEST_P(AgentLoop, TurnLimitStopsAModelThatNeverFinishes) {
  std::vector<ScriptedReply> script;
  for (int i = 0; i < 6; ++i) {
    script.push_back(ScriptedReply::toolCalls({toolCall(callId(i), "lookup", {})}));
  }
  ScriptedChatServer server(script);
  Agent agent(optionsFor(server), *tools.registry);
  AgentResult result = agent.run("loop forever");
  EXPECT_EQ(result.stop, AgentStop::TurnLimit);
  EXPECT_EQ(result.turns, 4u);
  EXPECT_EQ(server.requestCount(), 4u);
}

TEST_P(AgentLoop, TheEventStreamIteratesTheSameEvents) {
  ScriptedChatServer server({ScriptedReply::toolCalls({toolCall("c1", "lookup", {{"key", "z"}}),
                                                       toolCall("c2", "erase", {})}),
                             ScriptedReply::text("finished")});
  Agent agent(optionsFor(server), *tools.registry);
  std::vector<AgentEvent> events;
  AgentEventStream stream = agent.stream("go");
  for (const AgentEvent& event : stream) events.push_back(event);
  EXPECT_EQ(typesOf(events), (std::vector<std::string>{"tool-call-preparing", "tool-call-preparing",
                                                       "tool-call-running", "tool-call-completed",
                                                       "tool-call-canceled", "end"}));
  // c2's arguments are not an object: the model's mistake to correct, which
  // ends no generation, streaming or not.
  EXPECT_EQ(contentOf(events), "finished");
  EXPECT_EQ(stream.result().stop, AgentStop::Completed);
  EXPECT_EQ(stream.result().text, "finished");
  EXPECT_FALSE(stream.next());
}

TEST_P(AgentLoop, CancellingEndsTheGeneration) {
  ScriptedReply slow = ScriptedReply::text(std::string(200, 'x'));
  slow.delay_between_events = std::chrono::milliseconds(20);
  ScriptedChatServer server({GetParam() ? slow : ScriptedReply::text("x")});
  Agent agent(optionsFor(server), *tools.registry);
  CancellationToken cancel;
  if (!GetParam()) cancel.cancel();  // before anything is sent
  std::vector<AgentEvent> events;
  AgentResult result = agent.run(
      "go",
      [&](const AgentEvent& e) {
        events.push_back(e);
        if (e.type == AgentEventType::Content) cancel.cancel();
      },
      cancel);
  EXPECT_EQ(result.stop, AgentStop::Cancelled) << result.reason;
  EXPECT_EQ(events.back().type, AgentEventType::End);
  EXPECT_EQ(events.back().stop, AgentStop::Cancelled);
}

INSTANTIATE_TEST_SUITE_P(StreamedAndNot, AgentLoop, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Streaming" : "Plain"; });

}  // namespace agent_loop_test
}  // namespace toolguard
