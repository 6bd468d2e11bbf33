// `toolguard audit tail|query`: the audit log read back, as readable lines
// or as a JSON array.
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli/commands.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/terminal_prompt.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::json;

struct AuditOptions {
  std::string log;   // --log
  std::string home;  // --home
  bool json = false;
  size_t lines = 20;  // tail -n
  std::string since, until, tool, verdict, rule;
  size_t last = 0;
};

std::string field(const json& record, const char* key) {
  auto it = record.find(key);
  if (it == record.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  return it->dump(-1, ' ', false, json::error_handler_t::replace);
}

// TIME VERDICT TOOL [malformed] [rule=ID] [policy=VERDICT] [by=WHO] reason=TEXT
std::string readableLine(const json& record) {
  if (record.contains("unreadable")) {
    std::string line = terminalSafe(field(record, "file"));
    line += ':';
    line += field(record, "line");
    line += ": unreadable: ";
    line += terminalSafe(field(record, "unreadable"));
    return line;
  }
  auto orDash = [](std::string text) { return text.empty() ? std::string("-") : text; };
  std::string line = terminalSafe(orDash(field(record, "time")));
  line += ' ';
  line += terminalSafe(orDash(field(record, "verdict")));
  line += ' ';
  line += terminalSafe(orDash(field(record, "tool")));
  if (auto malformed = record.find("malformed"); malformed != record.end() && *malformed == true) {
    line += " malformed";
  }
  if (const std::string rule = field(record, "rule"); !rule.empty()) {
    line += " rule=";
    line += terminalSafe(rule);
  }
  const std::string policy = field(record, "policy_verdict");
  if (!policy.empty() && policy != field(record, "verdict")) {
    line += " policy=";
    line += terminalSafe(policy);
  }
  if (auto approval = record.find("approval"); approval != record.end() && approval->is_object()) {
    if (const std::string by = field(*approval, "by"); !by.empty()) {
      line += " by=";
      line += terminalSafe(by);
    }
  }
  line += " reason=";
  line += terminalSafe(field(record, "reason"));
  return line;
}

void print(const std::vector<json>& records, bool as_json) {
  if (as_json) {
    // One record per line; \u escapes keep every character visible.
    std::cout << '[';
    for (size_t i = 0; i < records.size(); ++i) {
      std::cout << (i == 0 ? "\n" : ",\n")
                << records[i].dump(-1, ' ', true, json::error_handler_t::replace);
    }
    std::cout << (records.empty() ? "]\n" : "\n]\n");
  } else {
    for (const json& record : records) std::cout << readableLine(record) << '\n';
  }
  std::cout << std::flush;
}

int usageError(const std::string& command, const std::string& message) {
  std::cerr << "toolguard audit " << command << ": " << message << "\n";
  return kExitError;
}

int run(const std::string& command, const AuditOptions& o, AuditQuery query) {
  std::string path = o.log;
  if (path.empty()) {
    const std::string home = toolguardHome(o.home);
    if (home.empty()) {
      return usageError(command, "no home directory: give --home DIR or --log FILE");
    }
    path = home + "/audit.jsonl";
  }
  std::vector<json> records;
  try {
    records = readAuditLog(path, query);
  } catch (const AuditLogError& e) {
    std::cerr << "toolguard audit " << command << ": " << e.what() << "\n";
    return kExitError;
  }
  print(records, o.json);
  return kExitOk;
}

int runTail(const AuditOptions& o) {
  if (o.lines == 0) {
    print({}, o.json);
    return kExitOk;
  }
  AuditQuery query;
  query.last = o.lines;
  return run("tail", o, query);
}

int runQuery(const AuditOptions& o) {
  AuditQuery query;
  constexpr const char* kTimeForms =
      "expected an RFC 3339 time (2026-11-23T10:00:00Z, 2026-11-23T11:00:00.5+01:00) or a date "
      "(2026-11-23)";
  if (!o.since.empty()) {
    query.since = parseAuditTime(o.since);
    if (!query.since) {
      return usageError(
          "query", "--since: " + std::string(kTimeForms) + ", got '" + terminalSafe(o.since) + "'");
    }
  }
  if (!o.until.empty()) {
    query.until = parseAuditTime(o.until);
    if (!query.until) {
      return usageError(
          "query", "--until: " + std::string(kTimeForms) + ", got '" + terminalSafe(o.until) + "'");
    }
  }
  if (!o.verdict.empty() && o.verdict != "allow" && o.verdict != "ask" && o.verdict != "deny" &&
      o.verdict != "abort") {
    return usageError("query", "--verdict: expected allow, ask, deny or abort, got '" +
                                   terminalSafe(o.verdict) + "'");
  }
  query.tool = o.tool;
  query.verdict = o.verdict;
  query.rule = o.rule;
  query.last = o.last;
  return run("query", o, query);
}

// A count of records: digits only (no sign, so -1 is not read as a huge number).
const CLI::Validator kCount(
    [](std::string& text) -> std::string {
      if (!text.empty() && text.size() <= 18 &&
          text.find_first_not_of("0123456789") == std::string::npos) {
        return "";
      }
      return "expected a number of records (0, 1, 2, ...), got '" + terminalSafe(text) + "'";
    },
    "");

void addLogOptions(CLI::App* cmd, AuditOptions& o) {
  cmd->add_option("--log", o.log, "The audit log file (default: HOME/audit.jsonl)")
      ->type_name("FILE");
  cmd->add_option("--home", o.home,
                  "The toolguard home directory (default: $TOOLGUARD_HOME, else ~/.toolguard)")
      ->type_name("DIR");
  cmd->add_flag("--json", o.json, "Print a JSON array of the records instead of readable lines");
}

}  // namespace

