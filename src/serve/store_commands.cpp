// The approvals and the audit of a service's store, from the command line:
// list and import approvals, query the audit, with either store.
#include "store_commands.hpp"

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "audit/audit_detail.hpp"
#include "front/audit_line.hpp"
#include "store/service_store.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::serve {
namespace {

struct StoreOptions {
  std::string store = "file";
  std::string home;
  bool json = false;
  // approvals import
  std::string file;
  std::string scope = "project";
  std::string project, agent, session;
  // audit query
  std::string since, until, tool, verdict, rule;
  size_t last = 0;
  std::string head;  // audit verify --head
};

std::unique_ptr<store::ServiceStore> open(const StoreOptions& o) {
  return store::openStore(o.store, toolguardHome(o.home));
}

void addStore(CLI::App& cmd, StoreOptions& o) {
  cmd.add_option("--store", o.store, "'file' (TOOLGUARD_HOME) or a postgresql:// URL")
      ->capture_default_str();
  cmd.add_option("--home", o.home, "toolguard's home for the file store");
}

nlohmann::json storeEntryJson(const ApprovalEntry& e) {
  return {{"tool", e.tool},         {"binding", toString(e.binding)},
          {"value", e.value},       {"scope", toString(e.scope)},
          {"scope_id", e.scope_id}, {"created", e.created},
          {"note", e.note},         {"rule", e.rule}};
}

int list(const StoreOptions& o) {
  ApprovalListing listing = open(o)->listApprovals();
  if (o.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const ApprovalEntry& e : listing.entries) out.push_back(storeEntryJson(e));
    std::cout << out.dump(2) << "\n";
  } else {
    for (const ApprovalEntry& e : listing.entries) {
      std::cout << toString(e.scope) << (e.scope_id.empty() ? "" : " " + e.scope_id) << ": "
                << e.describe() << "\n";
    }
  }
  for (const std::string& error : listing.errors) std::cerr << "toolguard: " << error << "\n";
  return listing.errors.empty() ? 0 : 2;
}

