// Reading a command with a table of harmless options (src/commands/option_table):
// every spelling a program accepts is either found in the table or makes the
// command unknown.
#include "commands/option_table.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "commands/program_specs.hpp"
#include "commands/shell_facts.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/tool_catalog.hpp"

namespace toolguard::detail {
namespace option_table_test {

const ProgramSpec kTool = {"tool",
                           "-a|--all -l -n|--lines=num -o|--output=write --color?={auto,never} "
                           "-c|--config=inside -e|--regexp=text -# --help",
                           OperandRule::Any, OptionStyle::Gnu};
const ProgramSpec kLong = {"longtool", "-v -run=text -count=num -I=tree -W*=word -std=word",
                           OperandRule::Any, OptionStyle::Long, true};
const ProgramSpec kNone = {"bare", "--version", OperandRule::None};

// Reads `command` (its first command) with `spec`, in /w/app with /w/app the workspace.
TableParse read(const ProgramSpec& spec, const std::string& command) {
  ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", command}};
  call.context.cwd = "/w/app";
  const CallView view(call, ToolCatalog::builtin().resolve("Bash"));
  const ShellProgram* program = view.shellProgram();
  EXPECT_NE(program, nullptr);
  const CommandScene scene{program->commands.at(0), *program, view, view.home()};
  return parseWithTable(spec, program->commands.at(0).arguments(), &scene);
}

bool known(const ProgramSpec& spec, const std::string& command) {
  return read(spec, command).known();
}

TEST(OptionTable, KnownSpellingsInEveryGnuFormAreRead) {
  for (const char* command :
       {"tool -a -l x", "tool -al x", "tool -la x", "tool --all x", "tool x -a", "tool -n 5 x",
        "tool -n5 x", "tool --lines=5 x", "tool --lines 5 x", "tool -aln5 x", "tool -20 x",
        "tool --color x", "tool --color=never x", "tool -o out.txt x", "tool -- -z", "tool -",
        "tool -e '--anything' x", "tool --help", "tool -c conf/x.toml x"}) {
    EXPECT_TRUE(known(kTool, command)) << command << ": " << read(kTool, command).unknown;
  }
  const TableParse p = read(kTool, "tool -aln5 -o out.txt x -- -z");
  EXPECT_TRUE(p.has("-a") && p.has("-l"));
  ASSERT_EQ(p.valuesOf("-n").size(), 1u);
  EXPECT_EQ(p.valuesOf("-n")[0].text, "5");
  EXPECT_EQ(p.valuesOf("-o")[0].text, "out.txt");
  ASSERT_EQ(p.operands.size(), 2u);
  EXPECT_EQ(p.operands[1].text, "-z");
}

TEST(OptionTable, AnythingElseIsNotKnown) {
  for (const char* command : {
           "tool --al x",            // an abbreviation getopt would accept
           "tool --all=1 x",         // a value for a flag
           "tool -z x",              // a letter not in the table
           "tool -az x",             // bundled with a known one
           "tool x -z",              // after an operand
           "tool --colour x",        // another spelling
           "tool --color=always x",  // not one of the choices
           "tool -n five x",         // not a number
           "tool -n",                // a value missing
           "tool -c /etc/x.toml x",  // config outside the workspace
           "tool -c \"$C\" x",       // config known only at run time
           "tool $OPT x",            // may become an option
           "tool \"$OPT\" x",        // one word, but it may start with a dash
           "tool ${OPT} x",          // braced
           "tool src/$F x",          // may split into more words
           "tool -e $P x",           // a value that may split
       }) {
    EXPECT_FALSE(known(kTool, command)) << command;
  }
  // `--color always`: the value is not glued, so `always` is an operand, which Any takes.
  EXPECT_TRUE(known(kTool, "tool --color always"));
}

TEST(OptionTable, RunTimeWordsThatCannotBecomeOptionsAreOperands) {
  for (const char* command : {"tool \"src/$F\"", "tool 'x'", "tool \"./$F\"", "tool src/*.c",
                              "tool -- \"$F\"", "tool x -e \"$P\""}) {
    EXPECT_TRUE(known(kTool, command)) << command << ": " << read(kTool, command).unknown;
  }
}

// A glob at the start of a word may find a file named like an option: it is
// expanded where the command runs, and any such name, or an earlier command
// that may create one, makes it unknown.
TEST(OptionTable, GlobsThatMayFindAnOptionAreNotKnown) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("toolguard-globs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.c") << "";
  auto readIn = [&](const std::string& command) {
    ToolCall call;
    call.tool = "Bash";
    call.args = {{"command", command}};
    call.context.cwd = dir.string();
    const CallView view(call, ToolCatalog::builtin().resolve("Bash"));
    const ShellProgram* program = view.shellProgram();
    const SimpleCommand& last = program->commands.back();
    const CommandScene scene{last, *program, view, view.home()};
    return parseWithTable(kTool, last.arguments(), &scene).known();
  };
  EXPECT_TRUE(readIn("tool *"));
  EXPECT_TRUE(readIn("tool *.c"));
  EXPECT_FALSE(readIn("touch ./-x; tool *"));  // made before it runs
  std::ofstream(dir / "--pre=sh") << "";
  EXPECT_FALSE(readIn("tool *"));
  EXPECT_TRUE(readIn("tool *.c"));
  EXPECT_TRUE(readIn("tool ./*"));
  std::filesystem::remove_all(dir);
}

TEST(OptionTable, LongStyleReadsOneOrTwoDashesAndGluedLetters) {
  for (const char* command :
       {"longtool -v x", "longtool --v x", "longtool -run TestX", "longtool -run=TestX",
        "longtool --count=3", "longtool -Iinclude", "longtool -I include",
        "longtool -Wall -Wno-unused", "longtool -v=true", "longtool -std=c++20 x"}) {
    EXPECT_TRUE(known(kLong, command)) << command << ": " << read(kLong, command).unknown;
  }
  for (const char* command : {"longtool -vrun x", "longtool -x", "longtool -Wl,-plugin=x",
                              "longtool @args.txt", "longtool -v=maybe", "longtool -std"}) {
    EXPECT_FALSE(known(kLong, command)) << command;
  }
}

TEST(OptionTable, OperandRulesAndSubcommands) {
  EXPECT_TRUE(known(kNone, "bare --version"));
  EXPECT_FALSE(known(kNone, "bare script.py"));
  // git is a table with subcommands: an unknown one is not known.
  const ProgramSpec* git = programSpec("git");
  ASSERT_NE(git, nullptr);
  EXPECT_TRUE(known(*git, "git status"));
  EXPECT_TRUE(known(*git, "git log --oneline -n 5"));
  EXPECT_FALSE(known(*git, "git frobnicate"));
  EXPECT_FALSE(known(*git, "git"));
  EXPECT_FALSE(known(*git, "git $SUB"));
  EXPECT_EQ(read(*git, "git log --oneline").spec, findProgramSpec("git log"));
}

TEST(OptionTable, EveryTableIsWellFormedAndFoundByEachOfItsNames) {
  ASSERT_FALSE(allProgramSpecs().empty());
  for (const ProgramSpec* spec : allProgramSpecs()) {
    EXPECT_EQ(specProblem(*spec), "") << spec->command;
    const std::string_view command = spec->command;
    const size_t space = command.rfind(' ');
    const std::string parent =
        space == std::string_view::npos ? "" : canonicalCommand(command.substr(0, space)) + " ";
    std::string_view names = space == std::string_view::npos ? command : command.substr(space + 1);
    while (!names.empty()) {
      const size_t bar = names.find('|');
      const std::string key = parent + std::string(names.substr(0, bar));
      EXPECT_EQ(findProgramSpec(key), spec) << key << " is found as another table";
      names = bar == std::string_view::npos ? std::string_view() : names.substr(bar + 1);
    }
    // A subcommand's parent is a table that takes subcommands.
    if (space != std::string_view::npos &&
        command.substr(0, space).find(" -") == std::string::npos) {
      const ProgramSpec* up = findProgramSpec(canonicalCommand(command.substr(0, space)));
      ASSERT_NE(up, nullptr) << command;
      EXPECT_EQ(up->operands, OperandRule::Sub) << command;
    }
  }
  EXPECT_NE(specProblem({"bad", "--x=maybe"}), "");
  EXPECT_NE(specProblem({"bad", "-xy"}), "");
  EXPECT_NE(specProblem({"bad", "x"}), "");
  EXPECT_NE(specProblem({"bad", "--f*"}), "");
}

TEST(OptionTable, SplittingAndDashesOfRunTimeWords) {
  EXPECT_TRUE(maySplit(ShellWord{"$X", true, "$X"}));
  EXPECT_TRUE(maySplit(ShellWord{"a$X", true, "a$X"}));
  EXPECT_TRUE(maySplit(ShellWord{"$(ls)", true, "$(ls)"}));
  EXPECT_FALSE(maySplit(ShellWord{"$X", true, "\"$X\""}));
  EXPECT_FALSE(maySplit(ShellWord{"a$X", true, "\"a\"\"$X\""}));
  EXPECT_FALSE(maySplit(ShellWord{"$X", true, "'$X'"}));
  EXPECT_FALSE(maySplit(ShellWord{"x", false, "x"}));
  EXPECT_TRUE(wordIsFixedOperand(ShellWord{"src/$X", true, "\"src/$X\""}));
  EXPECT_FALSE(wordIsFixedOperand(ShellWord{"$X", true, "\"$X\""}));
  EXPECT_FALSE(wordIsFixedOperand(ShellWord{"-$X", true, "\"-$X\""}));
  EXPECT_FALSE(wordIsFixedOperand(ShellWord{"*.c", true, "*.c"}));
  EXPECT_TRUE(wordIsFixedOperand(ShellWord{"*.c", true, "\"*.c\""}));
}

}  // namespace option_table_test
}  // namespace toolguard::detail
