// The judgement of one inherited value (see inherited_values.hpp and the
// rules at the top of inherited_environment.cpp).
#include "inherited_values.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "option_table.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/paths.hpp"
#include "variable_lists.hpp"

namespace toolguard::detail {

std::vector<std::string> splitOn(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t at = 0;
  while (true) {
    const size_t end = text.find(separator, at);
    parts.emplace_back(text.substr(at, end == std::string_view::npos ? end : end - at));
    if (end == std::string_view::npos) return parts;
    at = end + 1;
  }
}

bool endsWithAny(std::string_view name, std::initializer_list<std::string_view> endings) {
  return std::any_of(endings.begin(), endings.end(),
                     [&](std::string_view e) { return name.ends_with(e); });
}

bool startsWithAny(std::string_view name, std::initializer_list<std::string_view> starts) {
  return std::any_of(starts.begin(), starts.end(),
                     [&](std::string_view s) { return name.starts_with(s); });
}

// Where the model may put files without a question: the workspaces and the
// temp directories everyone may write.
bool inModelsReach(std::string_view path, const CommandScene& scene, const std::string& tmpdir) {
  for (std::string_view temp : kTempPlaces) {
    if (isWithin(path, temp)) return true;
  }
  if (!tmpdir.empty() && isWithin(path, tmpdir)) return true;
  // The roots as the call names them: following their links would cost
  // every command a file system walk (a value naming a workspace through
  // another spelling of it is not seen).
  for (const std::string& root : scene.view.workspaceRoots()) {
    if (isWithin(path, root)) return true;
  }
  return false;
}

namespace {

// Letters, digits and `_.-+@:,`: a name, a number, a locale, a switch.
bool isPlainText(std::string_view value) {
  return std::all_of(value.begin(), value.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_.-+@:,").find(c) != std::string_view::npos;
  });
}

// An absolute place (or `~/...`) without `..`, blanks or shell syntax, out of
// the model's reach once spelled plainly (`//tmp/x` and `/./tmp/x` are
// `/tmp/x`).
bool placeIsOutOfReach(std::string_view path, const CommandScene& scene,
                       const std::string& tmpdir) {
  if (path.find_first_of(" \t\n;|&$`<>()'\"\\*?[{") != std::string_view::npos) return false;
  std::string absolute(path);
  if (path.starts_with("~/")) absolute = scene.home + std::string(path.substr(1));
  if (!absolute.starts_with('/')) return false;
  if (absolute.find("/../") != std::string::npos || absolute.ends_with("/..")) return false;
  return !inModelsReach(normalizePath(absolute, "/", scene.home), scene, tmpdir);
}

bool placesAreOutOfReach(std::string_view list, const CommandScene& scene,
                         const std::string& tmpdir) {
  const std::vector<std::string> entries = splitOn(list, ':');
  return std::all_of(entries.begin(), entries.end(), [&](const std::string& entry) {
    return placeIsOutOfReach(entry, scene, tmpdir);
  });
}

// Names of variables whose value is a place a program reads code or
// configuration from (or a list of them): a relative one is where the
// command runs, in the workspace.
bool namesPlaces(std::string_view upper) {
  return upper.starts_with("LD_") ||
         endsWithAny(upper, {"PATH",    "PATHS",   "LIB",   "LIBS",   "FILE",   "FILES", "CONFIG",
                             "CONF",    "RC",      "_INIT", "_HOME",  "_ROOT",  "_DIR",  "_DIRS",
                             "_PREFIX", "_SCRIPT", "CERTS", "BUNDLE", "CAINFO", "CAPATH"}) ||
         oneOf(upper, {"BASH_ENV", "ENV", "HOSTALIASES", "MAKEFILES", "ZDOTDIR",
                       "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "PYTHONHOME", "PYTHONSTARTUP",
                       "GOENV", "PYTHONPATH", "PYTHONPYCACHEPREFIX", "PYTHONUSERBASE"});
}

// Names of variables whose value is a program to start, maybe with options.
bool namesProgram(std::string_view upper) {
  return endsWithAny(upper, {"EDITOR", "VISUAL", "PAGER", "_COMMAND", "_CMD", "ASKPASS", "_SSH",
                             "_SHELL", "_WRAPPER", "_EXE", "_PROGRAM", "_BROWSER", "_DIFF"}) ||
         oneOf(upper, {"SHELL", "BROWSER", "CC", "CXX", "FC", "CPP", "LD", "AR", "RUSTC", "RUSTDOC",
                       "MAKE"});
}

// Names of variables that carry options or code for a program.
bool carriesOptions(std::string_view upper) {
  return endsWithAny(upper, {"OPTS", "OPTIONS", "FLAGS", "ADDOPTS", "_ARGS", "_ARGV", "OPT"}) ||
         startsWithAny(upper, {"GIT_CONFIG_KEY", "GIT_CONFIG_VALUE", "LUA_INIT"}) ||
         oneOf(upper, {"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"}) ||
         oneOf(upper, {"PYTHONBREAKPOINT", "PYTHONINSPECT", "PYTHONWARNINGS", "PROMPT_COMMAND"});
}

// A program with plain options: `vim`, `code --wait`, `/usr/bin/ssh -i
// ~/.ssh/deploy -o IdentitiesOnly=yes`. Not a shell or an interpreter, whose
// words would be code.
bool programIsOutOfReach(std::string_view value, bool names_shell, const CommandScene& scene,
                         const std::string& tmpdir) {
  // An empty argument (`emacsclient -a ""`) is the only quoting read.
  std::string unquoted(value);
  for (const std::string_view empty : {" \"\"", " ''"}) {
    for (size_t at = unquoted.find(empty); at != std::string::npos; at = unquoted.find(empty)) {
      const size_t end = at + empty.size();
      if (end != unquoted.size() && unquoted[end] != ' ') return false;
      unquoted.erase(at, empty.size());
    }
  }
  value = unquoted;
  if (value.find_first_of("\t\n;|&$`<>()'\"\\*?[{") != std::string_view::npos) return false;
  const std::vector<std::string_view> words = spaceSeparatedWords(value);
  if (words.empty()) return true;
  const std::string_view program = words.front();
  const bool program_known = program.find('/') == std::string::npos
                                 ? isPlainText(program) && !program.starts_with('-')
                                 : placeIsOutOfReach(program, scene, tmpdir);
  if (!program_known) return false;
  // SHELL and npm's script-shell name a shell, alone.
  if (names_shell) return words.size() == 1;
  const std::string_view base = program.substr(program.rfind('/') + 1);
  if (startsWithAny(base, {"sh", "bash", "dash", "zsh", "ksh", "fish", "python", "node", "perl",
                           "ruby", "php", "lua", "env", "xargs", "busybox", "eval", "exec"})) {
    return false;
  }
  // Later words: flags with no value of their own (`--wait`, `-c`), `-o
  // Key=value` settings, empty arguments, places out of reach. A bare word
  // may be a file where the program runs (`ssh -F sshcfg`).
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view word = words[i];
    const bool flag =
        (word.size() == 2 && word[0] == '-' && std::isalpha(static_cast<unsigned char>(word[1]))) ||
        (word.starts_with("--") && word.find('=') == std::string_view::npos && isPlainText(word));
    const bool setting =
        i > 1 && words[i - 1] == "-o" && word.find('=') != std::string_view::npos &&
        isPlainText(word.substr(0, word.find('='))) &&
        isPlainText(word.substr(word.find('=') + 1)) && word.find('.') == std::string_view::npos;
    if (!flag && !setting && !placeIsOutOfReach(word, scene, tmpdir)) return false;
  }
  return true;
}

