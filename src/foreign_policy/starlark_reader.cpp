// The Starlark subset of rule files: top-level calls and assignments of
// literal values, read without evaluating anything.
#include "foreign_policy/starlark_reader.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "foreign_policy/starlark_lexer.hpp"

namespace toolguard::detail {
namespace {

using Kind = StarlarkToken::Kind;

// Starlark's keywords and Python's reserved words: statements the reader does
// not support start with one of them.
bool isKeyword(const std::string& name) {
  static const std::set<std::string, std::less<>> kKeywords = {
      "and",    "as",     "assert", "async",  "await",   "break",    "class", "continue", "def",
      "del",    "elif",   "else",   "except", "finally", "for",      "from",  "global",   "if",
      "import", "in",     "is",     "lambda", "load",    "nonlocal", "not",   "or",       "pass",
      "raise",  "return", "try",    "while",  "with",    "yield",    "None",  "True",     "False"};
  return kKeywords.count(name) > 0;
}

// What a value costs toward kStarlarkMaxValueBytes.
size_t weight(const StarlarkValue& v) {
  size_t total = v.text.size() + 1;
  for (const StarlarkValue& item : v.items) total += weight(item);
  return total;
}

// A name bound by an assignment.
struct Binding {
  StarlarkValue value;
  SourceLocation where;
};

// Recursive descent over the lexer's tokens.
class StarlarkReader {
 public:
  StarlarkReader(std::string_view text, const std::string& file) : lex_(text, file) {}

  // Reads every statement.
  std::vector<StarlarkCall> run() {
    std::vector<StarlarkCall> calls;
    for (;;) {
      const StarlarkToken& t = lex_.peek();
      if (t.kind == Kind::End) return calls;
      if (t.kind == Kind::Newline || t.kind == Kind::Semicolon) {
        lex_.next();
        continue;
      }
      statement(calls);
      const StarlarkToken& end = lex_.peek();
      if (end.kind != Kind::Newline && end.kind != Kind::Semicolon && end.kind != Kind::End) {
        fail(end, "expected the end of the statement (one statement per line)");
      }
    }
  }

 private:
  // Throws a PolicyError at the token.
  [[noreturn]] void fail(const StarlarkToken& t, const std::string& message) const {
    lex_.fail(t.line, t.column, message);
  }

  // One statement: a call, an assignment or a string (a docstring).
  void statement(std::vector<StarlarkCall>& calls) {
    StarlarkToken t = lex_.next();
    if (t.first_on_line && t.column != 1) fail(t, "unexpected indentation");
    if (t.kind == Kind::String) {
      expressionAfter(std::move(t), 0);
      return;
    }
    if (t.kind != Kind::Name) {
      fail(t, "expected a statement: a call such as prefix_rule(...), or NAME = value");
    }
    if (isKeyword(t.text)) {
      fail(t, "'" + t.text +
                  "' is not supported: toolguard reads calls, assignments of literal values and "
                  "comments");
    }
    const Kind after = lex_.peek().kind;
    if (after == Kind::LParen) {
      calls.push_back(call(std::move(t)));
    } else if (after == Kind::Equals) {
      assignment(std::move(t));
    } else {
      fail(lex_.peek(), "expected '(' or '=' after '" + t.text + "'");
    }
  }

  // `name(arg, ...)`; the name is consumed, the '(' is next.
  StarlarkCall call(StarlarkToken name) {
    if (auto bound = names_.find(name.text); bound != names_.end()) {
      fail(name, "'" + name.text + "' is a value bound at line " +
                     std::to_string(bound->second.where.line) + ", not a function");
    }
    StarlarkCall c;
    c.function = name.text;
    c.where = lex_.at(name);
    const StarlarkToken open = lex_.next();
    std::set<std::string, std::less<>> seen;
    for (;;) {
      if (lex_.peek().kind == Kind::RParen) {
        lex_.next();
        return c;
      }
      StarlarkArgument arg;
      const StarlarkToken& first = lex_.peek();
      arg.where = lex_.at(first);
      if (first.kind == Kind::Name && lex_.peek(1).kind == Kind::Equals) {
        StarlarkToken key = lex_.next();
        lex_.next();  // '='
        if (!seen.insert(key.text).second) {
          fail(key, "argument '" + key.text + "' is given twice");
        }
        arg.name = key.text;
      } else if (!seen.empty()) {
        fail(first, "a positional argument cannot follow keyword arguments");
      }
      arg.value = expression(0);
      c.arguments.push_back(std::move(arg));
      const StarlarkToken sep = lex_.next();
      if (sep.kind == Kind::RParen) return c;
      if (sep.kind != Kind::Comma) {
        if (sep.kind == Kind::End) fail(open, "'(' is never closed");
        fail(sep, "expected ',' or ')'");
      }
    }
  }

