// The MCP proxy's pieces below the session: what a tools/list entry means
// to toolguard, reading a message's shape, cutting a stream into lines, the
// elicitation form and its answers, and the server process.
#include <gtest/gtest.h>

#include <csignal>
#include <system_error>

#include "mcp/child_process.hpp"
#include "mcp/elicitation.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/line_io.hpp"
#include "toolguard/mcp_tools.hpp"

namespace toolguard::mcp {
namespace mcp_wire_test {

using nlohmann::json;

TEST(McpTools, NamesJoinServerAndTool) {
  EXPECT_EQ(mcpToolName("github", "create_issue"), "mcp__github__create_issue");
  EXPECT_EQ(mcpServerNameError("fs"), "");
  EXPECT_EQ(mcpServerNameError("my-server_2"), "");
  EXPECT_NE(mcpServerNameError(""), "");
  EXPECT_NE(mcpServerNameError("a__b"), "");
  EXPECT_NE(mcpServerNameError("a b"), "");
  EXPECT_NE(mcpServerNameError(std::string(65, 'a')), "");
}

TEST(McpTools, NamesThatSayTheyAct) {
  for (const char* name : {"write_file", "deleteRepo", "send-email", "run_command", "git.push",
                           "createIssue", "execute_sql", "move_file"}) {
    EXPECT_TRUE(mcpNameSaysItActs(name)) << name;
  }
  for (const char* name : {"read_file", "list_directory", "search_files", "get_file_info",
                           "directory_tree", "readme_lookup"}) {
    EXPECT_FALSE(mcpNameSaysItActs(name)) << name;
  }
}

TEST(McpTools, ReadOnlyHintIsBelievedOnlyWhenTheNameAgrees) {
  json schema = {{"type", "object"}, {"properties", {{"path", {{"type", "string"}}}}}};
  ToolInfo read = mcpToolInfo("fs",
                              {{"name", "read_text_file"},
                               {"inputSchema", schema},
                               {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}}},
                              Verdict::Allow);
  EXPECT_EQ(read.name, "mcp__fs__read_text_file");
  EXPECT_TRUE(read.metadata.read_only);
  EXPECT_EQ(read.metadata.side_effect, SideEffect::LocalRead);
  EXPECT_EQ(read.metadata.risk, RiskLevel::Low);
  EXPECT_EQ(read.metadata.default_approval, DefaultApproval::Conditional);
  EXPECT_EQ(effectivePolicy(read), std::nullopt);  // the policy's default decides
  EXPECT_EQ(read.kind, ToolKind::FileRead);
  EXPECT_EQ(read.path_args, std::vector<std::string>{"path"});

