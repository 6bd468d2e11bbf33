// Which variables a statement may assign, read from its syntax alone.
#include "assigned_names.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "name_lists.hpp"

namespace toolguard::detail {
namespace {

// Commands after which anything may have changed.
bool changesAnything(std::string_view name) {
  return oneOf(name, {"eval", "source", ".", "trap", "alias", "enable", "declare", "typeset",
                      "local", "export", "readonly", "let", "coproc", "shopt", "fc"});
}

class Scanner {
 public:
  Scanner(const BashTree& tree, const std::set<std::string, std::less<>>& functions,
          AssignedNames& out)
      : tree_(tree), functions_(functions), out_(out) {}

  void scan(TSNode node) {
    const std::string_view type = typeOf(node);
    if (type == "variable_assignment") {
      TSNode name = ts_node_child_by_field_name(node, "name", 4);
      if (!ts_node_is_null(name)) addName(tree_.textOf(name));
    } else if (type == "for_statement") {
      TSNode var = ts_node_child_by_field_name(node, "variable", 8);
      if (!ts_node_is_null(var)) addName(tree_.textOf(var));
    } else if (type == "c_style_for_statement" || type == "arithmetic_expansion" ||
               type == "subscript") {
      for (const std::string& n : arithmeticNames(tree_.textOf(node))) out_.names.insert(n);
    } else if (type == "expansion") {
      // ${X:=word} and ${X=word} assign X.
      const std::string_view text = tree_.textOf(node);
      size_t end = 2;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
        ++end;
      }
      const std::string_view rest = text.substr(end);
      if (rest.starts_with(":=") || rest.starts_with("=")) addName(text.substr(2, end - 2));
    } else if (type == "declaration_command" || type == "unset_command") {
      declaration(node);
    } else if (type == "command") {
      command(node);
    } else if (type == "compound_statement" && tree_.textOf(node).starts_with("((")) {
      for (const std::string& n : arithmeticNames(tree_.textOf(node))) out_.names.insert(n);
    }
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count && !out_.everything; ++i) scan(ts_node_named_child(node, i));
  }

 private:
  void addName(std::string_view name) {
    const size_t bracket = name.find('[');
    if (bracket != std::string_view::npos) name = name.substr(0, bracket);
    if (name.ends_with("+")) name.remove_suffix(1);
    out_.names.insert(std::string(name));
  }

  void declaration(TSNode node) {
    // export/declare/local/readonly/typeset/unset: every name, and
    // attributes for options other than -x, -g, -p, -f.
    bool attributes = false;
    const uint32_t count = ts_node_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode child = ts_node_child(node, i);
      const std::string_view text = tree_.textOf(child);
      if (!ts_node_is_named(child)) {
        if (text == "readonly") attributes = true;
        continue;
      }
      if (typeOf(child) == "variable_assignment") {
        TSNode name = ts_node_child_by_field_name(child, "name", 4);
        if (!ts_node_is_null(name)) {
          addName(tree_.textOf(name));
          if (attributes) out_.attributes.insert(std::string(tree_.textOf(name)));
        }
        continue;
      }
      const std::optional<std::string> word = literalWord(text);
      if (!word) {
        out_.everything = true;
        return;
      }
      if ((word->starts_with("-") || word->starts_with("+")) && word->size() > 1) {
        if (word->find('n') != std::string::npos) out_.everything = true;  // nameref
        if (word->find_first_not_of("-+xgpfF") != std::string::npos) attributes = true;
        continue;
      }
      const std::string_view name = std::string_view(*word).substr(0, word->find('='));
      if (isVariableName(name)) {
        addName(name);
        if (attributes) out_.attributes.insert(std::string(name));
      }
    }
  }

  void command(TSNode node) {
    TSNode name_node = ts_node_child_by_field_name(node, "name", 4);
    if (ts_node_is_null(name_node)) return;
    const std::string_view name_text = tree_.textOf(name_node);
    const std::optional<std::string> name = literalWord(name_text);
    // `$cmd X` may be `read X` or `eval ...`; so may a glob (`r?ad X` with a
    // file named read here) or a brace expansion (`{rea,}d X`).
    if (!name || name_text.find_first_of("*?[{}") != std::string_view::npos) {
      out_.everything = true;
      out_.runs_code = true;
      return;
    }
    std::string_view base = std::string_view(*name).substr(name->rfind('/') + 1);
    uint32_t first_argument = 0;
    std::optional<std::string> inner;
    if (base == "command" || base == "builtin") {
      // `command -v x` looks up; `command read X` runs the builtin.
      const uint32_t count = ts_node_named_child_count(node);
      for (uint32_t i = 0; i < count && !inner; ++i) {
        TSNode child = ts_node_named_child(node, i);
        if (ts_node_eq(child, name_node) || typeOf(child).ends_with("_redirect")) continue;
        inner = literalWord(tree_.textOf(child));
        if (!inner) {
          out_.everything = true;
          return;
        }
        if (inner->starts_with("-")) {
          if (inner->find_first_of("vV") != std::string::npos) return;
          inner.reset();
          continue;
        }
        first_argument = i + 1;
      }
      if (!inner) return;
      base = *inner;
    }
    if (base == "eval" || base == "source" || base == ".") out_.runs_code = true;
    if ((functions_.count(base) != 0 && first_argument == 0) || changesAnything(base)) {
      out_.everything = true;
      return;
    }
    if (base == "break" || base == "continue") out_.breaks = true;
    if (base == "set" || base == "shift") out_.positional = true;
    if (!changesNamedVariables(base)) return;
    // read, mapfile, getopts, printf -v, unset, wait -p, ...: every word
    // that is a name may be assigned.
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = first_argument; i < count; ++i) {
      TSNode child = ts_node_named_child(node, i);
      if (ts_node_eq(child, name_node) || typeOf(child).ends_with("_redirect")) continue;
      const std::optional<std::string> word = literalWord(tree_.textOf(child));
      if (!word) {
        out_.everything = true;
        return;
      }
      std::string_view w = *word;
      if (w.starts_with("-v") || w.starts_with("-a") || w.starts_with("-p")) w.remove_prefix(2);
      if (isVariableName(w)) addName(w);
    }
  }

  const BashTree& tree_;
  const std::set<std::string, std::less<>>& functions_;
  AssignedNames& out_;
};

}  // namespace

