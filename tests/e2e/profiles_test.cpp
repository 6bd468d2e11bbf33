// The permission model through the real binary: a deny default is an
// allow-list, the ready-made profiles say what their model says, and one
// content rule looks at every string of a call.
#include <filesystem>
#include <map>
#include <set>

#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace profiles_test {

using nlohmann::json;

class Profiles : public Cli {
 protected:
  json call(const std::string& tool, const json& args, const std::string& mode = "") const {
    json c = {{"tool", tool}, {"args", args}, {"context", {{"cwd", dir.path().string()}}}};
    if (!mode.empty()) c["context"]["mode"] = mode;
    return c;
  }
  std::string verdict(const std::string& tool, const json& args,
                      const std::vector<std::string>& extra) const {
    return check(call(tool, args), extra)["verdict"];
  }
  std::vector<std::string> withUserFile(const std::string& name, const std::string& text) const {
    return {"--policy", dir.write(name, text).string()};
  }
};

TEST_F(Profiles, ADenyDefaultDeniesEveryToolItDoesNotAllow) {
  auto policy = withUserFile("allow-list.yaml",
                             "version: 1\ndefault: deny\nrules:\n"
                             "  - {id: reads, tool: Read, verdict: allow}\n");
  EXPECT_EQ(verdict("Read", {{"file_path", "a.txt"}}, policy), "allow");
  for (const auto& [tool, args] : std::vector<std::pair<std::string, json>>{
           {"Write", {{"file_path", "a.txt"}, {"content", "x"}}},
           {"Edit", {{"file_path", "a.txt"}, {"old_string", "a"}, {"new_string", "b"}}},
           {"move_file", {{"source", "a"}, {"destination", "b"}}},
           {"Bash", {{"command", "ls"}}},
           {"run_shell_command", {{"command", "git status"}}},
           {"WebFetch", {{"url", "https://example.com"}}},
           {"mcp__fs__write_file", {{"path", "a.txt"}}}}) {
    json d = check(call(tool, args), policy);
    EXPECT_EQ(d["verdict"], "deny") << tool << ": " << d.dump();
  }
}

// Role rules on top of a deny default: a rule for a role allows (or asks)
// what it names for that role only; every other tool stays denied for every
// role, catalog or not.
TEST_F(Profiles, ADenyDefaultHoldsUnderRoleRules) {
  auto policy =
      withUserFile("roles.yaml",
                   "version: 1\ndefault: deny\nrules:\n"
                   "  - {id: reads, tool: Read, verdict: allow}\n"
                   "  - {id: reviewer-search, tool: Grep, context: {role: reviewer},"
                   " verdict: allow}\n"
                   "  - {id: ops-shell, kind: shell, context: {role: ops}, verdict: ask}\n"
                   "  - {id: guest-no-reads, tool: Read, context: {role: guest},"
                   " verdict: deny}\n");
  auto as = [&](const std::string& role, const std::string& tool, const json& args) {
    json c = call(tool, args);
    if (!role.empty()) c["context"]["role"] = role;
    json d = check(c, policy);
    const bool by_rule = d.contains("rule") && d["rule"].is_string();
    return d["verdict"].get<std::string>() + " " + (by_rule ? d["rule"].get<std::string>() : "");
  };
  const json grep = {{"pattern", "TODO"}};
  const json ls = {{"command", "ls"}};
  EXPECT_EQ(as("reviewer", "Grep", grep), "allow reviewer-search");
  EXPECT_EQ(as("ops", "Grep", grep).substr(0, 5), "deny ");
  EXPECT_EQ(as("", "Grep", grep).substr(0, 5), "deny ");
  EXPECT_EQ(as("ops", "Bash", ls), "ask ops-shell");
  EXPECT_EQ(as("ops", "run_shell_command", ls), "ask ops-shell");
  EXPECT_EQ(as("reviewer", "Bash", ls).substr(0, 5), "deny ");
  EXPECT_EQ(as("", "Bash", ls).substr(0, 5), "deny ");
  EXPECT_EQ(as("reviewer", "Read", {{"file_path", "a.txt"}}), "allow reads");
  EXPECT_EQ(as("guest", "Read", {{"file_path", "a.txt"}}), "deny guest-no-reads");
  // No role's rule lets the catalog's tools through.
  for (const std::string role : {"reviewer", "ops", "guest", ""}) {
    for (const auto& [tool, args] : std::vector<std::pair<std::string, json>>{
             {"Write", {{"file_path", "a.txt"}, {"content", "x"}}},
             {"Edit", {{"file_path", "a.txt"}, {"old_string", "a"}, {"new_string", "b"}}},
             {"move_file", {{"source", "a"}, {"destination", "b"}}},
             {"WebFetch", {{"url", "https://example.com"}}},
             {"mcp__fs__write_file", {{"path", "a.txt"}}}}) {
      EXPECT_EQ(as(role, tool, args).substr(0, 5), "deny ") << role << " " << tool;
    }
  }
}

