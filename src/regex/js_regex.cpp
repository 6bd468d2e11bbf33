// JavaScript patterns read into RE2 syntax in one pass.
#include "regex/js_regex.hpp"

#include <cctype>

namespace toolguard::detail {
namespace {

// ECMA-262 WhiteSpace and LineTerminator (what `\s` matches), as the inside
// of a character class.
constexpr std::string_view kEcmaSpace = "\\t\\n\\x0B\\f\\r \\p{Z}\\x{FEFF}";

// A class that matches no character, and one that matches any.
constexpr std::string_view kNothing = "[^\\x00-\\x{10FFFF}]";
constexpr std::string_view kAnything = "(?s:.)";

bool isHex(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

bool isDecimalDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool isLetter(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

// Thrown inside the reader for the first problem; translateJsRegex returns it.
struct Refused {
  std::string message;
};

// Walks a pattern once, writing RE2 syntax and noting what the pattern says
// about the strings it matches.
class JsRegexReader {
 public:
  JsRegexReader(std::string_view js, JsRegexFlavor flavor) : js_(js), flavor_(flavor) {}

  JsRegex read() {
    JsRegex out;
    try {
      while (i_ < js_.size()) step();
    } catch (const Refused& refused) {
      out.error = refused.message;
      return out;
    }
    out.re2 = std::move(re_);
    out.anchored = anchored_;
    out.quotes = quotes_;
    out.all_literal = !meta_;
    out.empty_class = empty_class_;
    out.literal_prefix = top_level_alternation_ ? "" : prefix_;
    return out;
  }

 private:
  [[noreturn]] static void fail(std::string message) { throw Refused{std::move(message)}; }

  // A character that matches itself, also in the literal prefix.
  void literal(char c, std::string_view emitted) {
    re_ += emitted;
    if (open_) prefix_ += c;
    if (c == '"' || c == '\'' || c == '\\' || static_cast<unsigned char>(c) < 0x20) quotes_ = true;
    after_quantifier_ = false;
  }

  // Regex syntax: the literal prefix ends here.
  void syntax(std::string_view emitted) {
    re_ += emitted;
    open_ = false;
    meta_ = true;
    after_quantifier_ = false;
  }

  // A quantifier makes the atom before it optional or repeated: that atom
  // (one UTF-8 character) leaves the literal prefix. A `?` right after a
  // quantifier makes it lazy and changes nothing else.
  void quantifier(std::string_view emitted) {
    const bool lazy_mark = after_quantifier_ && emitted == "?";
    if (open_ && !prefix_.empty() && !lazy_mark) {
      while (!prefix_.empty() && (static_cast<unsigned char>(prefix_.back()) & 0xC0) == 0x80) {
        prefix_.pop_back();
      }
      if (!prefix_.empty()) prefix_.pop_back();
    }
    syntax(emitted);
    after_quantifier_ = !lazy_mark;
  }

  // One construct of the pattern, starting at i_.
  void step() {
    const char c = js_[i_];
    if (c == '\\') return escape();
    if (c == '[') return characterClass();
    if (c == '(') return group();
    ++i_;
    switch (c) {
      case ')':
        --depth_;
        return syntax(")");
      case '|':
        if (depth_ == 0) top_level_alternation_ = true;
        return syntax("|");
      case '^':
      case '$':
        anchored_ = true;
        return syntax(std::string(1, c));
      case '.':
        return syntax(".");
      case '*':
      case '+':
      case '?':
        return quantifier(std::string(1, c));
      case '{':
        return brace();
      case '}':
        return literal('}', "\\}");
      default:
        return literal(c, std::string(1, c));
    }
  }

  // `{n}`, `{n,}`, `{n,m}` repeat; any other `{` is a brace.
  void brace() {
    size_t j = i_;
    while (j < js_.size() && isDecimalDigit(js_[j])) ++j;
    bool repeat = j > i_;
    if (repeat && j < js_.size() && js_[j] == ',') {
      ++j;
      while (j < js_.size() && isDecimalDigit(js_[j])) ++j;
    }
    repeat = repeat && j < js_.size() && js_[j] == '}';
    if (!repeat) return literal('{', "\\{");
    const std::string body(js_.substr(i_, j - i_));
    i_ = j + 1;
    quantifier("{" + body + "}");
  }

  // `(`: groups; look-around exists only in JavaScript, named groups are
  // spelled `(?P<name>` in RE2.
  void group() {
    ++depth_;
    const std::string_view rest = js_.substr(i_);
    if (rest.starts_with("(?=") || rest.starts_with("(?!")) fail("lookahead is not supported");
    if (rest.starts_with("(?<=") || rest.starts_with("(?<!")) fail("lookbehind is not supported");
    if (rest.starts_with("(?<")) {
      i_ += 3;
      return syntax("(?P<");
    }
    if (rest.starts_with("(?:")) {
      i_ += 3;
      return syntax("(?:");
    }
    if (rest.starts_with("(?")) fail("unknown group syntax");
    ++i_;
    syntax("(");
  }

  // `\` outside a character class.
  void escape() {
    if (i_ + 1 >= js_.size()) fail("ends with a backslash");
    const char n = js_[i_ + 1];
    i_ += 2;
    if (n >= '1' && n <= '9') fail("backreferences are not supported");
    if (n == 'k' && i_ < js_.size() && js_[i_] == '<') fail("backreferences are not supported");
    switch (n) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 'b':
      case 'B':
        return syntax(std::string("\\") + n);
      case 's':
        return syntax("[" + std::string(kEcmaSpace) + "]");
      case 'S':
        return syntax("[^" + std::string(kEcmaSpace) + "]");
      case 't':
        return literal('\t', "\\t");
      case 'n':
        return literal('\n', "\\n");
      case 'r':
        return literal('\r', "\\r");
      case 'f':
        return literal('\f', "\\f");
      case 'v':
        return literal('\v', "\\v");
      case '0':
        if (i_ < js_.size() && isDecimalDigit(js_[i_])) fail("octal escapes are not supported");
        return literal('\0', "\\x00");
      default:
        break;
    }
    if (n == 'u' || n == 'x' || n == 'c') return syntax(codeEscape(n));
    if ((n == 'p' || n == 'P') && flavor_ == JsRegexFlavor::Unicode) {
      return syntax(property(n));
    }
    if (std::isalnum(static_cast<unsigned char>(n))) {
      return literal(n, std::string(1, n));  // an identity escape: `\a` is `a`
    }
    if (static_cast<unsigned char>(n) >= 0x80) {
      return literal(n, std::string(1, n));  // the first byte of an escaped non-ASCII character
    }
    if (n == '/') return literal('/', "/");
    literal(n, std::string("\\") + n);
  }

  // `\p{Name}` or `\P{Name}` (Unicode flavor); i_ is past the letter. RE2
  // knows general categories and scripts by their short names.
  std::string property(char n) {
    const size_t close = js_.find('}', i_);
    if (i_ >= js_.size() || js_[i_] != '{' || close == std::string_view::npos) {
      fail(std::string("incomplete \\") + n + " escape");
    }
    const std::string name(js_.substr(i_ + 1, close - i_ - 1));
    i_ = close + 1;
    quotes_ = true;  // a class of characters that may hold quotes
    return std::string("\\") + n + "{" + name + "}";
  }

  // `\uHHHH`, `\u{H...}` (Unicode flavor), `\xHH` and `\cX`, inside or
  // outside a class; i_ is past the letter. The character in RE2 syntax.
  std::string codeEscape(char n) {
    quotes_ = true;  // may name a character JSON escapes
    if (n == 'c') {
      if (i_ >= js_.size() || !isLetter(js_[i_])) fail("incomplete \\c escape");
      const int control = js_[i_++] % 32;
      const char* digits = "0123456789ABCDEF";
      return std::string("\\x") + digits[control / 16] + digits[control % 16];
    }
    if (n == 'u' && flavor_ == JsRegexFlavor::Unicode && i_ < js_.size() && js_[i_] == '{') {
      const size_t close = js_.find('}', i_);
      if (close == std::string_view::npos || close == i_ + 1 || close - i_ - 1 > 6) {
        fail("incomplete \\u{...} escape");
      }
      const std::string hex(js_.substr(i_ + 1, close - i_ - 1));
      for (char h : hex) {
        if (!isHex(h)) fail("incomplete \\u{...} escape");
      }
      i_ = close + 1;
      return "\\x{" + hex + "}";
    }
    const size_t digits = n == 'u' ? 4 : 2;
    if (i_ + digits > js_.size()) fail(std::string("incomplete \\") + n + " escape");
    const std::string hex(js_.substr(i_, digits));
    for (char h : hex) {
      if (!isHex(h)) fail(std::string("incomplete \\") + n + " escape");
    }
    i_ += digits;
    return n == 'u' ? "\\x{" + hex + "}" : "\\x" + hex;
  }

  // `[...]`: copied with JavaScript's escapes translated; `[^]` is any
  // character and `[]` none. A `[` inside is a bracket (RE2 would read
  // `[:alpha:]` as a POSIX class).
  void characterClass() {
    const std::string_view rest = js_.substr(i_);
    if (rest.starts_with("[^]")) {
      i_ += 3;
      return syntax(kAnything);
    }
    if (rest.starts_with("[]")) {
      i_ += 2;
      empty_class_ = true;
      return syntax(kNothing);
    }
    std::string out = "[";
    ++i_;
    if (i_ < js_.size() && js_[i_] == '^') {
      out += '^';
      ++i_;
    }
    while (true) {
      if (i_ >= js_.size()) fail("unterminated character class");
      const char c = js_[i_];
      if (c == ']') break;
      if (c == '"' || c == '\'') quotes_ = true;
      if (c == '[') {
        out += "\\[";
        ++i_;
        continue;
      }
      if (c != '\\') {
        out += c;
        ++i_;
        continue;
      }
      if (i_ + 1 >= js_.size()) fail("ends with a backslash");
      const char n = js_[i_ + 1];
      i_ += 2;
      if (isDecimalDigit(n)) {
        if (n != '0' || (i_ < js_.size() && isDecimalDigit(js_[i_]))) {
          fail("octal escapes are not supported");
        }
        out += "\\x00";
      } else if (n == 'b') {
        out += "\\x08";  // backspace inside a class
      } else if (n == 's') {
        out += kEcmaSpace;
      } else if (n == 'u' || n == 'x' || n == 'c') {
        out += codeEscape(n);
      } else if ((n == 'p' || n == 'P') && flavor_ == JsRegexFlavor::Unicode) {
        out += property(n);
      } else if (std::string_view("dDwWStnrfv").find(n) != std::string_view::npos) {
        out += '\\';
        out += n;
      } else if (std::isalnum(static_cast<unsigned char>(n)) ||
                 static_cast<unsigned char>(n) >= 0x80) {
        out += n;
      } else {
        if (n == '\\') quotes_ = true;
        out += '\\';
        out += n;
      }
    }
    ++i_;
    syntax(out + "]");
  }

  std::string_view js_;
  JsRegexFlavor flavor_;
  size_t i_ = 0;
  int depth_ = 0;
  std::string re_;
  std::string prefix_;
  bool open_ = true;
  bool meta_ = false;
  bool anchored_ = false;
  bool quotes_ = false;
  bool empty_class_ = false;
  bool top_level_alternation_ = false;
  bool after_quantifier_ = false;
};

}  // namespace

JsRegex translateJsRegex(std::string_view pattern, JsRegexFlavor flavor) {
  return JsRegexReader(pattern, flavor).read();
}

}  // namespace toolguard::detail
