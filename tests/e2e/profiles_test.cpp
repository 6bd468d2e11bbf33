// The permission model through the real binary: a deny default is an
// allow-list, the ready-made profiles say what their model says, and one
// content rule looks at every string of a call.
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