TEST_F(Profiles, DeveloperAssistant) {
  const std::vector<std::string> p = {"--profile", "developer-assistant"};
  EXPECT_EQ(verdict("Read", {{"file_path", "src/a.c"}}, p), "allow");
  EXPECT_EQ(verdict("Grep", {{"pattern", "TODO"}}, p), "allow");
  EXPECT_EQ(verdict("LS", {{"path", "."}}, p), "allow");
  EXPECT_EQ(verdict("Write", {{"file_path", "src/a.c"}, {"content", "x"}}, p), "ask");
  EXPECT_EQ(
      verdict("Edit", {{"file_path", "src/a.c"}, {"old_string", "a"}, {"new_string", "b"}}, p),
      "ask");
  EXPECT_EQ(verdict("move_file", {{"source", "a.txt"}, {"destination", "b.txt"}}, p), "ask");
  EXPECT_EQ(verdict("copy_file", {{"source", "a.txt"}, {"destination", "b.txt"}}, p), "ask");
  EXPECT_EQ(verdict("Bash", {{"command", "cp a.txt b.txt"}}, p), "ask");
  EXPECT_EQ(verdict("delete_file", {{"path", "a.txt"}}, p), "deny");
  EXPECT_EQ(verdict("Bash", {{"command", "rm notes.txt"}}, p), "deny");
  EXPECT_EQ(verdict("Bash", {{"command", "ls && rm -f a.o"}}, p), "deny");
  EXPECT_EQ(verdict("Bash", {{"command", "ls"}}, p), "ask");
  EXPECT_EQ(verdict("Bash", {{"command", "make test"}}, p), "ask");
  EXPECT_EQ(verdict("WebFetch", {{"url", "https://example.com"}, {"prompt", "sum"}}, p), "allow");
  EXPECT_EQ(verdict("WebSearch", {{"query", "cmake"}}, p), "allow");
  EXPECT_EQ(verdict("Bash", {{"command", "curl -X POST https://api.example.com"}}, p), "deny");
  EXPECT_EQ(verdict("Bash", {{"command", "curl -d x=1 https://api.example.com"}}, p), "deny");
  // The default policy's protections hold under the profile.
  EXPECT_EQ(verdict("Read", {{"file_path", ".env"}}, p), "ask");
}

