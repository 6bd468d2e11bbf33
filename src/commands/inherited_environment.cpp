// The variables a command inherits, judged per program (see
// inherited_environment.hpp).
//
// The person who started the agent set these, not the model: a value is a
// danger when it names something the model can change (a place relative to
// where the command runs, inside a workspace or in a temp directory) or when
// it hands a program options or code that its table of harmless options
// never saw. Three groups of variables reach a program:
//  - everyone's: the dynamic loader's (LD_*), the runtimes' (PYTHON*,
//    NODE_*, PERL5*, RUBY*, LUA_*, the JVM's tool options, CLASSPATH), bash's
//    BASH_ENV, the editor, pager and shell many programs start, where
//    configuration lives (XDG_CONFIG_*), resolver settings and CA bundles;
//  - the program's own, named with the program's name in capitals the way
//    programs name theirs (PIP_INDEX_URL for pip, GIT_DIR for git,
//    MAKEFLAGS for make, npm_config_registry for npm, MAVEN_OPTS for mvn);
//  - PATH and exported bash functions, which decide what a name runs.
// A variable that reaches a program passes when it is ambient (identity,
// terminal, session, locale) or known harmless as an assignment would be,
// or its value is: empty; a plain word or number that is not an option;
// absolute paths out of the model's reach; for a variable that names a
// program, such a program with plain options; for a variable that carries
// options, options known harmless (make's, pytest's and tar's tables, node's
// and the JVM's memory and warning switches).
//
// What is left open, on purpose: a variable that no program on the
// ordinary-work list reads by a name of these groups (a name nobody can tie
// to the program) is taken as the user's; and proxy variables, the user's
// route out, pass (the model cannot set the agent's environment).
#include "inherited_environment.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "inherited_values.hpp"
#include "option_table.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/paths.hpp"
#include "variable_lists.hpp"

extern char** environ;

namespace toolguard::detail {
namespace {

bool reachesEveryProgram(std::string_view upper);

// The environment as last read, with the variables that need judging.
struct EnvironmentSnapshot {
  size_t fingerprint = 0;
  bool taken = false;
  std::vector<InheritedVariable> variables;
  std::vector<std::string> names;  ///< every name, sorted
  std::vector<std::string> path_entries;
  /// The names of the bash functions the variables export (`BASH_FUNC_NAME%%`).
  std::vector<std::string> exported_functions;
  std::string tmpdir;
  // The judgement of each variable's value (index as `variables`), kept
  // while the call's workspace roots and home are `judged_for`: a value is
  // judged once per call, not once per command.
  std::vector<std::string> judged_for;
  std::vector<std::optional<std::optional<std::string>>> judged;
  // The first PATH entry in the model's reach (path_entries.size() when
  // none), found once per call as the values are.
  std::optional<size_t> first_reachable_path_entry;
};

// The environment a scope set on this thread (InheritedEnvironmentScope), and
// a count of the scopes opened and closed, which tells the cache apart.
thread_local const std::vector<std::string>* t_scoped_environment = nullptr;
thread_local size_t t_scope_changes = 0;

// Changes whenever a variable is set, changed or removed (setenv and putenv
// store a new entry pointer) or a scope opens or closes.
size_t environmentFingerprint() {
  size_t hash = reinterpret_cast<size_t>(environ) ^ (t_scope_changes * 0x9e3779b97f4a7c15u);
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    hash = hash * 1000003u ^ reinterpret_cast<size_t>(*entry);
  }
  return hash;
}

// The `NAME=value` entries commands inherit: a scope's; a clean agent's when
// TOOLGUARD_AGENT_ENVIRONMENT=clean says the agent's commands do not run
// with this process's environment (a host that runs them elsewhere, the
// bindings' tests); else this process's.
std::vector<std::string_view> inheritedEntries() {
  static const std::vector<std::string> kClean = cleanInheritedEnvironment();
  std::vector<std::string_view> entries;
  const std::vector<std::string>* chosen = t_scoped_environment;
  if (chosen == nullptr) {
    const char* setting = std::getenv("TOOLGUARD_AGENT_ENVIRONMENT");
    if (setting != nullptr && std::string_view(setting) == "clean") chosen = &kClean;
  }
  if (chosen != nullptr) {
    entries.assign(chosen->begin(), chosen->end());
    return entries;
  }
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    entries.emplace_back(*entry);
  }
  return entries;
}

std::string capitals(std::string_view name) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return upper;
}

