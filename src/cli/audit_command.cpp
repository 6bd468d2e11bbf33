// `toolguard audit tail|query`: the audit log read back, as readable lines
// (verdicts in colour on a terminal) or as a JSON array; `tail --follow`
// keeps printing what is appended.
#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>

#include "cli/audit_follow.hpp"
#include "cli/commands.hpp"
#include "cli/option_flags.hpp"
#include "front/audit_line.hpp"
#include "front/colour.hpp"
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
  bool lines_given = false;
  bool follow = false;  // tail --follow
  std::string colour = "auto";
  std::string since, until, tool, verdict, rule;
  size_t last = 0;
  std::string head;  // verify --head
};

constexpr const char* kTimeForms =
    "expected an RFC 3339 time (2026-11-23T10:00:00Z, 2026-11-23T11:00:00.5+01:00), a date "
    "(2026-11-23) or a time back from now (90s, 15m, 1h, 2d, 1w)";

// --since and --until into the query; false (with the message printed) when malformed.
bool readTimes(const std::string& command, const AuditOptions& o, AuditQuery& query);

void printAudit(const std::vector<json>& records, bool as_json, bool colour) {
  if (as_json) {
    // One record per line; \u escapes keep every character visible.
    std::cout << '[';
    for (size_t i = 0; i < records.size(); ++i) {
      std::cout << (i == 0 ? "\n" : ",\n")
                << records[i].dump(-1, ' ', true, json::error_handler_t::replace);
    }
    std::cout << (records.empty() ? "]\n" : "\n]\n");
  } else {
    for (const json& record : records)
      std::cout << front::readableAuditLine(record, colour) << '\n';
  }
  std::cout << std::flush;
}

int usageError(const std::string& command, const std::string& message) {
  std::cerr << "toolguard audit " << command << ": " << message << "\n";
  return kExitError;
}

// The log file the options name; "" (with the message printed) when there is none.
std::string logPath(const std::string& command, const AuditOptions& o) {
  if (!o.log.empty()) return o.log;
  const std::string home = toolguardHome(o.home);
  if (home.empty()) {
    usageError(command, "no home directory: give --home DIR or --log FILE");
    return "";
  }
  return home + "/audit.jsonl";
}

// The size of the log now: where following starts (0 when there is no log yet).
std::uintmax_t sizeNow(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  return ec ? 0 : size;
}

// Prints the records `query` selects (none when `history` is false), then,
// with --follow, every record appended after them.
int runAudit(const std::string& command, const AuditOptions& o, AuditQuery query,
             bool history = true) {
  const std::string path = logPath(command, o);
  if (path.empty()) return kExitError;
  const bool colour = !o.json && front::colourWanted(o.colour, STDOUT_FILENO);
  // Taken before reading, so that nothing appended meanwhile is missed; what
  // is printed twice is recognized by its id.
  const std::uintmax_t offset = sizeNow(path);
  std::vector<json> records;
  if (history) {
    try {
      records = readAuditLog(path, query);
    } catch (const AuditLogError& e) {
      std::cerr << "toolguard audit " << command << ": " << e.what() << "\n";
      return kExitError;
    }
  }
  if (!o.follow) {
    printAudit(records, o.json, colour);
    return kExitOk;
  }
  // Following: JSON Lines instead of an array, which would never be closed.
  std::set<std::string> seen;
  auto printOne = [&](const json& record) {
    if (o.json) {
      std::cout << record.dump(-1, ' ', true, json::error_handler_t::replace) << '\n';
    } else {
      std::cout << front::readableAuditLine(record, colour) << '\n';
    }
    std::cout << std::flush;
  };
  for (const json& record : records) {
    if (auto id = record.find("id"); id != record.end() && id->is_string()) seen.insert(*id);
    printOne(record);
  }
  const Expected<void> followed = followAuditLog(path, offset, seen, printOne);
  std::cerr << "toolguard audit " << command << ": " << followed.error() << "\n";
  return kExitError;
}

bool readTimes(const std::string& command, const AuditOptions& o, AuditQuery& query) {
  const auto now = std::chrono::system_clock::now();
  if (!o.since.empty()) {
    query.since = parseAuditSince(o.since, now);
    if (!query.since) {
      usageError(command,
                 "--since: " + std::string(kTimeForms) + ", got '" + terminalSafe(o.since) + "'");
      return false;
    }
  }
  if (!o.until.empty()) {
    query.until = parseAuditSince(o.until, now);
    if (!query.until) {
      usageError(command,
                 "--until: " + std::string(kTimeForms) + ", got '" + terminalSafe(o.until) + "'");
      return false;
    }
  }
  return true;
}

