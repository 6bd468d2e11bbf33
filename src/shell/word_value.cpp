// The value of a shell word: quotes removed, escapes resolved, variables
// the program set and known command outputs expanded, anything only known
// at run time marked dynamic.
#include "word_value.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "assigned_names.hpp"
#include "backslash_escapes.hpp"
#include "core/unicode_text.hpp"

namespace toolguard::detail {
namespace {

bool isSubstitution(std::string_view type) {
  return type == "command_substitution" || type == "process_substitution";
}

// Inside double quotes a backslash only quotes $ ` " \ and newline.
std::string unescapeDoubleQuoted(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      char next = text[i + 1];
      if (next == '$' || next == '`' || next == '"' || next == '\\') {
        out += next;
        ++i;
        continue;
      }
      if (next == '\n') {
        ++i;
        continue;
      }
    }
    out += c;
  }
  return out;
}

// $'...': C escapes, as bash decodes them.
std::string decodeAnsiC(std::string_view body) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 >= body.size()) {
      out += body[i];
      continue;
    }
    const char e = body[++i];
    if (const std::optional<char> c = controlEscape(e)) {
      out += *c;
      continue;
    }
    switch (e) {
      case '\'':
      case '"':
      case '?':
        out += e;
        break;
      case 'c':
        if (i + 1 < body.size()) out += static_cast<char>(body[++i] & 0x1F);
        break;
      case 'x':
      case 'u':
      case 'U':
        if (!appendHexEscape(body, i, out)) {
          out += '\\';
          out += e;
        }
        break;
      default:
        if (e >= '0' && e <= '7') {
          uint32_t value = static_cast<uint32_t>(e - '0');
          for (int n = 0; n < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7';
               ++n) {
            value = value * 8 + static_cast<uint32_t>(body[++i] - '0');
          }
          out += static_cast<char>(value);
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

}  // namespace

void collectSubstitutions(TSNode node, std::vector<TSNode>& out) {
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (isSubstitution(typeOf(child))) {
      out.push_back(child);
    } else {
      collectSubstitutions(child, out);
    }
  }
}

WordEvaluator::WordEvaluator(const BashTree& tree, ShellEnv& env, SubstitutionRunner& runner,
                             std::vector<TSNode>& substitutions, size_t& brace_budget)
    : tree_(tree),
      env_(env),
      runner_(runner),
      substitutions_(substitutions),
      brace_budget_(brace_budget) {}

MarkedText WordEvaluator::walk(TSNode node) {
  MarkedText m;
  append(node, m, false);
  return m;
}

void WordEvaluator::fields(TSNode node, std::vector<ShellWord>& out,
                           std::string_view literal_prefix) {
  const std::string source = std::string(literal_prefix) + std::string(tree_.textOf(node));
  MarkedText m;
  m.append(literal_prefix, kLiteral);
  const MarkedText rest = walk(node);
  m.text += rest.text;
  m.marks.insert(m.marks.end(), rest.marks.begin(), rest.marks.end());
  for (size_t b : rest.breaks) m.breaks.push_back(b + literal_prefix.size());
  for (size_t b : rest.after_bare_name) m.after_bare_name.push_back(b + literal_prefix.size());
  m.dynamic = rest.dynamic;
  m.quoted = rest.quoted;
  if (makesSymbolSequence(m)) runner_.valueRunsAsCode("a brace sequence through symbols ({Z..a})");
  std::optional<std::vector<MarkedText>> words =
      expandBraces(m, std::min<size_t>(brace_budget_, 256));
  // Bash expands braces before parameters: `$X{o,}` is `$Xo $X`. A brace
  // expansion right after a bare `$NAME` is not followed.
  const bool glued =
      words && words->size() > 1 &&
      std::any_of(m.after_bare_name.begin(), m.after_bare_name.end(), [&](size_t at) {
        return at < m.text.size() && m.text[at] == '{' && m.marks[at] == kLiteral;
      });
  if (!words || glued) {
    brace_budget_ = 0;
    out.push_back(ShellWord{m.text, true, source});
    return;
  }
  if (words->size() > 1) brace_budget_ -= std::min(brace_budget_, words->size());
  for (MarkedText& w : *words) {
    expandTildes(w, env_, false);
    splitFields(w, env_, source, out);
  }
}