  ToolInfo liar = mcpToolInfo("fs",
                              {{"name", "delete_everything"},
                               {"inputSchema", schema},
                               {"annotations", {{"readOnlyHint", true}}}},
                              Verdict::Allow);
  EXPECT_FALSE(liar.metadata.read_only);
  EXPECT_EQ(liar.metadata.default_approval, DefaultApproval::Always);
  EXPECT_EQ(liar.kind, ToolKind::FileWrite);
}

TEST(McpTools, AnnotationsNeverLoosenThePolicysDefault) {
  const json read_only = {{"name", "read_text_file"}, {"annotations", {{"readOnlyHint", true}}}};
  const json acting = {{"name", "write_file"}};
  for (Verdict default_verdict :
       {Verdict::Allow, Verdict::Escalate, Verdict::Ask, Verdict::Deny, Verdict::Abort}) {
    SCOPED_TRACE(std::string(toString(default_verdict)));
    // Read-only: whatever the default says.
    EXPECT_EQ(effectivePolicy(mcpToolInfo("s", read_only, default_verdict)), std::nullopt);
    // Acting: asked about where the default is looser than ask, else the default.
    std::optional<ToolPolicy> acting_policy =
        effectivePolicy(mcpToolInfo("s", acting, default_verdict));
    if (isStricter(Verdict::Ask, default_verdict)) {
      EXPECT_EQ(acting_policy, ToolPolicy::Confirm);
    } else {
      EXPECT_EQ(acting_policy, std::nullopt);
    }
  }
}

TEST(McpTools, MissingAnnotationsMeanTheProtocolsCautiousDefaults) {
  ToolInfo bare = mcpToolInfo("api", {{"name", "lookup"}}, Verdict::Allow);
  EXPECT_FALSE(bare.metadata.read_only);
  EXPECT_EQ(bare.metadata.side_effect, SideEffect::Irreversible);  // destructive by default
  EXPECT_EQ(bare.metadata.risk, RiskLevel::High);
  EXPECT_EQ(bare.metadata.default_approval, DefaultApproval::Always);
  EXPECT_EQ(effectivePolicy(bare), ToolPolicy::Confirm);
  EXPECT_EQ(bare.kind, ToolKind::Other);

  ToolInfo gentle = mcpToolInfo(
      "api",
      {{"name", "tag"},
       {"annotations",
        {{"destructiveHint", false}, {"idempotentHint", true}, {"openWorldHint", true}}}},
      Verdict::Ask);
  EXPECT_EQ(gentle.metadata.side_effect, SideEffect::NetworkWrite);
  EXPECT_EQ(gentle.metadata.risk, RiskLevel::Medium);
  EXPECT_TRUE(gentle.metadata.idempotent);
}

TEST(McpTools, PathArgumentsAreFoundByName) {
  json schema = {{"type", "object"},
                 {"properties",
                  {{"source", {{"type", "string"}}},
                   {"destination", {{"type", "string"}}},
                   {"paths", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                   {"outputPath", {{"type", "string"}}},
                   {"count", {{"type", "integer"}}},
                   {"path_depth", {{"type", "integer"}}},
                   {"content", {{"type", "string"}}}}}};
  ToolInfo info = mcpToolInfo("fs", {{"name", "move_file"}, {"inputSchema", schema}}, Verdict::Ask);
  std::vector<std::string> args = info.path_args;
  std::sort(args.begin(), args.end());
  EXPECT_EQ(args, (std::vector<std::string>{"destination", "outputPath", "paths", "source"}));
}

TEST(McpTools, BadEntriesAreErrorsNamingTheField) {
  EXPECT_THROW(mcpToolInfo("s", json::array(), Verdict::Ask), std::invalid_argument);
  try {
    mcpToolInfo("s", {{"description", "no name"}}, Verdict::Ask);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("\"name\""), std::string::npos);
  }
  try {
    mcpToolInfo("s", {{"name", "t"}, {"inputSchema", "object"}}, Verdict::Ask);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("inputSchema"), std::string::npos);
  }
}

TEST(McpWire, ShapesOfMessages) {
  MessageShape r =
      scanMessage(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"id":9}})");
  EXPECT_EQ(r.kind, MessageKind::Request);
  EXPECT_EQ(r.id, 3);
  EXPECT_EQ(r.method, "tools/call");
  EXPECT_EQ(scanMessage(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").kind,
            MessageKind::Notification);
  MessageShape response = scanMessage(R"({"result":{"id":"inner"},"jsonrpc":"2.0","id":"a"})");
  EXPECT_EQ(response.kind, MessageKind::Response);
  EXPECT_EQ(response.id, "a");
  EXPECT_EQ(scanMessage(R"([{"jsonrpc":"2.0","id":1,"result":{}}])").kind, MessageKind::Batch);
  for (const char* bad :
       {"{", "42", R"({"id":1,"result":{}})", R"({"jsonrpc":"2.0","id":{},"method":"x"})",
        R"({"jsonrpc":"2.0","method":7})", R"({"jsonrpc":"2.0"})",
        R"({"jsonrpc":"2.0","id":1,"result":{}} trailing)"}) {
    MessageShape s = scanMessage(bad);
    EXPECT_EQ(s.kind, MessageKind::Invalid) << bad;
    EXPECT_FALSE(s.problem.empty()) << bad;
    // The parsed form agrees wherever the text is JSON.
    json parsed = json::parse(bad, nullptr, false);
    if (!parsed.is_discarded()) {
      EXPECT_EQ(shapeOf(parsed).kind, MessageKind::Invalid) << bad;
    }
  }
}

TEST(McpWire, LinesAreCutAtNewlinesWithALimit) {
  LineSplitter splitter(8);
  std::vector<std::string> lines;
  int too_long = 0;
  auto on_line = [&](std::string_view l) { lines.emplace_back(l); };
  auto on_too_long = [&] { ++too_long; };
  splitter.feed("ab\ncd", on_line, on_too_long);
  splitter.feed("ef\r\n\n", on_line, on_too_long);
  splitter.feed("123456789012", on_line, on_too_long);
  splitter.feed("345\nok\nlast", on_line, on_too_long);
  splitter.finish(on_line);
  EXPECT_EQ(lines, (std::vector<std::string>{"ab", "cdef", "ok", "last"}));
  EXPECT_EQ(too_long, 1);
}

