// Ordinary work that needs no question: a program with a table of harmless
// options (option_table.hpp), every word of the command known from it, and
// every variable it is given known not to change what runs. The checks the
// tables call for file operations, sed and awk scripts live here.
#include "safe_commands.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "command_accesses.hpp"
#include "command_args.hpp"
#include "command_paths.hpp"
#include "core/web_url.hpp"
#include "inherited_environment.hpp"
#include "option_table.hpp"
#include "shell_parse/name_lists.hpp"
#include "toolguard/paths.hpp"
#include "variable_lists.hpp"

namespace toolguard::detail {
namespace {

using Words = std::span<const ShellWord>;

// True when a word is one of the options, or `--option=value` of a long one.
bool hasOption(Words words, std::initializer_list<std::string_view> options) {
  return std::any_of(words.begin(), words.end(), [&](const ShellWord& w) {
    return std::any_of(options.begin(), options.end(), [&](std::string_view o) {
      if (w.text == o) return true;
      // `--option=value`, and Go's `-option=value`.
      return o.size() > 2 && w.text.size() > o.size() && w.text.starts_with(o) &&
             w.text[o.size()] == '=';
    });
  });
}

}  // namespace

bool isLocalUrl(const ShellWord& u) {
  return !u.dynamic && classifyWebUrl(u.text, true) == WebUrlHost::Loopback;
}

// A file operation whose every path is a file in the workspace (not the
// workspace itself, nor all of it at once).
bool workspaceFileOperation(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  if (!oneOf(name,
             {"mkdir", "touch", "cp", "mv", "rm", "rmdir", "ln", "chmod", "tee", "sed", "find"})) {
    return false;
  }
  // find deletes what it finds: only by name, under the workspace.
  if (name == "find" && (!hasOption(c.arguments(), {"-delete"}) || findNameGlobs(c).empty() ||
                         hasOption(c.arguments(), {"-exec", "-execdir", "-ok", "-okdir"}))) {
    return false;
  }
  if (name == "sed") {
    // sed -i with a script that only edits: the scripts are checked on their own.
    const CommandArgs a =
        parseArgs(c.arguments(), "efl", {"--expression", "--file", "--line-length"});
    if (a.hasAny("f", {"--file"})) return false;
    const std::vector<ShellWord> scripts = a.valuesOf({"-e", "--expression"});
    if (scripts.empty() && a.operands.empty()) return false;
    for (const ShellWord& script :
         scripts.empty() ? std::vector<ShellWord>{a.operands.front()} : scripts) {
      if (script.dynamic || !sedScriptIsSafe(script.text)) return false;
    }
  }
  const std::vector<PathAccess> accesses = commandAccesses(s);
  if (accesses.empty()) return name == "tee" || name == "mkdir" || name == "touch";
  return std::all_of(accesses.begin(), accesses.end(), [&](const PathAccess& access) {
    if (!access.known_location || !s.view.insideWorkspace(access.path)) return false;
    for (const ResolvedPath& root : s.view.resolvedWorkspaceRoots()) {
      if (access.path.resolved == root.resolved || access.path.lexical == root.lexical) {
        return false;  // the workspace itself
      }
      if (access.shape == PathShape::Pattern && access.kind == PathAccessKind::Write) {
        const std::string& glob = access.path.lexical;
        const std::string prefix = root.lexical == "/" ? "/" : root.lexical + "/";
        if (glob == prefix + "*" || glob == prefix + "**" || glob == prefix + ".*") return false;
      }
    }
    return true;
  });
}

namespace {

// `source .venv/bin/activate`: the activation script of a virtual
// environment inside the workspace.
bool venvActivation(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const Words args = c.arguments();
  if ((c.commandName() != "source" && c.commandName() != ".") || args.size() != 1 ||
      args[0].dynamic || !args[0].text.ends_with("bin/activate")) {
    return false;
  }
  const ResolvedPath script = resolvedPath(args[0], s);
  return s.view.insideWorkspace(script);
}

}  // namespace

bool sedScriptIsSafe(std::string_view script) {
  size_t i = 0;
  auto skipSpace = [&] {
    while (i < script.size() && (script[i] == ' ' || script[i] == '\t')) ++i;
  };
  // Reads a delimited part (`/re/`, the parts of s///), honouring escapes.
  auto delimited = [&](char delimiter) {
    while (i < script.size() && script[i] != delimiter) {
      if (script[i] == '\\') ++i;
      ++i;
    }
    if (i >= script.size()) return false;
    ++i;
    return true;
  };
  auto toLineOrSemicolon = [&] {
    while (i < script.size() && script[i] != '\n' && script[i] != ';' && script[i] != '}') ++i;
  };
  while (i < script.size()) {
    skipSpace();
    if (i >= script.size()) break;
    const char c = script[i];
    if (c == ';' || c == '\n' || c == '{' || c == '}' || c == '!') {
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < script.size() && script[i] != '\n') ++i;
      continue;
    }
    // Addresses: numbers, $, /regex/, \cregexc, first~step, addr1,addr2.
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '$' || c == ',' || c == '~' ||
        c == '+') {
      ++i;
      continue;
    }
    if (c == '/') {
      ++i;
      if (!delimited('/')) return false;
      while (i < script.size() && (script[i] == 'I' || script[i] == 'M')) ++i;
      continue;
    }
    if (c == '\\' && i + 1 < script.size()) {
      const char d = script[i + 1];
      i += 2;
      if (!delimited(d)) return false;
      continue;
    }
    ++i;
    if (c == 's' || c == 'y') {
      if (i >= script.size()) return false;
      const char d = script[i++];
      if (!delimited(d) || !delimited(d)) return false;
      if (c == 's') {
        // Flags: e runs the pattern space as a command, w writes a file.
        while (i < script.size() && script[i] != ';' && script[i] != '\n' && script[i] != '}') {
          if (script[i] == 'e' || script[i] == 'w' || script[i] == 'W') return false;
          ++i;
        }
      }
      continue;
    }
    if (oneOf(std::string_view(&c, 1), {"a", "i", "c"})) {
      while (i < script.size() && script[i] != '\n') ++i;  // text to the end of the line
      continue;
    }
    if (oneOf(std::string_view(&c, 1), {":", "b", "t", "T", "q", "Q", "l", "L"})) {
      toLineOrSemicolon();
      continue;
    }
    if (oneOf(std::string_view(&c, 1),
              {"p", "P", "d", "D", "n", "N", "g", "G", "h", "H", "x", "=", "z", "F"})) {
      continue;
    }
    return false;  // e, w, W, r, R, v and anything unknown
  }
  return true;
}