int runTail(const AuditOptions& o) {
  AuditQuery query;
  if (!readTimes("tail", o, query)) return kExitError;
  // -n counts the records shown; with --since every record since then, unless -n is given too.
  query.last = o.since.empty() || o.lines_given ? o.lines : 0;
  return runAudit("tail", o, query, /*history=*/query.last > 0 || !o.lines_given);
}

int runQuery(const AuditOptions& o) {
  AuditQuery query;
  if (!readTimes("query", o, query)) return kExitError;
  if (!o.verdict.empty() && o.verdict != "allow" && o.verdict != "ask" && o.verdict != "deny" &&
      o.verdict != "abort") {
    return usageError("query", "--verdict: expected allow, ask, deny or abort, got '" +
                                   terminalSafe(o.verdict) + "'");
  }
  query.tool = o.tool;
  query.verdict = o.verdict;
  query.rule = o.rule;
  query.last = o.last;
  return runAudit("query", o, query);
}

int runVerify(const AuditOptions& o) {
  const std::string path = logPath("verify", o);
  if (path.empty()) return kExitError;
  try {
    return front::printChainReport(verifyAuditLog(path, o.head), o.json);
  } catch (const AuditLogError& e) {
    std::cerr << "toolguard audit verify: " << e.what() << "\n";
    return kExitError;
  }
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

// --log and --home: which log.
void addLogLocation(CLI::App* cmd, AuditOptions& o) {
  cmd->add_option("--log", o.log, "The audit log file (default: HOME/audit.jsonl)")
      ->type_name("FILE");
  cmd->add_option("--home", o.home,
                  "The toolguard home directory (default: $TOOLGUARD_HOME, else ~/.toolguard)")
      ->type_name("DIR");
}

void addLogOptions(CLI::App* cmd, AuditOptions& o) {
  addLogLocation(cmd, o);
  cmd->add_flag("--json", o.json, "Print a JSON array of the records instead of readable lines");
  addColourOption(*cmd, o.colour);
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
      "Print the last records, oldest first: TIME VERDICT TOOL \"COMMAND\" or \"PATH\" "
      "rule=ID reason=TEXT (with policy=VERDICT when resolution changed it and by=WHO when an "
      "ask was settled); --follow keeps printing new ones");
  tail->add_option("-n,--lines", tail_options->lines,
                   "How many records (default 20; with --since, every record since then)")
      ->type_name("N")
      ->check(kCount)
      ->each([o = tail_options.get()](const std::string&) { o->lines_given = true; });
  tail->add_option("--since", tail_options->since,
                   "Records at or after this time: RFC 3339, a date (midnight UTC), or a time "
                   "back from now (90s, 15m, 1h, 2d, 1w)")
      ->type_name("TIME");
  tail->add_flag("-f,--follow", tail_options->follow,
                 "Keep printing records as they are appended (with --json, one JSON object per "
                 "line) until stopped");
  addLogOptions(tail, *tail_options);
  tail->callback([tail_options, &exit_code] { exit_code = runTail(*tail_options); });

  auto query_options = std::make_shared<AuditOptions>();
  CLI::App* query = audit->add_subcommand(
      "query",
      "Print the records that match every filter given, oldest first. Lines of the log that "
      "cannot be read are always printed, so nothing is hidden.");
  query
      ->add_option("--since", query_options->since,
                   "Records at or after this time: RFC 3339, a date (midnight UTC), or a time "
                   "back from now (90s, 15m, 1h, 2d, 1w)")
      ->type_name("TIME");
  query->add_option("--until", query_options->until, "Records before this time (same forms)")
      ->type_name("TIME");
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

  auto verify_options = std::make_shared<AuditOptions>();
  CLI::App* verify = audit->add_subcommand(
      "verify",
      "Check the audit's hash chain (every record carries the hash of the one before): names "
      "each record edited, deleted, inserted or moved (FILE:LINE), and prints the head to note. "
      "Exit 0 when every link holds, 1 when not, 2 when the log cannot be read. With --store "
      "URL, the audit of a PostgreSQL store (row ids)");
  verify
      ->add_option("--head", verify_options->head,
                   "A head printed by an earlier verify: it must still be in the chain (finds "
                   "records removed from the end)")
      ->type_name("HASH");
  addLogLocation(verify, *verify_options);
  verify->add_flag("--json", verify_options->json, "Print the report as JSON");
  verify->callback([verify_options, &exit_code] { exit_code = runVerify(*verify_options); });
}

}  // namespace toolguard::cli
