// The lists of harmless variables: closed, so a variable nobody listed is
// not harmless.
#include "variable_lists.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "inherited_environment.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

bool isIdentifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// Letters, digits and `_.-+@:,` only: a name, a number, a locale, a switch.
bool isPlainValue(std::string_view value) {
  return std::all_of(value.begin(), value.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_.-+@:,").find(c) != std::string_view::npos;
  });
}

// A compiler by its usual name (`gcc`, `clang-16`, `g++-12`).
bool isCompilerName(std::string_view value) {
  for (std::string_view base : {"gcc", "g++", "clang", "clang++", "cc", "c++", "gfortran"}) {
    if (!value.starts_with(base)) continue;
    const std::string_view rest = value.substr(base.size());
    if (rest.empty()) return true;
    if (rest[0] == '-' && rest.size() > 1 && std::all_of(rest.begin() + 1, rest.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
        })) {
      return true;
    }
  }
  return false;
}

// Compiler flags that only change code generation and warnings: optimisation,
// debug information, warnings, macros, the language standard, include
// directories. No plugins, specs, wrappers, linker or assembler pass-through.
bool isHarmlessCompilerFlags(std::string_view value) {
  for (const std::string_view flag : spaceSeparatedWords(value)) {
    const bool plain = flag.find(',') == std::string_view::npos && isPlainValue(flag.substr(1));
    const bool harmless =
        flag.starts_with('-') && plain &&
        (flag.starts_with("-O") || flag.starts_with("-g") || flag.starts_with("-W") ||
         flag.starts_with("-D") || flag.starts_with("-U") || flag.starts_with("-std=") ||
         flag == "-pedantic" || flag == "-pthread" || flag == "-fPIC" || flag == "-fpic" ||
         flag == "-march=native" || flag == "-fno-omit-frame-pointer" ||
         flag.starts_with("-fsanitize=") || flag == "-fno-exceptions" || flag == "-fno-rtti" ||
         flag == "-m64" || flag == "-m32" || flag == "--coverage");
    // Include directories may be any path: they are only read.
    const bool include = flag.starts_with("-I") && flag.size() > 2 &&
                         flag.find_first_of(",;$`") == std::string_view::npos;
    if (!harmless && !include) return false;
  }
  return true;
}

// rustc flags that only set lint levels, cfg names and a few code
// generation switches: no linker, no plugin, no path.
bool isHarmlessRustFlags(std::string_view value) {
  const std::vector<std::string_view> words = spaceSeparatedWords(value);
  auto lintName = [](std::string_view n) {
    return !n.empty() && std::all_of(n.begin(), n.end(), [](char c) {
      return std::islower(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':';
    });
  };
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    bool known = false;
    for (std::string_view level :
         {"-D", "-W", "-A", "-F", "--deny", "--warn", "--allow", "--forbid", "--cfg"}) {
      if (w == level && i + 1 < words.size() && lintName(words[i + 1])) {
        ++i;
        known = true;
      } else if (level.size() == 2 && w.starts_with(level) && lintName(w.substr(2))) {
        known = true;
      }
    }
    if (!known && (w == "-C" || w.starts_with("-C"))) {
      const std::string_view setting = w == "-C" && i + 1 < words.size() ? words[++i] : w.substr(2);
      known = oneOf(setting.substr(0, setting.find('=')),
                    {"opt-level", "debuginfo", "target-cpu", "codegen-units", "debug-assertions",
                     "overflow-checks", "incremental", "force-frame-pointers", "strip"}) &&
              setting.find('/') == std::string_view::npos;
    }
    if (!known) return false;
  }
  return true;
}