// The words of an option variable, judged by the table of the program that
// reads them (as if they came first on its command line).
bool optionsKnownToTable(std::string_view program, const std::vector<std::string>& words,
                         const CommandScene& scene) {
  const ProgramSpec* spec = programSpec(program);
  if (spec == nullptr) return false;
  std::vector<ShellWord> arguments;
  for (const std::string& word : words) {
    if (!word.starts_with('-'))
      return false;  // operands (make targets, test files) are not options
    arguments.push_back(ShellWord{word, false, word});
  }
  const TableParse parse = parseWithTable(*spec, arguments, &scene);
  // A path given here never meets the path rules (`--basetemp=/root/.ssh`):
  // only options without one pass.
  return parse.known() &&
         std::none_of(parse.options.begin(), parse.options.end(), [](const FoundOption& o) {
           return o.kind == ValueKind::Read || o.kind == ValueKind::Write ||
                  o.kind == ValueKind::Tree || o.kind == ValueKind::Inside;
         });
}

// `-mod=mod`, `-trimpath`, `-count=1`: how go builds, never with what.
bool isHarmlessGoFlag(std::string_view word) {
  const std::string_view name = word.substr(0, word.find('='));
  const std::string_view value =
      word.find('=') == std::string_view::npos ? "" : word.substr(word.find('=') + 1);
  if (!isPlainText(value)) return false;
  return (name == "-mod" && oneOf(value, {"mod", "readonly", "vendor"})) ||
         (name == "-buildvcs" && oneOf(value, {"true", "false", "auto"})) ||
         (oneOf(name, {"-count", "-p", "-parallel", "-timeout", "-tags"}) && !value.empty()) ||
         (value.empty() && oneOf(name, {"-trimpath", "-v", "-race", "-modcacherw", "-short"}));
}