void addAuditCommand(CLI::App& app, int& exit_code) {
  CLI::App* audit = app.add_subcommand(
      "audit",
      "Read the audit log (HOME/audit.jsonl and its rotated files): every decision, one JSON "
      "line each");
  audit->require_subcommand(1);

  auto tail_options = std::make_shared<AuditOptions>();
  CLI::App* tail = audit->add_subcommand(
      "tail",
      "Print the last records, oldest first: TIME VERDICT TOOL rule=ID reason=TEXT (with "
      "policy=VERDICT when resolution changed it and by=WHO when an ask was settled)");
  tail->add_option("-n,--lines", tail_options->lines, "How many records (default 20)")
      ->type_name("N")
      ->check(kCount);
  addLogOptions(tail, *tail_options);
  tail->callback([tail_options, &exit_code] { exit_code = runTail(*tail_options); });

  auto query_options = std::make_shared<AuditOptions>();
  CLI::App* query = audit->add_subcommand(
      "query",
      "Print the records that match every filter given, oldest first. Lines of the log that "
      "cannot be read are always printed, so nothing is hidden.");
  query
      ->add_option("--since", query_options->since,
                   "Records at or after this time (RFC 3339, or a date: midnight UTC)")
      ->type_name("TIME");
  query->add_option("--until", query_options->until, "Records before this time")->type_name("TIME");
  query->add_option("--tool", query_options->tool, "Tool name or wildcard pattern (Bash, mcp__*)")
      ->type_name("PATTERN");
  query->add_option("--verdict", query_options->verdict, "allow, ask, deny or abort")
      ->type_name("VERDICT");
  query->add_option("--rule", query_options->rule, "Rule id or wildcard pattern")
      ->type_name("PATTERN");
  query->add_option("--last", query_options->last, "Only the last N matches")
      ->type_name("N")
      ->check(kCount);
  addLogOptions(query, *query_options);
  query->callback([query_options, &exit_code] { exit_code = runQuery(*query_options); });
}

}  // namespace toolguard::cli
