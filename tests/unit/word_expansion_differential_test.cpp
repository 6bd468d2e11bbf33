// Word expansion compared with real bash: generated words using every
// expansion the model follows (parameters, `${...}` operators, IFS, tilde,
// braces, quotes, escapes, arrays, positional parameters, known command
// output) run through one bash process and through parseShellProgram. Where
// the model claims a literal value it must give exactly bash's fields;
// anywhere else it must say "not known" (a dynamic word). A wrong literal is
// a word the guard reads differently from the shell that runs it.
//
// Each case starts from the same state in both: IFS reset, the variables
// unset, no positional parameters. Bash runs all the cases of a batch from
// one script in a scratch directory holding a few files (so globs are real),
// with HOME set to what the model is told.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "toolguard/shell.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOOLGUARD_DIFFERENTIAL_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TOOLGUARD_DIFFERENTIAL_SANITIZED 1
#endif

namespace toolguard {
namespace word_expansion_differential_test {

// Bash prints each generated word as: the sentinel field, then its fields,
// each field followed by kFieldEnd; each case ends with kCaseEnd.
constexpr char kSentinel = '\x1d';
constexpr char kFieldEnd = '\x1f';
constexpr char kCaseEnd = '\x1e';
constexpr std::string_view kFormat = "%s\\x1f";  // as written in single quotes
constexpr std::string_view kReset = "IFS=$' \\t\\n';unset v w x a;n=v;set --\n";

#ifdef TOOLGUARD_DIFFERENTIAL_SANITIZED
constexpr size_t kLiteralWordsWanted =
    10'000;  // memory errors, not the count: the release run compares 1M
#else
constexpr size_t kLiteralWordsWanted = 1'000'000;
#endif
constexpr size_t kCasesPerBatch = 20'000;

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  /// One case: its text (without the case separator) and how many words
  /// it prints.
  std::string makeCase(size_t& words) {
    std::string out(kReset);
    // A command substitution costs bash a fork (milliseconds here): in few
    // cases only.
    substitutions_ = pick(1000) == 0;
    const int prefix = pick(5);
    for (int i = 0; i < prefix; ++i) out += prefixItem() + "\n";
    // Few words a case: a case the grammar misreads (a parse error, asked
    // about) tells nothing about its words.
    words = 1 + static_cast<size_t>(pick(4));
    for (size_t i = 0; i < words; ++i) {
      out += "printf '";
      out += kFormat;
      out += "' $'\\x1d' " + word() + "\n";
    }
    return out;
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }
  bool chance(int percent) { return pick(100) < percent; }
  template <size_t N>
  std::string_view from(const std::string_view (&items)[N]) {
    return items[pick(static_cast<int>(N))];
  }

  std::string rawValue() {
    static constexpr std::string_view kValues[] = {
        "",   "a",     "a b", " a ",  "a  b",   "x\ty",     "l1\nl2", "*",     "a*b", "{a,b}",
        "-n", "a:b",   ":",   "a::b", " : ",    "~",        "~/z",    "$w",    "\\",  "'",
        "\"", "x y z", "v",   "1",    "0",      "\xc3\xa9", ",",      "a,b",   "\t",  "\n",
        "b:", ":c",    " ",   "a\\b", "{1..3}", "-",        "x=y",    "a b:c", "  ",  "%s"};
    return std::string(from(kValues));
  }

