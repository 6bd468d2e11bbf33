// MCP tool schemas are JSON Schema 2020-12 unless they say otherwise
// (SEP-1613): mcpToolInfo marks them so, and behind the proxy a 2020-12
// schema keeps its tool visible and judges its calls, an explicit "$schema"
// is honoured, and a schema that cannot be compiled still hides its tool.
#include <gtest/gtest.h>

#include <mutex>

#include "mcp/session.hpp"
#include "toolguard/json_schema.hpp"
#include "toolguard/mcp_tools.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::mcp {
namespace mcp_schema_dialect_test {

using nlohmann::json;

// Written as pydantic and zod v4 write them: 2020-12 keywords, no "$schema".
const json kMoveSchema = json::parse(R"({
  "type": "object",
  "$defs": {"Path": {"type": "string", "minLength": 1}},
  "properties": {
    "from": {"$ref": "#/$defs/Path"},
    "to": {"$ref": "#/$defs/Path"},
    "range": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}],
              "items": false}
  },
  "required": ["from", "to"],
  "unevaluatedProperties": false
})");

// Draft 7 said so: a tuple is "items" as an array.
const json kDraft7Schema = json::parse(R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {"pair": {"items": [{"type": "string"}], "additionalItems": false}}
})");

// No "$schema", so 2020-12, where "items" cannot be an array: not compilable.
const json kBrokenSchema = json::parse(R"({
  "type": "object",
  "properties": {"pair": {"items": [{"type": "string"}]}}
})");

TEST(McpSchemaDialect, ASchemaWithoutDollarSchemaIsMarked2020_12) {
  ToolInfo info = mcpToolInfo("fs", {{"name", "move"}, {"inputSchema", kMoveSchema}}, Verdict::Ask);
  EXPECT_EQ(info.input_schema["$schema"], kMcpDefaultSchemaDialect);
  EXPECT_EQ(JsonSchema::compile(info.input_schema).draft(), SchemaDraft::Draft2020_12);
  ToolInfo old =
      mcpToolInfo("fs", {{"name", "pairs"}, {"inputSchema", kDraft7Schema}}, Verdict::Ask);
  EXPECT_EQ(old.input_schema, kDraft7Schema);  // an explicit "$schema" is kept
  EXPECT_EQ(JsonSchema::compile(old.input_schema).draft(), SchemaDraft::Draft7);
  EXPECT_THROW(JsonSchema::compile(
                   mcpToolInfo("fs", {{"name", "b"}, {"inputSchema", kBrokenSchema}}, Verdict::Ask)
                       .input_schema),
               SchemaError);
}

struct Proxy {
  std::mutex mutex;
  std::vector<std::string> to_client, to_server, logged;
  std::shared_ptr<Session> session;

  Proxy() {
    Policy policy;
    mergePolicyText(policy,
                    "version: 1\nrules:\n  - id: srv-tools\n    tool: mcp__srv__*\n"
                    "    verdict: allow\n",
                    "test.yaml", PolicyLayer::User);
    McpProxyOptions options;
    options.server_name = "srv";
    options.context.cwd = "/work/project";
    options.ask = McpAskChannel::None;
    auto keep = [this](std::vector<std::string>& into) {
      return [this, &into](std::string line) {
        std::lock_guard lock(mutex);
        into.push_back(std::move(line));
      };
    };
    SessionSinks sinks{keep(to_client), keep(to_server), [this](const std::string& line) {
                         std::lock_guard lock(mutex);
                         logged.push_back(line);
                       }};
    session = Session::create(std::move(policy), GuardOptions{}, options, std::move(sinks));
  }
  ~Proxy() {
    session->clientGone();
    session->waitForDecisions(std::chrono::seconds(10));
  }

  json last(std::vector<std::string>& lines) {
    std::lock_guard lock(mutex);
    return lines.empty() ? json() : json::parse(lines.back());
  }
  std::size_t forwarded() {
    std::lock_guard lock(mutex);
    return to_server.size();
  }

  /// The tools the client sees after the server lists these.
  std::vector<std::string> list(const json& tools) {
    session->fromClient(
        json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}, {"params", json::object()}}
            .dump());
    session->fromServer(json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", {{"tools", tools}}}}.dump());
    std::vector<std::string> names;
    const json response = last(to_client);  // kept: the loop must not walk a temporary
    for (const json& tool : response["result"]["tools"]) names.push_back(tool["name"]);
    return names;
  }

  /// Whether a call of `tool` with `args` reaches the server.
  bool reachesServer(int id, const std::string& tool, json args) {
    const std::size_t before = forwarded();
    session->fromClient(json{{"jsonrpc", "2.0"},
                             {"id", id},
                             {"method", "tools/call"},
                             {"params", {{"name", tool}, {"arguments", std::move(args)}}}}
                            .dump());
    EXPECT_TRUE(session->waitForDecisions(std::chrono::seconds(10)));
    return forwarded() > before;
  }
};

TEST(McpSchemaDialect, BehindTheProxyA2020_12ToolIsListedAndItsCallsJudged) {
  Proxy proxy;
  json tools = json::array({{{"name", "move"}, {"inputSchema", kMoveSchema}},
                            {{"name", "pairs"}, {"inputSchema", kDraft7Schema}},
                            {{"name", "broken"}, {"inputSchema", kBrokenSchema}}});
  EXPECT_EQ(proxy.list(tools), (std::vector<std::string>{"move", "pairs"}));
  {
    std::lock_guard lock(proxy.mutex);
    ASSERT_EQ(proxy.logged.size(), 1u);
    EXPECT_NE(proxy.logged[0].find("\"broken\""), std::string::npos) << proxy.logged[0];
    EXPECT_NE(proxy.logged[0].find("prefixItems"), std::string::npos) << proxy.logged[0];
  }

  EXPECT_TRUE(proxy.reachesServer(2, "move", {{"from", "a"}, {"to", "b"}, {"range", {1, 2}}}));
  // Each 2020-12 keyword holds: unevaluatedProperties, prefixItems + items, $ref to $defs.
  EXPECT_FALSE(proxy.reachesServer(3, "move", {{"from", "a"}, {"to", "b"}, {"force", true}}));
  std::string why = proxy.last(proxy.to_client)["result"]["content"][0]["text"];
  EXPECT_NE(why.find("unevaluatedProperties"), std::string::npos) << why;
  EXPECT_FALSE(proxy.reachesServer(4, "move", {{"from", "a"}, {"to", "b"}, {"range", {1, 2, 3}}}));
  EXPECT_FALSE(proxy.reachesServer(5, "move", {{"from", ""}, {"to", "b"}}));

  // The draft-7 tool is read as draft 7.
  EXPECT_TRUE(proxy.reachesServer(6, "pairs", {{"pair", {"x"}}}));
  EXPECT_FALSE(proxy.reachesServer(7, "pairs", {{"pair", {"x", "y"}}}));
}

}  // namespace mcp_schema_dialect_test
}  // namespace toolguard::mcp