  // `NAME = value`; the name is consumed, the '=' is next.
  void assignment(StarlarkToken name) {
    lex_.next();  // '='
    if (auto bound = names_.find(name.text); bound != names_.end()) {
      fail(name, "'" + name.text + "' is already bound at line " +
                     std::to_string(bound->second.where.line) + " (a name is bound once)");
    }
    StarlarkValue value = expression(0);
    names_[name.text] = Binding{std::move(value), lex_.at(name)};
  }

  // `term (+ term)*`.
  StarlarkValue expression(size_t depth) { return expressionAfter(lex_.next(), depth); }

  // An expression whose first token is already consumed.
  StarlarkValue expressionAfter(StarlarkToken first, size_t depth) {
    StarlarkValue value = term(std::move(first), depth);
    while (lex_.peek().kind == Kind::Plus) {
      const StarlarkToken plus = lex_.next();
      StarlarkValue right = term(lex_.next(), depth);
      if (right.kind != value.kind) {
        fail(plus, std::string("cannot add ") + (value.isList() ? "a list" : "a string") + " and " +
                       (right.isList() ? "a list" : "a string"));
      }
      value.text += right.text;
      for (StarlarkValue& item : right.items) value.items.push_back(std::move(item));
      charge(value, plus);
    }
    return value;
  }

  // A string, a list or a bound name.
  StarlarkValue term(StarlarkToken t, size_t depth) {
    StarlarkValue value;
    value.where = lex_.at(t);
    if (t.kind == Kind::String) {
      value.text = std::move(t.text);
    } else if (t.kind == Kind::LBracket) {
      if (depth + 1 > kStarlarkMaxNesting) {
        fail(t, "lists nested deeper than " + std::to_string(kStarlarkMaxNesting));
      }
      value.kind = StarlarkValue::Kind::List;
      list(t, value, depth + 1);
    } else if (t.kind == Kind::Name) {
      if (lex_.peek().kind == Kind::LParen) fail(t, "a call inside a value is not supported");
      auto bound = names_.find(t.text);
      if (bound == names_.end()) {
        if (isKeyword(t.text)) fail(t, "'" + t.text + "' is not supported here");
        fail(t, "name '" + t.text + "' is not defined (bind it with NAME = value before use)");
      }
      value = bound->second.value;
      value.where = lex_.at(t);
      charge(value, t);  // a name copies its value: count it (literals are bounded by the file)
    } else if (t.kind == Kind::LParen) {
      fail(t, "parentheses are not supported in values (tuples and grouping)");
    } else if (t.kind == Kind::End) {
      fail(t, "unexpected end of the file: expected a value");
    } else {
      fail(t, "expected a value: a string, a list or a name");
    }
    return value;
  }

  // The elements of a list; the '[' is consumed.
  void list(const StarlarkToken& open, StarlarkValue& value, size_t depth) {
    for (;;) {
      if (lex_.peek().kind == Kind::RBracket) {
        lex_.next();
        return;
      }
      value.items.push_back(expression(depth));
      const StarlarkToken sep = lex_.next();
      if (sep.kind == Kind::RBracket) return;
      if (sep.kind != Kind::Comma) {
        if (sep.kind == Kind::End) fail(open, "'[' is never closed");
        fail(sep, "expected ',' or ']'");
      }
    }
  }

  // Counts a built value against kStarlarkMaxValueBytes.
  void charge(const StarlarkValue& value, const StarlarkToken& at) {
    spent_ += weight(value);
    if (spent_ > kStarlarkMaxValueBytes) {
      fail(at, "the values of this file grow beyond " +
                   std::to_string(kStarlarkMaxValueBytes >> 20) + " MiB");
    }
  }

  StarlarkLexer lex_;
  std::map<std::string, Binding, std::less<>> names_;
  size_t spent_ = 0;
};

}  // namespace

// Reads the whole file.
std::vector<StarlarkCall> readStarlarkCalls(std::string_view text, const std::string& file) {
  return StarlarkReader(text, file).run();
}

}  // namespace toolguard::detail
