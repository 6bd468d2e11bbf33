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
  // bash keeps the text up to a NUL (`$'a\0b'` is `a`).
  out.resize(std::min(out.size(), out.find('\0')));
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
  for (const WordEvent& e : rest.events) {
    m.events.push_back(WordEvent{e.at + literal_prefix.size(), e.kind});
  }
  for (size_t b : rest.after_bare_name) m.after_bare_name.push_back(b + literal_prefix.size());
  m.dynamic = rest.dynamic;
  m.assigns = rest.assigns;
  m.positional_inside = rest.positional_inside;
  // A backslash-newline in a word: the grammar does not always take it out.
  if (source.find("\\\n") != std::string::npos) m.dynamic = true;
  if (makesSymbolSequence(m)) runner_.valueRunsAsCode("a brace sequence through symbols ({Z..a})");
  std::optional<std::vector<MarkedText>> words =
      expandBraces(m, std::min<size_t>(brace_budget_, 256));
  // Bash expands braces before parameters: `$X{o,}` is `$Xo $X`. A brace
  // expansion right after a bare `$NAME` is not followed, nor one in a word
  // that assigns (`{y,${X=a}}$X` is `y` and `aa`: each word is expanded
  // in turn).
  const bool glued =
      words && words->size() > 1 &&
      (m.assigns || std::any_of(m.after_bare_name.begin(), m.after_bare_name.end(), [&](size_t at) {
         // `{a,$X}y` is `a` and `$Xy`: the name goes on after the brace.
         return at < m.text.size() && m.marks[at] == kLiteral &&
                (m.text[at] == '{' || m.text[at] == '}' || m.text[at] == ',');
       }));
  const std::string_view written = tree_.textOf(node);
  if (m.positional_inside && literal_prefix.empty() &&
      (written == "$@" || written == "$*" || written == "${@}" || written == "${*}" ||
       written == "\"$@\"" || written == "\"${@}\"")) {
    m.positional_inside = false;
  }
  if (!words || glued || m.positional_inside) {
    brace_budget_ = 0;
    out.push_back(ShellWord{m.text, true, source});
    return;
  }
  if (words->size() > 1) brace_budget_ -= std::min(brace_budget_, words->size());
  for (MarkedText& w : *words) {
    expandTildes(w, env_, false, words->size() == 1);
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
  // Only a leading tilde: a here-string is neither split nor globbed.
  if (!m.text.empty() && m.text[0] == '~') expandTildes(m, env_, false);
  return ShellWord{m.text, m.dynamic || m.hasBreaks(), std::string(tree_.textOf(node))};
}

ShellWord WordEvaluator::assignmentValue(TSNode node) {
  MarkedText m = walk(node);
  expandTildes(m, env_, true);
  return ShellWord{m.text, m.dynamic || m.hasBreaks(), std::string(tree_.textOf(node))};
}

void WordEvaluator::appendSource(std::string_view text, MarkedText& m, bool quoted) {
  // A `$` the grammar left in text (`$@{1..3}` read as braces) that bash
  // reads as an expansion: not known.
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '$' &&
               (std::isalnum(static_cast<unsigned char>(text[i + 1])) ||
                std::string_view("_@*#?$!-{('\"").find(text[i + 1]) != std::string_view::npos)) {
      m.dynamic = true;
    }
  }
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
  // `${X:=...}` not followed, also inside another expansion: X may be
  // assigned.
  const std::string_view text = tree_.textOf(node);
  for (size_t at = text.find("${"); at != std::string_view::npos; at = text.find("${", at + 2)) {
    size_t end = at + 2;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
      ++end;
    }
    const size_t op = end < text.size() && text[end] == ':' ? end + 1 : end;
    if (end > at + 2 && op < text.size() && text[op] == '=')
      env_.forget(text.substr(at + 2, end - at - 2));
  }
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
      std::string_view gap = std::string_view(tree_.text()).substr(cursor, child_start - cursor);
      // `$"..."` (a string translated by the locale; the grammar leaves the
      // `$` outside the string): the `$` is no text.
      if (!quoted && typeOf(child) == "string" && gap.ends_with('$')) {
        size_t backslashes = 0;
        while (backslashes + 1 < gap.size() && gap[gap.size() - 2 - backslashes] == '\\') {
          ++backslashes;
        }
        if (backslashes % 2 == 0) gap.remove_suffix(1);
      }
      appendSource(gap, m, quoted);
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
  if (quoted) {
    // "$@": a word for each, even an empty one.
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) m.event(WordEvent::kBreak);
      m.append(values[i], kQuoted);
    }
    if (!values.empty()) m.event(WordEvent::kNull);
    return;
  }
  // Unquoted $@ and $*: joined by IFS's first character when that is a
  // blank, which then splits them; with an empty IFS, a word each and the
  // empty ones vanish. With IFS `:` bash makes an empty word of an empty
  // parameter between two others but not of a blank one: not followed.
  const std::optional<std::string> ifs = env_.ifs();
  if (!ifs) {
    m.dynamic = true;
    return;
  }
  if (values.size() > 1 && !ifs->empty() &&
      std::string_view(" \t\n").find((*ifs)[0]) == std::string_view::npos) {
    m.dynamic = true;  // IFS `:`: not quite as if joined by `:` (a leading blank parameter)
    return;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) {
      m.append(ifs->substr(0, 1), kSplit);
      m.event(WordEvent::kLoose);
    }
    m.append(values[i], kSplit);
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

// An operand bash would take as it is (`${X:-/tmp}`, `${X:-~/d}`): the home
// directory a leading `~` stands for (never split) and the rest; nullopt
// for one that needs expanding or quote removal.
struct Operand {
  std::string home;
  std::string rest;
};