// The environment, read again only when it changed (a hook reads it once).
EnvironmentSnapshot& environmentSnapshot() {
  thread_local EnvironmentSnapshot cached;
  const size_t fingerprint = environmentFingerprint();
  if (cached.taken && cached.fingerprint == fingerprint) return cached;
  EnvironmentSnapshot fresh;
  fresh.taken = true;
  fresh.fingerprint = fingerprint;
  for (const std::string_view text : inheritedEntries()) {
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    const std::string_view name = text.substr(0, eq);
    const std::string_view value = text.substr(eq + 1);
    fresh.names.emplace_back(name);
    if (name == "PATH") {
      fresh.path_entries = splitOn(value, ':');
      continue;
    }
    if (name == "TMPDIR") fresh.tmpdir = std::string(value);
    // A relative PYTHONPATH passes as an assignment to a test run; inherited,
    // it reaches every Python program (`pip --version` imports `./typing.py`).
    if (inheritedVariableIsAmbient(name) ||
        (name != "PYTHONPATH" && environmentVariableIsHarmless(name, value, true))) {
      continue;
    }
    std::string upper = capitals(name);
    const bool everyone = reachesEveryProgram(upper);
    fresh.variables.push_back({std::string(name), std::move(upper), std::string(value), everyone});
  }
  std::sort(fresh.names.begin(), fresh.names.end());
  for (const InheritedVariable& v : fresh.variables) {
    if (v.name.starts_with("BASH_FUNC_") && v.name.ends_with("%%")) {
      fresh.exported_functions.push_back(v.name.substr(10, v.name.size() - 12));
    }
  }
  cached = std::move(fresh);
  return cached;
}

// Variables every program may read: the loader's, the runtimes', the
// editors', configuration places, resolvers and CA bundles.
bool reachesEveryProgram(std::string_view upper) {
  return startsWithAny(upper, {"LD_", "PYTHON", "NODE_", "PERL5", "PERLLIB", "RUBY", "LUA_",
                               "GCONV", "XDG_CONFIG", "XDG_DATA", "SSL_CERT", "GIT_CONFIG"}) ||
         endsWithAny(upper, {"ASKPASS", "CA_BUNDLE", "CA_CERTS", "CAINFO"}) ||
         oneOf(upper, {"BASH_ENV", "ENV", "CLASSPATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
                       "JDK_JAVA_OPTIONS", "SHELL", "HOSTALIASES", "RES_OPTIONS", "LOCALDOMAIN",
                       "PROMPT_COMMAND"});
}

// The capitals programs name their variables with: `pip3` reads PIP_*,
// `python3.12` PYTHON*, `pre-commit` PRE_COMMIT_*; and the names that differ
// from the program's (mvn reads MAVEN_OPTS, yarn and pnpm npm_config_*).
std::vector<std::string> variablePrefixesOf(std::string_view program) {
  std::string prefix = capitals(program);
  for (char& c : prefix) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  while (!prefix.empty() &&
         (std::isdigit(static_cast<unsigned char>(prefix.back())) || prefix.back() == '_')) {
    prefix.pop_back();
  }
  std::vector<std::string> prefixes;
  if (prefix.size() >= 2) prefixes.push_back(prefix);
  static const std::pair<std::string_view, std::string_view> kOtherNames[] = {
      {"mvn", "MAVEN"},       {"mvnw", "MAVEN"},    {"gradlew", "GRADLE"}, {"yarn", "NPM_"},
      {"pnpm", "NPM_"},       {"npx", "NPM_"},      {"cargo", "RUST"},     {"go", "CGO_"},
      {"gcloud", "CLOUDSDK"}, {"terraform", "TF_"}, {"kubectl", "KUBE"},   {"py.test", "PYTEST"},
      {"make", "MFLAGS"},     {"gmake", "MAKE"},    {"rg", "RIPGREP"},     {"git", "EDITOR"},
      {"git", "VISUAL"},      {"git", "PAGER"},     {"man", "PAGER"},      {"man", "MANPAGER"},
      {"gh", "GH_"},          {"gh", "BROWSER"},
  };
  for (const auto& [name, other] : kOtherNames) {
    if (program == name) prefixes.emplace_back(other);
  }
  return prefixes;
}

// True when a variable's name is one of a program's, by its prefix: the
// prefix then `_` (PIP_INDEX_URL), the prefix alone, or, for programs that
// glue their names on (MAKEFLAGS, GOFLAGS, GOPATH, PYTHONPATH, RUSTFLAGS),
// the prefix then letters (GITHUB_WORKSPACE is not git's).
bool namedFor(std::string_view upper, std::string_view prefix) {
  if (!upper.starts_with(prefix)) return false;
  if (upper.size() == prefix.size() || upper[prefix.size()] == '_' || prefix.ends_with('_')) {
    return true;
  }
  return oneOf(prefix, {"MAKE", "GO", "CGO", "PYTHON", "RUST", "CARGO", "PIP", "NPM", "MAVEN",
                        "GRADLE", "KUBE", "MFLAGS", "LESS"});
}