bool mayAssignAnything(std::string_view text) {
  // Quotes and backslashes can spell any name (`r''ead`), and so can globs
  // and braces (`r?ad`, `{rea,}d`); `=`, `$`, `[`, `(` and braces start
  // assignments, expansions, arithmetic, functions and `{fd}>` redirections.
  if (text.find_first_of("=$`[(){}\"'\\*?") != std::string_view::npos) return true;
  static constexpr std::string_view kWords[] = {
      "for",    "select", "declare",  "typeset", "export",   "local", "readonly", "unset",
      "eval",   "source", "trap",     "alias",   "enable",   "let",   "coproc",   "shopt",
      "fc",     "break",  "continue", "set",     "shift",    "read",  "mapfile",  "getopts",
      "printf", "wait",   "command",  "builtin", "function", "hash"};
  for (std::string_view word : kWords) {
    if (text.find(word) != std::string_view::npos) return true;
  }
  // `.` as a command of its own (`. ./env.sh`).
  const auto blank = [](char c) {
    return std::string_view(" \t\n;&|").find(c) != std::string_view::npos;
  };
  for (size_t at = text.find('.'); at != std::string_view::npos; at = text.find('.', at + 1)) {
    if ((at == 0 || blank(text[at - 1])) && (at + 1 == text.size() || blank(text[at + 1]))) {
      return true;
    }
  }
  return false;
}

bool changesNamedVariables(std::string_view name) {
  return oneOf(name,
               {"read", "mapfile", "readarray", "getopts", "printf", "unset", "wait", "select"});
}

std::optional<std::string> literalWord(std::string_view text) {
  if (text.find_first_of("$`") != std::string_view::npos) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      out += text[++i];
    } else if (text[i] != '\'' && text[i] != '"') {
      out += text[i];
    }
  }
  return out;
}

std::set<std::string, std::less<>> arithmeticNames(std::string_view text) {
  std::set<std::string, std::less<>> names;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) || c == '_') {
      size_t end = i;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
        ++end;
      }
      names.insert(std::string(text.substr(i, end - i)));
      i = end;
    } else if (std::isdigit(c)) {
      while (i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]))) ++i;
    } else {
      ++i;
    }
  }
  return names;
}

void AssignedNames::forgetIn(ShellEnv& env) const {
  if (everything) {
    env.makeOpaque();
    return;
  }
  for (const std::string& n : names) env.forget(n);
  for (const std::string& n : attributes) env.forgetForGood(n);
  if (positional) env.forgetPositional();
}

AssignedNames assignedNames(TSNode node, const BashTree& tree,
                            const std::set<std::string, std::less<>>& functions) {
  AssignedNames out;
  Scanner(tree, functions, out).scan(node);
  return out;
}

}  // namespace toolguard::detail