// less's LESSOPEN and LESSCLOSE as Debian and Ubuntu set them: a
// preprocessor out of reach, given only the file's name.
bool isLessPreprocessor(std::string_view value, const CommandScene& scene,
                        const std::string& tmpdir) {
  value.remove_prefix(std::min(value.size(), value.find_first_not_of("| ")));
  const std::vector<std::string_view> words = spaceSeparatedWords(value);
  if (words.empty() || !placeIsOutOfReach(words[0], scene, tmpdir) ||
      !words[0].ends_with("/lesspipe")) {
    return false;
  }
  return std::all_of(words.begin() + 1, words.end(), [](std::string_view w) { return w == "%s"; });
}

// `-Xmx2g`, `-XX:+UseG1GC`, `-Dfile.encoding=UTF-8`: memory, collector and
// plain properties; no agents, no class paths.
bool isHarmlessJvmOption(std::string_view word) {
  if (!isPlainText(word.substr(0, word.find('='))) ||
      !isPlainText(word.substr(std::min(word.size(), word.find('=') + 1)))) {
    return false;
  }
  return startsWithAny(word, {"-Xmx", "-Xms", "-Xss", "-XX:+", "-XX:-",
                              "-Dfile.encoding=", "-Djava.awt.headless=", "-Duser.language=",
                              "-Duser.country=", "-Duser.timezone="}) ||
         oneOf(word, {"-ea", "-da", "-server", "-client"}) ||
         (word.starts_with("-XX:") && word.find('=') != std::string_view::npos &&
          std::all_of(word.begin() + static_cast<std::ptrdiff_t>(word.find('=')) + 1, word.end(),
                      [](char c) { return std::isalnum(static_cast<unsigned char>(c)); }));
}

bool isHarmlessNodeOption(std::string_view word) {
  const std::string_view name = word.substr(0, word.find('='));
  const std::string_view value =
      word.find('=') == std::string_view::npos ? "" : word.substr(word.find('=') + 1);
  if (!isPlainText(value)) return false;
  return oneOf(name, {"--max-old-space-size",   "--max-semi-space-size",
                      "--stack-size",           "--enable-source-maps",
                      "--no-warnings",          "--no-deprecation",
                      "--trace-warnings",       "--trace-deprecation",
                      "--throw-deprecation",    "--use-openssl-ca",
                      "--use-bundled-ca",       "--openssl-legacy-provider",
                      "--dns-result-order",     "--unhandled-rejections",
                      "--max-http-header-size", "--experimental-vm-modules",
                      "--disable-warning",      "--no-experimental-fetch",
                      "--trace-uncaught",       "--heapsnapshot-near-heap-limit"});
}