// Builtins bash runs itself: no program starts, nothing is inherited.
bool isShellBuiltin(std::string_view name) {
  return oneOf(name,
               {"echo",    "printf", "cd",      "pwd",     "test",  "[",        "true",    "false",
                ":",       "export", "declare", "typeset", "local", "readonly", "set",     "unset",
                "shift",   "read",   "exit",    "return",  "break", "continue", "let",     "alias",
                "unalias", "type",   "umask",   "wait",    "jobs",  "shopt",    "getopts", "trap",
                "times",   "dirs",   "pushd",   "popd"});
}

// A PATH entry where the model may put a program: relative (where the
// command runs), a temp directory, or a workspace directory other than a
// virtual environment's bin (whose programs are judged by name, as
// `.venv/bin/pip` is).
bool pathEntryInModelsReach(const std::string& entry, const CommandScene& scene,
                            const std::string& tmpdir) {
  if (!entry.starts_with('/')) return true;
  if (entry.find("/../") != std::string::npos || entry.ends_with("/..")) return true;
  // `//tmp/bin` and `/./tmp/bin` are `/tmp/bin`.
  const bool plain =
      entry.find("//") == std::string::npos && entry.find("/./") == std::string::npos;
  const std::string normal = plain ? std::string() : normalizePath(entry, "/", scene.home);
  const std::string& place = plain ? entry : normal;
  if (!inModelsReach(place, scene, tmpdir)) return false;
  std::string_view dir(place);
  while (dir.size() > 1 && dir.ends_with('/')) dir.remove_suffix(1);
  const bool temp = std::any_of(std::begin(kTempPlaces), std::end(kTempPlaces),
                                [&](std::string_view t) { return isWithin(dir, t); }) ||
                    (!tmpdir.empty() && isWithin(dir, tmpdir));
  return temp || !dir.ends_with("venv/bin");
}

// The index of the first PATH entry in the model's reach; the number of
// entries when none is.
size_t firstReachablePathEntry(const EnvironmentSnapshot& env, const CommandScene& scene) {
  const std::vector<std::string>& entries = env.path_entries;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (pathEntryInModelsReach(entries[i], scene, env.tmpdir)) return i;
  }
  return entries.size();
}

// Why the name finds a program the model may have put on PATH: an entry in
// its reach comes before the first entry that has the program. Without such
// an entry (the usual PATH) nothing is looked up.
std::optional<std::string> pathConcern(std::string_view name, EnvironmentSnapshot& env,
                                       const CommandScene& scene) {
  const auto& entries = env.path_entries;
  if (!env.first_reachable_path_entry) {
    env.first_reachable_path_entry = firstReachablePathEntry(env, scene);
  }
  const auto risky = entries.begin() + static_cast<std::ptrdiff_t>(*env.first_reachable_path_entry);
  if (risky == entries.end()) return std::nullopt;
  for (auto entry = entries.begin(); entry != risky; ++entry) {
    const std::string candidate = *entry + "/" + std::string(name);
    if (::access(candidate.c_str(), X_OK) == 0) return std::nullopt;
  }
  return "PATH lists '" + *risky + "', where the model may put a program named " +
         std::string(name) + ", before the system's";
}

}  // namespace

InheritedEnvironmentScope::InheritedEnvironmentScope(std::vector<std::string> variables)
    : variables_(std::move(variables)), previous_(t_scoped_environment) {
  t_scoped_environment = &variables_;
  ++t_scope_changes;
}

InheritedEnvironmentScope::~InheritedEnvironmentScope() {
  t_scoped_environment = previous_;
  ++t_scope_changes;
}