std::optional<Operand> plainOperand(std::string_view word, const ShellEnv& env, bool quoted) {
  if (word.find_first_of("$`'\"\\{}*?[") != std::string_view::npos) return std::nullopt;
  // `${X:-a:~}` in an assignment's value expands that `~` too.
  if (word.find('~', 1) != std::string_view::npos) return std::nullopt;
  // Inside double quotes `"${X:-~}"` is `~`.
  if (word.starts_with("~") && !quoted) {
    if (word.size() > 1 && word[1] != '/') return std::nullopt;
    const VariableValue home = env.get("HOME");
    if (home.state != VariableValue::State::Set) return std::nullopt;
    return Operand{home.value, std::string(word.substr(1))};
  }
  return Operand{"", std::string(word)};
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
    if (p.list != nullptr) {
      // Unquoted $@ and $* next to other text split in ways of their own
      // (`\ $@x` with no parameters is two words): followed alone only.
      if (!quoted || name == "@") m.positional_inside = true;
      return appendPositional(*p.list, name == "*", m, quoted);
    }
    m.append(p.value, quoted ? kQuoted : kSplit);
    m.append(literal_tail, kQuoted);  // `$2x=~` is no assignment
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
  const std::optional<Operand> word = plainOperand(rest.substr(1), env_, quoted);
  const bool missing = p.state == VariableValue::State::Unset || (colon && p.value.empty());
  Operand value{"", p.value};
  if (op == '-' || op == '=') {
    if (missing) {
      if (!word) return appendUnknown(node, m);
      if (op == '=') {
        if (!isVariableName(name)) return appendUnknown(node, m);
        env_.set(name, word->home + word->rest);
        m.assigns = true;
      }
      value = *word;
    }
  } else if (op == '+') {
    if (!missing && !word) return appendUnknown(node, m);
    value = missing ? Operand{} : *word;
  } else if (missing) {
    return appendUnknown(node, m);  // ${X?msg}: bash stops with an error
  }
  // The home directory `${X:-~}` makes is not split; `${X:=~}` expands to
  // the variable's new value, which is.
  m.append(value.home, quoted || op != '=' ? kQuoted : kSplit);
  m.append(value.rest, quoted ? kQuoted : kSplit);
}

void WordEvaluator::append(TSNode node, MarkedText& m, bool quoted) {
  const std::string_view type = typeOf(node);
  const std::string_view text = tree_.textOf(node);
  if (type == "word" || type == "variable_name" || type == "brace_expression" ||
      (type == "number" && ts_node_named_child_count(node) == 0)) {
    appendSource(text, m, quoted);
  } else if (type == "raw_string") {
    if (text.size() > 2) {
      m.append(text.substr(1, text.size() - 2), kQuoted);
    } else {
      m.event(WordEvent::kNull);
    }
  } else if (type == "ansi_c_string" && text.find("\\x{") != std::string_view::npos) {
    appendUnknown(node, m);  // `\x{...}`: read differently by bash versions
  } else if (type == "ansi_c_string") {
    const std::string value = text.size() >= 3 ? decodeAnsiC(text.substr(2, text.size() - 3)) : "";
    if (value.empty()) m.event(WordEvent::kNull);
    m.append(value, kQuoted);
  } else if (type == "string" || type == "translated_string") {
    const uint32_t start = ts_node_start_byte(node) + (type == "translated_string" ? 2 : 1);
    const uint32_t end = ts_node_end_byte(node);
    // "$@" with no parameters makes no word at all; any other quoted text
    // that comes out empty is a quoted empty string.
    const bool all_args = text == "\"$@\"" || text == "\"${@}\"";
    // "$@${X:-a:b}" splits the operand: not followed.
    if ((text.find("$@") != std::string_view::npos || text.find("${@") != std::string_view::npos) &&
        text.find("${") != text.find("${@")) {
      m.dynamic = true;
    }
    const size_t before = m.text.size();
    const size_t events = m.events.size();
    if (end > start) appendParts(node, m, true, start, end - 1);
    // "$@$X" with no parameters and X empty makes no word either.
    const std::vector<std::string>* positional = env_.positional();
    bool no_args = false;
    for (uint32_t i = 0;
         positional != nullptr && positional->empty() && i < ts_node_named_child_count(node); ++i) {
      const std::string_view part = tree_.textOf(ts_node_named_child(node, i));
      no_args = no_args || part == "$@" || part == "${@}";
    }
    if (!all_args && !no_args && m.text.size() == before && m.events.size() == events) {
      m.events.push_back(WordEvent{before, WordEvent::kNull});
    } else if (m.text.size() == before && m.events.size() == events) {
      m.events.push_back(WordEvent{before, WordEvent::kEmpty});
    }
  } else if (type == "concatenation" || type == "command_name") {
    appendParts(node, m, quoted, ts_node_start_byte(node), ts_node_end_byte(node));
  } else if (type == "simple_expansion" || type == "expansion") {
    const size_t before = m.text.size();
    expansion(node, m, quoted);
    if (m.text.size() == before && !quoted) m.event(WordEvent::kEmpty);
    if (type == "simple_expansion" && !quoted) m.after_bare_name.push_back(m.text.size());
  } else if (type == "command_substitution") {
    std::optional<std::string> output = runner_.run(node);
    if (!output) {
      m.dynamic = true;
      m.append(text, kQuoted);
      return;
    }
    while (!output->empty() && output->back() == '\n') output->pop_back();
    // In `" $(cmd)"` the grammar puts the blank before `$(` in the node.
    appendSource(text.substr(0, std::min(text.find("$("), text.find('`'))), m, quoted);
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