  // `value` written so that bash reads it back as it is.
  std::string quote(const std::string& value) {
    switch (pick(7) == 0 ? 2 : pick(3) == 2 ? 3 : pick(2)) {
      case 0:
        if (value.find('\'') == std::string::npos) return "'" + value + "'";
        [[fallthrough]];
      case 1: {
        std::string out = "\"";
        for (char c : value) {
          if (c == '"' || c == '\\' || c == '$' || c == '`') out += '\\';
          out += c;
        }
        return out + "\"";
      }
      case 2:
        if (value.find('\n') == std::string::npos && !value.empty()) {
          std::string out;
          for (char c : value) {
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '/' && c != '.' && c != '-' &&
                c != '_' && (c & 0x80) == 0) {
              out += '\\';
            }
            out += c;
          }
          return out;
        }
        [[fallthrough]];
      default: {
        std::string out = "$'";
        for (char c : value) {
          if (c == '\t') {
            out += "\\t";
          } else if (c == '\n') {
            out += pick(2) == 0 ? "\\n" : "\\012";
          } else if (c == '\'' || c == '\\') {
            out += '\\';
            out += c;
          } else if (c == ' ' && chance(30)) {
            out += "\\x20";
          } else {
            out += c;
          }
        }
        return out + "'";
      }
    }
  }

  std::string name() {
    static constexpr std::string_view kNames[] = {"v", "w", "x"};
    return std::string(from(kNames));
  }

  std::string prefixItem() {
    switch (pick(16)) {
      case 0:
      case 1:
      case 2:
        return name() + "=" + quote(rawValue());
      case 3:
      case 4: {
        // A value made of pieces, as an assignment reads them.
        std::string value;
        const int n = 1 + pick(3);
        for (int i = 0; i < n; ++i) value += piece(1, true);
        return name() + "=" + endsInContinuation(value);
      }
      case 5:
        return name() + "+=" + quote(rawValue());
      case 6: {
        std::string out = "a=(";
        const int n = pick(4);
        for (int i = 0; i < n; ++i) out += (i > 0 ? " " : "") + quote(rawValue());
        return out + ")";
      }
      case 7:
      case 8: {
        static constexpr std::string_view kIfs[] = {
            "IFS=",      "IFS=:",         "IFS=' '",  "IFS=$'\\t'", "IFS=' :'",
            "IFS=':,'",  "IFS=a",         "IFS=-",    "IFS=$'\\n'", "IFS=$' \\t\\n'",
            "unset IFS", "IFS=' x'",      "IFS=': '", "IFS=,",      "IFS=$':\\t'",
            "IFS=/",     "IFS=\"$IFS:\"", "IFS='*'",  "IFS=b",      "IFS='{,}'"};
        return std::string(from(kIfs));
      }
      case 9:
      case 10: {
        std::string out = "set --";
        const int n = pick(4) == 0 ? 10 + pick(3) : pick(4);
        for (int i = 0; i < n; ++i) out += " " + quote(rawValue());
        return out;
      }
      case 11:
        return "unset " + name();
      case 12:
        return std::string(": ${") + name() + (pick(2) == 0 ? ":=" : "=") + quote(rawValue()) + "}";
      case 13:
        return "printf -v " + name() + " '%s' " + quote(rawValue());
      case 14: {
        static constexpr std::string_view kHow[] = {"export ", "declare ", "declare -u ",
                                                    "declare -l ", "shift; "};
        return std::string(from(kHow)) + name() + "=" + quote(rawValue());
      }
      default: {
        static constexpr std::string_view kTargets[] = {"v",    "w",   "x", "1",    "@", "a[@]",
                                                        "a[1]", "IFS", "*", "HOME", "a"};
        return "n=" + std::string(from(kTargets));
      }
    }
  }

  std::string literal() {
    static constexpr std::string_view kChars = "abcxyz019/.-_:=,+%^@";
    std::string out;
    const int n = 1 + pick(3);
    for (int i = 0; i < n; ++i) out += kChars[static_cast<size_t>(pick(kChars.size()))];
    static constexpr std::string_view kGlobs[] = {"*", "?", "[ab]"};
    if (chance(3)) out += from(kGlobs);
    return out;
  }

  std::string singleQuoted() {
    static constexpr std::string_view kChars = "ab $\"\\{,}*~\t\n:-";
    std::string out = "'";
    const int n = pick(5);
    for (int i = 0; i < n; ++i) out += kChars[static_cast<size_t>(pick(kChars.size()))];
    return out + "'";
  }

