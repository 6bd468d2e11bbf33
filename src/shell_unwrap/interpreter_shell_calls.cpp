// Literal shell calls inside inline interpreter code.
#include "interpreter_shell_calls.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>

namespace toolguard::detail {
namespace {

enum class Language { None, Python, Perl, Ruby, Node, Php };

Language languageOf(std::string_view name) {
  if (name.starts_with("python") || name == "pypy3") return Language::Python;
  if (name == "perl") return Language::Perl;
  if (name == "ruby") return Language::Ruby;
  if (name == "node" || name == "nodejs" || name == "bun") return Language::Node;
  if (name.starts_with("php")) return Language::Php;
  return Language::None;
}

// The option letters whose value is inline code, and long forms.
std::string_view codeOptions(Language l) {
  switch (l) {
    case Language::Python:
      return "c";
    case Language::Perl:
      return "eE";
    case Language::Ruby:
      return "e";
    case Language::Node:
      return "ep";
    case Language::Php:
      return "r";
    default:
      return "";
  }
}

// Functions that run their string argument, or an argument vector.
bool runsCommands(std::string_view f) {
  static constexpr std::string_view kNames[] = {"system",     "popen",        "run",
                                                "call",       "check_call",   "check_output",
                                                "Popen",      "getoutput",    "getstatusoutput",
                                                "spawn",      "spawnSync",    "exec",
                                                "execSync",   "execFile",     "execFileSync",
                                                "shell_exec", "passthru",     "proc_open",
                                                "capture2",   "capture2e",    "capture3",
                                                "popen2",     "popen3",       "pipeline",
                                                "pipeline_r", "pipeline_w",   "open3",
                                                "open2",      "spawnp",       "execa",
                                                "execaSync",  "execaCommand", "execaCommandSync",
                                                "execv",      "execvp",       "execl",
                                                "execlp"};
  return std::find(std::begin(kNames), std::end(kNames), f) != std::end(kNames);
}

struct Literal {
  std::string text;
  bool interpolated = false;
};

// A string literal starting at `i` (after any prefix letters); advances `i`.
std::optional<Literal> stringAt(std::string_view code, size_t& i, Language l) {
  bool raw = false;
  bool formatted = false;
  while (i < code.size() && l == Language::Python && std::strchr("rRbBfFuU", code[i]) != nullptr &&
         i + 1 < code.size()) {
    raw = raw || code[i] == 'r' || code[i] == 'R';
    formatted = formatted || code[i] == 'f' || code[i] == 'F';
    ++i;
  }
  if (i >= code.size()) return std::nullopt;
  const char q = code[i];
  if (q != '\'' && q != '"' && !(q == '`' && l == Language::Node)) return std::nullopt;
  const bool triple = l == Language::Python && code.substr(i, 3) == std::string(3, q);
  i += triple ? 3 : 1;
  Literal out;
  // Single quotes in perl, ruby and php know only \\ and \'.
  const bool simple =
      q == '\'' && (l == Language::Perl || l == Language::Ruby || l == Language::Php);
  while (i < code.size()) {
    if (triple ? code.substr(i, 3) == std::string(3, q) : code[i] == q) {
      i += triple ? 3 : 1;
      return out;
    }
    const char c = code[i];
    if (c == '\\' && i + 1 < code.size() && !raw) {
      const char e = code[++i];
      ++i;
      if (simple && e != '\\' && e != '\'') {
        out.text += '\\';
        out.text += e;
        continue;
      }
      switch (e) {
        case 'n':
          out.text += '\n';
          break;
        case 't':
          out.text += '\t';
          break;
        case '0':
          out.text += '\0';
          break;
        case 'x':
          if (i + 1 < code.size() && std::isxdigit(static_cast<unsigned char>(code[i])) &&
              std::isxdigit(static_cast<unsigned char>(code[i + 1]))) {
            out.text += static_cast<char>(std::stoi(std::string(code.substr(i, 2)), nullptr, 16));
            i += 2;
          } else {
            out.interpolated = true;
          }
          break;
        case '\\':
        case '\'':
        case '"':
        case '`':
        case '$':
          out.text += e;
          break;
        default:
          out.interpolated = true;  // an escape not followed here
      }
      continue;
    }
    if (q != '\'' || l == Language::Python || l == Language::Node) {
      if ((formatted && c == '{') ||
          (l == Language::Node && q == '`' && code.substr(i, 2) == "${") ||
          ((l == Language::Perl || l == Language::Php) && q != '\'' && (c == '$' || c == '@')) ||
          (l == Language::Ruby && q != '\'' && code.substr(i, 2) == "#{")) {
        out.interpolated = true;
      }
    }
    out.text += c;
    ++i;
  }
  return std::nullopt;
}

void skipSpace(std::string_view code, size_t& i) {
  while (i < code.size() && std::isspace(static_cast<unsigned char>(code[i]))) ++i;
}

// One argument: a string, or a list of strings ([...]); advances `i`.
struct Argument {
  std::vector<Literal> strings;
  bool list = false;
  bool other = false;
};

Argument argumentAt(std::string_view code, size_t& i, Language l) {
  Argument a;
  skipSpace(code, i);
  if (i < code.size() && code[i] == '[') {
    a.list = true;
    ++i;
    while (i < code.size()) {
      skipSpace(code, i);
      if (i < code.size() && code[i] == ']') {
        ++i;
        return a;
      }
      std::optional<Literal> s = stringAt(code, i, l);
      if (!s) {
        a.other = true;
        return a;
      }
      a.strings.push_back(std::move(*s));
      skipSpace(code, i);
      if (i < code.size() && code[i] == ',') ++i;
    }
    a.other = true;
    return a;
  }
  if (std::optional<Literal> s = stringAt(code, i, l)) {
    // "rm -rf " + d is an expression, not the string.
    size_t k = i;
    skipSpace(code, k);
    if (k < code.size() && std::strchr(",);]", code[k]) == nullptr) {
      a.other = true;
      return a;
    }
    a.strings.push_back(std::move(*s));
    return a;
  }
  a.other = true;
  return a;
}

void addScript(const std::string& wrapper, const Literal& s, std::vector<Unwrapped>& out) {
  if (s.interpolated) return;  // built at run time: the interpreter is asked about anyway
  Unwrapped u;
  u.wrapper = wrapper;
  u.script = ShellWord{s.text, false, s.text};
  out.push_back(std::move(u));
}

void addWords(const std::string& wrapper, const std::vector<Literal>& strings,
              std::vector<Unwrapped>& out) {
  Unwrapped u;
  u.wrapper = wrapper;
  for (const Literal& s : strings) {
    if (s.interpolated) return;
    u.words.push_back(ShellWord{s.text, false, s.text});
  }
  if (!u.words.empty()) out.push_back(std::move(u));
}

void scan(std::string_view code, Language l, const std::string& wrapper,
          std::vector<Unwrapped>& out) {
  size_t budget = 64;
  for (size_t i = 0; i < code.size() && budget > 0; ++i) {
    const char c = code[i];
    // Backquotes and qx//%x(): perl, ruby, php.
    if (c == '`' && l != Language::Python && l != Language::Node) {
      const size_t end = code.find('`', i + 1);
      if (end == std::string_view::npos) return;
      const std::string_view body = code.substr(i + 1, end - i - 1);
      if (body.find_first_of("$@#\\") == std::string_view::npos) {
        addScript(wrapper, Literal{std::string(body), false}, out);
        --budget;
      }
      i = end;
      continue;
    }
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) continue;
    if (i > 0 && (std::isalnum(static_cast<unsigned char>(code[i - 1])) || code[i - 1] == '_')) {
      continue;
    }
    size_t end = i;
    while (end < code.size() &&
           (std::isalnum(static_cast<unsigned char>(code[end])) || code[end] == '_')) {
      ++end;
    }
    const std::string_view name = code.substr(i, end - i);
    if ((name == "qx" || name == "x") && end < code.size() &&
        std::strchr("({[/|'", code[end]) != nullptr &&
        (name == "qx" ? l == Language::Perl
                      : (l == Language::Ruby && i > 0 && code[i - 1] == '%'))) {
      const char open = code[end];
      const char close = open == '(' ? ')' : open == '{' ? '}' : open == '[' ? ']' : open;
      const size_t stop = code.find(close, end + 1);
      if (stop == std::string_view::npos) return;
      const std::string_view body = code.substr(end + 1, stop - end - 1);
      if (body.find_first_of("$@#\\") == std::string_view::npos) {
        addScript(wrapper, Literal{std::string(body), false}, out);
        --budget;
      }
      i = stop;
      continue;
    }
    i = end - 1;
    if (!runsCommands(name)) continue;
    size_t k = end;
    skipSpace(code, k);
    const bool parenthesised = k < code.size() && code[k] == '(';
    // perl and ruby call without parentheses: system "rm -rf ~"
    if (!parenthesised && l != Language::Perl && l != Language::Ruby) continue;
    if (parenthesised) ++k;
    std::vector<Argument> args;
    while (k < code.size() && args.size() < 8) {
      args.push_back(argumentAt(code, k, l));
      if (args.back().other) break;
      skipSpace(code, k);
      if (k >= code.size() || code[k] != ',') break;
      ++k;
    }
    if (args.empty() || args[0].other) continue;
    --budget;
    const std::string label = wrapper + " " + std::string(name);
    if (args[0].list) {
      addWords(label, args[0].strings, out);  // subprocess.run(["rm", "-rf", "/"])
    } else if (args.size() > 1 && args[1].list && !args[1].other) {
      std::vector<Literal> argv = args[0].strings;  // spawn("rm", ["-rf", "/"])
      argv.insert(argv.end(), args[1].strings.begin(), args[1].strings.end());
      addWords(label, argv, out);
    } else if (args.size() > 1 && !args[1].other && !args[1].list &&
               (l == Language::Perl || l == Language::Ruby)) {
      std::vector<Literal> argv;  // system("rm", "-rf", "/")
      for (const Argument& a : args) {
        if (a.other || a.list) break;
        argv.insert(argv.end(), a.strings.begin(), a.strings.end());
      }
      addWords(label, argv, out);
    } else {
      addScript(label, args[0].strings.front(), out);
    }
  }
}

}  // namespace

