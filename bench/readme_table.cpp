// `scripts/bench.sh --readme`: turns one run of the benchmarks (Google
// Benchmark's JSON) into the README's performance table, each row beside the
// floor it is measured against, as a ratio, and writes it between the
// README's `<!-- bench:begin -->` and `<!-- bench:end -->` lines.
//
// Usage: toolguard_bench_readme --filter          (the benchmarks the table needs)
//        toolguard_bench_readme RESULTS.json README.md
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Row {
  const char* benchmark;  ///< the run's name ("BM_DecideExactName/10000")
  const char* baseline;   ///< its floor, or "" for a floor itself
  const char* what;
  const char* target;   ///< what the issues ask for, or ""
  bool median = false;  ///< a latency: its median call (p50_us) and what it adds to its floor
  /// Started in turn with its floor in one loop: the medians and ratio are
  /// the run's counters (check_ms, floor_ms, ratio).
  bool beside_floor = false;
};

// The floors: a bare process start, a direct call, a plain lookup, the typical case.
const Row kRows[] = {
    {"BM_SpawnTrueProcess", "", "`/bin/true` started the same way (the floor)", ""},
    {"BM_CheckProcess", "BM_SpawnTrueProcess",
     "one `toolguard check` process, built-in policy (spawn, load, decide, print, exit)", "≤ 2×"},
    {"BM_CheckProcessUserPolicy", "BM_SpawnTrueProcess",
     "the same with a 50-rule user policy and a trusted project's 10 rules", "≤ 2×"},
    {"BM_CheckProcessWithSession", "BM_SpawnTrueProcess",
     "the same call in a session that remembers a web fetch (load, label, append)", "≤ 2.2×"},
    {"BM_CheckProcessBesideFloor", "",
     "one `toolguard check` process and `/bin/true` started in turn, medians", "≤ 2×", false, true},
    {"BM_CheckProcessWithSessionBesideFloor", "",
     "the session's check and `/bin/true` started in turn, medians", "≤ 2.2×", false, true},
    {"BM_CheckProcessUserPolicyBesideFloor", "",
     "the 50-rule user policy's check and `/bin/true` started in turn, medians", "≤ 2×", false,
     true},
    {"BM_SpawnToolguardVersion", "BM_SpawnTrueProcess", "`toolguard --version`", "≤ 1.3×"},
    {"BM_SpawnTrueThroughEnv", "BM_SpawnTrueProcess",
     "`env /bin/true`: a launcher that only execs the command (the floor of any launcher)", ""},
    {"BM_SandboxedTrueProcess", "BM_SpawnTrueProcess",
     "`toolguard sandbox -- /bin/true` (namespaces, Landlock, seccomp)", "≤ 1.5×"},
    {"BM_MapLookupBaseline/10000", "", "a `std::unordered_map` lookup of a ready decision record",
     ""},
    {"BM_DecideExactName/10000", "BM_MapLookupBaseline/10000",
     "decision by exact tool name, 10,000 rules", "≤ 3×"},
    {"BM_DecideWildcardName/10000", "BM_MapLookupBaseline/10000",
     "decision by wildcard tool name, 10,000 rules", "≤ 3×"},
    {"BM_DecideNoRuleMatches/10000", "BM_MapLookupBaseline/10000",
     "decision when no rule matches, 10,000 rules", "≤ 3×"},
    {"BM_LoadBuiltinPolicy", "BM_SpawnTrueProcess",
     "loading the built-in policy in a program (`PolicyBuilder().profile(\"default\")`)", ""},
    {"BM_DecideShellTypical", "", "deciding `git status && make -j4 test 2>&1 | tail -n 20`", ""},
    {"BM_DecideShellTypicalMetBefore", "BM_DecideShellTypical",
     "the same command line again in a long-lived process (its parse kept)", ""},
    {"BM_DecideShellHostile", "BM_DecideShellTypical",
     "deciding `echo ok; sudo bash -c 'rm -r -f \"$HOME\"' | cat` (unwrapped twice)", ""},
    {"BM_DecideShellLong4KiB", "BM_DecideShellTypical",
     "deciding a 4 KiB command line (about 80 simple commands)", "≤ 20×"},
    {"BM_ToolDirect", "", "a small tool called directly", ""},
    {"BM_ToolViaRegistry", "BM_ToolDirect",
     "the same tool through `ToolRegistry::executeTool` (decision, JSON Schema, pipeline)", ""},
    {"BM_ServeCheckFileStore/min_time:2.000/real_time/threads:1", "",
     "`toolguard serve`, file store: one client's checks over a keep-alive connection", ""},
    {"BM_ServeCheckUnderConnectionFlood/min_time:3.000/real_time",
     "BM_ServeCheckFileStore/min_time:2.000/real_time/threads:1",
     "the same while 1,000 idle and 200 trickling connections from another address are held",
     "≤ 1.5×"},
    {"BM_CheckBatchThroughput", "",
     "`toolguard check --batch`, 2,000 mixed file and shell calls in one process (calls/s)",
     "≥ 50,000 calls/s"},
    // MCP routes: the median of one client's sequential calls (p50).
    {"BM_McpCallDirect/32", "", "an MCP `tools/call` straight to a stdio server (p50)", "", true},
    {"BM_McpCallThroughProxy/32", "BM_McpCallDirect/32",
     "the same call through `toolguard mcp -- SERVER` (p50)", "< 100 µs added", true},
    {"BM_McpCallThroughGateway/32", "BM_McpCallDirect/32",
     "the same call through `toolguard mcp --gateway`, as SERVER__TOOL (p50)", "< 100 µs added",
     true},
    {"BM_McpCallDirectOverHttp/32", "",
     "an MCP `tools/call` straight to a Streamable HTTP server, connection kept (p50)", "", true},
    {"BM_McpCallThroughProxyOverHttp/32", "BM_McpCallDirectOverHttp/32",
     "the same call through `toolguard mcp --url` (p50)", "< 100 µs added", true},
    {"BM_McpCallThroughGatewayOverHttp/32", "BM_McpCallDirectOverHttp/32",
     "the same call through `toolguard mcp --gateway` with the server's url (p50)",
     "< 100 µs added", true},
    {"BM_McpCallThroughHttpFace/32", "BM_McpCallDirectOverHttp/32",
     "a client POSTing to `toolguard mcp --gateway FILE --listen` (a stdio server behind it, an "
     "agent's token; p50)",
     "< 100 µs added", true},
};