// `src`, `lib:tests`: directories of the project, relative to where the
// command runs, never above it.
bool isRelativePathList(std::string_view value) {
  if (value.empty()) return false;
  size_t at = 0;
  while (at <= value.size()) {
    size_t end = value.find(':', at);
    if (end == std::string_view::npos) end = value.size();
    const std::string_view entry = value.substr(at, end - at);
    if (entry.empty() || entry.starts_with('/') || entry.starts_with('~') ||
        entry.find("..") != std::string_view::npos) {
      return false;
    }
    for (char c : entry) {
      if (!std::isalnum(static_cast<unsigned char>(c)) &&
          std::string_view("_.-/").find(c) == std::string_view::npos) {
        return false;
      }
    }
    at = end + 1;
  }
  return true;
}

}  // namespace

std::vector<std::string_view> spaceSeparatedWords(std::string_view value) {
  std::vector<std::string_view> words;
  size_t at = 0;
  while (at < value.size()) {
    while (at < value.size() && value[at] == ' ') ++at;
    if (at >= value.size()) break;
    size_t end = value.find(' ', at);
    if (end == std::string_view::npos) end = value.size();
    words.push_back(value.substr(at, end - at));
    at = end;
  }
  return words;
}

bool environmentVariableIsHarmless(std::string_view name, std::string_view value, bool has_value) {
  if (!isIdentifier(name)) return false;
  // Any value: switches and labels that no program reads as a path, a
  // program, code or an address.
  if (oneOf(name, {"CI",
                   "NODE_ENV",
                   "RUST_BACKTRACE",
                   "RUST_LOG",
                   "DEBUG",
                   "VERBOSE",
                   "V",
                   "NO_COLOR",
                   "FORCE_COLOR",
                   "CLICOLOR",
                   "CLICOLOR_FORCE",
                   "COLUMNS",
                   "LINES",
                   "TERM",
                   "PYTHONUNBUFFERED",
                   "PYTHONDONTWRITEBYTECODE",
                   "PYTHONHASHSEED",
                   "PYTHONIOENCODING",
                   "PYTHONFAULTHANDLER",
                   "PYTHONUTF8",
                   "CARGO_TERM_COLOR",
                   "CARGO_INCREMENTAL",
                   "NODE_NO_WARNINGS",
                   "LOG_LEVEL",
                   "LOGLEVEL",
                   "RAILS_ENV",
                   "RACK_ENV",
                   "APP_ENV",
                   "FLASK_ENV",
                   "FLASK_DEBUG",
                   "SKIP",
                   "HUSKY",
                   "GOOS",
                   "GOARCH",
                   "CGO_ENABLED",
                   "GO111MODULE",
                   "CMAKE_BUILD_TYPE",
                   "CMAKE_BUILD_PARALLEL_LEVEL",
                   "CTEST_OUTPUT_ON_FAILURE",
                   "CTEST_PARALLEL_LEVEL",
                   "GIT_TERMINAL_PROMPT",
                   "PIP_DISABLE_PIP_VERSION_CHECK",
                   "TZ",
                   "LANG",
                   "LANGUAGE",
                   "LC_ALL",
                   "LC_CTYPE",
                   "LC_MESSAGES",
                   "LC_COLLATE",
                   "LC_NUMERIC",
                   "LC_TIME",
                   "LC_MONETARY"})) {
    return !has_value || isPlainValue(value);
  }
  // A pager that only prints.
  if (oneOf(name, {"PAGER", "GIT_PAGER", "SYSTEMD_PAGER", "MANPAGER"})) {
    return has_value && oneOf(value, {"cat", ""});
  }
  if (oneOf(name, {"CC", "CXX", "FC"})) return has_value && isCompilerName(value);
  if (oneOf(name, {"RUSTFLAGS", "RUSTDOCFLAGS"})) return has_value && isHarmlessRustFlags(value);
  // Where Python looks for modules first: the project's own directories only.
  if (name == "PYTHONPATH") return has_value && isRelativePathList(value);
  if (oneOf(name, {"CFLAGS", "CXXFLAGS", "CPPFLAGS", "FFLAGS"})) {
    return has_value && isHarmlessCompilerFlags(value);
  }
  return false;
}

