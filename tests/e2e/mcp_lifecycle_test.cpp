// `toolguard mcp` when the server misbehaves: it dies with requests pending,
// it ignores SIGTERM, it cannot be started, it writes garbage. Tiny shell
// scripts stand in for servers so each failure is exact.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace mcp_lifecycle_test {

using nlohmann::json;

class McpLifecycle : public Cli {
 protected:
  /// Runs the proxy (no terminal: setsid) with `server` as an sh script and
  /// `input` as what the client sends; returns the lines it answered.
  RunResult proxy(const std::string& server, const std::string& input,
                  std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"-w",         TOOLGUARD_BINARY,      "mcp", "--name", "fake",
                                     "--no-audit", "--shutdown-grace-ms", "200"};
    args.insert(args.end(), extra.begin(), extra.end());
    for (const char* word : {"--", "sh", "-c"}) args.emplace_back(word);
    args.push_back(server);
    return runBinary("/usr/bin/setsid", args, input, env(), dir.path().string());
  }
  static std::vector<json> lines(const std::string& out) {
    std::vector<json> parsed;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) parsed.push_back(json::parse(line));
    return parsed;
  }
};

TEST_F(McpLifecycle, AServerThatDiesLeavesNoRequestUnanswered) {
  // Reads two requests, answers none, exits with 3.
  RunResult r =
      proxy("read a; read b; exit 3", R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})"
                                      "\n"
                                      R"({"jsonrpc":"2.0","id":"two","method":"prompts/list"})"
                                      "\n");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  std::vector<json> answers = lines(r.out);
  ASSERT_EQ(answers.size(), 2u) << r.out;
  for (const json& a : answers) {
    EXPECT_EQ(a["error"]["code"], -32000) << a;
    EXPECT_NE(a["error"]["message"].get<std::string>().find("exit code 3"), std::string::npos);
  }
}

TEST_F(McpLifecycle, AServerIgnoringSigtermIsKilledAfterTheClientLeaves) {
  auto start = std::chrono::steady_clock::now();
  RunResult r = proxy("trap '' TERM; exec 0<&-; while :; do sleep 0.05; done", "");
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.exit_code, 0) << r.err;  // the proxy stopped it: a normal end
  EXPECT_LT(took, std::chrono::seconds(10));
}

TEST_F(McpLifecycle, AMissingServerIsAClearError) {
  std::vector<std::string> args = {"mcp", "--name", "x", "--no-audit", "--", "/nonexistent/srv"};
  RunResult r = run(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot start /nonexistent/srv"), std::string::npos) << r.err;
}

TEST_F(McpLifecycle, GarbageFromTheServerIsDroppedAndReported) {
  RunResult r = proxy(R"(read a; echo 'not json'; echo '{"jsonrpc":"2.0","id":1,"result":{}}')",
                      R"({"jsonrpc":"2.0","id":1,"method":"ping"})"
                      "\n");
  std::vector<json> answers = lines(r.out);
  ASSERT_EQ(answers.size(), 1u) << r.out;
  EXPECT_EQ(answers[0]["id"], 1);
  EXPECT_NE(r.err.find("invalid message (dropped)"), std::string::npos) << r.err;
}

TEST_F(McpLifecycle, AnOversizedClientMessageIsRefusedNotForwarded) {
  std::string big = R"({"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":")" +
                    std::string(4096, 'a') + "\"}}\n";
  RunResult r =
      proxy("cat > " + (dir.path() / "received").string(), big, {"--max-message-bytes", "1024"});
  std::vector<json> answers = lines(r.out);
  ASSERT_EQ(answers.size(), 1u) << r.out;
  EXPECT_EQ(answers[0]["error"]["code"], -32600);
  EXPECT_EQ(slurp((dir.path() / "received").string()), "");
}

TEST_F(McpLifecycle, ABadServerNameIsAUsageError) {
  RunResult r = run({"mcp", "--name", "a__b", "--no-audit", "--", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("__"), std::string::npos) << r.err;
}

}  // namespace mcp_lifecycle_test
}  // namespace toolguard::testing
