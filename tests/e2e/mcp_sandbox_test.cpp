// `toolguard mcp --sandbox`: the server itself runs under `toolguard
// sandbox`, so a policy that lets a call through still cannot make the
// server write outside the directories the proxy serves.
#include "e2e/mcp_proxy_fixture.hpp"
#include "support/test_listener.hpp"

namespace toolguard::testing {
namespace mcp_proxy_test {

TEST_F(McpProxy, ASandboxedServerWritesOnlyInTheDirectoriesItServes) {
  if (const std::string why = sandboxKernelShortfall(TOOLGUARD_BINARY); !why.empty()) {
    GTEST_SKIP() << why;
  }
  // A policy far too loose: every call of the server is allowed, and the
  // server itself was started with a directory outside the workspace.
  const std::string policy =
      dir.write("policies/loose.yaml",
                "rules:\n  - {id: every-fs-call, tool: \"mcp__fs__*\", verdict: allow}\n")
          .string();
  const fs::path outside = dir.path() / "home/outside";
  fs::create_directories(outside);
  const std::string ws = workspace().string();
  for (bool sandbox : {false, true}) {
    SCOPED_TRACE(sandbox ? "sandboxed" : "not sandboxed");
    std::vector<std::string> args = {
        "mcp",          "--name",   "fs",  "--workspace", ws, "--audit-log", auditLog().string(),
        "--no-builtin", "--policy", policy};
    if (sandbox) args.emplace_back("--sandbox");
    for (const std::string& word :
         {std::string("--"), std::string(NODE_BINARY), kServer, ws, outside.string()}) {
      args.push_back(word);
    }
    json script = {{"command", TOOLGUARD_BINARY}, {"args", args}};
    script["steps"] = json::array(
        {callStep("write_file", {{"path", ws + "/inside.txt"}, {"content", "in"}}),
         callStep("write_file", {{"path", (outside / "escape.txt").string()}, {"content", "x"}}),
         callStep("read_text_file", {{"path", ws + "/notes.txt"}})});
    ClientRun r = runClient(script);
    ASSERT_EQ(r.run.exit_code, 0) << r;
    EXPECT_EQ(slurp(ws + "/inside.txt"), "in");
    EXPECT_EQ(toolResultText(r.step(2).value("result", json::object())),
              "the notes of the workspace\n")
        << r;
    const json escape = r.step(1).value("result", json::object());
    if (!sandbox) {
      // The premise: nothing but the sandbox stands in the way.
      EXPECT_TRUE(fs::exists(outside / "escape.txt")) << r;
      fs::remove(outside / "escape.txt");
    } else {
      EXPECT_FALSE(fs::exists(outside / "escape.txt")) << r;
      EXPECT_TRUE(escape.value("isError", false)) << r;
      const std::string text = toolResultText(escape);
      EXPECT_TRUE(text.find("EROFS") != std::string::npos ||
                  text.find("EACCES") != std::string::npos)
          << text;
    }
    fs::remove(ws + "/inside.txt");
  }
}

// A confined server's network is the policy's: through toolguard's proxy to
// the hosts the policy grants, and nowhere else (a small server whose one
// tool fetches a URL).
TEST_F(McpProxy, ASandboxedServerReachesOnlyTheHostsThePolicyGrants) {
  if (const std::string why = sandboxKernelShortfall(TOOLGUARD_BINARY); !why.empty()) {
    GTEST_SKIP() << why;
  }
  TestHttpServer listed("from the listed host");
  TestHttpServer unlisted("from the unlisted host");
  const std::string policy =
      dir.write("policies/web.yaml",
                "rules:\n  - {id: fetches, tool: \"mcp__web__fetch\", verdict: allow}\n"
                "sandbox:\n  network: proxy\n  hosts: [\"127.0.0.1:" +
                    listed.portText() + "\"]\n")
          .string();
  const std::string server = std::string(TOOLGUARD_SOURCE_DIR) + "/tests/mcp-peers/fetch_server.py";
  for (bool sandbox : {false, true}) {
    SCOPED_TRACE(sandbox ? "sandboxed" : "not sandboxed");
    std::vector<std::string> args = {"mcp",
                                     "--name",
                                     "web",
                                     "--workspace",
                                     workspace().string(),
                                     "--audit-log",
                                     auditLog().string(),
                                     "--no-builtin",
                                     "--policy",
                                     policy};
    if (sandbox) args.emplace_back("--sandbox");
    for (const std::string& word : {std::string("--"), std::string("/usr/bin/python3"), server}) {
      args.push_back(word);
    }
    json script = {{"command", TOOLGUARD_BINARY}, {"args", args}};
    script["steps"] = json::array(
        {callStep("fetch", {{"url", "http://127.0.0.1:" + listed.portText() + "/a"}}),
         callStep("fetch", {{"url", "http://127.0.0.1:" + unlisted.portText() + "/b"}})});
    ClientRun r = runClient(script);
    ASSERT_EQ(r.run.exit_code, 0) << r;
    EXPECT_EQ(toolResultText(r.step(0).value("result", json::object())), "from the listed host")
        << r;
    const json second = r.step(1).value("result", json::object());
    if (!sandbox) {
      EXPECT_EQ(toolResultText(second), "from the unlisted host") << r;  // the premise
    } else {
      EXPECT_TRUE(second.value("isError", false)) << r;
      EXPECT_NE(toolResultText(second).find("403"), std::string::npos) << r;
    }
  }
  EXPECT_EQ(unlisted.requests().size(), 1u) << "only the unconfined run reached it";
}

}  // namespace mcp_proxy_test
}  // namespace toolguard::testing