std::string_view inlineCode(const SimpleCommand& cmd, std::string& storage) {
  const Language l = languageOf(cmd.commandName());
  if (l == Language::None) return {};
  const std::string_view options = codeOptions(l);
  const std::vector<ShellWord>& w = cmd.words;
  for (size_t i = 1; i < w.size(); ++i) {
    const std::string& t = w[i].text;
    if (l == Language::Node && (t.starts_with("--eval=") || t.starts_with("--print="))) {
      if (w[i].dynamic) return {};
      storage = t.substr(t.find('=') + 1);
      return storage;
    }
    if (l == Language::Node && (t == "--eval" || t == "--print")) {
      if (i + 1 >= w.size() || w[i + 1].dynamic) return {};
      return w[i + 1].text;
    }
    if (t.size() < 2 || t[0] != '-' || t[1] == '-') {
      if (t == "--") break;
      if (t.empty() || t[0] != '-') break;  // a script file: not inline code
      continue;
    }
    for (size_t k = 1; k < t.size(); ++k) {
      if (options.find(t[k]) == std::string_view::npos) continue;
      if (k + 1 < t.size()) {
        if (w[i].dynamic) return {};
        storage = t.substr(k + 1);
        return storage;
      }
      if (i + 1 >= w.size() || w[i + 1].dynamic) return {};
      return w[i + 1].text;
    }
  }
  // `python3 <<< 'code'`, `echo 'code' | perl`: the code is its input.
  bool has_operand = false;
  for (size_t i = 1; i < w.size(); ++i) has_operand = has_operand || !w[i].text.starts_with("-");
  if (!has_operand && cmd.input && !cmd.input->dynamic) return cmd.input->text;
  return {};
}

void unwrapInterpreterShellCalls(const SimpleCommand& cmd, std::vector<Unwrapped>& out) {
  std::string storage;
  const std::string_view code = inlineCode(cmd, storage);
  if (code.empty()) return;
  scan(code, languageOf(cmd.commandName()), std::string(cmd.commandName()), out);
}

}  // namespace toolguard::detail
