// What make runs from a Makefile: its recipes, `$(shell ...)`, `!=`, with
// the variables it sets plainly substituted, and the lines that change how
// recipes run (build_files.hpp's unjudged parts).
#include "makefile_scripts.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "build_files.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

void replaceAllInPlace(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// Make's $(shell CMD) runs CMD; `$$` is a `$` for the shell.
std::string makeToShell(std::string text) {
  replaceAllInPlace(text, "$(shell ", "$(");
  replaceAllInPlace(text, "${shell ", "$(");
  replaceAllInPlace(text, "$$", "$");
  return text;
}

bool isMakeNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The variables a Makefile sets exactly once, at the start of a line, with
// `=`, `:=` or `::=` to text holding no expansion, and touches nowhere else
// (no `+=`, `?=`, `override`, `export`, `define`, target-specific value or
// conditional around it, and no `include` in the file): an assignment in the
// file wins over the environment, and `make NAME=...` is judged where make
// is called, so a recipe's `$(NAME)` is that text.
std::map<std::string, std::string, std::less<>> plainMakeVariables(
    const std::vector<std::string>& file_lines) {
  std::map<std::string, std::string, std::less<>> plain;
  std::set<std::string, std::less<>> tainted;
  int conditional_depth = 0;
  for (const std::string& raw : file_lines) {
    if (raw.starts_with('\t')) continue;
    const std::string_view line = raw;
    const size_t first = line.find_first_not_of(" ");
    const std::string_view word =
        first == std::string_view::npos ? "" : line.substr(first, line.find(' ', first) - first);
    if (oneOf(word, {"include", "-include", "sinclude"})) return {};
    if (oneOf(word, {"ifeq", "ifneq", "ifdef", "ifndef"})) ++conditional_depth;
    if (word == "endif" && conditional_depth > 0) --conditional_depth;
    // Every name followed by an assignment operator on this line.
    for (size_t i = 0; i < line.size();) {
      if (!isMakeNameChar(line[i]) || (i > 0 && isMakeNameChar(line[i - 1]))) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < line.size() && isMakeNameChar(line[end])) ++end;
      const std::string name(line.substr(i, end - i));
      size_t op = line.find_first_not_of(" \t", end);
      std::string_view rest = op == std::string_view::npos ? "" : line.substr(op);
      const bool simple =
          rest.starts_with("=") || rest.starts_with(":=") || rest.starts_with("::=");
      const bool other = rest.starts_with("+=") || rest.starts_with("?=") || rest.starts_with("!=");
      if (simple || other) {
        const size_t eq = rest.find('=');
        std::string value(rest.substr(eq + 1));
        value.erase(0, value.find_first_not_of(" \t"));
        while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.pop_back();
        const bool defines_plainly = simple && i == 0 && conditional_depth == 0 &&
                                     value.find_first_of("$\\#") == std::string::npos;
        if (defines_plainly && !plain.contains(name) && !tainted.contains(name)) {
          plain[name] = value;
        } else {
          tainted.insert(name);
          plain.erase(name);
        }
      }
      if (oneOf(name, {"override", "export", "define", "undefine", "unexport", "private"})) {
        // `export CC = x`, `define CC`: the next name is not plain.
        const size_t next = line.find_first_not_of(" \t", end);
        if (next != std::string_view::npos) {
          size_t next_end = next;
          while (next_end < line.size() && isMakeNameChar(line[next_end])) ++next_end;
          tainted.insert(std::string(line.substr(next, next_end - next)));
          plain.erase(std::string(line.substr(next, next_end - next)));
        }
      }
      i = end;
    }
  }
  return plain;
}

