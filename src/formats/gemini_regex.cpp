// Gemini CLI's JavaScript patterns read into RE2 syntax (linear time, so a
// pattern can never hang the guard); JavaScript-only syntax is a load error.
#include "formats/gemini_regex.hpp"

#include <re2/re2.h>

#include <cctype>

#include "toolguard/policy_error.hpp"

namespace toolguard::detail::gemini {
namespace {

bool isHex(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

// "\x{HHHH}" for the four hex digits of a JavaScript `\uHHHH` escape.
std::string unicodeEscape(const std::string& hex) {
  return "\\x{" + hex + "}";
}

// Walks a JavaScript pattern once, writing RE2 syntax and noting what the
// importer needs to know about it.
class Reader {
 public:
  Reader(const std::string& js, const SourceLocation& where, const char* what)
      : js_(js), where_(where), what_(what) {}

  // Reads the whole pattern; throws PolicyError on the first problem.
  JsPattern read() {
    while (i_ < js_.size()) step();
    JsPattern out;
    out.re2 = std::move(re_);
    out.anchored = anchored_;
    out.quotes = quotes_;
    out.all_literal = !meta_;
    out.literal_prefix = top_level_alternation_ ? "" : prefix_;
    RE2::Options options;
    options.set_log_errors(false);
    RE2 check(out.re2, options);
    if (!check.ok()) fail(check.error());
    return out;
  }

 private:
  // Throws the load error for this pattern.
  [[noreturn]] void fail(const std::string& message) const {
    throw PolicyError(where_, std::string(what_) + " '" + js_ + "': " + message);
  }

  // A character that matches itself, also in the literal prefix.
  void literal(char c, const std::string& emitted) {
    re_ += emitted;
    if (open_) prefix_ += c;
    if (c == '"' || c == '\'' || c == '\\' || static_cast<unsigned char>(c) < 0x20) quotes_ = true;
  }

  // Regex syntax: the literal prefix ends here.
  void syntax(const std::string& emitted) {
    re_ += emitted;
    open_ = false;
    meta_ = true;
  }

  // A quantifier makes the atom before it optional or repeated: that atom
  // (one UTF-8 character) leaves the literal prefix.
  void quantifier(const std::string& emitted) {
    if (open_ && !prefix_.empty()) {
      while (!prefix_.empty() && (static_cast<unsigned char>(prefix_.back()) & 0xC0) == 0x80) {
        prefix_.pop_back();
      }
      if (!prefix_.empty()) prefix_.pop_back();
    }
    syntax(emitted);
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

  // `{n}`, `{n,}`, `{n,m}` repeat; any other `{` is a literal in JavaScript.
  void brace() {
    size_t j = i_;
    while (j < js_.size() && std::isdigit(static_cast<unsigned char>(js_[j]))) ++j;
    bool repeat = j > i_;
    if (repeat && j < js_.size() && js_[j] == ',') {
      ++j;
      while (j < js_.size() && std::isdigit(static_cast<unsigned char>(js_[j]))) ++j;
    }
    repeat = repeat && j < js_.size() && js_[j] == '}';
    if (!repeat) return literal('{', "\\{");
    const std::string body = js_.substr(i_, j - i_);
    i_ = j + 1;
    quantifier("{" + body + "}");
  }

  // `(`: groups; lookaround is JavaScript-only, named groups are spelled
  // `(?P<name>` in RE2.
  void group() {
    ++depth_;
    const std::string_view rest = std::string_view(js_).substr(i_);
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
      case 's':
      case 'S':
      case 'b':
      case 'B':
        return syntax(std::string("\\") + n);
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
        if (i_ < js_.size() && std::isdigit(static_cast<unsigned char>(js_[i_]))) {
          fail("octal escapes are not supported");
        }
        return literal('\0', "\\x00");
      default:
        break;
    }
    if (n == 'u' || n == 'x' || n == 'c') return codeEscape(n, false);
    if (std::isalnum(static_cast<unsigned char>(n))) {
      return literal(n, std::string(1, n));  // an identity escape: `\a` is `a`
    }
    if (n == '/') return literal('/', "/");
    literal(n, std::string("\\") + n);
  }

  // `\uHHHH`, `\xHH` and `\cX`, inside or outside a class; i_ is past the letter.
  void codeEscape(char n, bool in_class) {
    const size_t digits = n == 'u' ? 4 : 2;
    if (n == 'c') fail("control escapes (\\c) are not supported");
    if (i_ + digits > js_.size()) fail(std::string("incomplete \\") + n + " escape");
    const std::string hex = js_.substr(i_, digits);
    for (char h : hex) {
      if (!isHex(h)) fail(std::string("incomplete \\") + n + " escape");
    }
    i_ += digits;
    const std::string emitted = n == 'u' ? unicodeEscape(hex) : "\\x" + hex;
    if (in_class) {
      re_ += emitted;
    } else {
      quotes_ = true;  // may name a character JSON escapes
      syntax(emitted);
    }
  }

  // `[...]`: copied with JavaScript escapes translated; `[^]` is any character.
  void characterClass() {
    const std::string_view rest = std::string_view(js_).substr(i_);
    if (rest.starts_with("[^]")) {
      i_ += 3;
      return syntax("(?s:.)");
    }
    if (rest.starts_with("[]")) fail("an empty character class never matches");
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
      if (std::isdigit(static_cast<unsigned char>(n))) {
        if (n != '0') fail("octal escapes are not supported");
        out += "\\x00";
      } else if (n == 'b') {
        out += "\\x08";  // backspace inside a class
      } else if (n == 'u' || n == 'x' || n == 'c') {
        std::swap(out, re_);
        codeEscape(n, true);
        std::swap(out, re_);
      } else if (std::string_view("dDwWsStnrfv").find(n) != std::string_view::npos) {
        out += '\\';
        out += n;
      } else if (std::isalnum(static_cast<unsigned char>(n))) {
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

  const std::string& js_;
  const SourceLocation& where_;
  const char* what_;
  size_t i_ = 0;
  int depth_ = 0;
  std::string re_;
  std::string prefix_;
  bool open_ = true;
  bool meta_ = false;
  bool anchored_ = false;
  bool quotes_ = false;
  bool top_level_alternation_ = false;
};

}  // namespace

JsPattern readJsPattern(const std::string& js, const SourceLocation& where, const char* what) {
  return Reader(js, where, what).read();
}

ValuePattern readValuePattern(const std::string& js, const SourceLocation& where,
                              const char* what) {
  ValuePattern out;
  out.closed = !js.empty() && js.back() == '"' && (js.size() < 2 || js[js.size() - 2] != '\\');
  out.body = readJsPattern(out.closed ? js.substr(0, js.size() - 1) : js, where, what);
  return out;
}

bool geminiRefusesPattern(const std::string& js) {
  static const RE2 nested(R"(\([^)]*[*+?{].*\)[*+?{])");
  return js.size() > 2048 || RE2::PartialMatch(js, nested);
}

std::string quoteRegex(const std::string& text) {
  return RE2::QuoteMeta(text);
}

}  // namespace toolguard::detail::gemini