namespace {

// Names an awk program may not use: they run commands (system), read
// files or commands (getline), or hand out the environment, which holds
// credentials (ENVIRON; PROCINFO has gawk's too).
bool awkForbiddenName(std::string_view name) {
  return oneOf(name, {"system", "getline", "ENVIRON", "PROCINFO"});
}

bool awkNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

// The program is read as awk reads it: strings and regular expressions are
// skipped whole (a `;` or `>` in them is text), and outside them
//  - a `|` that is not `||` (a pipe to or from a command, gawk's `|&`),
//  - `@` (gawk's @include, @load and indirect calls: a name built at run
//    time calls any function, system included),
//  - a backslash (a line continued: what follows is not what it seems),
//  - the forbidden names above,
//  - a `>` at the top level of a print or printf statement (output to a
//    file, or to gawk's /inet/ network files; `print (a > b)` compares)
// are not known harmless. So is a program that does not end where it
// should (an unclosed string or expression).
bool awkProgramIsSafe(std::string_view program) {
  bool in_print = false;  // inside a print or printf statement
  int depth = 0;          // parentheses within it
  // Whether a `/` here starts a regular expression (after an operator, at
  // the start, after `(`, `,`, `{`, `;`, `!`, `~`, `&&`, `||`) or divides.
  bool operand_expected = true;
  size_t i = 0;
  while (i < program.size()) {
    const char c = program[i];
    if (c == '"' || (c == '/' && operand_expected)) {
      const char close = c;
      ++i;
      while (i < program.size() && program[i] != close) {
        if (program[i] == '\\') {
          i += 2;  // an escaped character, the closing one included
          continue;
        }
        if (program[i] == '\n') return false;  // neither spans lines
        if (close == '/' && program[i] == '[') {
          // A bracket expression: a `/` or `"` in it is one of its characters.
          ++i;
          if (i < program.size() && program[i] == '^') ++i;
          if (i < program.size() && program[i] == ']') ++i;
          while (i < program.size() && program[i] != ']') {
            if (program[i] == '\n') return false;
            ++i;
          }
        }
        ++i;
      }
      if (i >= program.size()) return false;  // unclosed
      ++i;
      operand_expected = false;
      continue;
    }
    if (c == '\\' || c == '@') return false;
    if (c == '|') {
      if (i + 1 >= program.size() || program[i + 1] != '|') return false;
      i += 2;
      operand_expected = true;
      continue;
    }
    if (c == '#') {  // a comment, to the end of the line
      while (i < program.size() && program[i] != '\n') ++i;
      continue;
    }
    if (awkNameChar(c)) {
      size_t end = i;
      while (end < program.size() && awkNameChar(program[end])) ++end;
      const std::string_view name = program.substr(i, end - i);
      if (awkForbiddenName(name)) return false;
      if (name == "print" || name == "printf") {
        in_print = true;
        depth = 0;
        operand_expected = true;
      } else {
        // A keyword that takes an expression after it (`return /x/`).
        operand_expected = oneOf(name, {"return", "in", "case", "do", "else"});
      }
      i = end;
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ';' || c == '}' || c == '{' || c == '\n') {
      if (depth == 0) in_print = false;
    }
    if (c == '>' && in_print && depth <= 0) return false;
    if (!std::isspace(static_cast<unsigned char>(c))) operand_expected = c != ')' && c != ']';
    ++i;
  }
  return true;
}

namespace {

// The project's own build wrappers (`./gradlew`, `./mvnw`) and the tools of
// its virtual environment (`.venv/bin/pip`), run from the workspace: judged
// by their names, as the project's own build is.
bool projectTool(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const ShellWord& program = c.words[0];
  if (program.dynamic || !s.view.insideWorkspace(resolvedPath(program, s))) return false;
  if (oneOf(c.commandName(), {"gradlew", "mvnw"})) return true;
  const std::string& path = program.text;
  return path.find("venv/bin/") != std::string::npos &&
         path.find("venv/bin/") + 9 + c.name().size() == path.size();
}

}  // namespace

bool activatesWorkspaceVenv(const CommandScene& s) {
  return venvActivation(s);
}

namespace {

// The name a program's table is found by: python3.12 is python3.
std::string_view tableName(std::string_view name) {
  if (name.starts_with("python3.") && name.size() > 8) return "python3";
  if (name.starts_with("pip3.") && name.size() > 5) return "pip3";
  return name;
}

}  // namespace

std::optional<std::string> safeCommand(const CommandScene& s) {
  std::string unknown;
  return ordinaryWork(s, unknown) ? std::optional<std::string>("") : std::nullopt;
}

bool ordinaryWork(const CommandScene& s, std::string& unknown, const ProgramSpec** table) {
  const SimpleCommand& c = s.command;
  if (c.words.empty() || c.nameIsDynamic()) {
    unknown = "the program is known only at run time";
    return false;
  }
  if (c.runsFromUnusualPlace() && !projectTool(s)) {
    unknown = "'" + c.words[0].text + "' is not the system's " + c.name();
    return false;
  }
  // Every variable it is given must be one that changes nothing that runs.
  for (const auto& [name, value] : c.assignments) {
    if (value.dynamic || !environmentVariableIsHarmless(name, value.text, true)) {
      unknown = "the variable " + name + " is not known to be harmless";
      return false;
    }
  }
  const ProgramSpec* spec = programSpec(tableName(c.commandName()));
  if (spec == nullptr) {
    unknown = "'" + c.name() + "' is not a program known to be harmless";
    return false;
  }
  const TableParse parse = parseWithTable(*spec, c.arguments(), &s);
  if (!parse.known()) {
    unknown = parse.unknown;
    return false;
  }
  // The words xargs and find -exec add when it runs are words of it too: a
  // name that may start with `-` may be an option.
  if (c.unknown_extra_arguments) {
    for (const SimpleCommand& run : withXargsInputs(s)) {
      const TableParse with_names = parseWithTable(*spec, run.arguments(), &s);
      if (!with_names.known()) {
        unknown = with_names.unknown;
        return false;
      }
    }
  }
  if (const std::optional<std::string> secret = printsSecretVariable(c)) {
    unknown = *secret;
    return false;
  }
  // And every variable it inherits from the agent.
  if (const std::optional<std::string> inherited = inheritedVariableConcern(s)) {
    unknown = *inherited;
    return false;
  }
  if (table != nullptr) *table = parse.spec;
  return true;
}

std::optional<std::string> printsSecretVariable(const SimpleCommand& c) {
  // The names a run-time word expands that may hold a credential.
  auto secretIn = [](const ShellWord& w) -> std::optional<std::string> {
    if (!w.dynamic) return std::nullopt;
    const std::string& t = w.text;
    for (size_t at = t.find('$'); at != std::string::npos; at = t.find('$', at + 1)) {
      size_t start = at + 1;
      if (start < t.size() && t[start] == '{') ++start;
      size_t end = start;
      while (end < t.size() &&
             (std::isalnum(static_cast<unsigned char>(t[end])) || t[end] == '_')) {
        ++end;
      }
      const std::string name = t.substr(start, end - start);
      if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) continue;
      if (variableMayHoldSecret(name)) return "prints $" + name + ", which may hold a credential";
    }
    return std::nullopt;
  };
  if (oneOf(c.commandName(), {"echo", "printf"})) {
    for (const ShellWord& w : c.arguments()) {
      if (auto secret = secretIn(w)) return secret;
    }
  }
  // What any program reads on its standard input may be printed (cat,
  // grep, tee, ...): a here-string or here-document expanding one too.
  for (const ShellRedirect& r : c.redirects) {
    if (r.op == "<<<") {
      if (auto secret = secretIn(r.target)) return secret;
    } else if (r.op == "<<" || r.op == "<<-") {
      if (auto secret = secretIn(r.document)) return secret;
    }
  }
  return std::nullopt;
}

}  // namespace toolguard::detail