  std::string ansiC() {
    static constexpr std::string_view kItems[] = {
        "a",    " ",       "\\t", "\\n",   "\\\\", "\\'", "\\x41", "\\101", "\\x7e",
        "\\\"", "\\u00e9", "$",   "\\e",   "\\a",  "{",   ",",     "\\x2a", "\\?",
        "\\q",  "\\x",     "\\0", "\\x3a", "\\cA", "\\E", "\\v",   "\\f",   "b"};
    std::string out = "$'";
    const int n = pick(4);
    for (int i = 0; i < n; ++i) out += from(kItems);
    return out + "'";
  }

  std::string escaped() {
    static constexpr std::string_view kChars = " \t$'\"*{},~ab;&|()<>#=!`\\\n?[:";
    return std::string("\\") + kChars[static_cast<size_t>(pick(kChars.size()))];
  }

  std::string parameterName(bool assignable) {
    if (assignable) return name();
    static constexpr std::string_view kAll[] = {"v", "w", "x", "1",    "2",    "@",   "*",
                                                "a", "v", "w", "a[@]", "a[*]", "IFS", "10"};
    return std::string(from(kAll));
  }

  std::string operand(bool in_double_quotes) {
    static constexpr std::string_view kPlain[] = {
        "",    "w",     "a b",   "~",       "~/d",   "$w", "\"q r\"", "'s t'",
        "x:~", "~/d:~", "*",     "${w:-z}", "\\}",   "$1", "$@",      "\"$@\"",
        "a:b", "-",     "~root", "$IFS",    "a\\ b", "/t", "=",       "${#v}"};
    if (in_double_quotes && chance(20)) return "'q'";
    if (chance(2)) return "{a,b}";
    return std::string(from(kPlain));
  }

  std::string pattern() {
    static constexpr std::string_view kPatterns[] = {"a",   "*", "?", "a*", "[ab]", "\\ ",
                                                     "\\*", "b", ":", "*:", "' '",  "\"a\""};
    return std::string(from(kPatterns));
  }

  std::string braced(bool in_double_quotes) {
    // The operators the model follows come up more often than the others,
    // which it must only call not known.
    const int kind = pick(30);
    if (kind >= 12) {
      static constexpr std::string_view kOps[] = {"-", ":-", "+", ":+", "=", ":="};
      const std::string op(from(kOps));
      return "${" + (op.ends_with("=") ? name() : parameterName(false)) + op +
             operand(in_double_quotes) + "}";
    }
    switch (kind) {
      case 0:
      case 1:
      case 2: {
        static constexpr std::string_view kOps[] = {"-", ":-", "+", ":+"};
        return "${" + parameterName(false) + std::string(from(kOps)) + operand(in_double_quotes) +
               "}";
      }
      case 3:
        return "${" + name() + (pick(2) == 0 ? ":=" : "=") + operand(in_double_quotes) + "}";
      case 4: {
        static constexpr std::string_view kOps[] = {"#", "##", "%", "%%"};
        return "${" + parameterName(false) + std::string(from(kOps)) + pattern() + "}";
      }
      case 5: {
        static constexpr std::string_view kOps[] = {"/", "//", "/#", "/%"};
        static constexpr std::string_view kReplacements[] = {"", "/x", "/y z", "/~", "/$w"};
        return "${" + parameterName(false) + std::string(from(kOps)) + pattern() +
               std::string(from(kReplacements)) + "}";
      }
      case 6: {
        static constexpr std::string_view kOps[] = {"^",  "^^", ",",  ",,", "~~", "@Q", "@U",
                                                    "@L", "@E", "@u", "@A", "@a", "@K"};
        return "${" + parameterName(false) + std::string(from(kOps)) + "}";
      }
      case 7: {
        static constexpr std::string_view kOps[] = {":1", ":1:2", ": -1", ":0:1", ":2", ":0"};
        return "${" + parameterName(false) + std::string(from(kOps)) + "}";
      }
      case 8: {
        static constexpr std::string_view kLengths[] = {"${#v}",   "${#w}", "${#}",     "${#@}",
                                                        "${#1}",   "${#*}", "${#a[@]}", "${#x}",
                                                        "${#IFS}", "${#a}"};
        return std::string(from(kLengths));
      }
      case 9: {
        static constexpr std::string_view kIndirect[] = {"${!n}", "${!v*}", "${!a[@]}", "${!n@}"};
        return std::string(from(kIndirect));
      }
      case 10:
        return pick(2) == 0 ? "${HOME:?w}" : "${HOME?}";
      default:
        return "${" + parameterName(false) + "}";
    }
  }

