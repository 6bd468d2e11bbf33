// The closed world of ordinary work against the real options of each tool:
// Fig's completion specs (@withfig/autocomplete, MIT; tests/data/
// fig-options.json, written by scripts/fig-options.sh) list the options of
// most programs that have a table here. An option Fig lists and the table
// does not know, added to a command the default policy allows (after the
// name, after the operands, with a value, bundled with known letters), is
// never allowed. And where the table and Fig disagree on whether an option
// takes a value, the tool was run to see which is right: a wrong table is
// fixed, a wrong Fig is listed below with what the tool did.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "commands/option_entries.hpp"
#include "commands/option_table.hpp"
#include "commands/program_specs.hpp"
#include "support/default_verdict.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace fig_options_test {

using detail::ProgramSpec;

Verdict figVerdict(const std::string& command) {
  return test_support::defaultVerdictOf(command);
}

std::vector<std::string> figWords(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

std::string figJoin(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

const nlohmann::json& figData() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/fig-options.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

// The table of a command as the JSON names it ("python3 -m pytest", "git show").
const ProgramSpec* figSpecOf(const std::string& command) {
  const std::vector<std::string> words = figWords(command);
  const ProgramSpec* program = detail::programSpec(words.at(0));
  if (program == nullptr) return nullptr;
  std::string key = detail::canonicalCommand(program->command);
  for (size_t i = 1; i < words.size(); ++i) key += " " + words[i];
  return detail::findProgramSpec(key);
}

// The table knows the spelling: written in an entry, in a family (`-W*`),
// a `-NUMBER` it reads as `-#`, or (one dash or two) `--name` for `-name`.
bool figTableKnows(const ProgramSpec& spec, std::string_view spelling) {
  for (std::string_view s : detail::spellingsOf(spec)) {
    if (s == spelling) return true;
    if (s.ends_with('*') && spelling.starts_with(s.substr(0, s.size() - 1))) return true;
    if (s == "-#" && spelling.size() > 1 && spelling[0] == '-' &&
        std::all_of(spelling.begin() + 1, spelling.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
      return true;
    }
    if (spec.style != detail::OptionStyle::Gnu && spelling.starts_with("--") &&
        s == spelling.substr(1)) {
      return true;
    }
  }
  return false;
}

// A word of several letters after one dash that the table reads as the tool
// does: in a GNU-style table flags bundled or a letter with its value glued
// (`-vv`, `-nH`, `-am MESSAGE`), as getopt reads them; in a Long-style one a letter whose
// glued value is one of a list the table spells out (`-gdwarf-4` is `-g`
// with `dwarf-4`). Any other glued reading in a Long-style table is not the
// tool's (clang reads `-objcmt-migrate-all` as one option, not `-o`), so
// those options are checked.
bool figTableReadsAsBundle(const ProgramSpec& spec, const std::string& spelling) {
  if (spec.style == detail::OptionStyle::Go || spelling.size() < 3 || spelling[1] == '-') {
    return false;
  }
  const std::vector<ShellWord> alone = {ShellWord{spelling, false, spelling}};
  const detail::TableParse parse = detail::parseWithTable(spec, alone, nullptr);
  if (spec.style == detail::OptionStyle::Gnu && !parse.known()) {
    // `-am MESSAGE`: flags, then a letter whose value is the next word.
    const std::vector<ShellWord> valued = {alone[0], ShellWord{"wip", false, "wip"}};
    const detail::TableParse with_value = detail::parseWithTable(spec, valued, nullptr);
    return with_value.known() && with_value.spec == &spec && with_value.operands.empty();
  }
  if (!parse.known() || parse.spec != &spec || !parse.operands.empty()) return false;
  return spec.style == detail::OptionStyle::Gnu ||
         (parse.options.size() == 1 && parse.options[0].kind == detail::ValueKind::Choice);
}

// An option's spellings in the data, less `--` (the end of the options)
// and `-` (the input), which Fig lists as names of some tools.
std::vector<std::string> figNamesOf(const nlohmann::json& option) {
  std::vector<std::string> out;
  for (const nlohmann::json& name : option.at("names")) {
    if (name != "--" && name != "-") out.push_back(name.get<std::string>());
  }
  return out;
}

// A command the default policy allows, to add an option to.
struct FigSeed {
  std::vector<std::string> words;
  size_t name_words = 1;        ///< the words naming the (sub)command
  bool options_at_end = false;  ///< words added at the end are read by the same table
};

std::vector<std::string> figAllowCases(const std::string& file) {
  std::vector<std::string> out;
  const YAML::Node corpus =
      YAML::LoadFile(std::string(TOOLGUARD_SOURCE_DIR) + "/tests/data/" + file);
  for (const YAML::Node& c : corpus["tests"]) {
    if (c["command"] && c["expect"] && c["expect"].as<std::string>() == "allow") {
      out.push_back(c["command"].as<std::string>());
    }
  }
  return out;
}

// The table that reads the last words of a seed (following subcommands and `-m`).
const ProgramSpec* figInnermostSpec(const std::vector<std::string>& words) {
  const ProgramSpec* spec = detail::programSpec(words.at(0));
  if (spec == nullptr) return nullptr;
  std::vector<ShellWord> rest;
  for (size_t i = 1; i < words.size(); ++i) rest.push_back(ShellWord{words[i], false, words[i]});
  const detail::TableParse parse = detail::parseWithTable(*spec, rest, nullptr);
  return parse.known() ? parse.spec : nullptr;
}

// The allowed commands that start with `command`'s words, the command alone
// and on a file first, its version and help queries last; at most `limit`.
std::vector<FigSeed> figSeedsOf(const std::string& command, const ProgramSpec& spec,
                                const std::vector<std::string>& corpus, size_t limit) {
  std::vector<FigSeed> out;
  const std::vector<std::string> name = figWords(command);
  std::vector<std::string> candidates = {command, command + " README.md"};
  for (const std::string& c : corpus) {
    if (c.find_first_of("|&;<>()$`\"'\\\n*?[]{}=~") != std::string::npos) continue;
    const std::vector<std::string> words = figWords(c);
    if (words.size() > name.size() && std::equal(name.begin(), name.end(), words.begin())) {
      candidates.push_back(c);
    }
  }
  // Runtimes whose table knows only their version query.
  candidates.push_back(command + " --version");
  candidates.push_back(command + " --help");
  std::set<std::string> seen;
  for (const std::string& c : candidates) {
    if (out.size() >= limit) break;
    if (!seen.insert(c).second || figVerdict(c) != Verdict::Allow) continue;
    FigSeed seed;
    seed.words = figWords(c);
    seed.name_words = name.size();
    seed.options_at_end = figInnermostSpec(seed.words) == &spec && !spec.options_end_at_operand &&
                          std::find(seed.words.begin(), seed.words.end(), "--") == seed.words.end();
    out.push_back(std::move(seed));
  }
  return out;
}

// A letter the table reads as a flag alone (to bundle an unknown one with).
std::optional<char> figKnownFlagLetter(const ProgramSpec& spec) {
  for (char c : std::string("vqnlrahsiVx")) {
    const std::vector<ShellWord> alone = {ShellWord{std::string("-") + c, false, ""}};
    const detail::TableParse parse = detail::parseWithTable(spec, alone, nullptr);
    if (parse.known() && parse.spec == &spec && !parse.options.empty() &&
        parse.options[0].kind == detail::ValueKind::None) {
      return c;
    }
  }
  return std::nullopt;
}

// The neighbours of a seed with one Fig option the table does not know.
void figNeighbours(const FigSeed& seed, const ProgramSpec& spec, const std::string& spelling,
                   bool takes_value, std::optional<char> flag, std::vector<std::string>& out) {
  auto insertAt = [&](size_t at, std::vector<std::string> added) {
    std::vector<std::string> words = seed.words;
    words.insert(words.begin() + static_cast<std::ptrdiff_t>(at), added.begin(), added.end());
    out.push_back(figJoin(words));
  };
  const size_t name = seed.name_words;
  const size_t end = seed.words.size();
  const bool short_option = spelling.size() == 2 && spelling[1] != '-';
  insertAt(name, {spelling});
  if (seed.options_at_end && end > name) insertAt(end, {spelling});
  if (takes_value) {
    insertAt(name, {spelling, "/tmp/x"});
    if (short_option) {
      insertAt(name, {spelling + "/tmp/x"});
    } else {
      insertAt(name, {spelling + "=/tmp/x"});
    }
    if (seed.options_at_end && end > name) insertAt(end, {spelling, "/tmp/x"});
  }
  if (short_option && flag && spec.style == detail::OptionStyle::Gnu) {
    insertAt(name, {std::string("-") + *flag + spelling[1]});
    insertAt(name, {std::string("-") + spelling[1] + *flag});
    if (takes_value) insertAt(name, {std::string("-") + *flag + spelling[1] + "/tmp/x"});
  }
}

TEST(FigOptions, NoOptionATableLeavesOutIsAllowed) {
  const nlohmann::json& data = figData();
  std::vector<std::string> corpus = figAllowCases("everyday-commands.yaml");
  for (const std::string& c : figAllowCases("benign-calls.yaml")) corpus.push_back(c);
  // Tables whose corpus commands all quote or assign something.
  for (const char* c : {"sed -n 1,5p README.md", "git commit -m wip", "git rm --cached README.md",
                        "env make", "go tool cover -func c.out", "python -m ruff check ."}) {
    corpus.emplace_back(c);
  }
  size_t commands = 0;
  size_t options = 0;
  size_t checked = 0;
  size_t bundles = 0;
  std::set<const ProgramSpec*> tables;
  for (const auto& [command, fig_path] : data.at("commands").items()) {
    const ProgramSpec* spec = figSpecOf(command);
    const std::vector<FigSeed> seeds =
        spec == nullptr ? std::vector<FigSeed>() : figSeedsOf(command, *spec, corpus, 2);
    if (seeds.empty()) {
      if (std::getenv("TOOLGUARD_FIG_LIST") != nullptr) {
        std::cout << "[fig options] no allowed command to start from: " << command << "\n";
      }
      continue;
    }
    ++commands;
    tables.insert(spec);
    const std::optional<char> flag = figKnownFlagLetter(*spec);
    std::set<std::string> done;
    for (const nlohmann::json& option : data.at("fig").at(fig_path.get<std::string>())) {
      std::vector<std::string> names = figNamesOf(option);
      if (names.empty()) continue;
      if (std::any_of(names.begin(), names.end(),
                      [&](const std::string& n) { return figTableKnows(*spec, n); })) {
        continue;
      }
      if (std::any_of(names.begin(), names.end(),
                      [&](const std::string& n) { return figTableReadsAsBundle(*spec, n); })) {
        ++bundles;
        if (std::getenv("TOOLGUARD_FIG_LIST") != nullptr) {
          std::cout << "[fig options] read as a bundle: " << command << " " << names[0] << "\n";
        }
        continue;
      }
      const bool takes_value = option.at("arg") != "none";
      ++options;
      for (const std::string& spelling : names) {
        if (!done.insert(spelling).second) continue;
        std::vector<std::string> neighbours;
        for (const FigSeed& seed : seeds) {
          figNeighbours(seed, *spec, spelling, takes_value, flag, neighbours);
        }
        for (const std::string& neighbour : neighbours) {
          ++checked;
          EXPECT_NE(figVerdict(neighbour), Verdict::Allow)
              << neighbour << "  (Fig's " << fig_path.get<std::string>() << " " << spelling
              << ", not in the table of " << command << ")";
        }
      }
    }
  }
  std::cout << "[fig options] " << commands << " commands (" << tables.size() << " tables), "
            << options << " options they leave out, " << checked << " neighbours, none allowed ("
            << bundles << " more read as bundled letters)\n";
  EXPECT_GE(commands, 230u);   // 252 when written
  EXPECT_GE(options, 5000u);   // 5969
  EXPECT_GE(checked, 25000u);  // 30813
}

// What Fig's options showed: a Long-style table read clang's and Maven's
// own options as a letter with a glued value.
TEST(FigOptions, GluedValuesAreNotTheToolsOwnOptions) {
  for (const char* command : {"clang -objcmt-migrate-all x.m", "clang -object x.o",
                              "clang -objcmt-allowlist-dir-path=/etc x.m", "mvn -llr test"}) {
    EXPECT_NE(figVerdict(command), Verdict::Allow) << command;
  }
  for (const char* command : {"gcc -obuild/x main.c", "gcc -o bin/x main.c", "clang -ObjC -c x.m",
                              "gcc -I- -Iinclude -c main.c", "mvn -q test"}) {
    EXPECT_EQ(figVerdict(command), Verdict::Allow) << command;
  }
}

// What a table says of an option's value, and what Fig says.
std::string figTableTakes(const detail::OptionEntry& entry) {
  if (entry.kind.empty()) return "none";
  return entry.optional_value ? "optional" : "required";
}

// The options where Fig is wrong about the value, with what the tool did
// when it was run ("COMMAND SPELLING" -> why).
const std::map<std::string, std::string>& figIsWrong() {
  // Fig often describes the BSD tools of macOS; the tables are those of
  // GNU coreutils and the other Debian tools, as run here.
  const std::string gnu = "GNU (Debian) --help and a run: ";
  static const std::map<std::string, std::string> wrong = {
      {"ag --color-line-number", "ag 2.2.0 --help: 'Color codes for line numbers'"},
      {"ag --color-match", "`ag --color-match hi t.txt` took hi as the color codes"},
      {"ag --color-path", "ag 2.2.0 --help: 'Color codes for path names'"},
      {"base64 -i", gnu + "-i, --ignore-garbage; `base64 -i a.txt` encoded a.txt (BSD: -i FILE)"},
      {"bat --style", "bat 0.22.1: '--style=plain' (a list of components)"},
      {"bun test -u", "bun docs: -u, --update-snapshots is a flag"},
      {"df -T", gnu + "`df -T /tmp` printed a Type column (BSD: -T TYPES)"},
      {"diff -c", gnu + "-c is a flag, -C NUM takes the number"},
      {"diff -u", gnu + "`diff -u a b` printed a unified diff; -U NUM takes the number"},
      {"file --exclude-quiet", "file 5.44 --help: --exclude-quiet TEST"},
      {"fmt -p", gnu + "-p, --prefix=STRING"},
      {"fmt -t", gnu + "-t, --tagged-paragraph; `fmt -t a.txt` formatted a.txt"},
      {"git branch --no-track", "`git branch --no-track zz master` made zz from master"},
      {"git config --local", "git config -h: --local, use repository config file"},
      {"git config --get-regexp",
       "`git config --local --get-regexp core`: the regexp is an operand"},
      {"git log --follow", "git help log: --follow, a flag"},
      {"git switch --no-track", "`git switch --no-track -c yy` switched to yy"},
      {"gradle --include-build", "Gradle docs: `gradle --include-build ../my-utils run`"},
      {"jest --clearCache", "jest-cli args: a boolean"},
      {"jest --findRelatedTests",
       "jest-cli: a boolean; the files are operands ('requires file paths' in argv._)"},
      {"less --line-num-width", "less 590 --help: --line-num-width=N"},
      {"less --status-col-width", "less 590 --help: --status-col-width=N"},
      {"ln -f", gnu + "-f, --force"},
      {"ln -i", gnu + "-i, --interactive"},
      {"ln -s", gnu + "`ln -s a.txt l1` made the link l1"},
      {"ls -T", gnu + "-T, --tabsize=COLS; `ls -w 40 -T 4 a.txt` listed a.txt (BSD: -T a flag)"},
      {"ls -w", gnu + "-w, --width=COLS (BSD: -w a flag)"},
      {"make -B", "GNU make --help: -B, --always-make, a flag"},
      {"make --always-make", "GNU make --help: -B, --always-make, a flag"},
      {"mypy *",
       "Fig gives no mypy option a value; mypy 1.0.1's main.py: argparse "
       "options of the default action `store` (--config-file FILE, ...)"},
      {"npm install --audit", "npm's config definitions: audit is a Boolean"},
      {"npm install --verbose", "npm's config definitions: --verbose is --loglevel verbose"},
      {"pip freeze -r", "pip 23 freeze --help: -r, --requirement <file>"},
      {"pip freeze --requirement", "pip 23 freeze --help: -r, --requirement <file>"},
      {"pip freeze --path", "pip 23 freeze --help: --path <path>"},
      {"pip list --format", "pip 23 list --help: --format <list_format>"},
      {"pnpm -w", "pnpm docs: -w, --workspace-root, a flag"},
      {"pnpm --workspace-root", "pnpm docs: -w, --workspace-root, a flag"},
      {"poetry install --extras", "poetry docs: -E, --extras EXTRAS"},
      {"poetry install --only", "poetry docs: --only GROUPS"},
      {"poetry install --with", "poetry docs: --with GROUPS"},
      {"poetry install --without", "poetry docs: --without GROUPS"},
      {"poetry show --only", "poetry docs: --only GROUPS"},
      {"poetry show --with", "poetry docs: --with GROUPS"},
      {"poetry show --without", "poetry docs: --without GROUPS"},
      {"prettier -c", "prettier docs: --check, a flag; the files are operands"},
      {"prettier --check", "prettier docs: --check, a flag; the files are operands"},
      {"ps -a", "procps ps --help: -a, all with tty, except session leaders"},
      {"python -m mypy *", "as mypy"},
      {"python -m pip freeze -r", "as pip freeze"},
      {"python -m pip freeze --requirement", "as pip freeze"},
      {"python -m pip freeze --path", "as pip freeze"},
      {"python -m pip list --format", "as pip list"},
      {"readlink -f", gnu + "-f, --canonicalize; `readlink -f /tmp/../tmp` printed /tmp"},
      {"sed -l", gnu + "-l N, --line-length=N (BSD: -l a flag)"},
      {"sort --parallel", gnu + "--parallel=N"},
      {"stat -f", gnu + "-f, --file-system; `stat -f /tmp` (BSD: -f FORMAT)"},
      {"stat -t", gnu + "-t, --terse; `stat -t a.txt` (BSD: -t TIMEFMT)"},
      {"tsc --generateTrace", "TypeScript docs: `tsc --generateTrace traceDir`"},
      {"tsc --locale", "TypeScript docs: --locale takes a language"},
      {"uv --native-tls", "uv docs: a flag"},
      {"uv sync --frozen", "uv docs: a flag"},
      {"uv sync --locked", "uv docs: a flag"},
      {"uv sync --no-build-isolation", "uv docs: a flag"},
      {"uv tree --frozen", "uv docs: a flag"},
      {"uv tree --locked", "uv docs: a flag"},
      {"yarn --production", "yarn 1 docs: --production[=true|false]"},
      {"yarn list --depth", "yarn 1 docs: `yarn list --depth=0`"},
      {"yarn list --pattern", "yarn 1 docs: `yarn list --pattern gulp`"},
  };
  return wrong;
}

// Where a table reads an option as a flag and Fig says it takes a value, the
// value would pass as an operand (or bundled letters); the other way round
// the table swallows the next word. Each such option was checked by running
// the tool: the table is right (and Fig is listed in figIsWrong) or fixed.
TEST(FigOptions, TablesAndFigAgreeOnWhichOptionsTakeAValue) {
  const nlohmann::json& data = figData();
  std::set<std::string> disagreements;
  std::string listed;
  std::string optional_only;
  for (const auto& [command, fig_path] : data.at("commands").items()) {
    const ProgramSpec* spec = figSpecOf(command);
    if (spec == nullptr) continue;
    for (const nlohmann::json& option : data.at("fig").at(fig_path.get<std::string>())) {
      if (option.contains("from")) continue;  // the parent's: read before the subcommand
      const std::string fig = option.at("arg").get<std::string>();
      for (const std::string& spelling : figNamesOf(option)) {
        std::optional<detail::Match> m = detail::findSpelling(spec->options, spelling);
        if (!m && spec->style != detail::OptionStyle::Gnu && spelling.starts_with("--")) {
          m = detail::findSpelling(spec->options, std::string_view(spelling).substr(1));
        }
        if (!m) continue;
        const std::string table = figTableTakes(m->entry);
        if (table == "optional" && fig == "required") {
          // `--opt VALUE`: the table reads VALUE as an operand, judged as one.
          optional_only += "  " + detail::canonicalCommand(spec->command) + " " + spelling +
                           ": table a glued value only, Fig required\n";
        }
        if ((table == "none" && fig == "required") || (table == "required" && fig == "none")) {
          const std::string key = detail::canonicalCommand(spec->command) + " " + spelling;
          if (disagreements.insert(key).second) {
            listed += "  " + key + ": table " + table + ", Fig " + fig + "\n";
          }
        }
      }
    }
  }
  // "COMMAND *": Fig is wrong about every option of the command.
  auto listedAsWrong = [](const std::string& key) {
    return figIsWrong().contains(key) ||
           figIsWrong().contains(key.substr(0, key.rfind(' ')) + " *");
  };
  std::set<std::string> used;
  for (const std::string& key : disagreements) {
    EXPECT_TRUE(listedAsWrong(key)) << key << ": the table and Fig disagree on its value";
    used.insert(figIsWrong().contains(key) ? key : key.substr(0, key.rfind(' ')) + " *");
  }
  for (const auto& [key, why] : figIsWrong()) {
    EXPECT_TRUE(used.contains(key)) << key << ": listed as Fig's mistake, but they agree";
  }
  if (std::getenv("TOOLGUARD_FIG_LIST") != nullptr) std::cout << listed << optional_only;
  std::cout << "[fig options] " << disagreements.size()
            << " options where Fig is wrong about the value (" << figIsWrong().size()
            << " entries), each checked with the tool\n";
}

// scripts/fig-options.sh reads the tables' commands from here
// (TOOLGUARD_FIG_TABLES=FILE); the data should cover every table.
TEST(FigOptions, TheDataWasMadeForTheseTables) {
  std::set<std::string> in_data;
  for (const nlohmann::json& c : figData().at("table_commands"))
    in_data.insert(c.get<std::string>());
  std::string lines;
  size_t missing = 0;
  for (const ProgramSpec* spec : detail::allProgramSpecs()) {
    lines += std::string(spec->command) + "\n";
    if (!in_data.contains(std::string(spec->command))) {
      ++missing;
      std::cout << "[fig options] not in tests/data/fig-options.json: " << spec->command
                << " (run scripts/fig-options.sh)\n";
    }
  }
  if (const char* file = std::getenv("TOOLGUARD_FIG_TABLES")) std::ofstream(file) << lines;
  EXPECT_LE(missing, 20u) << "tables were added: run scripts/fig-options.sh";
}

}  // namespace fig_options_test
}  // namespace toolguard
