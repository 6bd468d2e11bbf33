// Values followed through a shell program as bash would: variables, known
// command output, brace expansion, IFS, scripts fed to shells, xargs and
// parallel over known input, functions, and shell calls inside inline
// interpreter code. A value is known only when every path bash could take
// gives it; anything else stays dynamic (asked about).
//
// Never paste these commands into a shell: they are what they look like.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/shell_summary.hpp"
#include "toolguard/shell.hpp"

namespace toolguard {
namespace shell_values_test {

using testing::parseAsUser;
using testing::runs;
using testing::summary;

std::string lines(const ShellProgram& p) {
  std::string out;
  for (const std::string& l : summary(p)) out += "[" + l + "] ";
  return out;
}

#define EXPECT_RUNS(script, line)                                             \
  do {                                                                        \
    const ShellProgram program_ = parseAsUser(script);                        \
    EXPECT_TRUE(runs(program_, line)) << script << " -> " << lines(program_); \
  } while (0)

#define EXPECT_NOT_RUNS(script, line)                                          \
  do {                                                                         \
    const ShellProgram program_ = parseAsUser(script);                         \
    EXPECT_FALSE(runs(program_, line)) << script << " -> " << lines(program_); \
  } while (0)

TEST(ShellValues, VariablesAssignedEarlierAreFollowed) {
  EXPECT_RUNS("X=rm; $X -rf ~", "rm -rf /home/u");
  EXPECT_RUNS("d=/; rm -rf \"$d\"", "rm -rf /");
  EXPECT_RUNS("d=/; rm -rf $d", "rm -rf /");
  EXPECT_RUNS("export X=/etc; rm -rf $X", "rm -rf /etc");
  EXPECT_RUNS("declare X=/etc; rm -rf ${X}", "rm -rf /etc");
  EXPECT_RUNS("A=/; B=$A; rm -rf $B", "rm -rf /");
  EXPECT_RUNS("A=/ B=$A; rm -rf $B", "rm -rf /");
  EXPECT_RUNS("X=/e; X+=tc; rm -rf $X", "rm -rf /etc");
  EXPECT_RUNS("X=\"rm -rf /\"; $X", "rm -rf /");
  EXPECT_RUNS("unset X; rm -rf ${X:-/etc}", "rm -rf /etc");
  EXPECT_RUNS("X=; rm -rf ${X:-/usr}", "rm -rf /usr");
  EXPECT_RUNS("X=a; rm -rf ${X:+/var}", "rm -rf /var");
  EXPECT_RUNS("unset X; : ${X:=/etc}; rm -rf $X", "rm -rf /etc");
  EXPECT_RUNS("X=abc; echo ${#X}", "echo 3");
  EXPECT_RUNS("HOME=/etc; rm -rf ~", "rm -rf /etc");
  EXPECT_RUNS("readonly X=/; X=safe; rm -rf $X", "rm -rf /");
  EXPECT_RUNS("f=/; printf -v X '%s' \"$f\"; rm -rf \"$X\"", "rm -rf /");
  EXPECT_RUNS("set -- /etc /usr; rm -rf \"$@\"", "rm -rf /etc /usr");
  EXPECT_RUNS("set -- x /etc; shift; rm -rf $1", "rm -rf /etc");
  EXPECT_RUNS("X=/; local_x() { :; }; rm -rf $X", "rm -rf /");
}

TEST(ShellValues, WhatIsNotKnownOnEveryPathStaysDynamic) {
  EXPECT_RUNS("rm -rf $X", "rm -rf $$X");  // from the environment
  EXPECT_RUNS("(X=/); rm -rf \"$X\"", "rm -rf $$X");
  EXPECT_RUNS("X=/ | true; rm -rf \"$X\"", "rm -rf $$X");
  EXPECT_RUNS("X=/ &\nrm -rf \"$X\"", "rm -rf $$X");
  EXPECT_RUNS("X=safe; if c; then X=/; fi; rm -rf $X", "rm -rf $$X");
  EXPECT_RUNS("X=safe; c && X=/; rm -rf $X", "rm -rf $$X");
  EXPECT_RUNS("X=safe; while c; do rm -rf $X; X=/; done", "rm -rf $$X");
  EXPECT_RUNS("X=/; if c; then X=safe; else rm -rf $X; fi", "rm -rf $$X");
  EXPECT_RUNS("X=safe; f() { X=/; }; f; rm -rf $X", "rm -rf $$X");
  EXPECT_RUNS("X=safe; eval \"$Y\"; rm -rf $X", "rm -rf $$X");
  EXPECT_RUNS("X=safe; source ./env.sh; rm -rf $X", "rm -rf $$X");
  EXPECT_RUNS("trap 'X=/' DEBUG; X=safe; rm -rf \"$X\"", "rm -rf $$X");
  EXPECT_RUNS("declare -n r=X; r=/; X=safe; rm -rf \"$X\"", "rm -rf $$X");
  EXPECT_RUNS("X=safe; read X; rm -rf $X", "rm -rf $$X");
  EXPECT_RUNS("X=safe; $CMD X; rm -rf $X", "rm -rf $$X");
  EXPECT_RUNS("X=$(curl -s x); rm -rf $X", "rm -rf $$X");
  EXPECT_RUNS("declare -u X=safe; rm -rf $X", "rm -rf $$X");
  EXPECT_RUNS("X='HOME=/'; : $((X)); rm -rf ~", "rm -rf $${HOME}");
  EXPECT_RUNS("X=*; rm -rf $X", "rm -rf $*");
  EXPECT_RUNS("IFS=$Z; X='/ b'; rm -rf $X", "rm -rf $${IFS}");
}

TEST(ShellValues, KnownCommandOutputIsFollowed) {
  EXPECT_RUNS("$(echo rm) -rf /", "rm -rf /");
  EXPECT_RUNS("$(printf '\\x72\\x6d') -rf ~", "rm -rf /home/u");
  EXPECT_RUNS("$(printf 'r%s' m) -r -f ~/", "rm -r -f /home/u/");
  EXPECT_RUNS("`echo rm` -rf /", "rm -rf /");
  EXPECT_RUNS("$(printf 'r%s' $(echo m)) -rf /", "rm -rf /");
  EXPECT_RUNS("rm -rf \"$(cat <<< /etc)\"", "rm -rf /etc");
  EXPECT_RUNS("rm -rf $(echo L2V0Yw== | base64 -d)", "rm -rf /etc");
  EXPECT_RUNS("X=$(echo /usr); rm -rf $X", "rm -rf /usr");
  // Replaced or redirected producers are not trusted.
  EXPECT_RUNS("echo() { printf /; }; rm -rf \"$(echo safe)\"", "rm -rf $$(echo safe)");
  EXPECT_RUNS("PATH=/tmp; rm -rf \"$(cat <<< safe)\"", "rm -rf $$(cat <<< safe)");
  EXPECT_RUNS("rm -rf \"$(echo safe > f)\"", "rm -rf $$(echo safe > f)");
  EXPECT_RUNS("rm -rf \"$(echo '\\x2f')\"", "rm -rf $$(echo '\\x2f')");
}

TEST(ShellValues, BracesAndIfsAreExpanded) {
  EXPECT_RUNS("{rm,-rf,/}", "rm -rf /");
  EXPECT_RUNS("rm -rf /{etc,usr}", "rm -rf /etc /usr");
  EXPECT_RUNS("{r,}m -rf /", "rm m -rf /");
  EXPECT_RUNS("rm -rf /{et{c,x},bin}", "rm -rf /etc /etx /bin");
  EXPECT_RUNS("echo {1..3}", "echo 1 2 3");
  EXPECT_RUNS("echo {a..c}", "echo a b c");
  EXPECT_RUNS("rm -rf {~,/tmp/x}", "rm -rf /home/u /tmp/x");
  EXPECT_RUNS("rm${IFS}-rf${IFS}/", "rm -rf /");
  EXPECT_RUNS("echo '{a,b}' \"{c,d}\"", "echo {a,b} {c,d}");
  EXPECT_RUNS("echo ${X}{a,b}", "echo $${X}a $${X}b");
  // An expansion too large is not written out.
  const ShellProgram big = parseAsUser("echo {1..100000}");
  EXPECT_TRUE(runs(big, "echo ${1..100000}")) << lines(big);
}

TEST(ShellValues, ScriptsFedToAShellAreJudgedAsWrittenOut) {
  EXPECT_RUNS("bash <<< 'rm -rf ~'", "rm -rf /home/u");
  EXPECT_RUNS("sh <<EOF\nrm -rf ~\nEOF", "rm -rf /home/u");
  EXPECT_RUNS("echo 'rm -rf ~' | sh", "rm -rf /home/u");
  EXPECT_RUNS("printf 'rm -rf /\\n' | bash", "rm -rf /");
  EXPECT_RUNS("echo cm0gLXJmIC9ldGM= | base64 -d | sh", "rm -rf /etc");
  EXPECT_RUNS("cat <<EOF | sh\nrm -rf /etc\nEOF", "rm -rf /etc");
  EXPECT_RUNS("bash -c 'rm -rf \"$1\"' sh ~", "rm -rf /home/u");
  EXPECT_RUNS("bash -c 'rm -rf \"$0\"' /etc", "rm -rf /etc");
  // A script only known at run time stays unknown.
  EXPECT_RUNS("bash <<< \"$S\"", "$$S\n");
}

TEST(ShellValues, XargsAndParallelOverKnownInput) {
  EXPECT_RUNS("printf '%s\\n' ~ | xargs rm -rf", "rm -rf /home/u");
  EXPECT_RUNS("xargs -I{} rm -r -f {} <<< ~/", "rm -r -f /home/u/");
  EXPECT_RUNS("cat <<< /etc | xargs -n1 rm -rf", "rm -rf /etc");
  EXPECT_RUNS("printf '/etc\\0/usr\\0' | xargs -0 -n1 rm -rf", "rm -rf /usr");
  EXPECT_RUNS("echo /etc | xargs sh -c 'rm -rf \"$1\"' _", "rm -rf /etc");
  EXPECT_RUNS("parallel rm -rf {} ::: /etc", "rm -rf /etc");
  EXPECT_RUNS("parallel rm -rf ::: /usr", "rm -rf /usr");
  // Placeholders over values only known at run time are dynamic.
  EXPECT_RUNS("cat f | xargs -I % rm -rf %", "rm -rf $${xargs}");
  EXPECT_RUNS("find . | xargs -I {} rm -rf {}", "rm -rf $${xargs}");
  EXPECT_RUNS("ls | parallel rm -rf {} ::: $(cat f)", "rm -rf $${parallel}");
  // Without `:::` the values come from its input (found by fuzzing: read past the words).
  EXPECT_RUNS("ls | parallel rm -rf {}", "rm -rf $${parallel}");
  EXPECT_RUNS("parallel rm {", "rm {");
  // An option whose value is missing at the end (found by fuzzing: the
  // option scan ran past the last word).
  EXPECT_RUNS("ls | parallel -j", "ls");
  EXPECT_RUNS("parallel rm {| ; ls | parallel -j", "ls");
  EXPECT_RUNS("timeout -s", "timeout -s");
  EXPECT_RUNS("sudo -u", "sudo -u");
}

TEST(ShellValues, FunctionsAndLoopsAreWrittenOut) {
  EXPECT_RUNS("f(){ rm -rf \"$1\"; }; f ~", "rm -rf /home/u");
  EXPECT_RUNS("f() { g \"$1\"; }; g() { rm -rf \"$1\"; }; f /etc", "rm -rf /etc");
  EXPECT_RUNS("D=safe; f() { rm -rf \"$D\"; }; D=/; f", "rm -rf /");
  EXPECT_RUNS("for d in /etc /usr; do rm -rf $d; done", "rm -rf /usr");
  EXPECT_RUNS("for d in a b; do X=$d; done; rm -rf $X", "rm -rf b");
  EXPECT_RUNS("for d in a /; do [ x ] && continue; rm -rf $d; done", "rm -rf $$d");
  // A function never called is read as a new shell would.
  EXPECT_RUNS("f() { rm -rf \"$1\"; }", "rm -rf $$1");
  // Recursion ends in a program never allowed.
  EXPECT_TRUE(parseAsUser("f() { f; }; f").too_deep);
}

TEST(ShellValues, ShellCallsInInlineInterpreterCode) {
  EXPECT_RUNS("python3 -c 'import os; os.system(\"rm -rf ~\")'", "rm -rf /home/u");
  EXPECT_RUNS("python3 -c 'import subprocess; subprocess.run(\"rm -rf /\", shell=True)'",
              "rm -rf /");
  EXPECT_RUNS("python3 -c 'import subprocess; subprocess.run([\"rm\", \"-rf\", \"/etc\"])'",
              "rm -rf /etc");
  EXPECT_RUNS("perl -e 'system(\"rm -rf /\")'", "rm -rf /");
  EXPECT_RUNS("perl -e 'system \"rm\", \"-rf\", \"/usr\"'", "rm -rf /usr");
  EXPECT_RUNS("perl -e '`rm -rf /etc`'", "rm -rf /etc");
  EXPECT_RUNS("ruby -e '%x(rm -rf /)'", "rm -rf /");
  EXPECT_RUNS("node -e \"require('child_process').execSync('rm -rf ~')\"", "rm -rf /home/u");
  EXPECT_RUNS("php -r 'shell_exec(\"rm -rf /etc\");'", "rm -rf /etc");
  EXPECT_RUNS("python3 <<< 'import os; os.system(\"rm -rf /\")'", "rm -rf /");
  // Built at run time: nothing to judge but the interpreter itself.
  EXPECT_NOT_RUNS("python3 -c 'import os; os.system(f\"rm -rf {d}\")'", "rm -rf {d}");
}

TEST(ShellValues, InputsThatCouldGrowAreBounded) {
  std::string nested = "echo ";
  for (int i = 0; i < 200; ++i) nested += "$(echo ";
  nested += "x";
  for (int i = 0; i < 200; ++i) nested += ")";
  const ShellProgram deep = parseAsUser(nested);
  EXPECT_TRUE(deep.too_deep);
  const ShellProgram loops = parseAsUser(
      "for a in 1 2 3 4 5 6 7 8; do for b in 1 2 3 4 5 6 7 8; do for c in 1 2 3 4 5 6 7 8; do "
      "echo $a$b$c; done; done; done");
  EXPECT_LT(loops.commands.size(), 200u);
  const ShellProgram braces =
      parseAsUser("echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}");
  EXPECT_LE(braces.commands.front().words.size(), 257u);
}

// Each case was a value computed otherwise than bash computes it (found by
// an attack review): now followed as bash does, or not followed at all.
TEST(ShellValues, ValuesAreComputedAsBashComputesThem) {
  EXPECT_RUNS("set -- a b; echo $10", "echo a0");  // ${1}0
  EXPECT_RUNS("printf -v D -- /etc; rm -rf $D", "rm -rf /etc");
  EXPECT_RUNS("sh <<EOF\necho \\\\' ; rm -rf ~\necho '\nEOF", "rm -rf /home/u");
  // GNU xargs: -L after -I drops -I; -n after -L drops -L; -I ignores -n.
  EXPECT_RUNS("echo /etc | xargs -I{} -L 1 rm -rf x{}", "rm -rf x{} /etc");
  EXPECT_RUNS("echo 'a b' | xargs -L 1 -n 1 rm", "rm b");
  EXPECT_RUNS("echo 'a b' | xargs -I{} -n 1 rm {}", "rm a b");
  EXPECT_RUNS("printf %d 7", "printf %d 7");
  EXPECT_RUNS("X=$(printf %d 010); rm $X", "rm $$X");  // octal: not followed
}

TEST(ShellValues, WhatBashWouldNotAssignIsNotFollowed) {
  EXPECT_RUNS("X=rm; local X=echo; $X -rf ~", "$$X -rf /home/u");  // local outside a function
  EXPECT_RUNS("f() { local X=/etc; rm -rf $X; }; f", "rm -rf /etc");
  EXPECT_RUNS("D=/; export D+=etc; rm -rf $D", "rm -rf $$D");
  EXPECT_RUNS("X=ech; Xo=rm; $X{o,} -rf ~", "$ech{o,} -rf /home/u");  // braces come first
  // dash has no +=, printf -v, declare or brace expansion.
  EXPECT_RUNS("sh -c 'D=/etc; D+=/x; rm -rf $D'", "rm -rf $$D");
  EXPECT_RUNS("sh -c 'X=/etc; printf -v X /tmp; rm -rf $X'", "rm -rf $$X");
  EXPECT_RUNS("sh -c 'X=/etc; declare X=/tmp; rm -rf $X'", "rm -rf $$X");
  EXPECT_RUNS("bash -c 'D=/etc; D+=/x; rm -rf $D'", "rm -rf /etc/x");
  // A script read from stdin shares it with its commands: `read` may take
  // the next line, which then never runs.
  EXPECT_RUNS("bash <<'EOF'\nX=rm\nread line\nX=echo\n$X -rf ~\nEOF", "$$X -rf /home/u");
}

TEST(ShellValues, ValuesThatRunAsCodeAreUnknownCommands) {
  const ShellProgram arithmetic = parseAsUser("X='a[$(id)]'; echo $((X))");
  EXPECT_TRUE(std::any_of(arithmetic.commands.begin(), arithmetic.commands.end(),
                          [](const SimpleCommand& c) { return c.nameIsDynamic(); }))
      << lines(arithmetic);
  const ShellProgram symbols = parseAsUser("echo {Z..a}");
  EXPECT_TRUE(std::any_of(symbols.commands.begin(), symbols.commands.end(),
                          [](const SimpleCommand& c) { return c.nameIsDynamic(); }))
      << lines(symbols);
  const ShellProgram perl = parseAsUser("parallel echo '{=qx/id/=}' ::: a");
  EXPECT_TRUE(std::any_of(perl.commands.begin(), perl.commands.end(), [](const SimpleCommand& c) {
    return c.nameIsDynamic();
  })) << lines(perl);
}

// What tests/unit/word_expansion_differential_test.cpp found bash doing
// differently from the model: each family once.
TEST(ShellValues, QuotedEmptyStringsKeepTheirWord) {
  EXPECT_RUNS("X='a '; echo $X\"\"", "echo a ");
  EXPECT_RUNS("W=' x'; echo \"\"$W", "echo  x");
  EXPECT_RUNS("set -- a ''; echo \"$@\"", "echo a ");
  EXPECT_RUNS("set -- '' ''; echo \"$@\" x", "echo   x");
  EXPECT_RUNS("set -- '' x; echo $@", "echo x");
  EXPECT_RUNS("echo {a,,\"\"}", "echo a ");
  EXPECT_RUNS("echo $'a\\0b'", "echo a");
  EXPECT_RUNS("echo x$\"y\"", "echo xy");
  EXPECT_RUNS("echo \" $(echo x)\"", "echo  x");
}

TEST(ShellValues, TildesAsBashExpandsThem) {
  EXPECT_RUNS("unset X; echo \"${X:-~}\"", "echo ~");
  EXPECT_RUNS("unset X; IFS=/; echo ${X:-~}", "echo /home/u");
  EXPECT_RUNS("echo \"\"~ ~\"\"/x x\"\"=~/y", "echo ~ ~/x x=~/y");
  EXPECT_RUNS("unset E; echo $E~", "echo ~");
  EXPECT_RUNS("echo x=~/y{a,b}", "echo x=~/ya x=~/yb");
  EXPECT_RUNS("echo _+=~/a ~:x", "echo _+=/home/u/a /home/u:x");
  EXPECT_RUNS("echo {1..\"\"3}", "echo {1..3}");
  EXPECT_NOT_RUNS("echo ~{-1..1}", "echo ~-1 ~0 ~1");
}

TEST(ShellValues, ExpansionsNotFollowedStayUnknown) {
  // `${X:=...}` not followed may assign X; `{y,${X=a}}$X` expands in turn.
  EXPECT_RUNS("unset X; : ${X:=\\ a}; echo $X", "echo $$X");
  EXPECT_NOT_RUNS("unset X; echo {y,${X=a}}$X", "echo ya aa");
  EXPECT_NOT_RUNS("X=a; echo {b,$X}c", "echo bc ac");
  EXPECT_NOT_RUNS("IFS=:; set -- ' ' x; echo $@", "echo  x");
  EXPECT_NOT_RUNS("set --; W=' :'; IFS=' :'; echo $W\",-b\"$@", "echo  ,-b");
}

TEST(ShellValues, WordsTheGrammarMisreadsAreParseErrors) {
  for (const char* script : {"echo \"a\"\\`", "echo \\ x", "x=\\ \\ \ny=1",
                             "echo $'\\\\' x\necho 'y'", "echo $2\\$", "echo {1..2}\\=x"}) {
    EXPECT_TRUE(parseAsUser(script).parse_error) << script;
  }
  EXPECT_FALSE(parseAsUser("echo a\\ b 'c d' \"e\"f").parse_error);
}

}  // namespace shell_values_test
}  // namespace toolguard

#undef EXPECT_RUNS
#undef EXPECT_NOT_RUNS
