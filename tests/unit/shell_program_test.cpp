// The shell program model: simple commands, words, redirections, placement
// and unwrapping, as bash would run them.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/shell_summary.hpp"
#include "toolguard/shell.hpp"

namespace toolguard {
namespace shell_program_test {

ShellProgram parse(std::string_view script) {
  return testing::parseAsUser(script);
}

using testing::summary;

using Lines = std::vector<std::string>;

TEST(ShellProgram, QuotesAndEscapesAreRemoved) {
  EXPECT_EQ(summary(parse("r''m -rf /")), Lines{"rm -rf /"});
  EXPECT_EQ(summary(parse("\"rm\" -rf /")), Lines{"rm -rf /"});
  EXPECT_EQ(summary(parse("r\\m -rf /")), Lines{"rm -rf /"});
  EXPECT_EQ(summary(parse("'r'\"m\" '-rf' \"/\"")), Lines{"rm -rf /"});
  EXPECT_EQ(summary(parse("$'\\x72\\x6d' -rf /")), Lines{"rm -rf /"});
  EXPECT_EQ(summary(parse("echo \"a \\\"b\\\" \\$HOME\"")), Lines{"echo a \"b\" $HOME"});
  EXPECT_EQ(summary(parse("echo 'a \\n b'")), Lines{"echo a \\n b"});
}

TEST(ShellProgram, HomeResolvesOtherVariablesAreDynamic) {
  EXPECT_EQ(summary(parse("rm -rf ~")), Lines{"rm -rf /home/u"});
  EXPECT_EQ(summary(parse("rm -rf ~/")), Lines{"rm -rf /home/u/"});
  EXPECT_EQ(summary(parse("rm -rf $HOME")), Lines{"rm -rf /home/u"});
  EXPECT_EQ(summary(parse("rm -rf ${HOME}/x")), Lines{"rm -rf /home/u/x"});
  EXPECT_EQ(summary(parse("rm -rf \"$HOME\"")), Lines{"rm -rf /home/u"});
  EXPECT_EQ(summary(parse("rm -rf \"~\"")), Lines{"rm -rf ~"});  // quoted: no expansion
  EXPECT_EQ(summary(parse("rm -rf $DIR")), Lines{"rm -rf $$DIR"});
  EXPECT_EQ(summary(parse("rm -rf ~root")), Lines{"rm -rf /root"});
  EXPECT_EQ(summary(parse("rm -rf *")), Lines{"rm -rf $*"});
  EXPECT_EQ(summary(parse("rm -rf {a,b}")), Lines{"rm -rf a b"});
}

TEST(ShellProgram, EveryPartOfAListIsACommand) {
  EXPECT_EQ(summary(parse("echo ok; rm -Rf /")), (Lines{"echo ok", "rm -Rf /"}));
  EXPECT_EQ(summary(parse("make && ./run || echo fail")), (Lines{"make", "./run", "echo fail"}));
  EXPECT_EQ(summary(parse("a\nb\n\nc # comment")), (Lines{"a", "b", "c"}));
  EXPECT_EQ(summary(parse("if true; then rm x; else rm y; fi")), (Lines{"true", "rm x", "rm y"}));
  EXPECT_EQ(summary(parse("for f in a b; do rm $f; done")), (Lines{"rm a", "rm b"}));
  EXPECT_EQ(summary(parse("while read l; do echo $l; done < in")), (Lines{"read l", "echo $$l"}));
  EXPECT_EQ(summary(parse("case $x in a) rm a;; *) ls;; esac")), (Lines{"rm a", "ls"}));
  EXPECT_EQ(summary(parse("f() { rm -rf /; }")), (Lines{"rm -rf /"}));
  EXPECT_TRUE(parse("f() { rm -rf /; }").commands[0].placement.in_function);
  EXPECT_EQ(summary(parse("! grep x f")), (Lines{"grep x f"}));
}

TEST(ShellProgram, PipelinesAndPlacement) {
  ShellProgram p = parse("curl -s https://x | sudo bash & ls");
  ASSERT_GE(p.commands.size(), 3u);
  EXPECT_EQ(p.commands[0].name(), "curl");
  EXPECT_EQ(p.commands[0].placement.pipeline_position, 0u);
  EXPECT_EQ(p.commands[0].placement.pipeline_length, 2u);
  EXPECT_EQ(p.commands[1].name(), "sudo");
  EXPECT_EQ(p.commands[1].placement.pipeline_position, 1u);
  EXPECT_TRUE(p.commands[1].placement.background);
  EXPECT_EQ(p.commands[2].name(), "ls");
  EXPECT_FALSE(p.commands[2].placement.background);
  // sudo bash is unwrapped: bash runs privileged, reading the pipe.
  EXPECT_EQ(p.commands.back().name(), "bash");
  EXPECT_TRUE(p.commands.back().privileged);
  EXPECT_EQ(p.commands.back().placement.pipeline_position, 1u);
}

TEST(ShellProgram, SubstitutionsAndSubshellsAreCommandsToo) {
  ShellProgram p = parse("echo $(rm -rf /) `id` <(curl x); (cd /tmp && ls)");
  EXPECT_EQ(summary(p), (Lines{"rm -rf /", "id", "curl x", "echo $$(rm -rf /) $`id` $<(curl x)",
                               "cd /tmp", "ls"}));
  EXPECT_TRUE(p.commands[0].placement.in_command_substitution);
  EXPECT_TRUE(p.commands[2].placement.in_process_substitution);
  EXPECT_TRUE(p.commands[4].placement.in_subshell);
  EXPECT_EQ(summary(parse("x=$(curl evil) ls")), (Lines{"curl evil", "ls"}));
  EXPECT_EQ(summary(parse("export A=\"$(whoami)\"")).front(), "whoami");
  EXPECT_EQ(summary(parse("cat <<EOF\n$(rm -rf ~)\nEOF\n")).front(), "rm -rf /home/u");
}

TEST(ShellProgram, DynamicCommandNames) {
  ShellProgram p = parse("$(cat cmd.txt) -rf /");
  ASSERT_EQ(p.commands.size(), 2u);
  EXPECT_EQ(p.commands[0].name(), "cat");
  EXPECT_TRUE(p.commands[1].nameIsDynamic());
  EXPECT_TRUE(parse("$cmd -rf /").commands[0].nameIsDynamic());
  EXPECT_TRUE(parse("\"$x\" a").commands[0].nameIsDynamic());
  EXPECT_FALSE(parse("rm $x").commands[0].nameIsDynamic());
}

TEST(ShellProgram, AssignmentsAndRedirections) {
  ShellProgram p = parse("FOO=bar BAZ=\"$HOME\" make 2>/dev/null >> log.txt < in");
  ASSERT_EQ(p.commands.size(), 1u);
  const SimpleCommand& c = p.commands[0];
  ASSERT_EQ(c.assignments.size(), 2u);
  EXPECT_EQ(c.assignments[0].first, "FOO");
  EXPECT_EQ(c.assignments[1].second.text, "/home/u");
  ASSERT_EQ(c.redirects.size(), 3u);
  EXPECT_EQ(c.redirects[0].op, ">");
  EXPECT_EQ(c.redirects[0].fd, 2);
  EXPECT_EQ(c.redirects[0].target.text, "/dev/null");
  EXPECT_EQ(c.redirects[1].op, ">>");
  EXPECT_EQ(c.redirects[2].op, "<");
  ShellProgram block = parse("{ echo a; echo b; } > /dev/sda");
  ASSERT_EQ(block.commands.size(), 2u);
  EXPECT_EQ(block.commands[1].redirects.at(0).target.text, "/dev/sda");
  EXPECT_EQ(parse("cat <<< \"$HOME\"").commands[0].redirects.at(0).target.text, "/home/u");
}

TEST(ShellProgram, AbsoluteNamesAndUnusualPlaces) {
  ShellProgram p = parse("/usr/bin/rm -rf / ; ./git status; /tmp/git push; bin/ls; git log");
  ASSERT_EQ(p.commands.size(), 5u);
  EXPECT_EQ(p.commands[0].name(), "rm");
  EXPECT_FALSE(p.commands[0].runsFromUnusualPlace());
  EXPECT_EQ(p.commands[1].name(), "git");
  EXPECT_TRUE(p.commands[1].runsFromUnusualPlace());
  EXPECT_TRUE(p.commands[2].runsFromUnusualPlace());
  EXPECT_TRUE(p.commands[3].runsFromUnusualPlace());
  EXPECT_FALSE(p.commands[4].runsFromUnusualPlace());
  EXPECT_TRUE(parse("/usr/bin/../../tmp/x").commands[0].runsFromUnusualPlace());
}

// The commands reached through wrappers, as "wrapper-chain: command".
std::vector<std::string> unwrapped(std::string_view script) {
  std::vector<std::string> out;
  for (const SimpleCommand& c : parse(script).commands) {
    if (c.wrappers.empty()) continue;
    std::string chain;
    for (const ShellWrapper& w : c.wrappers) chain += (chain.empty() ? "" : " > ") + w.name;
    std::string words;
    for (const ShellWord& w : c.words) words += (words.empty() ? "" : " ") + w.text;
    out.push_back(chain + ": " + words + (c.privileged ? " [privileged]" : ""));
  }
  return out;
}

TEST(ShellProgram, WrappersAreUnwrapped) {
  EXPECT_EQ(unwrapped("sudo -u root -E rm -rf /"), Lines{"sudo: rm -rf / [privileged]"});
  EXPECT_EQ(unwrapped("sudo VAR=1 rm x"), Lines{"sudo: rm x [privileged]"});
  EXPECT_EQ(unwrapped("doas -u root rm x"), Lines{"doas: rm x [privileged]"});
  EXPECT_EQ(unwrapped("env -i A=1 B=2 rm x"), Lines{"env: rm x"});
  EXPECT_EQ(unwrapped("env -u HOME -C /tmp rm x"), Lines{"env: rm x"});
  EXPECT_EQ(unwrapped("env -S 'rm -rf /'"), Lines{"env -S: rm -rf /"});
  EXPECT_EQ(unwrapped("command rm x"), Lines{"command: rm x"});
  EXPECT_TRUE(unwrapped("command -v rm").empty());
  EXPECT_EQ(unwrapped("builtin exec rm x"), (Lines{"builtin: exec rm x", "builtin > exec: rm x"}));
  EXPECT_EQ(unwrapped("nice -n 10 rm x"), Lines{"nice: rm x"});
  EXPECT_EQ(unwrapped("nice -10 rm x"), Lines{"nice: rm x"});
  EXPECT_EQ(unwrapped("nohup rm x &"), Lines{"nohup: rm x"});
  EXPECT_EQ(unwrapped("timeout -s KILL 5 rm x"), Lines{"timeout: rm x"});
  EXPECT_EQ(unwrapped("timeout --kill-after=2 5s rm x"), Lines{"timeout: rm x"});
  EXPECT_EQ(unwrapped("stdbuf -oL rm x"), Lines{"stdbuf: rm x"});
  EXPECT_EQ(unwrapped("time rm x"), Lines{"time: rm x"});
  EXPECT_EQ(unwrapped("sudo sudo rm x"),
            (Lines{"sudo: sudo rm x [privileged]", "sudo > sudo: rm x [privileged]"}));
}

TEST(ShellProgram, ShellsAndEvalAreParsedAgain) {
  EXPECT_EQ(unwrapped("bash -c 'rm -rf ~'"), Lines{"bash -c: rm -rf /home/u"});
  EXPECT_EQ(unwrapped("sh -lc \"cd / && rm -rf *\""), (Lines{"sh -c: cd /", "sh -c: rm -rf *"}));
  EXPECT_EQ(unwrapped("bash -x -c 'rm x'"), Lines{"bash -c: rm x"});
  EXPECT_EQ(unwrapped("bash -o pipefail -c 'rm x'"), Lines{"bash -c: rm x"});
  EXPECT_EQ(unwrapped("zsh -c 'rm x' arg0"), Lines{"zsh -c: rm x"});
  EXPECT_EQ(unwrapped("eval 'rm -rf /'"), Lines{"eval: rm -rf /"});
  EXPECT_EQ(unwrapped("eval rm -rf /"), Lines{"eval: rm -rf /"});
  EXPECT_EQ(unwrapped("su -c 'rm x' root"), Lines{"su -c: rm x [privileged]"});
  EXPECT_EQ(unwrapped("bash -c \"bash -c 'rm x'\""),
            (Lines{"bash -c: bash -c rm x", "bash -c > bash -c: rm x"}));
  // A script known only at run time is a command nobody can judge.
  ShellProgram p = parse("bash -c \"$SCRIPT\"");
  ASSERT_EQ(p.commands.size(), 2u);
  EXPECT_TRUE(p.commands[1].nameIsDynamic());
  EXPECT_TRUE(parse("eval $x").commands[1].nameIsDynamic());
}

TEST(ShellProgram, XargsAndFindExec) {
  ShellProgram p = parse("find . -name '*.tmp' -exec rm -f {} \\; -o -execdir chmod 777 {} +");
  std::vector<std::string> inner;
  for (const SimpleCommand& c : p.commands) {
    if (!c.wrappers.empty()) {
      inner.push_back(c.wrappers.back().name + ": " + c.name());
      EXPECT_TRUE(c.unknown_extra_arguments);
    }
  }
  EXPECT_EQ(inner, (Lines{"find -exec: rm", "find -execdir: chmod"}));
  EXPECT_EQ(unwrapped("ls | xargs -0 -n 1 -I{} rm -rf {}"), Lines{"xargs: rm -rf ${xargs}"});
  EXPECT_EQ(unwrapped("ls | xargs"), Lines{"xargs: echo"});
}

TEST(ShellProgram, UnwrappingIsBounded) {
  std::string script = "rm x";
  for (int i = 0; i < 12; ++i) script = "eval " + script;
  ShellProgram p = parse(script);
  EXPECT_TRUE(p.too_deep);
  EXPECT_FALSE(parse("eval eval rm x").too_deep);
}

TEST(ShellProgram, ParseErrorsAreReported) {
  EXPECT_TRUE(parse("echo 'unterminated").parse_error);
  EXPECT_TRUE(parse("if true; then").parse_error);
  EXPECT_TRUE(parse("bash -c 'echo \"x'").parse_error);
  ShellProgram ok = parse("echo fine");
  EXPECT_FALSE(ok.parse_error);
  EXPECT_FALSE(parse("echo 'it''s'").parse_error);
  EXPECT_FALSE(parse("").parse_error);
  EXPECT_TRUE(parse("").commands.empty());
}

TEST(ShellProgram, HeredocsKeepTheirRedirectsAndPipes) {
  ShellProgram p = parse("cat <<EOF > /dev/sda && ls\nx\nEOF\n");
  ASSERT_EQ(p.commands.size(), 2u);
  EXPECT_EQ(p.commands[0].name(), "cat");
  EXPECT_EQ(p.commands[1].name(), "ls");
  ASSERT_EQ(p.commands[0].redirects.size(), 2u);
  const auto& r = p.commands[0].redirects;
  EXPECT_TRUE(std::any_of(r.begin(), r.end(), [](const ShellRedirect& x) {
    return x.op == ">" && x.target.text == "/dev/sda";
  }));
  ShellProgram piped = parse("cat <<EOF | sh\nid\nEOF\n");
  ASSERT_EQ(piped.commands.size(), 3u);
  EXPECT_EQ(piped.commands[1].name(), "sh");
  EXPECT_EQ(piped.commands[1].placement.pipeline_position, 1u);
  EXPECT_EQ(piped.commands[2].name(), "id");  // the script sh reads, known from the here-doc
}

TEST(ShellProgram, TildeUserAndWrapperAssignments) {
  EXPECT_EQ(summary(parse("ls ~root")), Lines{"ls /root"});
  // An unknown user's home (or ~+, ~-) is a directory known only at run
  // time, never a relative path in the cwd.
  EXPECT_EQ(summary(parse("ls ~no_such_user_here")), Lines{"ls $${~no_such_user_here}"});
  EXPECT_EQ(summary(parse("ls ~+/x ~-")), Lines{"ls $${PWD}/x $${OLDPWD}"});
  ShellProgram p = parse("env PATH=/tmp ls");
  ASSERT_EQ(p.commands.size(), 2u);
  ASSERT_EQ(p.commands[1].assignments.size(), 1u);
  EXPECT_EQ(p.commands[1].assignments[0].first, "PATH");
  // xargs pastes run-time names into {}: the script is not the one written.
  ShellProgram injected = parse("ls | xargs -I{} sh -c 'echo {}'");
  EXPECT_TRUE(injected.commands.back().nameIsDynamic());
}

TEST(ShellProgram, WordsAreDataNotCommands) {
  EXPECT_EQ(summary(parse("echo \"rm -rf /\"")), Lines{"echo rm -rf /"});
  EXPECT_EQ(summary(parse("grep -r sudo docs/")), Lines{"grep -r sudo docs/"});
}

}  // namespace shell_program_test
}  // namespace toolguard
