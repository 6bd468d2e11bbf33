// `toolguard audit tail|query` through the real binary, on log files written
// here line by line in the format the library writes.
#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace audit_test {

using nlohmann::json;

json record(const std::string& time, const std::string& tool, const std::string& verdict,
            const std::string& rule, const std::string& reason) {
  json r = {{"time", time},
            {"id", "0123456789abcdef0123456789abcdef"},
            {"tool", tool},
            {"args", {{"command", "ls"}}},
            {"context", {{"cwd", "/work/app"}, {"mode", "interactive"}}},
            {"verdict", verdict},
            {"policy_verdict", verdict},
            {"reason", reason},
            {"basis", rule.empty() ? "default" : "rule"}};
  if (!rule.empty()) r["rule"] = rule;
  return r;
}

std::string jsonLines(const std::vector<json>& records) {
  std::string text;
  for (const json& r : records) text += r.dump() + "\n";
  return text;
}

std::vector<json> sample() {
  return {
      record("2026-11-20T09:00:00.000Z", "Bash", "allow", "", "no rule matched"),
      record("2026-11-21T09:00:00.000Z", "Bash", "deny", "rm-root", "deletes the root"),
      record("2026-11-22T09:00:00.000Z", "Read", "deny", "secrets", "reads a key"),
      record("2026-11-23T09:00:00.000Z", "Bash", "ask", "network", "sends data"),
      record("2026-11-23T10:00:00.250Z", "Bash", "deny", "rm-home", "deletes the home"),
  };
}

class Audit : public Cli {
 protected:
  // Runs with the fixture's environment minus TOOLGUARD_HOME, plus `extra`.
  RunResult audit(const std::vector<std::string>& args,
                  const std::map<std::string, std::string>& extra = {}) const {
    std::map<std::string, std::string> environment = env();
    environment["TOOLGUARD_HOME"] = "";  // an empty value removes it
    for (const auto& [key, value] : extra) environment[key] = value;
    std::vector<std::string> full = {"audit"};
    full.insert(full.end(), args.begin(), args.end());
    return runBinary(TOOLGUARD_BINARY, full, "", environment, dir.path().string());
  }

  std::string writeSample(const std::string& relative = "logs/audit.jsonl") const {
    return dir.write(relative, jsonLines(sample())).string();
  }
};

