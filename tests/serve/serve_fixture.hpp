#pragma once
// The fixture of `toolguard serve`'s tests: an isolated home, tokens made with
// the real `toolguard serve token add`, real serve processes, and an HTTP
// client (cpp-httplib, keep-alive) to talk to them.

#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/stat.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/run_binary.hpp"
#include "support/serve_process.hpp"
#include "support/temp_dir.hpp"

namespace toolguard::testing {

class Serve : public ::testing::Test {
 public:  // helpers of a test's own functions too
  TempDir dir;
  std::string store = "file";

  std::map<std::string, std::string> env() const {
    return {{"HOME", (dir.path() / "home").string()},
            {"TOOLGUARD_HOME", (dir.path() / "home/.toolguard").string()},
            {"TOOLGUARD_CONFIG_DIR", (dir.path() / "user").string()},
            {"TOOLGUARD_MANAGED_DIR", (dir.path() / "managed").string()},
            {"XDG_CONFIG_HOME", ""},
            {"TOOLGUARD_SERVER", ""},
            {"TOOLGUARD_TOKEN", ""},
            {"TOOLGUARD_LLM", ""},
            {"TOOLGUARD_LLM_BASE_URL", ""},
            {"TOOLGUARD_LLM_MODEL", ""},
            {"TOOLGUARD_LLM_API_KEY", ""}};
  }

  RunResult run(const std::vector<std::string>& args, const std::string& input = "",
                std::map<std::string, std::string> extra = {}) const {
    std::map<std::string, std::string> e = env();
    for (auto& [k, v] : extra) e[k] = v;
    return runBinary(TOOLGUARD_BINARY, args, input, e, dir.path().string());
  }

  /// `toolguard serve token add`: the token (its last line of stdout). Its
  /// owner is `owner`, else a person named as the token.
  std::string token(const std::string& role, const std::string& name,
                    const std::string& owner = "") const {
    RunResult r = run({"serve", "token", "add", "--role", role, "--name", name, "--owner",
                       owner.empty() ? name : owner, "--store", store});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string out = r.out;
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
  }

  std::unique_ptr<ServeProcess> start(std::vector<std::string> args = {}) const {
    args.insert(args.begin(), {"--store", store});
    return std::make_unique<ServeProcess>(TOOLGUARD_BINARY, args, env(),
                                          (dir.path() / "serve.log").string());
  }

  static std::unique_ptr<httplib::Client> client(const ServeProcess& s, const std::string& token) {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", s.port());
    c->set_read_timeout(60, 0);
    if (!token.empty()) c->set_bearer_token_auth(token);
    return c;
  }

  /// The pending asks the approver sees, polled until there are `n` (10 s at most).
  static nlohmann::json pendingAsks(httplib::Client& approver, size_t n) {
    nlohmann::json asks = nlohmann::json::array();
    for (int i = 0; i < 400; ++i) {
      auto r = approver.Get("/v1/asks?state=pending");
      if (r && r->status == 200) asks = nlohmann::json::parse(r->body);
      if (asks.size() >= n) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return asks;
  }

  static nlohmann::json call(const std::string& command, const std::string& cwd = "/tmp") {
    return {{"tool", "Bash"}, {"args", {{"command", command}}}, {"context", {{"cwd", cwd}}}};
  }
};

/// The same on a throw-away PostgreSQL cluster (scripts/pg-cluster.sh).
class ServePostgres : public Serve {
 protected:
  std::unique_ptr<PgCluster> db;

  void SetUp() override {
    chmod(dir.path().c_str(), 0755);  // the cluster's owner must reach it
    db = std::make_unique<PgCluster>((dir.path() / "pg").string());
    store = db->url();
  }
};

}  // namespace toolguard::testing
