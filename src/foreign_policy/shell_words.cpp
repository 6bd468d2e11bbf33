// Splitting example strings like Codex, and writing argument lists as bash text.
#include "foreign_policy/shell_words.hpp"

#include <set>

#include "core/shell_quote.hpp"

namespace toolguard::detail {
namespace {

// The word separators of shlex.
bool isWordSeparator(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

// Reads the rest of a "..." quote into `word`; false if it never closes.
bool doubleQuoted(std::string_view s, size_t& i, std::string& word) {
  while (i < s.size()) {
    const char c = s[i++];
    if (c == '"') return true;
    if (c != '\\') {
      word += c;
      continue;
    }
    if (i >= s.size()) return false;
    const char e = s[i++];
    if (e == '$' || e == '`' || e == '"' || e == '\\') {
      word += e;
    } else if (e != '\n') {
      word += '\\';
      word += e;
    }
  }
  return false;
}

// Reads one word starting at `s[i]` (not a blank); false on bad syntax.
bool oneWord(std::string_view s, size_t& i, std::string& word) {
  while (i < s.size() && !isWordSeparator(s[i])) {
    const char c = s[i++];
    if (c == '"') {
      if (!doubleQuoted(s, i, word)) return false;
    } else if (c == '\'') {
      const size_t close = s.find('\'', i);
      if (close == std::string_view::npos) return false;
      word.append(s.substr(i, close - i));
      i = close + 1;
    } else if (c == '\\') {
      if (i >= s.size()) return false;
      const char e = s[i++];
      if (e != '\n') word += e;
    } else {
      word += c;
    }
  }
  return true;
}

// Words bash reads as keywords when they come first.
bool isBashKeyword(const std::string& word) {
  static const std::set<std::string, std::less<>> kKeywords = {
      "if",    "then",  "else", "elif", "fi", "case",     "esac", "for",   "select",
      "while", "until", "do",   "done", "in", "function", "time", "coproc"};
  return kKeywords.count(word) > 0;
}

}  // namespace

// Skips blanks and comments between words.
std::optional<std::vector<std::string>> shlexSplit(std::string_view text) {
  std::vector<std::string> words;
  size_t i = 0;
  for (;;) {
    while (i < text.size() && (isWordSeparator(text[i]) || text[i] == '#')) {
      if (text[i] == '#') {
        while (i < text.size() && text[i] != '\n') ++i;
      } else {
        ++i;
      }
    }
    if (i >= text.size()) return words;
    std::string word;
    if (!oneWord(text, i, word)) return std::nullopt;
    words.push_back(std::move(word));
  }
}

// Quotes what needs quoting, word by word.
std::string shellJoin(const std::vector<std::string>& argv) {
  std::string out;
  for (size_t k = 0; k < argv.size(); ++k) {
    const std::string& word = argv[k];
    if (k > 0) out += ' ';
    // `=` is quoted in every word (a first word `A=b` would be an assignment).
    out += k == 0 && isBashKeyword(word) ? singleQuoted(word)
                                         : quotedIfNeeded(word, EqualsSign::Quoted);
  }
  return out;
}

}  // namespace toolguard::detail