TEST_F(Audit, TailPrintsTheLastRecordsReadably) {
  const std::string log = writeSample();
  RunResult r = audit({"tail", "-n", "2", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "2026-11-23T09:00:00.000Z ask Bash \"ls\" rule=network reason=sends data\n"
            "2026-11-23T10:00:00.250Z deny Bash \"ls\" rule=rm-home reason=deletes the home\n");
  EXPECT_EQ(r.err, "");

  r = audit({"tail", "--log", log, "-n", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(Audit, TailShowsTwentyByDefaultAndWhoSettledAnAsk) {
  std::vector<json> records;
  for (int i = 0; i < 25; ++i) {
    records.push_back(
        record("2026-11-23T10:00:" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".000Z",
               "Tool" + std::to_string(i), "allow", "", "r"));
  }
  records.back()["policy_verdict"] = "ask";
  records.back()["approval"] = {{"by", "terminal"}, {"outcome", "allow-once"}};
  const std::string log = dir.write("audit.jsonl", jsonLines(records)).string();
  RunResult r = audit({"tail", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> out;
  for (size_t start = 0, end; (end = r.out.find('\n', start)) != std::string::npos;
       start = end + 1) {
    out.push_back(r.out.substr(start, end - start));
  }
  ASSERT_EQ(out.size(), 20u) << r.out;
  EXPECT_EQ(out.front(), "2026-11-23T10:00:05.000Z allow Tool5 reason=r");
  EXPECT_EQ(out.back(), "2026-11-23T10:00:24.000Z allow Tool24 policy=ask by=terminal reason=r");
}

TEST_F(Audit, QueryFiltersByToolAndVerdictAsJson) {
  const std::string log = writeSample();
  RunResult r = audit({"query", "--tool", "Ba*", "--verdict", "deny", "--json", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  ASSERT_TRUE(out.is_array()) << r.out;
  ASSERT_EQ(out.size(), 2u) << r.out;
  EXPECT_EQ(out[0], sample()[1]);
  EXPECT_EQ(out[1], sample()[4]);

  r = audit({"query", "--rule", "rm-*", "--last", "1", "--json", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), json::array({sample()[4]}));

  r = audit({"query", "--tool", "Nothing", "--json", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), json::array());
}

TEST_F(Audit, QueryFiltersByTime) {
  const std::string log = writeSample();
  RunResult r = audit({"query", "--since", "2026-11-23", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "2026-11-23T09:00:00.000Z ask Bash \"ls\" rule=network reason=sends data\n"
            "2026-11-23T10:00:00.250Z deny Bash \"ls\" rule=rm-home reason=deletes the home\n");

  // 10:00+01:00 is 09:00 UTC; --since is inclusive, --until exclusive.
  r = audit({"query", "--since", "2026-11-22T10:00:00+01:00", "--until", "2026-11-23T10:00:00.250Z",
             "--json", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), json::array({sample()[2], sample()[3]}));
}

TEST_F(Audit, BadFlagsAreUsageErrorsNamingTheFlag) {
  const std::string log = writeSample();
  for (const auto& [flag, value] :
       std::vector<std::pair<std::string, std::string>>{{"--since", "yesterday"},
                                                        {"--until", "2026-13-01"},
                                                        {"--since", "2026-11-23T10:00:00"},
                                                        {"--verdict", "maybe"},
                                                        {"--verdict", "escalate"}}) {
    RunResult r = audit({"query", flag, value, "--log", log});
    EXPECT_EQ(r.exit_code, 2) << flag << " " << value;
    EXPECT_EQ(r.out, "") << flag;
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(value), std::string::npos) << r.err;
  }
  RunResult r = audit({"query", "--last", "many", "--log", log});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--last"), std::string::npos) << r.err;
  r = audit({"tail", "-n", "x", "--log", log});
  EXPECT_EQ(r.exit_code, 2);
  r = audit({"tail", "-n", "-1", "--log", log});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--lines"), std::string::npos) << r.err;
  r = audit({});
  EXPECT_EQ(r.exit_code, 2);
}

TEST_F(Audit, TheLogIsFoundUnderTheHomeFlagTheEnvironmentOrHome) {
  auto one = [](const std::string& tool) {
    return jsonLines({record("2026-11-23T10:00:00.000Z", tool, "allow", "", "r")});
  };
  dir.write("home/.toolguard/audit.jsonl", one("FromHome"));
  dir.write("env-home/audit.jsonl", one("FromEnvironment"));
  dir.write("flag-home/audit.jsonl", one("FromFlag"));
  const std::string env_home = (dir.path() / "env-home").string();
  const std::string flag_home = (dir.path() / "flag-home").string();

  RunResult r = audit({"tail"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "2026-11-23T10:00:00.000Z allow FromHome reason=r\n");

  r = audit({"tail"}, {{"TOOLGUARD_HOME", env_home}});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "2026-11-23T10:00:00.000Z allow FromEnvironment reason=r\n");

  r = audit({"query", "--home", flag_home}, {{"TOOLGUARD_HOME", env_home}});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "2026-11-23T10:00:00.000Z allow FromFlag reason=r\n");

  // --log wins over everything.
  const std::string log = writeSample();
  r = audit({"tail", "-n", "1", "--home", flag_home, "--log", log}, {{"TOOLGUARD_HOME", env_home}});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "2026-11-23T10:00:00.250Z deny Bash \"ls\" rule=rm-home reason=deletes the home\n");
}

TEST_F(Audit, AnAbsentLogIsEmptyAnUnreadableOneAnError) {
  const std::string missing = (dir.path() / "none" / "audit.jsonl").string();
  RunResult r = audit({"tail", "--log", missing});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  r = audit({"query", "--json", "--log", missing});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), json::array());

  // A directory where the log should be cannot be read.
  const std::string not_a_file = (dir.path() / "logdir").string();
  dir.write("logdir/placeholder", "");
  r = audit({"tail", "--log", not_a_file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(not_a_file), std::string::npos) << r.err;
}

TEST_F(Audit, RotatedFilesAndUnreadableLinesAreShown) {
  const std::vector<json> s = sample();
  dir.write("logs/audit.jsonl.2", jsonLines({s[0]}));
  dir.write("logs/audit.jsonl.1", jsonLines({s[1]}));
  const std::string log = dir.write("logs/audit.jsonl", jsonLines({s[2]}) + "not json\n").string();
  RunResult r = audit({"tail", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "2026-11-20T09:00:00.000Z allow Bash \"ls\" reason=no rule matched\n"
            "2026-11-21T09:00:00.000Z deny Bash \"ls\" rule=rm-root reason=deletes the root\n"
            "2026-11-22T09:00:00.000Z deny Read rule=secrets reason=reads a key\n" +
                log + ":2: unreadable: not json\n");
  r = audit({"query", "--json", "--tool", "Read", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out),
            json::array({s[2], {{"unreadable", "not json"}, {"file", log}, {"line", 2}}}));
}

TEST_F(Audit, ControlCharactersArePrintedVisibly) {
  json hostile = record("2026-11-23T10:00:00.000Z", "Ba\x1b[8msh", "deny", "r\x07",
                        "clear\x1b[2J\x1b[31mred\nsecond line \xe2\x80\xae reversed \xc2\x9b");
  hostile["args"] = {{"command", "printf '\x1b]0;title\x07'"}};
  const std::string log =
      dir.write("audit.jsonl", jsonLines({hostile}) + "\x1b[2Jraw\nbad \xff byte\n").string();

  RunResult r = audit({"tail", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\xe2\x80\xae"), std::string::npos) << r.out;
  EXPECT_EQ(r.out,
            "2026-11-23T10:00:00.000Z deny Ba\\x1b[8msh rule=r\\x07 "
            "reason=clear\\x1b[2J\\x1b[31mred\\nsecond line \\u202e reversed \\u009b\n" +
                log + ":2: unreadable: \\x1b[2Jraw\n" + log + ":3: unreadable: bad \\xff byte\n");

  r = audit({"query", "--json", "--log", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\xe2\x80\xae"), std::string::npos) << r.out;
  const json out = json::parse(r.out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0]["args"], hostile["args"]);
  EXPECT_EQ(out[1]["unreadable"], "\x1b[2Jraw");
  EXPECT_EQ(out[2]["unreadable"], "bad \xef\xbf\xbd byte");  // U+FFFD
}

// Malformed calls are decisions too: `check` writes them, `audit` reads them back.
TEST_F(Audit, MalformedCallsFromEveryCheckFormatAreAuditedRedactedAndCut) {
  const std::string home = (dir.path() / "tg").string();
  auto check = [&](const std::vector<std::string>& extra, const std::string& input) {
    std::vector<std::string> args = {"check", "--home", home};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args, input);
  };
  // toolguard's format: a key twice, and a credential in text that does not parse.
  RunResult r = check({}, R"({"tool":"Bash","args":{"command":"ls","command":"rm -rf ~"}})");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = check({}, R"({"tool":"Bash","args":{"password":"hunter2","key":"ghp_)" +
                    std::string(36, 'a') + R"(", )");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Claude Code's hook format (exit 2), and a --batch with a line too large to keep.
  r = check({"--format", "claude"}, R"({"tool_name":"Bash","tool_input":"rm -rf /"})");
  EXPECT_EQ(r.exit_code, 2);
  std::string huge = R"({"tool":"Write","args":{"content":")" + std::string(70 << 20, 'x') + "\"}}";
  r = check({"--batch"}, "garbage\n" + huge + "\n" +
                             R"({"tool":"Read","args":{"file_path":"a"},"context":{"cwd":"/w"}})" +
                             "\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;

  r = audit({"query", "--home", home, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json records = json::parse(r.out);
  ASSERT_EQ(records.size(), 6u) << r.out;  // five malformed, one allowed Read
  for (size_t i = 0; i < 5; ++i) {
    SCOPED_TRACE(records[i].dump());
    EXPECT_EQ(records[i]["malformed"], true);
    EXPECT_EQ(records[i]["verdict"], "deny");
    EXPECT_EQ(records[i]["basis"], "error");
    EXPECT_FALSE(records[i]["error"].get<std::string>().empty());
    EXPECT_TRUE(records[i]["input"].is_string());
  }
  EXPECT_EQ(records[5]["tool"], "Read");
  EXPECT_FALSE(records[5].contains("malformed"));

  // The duplicate key: the whole input kept as sent, both values visible.
  EXPECT_EQ(records[0]["input"], R"({"tool":"Bash","args":{"command":"ls","command":"rm -rf ~"}})");
  EXPECT_NE(records[0]["error"].get<std::string>().find("at /args/command"), std::string::npos);
  EXPECT_EQ(records[0]["format"], "toolguard");
  // Secrets redacted though the text does not parse, the reader's quote left out.
  std::string second = records[1].dump();
  EXPECT_EQ(second.find("hunter2"), std::string::npos) << second;
  EXPECT_EQ(second.find("ghp_aaaa"), std::string::npos) << second;
  EXPECT_NE(records[1]["input"].get<std::string>().find(R"("password":"[REDACTED]")"),
            std::string::npos);
  EXPECT_EQ(records[2]["format"], "claude");
  EXPECT_NE(records[2]["error"].get<std::string>().find("tool_input"), std::string::npos);
  EXPECT_EQ(records[3]["input"], "garbage");
  // The large line: its first 4 KiB, and said to be cut.
  EXPECT_EQ(records[4]["input_truncated"], true);
  EXPECT_EQ(records[4]["input"].get<std::string>().size(), 4096u);
  EXPECT_EQ(records[4]["input_bytes"], huge.size());
  EXPECT_NE(records[4]["error"].get<std::string>().find("larger than"), std::string::npos);

  r = audit({"tail", "-n", "1", "--home", home});
  EXPECT_NE(r.out.find("allow Read"), std::string::npos) << r.out;
  r = audit({"query", "--home", home, "--verdict", "deny"});
  EXPECT_NE(r.out.find(" deny - malformed reason=invalid call: duplicate key"), std::string::npos)
      << r.out;
}

}  // namespace audit_test
}  // namespace toolguard::testing