// A generic HTTP tool reads only when its call says so and nothing else:
// GET or HEAD (in any case), the URL and the method alone.
TEST_F(Profiles, DeveloperAssistantAllowsHttpReadsOnlyWhenTheCallSaysSo) {
  const std::vector<std::string> p = {"--profile", "developer-assistant"};
  const std::string url = "https://example.com/api/items";
  auto http = [&](const std::string& tool, json args) {
    if (!args.contains("url")) args["url"] = url;
    return verdict(tool, args, p);
  };
  for (const char* method : {"GET", "HEAD", "get", "Head"}) {
    EXPECT_EQ(http("http_request", {{"method", method}}), "allow") << method;
    EXPECT_EQ(http("fetch", {{"method", method}}), "allow") << method;
  }
  EXPECT_EQ(http("mcp__web__http_request", {{"method", "GET"}}), "allow");
  // Neighbours: not known to be a read, so they ask.
  EXPECT_EQ(http("http_request", json::object()), "ask") << "no method";
  EXPECT_EQ(http("fetch", json::object()), "ask") << "no method";
  EXPECT_EQ(http("http_request", {{"method", "get "}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", " GET"}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", "GETS"}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", "OPTIONS"}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", json::array({"GET", "TRACE"})}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", json::array()}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", json::object()}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", "GET"}, {"url", 5}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", "GET"}, {"body", "{\"a\":1}"}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", "GET"}, {"body", ""}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", "GET"}, {"data", {{"a", 1}}}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", "GET"}, {"json", {{"a", 1}}}}), "ask");
  EXPECT_EQ(http("http_request",
                 {{"method", "GET"}, {"headers", {{"X-HTTP-Method-Override", "DELETE"}}}}),
            "ask");
  EXPECT_EQ(http("http_request", {{"method", "GET"}, {"follow_redirects", true}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", "GET"}, {"url", "file:///etc/passwd"}}), "ask");
  EXPECT_EQ(http("http_request", {{"method", "GET"}, {"url", "ftp://example.com/x"}}), "ask");
  EXPECT_EQ(http("http_request",
                 {{"method", "GET"},
                  {"url", "https://example.com/?key=ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}),
            "ask")
      << "a credential in the URL";
  EXPECT_EQ(http("send_request", {{"method", "GET"}}), "ask") << "not a known HTTP tool";
  // HTTP writes are denied, whatever the tool and the case.
  for (const char* method : {"POST", "put", "Patch", "DELETE"}) {
    EXPECT_EQ(http("http_request", {{"method", method}}), "deny") << method;
    EXPECT_EQ(http("fetch", {{"method", method}, {"body", "x"}}), "deny") << method;
  }
  EXPECT_EQ(http("http_request", {{"method", json::array({"GET", "POST"})}}), "deny");
  // Without the profile a generic HTTP request asks, GET or not.
  EXPECT_EQ(verdict("http_request", {{"url", url}, {"method", "GET"}}, {}), "ask");
}

TEST_F(Profiles, DocumentProcessing) {
  std::vector<std::string> p =
      withUserFile("tools.yaml",
                   "version: 1\ntools:\n"
                   "  to_pdf: {category: document, risk: low}\n"
                   "  summarize_text: {category: text, risk: medium}\n"
                   "  publish_document: {category: document, risk: high}\n");
  p.insert(p.end(), {"--profile", "document-processing"});
  EXPECT_EQ(verdict("Read", {{"file_path", "report.md"}}, p), "allow");
  EXPECT_EQ(verdict("Grep", {{"pattern", "total"}}, p), "allow");
  EXPECT_EQ(verdict("to_pdf", {{"input", "report.md"}}, p), "allow");
  EXPECT_EQ(verdict("summarize_text", {{"text", "..."}}, p), "allow");
  EXPECT_EQ(verdict("publish_document", {{"id", 1}}, p), "deny") << "above medium risk";
  EXPECT_EQ(verdict("Write", {{"file_path", "out/report.md"}, {"content", "x"}}, p), "deny");
  EXPECT_EQ(verdict("Edit", {{"file_path", "a.md"}, {"old_string", "a"}, {"new_string", "b"}}, p),
            "deny");
  EXPECT_EQ(verdict("Bash", {{"command", "pandoc in.md -o out.pdf"}}, p), "deny");
  EXPECT_EQ(verdict("WebFetch", {{"url", "https://example.com"}}, p), "deny");
  EXPECT_EQ(verdict("unknown_tool", json::object(), p), "deny");
}

TEST_F(Profiles, SafeChat) {
  std::vector<std::string> p = withUserFile("tools.yaml",
                                            "version: 1\ntools:\n"
                                            "  calculate: {category: computation, risk: low}\n"
                                            "  simulate: {category: computation, risk: medium}\n");
  p.insert(p.end(), {"--profile", "safe-chat"});
  EXPECT_EQ(verdict("calculate", {{"expression", "2+2"}}, p), "allow");
  EXPECT_EQ(verdict("simulate", {{"steps", 10}}, p), "deny") << "above low risk";
  for (const auto& [tool, args] : std::vector<std::pair<std::string, json>>{
           {"Read", {{"file_path", "README.md"}}},
           {"Write", {{"file_path", "a.txt"}, {"content", "x"}}},
           {"Glob", {{"pattern", "*"}}},
           {"WebSearch", {{"query", "weather"}}},
           {"WebFetch", {{"url", "https://example.com"}}},
           {"Bash", {{"command", "ls"}}}}) {
    EXPECT_EQ(verdict(tool, args, p), "deny") << tool;
  }
}

// Each profile carries the verdicts its model gives (its tests:), and
// `toolguard test --builtin --profile X` checks them: the verdict of the
// whole policy, not only which rule matches.
TEST_F(Profiles, EachProfilesTestsCheckTheVerdictsOfItsModel) {
  const std::map<std::string, std::map<std::string, std::string>> expected = {
      {"developer-assistant",
       {{"a read is allowed", "allow"},
        {"a copy asks", "ask"},
        {"cp asks", "ask"},
        {"a move asks", "ask"},
        {"rm is denied", "deny"},
        {"a GET through a generic HTTP tool is allowed", "allow"},
        {"a GET with a body asks", "ask"},
        {"a POST is denied", "deny"},
        {"a command asks", "ask"}}},
      {"document-processing",
       {{"a low-risk document tool is allowed", "allow"},
        {"a medium-risk text tool is allowed", "allow"},
        {"a high-risk document tool is denied", "deny"},
        {"a tool no rule allows is denied", "deny"},
        {"a write is denied", "deny"},
        {"an edit is denied", "deny"},
        {"a shell command is denied", "deny"},
        {"a web fetch is denied", "deny"}}},
      {"safe-chat",
       {{"a low-risk computation tool is allowed", "allow"},
        {"a medium-risk computation tool is denied", "deny"},
        {"a read is denied", "deny"},
        {"a write is denied", "deny"},
        {"a web search is denied", "deny"},
        {"an HTTP request is denied", "deny"},
        {"a shell command is denied", "deny"}}}};
  for (const auto& [profile, verdicts] : expected) {
    RunResult r = run({"test", "--builtin", "--profile", profile, "--json"});
    ASSERT_EQ(r.exit_code, 0) << profile << ": " << r.out;
    const json report = json::parse(r.out);
    std::map<std::string, json> cases;
    std::set<std::string> seen;
    for (const json& c : report["cases"]) {
      if (c["kind"] != "case") continue;
      const std::string source = c["source"];
      EXPECT_EQ(source.rfind("<profile:" + profile + ">:", 0), 0u) << source;
      EXPECT_TRUE(c["passed"].get<bool>()) << c.dump();
      EXPECT_EQ(c["expect"], c["got"]["verdict"]) << c.dump();
      cases[c["name"]] = c;
      seen.insert(c["got"]["verdict"].get<std::string>());
    }
    for (const auto& [name, verdict] : verdicts) {
      ASSERT_TRUE(cases.count(name)) << profile << ": " << name;
      EXPECT_EQ(cases[name]["expect"], verdict) << profile << ": " << name;
      EXPECT_EQ(cases[name]["got"]["verdict"], verdict) << profile << ": " << name;
    }
    EXPECT_TRUE(seen.count("allow") && seen.count("deny")) << profile;
    // The user's own files do not change what the profile's cases check.
    const std::string loose = dir.write("user/loose.yaml",
                                        "version: 1\ndefault: allow\nrules:\n"
                                        "  - {id: all, tool: \"*\", verdict: allow}\n")
                                  .string();
    r = run({"test", "--builtin", "--profile", profile, "-q"});
    EXPECT_EQ(r.exit_code, 0) << profile << ": " << r.out;
    std::filesystem::remove(loose);
  }
  // Without --builtin, or without the profile, its cases are not run.
  RunResult r = run({"test", "--builtin", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json report = json::parse(r.out);  // kept: a loop over a temporary's member dangles
  for (const json& c : report["cases"]) {
    EXPECT_EQ(c["source"].get<std::string>().find("developer-assistant"), std::string::npos);
  }
}

TEST_F(Profiles, OneContentRuleLooksAtEveryStringOfTheCall) {
  auto p = withUserFile("content.yaml",
                        "version: 1\nrules:\n"
                        "  - id: never-prod\n    content: [prod-db]\n    verdict: abort\n"
                        "    reason: production is off limits\n");
  for (const json& c :
       {call("mcp__db__query", {{"sql", "select 1"}, {"target", {{"host", "PROD-DB.internal"}}}}),
        call("mcp__db__query", {{"hosts", json::array({"dev", json::array({"x prod-db y"})})}}),
        call("Write", {{"file_path", "notes.md"}, {"content", "connect to prod\u200b-db"}}),
        call("Bash", {{"command", "psql -h pro''d-db -c 'select 1'"}}),
        call("Bash", {{"command", "psql -h \"prod\"-db"}}),
        call("some_tool", {{"prod-db", true}})}) {
    json d = check(c, p);
    EXPECT_EQ(d["verdict"], "abort") << c.dump() << " -> " << d.dump();
    EXPECT_EQ(d["rule"], "never-prod");
  }
  for (const json& c : {call("mcp__db__query", {{"target", "staging-db"}}),
                        call("Bash", {{"command", "psql -h dev-db"}})}) {
    EXPECT_NE(check(c, p)["verdict"], "abort") << c.dump();
  }
  // A rule with no term is an error at its line and column.
  auto bad =
      withUserFile("bad.yaml", "version: 1\nrules:\n  - {id: x, content: [], verdict: deny}\n");
  RunResult r = run({"check", bad[0], bad[1]}, call("Read", {{"file_path", "a"}}).dump());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("bad.yaml:3:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("content: no term and no pattern"), std::string::npos) << r.out;
}

}  // namespace profiles_test
}  // namespace toolguard::testing