int import(const StoreOptions& o) {
  std::optional<ApprovalScope> scope = parseApprovalScope(o.scope);
  if (!scope) throw std::runtime_error("--scope: session, project, agent or global");
  std::string scope_id;
  if (*scope == ApprovalScope::Project) {
    char cwd[4096];
    const std::string here = getcwd(cwd, sizeof cwd) ? cwd : "/";
    scope_id = normalizePath(o.project.empty() ? here : o.project, here, homeDirectory());
  } else if (*scope == ApprovalScope::Agent) {
    scope_id = o.agent;
  } else if (*scope == ApprovalScope::Session) {
    scope_id = o.session;
  }
  if (*scope != ApprovalScope::Global && scope_id.empty()) {
    throw std::runtime_error("--scope " + o.scope + " needs its id (--" + o.scope + ")");
  }
  std::ifstream in(o.file, std::ios::binary);
  if (!in) throw std::runtime_error(o.file + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  StrictJson parsed = parseStrictJson(text.str());
  const auto bad = [&](const std::string& why) {
    return std::runtime_error(o.file + ": " + why +
                              " (expected {\"version\": 1, \"allowed_tools\": [NAME, ...]})");
  };
  if (!parsed.value) throw bad(parsed.error);
  const nlohmann::json& doc = *parsed.value;
  if (!doc.is_object() || doc.value("version", 0) != 1 || !doc.contains("allowed_tools") ||
      !doc["allowed_tools"].is_array()) {
    throw bad("not the plain approvals format");
  }
  std::unique_ptr<store::ServiceStore> s = open(o);
  int added = 0;
  for (const nlohmann::json& name : doc["allowed_tools"]) {
    if (!name.is_string() || name.get<std::string>().empty()) {
      throw bad("every allowed tool must be a non-empty name");
    }
    ApprovalEntry e{name.get<std::string>(),
                    ApprovalBinding::Tool,
                    "",
                    *scope,
                    scope_id,
                    detail::formatAuditTime(std::chrono::system_clock::now()),
                    "import " + o.file,
                    ""};
    if (s->approvals()->add(e)) {
      ++added;
      std::cout << "added " << e.describe() << "\n";
    }
  }
  std::cout << added << " approval(s) imported into " << s->describe() << "\n";
  return 0;
}

int query(const StoreOptions& o) {
  AuditQuery q;
  const auto now = std::chrono::system_clock::now();
  if (!o.since.empty() && !(q.since = parseAuditSince(o.since, now))) {
    throw std::runtime_error("--since: a time, a date or a length of time (15m)");
  }
  if (!o.until.empty() && !(q.until = parseAuditSince(o.until, now))) {
    throw std::runtime_error("--until: a time, a date or a length of time (15m)");
  }
  q.tool = o.tool;
  q.verdict = o.verdict;
  q.rule = o.rule;
  q.last = o.last;
  std::vector<nlohmann::json> records = open(o)->queryAudit(q);
  if (o.json) {
    std::cout << nlohmann::json(records).dump(2, ' ', true,
                                              nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    for (const nlohmann::json& r : records) std::cout << front::readableAuditLine(r, false) << "\n";
  }
  return 0;
}

template <typename Run>
void guarded(int& exit_code, Run run) {
  try {
    exit_code = run();
  } catch (const std::exception& e) {
    std::cerr << "toolguard: " << e.what() << "\n";
    exit_code = 2;
  }
}

}  // namespace

void addStoreCommands(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<StoreOptions>();
  CLI::App* approvals =
      app.add_subcommand("approvals", "The remembered approvals of a store (--store)");
  approvals->require_subcommand(1);
  CLI::App* list_cmd = approvals->add_subcommand("list", "List every remembered approval");
  addStore(*list_cmd, *o);
  list_cmd->add_flag("--json", o->json, "A JSON array, one object per entry");
  list_cmd->callback([o, &exit_code] { guarded(exit_code, [&] { return list(*o); }); });
  CLI::App* import_cmd = approvals->add_subcommand(
      "import", "Import {\"version\": 1, \"allowed_tools\": [...]} as tool approvals");
  import_cmd->add_option("file", o->file, "The file to import")->required();
  import_cmd->add_option("--scope", o->scope, "session, project (default), agent or global");
  import_cmd->add_option("--project", o->project, "The project root (default: cwd)");
  import_cmd->add_option("--agent", o->agent, "The agent id for --scope agent");
  import_cmd->add_option("--session", o->session, "The session id for --scope session");
  addStore(*import_cmd, *o);
  import_cmd->callback([o, &exit_code] { guarded(exit_code, [&] { return import(*o); }); });
  CLI::App* audit = app.add_subcommand("audit", "The audit of a store (--store)");
  audit->require_subcommand(1);
  CLI::App* query_cmd = audit->add_subcommand("query", "Records that match the filters");
  addStore(*query_cmd, *o);
  query_cmd->add_option("--since", o->since, "Records from this time (a time, date or 15m)");
  query_cmd->add_option("--until", o->until, "Records before this time");
  query_cmd->add_option("--tool", o->tool, "Tool name or wildcard pattern");
  query_cmd->add_option("--verdict", o->verdict, "allow, ask, deny or abort")
      ->check(CLI::IsMember({"allow", "ask", "deny", "abort"}));
  query_cmd->add_option("--rule", o->rule, "Rule id or wildcard pattern");
  query_cmd->add_option("--last", o->last, "Only the last N matches");
  query_cmd->add_flag("--json", o->json, "A JSON array of the records");
  query_cmd->callback([o, &exit_code] { guarded(exit_code, [&] { return query(*o); }); });
  CLI::App* verify_cmd = audit->add_subcommand(
      "verify",
      "Check the audit's hash chain: names each record (FILE:LINE, row ID) edited, "
      "deleted, inserted or moved; exit 1 when a link breaks");
  addStore(*verify_cmd, *o);
  verify_cmd->add_option("--head", o->head, "A head noted earlier: it must still be in the chain");
  verify_cmd->add_flag("--json", o->json, "Print the report as JSON");
  verify_cmd->callback([o, &exit_code] {
    guarded(exit_code,
            [&] { return front::printChainReport(open(*o)->verifyAudit(o->head), o->json); });
  });
}

}  // namespace toolguard::serve