ShellWord WordEvaluator::single(TSNode node) {
  std::vector<ShellWord> words;
  fields(node, words);
  if (words.size() == 1) return words.front();
  ShellWord joined{"", true, std::string(tree_.textOf(node))};
  for (const ShellWord& w : words) joined.text += (joined.text.empty() ? "" : " ") + w.text;
  if (words.empty()) joined.text = joined.source;
  return joined;
}

ShellWord WordEvaluator::hereString(TSNode node) {
  MarkedText m = walk(node);
  if (!m.text.empty() && m.text[0] == '~') {
    // Only a leading tilde: a here-string is neither split nor globbed.
    MarkedText head = m;
    head.breaks.clear();
    expandTildes(head, env_, false);
    m = std::move(head);
  }
  return ShellWord{m.text, m.dynamic || !m.breaks.empty(), std::string(tree_.textOf(node))};
}

ShellWord WordEvaluator::assignmentValue(TSNode node) {
  MarkedText m = walk(node);
  expandTildes(m, env_, true);
  return ShellWord{m.text, m.dynamic || !m.breaks.empty(), std::string(tree_.textOf(node))};
}

void WordEvaluator::appendSource(std::string_view text, MarkedText& m, bool quoted) {
  if (quoted) {
    m.append(unescapeDoubleQuoted(text), kQuoted);
    return;
  }
  // Outside quotes a backslash quotes the next character; backslash-newline vanishes.
  size_t i = 0;
  while (i < text.size()) {
    const size_t backslash = std::min(text.find('\\', i), text.size());
    m.append(text.substr(i, backslash - i), kLiteral);
    if (backslash + 1 >= text.size()) {
      m.append(text.substr(backslash), kLiteral);  // a trailing backslash stays
      break;
    }
    if (text[backslash + 1] != '\n') m.append(text.substr(backslash + 1, 1), kQuoted);
    i = backslash + 2;
  }
}

void WordEvaluator::appendUnknown(TSNode node, MarkedText& m) {
  m.dynamic = true;
  m.append(tree_.textOf(node), kQuoted);
  collectSubstitutions(node, substitutions_);
}

void WordEvaluator::appendParts(TSNode node, MarkedText& m, bool quoted, uint32_t start,
                                uint32_t end) {
  // Literal text between the children counts too (tree-sitter does not always
  // make a node of it).
  uint32_t cursor = start;
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    const uint32_t child_start = ts_node_start_byte(child);
    if (child_start > cursor) {
      appendSource(std::string_view(tree_.text()).substr(cursor, child_start - cursor), m, quoted);
    }
    if (quoted && typeOf(child) == "string_content") {
      m.append(unescapeDoubleQuoted(tree_.textOf(child)), kQuoted);
    } else {
      append(child, m, quoted);
    }
    cursor = std::max(cursor, static_cast<uint32_t>(ts_node_end_byte(child)));
  }
  if (end > cursor)
    appendSource(std::string_view(tree_.text()).substr(cursor, end - cursor), m, quoted);
}

void WordEvaluator::appendPositional(const std::vector<std::string>& values, bool joined,
                                     MarkedText& m, bool quoted) {
  if (joined && quoted) {
    // "$*": one word, joined by IFS's first character.
    const std::optional<std::string> ifs = env_.ifs();
    if (!ifs) {
      m.dynamic = true;
      return;
    }
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0 && !ifs->empty()) m.append(ifs->substr(0, 1), kQuoted);
      m.append(values[i], kQuoted);
    }
    return;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) m.breaks.push_back(m.text.size());
    m.append(values[i], quoted ? kQuoted : kSplit);
  }
}