std::vector<std::string> cleanInheritedEnvironment() {
  return {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"};
}

bool inheritedVariableIsAmbient(std::string_view name) {
  if (startsWithAny(name, {"LC_", "XDG_SESSION", "XDG_RUNTIME", "XDG_SEAT", "XDG_VTNR",
                           "XDG_CURRENT", "XDG_MENU", "TERM_", "KONSOLE_", "VTE_", "WT_", "ITERM_",
                           "TMUX", "DESKTOP_", "GNOME_", "KDE_", "GDM"})) {
    return true;
  }
  return oneOf(
      name, {"HOME", "USER", "LOGNAME", "PWD", "OLDPWD", "SHLVL", "HOSTNAME", "HOSTTYPE", "OSTYPE",
             "MACHTYPE", "TERM", "COLORTERM", "LS_COLORS", "LSCOLORS", "GREP_COLOR", "GREP_COLORS",
             "GCC_COLORS", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS",
             "MAIL", "_", "STY", "WINDOWID", "GPG_TTY", "TMPDIR", "LANG", "LANGUAGE", "TZ",
             "MOTD_SHOWN", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
             "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "VIRTUAL_ENV_PROMPT",
             "SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_CLIENT", "SSH_CONNECTION", "SSH_TTY",
             // Module path patterns: which modules skip the proxy or the checksum
             // database, never what runs.
             "GOPRIVATE", "GONOPROXY", "GONOSUMDB",
             // Labels the official python images set; python reads none of them.
             "PYTHON_VERSION", "PYTHON_SHA256", "PYTHON_PIP_VERSION", "PYTHON_SETUPTOOLS_VERSION",
             "PYTHON_GET_PIP_URL", "PYTHON_GET_PIP_SHA256"});
}

bool inheritedVariableIsSet(std::string_view name) {
  const std::vector<std::string>& names = environmentSnapshot().names;
  return std::binary_search(names.begin(), names.end(), name, std::less<>());
}

std::optional<std::string> inheritedVariableConcern(const CommandScene& scene) {
  const SimpleCommand& command = scene.command;
  if (command.words.empty() || command.nameIsDynamic()) return std::nullopt;
  const std::string_view name = command.commandName();
  EnvironmentSnapshot& env = environmentSnapshot();
  // What depends on the call, not the command (the values and PATH's
  // entries), is judged once per call and directory (a value may name a
  // place relative to where the command runs).
  const std::vector<std::string>& roots = scene.view.workspaceRoots();
  const std::string cwd = effectiveCwd(scene).value_or("");
  const bool same_call = env.judged.size() == env.variables.size() &&
                         env.judged_for.size() == roots.size() + 2 &&
                         std::equal(roots.begin(), roots.end(), env.judged_for.begin()) &&
                         env.judged_for[roots.size()] == scene.home && env.judged_for.back() == cwd;
  if (!same_call) {
    env.judged_for = roots;
    env.judged_for.push_back(scene.home);
    env.judged_for.push_back(cwd);
    env.judged.assign(env.variables.size(), std::nullopt);
    env.first_reachable_path_entry.reset();
  }
  // What a name runs: the program and every wrapper around it (`timeout 5
  // ls` runs `timeout` first), each an exported function if one has its
  // name (bash prefers one to a builtin and a program), else a program
  // found on PATH.
  std::vector<std::string> names{std::string(command.words[0].text)};
  for (const ShellWrapper& wrapper : command.wrappers) {
    names.push_back(wrapper.name.substr(0, wrapper.name.find(' ')));
  }
  for (const std::string& run : names) {
    const std::string_view base = std::string_view(run).substr(run.rfind('/') + 1);
    for (const std::string& function : env.exported_functions) {
      if (function == base) {
        return "the agent's environment exports a bash function named " + std::string(base);
      }
    }
    if (run.find('/') == std::string::npos && !isShellBuiltin(run)) {
      if (std::optional<std::string> concern = pathConcern(run, env, scene)) return concern;
    }
  }
  if (isShellBuiltin(name)) return std::nullopt;
  std::vector<std::string> prefixes = variablePrefixesOf(name);
  // `python -m pip` is pip: its variables reach it too.
  const auto args = command.arguments();
  if (name.starts_with("python") && args.size() >= 2 && args[0].text == "-m" && !args[1].dynamic) {
    for (std::string& prefix : variablePrefixesOf(args[1].text))
      prefixes.push_back(std::move(prefix));
  }
  for (size_t i = 0; i < env.variables.size(); ++i) {
    const InheritedVariable& v = env.variables[i];
    bool reaches = v.reaches_every_program;
    for (size_t p = 0; !reaches && p < prefixes.size(); ++p) {
      reaches = namedFor(v.upper, prefixes[p]);
    }
    if (!reaches) continue;
    if (!env.judged[i]) env.judged[i] = valueConcern(v, scene, env.tmpdir);
    if (const std::optional<std::string>& concern = *env.judged[i]) {
      return "the agent's environment sets " + v.name + ", which " + *concern;
    }
  }
  return std::nullopt;
}

}  // namespace toolguard::detail
