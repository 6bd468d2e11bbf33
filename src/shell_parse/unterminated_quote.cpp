// Which quote a command leaves open: a small reader of bash's quoting
// (quotes, backslashes, $( ), backquotes, comments), see unterminated_quote.hpp.
#include "unterminated_quote.hpp"

#include <vector>

namespace toolguard::detail {
namespace {

enum class Quoting { Plain, Substitution, Double, Single, AnsiC, Backquote };

struct Open {
  Quoting quoting;
  size_t at;          // offset of the opening character
  size_t parens = 0;  // ( ) depth inside a $( ) substitution
};

const char* quoteName(Quoting q) {
  switch (q) {
    case Quoting::Double:
      return "double quote (\")";
    case Quoting::Single:
      return "single quote (')";
    case Quoting::AnsiC:
      return "$'...' quote";
    case Quoting::Backquote:
      return "backquote (`)";
    case Quoting::Plain:
    case Quoting::Substitution:
      break;
  }
  return "";
}

std::string position(std::string_view text, size_t at) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

bool startsWord(std::string_view text, size_t i) {
  if (i == 0) return true;
  const char before = text[i - 1];
  return before == ' ' || before == '\t' || before == '\n' || before == ';' || before == '&' ||
         before == '|' || before == '(' || before == ')';
}

}  // namespace

std::optional<std::string> unterminatedQuote(std::string_view text) {
  std::vector<Open> open = {{Quoting::Plain, 0}};
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    Open& top = open.back();
    switch (top.quoting) {
      case Quoting::Single:
        if (c == '\'') open.pop_back();
        continue;
      case Quoting::AnsiC:
        if (c == '\\') {
          ++i;
        } else if (c == '\'') {
          open.pop_back();
        }
        continue;
      case Quoting::Double:
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          open.pop_back();
        } else if (c == '$' && next == '(') {
          open.push_back({Quoting::Substitution, ++i, 1});
        } else if (c == '`') {
          open.push_back({Quoting::Backquote, i});
        }
        continue;
      case Quoting::Plain:
      case Quoting::Substitution:
      case Quoting::Backquote:
        break;
    }
    if (c == '\\') {
      ++i;
    } else if (c == '`') {
      if (top.quoting == Quoting::Backquote) {
        open.pop_back();
      } else {
        open.push_back({Quoting::Backquote, i});
      }
    } else if (c == '\'') {
      open.push_back({Quoting::Single, i});
    } else if (c == '"') {
      open.push_back({Quoting::Double, i});
    } else if (c == '$' && next == '\'') {
      open.push_back({Quoting::AnsiC, i++});
    } else if (c == '$' && next == '(') {
      open.push_back({Quoting::Substitution, ++i, 1});
    } else if (c == '<' && next == '<') {
      return std::nullopt;  // a here-document's body is not quoted text
    } else if (c == '#' && startsWord(text, i)) {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (top.quoting == Quoting::Substitution && c == '(') {
      ++top.parens;
    } else if (top.quoting == Quoting::Substitution && c == ')' && --top.parens == 0) {
      open.pop_back();
    }
  }
  // The innermost quote still open is the one the text ends in.
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    if (it->quoting == Quoting::Plain || it->quoting == Quoting::Substitution) continue;
    return std::string("unterminated ") + quoteName(it->quoting) + " opened at " +
           position(text, it->at);
  }
  return std::nullopt;
}

}  // namespace toolguard::detail