  std::string simple() {
    static constexpr std::string_view kSimple[] = {"$v",   "$w", "$x", "$#", "$@", "$*",
                                                   "$IFS", "$n", "$v", "$w", "$x", "${v}"};
    if (chance(3)) return "$a";
    // The grammar often cuts `$1` from what follows it.
    if (chance(10)) return pick(3) == 0 ? "$10" : pick(2) == 0 ? "$1" : "$2";
    return std::string(from(kSimple));
  }

  std::string doubleQuoted(int depth) {
    std::string out = pick(30) == 0 ? "$\"" : "\"";
    const int n = pick(4);
    for (int i = 0; i < n; ++i) {
      switch (pick(6)) {
        case 0: {
          static constexpr std::string_view kText[] = {"a",  " ", "\\\"", "\\$", "\\\\", "\\a",
                                                       "{",  ",", "}",    "~",   "*",    "\t",
                                                       "\n", "'", "x y",  ":",   "\\\n", "\\`"};
          out += from(kText);
          break;
        }
        case 1:
        case 2:
          out += simple();
          break;
        case 3:
        case 4:
          out += braced(true);
          break;
        default:
          out += depth < 2 && substitutions_ ? knownOutput() : simple();
      }
    }
    return out + "\"";
  }

  std::string tilde() {
    static constexpr std::string_view kTildes[] = {"~",  "~/", "~/x",     "~root",
                                                   "~+", "~-", "~root/x", "~/a:~"};
    // Looking up a user who does not exist takes bash a while.
    if (pick(200) == 0) return "~nosuch_user_q";
    return std::string(from(kTildes));
  }

  std::string brace(int depth) {
    static constexpr std::string_view kFixed[] = {
        "{a,b}",     "{a,}",      "{,b}",   "{1..3}",     "{3..1}",    "{a..e..2}",  "{01..3}",
        "{-2..2}",   "{a,{b,c}}", "{x}",    "{}",         "{a..c}",    "{1..10..3}", "{a,b}{c,d}",
        "{1..2..0}", "{-05..3}",  "{e..a}", "{1..3..-2}", "{a\\,b,c}", "{'a,b',c}",  "{a,\"\"}"};
    if (depth >= 2 || chance(60)) return std::string(from(kFixed));
    std::string out = "{";
    const int n = 1 + pick(3);
    for (int i = 0; i < n; ++i) {
      if (i > 0) out += ",";
      if (chance(80)) out += piece(depth + 1, false);
    }
    return out + "}";
  }

  std::string knownOutput() {
    static constexpr std::string_view kOutputs[] = {"$(echo a b)", "$(printf '%s\\n' x 'y z')",
                                                    "$(echo)",     "$(printf 'a\\n\\n')",
                                                    "`echo q`",    "$(echo \"$v\")",
                                                    "$((1+2))"};
    return std::string(from(kOutputs));
  }

  std::string piece(int depth, bool assignment) {
    const int kind = pick(100);
    if (kind < 14) return literal();
    if (kind < 22) return singleQuoted();
    if (kind < 34) return depth < 3 ? doubleQuoted(depth + 1) : literal();
    if (kind < 41) return ansiC();
    if (kind < 43) return escaped();
    if (kind < 62) return simple();
    if (kind < 80) return braced(false);
    if (kind < 86) return tilde();
    if (kind < 97) return depth < 2 && !assignment ? brace(depth) : literal();
    if (kind < 98) return "x=~/y";
    return depth < 2 && substitutions_ ? knownOutput() : literal();
  }

