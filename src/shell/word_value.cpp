// The value of a shell word: quotes removed, escapes resolved, `~` and $HOME
// expanded, anything only known at run time marked dynamic.
#include "word_value.hpp"

#include <pwd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "core/unicode_text.hpp"

namespace toolguard::detail {
namespace {

bool isSubstitution(std::string_view type) {
  return type == "command_substitution" || type == "process_substitution";
}

// Outside quotes a backslash quotes the next character; backslash-newline vanishes.
std::string unescapeUnquoted(std::string_view text, bool& has_glob) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      if (text[i + 1] != '\n') out += text[i + 1];
      ++i;
      continue;
    }
    if (c == '*' || c == '?' || c == '[') has_glob = true;
    out += c;
  }
  return out;
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

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// $'...': C escapes, as bash decodes them.
std::string decodeAnsiC(std::string_view body) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 >= body.size()) {
      out += body[i];
      continue;
    }
    char e = body[++i];
    switch (e) {
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'e':
      case 'E':
        out += '\x1b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case '\\':
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
      case 'U': {
        const size_t max = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t value = 0;
        size_t n = 0;
        while (n < max && i + 1 < body.size() && hexValue(body[i + 1]) >= 0) {
          value = value * 16 + static_cast<uint32_t>(hexValue(body[++i]));
          ++n;
        }
        if (n == 0) {
          out += '\\';
          out += e;
        } else if (e == 'x') {
          out += static_cast<char>(value);
        } else {
          appendUtf8(out, value);
        }
        break;
      }
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

// The text with quoted parts ('...', "...", $'...') and escaped characters
// left out: what brace expansion sees.
std::string unquotedText(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      ++i;
    } else if (c == '\'' || c == '"') {
      size_t end = i + 1;
      while (end < text.size() && text[end] != c) end += (c == '"' && text[end] == '\\') ? 2 : 1;
      i = end;
    } else {
      out += c;
    }
  }
  return out;
}

// `{a,b}` or `{1..3}`: bash expands it into several words.
bool hasBraceExpansion(std::string_view text) {
  return text.find('{') != std::string_view::npos && text.find('}') != std::string_view::npos &&
         (text.find(',') != std::string_view::npos || text.find("..") != std::string_view::npos);
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

WordEvaluator::WordEvaluator(const BashTree& tree, const std::string& home,
                             std::vector<TSNode>& substitutions)
    : tree_(tree), home_(home), substitutions_(substitutions) {}

ShellWord WordEvaluator::evaluate(TSNode node) {
  ShellWord word;
  word.source = std::string(tree_.textOf(node));
  append(node, word, true);
  return word;
}

void WordEvaluator::appendParts(TSNode node, ShellWord& word, bool quoted, uint32_t start,
                                uint32_t end) {
  // Literal text between the children counts too (tree-sitter does not always
  // make a node of it).
  uint32_t cursor = start;
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    const uint32_t child_start = ts_node_start_byte(child);
    if (child_start > cursor) appendLiteral(cursor, child_start, word, quoted, cursor == start);
    if (quoted && typeOf(child) == "string_content") {
      word.text += unescapeDoubleQuoted(tree_.textOf(child));
    } else {
      append(child, word, !quoted && cursor == start && ts_node_start_byte(child) == start);
    }
    cursor = std::max(cursor, static_cast<uint32_t>(ts_node_end_byte(child)));
  }
  if (end > cursor) appendLiteral(cursor, end, word, quoted, cursor == start);
}

void WordEvaluator::appendLiteral(uint32_t start, uint32_t end, ShellWord& word, bool quoted,
                                  bool at_word_start) {
  std::string_view text = std::string_view(tree_.text()).substr(start, end - start);
  if (quoted) {
    word.text += unescapeDoubleQuoted(text);
    return;
  }
  appendUnquoted(text, word, at_word_start);
}

