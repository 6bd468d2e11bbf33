// `toolguard approvals list|add|remove|clear|import`: the remembered approvals.
#include <iostream>

#include "approval/approval_matching.hpp"
#include "cli/commands.hpp"
#include "cli/option_flags.hpp"
#include "front/guard_options.hpp"
#include "front/policy_options.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/terminal_prompt.hpp"
#include "toolguard/tool_catalog.hpp"

namespace toolguard::cli {
namespace {

struct ApprovalsOptions {
  std::string home;
  std::string scope = "project";
  std::string project;  // --project DIR (project scope; default: the cwd)
  std::string agent;
  std::string session;
  bool json = false;
  std::string tool;
  std::string pattern;
  std::string rule;
  std::string file;
  bool scope_given = false;
};

ApprovalScope scopeOf(const ApprovalsOptions& o) {
  return parseApprovalScope(o.scope).value_or(ApprovalScope::Project);
}

// The scope id the options name; throws a usage error when one is missing.
std::string scopeIdForOption(const ApprovalsOptions& o) {
  switch (scopeOf(o)) {
    case ApprovalScope::Global:
      return "";
    case ApprovalScope::Project:
      return normalizePath(o.project.empty() ? front::currentDirectory() : o.project,
                           front::currentDirectory(), homeDirectory());
    case ApprovalScope::Agent:
      if (o.agent.empty()) throw CLI::ValidationError("--agent", "needed with --scope agent");
      return o.agent;
    case ApprovalScope::Session:
      if (o.session.empty()) throw CLI::ValidationError("--session", "needed with --scope session");
      return o.session;
  }
  return "";
}

nlohmann::json entryJson(const ApprovalEntry& e) {
  nlohmann::json out = {{"tool", e.tool},         {"binding", toString(e.binding)},
                        {"value", e.value},       {"scope", toString(e.scope)},
                        {"scope_id", e.scope_id}, {"created", e.created},
                        {"note", e.note},         {"description", e.describe()}};
  if (!e.rule.empty()) out["rule"] = e.rule;
  return out;
}

void printEntry(const char* what, const ApprovalEntry& e) {
  std::cout << what << terminalSafe(e.describe()) << "\n";
}

// The entries `approvals list` shows: every scope's, or those the filters name.
bool listed(const ApprovalsOptions& o, const ApprovalEntry& e) {
  if (o.scope_given && e.scope != scopeOf(o)) return false;
  if (!o.project.empty()) {
    return e.scope == ApprovalScope::Project &&
           e.scope_id == normalizePath(o.project, front::currentDirectory(), homeDirectory());
  }
  if (!o.agent.empty()) return e.scope == ApprovalScope::Agent && e.scope_id == o.agent;
  if (!o.session.empty()) return e.scope == ApprovalScope::Session && e.scope_id == o.session;
  return true;
}

int runList(const ApprovalsOptions& o) {
  ApprovalStore store(toolguardHome(o.home));
  ApprovalListing listing = store.list();
  nlohmann::json out = nlohmann::json::array();
  size_t shown = 0;
  for (const ApprovalEntry& e : listing.entries) {
    if (!listed(o, e)) continue;
    ++shown;
    if (o.json) {
      out.push_back(entryJson(e));
    } else {
      printEntry("", e);
    }
  }
  if (o.json) {
    std::cout << out.dump(2) << "\n";
  } else if (shown == 0) {
    const bool filtered =
        o.scope_given || !o.project.empty() || !o.agent.empty() || !o.session.empty();
    std::cout << (filtered ? "no remembered approvals match (" : "no remembered approvals (")
              << terminalSafe(store.home()) << "/approvals"
              << (listing.errors.empty() ? "" : "; files that could not be read are listed below")
              << ")\n";
  }
  for (const std::string& error : listing.errors) {
    std::cerr << "toolguard: not read (no approval is taken from it): " << terminalSafe(error)
              << "\n";
  }
  return listing.errors.empty() ? kExitOk : kExitError;
}

int runAdd(const ApprovalsOptions& o) {
  ApprovalEntry entry;
  entry.tool = o.tool;
  entry.binding = o.pattern.empty() ? ApprovalBinding::Tool : ApprovalBinding::Pattern;
  entry.value = o.pattern;
  entry.scope = scopeOf(o);
  entry.scope_id = scopeIdForOption(o);
  entry.rule = o.rule;
  entry.note = "toolguard approvals add";
  const ToolInfo& tool = ToolCatalog::builtin().resolve(o.tool);
  if (o.pattern.empty() && (tool.kind == ToolKind::Shell || !tool.command_arg.empty())) {
    std::cerr << "toolguard: not added: approving every call of the shell tool " << o.tool
              << " would approve any command; add --pattern\n";
    return kExitError;
  }
  if (!o.pattern.empty()) {
    if (Expected<void> pattern = detail::checkApprovalPattern(tool, o.pattern); !pattern) {
      std::cerr << "toolguard: not added: " << pattern.error() << "\n";
      return kExitError;
    }
  }
  ApprovalStore store(toolguardHome(o.home));
  bool added = store.add(entry);
  printEntry(added ? "added: " : "already there: ", entry);
  if (entry.rule.empty()) {
    std::cout << "  (answers only asks that no rule made; to answer a rule's asks, add "
                 "--rule ID with the rule that check reports)\n";
  }
  std::cout << "  in " << store.fileFor(entry.scope, entry.scope_id) << "\n";
  return kExitOk;
}

int runRemove(const ApprovalsOptions& o, bool everything) {
  ApprovalStore store(toolguardHome(o.home));
  std::vector<ApprovalEntry> removed =
      store.remove(scopeOf(o), scopeIdForOption(o), [&](const ApprovalEntry& e) {
        if (everything) return true;
        if (e.tool != o.tool) return false;
        return o.pattern.empty() || (e.binding == ApprovalBinding::Pattern && e.value == o.pattern);
      });
  for (const ApprovalEntry& e : removed) printEntry("removed: ", e);
  if (removed.empty()) std::cout << "nothing to remove\n";
  return kExitOk;
}

int runApprovalsImport(const ApprovalsOptions& o) {
  ApprovalStore store(toolguardHome(o.home));
  std::vector<ApprovalEntry> added = store.importPlain(o.file, scopeOf(o), scopeIdForOption(o));
  for (const ApprovalEntry& e : added) printEntry("imported: ", e);
  if (added.empty()) std::cout << "nothing new to import\n";
  return kExitOk;
}

void addScopeOptions(CLI::App& cmd, ApprovalsOptions& o) {
  cmd.add_option("--scope", o.scope, "session, project (default), agent or global")
      ->check(CLI::IsMember({"session", "project", "agent", "global", "everywhere"}))
      ->each([&o](const std::string&) { o.scope_given = true; });
  cmd.add_option("--project", o.project, "The project root for --scope project (default: cwd)");
  cmd.add_option("--agent", o.agent, "The agent id for --scope agent");
  cmd.add_option("--session", o.session, "The session id for --scope session");
  addHomeOption(cmd, o.home);
}

}  // namespace

void addApprovalsCommand(CLI::App& app, int& exit_code) {
  CLI::App* approvals = app.add_subcommand(
      "approvals", "List and change remembered approvals (\"always allow\") in the store");
  approvals->require_subcommand(1);

  auto list_options = std::make_shared<ApprovalsOptions>();
  CLI::App* list = approvals->add_subcommand(
      "list",
      "Print the remembered approvals of every scope (global, project, agent, session), one "
      "per line: the tool, what it covers, which asks it answers, and its scope; the options "
      "narrow the list");
  list->add_option("--scope", list_options->scope,
                   "Only this scope: session, project, agent, global")
      ->check(CLI::IsMember({"session", "project", "agent", "global"}))
      ->each([o = list_options.get()](const std::string&) { o->scope_given = true; });
  list->add_option("--project", list_options->project, "Only the approvals of this project root")
      ->type_name("DIR");
  list->add_option("--agent", list_options->agent, "Only the approvals of this agent id")
      ->type_name("ID");
  list->add_option("--session", list_options->session, "Only the approvals of this session id")
      ->type_name("ID");
  addHomeOption(*list, list_options->home);
  list->add_flag("--json", list_options->json, "A JSON array, one object per entry");
  list->callback([list_options, &exit_code] {
    runSubcommand(exit_code, "toolguard", [&] { return runList(*list_options); });
  });

  auto add_options = std::make_shared<ApprovalsOptions>();
  CLI::App* add = approvals->add_subcommand(
      "add", "Always allow TOOL (whole tool, or calls matching --pattern) in a scope");
  add->add_option("tool", add_options->tool, "The tool's exact name")->required();
  add->add_option("--pattern", add_options->pattern,
                  "A command pattern (\"npm run test *\") or a path glob (\"/work/app/src/**\")");
  add->add_option("--rule", add_options->rule,
                  "Answer asks of this rule (the \"rule\" in check's output), or '*' for "
                  "every rule; default: only asks that no rule made (the tool's policy)");
  addScopeOptions(*add, *add_options);
  add->callback([add_options, &exit_code] {
    runSubcommand(exit_code, "toolguard", [&] { return runAdd(*add_options); });
  });

  auto remove_options = std::make_shared<ApprovalsOptions>();
  CLI::App* remove = approvals->add_subcommand(
      "remove", "Forget TOOL's approvals in a scope (only --pattern's, if given)");
  remove->add_option("tool", remove_options->tool, "The tool's exact name")->required();
  remove->add_option("--pattern", remove_options->pattern, "Only the entry with this pattern");
  addScopeOptions(*remove, *remove_options);
  remove->callback([remove_options, &exit_code] {
    runSubcommand(exit_code, "toolguard", [&] { return runRemove(*remove_options, false); });
  });

  auto clear_options = std::make_shared<ApprovalsOptions>();
  CLI::App* clear = approvals->add_subcommand("clear", "Forget every approval of a scope");
  addScopeOptions(*clear, *clear_options);
  clear->callback([clear_options, &exit_code] {
    runSubcommand(exit_code, "toolguard", [&] { return runRemove(*clear_options, true); });
  });

  auto import_options = std::make_shared<ApprovalsOptions>();
  CLI::App* import = approvals->add_subcommand(
      "import", "Import {\"version\": 1, \"allowed_tools\": [...]} as whole-tool approvals");
  import->add_option("file", import_options->file, "The file to import")->required();
  addScopeOptions(*import, *import_options);
  import->callback([import_options, &exit_code] {
    runSubcommand(exit_code, "toolguard", [&] { return runApprovalsImport(*import_options);
});
}  // namespace toolguard::cli
);
}

}  // namespace toolguard::cli
