// Brace expansion, tilde expansion and field splitting, as bash does them.
#include "word_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "paths/user_database.hpp"

namespace toolguard::detail {
namespace {

MarkedText slice(const MarkedText& m, size_t from, size_t to) {
  MarkedText out;
  out.text = m.text.substr(from, to - from);
  out.marks.assign(m.marks.begin() + static_cast<std::ptrdiff_t>(from),
                   m.marks.begin() + static_cast<std::ptrdiff_t>(to));
  out.dynamic = m.dynamic;
  // An event between two bytes belongs to the slice it is inside of or at
  // either end of; the pieces brace expansion cuts are one byte apart.
  for (const WordEvent& e : m.events) {
    if (e.at >= from && e.at <= to) out.events.push_back(WordEvent{e.at - from, e.kind});
  }
  return out;
}

void appendText(MarkedText& to, const MarkedText& from) {
  for (const WordEvent& e : from.events) {
    to.events.push_back(WordEvent{e.at + to.text.size(), e.kind});
  }
  to.text += from.text;
  to.marks.insert(to.marks.end(), from.marks.begin(), from.marks.end());
}

bool literalAt(const MarkedText& m, size_t i, char c) {
  return m.text[i] == c && m.marks[i] == kLiteral;
}

std::optional<long long> smallInteger(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return std::nullopt;
  for (size_t k = i; k < s.size(); ++k) {
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return std::nullopt;
  }
  return std::atoll(std::string(s).c_str());
}

// `{x..y}` or `{x..y..step}`: the words, or nullopt when `body` is not a
// sequence. `over` is set when it is larger than `budget`.
// {Z..a} runs through [ \ ] ^ _ ` between the cases.
bool sequenceThroughSymbols(char from, char to) {
  return (std::islower(static_cast<unsigned char>(from)) != 0) !=
         (std::islower(static_cast<unsigned char>(to)) != 0);
}

std::optional<std::vector<std::string>> sequence(std::string_view body, size_t budget, bool& over) {
  const size_t dots = body.find("..");
  if (dots == std::string_view::npos) return std::nullopt;
  const std::string_view from = body.substr(0, dots);
  std::string_view to = body.substr(dots + 2);
  long long step = 1;
  if (const size_t more = to.find(".."); more != std::string_view::npos) {
    const std::optional<long long> s = smallInteger(to.substr(more + 2));
    if (!s) return std::nullopt;
    step = std::llabs(*s);
    to = to.substr(0, more);
  }
  if (step == 0) step = 1;
  std::vector<std::string> items;
  const std::optional<long long> a = smallInteger(from), b = smallInteger(to);
  if (a && b) {
    const long long count = std::llabs(*b - *a) / step + 1;
    if (static_cast<size_t>(count) > budget) {
      over = true;
      return std::nullopt;
    }
    // {01..10}: zero-padded to the wider of the two.
    const bool padded = (from.size() > 1 && (from[0] == '0' || from.substr(0, 2) == "-0")) ||
                        (to.size() > 1 && (to[0] == '0' || to.substr(0, 2) == "-0"));
    const size_t width = padded ? std::max(from.size(), to.size()) : 0;
    for (long long v = *a, k = 0; k < count; ++k, v += (*b >= *a ? step : -step)) {
      std::string s = std::to_string(std::llabs(v));
      const size_t digits = width > (v < 0 ? 1u : 0u) ? width - (v < 0 ? 1 : 0) : 0;
      if (s.size() < digits) s.insert(0, digits - s.size(), '0');
      items.push_back((v < 0 ? "-" : "") + s);
    }
    return items;
  }
  if (from.size() == 1 && to.size() == 1 && std::isalpha(static_cast<unsigned char>(from[0])) &&
      std::isalpha(static_cast<unsigned char>(to[0]))) {
    const int x = from[0], y = to[0];
    if (sequenceThroughSymbols(from[0], to[0])) {
      over = true;  // see makesSymbolSequence
      return std::nullopt;
    }
    for (int v = x; x <= y ? v <= y : v >= y; v += (x <= y ? 1 : -1) * static_cast<int>(step)) {
      items.emplace_back(1, static_cast<char>(v));
    }
    return items;
  }
  return std::nullopt;
}

void expand(const MarkedText& m, std::vector<MarkedText>& out, size_t budget, bool& over) {
  if (over) return;
  for (size_t open = 0; open < m.text.size(); ++open) {
    if (!literalAt(m, open, '{')) continue;
    // `${` is a parameter expansion, never a brace expansion.
    if (open > 0 && m.text[open - 1] == '$' && m.marks[open - 1] == kLiteral) continue;
    int depth = 0;
    size_t close = std::string::npos;
    std::vector<size_t> commas;
    for (size_t i = open; i < m.text.size(); ++i) {
      if (literalAt(m, i, '{')) ++depth;
      if (literalAt(m, i, '}') && --depth == 0) {
        close = i;
        break;
      }
      if (depth == 1 && literalAt(m, i, ',')) commas.push_back(i);
    }
    if (close == std::string::npos) return out.push_back(m);
    const MarkedText pre = slice(m, 0, open);
    const MarkedText post = slice(m, close + 1, m.text.size());
    std::vector<MarkedText> alternatives;
    if (!commas.empty()) {
      size_t from = open + 1;
      commas.push_back(close);
      for (size_t c : commas) {
        alternatives.push_back(slice(m, from, c));
        from = c + 1;
      }
    } else {
      const MarkedText body = slice(m, open + 1, close);
      if (std::any_of(body.marks.begin(), body.marks.end(),
                      [](uint8_t mark) { return mark != kLiteral; }) ||
          m.hasNullIn(open + 1, close)) {  // `{1..""3}` is not a sequence
        continue;
      }
      const auto items = sequence(body.text, budget, over);
      if (over) return;
      if (!items) continue;  // `{x}`: not an expansion; look further on
      for (const std::string& item : *items) {
        MarkedText a;
        a.append(item, kLiteral);  // letters, digits and `-`: `~{-1..1}` makes `~0`
        alternatives.push_back(std::move(a));
      }
    }
    for (const MarkedText& alt : alternatives) {
      MarkedText joined = pre;
      appendText(joined, alt);
      appendText(joined, post);
      expand(joined, out, budget, over);
      if (out.size() > budget) over = true;
      if (over) return;
    }
    return;
  }
  out.push_back(m);
}

void replace(MarkedText& m, size_t pos, size_t len, const std::string& value) {
  for (WordEvent& e : m.events) {
    if (e.at > pos) e.at = e.at + value.size() - std::min(len, e.at - pos);
  }
  m.text.replace(pos, len, value);
  m.marks.erase(m.marks.begin() + static_cast<std::ptrdiff_t>(pos),
                m.marks.begin() + static_cast<std::ptrdiff_t>(pos + len));
  m.marks.insert(m.marks.begin() + static_cast<std::ptrdiff_t>(pos), value.size(), kQuoted);
}

// A tilde prefix (`len` bytes at `pos`) whose directory is not known here:
// written as the run-time part `${name}`, so that the paths judged from the
// word stand for any directory, never for a relative path in the cwd.
void unknownDirectory(MarkedText& m, size_t pos, size_t len, const std::string& name) {
  replace(m, pos, len, "${" + name + "}");
  m.dynamic = true;
}

// The `~prefix` at `pos` (up to a `/`, or `:` when `colon_ends`); false when
// it is not a tilde prefix bash expands.
bool tildeAt(MarkedText& m, size_t pos, const ShellEnv& env, bool colon_ends) {
  if (!literalAt(m, pos, '~')) return false;
  size_t end = pos + 1;
  // ~"user", ~"/x" and ~$X are not expanded: the prefix ends at an
  // unquoted `/` (or `:`) as written.
  while (end < m.text.size() &&
         !(literalAt(m, end, '/') || (colon_ends && literalAt(m, end, ':')))) {
    if (m.marks[end] != kLiteral) return false;
    ++end;
  }
  // `""~` and `~""/x` are not tilde prefixes either.
  if (m.hasNullIn(pos, end)) return false;
  const std::string user = m.text.substr(pos + 1, end - pos - 1);
  if (user.empty()) {
    const VariableValue home = env.get("HOME");
    if (home.state == VariableValue::State::Set) {
      replace(m, pos, 1, home.value);
    } else {
      unknownDirectory(m, pos, 1, "HOME");
    }
    return true;
  }
  if (user[0] == '+' || user[0] == '-' || std::isdigit(static_cast<unsigned char>(user[0]))) {
    // ~+, ~- and ~N: $PWD, $OLDPWD, the directory stack, as the shell has them.
    unknownDirectory(m, pos, end - pos, user[0] == '+' ? "PWD" : "OLDPWD");
    return true;
  }
  if (std::optional<std::string> home = homeOfUser(user)) {
    replace(m, pos, end - pos, *home);
  } else {
    // No such user in the database read here. bash would keep the word as
    // it is if there were none where it runs, but a user a directory
    // service knows (and the static command reads only /etc/passwd) has a
    // home: any directory, never a harmless relative path.
    const bool plain = user.find_first_of("{}") == std::string::npos;
    unknownDirectory(m, pos, end - pos, plain ? "~" + user : "HOME");
  }
  return true;
}

}  // namespace

void MarkedText::append(std::string_view s, Mark mark) {
  text += s;
  marks.insert(marks.end(), s.size(), mark);
}

bool MarkedText::hasBreaks() const {
  return std::any_of(events.begin(), events.end(), [](const WordEvent& e) {
    return e.kind == WordEvent::kBreak || e.kind == WordEvent::kLoose;
  });
}

bool MarkedText::hasNullIn(size_t from, size_t to) const {
  return std::any_of(events.begin(), events.end(), [&](const WordEvent& e) {
    return (e.kind == WordEvent::kNull || e.kind == WordEvent::kEmpty) && e.at >= from &&
           e.at <= to;
  });
}

bool makesSymbolSequence(const MarkedText& word) {
  for (size_t i = 0; i + 5 < word.text.size(); ++i) {
    if (!literalAt(word, i, '{') || word.text.compare(i + 2, 2, "..") != 0) continue;
    const char from = word.text[i + 1], to = word.text[i + 4];
    if (std::isalpha(static_cast<unsigned char>(from)) &&
        std::isalpha(static_cast<unsigned char>(to)) && sequenceThroughSymbols(from, to) &&
        std::all_of(word.marks.begin() + static_cast<std::ptrdiff_t>(i),
                    word.marks.begin() + static_cast<std::ptrdiff_t>(i + 5),
                    [](uint8_t mark) { return mark == kLiteral; })) {
      return true;
    }
  }
  return false;
}

std::optional<std::vector<MarkedText>> expandBraces(const MarkedText& word, size_t budget) {
  std::vector<MarkedText> out;
  bool over = false;
  if (word.hasBreaks()) {
    // "$@" and a brace expansion in one word: not followed.
    for (size_t i = 0; i < word.text.size(); ++i) {
      if (literalAt(word, i, '{')) return std::nullopt;
    }
    return std::vector<MarkedText>{word};
  }
  expand(word, out, budget, over);
  if (over) return std::nullopt;
  return out;
}

void expandTildes(MarkedText& m, const ShellEnv& env, bool assignment, bool assignment_like) {
  // bash ends a tilde prefix at `:` in any word (`~:x` is `$HOME:x`).
  if (!assignment && !m.text.empty() && literalAt(m, 0, '~')) {
    size_t end = 1;
    while (end < m.text.size() && !literalAt(m, end, '/') && !literalAt(m, end, ':')) ++end;
    // `~:$X` keeps `$X` as written, `~:"x"` its `~`: only a plain `~:x` is
    // followed.
    if (end < m.text.size() && m.text[end] == ':' &&
        (std::any_of(m.marks.begin(), m.marks.end(), [](uint8_t k) { return k != kLiteral; }) ||
         !m.events.empty())) {
      m.dynamic = true;
      return;
    }
    if (tildeAt(m, 0, env, true)) return;
  }
  size_t eq = 0;
  if (!assignment) {
    if (!assignment_like) return;
    eq = m.text.find('=');
    if (eq == std::string::npos || eq == 0) return;
    // NAME=... and NAME+=...
    const size_t name_end = m.text[eq - 1] == '+' ? eq - 1 : eq;
    if (!isVariableName(m.text.substr(0, name_end))) return;
    for (size_t i = 0; i <= eq; ++i) {
      if (m.marks[i] != kLiteral) return;
    }
    if (m.hasNullIn(0, eq)) return;  // `x""=~` is not an assignment
    ++eq;
  }
  for (size_t i = eq; i < m.text.size(); ++i) {
    if (i == eq || (m.text[i - 1] == ':' && m.marks[i - 1] == kLiteral)) {
      const size_t before = m.text.size();
      if (tildeAt(m, i, env, true)) i += m.text.size() - before;
    }
  }
}

void splitFields(const MarkedText& m, const ShellEnv& env, const std::string& source,
                 std::vector<ShellWord>& out) {
  bool glob = false;
  bool splits = false;
  for (size_t i = 0; i < m.text.size(); ++i) {
    const char c = m.text[i];
    if (m.marks[i] != kQuoted && (c == '*' || c == '?' || c == '[')) glob = true;
    if (m.marks[i] == kSplit) splits = true;
  }
  const std::optional<std::string> ifs = splits ? env.ifs() : std::optional<std::string>("");
  if (m.dynamic) {
    out.push_back(ShellWord{m.text, true, source});  // part of it is only known at run time
    return;
  }
  if (!ifs) {
    // Where it splits is not known: any words at all.
    out.push_back(ShellWord{"${IFS}", true, source});
    return;
  }
  std::string field;
  bool has = false;
  bool after_white = false;
  auto finish = [&](bool force) {
    if (has || force) out.push_back(ShellWord{field, glob, source});
    field.clear();
    has = false;
  };
  // A quoted empty string is a character no IFS holds that quote removal
  // takes away afterwards (bash's CTLNUL): it makes a word where it is.
  size_t next_event = 0;
  auto eventsAt = [&](size_t i) {
    for (; next_event < m.events.size() && m.events[next_event].at <= i; ++next_event) {
      switch (m.events[next_event].kind) {
        case WordEvent::kBreak:
          finish(true);
          break;
        case WordEvent::kLoose:
          finish(false);
          break;
        case WordEvent::kNull:
          has = true;
          after_white = false;
          break;
        case WordEvent::kEmpty:
          break;
      }
    }
  };
  for (size_t i = 0; i < m.text.size(); ++i) {
    eventsAt(i);
    const char c = m.text[i];
    if (m.marks[i] == kSplit && ifs->find(c) != std::string::npos) {
      if (c == ' ' || c == '\t' || c == '\n') {
        if (has) {
          finish(false);
          after_white = true;
        }
      } else {
        if (!after_white || has) finish(true);
        after_white = false;
      }
      continue;
    }
    field += c;
    has = true;
    after_white = false;
  }
  eventsAt(m.text.size());
  finish(false);
}

}  // namespace toolguard::detail