void WordEvaluator::expandAssignmentTildes(std::string& text, size_t from) const {
  // Bash expands an unquoted `~` after the first `=` of a word that looks
  // like an assignment (`of=~/x`, `PATH=~/bin:~/sbin`), and after each `:`
  // that follows it, also in a command's arguments.
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return;
  for (size_t i = 0; i < eq; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!(std::isalnum(c) || c == '_') || (i == 0 && std::isdigit(c))) return;
  }
  for (size_t i = std::max(from, eq + 1); i < text.size(); ++i) {
    if (text[i] != '~' || (text[i - 1] != '=' && text[i - 1] != ':')) continue;
    if (i - 1 != eq && text[i - 1] == '=') continue;
    if (i + 1 < text.size() && text[i + 1] != '/' && text[i + 1] != ':') continue;
    text.replace(i, 1, home_);
    i += home_.size() - 1;
  }
}

void WordEvaluator::appendUnquoted(std::string_view text, ShellWord& word, bool at_word_start) {
  if (at_word_start && !text.empty() && text.front() == '~') {
    size_t slash = text.find('/');
    std::string_view user = text.substr(1, slash == std::string_view::npos ? text.npos : slash - 1);
    if (user.empty()) {
      word.text += home_;
      text.remove_prefix(1);
    } else if (const passwd* pw = getpwnam(std::string(user).c_str());
               pw != nullptr && pw->pw_dir != nullptr) {
      word.text += pw->pw_dir;  // ~user: that user's home directory
      text.remove_prefix(1 + user.size());
    } else {
      word.dynamic = true;  // no such user here: known only where it runs
    }
  }
  bool has_glob = false;
  const size_t before = word.text.size();
  word.text += unescapeUnquoted(text, has_glob);
  expandAssignmentTildes(word.text, before);
  // Globs and brace expansion ({a,b}) make the words known only at run time.
  const bool braces =
      text.find('{') != std::string_view::npos &&
      (text.find(',') != std::string_view::npos || text.find("..") != std::string_view::npos);
  if (has_glob || braces) word.dynamic = true;
}

void WordEvaluator::append(TSNode node, ShellWord& word, bool at_word_start) {
  const std::string_view type = typeOf(node);
  const std::string_view text = tree_.textOf(node);
  if (type == "word" || (type == "number" && ts_node_named_child_count(node) == 0)) {
    appendUnquoted(text, word, at_word_start);
  } else if (type == "raw_string") {
    word.text += text.size() >= 2 ? text.substr(1, text.size() - 2) : std::string_view();
  } else if (type == "ansi_c_string") {
    word.text += text.size() >= 3 ? decodeAnsiC(text.substr(2, text.size() - 3)) : std::string();
  } else if (type == "string") {
    const uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
    if (end - start >= 2) appendParts(node, word, true, start + 1, end - 1);
  } else if (type == "translated_string" || type == "concatenation") {
    appendParts(node, word, false, ts_node_start_byte(node), ts_node_end_byte(node));
    // {a,b} and {1..3} arrive as a concatenation of words: brace expansion.
    if (type == "concatenation" && hasBraceExpansion(unquotedText(text))) word.dynamic = true;
  } else if (type == "simple_expansion") {
    if (text == "$HOME") {
      word.text += home_;
    } else {
      word.dynamic = true;
      word.text += text;
    }
  } else if (type == "expansion") {
    if (text == "${HOME}") {
      word.text += home_;
    } else {
      word.dynamic = true;
      word.text += text;
      collectSubstitutions(node, substitutions_);
    }
  } else if (isSubstitution(type)) {
    word.dynamic = true;
    word.text += text;
    substitutions_.push_back(node);
  } else {
    // arithmetic, brace expressions, arrays and anything new: known at run time only.
    word.dynamic = true;
    word.text += text;
    collectSubstitutions(node, substitutions_);
  }
}

}  // namespace toolguard::detail