// make's own MAKEFLAGS: a first word of single-letter switches without a
// dash (`ks`), its job server, then options.
bool makeFlagsAreKnown(const std::vector<std::string_view>& words, const CommandScene& scene) {
  std::vector<std::string> options;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = words[i];
    if (word.starts_with("--jobserver-auth=") || word.starts_with("--jobserver-fds=")) continue;
    if (word == "--") return false;  // variable overrides follow
    if (i == 0 && !word.starts_with('-')) {
      options.push_back("-" + std::string(word));
      continue;
    }
    options.emplace_back(word);
  }
  return options.empty() || optionsKnownToTable("make", options, scene);
}

bool optionsAreKnown(const InheritedVariable& v, const CommandScene& scene) {
  const std::vector<std::string_view> words = spaceSeparatedWords(v.value);
  if (words.empty()) return true;
  if (v.value.find_first_of("\t\n;|&$`<>()'\"\\") != std::string::npos) return false;
  if (v.upper == "MAKEFLAGS" || v.upper == "MFLAGS") return makeFlagsAreKnown(words, scene);
  const std::vector<std::string> options(words.begin(), words.end());
  if (v.upper == "PYTEST_ADDOPTS") return optionsKnownToTable("pytest", options, scene);
  if (v.upper == "TAR_OPTIONS") return optionsKnownToTable("tar", options, scene);
  if (v.upper == "NODE_OPTIONS")
    return std::all_of(words.begin(), words.end(), isHarmlessNodeOption);
  if (v.upper == "GOFLAGS") return std::all_of(words.begin(), words.end(), isHarmlessGoFlag);
  if (oneOf(v.upper, {"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTS",
                      "GRADLE_OPTS", "MAVEN_OPTS", "SBT_OPTS"})) {
    return std::all_of(words.begin(), words.end(), isHarmlessJvmOption);
  }
  if (v.upper == "GIT_CONFIG_COUNT") return v.value == "0";
  if (v.upper == "PYTHONWARNINGS") {
    // `ignore`, `default::DeprecationWarning`: a dotted category is a module
    // Python imports.
    return isPlainText(v.value) && v.value.find('.') == std::string::npos;
  }
  return false;
}

}  // namespace

// Why this inherited variable's value may change what runs; nullopt when it
// cannot.
std::optional<std::string> valueConcern(const InheritedVariable& v, const CommandScene& scene,
                                        const std::string& tmpdir) {
  if (v.value.empty()) return std::nullopt;
  if (v.upper == "LESS") {
    const std::vector<std::string_view> words = spaceSeparatedWords(v.value);
    if (optionsKnownToTable("less", std::vector<std::string>(words.begin(), words.end()), scene)) {
      return std::nullopt;
    }
    return "carries options not known to be harmless";
  }
  if (v.upper == "LESSOPEN" || v.upper == "LESSCLOSE") {
    if (isLessPreprocessor(v.value, scene, tmpdir)) return std::nullopt;
    return "names a program less runs on every file";
  }
  if (carriesOptions(v.upper)) {
    if (optionsAreKnown(v, scene)) return std::nullopt;
    return "carries options or code not known to be harmless";
  }
  if (namesProgram(v.upper)) {
    const bool names_shell = v.upper.ends_with("SHELL");
    if (programIsOutOfReach(v.value, names_shell, scene, tmpdir)) return std::nullopt;
    return "names a program to start that is not known to be out of the model's reach";
  }
  if (namesPlaces(v.upper)) {
    if (placesAreOutOfReach(v.value, scene, tmpdir)) return std::nullopt;
    return "names a place to read code or configuration from that is relative, in a temp "
           "directory or in a workspace";
  }
  // Proxies: the user's route out (see the top of this file).
  if (v.upper.ends_with("_PROXY") || v.upper.ends_with("PROXY")) return std::nullopt;
  if (isPlainText(v.value) && !v.value.starts_with('-')) return std::nullopt;
  if (v.value.starts_with('/') && placesAreOutOfReach(v.value, scene, tmpdir)) {
    return std::nullopt;
  }
  return "has a value that is not a plain word or a place out of the model's reach";
}

}  // namespace toolguard::detail
