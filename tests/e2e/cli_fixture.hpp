#pragma once
// The e2e fixture: runs the real binary in an isolated environment (its own
// HOME, toolguard home, user and managed directories), so a developer's
// configuration never leaks into a test and a test never writes into it.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

namespace toolguard::testing {

class Cli : public ::testing::Test {
 protected:
  TempDir dir;

  std::map<std::string, std::string> env() const {
    return {{"HOME", (dir.path() / "home").string()},
            // The default (HOME/.toolguard) spelled out: the caller's
            // TOOLGUARD_HOME must not receive the tests' approvals and audit.
            {"TOOLGUARD_HOME", (dir.path() / "home/.toolguard").string()},
            {"TOOLGUARD_CONFIG_DIR", (dir.path() / "user").string()},
            {"TOOLGUARD_MANAGED_DIR", (dir.path() / "managed").string()},
            {"XDG_CONFIG_HOME", ""},
            // The developer's LLM validator must not judge the tests' calls.
            {"TOOLGUARD_LLM", ""},
            {"TOOLGUARD_LLM_BASE_URL", ""},
            {"TOOLGUARD_LLM_MODEL", ""},
            {"TOOLGUARD_LLM_API_KEY", ""},
            {"TOOLGUARD_LLM_MAX_TURNS", ""},
            {"TOOLGUARD_LLM_TIMEOUT_MS", ""},
            {"BITCODE_GUARD", ""},
            {"BITCODE_GUARD_BASE_URL", ""},
            {"BITCODE_GUARD_MODEL", ""},
            {"BITCODE_GUARD_API_KEY", ""},
            {"BITCODE_GUARD_LLM", ""},
            {"BITCODE_GUARD_LLM_BASE_URL", ""},
            {"BITCODE_GUARD_LLM_MODEL", ""},
            {"BITCODE_GUARD_LLM_API_KEY", ""}};
  }

  RunResult run(const std::vector<std::string>& args, const std::string& input = "",
                const std::string& cwd = "") const {
    std::string where = cwd.empty() ? dir.path().string() : cwd;
    return runBinary(TOOLGUARD_BINARY, args, input, env(), where);
  }

  /// `toolguard check` of one toolguard-format call; the parsed decision.
  nlohmann::json check(const nlohmann::json& call, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"check"};
    args.insert(args.end(), extra.begin(), extra.end());
    RunResult r = run(args, call.dump());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  }

  /// `toolguard check --batch` of many toolguard-format calls in one
  /// process; the parsed decisions, in order.
  std::vector<nlohmann::json> checkBatch(const std::vector<nlohmann::json>& calls,
                                         std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"check", "--batch"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::string input;
    for (const nlohmann::json& call : calls) input += call.dump() + "\n";
    RunResult r = run(args, input);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<nlohmann::json> decisions;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      decisions.push_back(nlohmann::json::parse(line));
    }
    EXPECT_EQ(decisions.size(), calls.size()) << r.err;
    decisions.resize(calls.size());
    return decisions;
  }

  static std::string data(const std::string& relative) {
    return slurp(std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/" + relative);
  }
};

}  // namespace toolguard::testing
