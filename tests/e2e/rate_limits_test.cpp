// Rate limits through the real binary: each `toolguard check` is a process
// of its own, so the windows are counted in HOME/rate-limits.json.
#include <filesystem>
#include <sstream>

#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace rate_limits_test {

namespace fs = std::filesystem;
using nlohmann::json;

const char* const kLimits = R"(version: 1
rate_limits:
  - tool: Bash
    max_calls: 2
    window: 1m
)";

class RateLimits : public Cli {
 protected:
  fs::path home() const { return dir.path() / "tg-home"; }
  fs::path countsFile() const { return home() / "rate-limits.json"; }
  std::string policy(const char* text = kLimits) const {
    return dir.write("limits.yaml", text).string();
  }

  /// The decision of one `toolguard check` process.
  json checkOnce(const std::string& tool, const json& args, const std::string& session = "s1") {
    json call = {
        {"tool", tool}, {"args", args}, {"context", {{"cwd", "/w"}, {"session", session}}}};
    return check(call, {"--home", home().string(), "--policy", policy()});
  }
};

TEST_F(RateLimits, HoldAcrossCheckProcesses) {
  json ls = {{"command", "ls"}};
  EXPECT_EQ(checkOnce("Bash", ls)["verdict"], "allow");
  EXPECT_EQ(checkOnce("Bash", ls)["verdict"], "allow");
  json third = checkOnce("Bash", ls);
  EXPECT_EQ(third["verdict"], "deny");
  EXPECT_EQ(third["basis"], "rate-limit");
  EXPECT_NE(third["reason"].get<std::string>().find("rate limit: at most 2 calls of Bash"),
            std::string::npos)
      << third;
  EXPECT_NE(third["reason"].get<std::string>().find("limits.yaml:3:5"), std::string::npos);
  EXPECT_NE(third["model_reason"].get<std::string>().find("retry in"), std::string::npos);
  // Counted per session; other tools are not limited.
  EXPECT_EQ(checkOnce("Bash", ls, "s2")["verdict"], "allow");
  EXPECT_EQ(checkOnce("Read", {{"file_path", "a"}})["verdict"], "allow");
  // A call that is not allowed takes no place: the third was refused, not counted.
  json counts = json::parse(slurp(countsFile().string()));
  ASSERT_EQ(counts["windows"].size(), 2u) << counts;
  for (const json& window : counts["windows"]) {
    EXPECT_EQ(window["window_ms"], 60000);
    EXPECT_LE(window["calls"].size(), 2u);
  }
}

TEST_F(RateLimits, AnAskThatIsNotAllowedIsNotCounted) {
  // `sudo` asks (reported to the agent, not allowed by toolguard): it does not count.
  json sudo = {{"command", "sudo make install"}};
  EXPECT_EQ(checkOnce("Bash", sudo)["verdict"], "ask");
  EXPECT_EQ(checkOnce("Bash", sudo)["verdict"], "ask");
  EXPECT_EQ(checkOnce("Bash", {{"command", "ls"}})["verdict"], "allow");
  EXPECT_EQ(checkOnce("Bash", {{"command", "ls"}})["verdict"], "allow");
  EXPECT_EQ(checkOnce("Bash", {{"command", "ls"}})["verdict"], "deny");
}

TEST_F(RateLimits, ConcurrentProcessesNeverExceedTheLimit) {
  dir.write("limits.yaml", R"(version: 1
rate_limits:
  - tool: Bash
    max_calls: 3
    window: 10m
)");
  dir.write("call.json",
            R"({"tool":"Bash","args":{"command":"ls"},"context":{"cwd":"/w","session":"s"}})");
  // 10 processes started at once, each writing its decision to out.N.
  const std::string script =
      "for i in 0 1 2 3 4 5 6 7 8 9; do \"$1\" check --home \"$2\" --policy \"$3\" < \"$4\" > "
      "\"$5/out.$i\" 2>&1 & done; wait";
  RunResult r = runBinary(
      "/bin/sh",
      {"-c", script, "sh", TOOLGUARD_BINARY, home().string(), (dir.path() / "limits.yaml").string(),
       (dir.path() / "call.json").string(), dir.path().string()},
      "", env(), dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int allowed = 0, limited = 0;
  for (int i = 0; i < 10; ++i) {
    std::string out = slurp((dir.path() / ("out." + std::to_string(i))).string());
    json d = json::parse(out, nullptr, false);
    ASSERT_FALSE(d.is_discarded()) << out;
    if (d["verdict"] == "allow") ++allowed;
    if (d["verdict"] == "deny" && d["basis"] == "rate-limit") ++limited;
  }
  EXPECT_EQ(allowed, 3);
  EXPECT_EQ(limited, 7);
}

TEST_F(RateLimits, ACorruptCountsFileIsReportedKeptAndDeniesLimitedCalls) {
  fs::create_directories(home());
  const std::string garbage = "{\"version\": 1, \"windows\": [oops\n";
  dir.write("tg-home/rate-limits.json", garbage);
  json d = checkOnce("Bash", {{"command", "ls"}});
  EXPECT_EQ(d["verdict"], "deny");
  std::string reason = d["reason"];
  EXPECT_NE(reason.find("could not be counted"), std::string::npos) << reason;
  EXPECT_NE(reason.find(countsFile().string()), std::string::npos) << reason;
  EXPECT_EQ(slurp(countsFile().string()), garbage);  // kept as it was
  // Calls no limit applies to do not read it.
  EXPECT_EQ(checkOnce("Read", {{"file_path", "a"}})["verdict"], "allow");
}

TEST_F(RateLimits, APolicyWithoutLimitsNeverTouchesTheFile) {
  json call = {{"tool", "Bash"}, {"args", {{"command", "ls"}}}, {"context", {{"cwd", "/w"}}}};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(check(call, {"--home", home().string()})["verdict"], "allow");
  }
  EXPECT_FALSE(fs::exists(countsFile()));
  EXPECT_FALSE(fs::exists(home() / "rate-limits.json.lock"));
}

}  // namespace rate_limits_test
}  // namespace toolguard::testing
