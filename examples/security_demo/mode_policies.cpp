// Mode 1: tool policies (ALLOW, CONFIRM, DENY), the registry's default policy,
// the tool list the model sees, and the result filters.
#include <algorithm>

#include "demo_modes.hpp"
#include "demo_tools.hpp"
#include "toolguard/tool_registry.hpp"

namespace demo {

using nlohmann::json;
using toolguard::ToolCall;
using toolguard::ToolPolicy;

bool runPoliciesMode(const DemoSettings& settings, Report& report) {
  report.heading("Mode 1: policies ALLOW / CONFIRM / DENY");
  report.note("Each tool has its own policy, used when no rule of the policy has a finding:");
  report.note("ALLOW runs it, CONFIRM asks a person, DENY refuses it.");

  // No approval handler: nobody can answer a CONFIRM, so it is denied
  // (fail closed). The registry judges with the built-in default policy.
  toolguard::ToolRegistry registry;

  addTool(registry, readFileTool(), ToolPolicy::Allow);
  addTool(registry, writeFileTool(), ToolPolicy::Confirm);
  addTool(registry, dropDatabaseTool(), ToolPolicy::Deny);
  // Tools registered from now on without a policy of their own get ALLOW;
  // the tools above keep theirs.
  registry.setDefaultPolicy(ToolPolicy::Allow);
  addTool(registry, listDirTool());
  addTool(registry, readLogTool());
  // ... and from here on CONFIRM.
  registry.setDefaultPolicy(ToolPolicy::Confirm);
  addTool(registry, deployTool());

  // What the model is given: drop_database is left out, as no call of it
  // could ever run. Send this list as the request's `tools`.
  json definitions = registry.toolDefinitions();
  std::vector<std::string> offered;
  for (const json& tool : definitions) offered.push_back(tool["function"]["name"]);
  std::string listed;
  for (const std::string& name : offered) listed += (listed.empty() ? "" : ", ") + name;
  report.section("the tools the model sees (toolDefinitions)");
  report.check("offered: " + listed,
               std::find(offered.begin(), offered.end(), "drop_database") == offered.end() &&
                   offered.size() == 5,
               "5 tools, drop_database left out");

  // Every call says where it is made: relative paths resolve against cwd,
  // and cwd is the workspace. Headless: there is no person to ask.
  toolguard::CallContext context;
  context.cwd = settings.workspace.string();
  context.mode = toolguard::InteractionMode::Headless;
  auto call = [&](std::string tool, json args) { return ToolCall{tool, std::move(args), context}; };
  auto run = [&](const ToolCall& c, const Expect& expect) {
    report.step(c, registry.executeTool(c), expect);
  };

  report.section("calls (headless: nobody can confirm)");
  run(call("read_file", {{"path", "README.md"}}), Expect::result("# Demo project"));
  run(call("list_dir", json::object()), Expect::result("README.md"));  // default ALLOW
  run(call("write_file", {{"path", "notes.txt"}, {"content", "hello"}}),
      Expect::denied("headless"));  // CONFIRM, and nobody to ask
  run(call("deploy", {{"target", "staging"}}), Expect::denied("headless"));   // default CONFIRM
  run(call("drop_database", {{"name", "customers"}}), Expect::denied());      // DENY
  run(call("format_disk", json::object()), Expect::denied("no tool named"));  // not registered
  // A tool that throws gives an error outcome, never an exception.
  run(call("read_file", {{"path", "missing.txt"}}), Expect::error("cannot open"));

  report.section("result filters: what the model sees of allowed calls");
  // Result filters rewrite a tool's output before the model sees it, in the
  // order they were added: credentials first, then the size cap.
  registry.addResultFilter(toolguard::secretRedactionFilter());
  registry.addResultFilter(toolguard::outputCapFilter(200));
  report.note("config.txt holds the fake AWS key id AKIAIOSFODNN7EXAMPLE;");
  report.note("app.log is about 2,000 bytes; the cap is 200.");
  ToolCall config = call("read_file", {{"path", "config.txt"}});
  toolguard::ToolOutcome redacted = registry.executeTool(config);
  report.step(config, redacted, Expect::result("[REDACTED]"));
  report.check("the key id is not in what the model receives",
               redacted.modelContent().find("AKIAIOSFODNN7EXAMPLE") == std::string::npos);
  ToolCall log = call("read_log", json::object());
  toolguard::ToolOutcome capped = registry.executeTool(log);
  report.step(log, capped, Expect::result("output truncated"));
  report.block(capped.modelContent());
  return report.allAsExpected();
}

}  // namespace demo