// A recipe with `$(NAME)`, `${NAME}` and `$N` of plain variables replaced by
// their text; `$$` (a `$` for the shell), automatic variables (`$@`, `$<`,
// `$(@D)`, ...) and `$(shell ...)` are left for makeToShell and the shell
// rules. Nullopt when any other reference remains: its text is known only
// when make runs (from the environment, `?=`, `+=`, a function), and make
// pastes it in before the shell reads quotes (`echo '$(X)'` runs whatever
// X holds).
std::optional<std::string> substitutePlainVariables(
    const std::string& recipe, const std::map<std::string, std::string, std::less<>>& plain) {
  static constexpr std::string_view kAutomatic = "@<^*?+|%";
  std::string out;
  for (size_t i = 0; i < recipe.size(); ++i) {
    if (recipe[i] != '$' || i + 1 >= recipe.size()) {
      out += recipe[i];
      continue;
    }
    const char next = recipe[i + 1];
    if (next == '$' || kAutomatic.find(next) != std::string_view::npos) {
      out += recipe.substr(i, 2);
      ++i;
      continue;
    }
    if (next == '(' || next == '{') {
      const char close = next == '(' ? ')' : '}';
      const size_t end = recipe.find(close, i + 2);
      if (end == std::string::npos) return std::nullopt;
      const std::string_view name = std::string_view(recipe).substr(i + 2, end - i - 2);
      if (const auto it = plain.find(name); it != plain.end()) {
        out += it->second;
        i = end;
        continue;
      }
      if ((!name.empty() && kAutomatic.find(name[0]) != std::string_view::npos) ||
          name.starts_with("shell ") || name.starts_with("shell\t")) {
        out += recipe[i];  // the rest is copied as it is
        continue;
      }
      return std::nullopt;
    }
    // `$X`: the make variable X.
    if (const auto it = plain.find(std::string_view(&recipe[i + 1], 1)); it != plain.end()) {
      out += it->second;
      ++i;
      continue;
    }
    return std::nullopt;
  }
  return out;
}

// A Makefile line that changes how recipes run or pulls in text not read
// here: `include`, an exported variable (recipes' environment), SHELL,
// .SHELLFLAGS, .RECIPEPREFIX, MAKEFLAGS, and functions that run or write
// (`$(eval`, `$(file`, `$(guile`). Nullopt for other lines.
std::optional<std::string> makeSetting(std::string_view line) {
  const size_t first = line.find_first_not_of(" ");
  if (first == std::string_view::npos || line[first] == '#') return std::nullopt;
  const std::string_view rest = line.substr(first);
  const std::string_view word = rest.substr(0, rest.find_first_of(" \t"));
  if (oneOf(word,
            {"include", "-include", "sinclude", "export", "unexport", "vpath", "load", "-load"})) {
    return "the Makefile line `" + std::string(rest) + "`";
  }
  for (std::string_view name :
       {"SHELL", ".SHELLFLAGS", ".RECIPEPREFIX", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKESHELL",
        ".ONESHELL", "override", ".SECONDEXPANSION"}) {
    if (rest.starts_with(name) &&
        (rest.size() == name.size() || !isMakeNameChar(rest[name.size()]))) {
      return "the Makefile line `" + std::string(rest) + "`";
    }
  }
  for (std::string_view function : {"$(eval", "${eval", "$(file", "${file", "$(guile", "${guile"}) {
    if (rest.find(function) != std::string_view::npos) {
      return "the Makefile line `" + std::string(rest) + "`";
    }
  }
  return std::nullopt;
}

// True for a Makefile line that assigns a variable (`=`, `:=`, `::=`,
// `?=`, `+=`, `!=`) rather than naming targets.
bool makeAssignment(std::string_view line) {
  const size_t eq = line.find('=');
  if (eq == std::string_view::npos) return false;
  const size_t colon = line.find(':');
  // `a: b` is a rule; `a := b` and `a ::= b` assign.
  return colon == std::string_view::npos || colon > eq || line.substr(colon).starts_with(":=") ||
         line.substr(colon).starts_with("::=");
}

