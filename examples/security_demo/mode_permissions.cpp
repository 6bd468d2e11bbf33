// Mode 4: persistent permissions. An "always allow" kept in the approval
// store outlives the process: a new registry (as after a restart) allows the
// same call from the store, and only that call.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "demo_modes.hpp"
#include "demo_tools.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/tool_registry.hpp"

namespace demo {

using nlohmann::json;
using toolguard::ApprovalEntry;
using toolguard::ApprovalScope;
using toolguard::ToolCall;

namespace {

// A registry as the program would build it at start-up: the store is where
// remembered approvals come from; there is no approval handler, so anything
// the store does not cover is denied.
std::unique_ptr<toolguard::ToolRegistry> startRegistry(
    const std::shared_ptr<toolguard::ApprovalStore>& store) {
  toolguard::GuardOptions options;
  options.store = store;
  auto registry = std::make_unique<toolguard::ToolRegistry>(options);
  addTool(*registry, deployTool(), toolguard::ToolPolicy::Confirm);
  return registry;
}

std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

bool runPermissionsMode(const DemoSettings& settings, Report& report) {
  report.heading("Mode 4: persistent permissions");
  report.note("deploy is CONFIRM; no one can be asked (headless), so only a remembered");
  report.note("approval in the store can let a call through.");

  toolguard::CallContext context;
  context.cwd = settings.workspace.string();
  context.mode = toolguard::InteractionMode::Headless;
  const ToolCall staging{"deploy", {{"target", "staging"}}, context};
  const ToolCall production{"deploy", {{"target", "production"}}, context};

  // The store: one JSON file per scope under the toolguard home. A project
  // approval is filed under the project's root: the call's first workspace
  // root, else its cwd (scopeIdOf).
  auto store = std::make_shared<toolguard::ApprovalStore>(settings.home.string());
  const std::string project = toolguard::scopeIdOf(ApprovalScope::Project, context).value();
  const std::string file = store->fileFor(ApprovalScope::Project, project);
  report.note("toolguard home: " + store->home());
  report.note("project: " + project);
  report.note("store file: " + file);

  // "Always allow this exact call in this project": bound to the approval
  // key (tool + arguments with sorted keys), so {"target":"production"} is
  // not covered.
  ApprovalEntry entry;
  entry.tool = staging.tool;
  entry.binding = toolguard::ApprovalBinding::ExactCall;
  entry.value = toolguard::approvalKey(staging);
  entry.scope = ApprovalScope::Project;
  entry.scope_id = project;
  // entry.created stays empty: ApprovalStore::add stamps the time.
  entry.note = "security_demo mode 4";

  const auto existing = store->load(ApprovalScope::Project, project);
  const bool remembered = std::any_of(existing.begin(), existing.end(),
                                      [&](const ApprovalEntry& e) { return e.sameGrant(entry); });

  report.section("1. before the approval is added");
  {
    auto registry = startRegistry(store);
    if (remembered) {
      report.note("the approval is already in the store (from an earlier run with this --home):");
      report.note("the first call is allowed from the store");
      report.step(staging, registry->executeTool(staging),
                  Expect{toolguard::OutcomeKind::Result, "would deploy to staging", "", "store"});
    } else {
      report.step(staging, registry->executeTool(staging), Expect::denied("headless"));
    }
  }

  report.section("2. a person chooses \"always allow this call in this project\"");
  // A prompt does this when the person answers "always allow"; here the
  // entry is added directly. The write is atomic and safe across processes.
  const bool added = store->add(entry);
  report.check(
      std::string(added ? "added to the store: " : "already in the store: ") + entry.describe(),
      added != remembered);

  report.section("3. the program restarts: a new registry on the same store");
  {
    auto registry = startRegistry(store);
    toolguard::ToolOutcome allowed = registry->executeTool(staging);
    report.step(staging, allowed,
                Expect{toolguard::OutcomeKind::Result, "would deploy to staging", "", "store"});
    if (allowed.decision && allowed.decision->approval) {
      report.note("allowed by: " + allowed.decision->approval->by + " (" +
                  allowed.decision->approval->file + ")");
    }
    // A different call is not covered by an exact-call approval.
    report.step(production, registry->executeTool(production), Expect::denied("headless"));
  }

  report.section("the store file");
  report.note(file + ":");
  report.block(fileText(file));
  return report.allAsExpected();
}

}  // namespace demo