bool bashActsOn(std::string_view name) {
  return name.starts_with("BASH") || name.starts_with("PS") || name.starts_with("LD_") ||
         name.starts_with("COMP_") || name.starts_with("READLINE_") || name.starts_with("HIST") ||
         name.starts_with("MAIL") || oneOf(name, {"PATH",
                                                  "IFS",
                                                  "CDPATH",
                                                  "ENV",
                                                  "SHELLOPTS",
                                                  "PROMPT_COMMAND",
                                                  "GLOBIGNORE",
                                                  "FUNCNEST",
                                                  "TMOUT",
                                                  "HOME",
                                                  "PWD",
                                                  "OLDPWD",
                                                  "POSIXLY_CORRECT",
                                                  "EXECIGNORE",
                                                  "FIGNORE",
                                                  "INPUTRC",
                                                  "HOSTFILE",
                                                  "OPTIND",
                                                  "OPTARG",
                                                  "SHELL",
                                                  "TMPDIR",
                                                  "GLOBSORT",
                                                  "SRANDOM",
                                                  "RANDOM",
                                                  "SECONDS",
                                                  "LINENO",
                                                  "EPOCHREALTIME"});
}

bool shellVariableIsPlain(std::string_view name) {
  if (!isIdentifier(name) || bashActsOn(name)) return false;
  if (environmentVariableIsHarmless(name, "", false)) return true;
  // Assigning a variable the environment already has changes what every
  // later program of the shell gets; the process judging the call has the
  // agent's environment (a hook is the agent's child).
  return !inheritedVariableIsSet(name);
}

bool variableMayHoldSecret(std::string_view name) {
  if (name.starts_with("LC_") || name.starts_with("XDG_")) return false;
  // A name with lower-case letters is the script's own (`for f in ...`),
  // unless it is one of the lower-case variables programs read (a proxy URL
  // holds its password) or names a credential.
  if (std::any_of(name.begin(), name.end(),
                  [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; })) {
    std::string upper(name);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    for (std::string_view word : {"PROXY", "TOKEN", "SECRET", "PASS", "KEY", "AUTH", "CRED",
                                  "COOKIE", "SESSION", "NPM_CONFIG", "PRIVATE", "URL", "DSN"}) {
      if (upper.find(word) != std::string::npos) return true;
    }
    return inheritedVariableIsSet(name);
  }
  return !oneOf(name, {"HOME",
                       "PATH",
                       "USER",
                       "LOGNAME",
                       "SHELL",
                       "PWD",
                       "OLDPWD",
                       "LANG",
                       "LANGUAGE",
                       "TERM",
                       "EDITOR",
                       "VISUAL",
                       "PAGER",
                       "HOSTNAME",
                       "TMPDIR",
                       "SHLVL",
                       "COLUMNS",
                       "LINES",
                       "TZ",
                       "GOPATH",
                       "GOROOT",
                       "JAVA_HOME",
                       "VIRTUAL_ENV",
                       "NODE_ENV",
                       "CI",
                       "CC",
                       "CXX",
                       "CFLAGS",
                       "CXXFLAGS",
                       "LDFLAGS",
                       "MAKEFLAGS",
                       "PYTHONPATH",
                       "CARGO_HOME",
                       "RUSTUP_HOME",
                       "NVM_DIR",
                       "CONDA_PREFIX",
                       "CONDA_DEFAULT_ENV",
                       "UID",
                       "EUID",
                       "PPID",
                       "BASH_VERSION",
                       "OSTYPE",
                       "HOSTTYPE",
                       "MACHTYPE",
                       "RANDOM",
                       "SECONDS",
                       "LINENO"});
}

bool oneOfSetOptions(std::string_view name) {
  return oneOf(name, {"errexit", "nounset", "pipefail", "xtrace", "verbose", "errtrace",
                      "functrace", "noclobber", "noglob", "noexec", "posix"});
}

}  // namespace toolguard::detail