// True when every function a line calls (`$(NAME args)`, `${NAME args}`) is
// one that only computes text: make expands a rule's targets and
// prerequisites as it reads the file, so `all: $(shell rm -rf ~)` runs the
// shell before any recipe. Plain references (`$(SRCS)`, `$(SRCS:.c=.o)`,
// `$@`) call nothing; the assignments they name are judged on their own.
bool callsOnlyTextFunctions(std::string_view text) {
  for (size_t at = text.find('$'); at != std::string_view::npos; at = text.find('$', at + 1)) {
    if (at + 1 >= text.size() || (text[at + 1] != '(' && text[at + 1] != '{')) continue;
    const std::string_view inner = text.substr(at + 2);
    const size_t end = inner.find_first_of(" \t)}:");
    if (end == std::string_view::npos || (inner[end] != ' ' && inner[end] != '\t')) continue;
    const std::string_view function = inner.substr(0, end);
    if (!oneOf(function,
               {"wildcard", "patsubst",   "subst",    "addprefix", "addsuffix", "basename",
                "notdir",   "dir",        "sort",     "strip",     "filter",    "filter-out",
                "word",     "words",      "wordlist", "firstword", "lastword",  "join",
                "suffix",   "abspath",    "realpath", "foreach",   "if",        "or",
                "and",      "findstring", "error",    "warning",   "info"})) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> makefileScripts(std::string_view content) {
  std::vector<std::string> out;
  const std::vector<std::string> file_lines = textLines(content);
  const auto plain = plainMakeVariables(file_lines);
  auto unjudged = [&](std::string what) {
    out.push_back(std::string(kUnjudgedBuildText) + std::move(what));
  };
  auto recipe = [&](const std::string& text) {
    if (const std::optional<std::string> known = substitutePlainVariables(text, plain)) {
      out.push_back(makeToShell(*known));
    } else {
      unjudged("the recipe `" + text + "`, which holds a make variable known only when make runs");
    }
  };
  // A statement (not a recipe line): an assignment, a rule or a directive.
  auto statement = [&](const std::string& text) {
    if (const std::optional<std::string> setting = makeSetting(text)) {
      unjudged(*setting);
    } else if (makeAssignment(text)) {
      const size_t eq = text.find('=');
      const std::string name = text.substr(0, text.find_first_of(" \t:?+!="));
      if (eq > 0 && text[eq - 1] == '!') {
        recipe(text.substr(eq + 1));  // `X != cmd`: run by the shell as make reads the file
      } else if (text.find("$(shell") != std::string::npos ||
                 text.find("${shell") != std::string::npos) {
        recipe(text.substr(text.find("shell") - 2));  // from the function on
      } else if (!plain.contains(name)) {
        unjudged("the Makefile line `" + text + "`");  // a value known only when make runs
      }
    } else if (text.find(':') != std::string::npos && !callsOnlyTextFunctions(text)) {
      unjudged("the Makefile rule `" + text + "`, which calls a make function as make reads it");
    } else if (text.find(':') != std::string::npos &&
               text.substr(0, text.find(';')).find('=', text.find(':')) != std::string::npos) {
      // `all: X != cmd`: a target-specific variable, set (and `!=` run) as
      // make reads the file.
      unjudged("the Makefile target-specific variable `" + text + "`");
    } else if (text.find(':') != std::string::npos) {
      // A rule: which targets run which others, and a recipe after `;`.
      const size_t semicolon = text.find(';');
      if (semicolon != std::string::npos) recipe(text.substr(semicolon + 1));
      out.push_back(std::string(kUnjudgedLinkText) + "the Makefile rule `" +
                    text.substr(0, semicolon) + "`");
    } else {
      unjudged("the Makefile line `" + text + "`");
    }
  };
  std::string pending;  // a line continued with a backslash
  bool pending_recipe = false;
  // A tab-started line is a recipe only in a rule's context: after a rule,
  // until an assignment or a directive. Elsewhere make reads it as a
  // statement (`\tX != cmd` before any rule runs cmd).
  bool in_rule = false;
  for (const std::string& line : file_lines) {
    if (pending.empty()) {
      if (line.starts_with('\t') && !in_rule) {
        pending = line.substr(line.find_first_not_of(" \t") == std::string::npos
                                  ? line.size()
                                  : line.find_first_not_of(" \t"));
        pending_recipe = false;
        if (pending.empty() || pending.starts_with('#')) {
          pending.clear();
          continue;
        }
      } else if (line.starts_with('\t')) {
        std::string text = line.substr(1);
        while (!text.empty() && (text[0] == '@' || text[0] == '-' || text[0] == '+' ||
                                 text[0] == ' ' || text[0] == '\t')) {
          text.erase(0, 1);
        }
        pending = text;
        pending_recipe = true;
      } else {
        const size_t first = line.find_first_not_of(" ");
        if (first == std::string::npos || line[first] == '#') continue;
        pending = line.substr(first);
        pending_recipe = false;
      }
    } else {
      pending += line;
    }
    if (pending.ends_with('\\')) {
      pending.pop_back();
      pending += ' ';
      continue;
    }
    if (pending_recipe) {
      recipe(pending);
    } else {
      statement(pending);
      in_rule = pending.find(':') != std::string::npos && !makeAssignment(pending) &&
                !makeSetting(pending);
    }
    pending.clear();
  }
  if (!pending.empty()) pending_recipe ? recipe(pending) : statement(pending);
  return out;
}

}  // namespace toolguard::detail