ApprovalRequest sampleRequest() {
  ApprovalRequest request;
  request.call.tool = "mcp__fs__write_file";
  request.call.args = {{"path", ".env"}};
  request.decision.reason = "this file holds secrets";
  request.decision.rule_id = "sensitive-write";
  request.options = {ApprovalOption{ApprovalBinding::Tool, "", "every call"},
                     ApprovalOption{ApprovalBinding::ExactCall, "key", "this exact call"}};
  request.scopes = {ApprovalScope::Session, ApprovalScope::Project};
  return request;
}

json response(const json& result) {
  return {{"jsonrpc", "2.0"}, {"id", "q"}, {"result", result}};
}

TEST(McpElicitation, TheFormNamesTheCallAndOffersKnownChoices) {
  json params = elicitationParams(sampleRequest(), "fs", "write_file");
  std::string message = params["message"];
  for (const char* part :
       {"write_file", "\"fs\"", "this file holds secrets", "sensitive-write", ".env"}) {
    EXPECT_NE(message.find(part), std::string::npos) << part;
  }
  EXPECT_EQ(params["requestedSchema"]["properties"]["decision"]["enum"],
            json({kAllowOnce, kAllowSession, kDeny}));
  EXPECT_EQ(params["requestedSchema"]["required"], json({"decision"}));
}

TEST(McpElicitation, AnswersAreReadStrictly) {
  ApprovalRequest request = sampleRequest();
  ApprovalAnswer once = readElicitationAnswer(
      response({{"action", "accept"}, {"content", {{"decision", kAllowOnce}}}}), request);
  EXPECT_EQ(once.outcome, ApprovalOutcome::AllowOnce);
  ApprovalAnswer session = readElicitationAnswer(
      response({{"action", "accept"}, {"content", {{"decision", kAllowSession}}}}), request);
  EXPECT_EQ(session.outcome, ApprovalOutcome::AlwaysAllow);
  EXPECT_EQ(session.option, 1u);  // the exact-call binding
  EXPECT_EQ(session.scope, ApprovalScope::Session);
  ApprovalAnswer no = readElicitationAnswer(
      response({{"action", "accept"}, {"content", {{"decision", kDeny}, {"reason", "secrets"}}}}),
      request);
  EXPECT_EQ(no.outcome, ApprovalOutcome::Deny);
  EXPECT_TRUE(no.by_person);
  EXPECT_EQ(no.reason, "secrets");
  for (const json& odd :
       {response({{"action", "accept"}, {"content", {{"decision", "yes"}}}}),
        response({{"action", "accept"}}), response({{"action", "maybe"}}), response(json::object()),
        json{
            {"jsonrpc", "2.0"}, {"id", "q"}, {"error", {{"code", -32601}, {"message", "nope"}}}}}) {
    ApprovalAnswer a = readElicitationAnswer(odd, request);
    EXPECT_EQ(a.outcome, ApprovalOutcome::Deny) << odd.dump();
    EXPECT_FALSE(a.by_person) << odd.dump();
  }
  EXPECT_TRUE(readElicitationAnswer(response({{"action", "cancel"}}), request).by_person);
}

TEST(McpChildProcess, RunsReapsAndReportsHowItEnded) {
  ChildProcess child({"sh", "-c", "read line; echo \"got $line\"; exit 3"});
  ASSERT_EQ(::write(child.stdinFd(), "hi\n", 3), 3);
  std::string out(64, '\0');
  ssize_t n = ::read(child.stdoutFd(), out.data(), out.size());
  ASSERT_GT(n, 0);
  EXPECT_EQ(out.substr(0, static_cast<size_t>(n)), "got hi\n");
  int status = child.stop(std::chrono::milliseconds(2000));
  EXPECT_EQ(exitCodeOf(status), 3);
  EXPECT_EQ(describeWaitStatus(status), "exit code 3");
  EXPECT_FALSE(child.wasSignalled());
}

TEST(McpChildProcess, AServerThatIgnoresItsInputAndSigtermIsKilled) {
  ChildProcess child({"sh", "-c", "trap '' TERM; while :; do sleep 0.05; done"});
  int status = child.stop(std::chrono::milliseconds(100));
  EXPECT_TRUE(child.wasSignalled());
  EXPECT_EQ(exitCodeOf(status), 128 + SIGKILL);
}

TEST(McpChildProcess, AMissingCommandIsAnErrorNamingIt) {
  try {
    ChildProcess child({"/nonexistent/mcp-server"});
    FAIL();
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/mcp-server"), std::string::npos);
  }
}

}  // namespace mcp_wire_test
}  // namespace toolguard::mcp