  std::string word() {
    std::string out;
    const int n = 1 + pick(4);
    for (int i = 0; i < n; ++i) out += piece(0, false);
    return endsInContinuation(out);
  }

  // A word must not end with a backslash-newline, which would join the
  // next line to it.
  static std::string endsInContinuation(std::string text) {
    if (text.ends_with("\\\n")) text += "a";
    return text;
  }

  std::mt19937 rng_;
  bool substitutions_ = false;
};

// The fields of each word of each case, as bash printed them.
using Fields = std::vector<std::string>;

std::vector<std::vector<Fields>> readBashOutput(const std::string& text) {
  std::vector<std::vector<Fields>> cases(1);
  std::string field;
  for (char c : text) {
    if (c == kCaseEnd) {
      cases.emplace_back();
    } else if (c == kFieldEnd) {
      if (field.size() == 1 && field[0] == kSentinel) {
        cases.back().emplace_back();
      } else if (!cases.back().empty()) {
        cases.back().back().push_back(field);
      }
      field.clear();
    } else {
      field += c;
    }
  }
  cases.pop_back();  // after the last separator
  return cases;
}

std::string show(const Fields& fields) {
  std::string out;
  for (const std::string& f : fields) {
    out += "<";
    for (char c : f) {
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else {
        out += c;
      }
    }
    out += ">";
  }
  return out.empty() ? "(no fields)" : out;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(WordExpansionDifferential, LiteralWordsAreWhatBashMakes) {
  if (access("/bin/bash", X_OK) != 0) GTEST_SKIP() << "no /bin/bash";
  char dir_template[] = "/tmp/toolguard-words-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  const std::string home = dir + "/home";
  const std::string work = dir + "/work";
  std::filesystem::create_directories(home);
  std::filesystem::create_directories(work);
  for (const char* f : {"a1", "b2", "abc", "z", "x y"}) std::ofstream(work + "/" + f) << "";

  ShellParseOptions options;
  options.home = home;
  // TOOLGUARD_DIFFERENTIAL_WORDS=N compares until N literal words (a
  // shorter or longer run while working on the model).
  size_t wanted = kLiteralWordsWanted;
  if (const char* n = std::getenv("TOOLGUARD_DIFFERENTIAL_WORDS"))
    wanted = std::strtoull(n, nullptr, 10);
  Generator generator(20240611);
  size_t cases = 0, words = 0, literal_words = 0, literal_fields = 0, mismatches = 0,
         parse_errors = 0;
  double bash_seconds = 0;
  const auto started = std::chrono::steady_clock::now();
  while (literal_words < wanted && cases < 20 * wanted) {
    std::vector<std::string> texts;
    std::vector<size_t> counts;
    std::string script = "cd '" + work + "' || exit 1\n";
    for (size_t i = 0; i < kCasesPerBatch; ++i) {
      size_t n = 0;
      texts.push_back(generator.makeCase(n));
      counts.push_back(n);
      script += texts.back() + "printf '\\x1e'\n";
    }
    const std::string script_path = dir + "/script.sh";
    const std::string out_path = dir + "/out";
    const std::string err_path = dir + "/err";
    std::ofstream(script_path, std::ios::binary) << script;

    // bash runs the batch while the model reads it.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    std::string home_env = "HOME=" + home;
    char* argv[] = {const_cast<char*>("bash"), const_cast<char*>("--norc"),
                    const_cast<char*>("--noprofile"), const_cast<char*>(script_path.c_str()),
                    nullptr};
    char* envp[] = {home_env.data(), const_cast<char*>("PATH=/usr/bin:/bin"),
                    const_cast<char*>("LC_ALL=C.UTF-8"), nullptr};
    const auto bash_started = std::chrono::steady_clock::now();
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, "/bin/bash", &actions, nullptr, argv, envp), 0);
    posix_spawn_file_actions_destroy(&actions);

    std::vector<std::vector<Fields>> model(texts.size());
    std::vector<std::vector<bool>> known(texts.size());
    std::vector<std::string> not_parsed(texts.size());  // the parse error, if any
    auto readCase = [&](size_t i) {
      const ShellProgram program = parseShellProgram(texts[i], options);
      if (program.parse_error) not_parsed[i] = program.error.empty() ? "?" : program.error;
      for (const SimpleCommand& c : program.commands) {
        if (c.words.size() < 3 || c.words[0].text != "printf" || c.words[1].text != kFormat ||
            c.words[2].text != std::string(1, kSentinel) || c.placement.in_command_substitution) {
          continue;
        }
        Fields f;
        bool all_known = true;
        for (size_t k = 3; k < c.words.size(); ++k) {
          all_known = all_known && !c.words[k].dynamic;
          f.push_back(c.words[k].text);
        }
        model[i].push_back(std::move(f));
        known[i].push_back(all_known && !program.parse_error);
      }
    };
    // Two threads read the cases while bash runs them.
    auto readCases = [&](size_t from, size_t to) {
      for (size_t i = from; i < to; ++i) readCase(i);
    };
    std::thread helper(readCases, 0, texts.size() / 2);
    readCases(texts.size() / 2, texts.size());
    helper.join();
    for (size_t i = 0; i < texts.size(); ++i) {
      if (!not_parsed[i].empty() && parse_errors++ < 3) {
        std::cout << "not parsed (" << not_parsed[i] << "):\n" << texts[i];
      }
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    bash_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - bash_started).count();
    const std::string errors = readFile(err_path);
    EXPECT_TRUE(errors.empty()) << "bash reported: " << errors.substr(0, 2000);
    const std::vector<std::vector<Fields>> bash = readBashOutput(readFile(out_path));
    ASSERT_EQ(bash.size(), texts.size()) << "bash stopped early";
    for (size_t i = 0; i < texts.size(); ++i) {
      ++cases;
      words += counts[i];
      if (bash[i].size() != counts[i]) {
        ++mismatches;
        ADD_FAILURE() << "bash printed " << bash[i].size() << " words of " << counts[i] << ":\n"
                      << texts[i];
        continue;
      }
      if (!not_parsed[i].empty()) continue;  // not known: asked about
      if (model[i].size() != counts[i]) {
        if (mismatches++ < 20) {
          ADD_FAILURE() << "the model read " << model[i].size() << " printf commands of "
                        << counts[i] << ":\n"
                        << texts[i];
        }
        continue;
      }
      for (size_t k = 0; k < counts[i]; ++k) {
        if (!known[i][k]) continue;
        ++literal_words;
        literal_fields += model[i][k].size();
        if (model[i][k] != bash[i][k] && mismatches++ < 20) {
          ADD_FAILURE() << "word " << k + 1 << " of:\n"
                        << texts[i] << "model: " << show(model[i][k])
                        << "\nbash:  " << show(bash[i][k]);
        }
      }
    }
    std::filesystem::remove(script_path);
  }
  std::filesystem::remove_all(dir);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const double share = words == 0 ? 0 : static_cast<double>(literal_words) / words;
  std::cout << "cases " << cases << ", words " << words << ", literal words " << literal_words
            << " (" << static_cast<int>(share * 1000) / 10.0 << "%), their fields "
            << literal_fields << ", mismatches " << mismatches << ", parse errors " << parse_errors
            << ", " << seconds << " s (bash " << bash_seconds << " s)\n";
  EXPECT_EQ(mismatches, 0u);
  EXPECT_GE(literal_words, wanted);
  EXPECT_GE(share, 0.3);
}

}  // namespace word_expansion_differential_test
}  // namespace toolguard

#undef TOOLGUARD_DIFFERENTIAL_SANITIZED