std::string formatTime(double ns) {
  char text[64];
  if (ns >= 1e6) {
    std::snprintf(text, sizeof text, "%.2f ms", ns / 1e6);
  } else if (ns >= 1e3) {
    std::snprintf(text, sizeof text, "%.1f µs", ns / 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.0f ns", ns);
  }
  return text;
}

double nanoseconds(const nlohmann::json& run, bool median) {
  // A latency row's median call.
  if (auto p50 = run.find("p50_us"); median && p50 != run.end()) {
    return p50->get<double>() * 1e3;
  }
  const double time = run.at("real_time").get<double>();
  const std::string unit = run.value("time_unit", "ns");
  if (unit == "ms") return time * 1e6;
  if (unit == "us") return time * 1e3;
  if (unit == "s") return time * 1e9;
  return time;
}

std::string table(const nlohmann::json& results) {
  std::map<std::string, const nlohmann::json*> runs;
  for (const nlohmann::json& run : results.at("benchmarks")) {
    // One run each (or the median of repetitions when there are several).
    const std::string aggregate = run.value("aggregate_name", "");
    if (!aggregate.empty() && aggregate != "median") continue;
    // By its name, and without the /real_time Google Benchmark adds (a row
    // may name either).
    std::string name = run.value("run_name", run.value("name", ""));
    runs[name] = &run;
    if (name.ends_with("/real_time")) runs[name.substr(0, name.size() - 10)] = &run;
    if (name.ends_with("/manual_time")) runs[name.substr(0, name.size() - 12)] = &run;
  }
  std::ostringstream out;
  out << "| what | time | floor | ratio | asked for |\n| --- | --- | --- | --- | --- |\n";
  for (const Row& row : kRows) {
    auto found = runs.find(row.benchmark);
    if (found == runs.end())
      throw std::runtime_error(std::string("no result for ") + row.benchmark);
    const double ns = nanoseconds(*found->second, row.median);
    std::string what = row.what;  // a `|` in a cell must not end it
    for (size_t at = what.find('|'); at != std::string::npos; at = what.find('|', at + 2)) {
      what.replace(at, 1, "\\|");
    }
    out << "| " << what << " (`" << row.benchmark << "`) | ";
    if (row.beside_floor) {
      const nlohmann::json& run = *found->second;
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.2f×", run.at("ratio").get<double>());
      out << formatTime(run.at("check_ms").get<double>() * 1e6) << " | `/bin/true` in turn, "
          << formatTime(run.at("floor_ms").get<double>() * 1e6) << " | " << ratio << " | "
          << row.target << " |\n";
      continue;
    }
    if (auto rate = found->second->find("items_per_second");
        rate != found->second->end() && !row.median) {
      char text[32];
      std::snprintf(text, sizeof text, "%.0f/s", rate->get<double>());
      out << text << " | ";
    } else {
      out << formatTime(ns) << " | ";
    }
    if (*row.baseline == '\0') {
      out << "— | — | " << row.target << " |\n";
      continue;
    }
    auto floor = runs.find(row.baseline);
    if (floor == runs.end()) throw std::runtime_error(std::string("no result for ") + row.baseline);
    const double floor_ns = nanoseconds(*floor->second, row.median);
    char ratio[64];
    if (row.median) {
      // A latency: what the route adds to its floor, too.
      std::snprintf(ratio, sizeof ratio, "%.1f× (+%s)", ns / floor_ns,
                    formatTime(ns - floor_ns).c_str());
    } else {
      std::snprintf(ratio, sizeof ratio, "%.1f×", ns / floor_ns);
    }
    out << "`" << row.baseline << "` | " << ratio << " | " << row.target << " |\n";
  }
  const nlohmann::json& context = results.at("context");
  out << "\nOne run of `scripts/bench.sh --readme` on " << context.value("host_name", "?") << " ("
      << context.value("num_cpus", 0) << " CPUs, " << context.value("date", "?") << ").\n";
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 2 && std::string(argv[1]) == "--filter") {
      std::string filter;
      for (const Row& row : kRows) {
        filter += (filter.empty() ? "^(" : "|") + std::string(row.benchmark);
      }
      std::cout << filter << ")(/real_time|/manual_time)?$\n";
      return 0;
    }
    if (argc != 3) {
      std::cerr << "usage: toolguard_bench_readme --filter | RESULTS.json README.md\n";
      return 2;
    }
    std::ifstream results_file(argv[1]);
    const nlohmann::json results = nlohmann::json::parse(results_file);
    std::ifstream readme_in(argv[2]);
    std::stringstream readme;
    readme << readme_in.rdbuf();
    std::string text = readme.str();
    const std::string begin = "<!-- bench:begin -->\n", end = "<!-- bench:end -->";
    const size_t from = text.find(begin), to = text.find(end);
    if (from == std::string::npos || to == std::string::npos || to < from) {
      throw std::runtime_error(std::string(argv[2]) + " has no bench:begin/bench:end lines");
    }
    text.replace(from + begin.size(), to - from - begin.size(), table(results));
    std::ofstream(argv[2]) << text;
  } catch (const std::exception& e) {
    std::cerr << "toolguard_bench_readme: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