namespace {

// What a parameter holds, for ${NAME...} and $NAME.
struct Parameter {
  VariableValue::State state = VariableValue::State::Unknown;
  std::string value;
  const std::vector<std::string>* list = nullptr;  // $@ and $*
};

Parameter lookUp(std::string_view name, const ShellEnv& env) {
  Parameter p;
  const std::vector<std::string>* positional = env.positional();
  if (name == "@" || name == "*") {
    if (positional != nullptr) {
      p.state = VariableValue::State::Set;
      p.list = positional;
    }
  } else if (name == "#") {
    if (positional != nullptr) p = {VariableValue::State::Set, std::to_string(positional->size())};
  } else if (name == "0") {
    if (env.zero() && !env.opaque()) p = {VariableValue::State::Set, *env.zero()};
  } else if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c));
             })) {
    const size_t index = name.size() > 6 ? SIZE_MAX : std::stoul(std::string(name));
    if (positional != nullptr) {
      if (index - 1 < positional->size()) {
        p = {VariableValue::State::Set, (*positional)[index - 1]};
      } else {
        p.state = VariableValue::State::Unset;
      }
    }
  } else if (isVariableName(name)) {
    const VariableValue v = env.get(name);
    p.state = v.state;
    p.value = v.value;
  }
  return p;
}

// An operand bash would take as it is (`${X:-/tmp}`); nullopt for one that
// needs expanding or quote removal.
std::optional<std::string> plainOperand(std::string_view word, const ShellEnv& env) {
  if (word.find_first_of("$`'\"\\{}*?[") != std::string_view::npos) return std::nullopt;
  if (word.starts_with("~")) {
    if (word.size() > 1 && word[1] != '/') return std::nullopt;
    const VariableValue home = env.get("HOME");
    if (home.state != VariableValue::State::Set) return std::nullopt;
    return home.value + std::string(word.substr(1));
  }
  return std::string(word);
}

bool isSpecialParameter(char c) {
  return c == '@' || c == '*' || c == '#' || c == '?' || c == '$' || c == '!' || c == '-' ||
         std::isdigit(static_cast<unsigned char>(c));
}

}  // namespace

void WordEvaluator::expansion(TSNode node, MarkedText& m, bool quoted) {
  const std::string_view text = tree_.textOf(node);
  std::string_view name;
  std::string_view rest;
  bool length = false;
  std::string_view literal_tail;  // `$10` is `${1}0`
  if (typeOf(node) == "simple_expansion") {
    name = text.substr(1);
    if (name.size() > 1 && std::isdigit(static_cast<unsigned char>(name[0]))) {
      literal_tail = name.substr(1);
      name = name.substr(0, 1);
    }
  } else {
    if (text.size() < 4 || !text.starts_with("${") || !text.ends_with("}")) {
      return appendUnknown(node, m);
    }
    std::string_view inner = text.substr(2, text.size() - 3);
    if (inner.size() > 1 && inner[0] == '#') {
      length = true;
      inner.remove_prefix(1);
    }
    size_t end = 0;
    if (!inner.empty() && isSpecialParameter(inner[0]) &&
        !std::isdigit(static_cast<unsigned char>(inner[0]))) {
      end = 1;
    } else {
      const bool digits = !inner.empty() && std::isdigit(static_cast<unsigned char>(inner[0]));
      while (end < inner.size() &&
             (digits
                  ? std::isdigit(static_cast<unsigned char>(inner[end]))
                  : (std::isalnum(static_cast<unsigned char>(inner[end])) || inner[end] == '_'))) {
        ++end;
      }
    }
    name = inner.substr(0, end);
    rest = inner.substr(end);
    if (length && !rest.empty()) return appendUnknown(node, m);
  }
  if (name.empty()) return appendUnknown(node, m);
  const Parameter p = lookUp(name, env_);
  if (length) {
    if (p.state == VariableValue::State::Unknown) return appendUnknown(node, m);
    size_t n = p.list != nullptr ? p.list->size() : p.value.size();
    if (p.list == nullptr &&
        std::any_of(p.value.begin(), p.value.end(), [](char c) { return (c & 0x80) != 0; })) {
      return appendUnknown(node, m);  // counted in characters of the locale
    }
    m.append(std::to_string(n), quoted ? kQuoted : kSplit);
    return;
  }
  if (rest.empty()) {
    if (p.state == VariableValue::State::Unknown) return appendUnknown(node, m);
    if (p.list != nullptr) return appendPositional(*p.list, name == "*", m, quoted);
    m.append(p.value, quoted ? kQuoted : kSplit);
    m.append(literal_tail, quoted ? kQuoted : kLiteral);
    return;
  }
  // ${NAME-word} ${NAME:-word} ${NAME=word} ${NAME+word} ${NAME?word} and their `:` forms.
  const bool colon = rest[0] == ':';
  if (colon) rest.remove_prefix(1);
  if (rest.empty() || std::string_view("-=+?").find(rest[0]) == std::string_view::npos ||
      p.state == VariableValue::State::Unknown || p.list != nullptr) {
    return appendUnknown(node, m);
  }
  const char op = rest[0];
  const std::optional<std::string> word = plainOperand(rest.substr(1), env_);
  const bool missing = p.state == VariableValue::State::Unset || (colon && p.value.empty());
  std::string value = p.value;
  if (op == '-' || op == '=') {
    if (missing) {
      if (!word) return appendUnknown(node, m);
      if (op == '=') {
        if (!isVariableName(name)) return appendUnknown(node, m);
        env_.set(name, *word);
      }
      value = *word;
    }
  } else if (op == '+') {
    if (!missing && !word) return appendUnknown(node, m);
    value = missing ? std::string() : *word;
  } else if (missing) {
    return appendUnknown(node, m);  // ${X?msg}: bash stops with an error
  }
  m.append(value, quoted ? kQuoted : kSplit);
}

void WordEvaluator::append(TSNode node, MarkedText& m, bool quoted) {
  const std::string_view type = typeOf(node);
  const std::string_view text = tree_.textOf(node);
  if (type == "word" || type == "variable_name" || type == "brace_expression" ||
      (type == "number" && ts_node_named_child_count(node) == 0)) {
    appendSource(text, m, quoted);
  } else if (type == "raw_string") {
    m.quoted = true;
    if (text.size() >= 2) m.append(text.substr(1, text.size() - 2), kQuoted);
  } else if (type == "ansi_c_string") {
    m.quoted = true;
    if (text.size() >= 3) m.append(decodeAnsiC(text.substr(2, text.size() - 3)), kQuoted);
  } else if (type == "string" || type == "translated_string") {
    const uint32_t start = ts_node_start_byte(node) + (type == "translated_string" ? 2 : 1);
    const uint32_t end = ts_node_end_byte(node);
    // "$@" with no parameters makes no word at all.
    const bool all_args = text == "\"$@\"" || text == "\"${@}\"";
    if (!all_args) m.quoted = true;
    if (end > start) appendParts(node, m, true, start, end - 1);
  } else if (type == "concatenation" || type == "command_name") {
    appendParts(node, m, quoted, ts_node_start_byte(node), ts_node_end_byte(node));
  } else if (type == "simple_expansion" || type == "expansion") {
    expansion(node, m, quoted);
    if (type == "simple_expansion" && !quoted) m.after_bare_name.push_back(m.text.size());
  } else if (type == "command_substitution") {
    std::optional<std::string> output = runner_.run(node);
    if (!output) {
      m.dynamic = true;
      m.append(text, kQuoted);
      return;
    }
    while (!output->empty() && output->back() == '\n') output->pop_back();
    m.append(*output, quoted ? kQuoted : kSplit);
  } else if (type == "process_substitution") {
    m.dynamic = true;
    m.append(text, kQuoted);
    substitutions_.push_back(node);
  } else {
    // $((...)) may assign the names it uses; arrays, and anything new: known
    // at run time only.
    if (type == "arithmetic_expansion" && forgetArithmeticNames(text, env_)) {
      runner_.valueRunsAsCode(kArithmeticValue);
    }
    appendUnknown(node, m);
  }
}

bool forgetArithmeticNames(std::string_view text, ShellEnv& env) {
  // An arithmetic expression may assign any name it uses, and evaluates the
  // value of a variable as an expression again (X='Y=1'; $((X)) sets Y), with
  // the substitutions in its subscripts (X='a[$(cmd)]').
  for (const std::string& name : arithmeticNames(text)) {
    const VariableValue v = env.get(name);
    const bool number = v.state == VariableValue::State::Set && !v.value.empty() &&
                        std::all_of(v.value.begin(), v.value.end(), [](char c) {
                          return std::isdigit(static_cast<unsigned char>(c)) || c == '-';
                        });
    if (v.state == VariableValue::State::Set && !number) {
      const bool code = v.value.find_first_of("$`") != std::string::npos;
      env.makeOpaque();
      return code;
    }
    env.forget(name);
  }
  return false;
}

}  // namespace toolguard::detail
