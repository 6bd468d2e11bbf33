// Tables of harmless options: builds, tests, package managers, compilers and
// the version queries of runtimes. Each program's options were read from its
// `--help` on Debian 12 where it is installed (GNU Make 4.3, Ninja 1.11.1,
// CMake/CTest 3.25.1, pytest 7.2.1, Python 3.11 (venv, compileall, py_compile,
// json.tool, unittest), Go 1.19 `go help build|test|list|mod`, cargo and rustc
// 1.7x, npm 9, GCC 12 and Clang 14, javac 17, Maven 3.8), otherwise from the
// tools' documentation (pnpm, yarn 1 and 4, bun, uv, poetry, tox 4, nox,
// Gradle 8, meson, sphinx-build, cargo-nextest, vitest, jest, mocha, ava,
// karma, playwright, pre-commit, vite, webpack-cli, rollup, esbuild, tsup,
// parcel, coverage.py, pip 23, pypa/build).
//
// What runs here is the project's own code (its Makefile, CMakeLists.txt,
// meson.build, tests, package.json scripts, build.rs, setup.py, conf.py):
// that is everyday work. What does not pass is anything that names other
// code to run (a plugin, a launcher, a wrapper, a compiler's helper, an init
// script, a configuration outside the workspace), a registry or an index, a
// package to install by name, an install into the system, or a place to
// write that the path rules do not judge.
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "name_lists.hpp"
#include "program_specs.hpp"
#include "shell_facts.hpp"
#include "toolguard/call_view.hpp"
#include "variable_lists.hpp"

namespace toolguard::detail {
namespace {

// ---- helpers of the checks (prefixed: this file is unity-built with others)

// A path in the workspace. A glob (no expansion of a variable or command)
// finds only names under its literal directory, which must be inside.
bool buildToolInside(const ShellWord& word, const CommandScene& scene) {
  const std::string& t = word.text;
  if (t.empty() || t == "-") return false;
  if (!word.dynamic) return scene.view.insideWorkspace(resolvedPath(word, scene));
  const size_t glob = t.find_first_of("*?[");
  if (word.source.find_first_of("$`") != std::string::npos || glob == std::string::npos ||
      t.find("..") != std::string::npos) {
    return false;
  }
  const size_t slash = t.rfind('/', glob);
  const std::string dir = slash == std::string::npos ? "." : t.substr(0, slash == 0 ? 1 : slash);
  return scene.view.insideWorkspace(resolvedPath(ShellWord{dir, false, dir}, scene));
}

bool buildToolTextInside(std::string_view text, const CommandScene& scene) {
  return buildToolInside(ShellWord{std::string(text), false, std::string(text)}, scene);
}

bool buildToolOperandsInside(const TableParse& parse, const CommandScene& scene) {
  return std::all_of(parse.operands.begin(), parse.operands.end(),
                     [&](const ShellWord& w) { return buildToolInside(w, scene); });
}

bool buildToolDigits(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
  });
}

// Letters, digits and `_.+,-`: a value that is no path, list, expansion or command.
bool buildToolPlainValue(std::string_view t) {
  return std::all_of(t.begin(), t.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_.+,-").find(c) != std::string_view::npos;
  });
}

bool buildToolIdentifier(std::string_view t) {
  return !t.empty() && !std::isdigit(static_cast<unsigned char>(t[0])) &&
         std::all_of(t.begin(), t.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

std::vector<std::string_view> buildToolSplit(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find(separator, at);
    if (end == std::string_view::npos) end = text.size();
    if (end > at) out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// A target that installs into the system or publishes: `make install` writes
// to the prefix (/usr/local unless told), `deploy` and `publish` upload.
bool buildToolInstallsOrPublishes(std::string_view target) {
  return target == "install" || target == "uninstall" || target.starts_with("install-") ||
         target.starts_with("install_") ||
         oneOf(target, {"deploy", "publish", "upload", "dist-upload", "release-upload"});
}

// Every operand that is an option word (`--nocapture`, `--test-threads=2`)
// is one of `allowed`: the words after `--` a tool passes on.
bool buildToolDashOperandsIn(const TableParse& parse,
                             std::initializer_list<std::string_view> allowed) {
  for (const ShellWord& w : parse.operands) {
    if (w.dynamic) return false;
    if (!w.text.starts_with('-')) continue;
    if (!oneOf(std::string_view(w.text).substr(0, w.text.find('=')), allowed)) return false;
  }
  return true;
}

// A runtime's table holds only options that print and exit; without one it
// would read a program from its input (node, ruby, perl, php, deno).
bool buildToolPrintsAndExits(const TableParse& parse, const CommandScene&) {
  return !parse.options.empty();
}

// The name of a build option (cmake -D, meson -D) says it names no program,
// file, directory, flags or code: Foo_DIR and Foo_ROOT load FooConfig.cmake
// from there, PYTHON_EXECUTABLE is run, c_args and CMAKE_CXX_FLAGS may hold
// -fplugin=. Compared by the parts of the name between `_`.
bool buildOptionNameIsHarmless(std::string_view name) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (std::string_view part : buildToolSplit(upper, '_')) {
    if (oneOf(part, {"LAUNCHER",  "COMPILER",  "TOOLCHAIN",   "MODULE",   "MODULES",    "PATH",
                     "PATHS",     "INCLUDE",   "COMMAND",     "COMMANDS", "EXECUTABLE", "EXE",
                     "PROGRAM",   "PROGRAMS",  "SCRIPT",      "SCRIPTS",  "SHELL",      "DIR",
                     "DIRS",      "DIRECTORY", "ROOT",        "FILE",     "FILES",      "BIN",
                     "BINARY",    "TOOL",      "TOOLS",       "CMD",      "PREFIX",     "LIBRARY",
                     "LIBRARIES", "LIB",       "LIBS",        "FLAGS",    "OPTIONS",    "ARGS",
                     "ARGUMENTS", "HOOK",      "HOOKS",       "PLUGIN",   "PLUGINS",    "RUNNER",
                     "EMULATOR",  "WRAPPER",   "INTERPRETER", "LINKER",   "CONFIG",     "HOME",
                     "SYSROOT",   "URL",       "REPOSITORY",  "REPO",     "GIT",        "LOCATION",
                     "CC",        "CXX",       "LD",          "AR",       "CCACHE",     "TIDY",
                     "CPPCHECK",  "IWYU",      "ENV",         "NATIVE",   "CROSS"})) {
      return false;
    }
  }
  return true;
}

// The value of a build option: a plain word that is not an interpreter or
// a network program (a project may run the program an option names).
bool buildOptionValueIsHarmless(std::string_view value) {
  return buildToolPlainValue(value) && !isInterpreter(value) && !isNetworkSender(value);
}

// ---- make, ninja, cmake, meson -------------------------------------------

// make: a `VAR=value` operand overrides the makefile's variable (CC, SHELL,
// `X!=cmd` runs cmd, `$(shell ...)` in a value runs when it is expanded):
// only V, VERBOSE, JOBS and the variables harmless in the environment
// (CC naming a compiler, CFLAGS of plain flags: variable_lists.cpp), with no
// `$`. A makefile read from the input (`-f -`) runs what it says.
bool makeCallIsHarmless(const TableParse& parse, const CommandScene&) {
  for (const ShellWord& f : parse.valuesOf("-f")) {
    if (f.text == "-") return false;
  }
  for (const ShellWord& w : parse.operands) {
    if (w.dynamic) return false;
    const size_t eq = w.text.find('=');
    if (eq == std::string::npos) {
      if (buildToolInstallsOrPublishes(w.text)) return false;
      continue;
    }
    const std::string_view name = std::string_view(w.text).substr(0, eq);
    const std::string_view value = std::string_view(w.text).substr(eq + 1);
    if (value.find('$') != std::string_view::npos) return false;
    const bool own = oneOf(name, {"V", "VERBOSE", "JOBS"}) && buildToolPlainValue(value);
    if (!own && !environmentVariableIsHarmless(name, value, true)) return false;
  }
  return true;
}

bool ninjaCallIsHarmless(const TableParse& parse, const CommandScene&) {
  for (const ShellWord& f : parse.valuesOf("-f")) {
    if (f.text == "-") return false;
  }
  return std::none_of(parse.operands.begin(), parse.operands.end(), [](const ShellWord& w) {
    return w.dynamic || buildToolInstallsOrPublishes(w.text);
  });
}

bool cmakeKnownCompiler(std::string_view value) {
  for (std::string_view name : {"clang++", "clang", "g++", "gcc", "c++", "cc"}) {
    if (value == name) return true;
    if (value.starts_with(name) && value.size() > name.size() + 1 && value[name.size()] == '-' &&
        buildToolDigits(value.substr(name.size() + 1))) {
      return true;  // clang-17, g++-12
    }
  }
  return false;
}

// cmake -D NAME[:TYPE]=VALUE. CMake's own variables pass only from a closed
// list (CMAKE_<LANG>_COMPILER only naming a usual compiler): the others
// include CMAKE_*_COMPILER_LAUNCHER, CMAKE_TOOLCHAIN_FILE,
// CMAKE_PROJECT_INCLUDE, CMAKE_*_CLANG_TIDY, CMAKE_MODULE_PATH,
// CMAKE_PREFIX_PATH and CMAKE_*_FLAGS, which run or load other code. A
// project's own option passes when its name and value are harmless
// (buildOptionNameIsHarmless, buildOptionValueIsHarmless).
bool cmakeDefineIsHarmless(std::string_view definition) {
  const size_t eq = definition.find('=');
  if (eq == std::string_view::npos) return false;
  std::string_view name = definition.substr(0, eq);
  const std::string_view value = definition.substr(eq + 1);
  if (const size_t colon = name.find(':'); colon != std::string_view::npos) {
    if (!oneOf(name.substr(colon + 1), {"BOOL", "STRING"})) return false;
    name = name.substr(0, colon);
  }
  if (!buildToolIdentifier(name) || !buildOptionValueIsHarmless(value)) return false;
  if (asciiLower(std::string(name)).starts_with("cmake_")) {
    if (oneOf(name, {"CMAKE_C_COMPILER", "CMAKE_CXX_COMPILER"})) return cmakeKnownCompiler(value);
    return oneOf(name, {"CMAKE_BUILD_TYPE",
                        "CMAKE_EXPORT_COMPILE_COMMANDS",
                        "CMAKE_C_STANDARD",
                        "CMAKE_CXX_STANDARD",
                        "CMAKE_CUDA_STANDARD",
                        "CMAKE_C_STANDARD_REQUIRED",
                        "CMAKE_CXX_STANDARD_REQUIRED",
                        "CMAKE_C_EXTENSIONS",
                        "CMAKE_CXX_EXTENSIONS",
                        "CMAKE_POSITION_INDEPENDENT_CODE",
                        "CMAKE_VERBOSE_MAKEFILE",
                        "CMAKE_COLOR_DIAGNOSTICS",
                        "CMAKE_COLOR_MAKEFILE",
                        "CMAKE_INTERPROCEDURAL_OPTIMIZATION",
                        "CMAKE_UNITY_BUILD",
                        "CMAKE_UNITY_BUILD_BATCH_SIZE",
                        "CMAKE_COMPILE_WARNING_AS_ERROR",
                        "CMAKE_MESSAGE_LOG_LEVEL",
                        "CMAKE_SKIP_RPATH",
                        "CMAKE_RULE_MESSAGES",
                        "CMAKE_SUPPRESS_DEVELOPER_WARNINGS",
                        "CMAKE_WARN_DEPRECATED",
                        "CMAKE_FIND_DEBUG_MODE",
                        "CMAKE_OSX_DEPLOYMENT_TARGET",
                        "CMAKE_OSX_ARCHITECTURES"});
  }
  return buildOptionNameIsHarmless(name);
}

// An argument after `cmake --build DIR --` goes to make or ninja: job
// counts, verbosity and targets; no -C, -f, -t, or VAR=value.
bool cmakeNativeArgIsHarmless(const ShellWord& w) {
  if (w.dynamic) return false;
  const std::string_view t = w.text;
  if (buildToolDigits(t)) return true;
  if (t.starts_with('-')) {
    for (std::string_view counted : {"-j", "-k", "-l"}) {
      if (t.starts_with(counted) && (t.size() == 2 || buildToolDigits(t.substr(2)))) return true;
    }
    return oneOf(t, {"-v", "-s", "-w", "-n", "-i", "--no-print-directory", "--quiet", "--verbose"});
  }
  return t.find('=') == std::string_view::npos && !buildToolInstallsOrPublishes(t);
}

// cmake: configure (`cmake -S . -B build`, `cmake ..`) or build (`cmake
// --build DIR [--target T] [-- ARGS]`). A source or build directory outside
// the workspace runs other code (an old build tree's cache names its source).
bool cmakeCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  for (const ShellWord& d : parse.valuesOf("-D")) {
    if (d.dynamic || !cmakeDefineIsHarmless(d.text)) return false;
  }
  for (const ShellWord& t : parse.valuesOf("--target")) {
    if (t.dynamic || buildToolInstallsOrPublishes(t.text)) return false;
  }
  if (parse.has("--build")) {
    return std::all_of(parse.operands.begin(), parse.operands.end(), cmakeNativeArgIsHarmless);
  }
  return buildToolOperandsInside(parse, scene);
}

// cmake -E make_directory DIR...: directories in the workspace.
bool cmakeMakeDirectoryIsHarmless(const TableParse& parse, const CommandScene& scene) {
  return !parse.operands.empty() && buildToolOperandsInside(parse, scene);
}

// meson setup|configure: the build directory (and source directory) in the
// workspace, -D options as cmake's (meson's own c_args, cpp_link_args,
// pkg_config_path, cmake_prefix_path, prefix, ... do not pass).
bool mesonSetupIsHarmless(const TableParse& parse, const CommandScene& scene) {
  for (const ShellWord& d : parse.valuesOf("-D")) {
    if (d.dynamic) return false;
    const std::string_view text = d.text;
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos || !buildToolIdentifier(text.substr(0, eq)) ||
        !buildOptionNameIsHarmless(text.substr(0, eq)) ||
        !buildOptionValueIsHarmless(text.substr(eq + 1))) {
      return false;
    }
  }
  return buildToolOperandsInside(parse, scene);
}

bool mesonCompileIsHarmless(const TableParse& parse, const CommandScene&) {
  return std::none_of(parse.operands.begin(), parse.operands.end(), [](const ShellWord& w) {
    return w.dynamic || buildToolInstallsOrPublishes(w.text);
  });
}

// sphinx-build SOURCEDIR OUTPUTDIR: conf.py runs; the output is written.
bool sphinxBuildIsHarmless(const TableParse& parse, const CommandScene& scene) {
  return buildToolOperandsInside(parse, scene);
}

// ---- Python ----------------------------------------------------------------

// pytest: test files are imported (their code runs): inside the workspace,
// node ids (`tests/test_x.py::test_y`) too. `-p no:NAME` only turns a plugin
// off. --basetemp is deleted first: never the workspace or a parent of it.
// --cov-report TYPE:PATH writes PATH.
bool pytestCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  for (const ShellWord& p : parse.valuesOf("-p")) {
    if (p.dynamic || !p.text.starts_with("no:")) return false;
  }
  for (const ShellWord& report : parse.valuesOf("--cov-report")) {
    if (report.dynamic) return false;
    const std::string_view text = report.text;
    const size_t colon = text.find(':');
    const std::string_view type = text.substr(0, colon);
    const std::string_view where =
        colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
    if (type == "term" || type == "term-missing") {
      if (!where.empty() && where != "skip-covered") return false;
    } else if (oneOf(type,
                     {"html", "xml", "json", "lcov", "annotate", "markdown", "markdown-append"})) {
      if (!where.empty() && !buildToolTextInside(where, scene)) return false;
    } else {
      return false;
    }
  }
  for (const ShellWord& base : parse.valuesOf("--basetemp")) {
    const std::string path = absolutePath(base, scene);
    for (const std::string& root : scene.view.workspaceRoots()) {
      if (path == "/" || root == path || root.starts_with(path + "/")) return false;
    }
  }
  for (const ShellWord& w : parse.operands) {
    const size_t node = w.text.find("::");
    if (node == std::string::npos) {
      if (!buildToolInside(w, scene)) return false;
    } else if (w.dynamic || !buildToolTextInside(std::string_view(w.text).substr(0, node), scene)) {
      return false;
    }
  }
  return true;
}

// python -m unittest [discover]: the modules and start directories are the project's.
bool unittestCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  for (size_t i = 0; i < parse.operands.size(); ++i) {
    const ShellWord& w = parse.operands[i];
    if (i == 0 && !w.dynamic && w.text == "discover") continue;
    if (!buildToolInside(w, scene)) return false;
  }
  return true;
}

// Modules that write in the files or directories given (a venv, the
// __pycache__ beside each file): given, and inside the workspace.
bool pythonWritesOperandsInside(const TableParse& parse, const CommandScene& scene) {
  return !parse.operands.empty() && buildToolOperandsInside(parse, scene);
}

// json.tool INFILE [OUTFILE]: the second operand is written; not taken here.
bool jsonToolCallIsHarmless(const TableParse& parse, const CommandScene&) {
  return parse.operands.size() <= 1;
}

// coverage run without -m runs a script file: like `python3 script.py`, it asks.
bool coverageRunNeedsModule(const TableParse&, const CommandScene&) {
  return false;
}

// python -m build [SRCDIR]: the source tree's build backend runs.
bool pythonBuildCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  return buildToolOperandsInside(parse, scene);
}

// pip install: only the project itself (`.`, `./sub`, `.[dev]`, `-e .`) and
// requirements files of the workspace; a package name, URL or VCS ref asks.
bool pipProjectPath(const ShellWord& w, const CommandScene& scene) {
  if (w.dynamic) return false;
  std::string_view t = w.text;
  if (t.ends_with(']')) {
    const size_t open = t.find('[');
    if (open == std::string_view::npos ||
        !buildToolPlainValue(t.substr(open + 1, t.size() - open - 2))) {
      return false;
    }
    t = t.substr(0, open);
  }
  if (!(t == "." || t == ".." || t.starts_with("./") || t.starts_with("../") ||
        t.starts_with('/'))) {
    return false;
  }
  return buildToolTextInside(t, scene);
}

bool pipInstallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  for (const char* file : {"-r", "-c"}) {
    for (const ShellWord& f : parse.valuesOf(file)) {
      if (f.text == "-") return false;  // requirements read from the input
    }
  }
  for (const ShellWord& e : parse.valuesOf("-e")) {
    if (!pipProjectPath(e, scene)) return false;
  }
  return std::all_of(parse.operands.begin(), parse.operands.end(),
                     [&](const ShellWord& w) { return pipProjectPath(w, scene); });
}

// python|python3 without -m: only the version or help (else it reads a
// program from its input or starts a REPL).
bool pythonPrintsAndExits(const TableParse& parse, const CommandScene&) {
  return parse.has("-V") || parse.has("-h") || parse.has("--help-env") ||
         parse.has("--help-xoptions") || parse.has("--help-all");
}

// tox [SUBCOMMAND]: words after `--` are {posargs}, often run as a command.
bool toxCallIsHarmless(const TableParse& parse, const CommandScene&) {
  bool subcommand = false;
  for (const ShellWord& w : parse.operands) {
    if (w.dynamic) return false;
    if (!subcommand && oneOf(w.text, {"run", "r", "run-parallel", "p", "list", "l", "config", "c",
                                      "depends", "de"})) {
      subcommand = true;
      continue;
    }
    // `tox -p auto`: -p takes its value only glued here.
    if (parse.has("-p") && (oneOf(w.text, {"auto", "all"}) || buildToolDigits(w.text))) continue;
    return false;
  }
  return true;
}

// ---- JavaScript ------------------------------------------------------------

// `npm run env -- CMD` runs CMD (npm's built-in env script).
bool scriptRunIsHarmless(const TableParse& parse, const CommandScene&) {
  return parse.operands.empty() || (!parse.operands[0].dynamic && parse.operands[0].text != "env");
}

// bun run NAME: a script, not a file (`bun run x.ts` runs any file).
bool bunRunIsHarmless(const TableParse& parse, const CommandScene& scene) {
  if (parse.operands.empty()) return true;
  const ShellWord& name = parse.operands[0];
  if (name.dynamic || name.text.find('/') != std::string::npos) return false;
  for (std::string_view ext :
       {".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx", ".mts", ".cts", ".sh"}) {
    if (name.text.ends_with(ext)) return false;
  }
  return scriptRunIsHarmless(parse, scene);
}

// npm audit: a report; `audit fix` installs.
bool auditIsReadOnly(const TableParse& parse, const CommandScene&) {
  return parse.operands.empty() ||
         (parse.operands.size() == 1 && parse.operands[0].text == "signatures");
}

// The script names the package-manager tables take as subcommands (below:
// TG_BUILD_SCRIPT_NAMES).
bool buildToolScriptName(std::string_view word) {
  return oneOf(word, {"test",         "test:unit",   "test:e2e",   "test:ci",   "test:coverage",
                      "test:watch",   "build",       "build:prod", "build:dev", "lint",
                      "lint:fix",     "lint:eslint", "lint:css",   "format",    "format:check",
                      "format:write", "typecheck",   "type-check", "check",     "dev",
                      "start",        "preview"});
}

// yarn workspace NAME COMMAND: one of the script names, or `run SCRIPT`.
bool yarnWorkspaceIsHarmless(const TableParse& parse, const CommandScene&) {
  const auto& ops = parse.operands;
  if (ops.size() < 2 ||
      std::any_of(ops.begin(), ops.end(), [](const ShellWord& w) { return w.dynamic; })) {
    return false;
  }
  if (buildToolScriptName(ops[1].text)) return true;
  return ops[1].text == "run" && ops.size() >= 3 && ops[2].text != "env";
}

// yarn workspaces list|info, run SCRIPT, foreach [options] run SCRIPT.
bool yarnWorkspacesIsHarmless(const TableParse& parse, const CommandScene&) {
  const auto& ops = parse.operands;
  if (ops.empty() ||
      std::any_of(ops.begin(), ops.end(), [](const ShellWord& w) { return w.dynamic; })) {
    return false;
  }
  if (oneOf(ops[0].text, {"list", "info"})) return ops.size() == 1;
  const size_t at = ops[0].text == "foreach" ? 1 : 0;
  if (at >= ops.size()) return false;
  if (buildToolScriptName(ops[at].text)) return true;
  return ops[at].text == "run" && at + 1 < ops.size() && ops[at + 1].text != "env";
}

// jest -c takes a path or a JSON text of configuration (setupFiles run code).
bool jestCallIsHarmless(const TableParse& parse, const CommandScene&) {
  for (const ShellWord& c : parse.valuesOf("-c")) {
    if (c.text.starts_with('{') || c.text.starts_with('[')) return false;
  }
  return true;
}

// vitest: `vitest init` installs packages.
bool vitestCallIsHarmless(const TableParse& parse, const CommandScene&) {
  return parse.operands.empty() || parse.operands[0].text != "init";
}

// mocha -r MODULE: a package of the project's node_modules or a file
// inside; the spec files are the project's.
bool mochaCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  for (const ShellWord& r : parse.valuesOf("-r")) {
    if (r.dynamic) return false;
    if ((r.text.starts_with('.') || r.text.starts_with('/')) && !buildToolInside(r, scene)) {
      return false;
    }
  }
  return buildToolOperandsInside(parse, scene);
}

// ava debug starts an inspector any local process may drive.
bool avaCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  if (!parse.operands.empty() && parse.operands[0].text == "debug") return false;
  return buildToolOperandsInside(parse, scene);
}

// Bundlers: a first word that is one of their commands, then entry files or
// a root directory written as a path inside the workspace (configs are code).
bool bundlerOperandsAreHarmless(const TableParse& parse, const CommandScene& scene,
                                std::initializer_list<std::string_view> commands) {
  for (size_t i = 0; i < parse.operands.size(); ++i) {
    const ShellWord& w = parse.operands[i];
    if (i == 0 && !w.dynamic && oneOf(w.text, commands)) continue;
    if (w.text.find_first_of("/.") == std::string::npos || !buildToolInside(w, scene)) {
      return false;
    }
  }
  return true;
}

bool viteCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  return bundlerOperandsAreHarmless(parse, scene, {"build", "preview", "serve", "dev", "optimize"});
}

bool webpackCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  return bundlerOperandsAreHarmless(parse, scene,
                                    {"build", "bundle", "b", "serve", "server", "s", "watch", "w",
                                     "info", "i", "configtest", "t"});
}

bool parcelCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  return bundlerOperandsAreHarmless(parse, scene, {"build", "serve", "watch"});
}

// rollup, karma: the operands are input files or the configuration (code).
bool buildToolCodeOperandsInside(const TableParse& parse, const CommandScene& scene) {
  return buildToolOperandsInside(parse, scene);
}

// ---- Go, Rust, Java --------------------------------------------------------

// -ldflags / -gcflags: flags for the linker or compiler, optionally after
// `pattern=`. The linker's -extld and -extldflags run other programs, so
// only these pass: -s -w -X name=value -buildid= (link), -N -l -m -S -e -B
// -C (compile).
bool goToolFlagsAreHarmless(std::string_view value, bool linker) {
  if (value.find_first_of("'\"\\$`") != std::string_view::npos) return false;
  if (!value.starts_with('-')) {
    const size_t eq = value.find('=');
    if (eq != std::string_view::npos && value.substr(0, eq).find(' ') == std::string_view::npos) {
      value = value.substr(eq + 1);  // `all=-N -l`
    }
  }
  const std::vector<std::string_view> words = buildToolSplit(value, ' ');
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    if (linker) {
      if (oneOf(w, {"-s", "-w"}) || w.starts_with("-X=") || w.starts_with("-buildid=")) continue;
      if (w == "-X" && i + 1 < words.size() && !words[i + 1].starts_with('-')) {
        ++i;
        continue;
      }
    } else {
      if (oneOf(w, {"-N", "-l", "-m", "-S", "-e", "-B", "-C"})) continue;
      if (w.starts_with("-m=") && buildToolDigits(w.substr(3))) continue;
    }
    return false;
  }
  return true;
}

bool goCallIsHarmless(const TableParse& parse, const CommandScene&) {
  if (parse.has("-overlay")) return false;
  for (const ShellWord& v : parse.valuesOf("-ldflags")) {
    if (v.dynamic || !goToolFlagsAreHarmless(v.text, true)) return false;
  }
  for (const ShellWord& v : parse.valuesOf("-gcflags")) {
    if (v.dynamic || !goToolFlagsAreHarmless(v.text, false)) return false;
  }
  return true;
}

// go fmt rewrites the packages it is given.
bool goFmtIsHarmless(const TableParse& parse, const CommandScene& scene) {
  return buildToolOperandsInside(parse, scene);
}

// go tool cover -html=PROFILE opens a browser unless -o names the output.
bool goCoverIsHarmless(const TableParse& parse, const CommandScene&) {
  return parse.valuesOf("-html").empty() || !parse.valuesOf("-o").empty();
}

// --target FILE.json is a target specification, which names the linker to run.
bool rustTargetIsHarmless(const TableParse& parse) {
  for (const ShellWord& t : parse.valuesOf("--target")) {
    if (t.dynamic || t.text.ends_with(".json")) return false;
  }
  return true;
}

bool cargoBuildIsHarmless(const TableParse& parse, const CommandScene&) {
  return rustTargetIsHarmless(parse);
}

// cargo test|bench|nextest ... -- ARGS: ARGS go to the test harness
// (libtest, criterion): its switches, never --logfile.
bool cargoTestIsHarmless(const TableParse& parse, const CommandScene&) {
  return rustTargetIsHarmless(parse) &&
         buildToolDashOperandsIn(
             parse,
             {"--nocapture", "--no-capture", "--show-output", "--test-threads", "--skip", "--exact",
              "--ignored", "--include-ignored", "-q", "--quiet", "--list", "--color", "--format",
              "--test", "--bench", "--save-baseline", "--baseline", "--noplot", "--verbose"});
}

// cargo clippy ... -- ARGS: lint levels for clippy-driver (no -C, -Z, --cfg).
bool cargoClippyIsHarmless(const TableParse& parse, const CommandScene&) {
  if (!rustTargetIsHarmless(parse)) return false;
  for (const ShellWord& w : parse.operands) {
    if (w.dynamic) return false;
    const std::string_view t = w.text;
    if (!t.starts_with('-')) continue;
    if (oneOf(t, {"-D", "-W", "-A", "-F", "--deny", "--warn", "--allow", "--forbid"})) continue;
    if (t.size() > 2 && oneOf(t.substr(0, 2), {"-D", "-W", "-A", "-F"}) && t[2] != '-') continue;
    return false;
  }
  return true;
}

// cargo fmt ... -- ARGS: rustfmt's own switches.
bool cargoFmtIsHarmless(const TableParse& parse, const CommandScene&) {
  return buildToolDashOperandsIn(
      parse, {"--check", "--edition", "--emit", "-l", "--files-with-diff", "-v", "--verbose", "-q",
              "--quiet", "--color"});
}

// rustc -C KEY=VALUE: codegen settings; linker, link-arg(s), llvm-args,
// passes and profile paths run or load other code. -L [KIND=]DIR: crates
// found there (proc macros run while compiling) must be the workspace's.
bool rustcCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  if (!rustTargetIsHarmless(parse)) return false;
  for (const ShellWord& c : parse.valuesOf("-C")) {
    if (c.dynamic) return false;
    const std::string_view text = c.text;
    const std::string_view key = text.substr(0, text.find('='));
    if (!oneOf(key, {"opt-level",
                     "debuginfo",
                     "panic",
                     "lto",
                     "codegen-units",
                     "target-cpu",
                     "target-feature",
                     "relocation-model",
                     "overflow-checks",
                     "debug-assertions",
                     "strip",
                     "force-frame-pointers",
                     "embed-bitcode",
                     "prefer-dynamic",
                     "instrument-coverage",
                     "code-model",
                     "split-debuginfo",
                     "link-dead-code",
                     "no-redzone",
                     "rpath",
                     "metadata",
                     "extra-filename",
                     "incremental"})) {
      return false;
    }
    if (key == "incremental" &&  // writes its cache there
        (key.size() >= text.size() || !buildToolTextInside(text.substr(key.size() + 1), scene))) {
      return false;
    }
  }
  for (const ShellWord& l : parse.valuesOf("-L")) {
    if (l.dynamic) return false;
    std::string_view dir = l.text;
    const size_t eq = dir.find('=');
    if (eq != std::string_view::npos &&
        oneOf(dir.substr(0, eq), {"dependency", "crate", "native", "framework", "all"})) {
      dir = dir.substr(eq + 1);
    }
    if (!buildToolTextInside(dir, scene)) return false;
  }
  return true;
}

// javac: annotation processors found on the class path run while
// compiling; class and module paths of the workspace (or -proc:none) pass.
bool javacCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  for (const ShellWord& proc : parse.valuesOf("-proc:*")) {
    if (proc.text == "none") return true;
  }
  std::vector<ShellWord> paths = parse.valuesOf("-cp");
  for (const ShellWord& p : parse.valuesOf("--module-path")) paths.push_back(p);
  for (const ShellWord& path : paths) {
    if (path.source.find_first_of("$`") != std::string::npos) return false;  // `lib/*` passes
    for (std::string_view entry : buildToolSplit(path.text, ':')) {
      if (entry.ends_with("/*")) entry.remove_suffix(2);
      if (entry == "*") entry = ".";
      if (!buildToolTextInside(entry, scene)) return false;
    }
  }
  return true;
}

// Gradle tasks: a closed list and tasks named after what they build or
// check (a name that is no task is matched as an abbreviation of one: `pub`
// runs `publish`, so a name must be one of these, not start one); never
// publishing, uploading, deploying, installing, signing or the wrapper.
bool gradleTaskIsHarmless(std::string_view task) {
  if (const size_t colon = task.rfind(':'); colon != std::string_view::npos) {
    task = task.substr(colon + 1);
  }
  if (task.empty()) return false;
  const std::string lower = asciiLower(std::string(task));
  for (std::string_view bad : {"publish", "upload", "deploy", "install", "wrapper", "sign"}) {
    if (lower.find(bad) != std::string::npos && task != "installDist") return false;
  }
  if (oneOf(task, {"build",
                   "test",
                   "check",
                   "clean",
                   "assemble",
                   "jar",
                   "javadoc",
                   "classes",
                   "testClasses",
                   "dependencies",
                   "dependencyInsight",
                   "tasks",
                   "projects",
                   "properties",
                   "help",
                   "buildEnvironment",
                   "outgoingVariants",
                   "run",
                   "bootRun",
                   "bootJar",
                   "installDist",
                   "distZip",
                   "distTar",
                   "shadowJar",
                   "lint",
                   "detekt",
                   "integrationTest",
                   "processResources",
                   "processTestResources"})) {
    return true;
  }
  for (std::string_view prefix :
       {"assemble", "compile", "test", "lint", "check", "build", "jacoco", "spotless", "ktlint",
        "detekt", "kover", "checkstyle", "pmd", "spotbugs"}) {
    if (task.starts_with(prefix)) return true;
  }
  return false;
}

bool gradleCallIsHarmless(const TableParse& parse, const CommandScene&) {
  return std::all_of(parse.operands.begin(), parse.operands.end(),
                     [](const ShellWord& w) { return !w.dynamic && gradleTaskIsHarmless(w.text); });
}

// Maven: lifecycle phases and the goals of a closed list of plugins (a goal
// `group:artifact:version:goal` downloads and runs any plugin; exec:,
// antrun:, deploy, release: and wrapper: run or publish).
bool mavenGoalIsHarmless(std::string_view goal) {
  if (oneOf(goal, {"clean",
                   "validate",
                   "initialize",
                   "generate-sources",
                   "process-sources",
                   "generate-resources",
                   "process-resources",
                   "compile",
                   "process-classes",
                   "generate-test-sources",
                   "process-test-sources",
                   "generate-test-resources",
                   "process-test-resources",
                   "test-compile",
                   "process-test-classes",
                   "test",
                   "prepare-package",
                   "package",
                   "pre-integration-test",
                   "integration-test",
                   "post-integration-test",
                   "verify",
                   "install",
                   "site"})) {
    return true;
  }
  const size_t colon = goal.find(':');
  if (colon == std::string_view::npos || goal.find(':', colon + 1) != std::string_view::npos) {
    return false;
  }
  const std::string_view plugin = goal.substr(0, colon);
  const std::string_view name = goal.substr(colon + 1);
  if (plugin == "dependency") {
    return oneOf(name, {"tree", "list", "resolve", "resolve-plugins", "analyze", "analyze-only",
                        "build-classpath", "go-offline", "sources", "copy-dependencies"});
  }
  if (plugin == "help") {
    return oneOf(name,
                 {"effective-pom", "describe", "active-profiles", "all-profiles", "evaluate"});
  }
  if (plugin == "versions") return name.starts_with("display-");
  if (plugin == "spotless") return oneOf(name, {"apply", "check"});
  if (plugin == "checkstyle") return oneOf(name, {"check", "checkstyle"});
  if (plugin == "jacoco") return oneOf(name, {"report", "check", "prepare-agent"});
  if (plugin == "surefire") return name == "test";
  if (plugin == "failsafe") return oneOf(name, {"integration-test", "verify"});
  if (plugin == "compiler") return oneOf(name, {"compile", "testCompile"});
  if (plugin == "javadoc") return oneOf(name, {"javadoc", "jar", "test-javadoc"});
  if (plugin == "pmd") return oneOf(name, {"check", "pmd", "cpd", "cpd-check"});
  if (plugin == "spotbugs") return oneOf(name, {"check", "spotbugs"});
  if (plugin == "enforcer") return name == "enforce";
  if (plugin == "spring-boot") return name == "run";
  return false;
}

// mvn -D NAME[=VALUE]: a closed list of switches of the standard plugins.
// Others name programs or code (-Dexec.*, -Djvm=, -DargLine=-javaagent:...,
// -Dmaven.compiler.executable=, -Dmaven.ext.class.path=, -Dmaven.repo.local=).
bool mavenDefineIsHarmless(std::string_view definition) {
  const size_t eq = definition.find('=');
  const std::string_view name = definition.substr(0, eq);
  const std::string_view value =
      eq == std::string_view::npos ? std::string_view() : definition.substr(eq + 1);
  if (!oneOf(name, {"skipTests",
                    "maven.test.skip",
                    "skipITs",
                    "test",
                    "it.test",
                    "failIfNoTests",
                    "surefire.failIfNoSpecifiedTests",
                    "failsafe.failIfNoSpecifiedTests",
                    "maven.test.failure.ignore",
                    "checkstyle.skip",
                    "spotless.check.skip",
                    "spotless.apply.skip",
                    "jacoco.skip",
                    "maven.javadoc.skip",
                    "gpg.skip",
                    "enforcer.skip",
                    "pmd.skip",
                    "cpd.skip",
                    "spotbugs.skip",
                    "groups",
                    "excludedGroups",
                    "verbose",
                    "includes",
                    "excludes",
                    "expression",
                    "forceStdout",
                    "style.color",
                    "maven.main.skip",
                    "trimStackTrace",
                    "surefire.useFile",
                    "skip",
                    "maven.source.skip",
                    "license.skip"})) {
    return false;
  }
  return std::all_of(value.begin(), value.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_.+,:#*-").find(c) != std::string_view::npos;
  });
}

bool mavenCallIsHarmless(const TableParse& parse, const CommandScene&) {
  // `-llr` is Maven's legacy local repository switch, not `-l lr`.
  for (const ShellWord& log : parse.valuesOf("-l")) {
    if (log.text == "lr") return false;
  }
  for (const ShellWord& w : parse.operands) {
    if (w.dynamic || !mavenGoalIsHarmless(w.text)) return false;
  }
  for (const ShellWord& d : parse.valuesOf("-D")) {
    if (d.dynamic || !mavenDefineIsHarmless(d.text)) return false;
  }
  return true;
}

bool ccCallIsHarmless(const TableParse& parse, const CommandScene&) {
  for (const ShellWord& output : parse.valuesOf("-o")) {
    if (output.text.starts_with("bj")) return false;
  }
  return true;
}

// ---- option lists shared by several tables (macros: adjacent literals join)

// pytest and its common plugins (pytest-cov, pytest-xdist, pytest-timeout,
// pytest-rerunfailures, pytest-asyncio, pytest-randomly). Left out:
// --pdb/--trace/--pdbcls (a debugger reading commands from the input), -W (a
// warning category imports a module), -o/--override-ini (sets addopts and
// any ini option), --pyargs (imports installed packages), --pastebin
// (uploads), --debug (writes a file not named), -p other than `no:NAME`,
// --tx/--rsyncdir (remote workers).
#define TG_BUILD_PYTEST_OPTIONS                                                                    \
  "-k=text -m=text --markers -x|--exitfirst --fixtures|--funcargs --fixtures-per-test "            \
  "--capture={fd,sys,no,tee-sys} -s --runxfail --lf|--last-failed --ff|--failed-first "            \
  "--nf|--new-first --cache-show?=text --cache-clear --lfnf|--last-failed-no-failures={all,none} " \
  "--sw|--stepwise --sw-skip|--stepwise-skip --durations=num --durations-min=num -v|--verbose "    \
  "--no-header --no-summary -q|--quiet --verbosity=num -r=word "                                   \
  "--disable-warnings|--disable-pytest-warnings -l|--showlocals --no-showlocals "                  \
  "--tb={auto,long,short,line,native,no} --show-capture={no,stdout,stderr,log,all} --full-trace "  \
  "--color={yes,no,auto} --code-highlight={yes,no} --junitxml|--junit-xml=write "                  \
  "--junit-prefix=text --maxfail=num --strict-config --strict-markers --strict "                   \
  "-c|--config-file=inside --continue-on-collection-errors --rootdir=inside "                      \
  "--co|--collect-only --ignore=text --ignore-glob=text --deselect=text --confcutdir=inside "      \
  "--noconftest --keep-duplicates --collect-in-virtualenv "                                        \
  "--import-mode={prepend,append,importlib} --doctest-modules "                                    \
  "--doctest-report={none,cdiff,ndiff,udiff,only_first_failure} --doctest-glob=text "              \
  "--doctest-ignore-import-errors --doctest-continue-on-failure --basetemp=write "                 \
  "-V|--version -h|--help -p=word --trace-config --assert={plain,rewrite} --setup-only "           \
  "--setup-show --setup-plan --log-level=word --log-format=text --log-date-format=text "           \
  "--log-cli-level=word --log-cli-format=text --log-cli-date-format=text --log-file=write "        \
  "--log-file-level=word --log-file-format=text --log-file-date-format=text "                      \
  "--log-auto-indent=word --cov?=text --cov-report=text --cov-config=inside --cov-branch "         \
  "--cov-fail-under=num --cov-append --no-cov --no-cov-on-fail --cov-context=word "                \
  "-n|--numprocesses=word --maxprocesses=num "                                                     \
  "--dist={load,loadscope,loadfile,loadgroup,worksteal,each,no} --timeout=num --reruns=num "       \
  "--reruns-delay=num --asyncio-mode={auto,strict} --randomly-seed=word "                          \
  "--randomly-dont-reorganize"

#define TG_BUILD_UNITTEST_OPTIONS                                                        \
  "-h|--help -v|--verbose -q|--quiet --locals --durations=num -f|--failfast -c|--catch " \
  "-b|--buffer -k=text -s|--start-directory=inside -p|--pattern=text "                   \
  "-t|--top-level-directory=inside"

// coverage.py. --rcfile can name plugins (code): inside. Left out: `coverage
// debug`, `run --module` (spelled -m here, read with the module's table).
#define TG_BUILD_COVERAGE_REPORT                                                         \
  "--rcfile=inside --omit=text --include=text -i|--ignore-errors --contexts=text "       \
  "--data-file=read -q|--quiet -h|--help --debug=text --fail-under=num --precision=num " \
  "--skip-covered --no-skip-covered --skip-empty"
#define TG_BUILD_COVERAGE_RUN                                                                 \
  "-m=sub --source=text --branch -p|--parallel-mode -a|--append --rcfile=inside --omit=text " \
  "--include=text --context=word --concurrency=text --data-file=write --timid -L|--pylib "    \
  "--debug=text -h|--help"

// pip. Left out: -i/--index-url, --extra-index-url, -f/--find-links,
// --trusted-host, --proxy, --cert, --client-cert (other packages from other
// places), --target, --prefix, --root, --user (installs outside the
// environment), --break-system-packages, --python (runs another
// interpreter), --exists-action (w wipes), -C/--config-settings and
// --global-option (passed to the build), --src. -r/-c are inside (brief:
// read): a requirements file may itself name --index-url, URLs and VCS refs.
#define TG_BUILD_PIP_GENERAL                                                              \
  "-v|--verbose -q|--quiet --no-color --disable-pip-version-check --no-input --isolated " \
  "--require-virtualenv --no-cache-dir --timeout=num --retries=num "                      \
  "--root-user-action={warn,ignore} --log=write --cache-dir=write -h|--help"
#define TG_BUILD_PIP_INSTALL                                                                  \
  TG_BUILD_PIP_GENERAL                                                                        \
  " -r|--requirement=inside -c|--constraint=inside -e|--editable=text -U|--upgrade "          \
  "--upgrade-strategy={eager,only-if-needed} --no-deps --pre --force-reinstall "              \
  "-I|--ignore-installed --no-build-isolation --dry-run --require-hashes --only-binary=word " \
  "--no-binary=word --prefer-binary --progress-bar={on,off,raw} --no-warn-script-location "   \
  "--no-warn-conflicts --check-build-dependencies --no-index --compile --no-compile "         \
  "--report=write"
#define TG_BUILD_PIP_LIST                                                                \
  TG_BUILD_PIP_GENERAL                                                                   \
  " -o|--outdated -u|--uptodate -e|--editable -l|--local --user --pre "                  \
  "--format={columns,freeze,json} --not-required --exclude-editable --include-editable " \
  "--exclude=word --path=tree"
#define TG_BUILD_PIP_FREEZE \
  TG_BUILD_PIP_GENERAL      \
  " -l|--local --user --all --exclude-editable --exclude=word --path=tree -r|--requirement=read"

// npm options that may come anywhere. Left out: --registry, --proxy,
// --https-proxy, --userconfig, --globalconfig, --prefix, -g/--global,
// --script-shell, --shell, --node-options (`--require` code), --git,
// --editor, --browser, --viewer, --cache, --logs-dir, --otp, --call.
#define TG_BUILD_NPM_COMMON                                                                     \
  "--loglevel={silent,error,warn,notice,http,info,verbose,silly} -s|--silent -q|--quiet -d "    \
  "--verbose --color={always,true,false} --no-color --json -p|--parseable -w|--workspace=text " \
  "--workspaces --include-workspace-root --if-present --ignore-scripts --foreground-scripts "   \
  "--prefer-offline --offline --prefer-online --no-audit --no-fund --no-update-notifier "       \
  "--no-progress --progress --unicode"
#define TG_BUILD_NPM_INSTALL                                                                  \
  TG_BUILD_NPM_COMMON                                                                         \
  " --no-save --package-lock-only --no-package-lock --dry-run --omit={dev,optional,peer} "    \
  "--include={prod,dev,optional,peer} --production --legacy-peer-deps --strict-peer-deps "    \
  "--force --no-optional --install-strategy={hoisted,nested,shallow,linked} --install-links " \
  "--no-bin-links --prefer-dedupe --engine-strict --audit --fund"

// Options a package manager passes on to the script it runs (`yarn test
// --coverage`): the everyday switches of test runners and linters.
#define TG_BUILD_SCRIPT_ARGS                                                        \
  " --coverage?={true,false} --watch?={true,false} --watchAll?={true,false} --run " \
  "--ci?={true,false} --fix --passWithNoTests -u|--updateSnapshot --verbose"

// The script names taken as subcommands by pnpm, yarn and bun (they run the
// package.json script of that name); buildToolScriptName holds the same.
#define TG_BUILD_SCRIPT_NAMES                                                                 \
  "test|test:unit|test:e2e|test:ci|test:coverage|test:watch|build|build:prod|build:dev|lint|" \
  "lint:fix|lint:eslint|lint:css|format|format:check|format:write|typecheck|type-check|"      \
  "check|dev|start|preview"

// pnpm. Left out: --config.*, --registry, --store-dir, --global, --pnpmfile
// (hooks from elsewhere), --shell-emulator, --report-summary.
#define TG_BUILD_PNPM_COMMON                                                              \
  "-r|--recursive -F|--filter=text -C|--dir=inside -w|--workspace-root -s|--silent "      \
  "--reporter={default,append-only,ndjson,silent} --color --no-color --aggregate-output " \
  "--workspace-concurrency=num --stream --parallel --no-bail --bail --sort --no-sort "    \
  "--if-present --resume-from=word --loglevel={debug,info,warn,error} --use-stderr "      \
  "--fail-if-no-match --include-workspace-root --reverse --offline --prefer-offline"

// yarn 1 and yarn 4 (berry). Left out: --registry, --global-folder,
// --modules-folder, --use-yarnrc, --cache-folder, --https-proxy/--proxy.
#define TG_BUILD_YARN_COMMON \
  "--silent --cwd=inside --no-progress --non-interactive --offline --prefer-offline --json"
#define TG_BUILD_YARN_INSTALL                                                            \
  " --frozen-lockfile --immutable --immutable-cache --pure-lockfile --ignore-scripts "   \
  "--ignore-engines --ignore-optional --production --check-cache --check-files --force " \
  "--mode={skip-build,update-lockfile} --inline-builds --network-timeout=num --refresh-lockfile"

// uv. Left out: --index, --index-url, --extra-index-url, --default-index,
// --find-links, --config-file, --script (a script's own dependencies),
// --python with a path or name (runs that interpreter; a version passes).
#define TG_BUILD_UV_COMMON                                                                  \
  "-q|--quiet -v|--verbose --color={auto,always,never} --no-progress --offline --no-cache " \
  "--directory=inside --project=inside --no-config --native-tls --cache-dir=write -h|--help"
#define TG_BUILD_UV_GROUPS                                                                  \
  " --frozen --locked --no-dev --dev --only-dev --all-extras --extra=word --no-extra=word " \
  "--group=word --no-group=word --only-group=word --all-groups --no-default-groups "        \
  "--package=word -p|--python=num"

// poetry (cleo options). Left out: `poetry self`, `source add`, `config`.
#define TG_BUILD_POETRY_COMMON                                                 \
  "-q|--quiet -v|--verbose -n|--no-interaction --ansi --no-ansi --no-plugins " \
  "-C|--directory=inside -P|--project=inside --no-cache -h|--help"

// cargo.
#define TG_BUILD_CARGO_COMMON \
  "-q|--quiet -v|--verbose --color={auto,always,never} --locked --offline --frozen -h|--help"
#define TG_BUILD_CARGO_PACKAGES \
  " --manifest-path=inside -p|--package=word --workspace --all --exclude=word"
#define TG_BUILD_CARGO_FEATURES " -F|--features=text --all-features --no-default-features"
#define TG_BUILD_CARGO_TARGETS                                                        \
  " --lib --bins --bin=word --tests --test=word --examples --example=word --benches " \
  "--bench=word --all-targets -r|--release --target=word --target-dir=write"
#define TG_BUILD_CARGO_COMPILE                                                                 \
  TG_BUILD_CARGO_COMMON TG_BUILD_CARGO_PACKAGES TG_BUILD_CARGO_FEATURES TG_BUILD_CARGO_TARGETS \
      " --profile=word -j|--jobs=num --keep-going --message-format=text --timings?=text "      \
      "--future-incompat-report --ignore-rust-version"

// go build flags. Left out: -toolexec, -exec, -vettool (run programs),
// -overlay (replaces source files), -pkgdir (loads compiled packages from
// there), -asmflags, -gccgoflags, -compiler; -ldflags and -gcflags are
// checked (goToolFlagsAreHarmless). -overlay is listed only for
// goCallIsHarmless to refuse it: unlisted, `-overlay F` would read as the
// one-letter `-o` with `verlay` glued (Go's flags never glue a value).
#define TG_BUILD_GO_FLAGS                                                                     \
  "-a -n -p=num -race -msan -asan -cover -covermode={set,count,atomic} -coverpkg=text -v "    \
  "-work -x -buildmode={default,archive,c-archive,c-shared,shared,exe,pie,plugin} "           \
  "-buildvcs?={true,false,auto} -ldflags=text -gcflags=text -installsuffix=word -linkshared " \
  "-mod={readonly,vendor,mod} -modcacherw -modfile=inside -tags=text -trimpath -C=inside "    \
  "-pgo={auto,off} -overlay=text"

// gcc, g++, cc, c++, clang, clang++. Left out: -fplugin*, -fpass-plugin,
// -B, -wrapper, -specs/--specs, -Xlinker/-Xassembler/-Xpreprocessor/-Xclang/
// -mllvm (options for other programs: linker or clang plugins), --config,
// --gcc-toolchain, --sysroot, -save-temps, -fdump-*, -fprofile-use=,
// -fprofile-dir, -T (a linker script). Warnings are the family -W*, whose
// rest must be a `word`: no comma, so -Wl,... -Wa,... -Wp,... (options for
// the linker, assembler, preprocessor) are not known. -g takes only the
// debug formats: a glued one-letter value would read clang's
// `-gcc-toolchain DIR` (the linker and assembler of DIR) as `-g cc-toolchain`.
// For the same reason clang's `-ObjC`, `-ObjC++` and `-I-` are spelled out
// (not `-O bjC`, `-I -`), and ccCallIsHarmless refuses an output named
// `bj...` (clang's `-objcmt-*` and `-object` are not `-o bj...`).
#define TG_BUILD_CC_OPTIONS                                                                      \
  "-c -S -E -o=write -I=tree -isystem=tree -iquote=tree -idirafter=tree -include=read "          \
  "-imacros=read -L=tree -l=word -D=text -U=word -O?=word -std=word -ansi "                      \
  "-g?={0,1,2,3,gdb,gdb0,gdb1,gdb2,gdb3,dwarf,dwarf-2,dwarf-3,dwarf-4,dwarf-5,line-tables-only," \
  "line-directives-only,split-dwarf,column-info,no-column-info,z,btf,full,lldb,sce,"             \
  "embed-source,strict-dwarf,record-gcc-switches,no-record-gcc-switches} "                       \
  "-x={c,c++,c-header,c++-header,assembler,assembler-with-cpp,objective-c,objective-c++,cuda,"   \
  "none} -w -W*=word -pedantic -pedantic-errors "                                                \
  "-fPIC -fpic -fPIE -fpie -fexceptions -frtti -fsanitize=text -fsanitize-recover?=text "        \
  "-fsanitize-address-use-after-scope -fsanitize-trap?=text -fomit-frame-pointer "               \
  "-fvisibility=word -fvisibility-inlines-hidden -fdiagnostics-color?={auto,always,never} "      \
  "-fcolor-diagnostics -fdiagnostics-show-option -fdiagnostics-format=word "                     \
  "-fmessage-length=num -fmax-errors=num -ferror-limit=num -ftemplate-backtrace-limit=num "      \
  "-ftemplate-depth=num -fconstexpr-depth=num -fconstexpr-steps=num -fopenmp -fopenmp-simd "     \
  "-flto?=word -fuse-ld={bfd,gold,lld,mold} -ffunction-sections -fdata-sections -fprofile-arcs " \
  "-ftest-coverage --coverage -fprofile-instr-generate -fcoverage-mapping -fprofile-generate "   \
  "-fstack-protector -fstack-protector-strong -fstack-protector-all -fstack-clash-protection "   \
  "-fcf-protection?=word -fstrict-aliasing -fwrapv -ftrapv -fcommon -fsigned-char "              \
  "-funsigned-char -fshort-enums -funroll-loops -ffast-math -ffreestanding -fpermissive "        \
  "-fconcepts -fcoroutines -fchar8_t -fms-extensions -fsized-deallocation -faligned-new "        \
  "-fasynchronous-unwind-tables -funwind-tables -fstandalone-debug -fdebug-types-section "       \
  "-ftree-vectorize -fsyntax-only -fdebug-prefix-map=text -ffile-prefix-map=text "               \
  "-fmacro-prefix-map=text -fno-*=word -m32 -m64 -march=word -mtune=word -mcpu=word -mavx "      \
  "-mavx2 -mavx512f -msse2 -msse3 -mssse3 -msse4.1 -msse4.2 -mfma -mbmi -mbmi2 -mpopcnt "        \
  "-mlzcnt -maes -mpclmul -mf16c -mfpu=word -mfloat-abi=word -mthumb -marm -mabi=word "          \
  "-mcmodel=word -mmacosx-version-min=word -mstackrealign -M -MM -MD -MMD -MF=write -MT=text "   \
  "-MQ=text -MP -MG -H -P -C -CC -dM -dD -pthread -shared -static -static-libgcc "               \
  "-static-libstdc++ -static-pie -rdynamic -pie -no-pie -s -nostdlib -nostdlib++ -nostdinc "     \
  "-nostdinc++ -nodefaultlibs -nostartfiles -stdlib=word -pipe -v -### --version --help?=word "  \
  "-dumpversion -dumpfullversion -dumpmachine -print-search-dirs -print-libgcc-file-name "       \
  "-print-multiarch -print-sysroot -print-file-name=word -print-prog-name=word "                 \
  "-print-resource-dir -ObjC -ObjC++ -I-"

const ProgramSpec kBuildToolSpecs[] = {
    // ---- make, ninja, cmake, ctest, meson ----
    // make: targets, and VAR=value as makeCallIsHarmless says. Left out:
    // -E/--eval (a makefile statement), -e (the environment overrides the
    // makefile), -t/--touch (touches targets not named), --jobserver-auth.
    // Targets install*, uninstall, deploy, publish, upload ask.
    {"make|gmake",
     "-b -m -B|--always-make -C|--directory=inside -d --debug?=text "
     "-f|--file|--makefile=inside -h|--help -i|--ignore-errors -I|--include-dir=inside "
     "-j|--jobs?=num -k|--keep-going -l|--load-average|--max-load?=num "
     "-L|--check-symlink-times "
     "-n|--just-print|--dry-run|--recon -o|--old-file|--assume-old=text "
     "-O|--output-sync?={none,line,target,recurse} -p|--print-data-base -q|--question "
     "-r|--no-builtin-rules -R|--no-builtin-variables -s|--silent|--quiet --no-silent "
     "-S|--no-keep-going|--stop --trace -v|--version -w|--print-directory --no-print-directory "
     "-W|--what-if|--new-file|--assume-new=text --warn-undefined-variables",
     OperandRule::Any, OptionStyle::Gnu, false, makeCallIsHarmless},
    // ninja: -t TOOL ends ninja's options; the tool's table reads the rest.
    // Left out: -t browse (a web server and a browser), -t msvc (runs a program).
    {"ninja",
     "--version -v|--verbose --quiet -C=inside -f=inside -j=num -k=num -l=num -n "
     "-d={stats,explain,keepdepfile,keeprsp,list} -t=sub "
     "-w={phonycycle=err,phonycycle=warn,dupbuild=err,dupbuild=warn,list} -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, ninjaCallIsHarmless},
    {"ninja -t clean", "-g -r", OperandRule::Any},
    {"ninja -t commands", "-s", OperandRule::Any},
    {"ninja -t compdb", "-x", OperandRule::Any},
    {"ninja -t rules", "-d", OperandRule::None},
    {"ninja -t targets|inputs|deps|query|missingdeps|graph|recompact|restat|cleandead|list", "",
     OperandRule::Any},
    // cmake: configure and build (cmakeCallIsHarmless: -D names, source and
    // build directories, arguments after `--`; targets install* ask). -H is
    // help alone, the source directory glued (`-H.`, CMake < 3.13). -E runs
    // one command of cmake's command mode: only make_directory and echo here.
    // Left out: -P (a script), -C (an initial-cache script), --toolchain,
    // --install and --install-prefix (write to a prefix), --open (an IDE),
    // --workflow, --find-package, --system-information, --help-* FILE.
    {"cmake",
     "-S=inside -B=inside -H?=inside -D=text -U=text -G=text -T=text -A=word -Wdev -Wno-dev "
     "-Werror={dev,deprecated} -Wno-error={dev,deprecated} -Wdeprecated -Wno-deprecated -E=sub "
     "--preset=word --list-presets?={configure,build,test,package,workflow,all} "
     "-L|-LA|-LH|-LAH "
     "-N --fresh --graphviz=write "
     "--log-level|--loglevel={ERROR,WARNING,NOTICE,STATUS,VERBOSE,DEBUG,TRACE} --log-context "
     "--debug-trycompile --debug-output --debug-find --debug-find-pkg=text "
     "--debug-find-var=text "
     "--trace --trace-expand --trace-format={human,json-v1} --trace-source=text "
     "--trace-redirect=write --warn-uninitialized --no-warn-unused-cli --check-system-vars "
     "--compile-no-warning-as-error --profiling-format=word --profiling-output=write "
     "-h|--help|-help|-usage --version|-version --build=inside -j|--parallel?=num "
     "-t|--target=word --config=word --clean-first --resolve-package-references={on,only,off} "
     "-v|--verbose",
     OperandRule::Any, OptionStyle::Long, false, cmakeCallIsHarmless},
    {"cmake -E make_directory", "", OperandRule::Any, OptionStyle::Long, false,
     cmakeMakeDirectoryIsHarmless},
    {"cmake -E echo|echo_append|true|false|capabilities", "", OperandRule::Any, OptionStyle::Long},
    // ctest: the tests CTestTestfile.cmake names run (the project's). Left
    // out: -S/-SP/--script, -D/--dashboard, -M, -T, --build-and-test and
    // --build-*, --test-command, -A, --extra-submit, -I (reads a file of test
    // numbers), --overwrite, --help-* FILE.
    {"ctest",
     "--preset=word --list-presets -C|--build-config=word --progress -V|--verbose "
     "-VV|--extra-verbose --debug --output-on-failure --stop-on-failure "
     "--test-output-size-passed=num --test-output-size-failed=num "
     "--test-output-truncation={tail,middle,head} -F -j|--parallel=num -Q|--quiet "
     "-O|--output-log=write --output-junit=write -N|--show-only?={human,json-v1} "
     "-L|--label-regex=text -R|--tests-regex=text -E|--exclude-regex=text "
     "-LE|--label-exclude=text -FA|--fixture-exclude-any=text -FS|--fixture-exclude-setup=text "
     "-FC|--fixture-exclude-cleanup=text -U|--union --rerun-failed --repeat=word "
     "--repeat-until-fail=num --max-width=num --no-label-summary --no-subproject-summary "
     "--test-dir=inside --schedule-random --timeout=num --stop-time=text --print-labels "
     "--no-tests={error,ignore} --test-load=num --resource-spec-file=read "
     "-h|-H|--help|-help|-usage --version|-version",
     OperandRule::None, OptionStyle::Long},
    // meson setup|configure|compile|test. Left out: --native-file and
    // --cross-file (name compilers and programs), `meson test --wrapper`
    // and --gdb (run tests under a program), install, dist, subprojects
    // (downloads), --prefix and the *_args / *_link_args options.
    {"meson", "-v|--version -h|--help", OperandRule::Sub},
    {"meson setup|configure",
     "--buildtype={plain,debug,debugoptimized,release,minsize,custom} "
     "--optimization={plain,0,g,1,2,3,s} --debug --warnlevel={0,1,2,3,everything} --werror "
     "--default-library={shared,static,both} --backend={ninja,vs,xcode,none} "
     "--unity={on,off,subprojects} -D=text --reconfigure --wipe --fatal-meson-warnings "
     "-h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, mesonSetupIsHarmless},
    {"meson compile",
     "-C=inside -j|--jobs=num -l|--load-average=num -v|--verbose --clean -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, mesonCompileIsHarmless},
    {"meson test",
     "-C=inside --suite=word --no-suite=word --num-processes=num -t|--timeout-multiplier=num "
     "--repeat=num --print-errorlogs --no-rebuild --list --benchmark --logbase=word "
     "--setup=word "
     "-v|--verbose -q|--quiet --maxfail=num -h|--help",
     OperandRule::Any},
    // sphinx-build [-M BUILDER] SOURCEDIR OUTPUTDIR: both in the workspace.
    // Left out: -D (a setting: `extensions=` loads modules), -P (a debugger
    // reading the input).
    {"sphinx-build",
     "-b|--builder=word -M=word -E|--fresh-env -a|--write-all -W|--fail-on-warning "
     "--keep-going "
     "-q|--quiet -Q|--silent -v|--verbose -j|--jobs=word -n|--nitpicky -T|--show-traceback "
     "-c|--conf-dir=inside -d|--doctree-dir=write -A|--html-define=text -t|--tag=word "
     "-N|--no-color --color -w|--warning-file=write --version -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, sphinxBuildIsHarmless},

    // ---- Python ----
    // python|python3 (python3.N is named python3 by the caller): the version,
    // help, or -m MODULE read with the module's table (mypy, black, isort,
    // flake8, pylint, pyflakes and ruff are in table_linters.cpp). Left out:
    // -c (code), -i (a REPL after the module), -W (imports a warning
    // category), -X.
    {"python|python3",
     "-V|--version -h|--help --help-env --help-xoptions --help-all -m=sub -B -u -I -s -S -E -P "
     "-O -q -b -v -R",
     OperandRule::None, OptionStyle::Gnu, false, pythonPrintsAndExits},
    {"pytest|py.test", TG_BUILD_PYTEST_OPTIONS, OperandRule::Any, OptionStyle::Gnu, false,
     pytestCallIsHarmless},
    {"python -m pytest", TG_BUILD_PYTEST_OPTIONS, OperandRule::Any, OptionStyle::Gnu, false,
     pytestCallIsHarmless},
    {"python -m unittest", TG_BUILD_UNITTEST_OPTIONS, OperandRule::Any, OptionStyle::Gnu, false,
     unittestCallIsHarmless},
    // compileall and py_compile write __pycache__ beside the files given;
    // with none, compileall compiles sys.path. Left out: compileall -i (a
    // list of files from a file or the input).
    {"python -m compileall",
     "-l -r=num -f -q -b -d=text -s=text -p=text -x=text -j|--workers=num "
     "--invalidation-mode={checked-hash,timestamp,unchecked-hash} -o=num -e=tree "
     "--hardlink-dupes -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, pythonWritesOperandsInside},
    {"python -m py_compile", "-q|--quiet -h|--help", OperandRule::Any, OptionStyle::Gnu, false,
     pythonWritesOperandsInside},
    {"python -m json.tool",
     "--sort-keys --no-ensure-ascii --json-lines --indent=num --tab --no-indent --compact "
     "-h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, jsonToolCallIsHarmless},
    // venv DIR: creates DIR. Left out: --clear (deletes DIR's contents first),
    // --upgrade-deps (pip and setuptools from the index).
    {"python -m venv",
     "--system-site-packages --symlinks --copies --upgrade --without-pip --prompt=text "
     "-h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, pythonWritesOperandsInside},
    // python -m build (pypa/build). Left out: -C/--config-setting (options
    // for the build backend).
    {"python -m build",
     "-s|--sdist -w|--wheel -o|--outdir=write -n|--no-isolation -x|--skip-dependency-check "
     "--installer={pip,uv} -v|--verbose -q|--quiet -h|--help --version",
     OperandRule::Any, OptionStyle::Gnu, false, pythonBuildCallIsHarmless},
    // pip / pip3 / python -m pip: list, show, freeze, check, and installing
    // the project or its requirements files (pipInstallIsHarmless). Left
    // out: uninstall, download, wheel, config, cache, `pip help` (a pager).
    {"pip|pip3", TG_BUILD_PIP_GENERAL " -V|--version", OperandRule::Sub},
    {"pip install", TG_BUILD_PIP_INSTALL, OperandRule::Any, OptionStyle::Gnu, false,
     pipInstallIsHarmless},
    {"pip list", TG_BUILD_PIP_LIST, OperandRule::None},
    {"pip show", TG_BUILD_PIP_GENERAL " -f|--files", OperandRule::Any},
    {"pip freeze", TG_BUILD_PIP_FREEZE, OperandRule::None},
    {"pip check", TG_BUILD_PIP_GENERAL, OperandRule::None},
    {"python -m pip", TG_BUILD_PIP_GENERAL " -V|--version", OperandRule::Sub},
    {"python -m pip install", TG_BUILD_PIP_INSTALL, OperandRule::Any, OptionStyle::Gnu, false,
     pipInstallIsHarmless},
    {"python -m pip list", TG_BUILD_PIP_LIST, OperandRule::None},
    {"python -m pip show", TG_BUILD_PIP_GENERAL " -f|--files", OperandRule::Any},
    {"python -m pip freeze", TG_BUILD_PIP_FREEZE, OperandRule::None},
    {"python -m pip check", TG_BUILD_PIP_GENERAL, OperandRule::None},
    // coverage / python -m coverage: `run -m MODULE` reads the module's
    // table; `run FILE` runs a script and asks. Reports write htmlcov/ or
    // coverage.xml in the directory unless told where (-d, -o: write).
    {"coverage", "--version -h|--help", OperandRule::Sub},
    {"coverage run", TG_BUILD_COVERAGE_RUN, OperandRule::Any, OptionStyle::Gnu, false,
     coverageRunNeedsModule},
    {"coverage run -m pytest", TG_BUILD_PYTEST_OPTIONS, OperandRule::Any, OptionStyle::Gnu, false,
     pytestCallIsHarmless},
    {"coverage run -m unittest", TG_BUILD_UNITTEST_OPTIONS, OperandRule::Any, OptionStyle::Gnu,
     false, unittestCallIsHarmless},
    {"coverage report",
     TG_BUILD_COVERAGE_REPORT " -m|--show-missing --sort=word --format={text,markdown,total}",
     OperandRule::Any},
    {"coverage html", TG_BUILD_COVERAGE_REPORT " -d|--directory=write --title=text --show-contexts",
     OperandRule::Any},
    {"coverage xml|lcov", TG_BUILD_COVERAGE_REPORT " -o=write", OperandRule::Any},
    {"coverage json", TG_BUILD_COVERAGE_REPORT " -o=write --pretty-print --show-contexts",
     OperandRule::Any},
    {"coverage erase", "--rcfile=inside --data-file=write -h|--help", OperandRule::None},
    {"coverage combine",
     "--rcfile=inside --data-file=write -a|--append --keep -q|--quiet -h|--help", OperandRule::Any},
    {"python -m coverage", "--version -h|--help", OperandRule::Sub},
    {"python -m coverage run", TG_BUILD_COVERAGE_RUN, OperandRule::Any, OptionStyle::Gnu, false,
     coverageRunNeedsModule},
    {"python -m coverage run -m pytest", TG_BUILD_PYTEST_OPTIONS, OperandRule::Any,
     OptionStyle::Gnu, false, pytestCallIsHarmless},
    {"python -m coverage run -m unittest", TG_BUILD_UNITTEST_OPTIONS, OperandRule::Any,
     OptionStyle::Gnu, false, unittestCallIsHarmless},
    {"python -m coverage report",
     TG_BUILD_COVERAGE_REPORT " -m|--show-missing --sort=word --format={text,markdown,total}",
     OperandRule::Any},
    {"python -m coverage html",
     TG_BUILD_COVERAGE_REPORT " -d|--directory=write --title=text --show-contexts",
     OperandRule::Any},
    {"python -m coverage xml|lcov", TG_BUILD_COVERAGE_REPORT " -o=write", OperandRule::Any},
    {"python -m coverage json", TG_BUILD_COVERAGE_REPORT " -o=write --pretty-print --show-contexts",
     OperandRule::Any},
    {"python -m coverage erase", "--rcfile=inside --data-file=write -h|--help", OperandRule::None},
    {"python -m coverage combine",
     "--rcfile=inside --data-file=write -a|--append --keep -q|--quiet -h|--help", OperandRule::Any},
    // tox 4 (and its legacy command line): environments of tox.ini. Words
    // after `--` ({posargs}) ask (toxCallIsHarmless). Left out: -x/--override
    // (sets commands), --installpkg, --discover (interpreters from
    // elsewhere), --force-dep, `tox exec`, `tox devenv`.
    {"tox",
     "-e=text -p|--parallel?=word -o|--parallel-live -r|--recreate -q|--quiet -v|--verbose "
     "-c|--conf=inside --root=inside --workdir=write -n|--notest "
     "--skip-missing-interpreters?={config,true,false} --no-recreate-pkg --skip-pkg-install "
     "--develop --hashseed=word -m|--labels=text -f|--factors=text --colored={yes,no} "
     "--result-json=write --list-dependencies --no-list-dependencies -l|--listenvs "
     "-a|--listenvs-all --version -h|--help --pre",
     OperandRule::Any, OptionStyle::Gnu, false, toxCallIsHarmless},
    // nox: sessions of noxfile.py; no operands (posargs). Left out:
    // --extra-pythons/--force-pythons (interpreters named), -db (two letters).
    {"nox",
     "-s|-e|--session|--sessions=text -k|--keywords=text -t|--tags=text "
     "-p|--python|--pythons=num -l|--list|--list-sessions --json "
     "-r|--reuse-existing-virtualenvs -R --no-reuse-existing-virtualenvs "
     "--reuse-venv={yes,no,always,never} -x|--stop-on-first-error --no-stop-on-first-error "
     "--error-on-missing-interpreters --no-error-on-missing-interpreters "
     "--default-venv-backend={uv,virtualenv,venv,conda,mamba,micromamba,none} "
     "--force-venv-backend={uv,virtualenv,venv,conda,mamba,micromamba,none} --no-venv "
     "-f|--noxfile=inside --envdir=write --forcecolor --nocolor --no-color --no-install "
     "--install-only --non-interactive --add-timestamp --report=write -v|--verbose --version "
     "-h|--help",
     OperandRule::None},
    // uv: sync, lock, tree, version. `uv run`, `uv tool run` are wrappers
    // (unwrap.cpp); `uv pip`, `uv add`, `uv remove`, `uv python install` ask.
    {"uv", TG_BUILD_UV_COMMON " -V|--version", OperandRule::Sub},
    {"uv sync",
     TG_BUILD_UV_COMMON TG_BUILD_UV_GROUPS
     " --check --dry-run --all-packages --no-install-project --no-install-workspace "
     "--no-install-local --no-install-package=word --inexact --exact --no-editable --active "
     "--compile-bytecode --reinstall --reinstall-package=word -U|--upgrade "
     "-P|--upgrade-package=word --refresh --no-sources --no-build-isolation",
     OperandRule::None},
    {"uv lock",
     TG_BUILD_UV_COMMON
     " --check --check-exists --locked --dry-run -U|--upgrade -P|--upgrade-package=word "
     "--refresh -p|--python=num",
     OperandRule::None},
    {"uv tree",
     TG_BUILD_UV_COMMON TG_BUILD_UV_GROUPS
     " -d|--depth=num --invert|--reverse --no-dedupe --outdated --universal --prune=word "
     "--python-version=num --python-platform=word --show-sizes",
     OperandRule::None},
    // uv version: prints; `--bump` and a new version write pyproject.toml (ask).
    {"uv version", TG_BUILD_UV_COMMON " --short --output-format={text,json}", OperandRule::None},
    // poetry: install, lock, check, show. `poetry run` is a wrapper; add,
    // remove, update, self, source, config, publish ask.
    {"poetry", TG_BUILD_POETRY_COMMON " -V|--version", OperandRule::Sub},
    {"poetry install",
     TG_BUILD_POETRY_COMMON
     " --without=text --with=text --only=text --only-root --sync --no-root --no-directory "
     "--dry-run -E|--extras=text --all-extras --all-groups --compile",
     OperandRule::None},
    {"poetry lock", TG_BUILD_POETRY_COMMON " --no-update --check --regenerate", OperandRule::None},
    {"poetry check", TG_BUILD_POETRY_COMMON " --lock --strict", OperandRule::None},
    {"poetry show",
     TG_BUILD_POETRY_COMMON " -t|--tree -l|--latest -o|--outdated -T|--top-level -a|--all "
                            "--why --only=text --with=text "
                            "--without=text --no-truncate",
     OperandRule::Any},
    // pre-commit run: the hooks of the project's .pre-commit-config.yaml.
    // Left out: install (writes .git/hooks), autoupdate (new hook revisions),
    // try-repo (hooks from any repository), clean, gc.
    {"pre-commit", "-V|--version -h|--help", OperandRule::Sub},
    {"pre-commit run",
     "-a|--all-files --files=text --hook-stage=word --show-diff-on-failure -v|--verbose "
     "--color={auto,always,never} -c|--config=inside -s|--from-ref|--source=text "
     "-o|--to-ref|--origin=text -h|--help",
     OperandRule::Any},

    // ---- JavaScript ----
    // npm: installing the project's manifest (no package operands), scripts,
    // reports. `npm exec`/`npx` are wrappers (unwrap.cpp). Left out: add,
    // uninstall, update, publish, pack, version, config set, `audit fix`,
    // `npm help` (a pager or browser), `npm run env` (runs its arguments).
    {"npm", TG_BUILD_NPM_COMMON " -v|--version -h|--help", OperandRule::Sub},
    {"npm install|i|in|ci|clean-install|ic|install-clean|install-test|it", TG_BUILD_NPM_INSTALL,
     OperandRule::None},
    {"npm test|t|tst|start", TG_BUILD_NPM_COMMON, OperandRule::Any},
    {"npm run|run-script|rum|urn", TG_BUILD_NPM_COMMON, OperandRule::Any, OptionStyle::Gnu, false,
     scriptRunIsHarmless},
    {"npm ls|list|la|ll",
     TG_BUILD_NPM_COMMON
     " -a|--all --depth=num -l|--long --omit={dev,optional,peer} "
     "--include={prod,dev,optional,peer} --link --production --package-lock-only",
     OperandRule::Any},
    {"npm outdated", TG_BUILD_NPM_COMMON " -a|--all -l|--long --omit={dev,optional,peer}",
     OperandRule::Any},
    {"npm view|info|show|v|why|explain", TG_BUILD_NPM_COMMON, OperandRule::Any},
    {"npm audit",
     TG_BUILD_NPM_COMMON
     " --audit-level={info,low,moderate,high,critical,none} --omit={dev,optional,peer} "
     "--include={prod,dev,optional,peer} --package-lock-only --production",
     OperandRule::Any, OptionStyle::Gnu, false, auditIsReadOnly},
    // pnpm: install, scripts (`pnpm build` runs the build script: the names
    // of TG_BUILD_SCRIPT_NAMES, none a pnpm command), reports. Left out: add,
    // remove, update, dlx and exec (wrappers), env (installs Node), deploy,
    // publish, patch, store, setup, `audit --fix`.
    {"pnpm", TG_BUILD_PNPM_COMMON " -v|--version -h|--help", OperandRule::Sub},
    {"pnpm install|i",
     TG_BUILD_PNPM_COMMON
     " --frozen-lockfile --no-frozen-lockfile --prefer-frozen-lockfile --lockfile-only "
     "--fix-lockfile --force --ignore-scripts -P|--prod -D|--dev --no-optional "
     "--shamefully-hoist "
     "--strict-peer-dependencies --resolution-only --ignore-pnpmfile",
     OperandRule::None},
    {"pnpm run|run-script", TG_BUILD_PNPM_COMMON TG_BUILD_SCRIPT_ARGS, OperandRule::Any,
     OptionStyle::Gnu, false, scriptRunIsHarmless},
    {"pnpm t|tst|" TG_BUILD_SCRIPT_NAMES, TG_BUILD_PNPM_COMMON TG_BUILD_SCRIPT_ARGS,
     OperandRule::Any},
    {"pnpm ls|list|ll|la",
     TG_BUILD_PNPM_COMMON " --depth=num --long --json --parseable -P|--prod -D|--dev --no-optional",
     OperandRule::Any},
    {"pnpm outdated",
     TG_BUILD_PNPM_COMMON
     " --long --compatible -P|--prod -D|--dev --no-optional --format={table,list,json}",
     OperandRule::Any},
    {"pnpm why", TG_BUILD_PNPM_COMMON " --json --long --parseable -P|--prod -D|--dev --depth=num",
     OperandRule::Any},
    {"pnpm audit",
     TG_BUILD_PNPM_COMMON
     " --audit-level={low,moderate,high,critical} --json -P|--prod -D|--dev --no-optional "
     "--ignore-registry-errors",
     OperandRule::None},
    // yarn (1 and 4). Left out: add, remove, up, upgrade, dlx/exec
    // (wrappers), global, link, publish, npm, plugin, set version (downloads
    // another yarn), `yarn run env`. `yarn` alone installs, but a program
    // with subcommands is known without one only for its version or help.
    // yarn alone installs the project's dependencies.
    {"yarn", TG_BUILD_YARN_COMMON TG_BUILD_YARN_INSTALL " -v|--version -h|--help --verbose",
     OperandRule::Sub, OptionStyle::Gnu, false, nullptr, false, "install"},
    {"yarn install", TG_BUILD_YARN_COMMON TG_BUILD_YARN_INSTALL " --verbose", OperandRule::None},
    {"yarn run", TG_BUILD_YARN_COMMON TG_BUILD_SCRIPT_ARGS, OperandRule::Any, OptionStyle::Gnu,
     false, scriptRunIsHarmless},
    {"yarn " TG_BUILD_SCRIPT_NAMES, TG_BUILD_YARN_COMMON TG_BUILD_SCRIPT_ARGS, OperandRule::Any},
    {"yarn workspace", TG_BUILD_YARN_COMMON TG_BUILD_SCRIPT_ARGS, OperandRule::Any,
     OptionStyle::Gnu, false, yarnWorkspaceIsHarmless},
    {"yarn workspaces",
     TG_BUILD_YARN_COMMON
     " -A|--all -p|--parallel -t|--topological --topological-dev -v|--verbose -i|--interlaced "
     "-R|--recursive --include=text --exclude=text -j|--jobs=word",
     OperandRule::Any, OptionStyle::Gnu, false, yarnWorkspacesIsHarmless},
    {"yarn list|why|outdated|info",
     TG_BUILD_YARN_COMMON " --depth=num --pattern=text -R|--recursive --verbose", OperandRule::Any},
    {"yarn audit", TG_BUILD_YARN_COMMON " --level=word --groups=text --summary --verbose",
     OperandRule::None},
    // bun: install, scripts, its test runner. Left out: add, remove, x (a
    // wrapper), build (the bundler), `bun FILE`, -r/--preload (code),
    // --env-file (reads an env file).
    {"bun", "-v|--version -h|--help --revision", OperandRule::Sub},
    {"bun install|i",
     "--frozen-lockfile -p|--production --no-save --dry-run --ignore-scripts -f|--force "
     "--silent --verbose --no-progress --no-summary --concurrent-scripts=num "
     "--network-concurrency=num --linker={isolated,hoisted} -h|--help",
     OperandRule::None},
    {"bun run",
     "--silent --bun --if-present -F|--filter=text --elide-lines=num --workspaces "
     "-h|--help" TG_BUILD_SCRIPT_ARGS,
     OperandRule::Any, OptionStyle::Gnu, false, bunRunIsHarmless},
    {"bun test",
     "--watch --coverage --coverage-reporter={text,lcov} --coverage-dir=write "
     "-t|--test-name-pattern=text --timeout=num --bail?=num -u|--update-snapshots "
     "--rerun-each=num --only --todo --concurrent --randomize --seed=num "
     "--reporter={junit,dots} --reporter-outfile=write --pass-with-no-tests -h|--help",
     OperandRule::Any},
    {"bun outdated", "-F|--filter=text -r|--recursive -h|--help", OperandRule::Any},
    // tsc: TypeScript reads one-dash and two-dash spellings alike. Left out:
    // --init (writes tsconfig.json), --generateCpuProfile.
    {"tsc",
     "--noEmit|-noEmit -p|--project|-project=inside -b|--build|-build -w|--watch|-watch "
     "--pretty "
     "--noEmitOnError --outDir|-outDir=write --outFile=write --rootDir=tree "
     "-d|--declaration|-declaration --emitDeclarationOnly --declarationDir=write --sourceMap "
     "--incremental --tsBuildInfoFile=write --strict -t|--target=word -m|--module=word "
     "--moduleResolution=word --lib=text --jsx=word --skipLibCheck --allowJs --checkJs "
     "--esModuleInterop --listFiles --listEmittedFiles --traceResolution --extendedDiagnostics "
     "--diagnostics --explainFiles --showConfig --generateTrace=write -v|--version|-version "
     "-h|--help|-help --all --locale=word --verbose --force --dry --clean --noErrorTruncation "
     "--preserveWatchOutput",
     OperandRule::Any, OptionStyle::Long},
    // vitest. Left out: --ui, --open, --api, --browser (servers and
    // browsers), --inspect/--inspect-brk (a debugger port), reporters and
    // environments by module name, `vitest init` (installs).
    {"vitest",
     "--run -w|--watch?={true,false} --no-watch -t|--testNamePattern=text "
     "--reporter={default,basic,verbose,dot,json,junit,tap,tap-flat,hanging-process,"
     "github-actions,html,tree,agent,minimal} --outputFile=write --coverage?={true,false} "
     "--coverage.enabled --coverage.provider={v8,istanbul} --coverage.reporter=word "
     "--coverage.all -u|--update --silent?=word --bail=num --retry=num --passWithNoTests "
     "--allowOnly --changed?=text --shard=word --project=word "
     "--environment={node,jsdom,happy-dom,edge-runtime} --globals "
     "--pool={threads,forks,vmThreads,vmForks} --maxWorkers=text --minWorkers=text "
     "--testTimeout=num --hookTimeout=num --typecheck --mode=word --logHeapUsage "
     "--no-file-parallelism --fileParallelism --isolate --no-isolate --expandSnapshotDiff "
     "--hideSkippedTests --dom --clearScreen --sequence.shuffle -c|--config=inside "
     "-r|--root=inside --dir=inside --exclude=text -v|--version -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, vitestCallIsHarmless},
    // jest. Left out: --setupFiles*, --globalSetup/--globalTeardown,
    // --resolver, --transform, --testRunner, --testSequencer,
    // --snapshotResolver, --watchPlugins, reporters and environments by
    // module name, --notify (runs a notifier), -c with a JSON text.
    {"jest",
     "--coverage?={true,false} --collectCoverage?={true,false} --no-coverage "
     "--watch?={true,false} --watchAll?={true,false} --ci?={true,false} "
     "-t|--testNamePattern=text --testPathPattern=text --testPathPatterns=text "
     "--testPathIgnorePatterns=text -u|--updateSnapshot -i|--runInBand?={true,false} "
     "-b|--bail?=num --verbose?={true,false} --silent?={true,false} --passWithNoTests "
     "--detectOpenHandles --detectLeaks --forceExit -w|--maxWorkers=text --json "
     "--outputFile=write --listTests -o|--onlyChanged --changedSince=word --clearCache "
     "--no-cache -c|--config=inside --rootDir=inside --selectProjects=word --shard=word "
     "--testTimeout=num --colors --logHeapUsage --noStackTrace --errorOnDeprecated "
     "--findRelatedTests --lastCommit --coverageDirectory=write --collectCoverageFrom=text "
     "--coverageProvider={babel,v8} --reporters={default,summary,github-actions} "
     "--env|--testEnvironment={node,jsdom} --randomize --seed=num --showSeed --showConfig "
     "--debug --useStderr -e|--expand --watchman --no-watchman --injectGlobals -v|--version "
     "-h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, jestCallIsHarmless},
    // mocha. Left out: -n/--node-option, --loader, --inspect*, reporters by
    // module name, -O/--reporter-option (output=FILE writes), --file.
    {"mocha",
     "-R|--reporter={spec,dot,nyan,tap,landing,list,progress,json,json-stream,min,doc,markdown,"
     "xunit} -g|--grep=text -f|--fgrep=text -i|--invert -t|--timeout=word -s|--slow=word "
     "-b|--bail --exit --no-exit -w|--watch -p|--parallel -j|--jobs=num --retries=num "
     "--config=inside --no-config --no-package --recursive --extension=text "
     "--ignore|--exclude=text --spec=text -r|--require=text -u|--ui={bdd,tdd,qunit,exports} "
     "-c|--color|--colors --no-colors --diff --full-trace --check-leaks --forbid-only "
     "--forbid-pending --allow-uncaught -A|--async-only -S|--sort --dry-run --fail-zero "
     "--inline-diffs --list-reporters --list-interfaces -V|--version -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, mochaCallIsHarmless},
    // ava. Left out: --node-arguments, `ava debug` (an inspector port).
    {"ava",
     "-m|--match=text -v|--verbose -s|--serial --fail-fast -T|--timeout=word "
     "-u|--update-snapshots -t|--tap -w|--watch -c|--concurrency=num --config=inside "
     "--reset-cache --no-worker-threads --color --no-color --version -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, avaCallIsHarmless},
    // karma start|run [CONFIG]: the browsers the project's configuration
    // names. Left out: `karma init` (interactive, writes a configuration).
    {"karma", "--version -h|--help", OperandRule::Sub},
    {"karma start|run",
     "--single-run --no-single-run --browsers=text --reporters=text --port=num "
     "--log-level={disable,error,warn,info,debug} --colors --no-colors --auto-watch "
     "--no-auto-watch --fail-on-empty-test-suite --no-fail-on-empty-test-suite -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, buildToolCodeOperandsInside},
    // playwright test, show-report (a local server that opens the report in
    // the browser, as the old list allowed). Left out: install (downloads
    // browsers), codegen, open, --ui, --debug, --host, reporters by module name.
    {"playwright", "--version -h|--help", OperandRule::Sub},
    {"playwright test",
     "--project=word -g|--grep=text --grep-invert=text --headed "
     "--reporter={list,line,dot,json,junit,html,github,null,blob} -j|--workers=text "
     "--retries=num --repeat-each=num --timeout=num -x --max-failures=num --forbid-only "
     "--fully-parallel --last-failed --list --pass-with-no-tests --shard=word "
     "-u|--update-snapshots?={all,changed,missing,none} -c|--config=inside --output=write "
     "--trace={on,off,on-first-retry,on-all-retries,retain-on-failure,retain-on-first-failure} "
     "--quiet --global-timeout=num --browser={all,chromium,firefox,webkit} "
     "--only-changed?=word "
     "--no-deps --ignore-snapshots --fail-on-flaky-tests --tsconfig=inside -h|--help",
     OperandRule::Any},
    {"playwright show-report", "--port=num -h|--help", OperandRule::Any},
    // Bundlers: their configurations are code (inside). Left out: --open and
    // --host (a browser; the dev server on the network), vite --emptyOutDir,
    // webpack --analyze, rollup -p/--plugin and --configPlugin, tsup
    // --onSuccess (a command), esbuild --serve/--servedir, parcel --open.
    {"vite",
     "-c|--config=inside -m|--mode=word --base=text --outDir=write --sourcemap?=word "
     "--minify?=word --target=text -w|--watch -l|--logLevel={info,warn,error,silent} "
     "--clearScreen --debug?=text -f|--filter=text --force --manifest?=text "
     "--ssrManifest?=text --port=num --strictPort --assetsDir=text -v|--version -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, viteCallIsHarmless},
    {"webpack",
     "-c|--config=inside --config-name=word --mode={development,production,none} --env=text "
     "--node-env=word --progress?=word -o|--output-path=write -w|--watch --no-watch "
     "--stats?=word --devtool=word --no-devtool --name=word --fail-on-warnings "
     "--disable-interpret --entry=read -t|--target=text -v|--version -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, webpackCallIsHarmless},
    {"rollup",
     "-c|--config?=inside -i|--input=read -o|--file=write -d|--dir=write -f|--format=word "
     "-n|--name=word -w|--watch -m|--sourcemap?=word --environment=text --silent "
     "--bundleConfigAsCjs --failAfterWarnings -e|--external=text -g|--globals=text --compact "
     "--exports=word --extend -v|--version -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, buildToolCodeOperandsInside},
    // esbuild's command line cannot run code (plugins are for its JS API).
    {"esbuild",
     "--bundle --minify --minify-whitespace --minify-identifiers --minify-syntax "
     "--sourcemap?=word --outfile=write --outdir=write --outbase=tree "
     "--platform={browser,node,neutral} --format={iife,cjs,esm} --target=text --splitting "
     "--watch --log-level=word --metafile=write --tsconfig=read --define:*=text "
     "--external:*=text --loader:*=word --jsx=word --jsx-factory=word --jsx-fragment=word "
     "--keep-names --tree-shaking={true,false} --packages={external,bundle} --main-fields=text "
     "--conditions=text --charset=word --legal-comments=word --analyze?=word "
     "--color={true,false} --global-name=word --banner:*=text --footer:*=text --alias:*=text "
     "--resolve-extensions=text --out-extension:*=word --asset-names=text --chunk-names=text "
     "--entry-names=text --public-path=text --drop:*=word --pure:*=word --inject:*=read "
     "--version --help",
     OperandRule::Any, OptionStyle::Long},
    {"tsup",
     "-d|--out-dir=write --format=text --dts --dts-only --minify?=word --target=text "
     "--sourcemap?=word -w|--watch?=text --clean --config=inside --no-config --splitting "
     "--no-splitting --treeshake --external=text --platform={node,browser,neutral} --silent "
     "--legacy-output --shims --tsconfig=inside --metafile --global-name=word --keep-names "
     "--cjsInterop -v|--version -h|--help",
     OperandRule::Any},
    {"parcel",
     "--dist-dir=write --public-url=text --no-source-maps --no-cache --cache-dir=write "
     "--no-optimize --no-scope-hoist --no-content-hash --target=word "
     "--log-level={none,error,warn,info,verbose} --detailed-report?=num --config=inside "
     "-p|--port=num --no-hmr --no-autoinstall -V|--version -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, parcelCallIsHarmless},

    // ---- JVM ----
    // gradle / ./gradlew: tasks from a closed list (gradleCallIsHarmless).
    // Left out: -I/--init-script (code), -D/--system-prop (org.gradle.java.home
    // and JVM settings), -P/--project-prop (read by build logic), -g/
    // --gradle-user-home (its init.d scripts run), --scan (uploads a build scan).
    {"gradle|gradlew",
     "-q|--quiet -i|--info -d|--debug -w|--warn -s|--stacktrace -S|--full-stacktrace --no-scan "
     "--offline --refresh-dependencies --rerun-tasks --continue --parallel --no-parallel "
     "--build-cache --no-build-cache --configuration-cache --no-configuration-cache --daemon "
     "--no-daemon --console={plain,auto,rich,verbose} -x|--exclude-task=word --max-workers=num "
     "-p|--project-dir=inside -b|--build-file=inside -c|--settings-file=inside --status --stop "
     "-v|--version -h|--help -m|--dry-run --profile --warning-mode={all,fail,summary,none} "
     "--include-build=inside --project-cache-dir=write --priority={low,normal} --watch-fs "
     "--no-watch-fs -t|--continuous --tests=text --rerun --configuration=word "
     "--dependency=word --all --write-locks --fail-fast",
     OperandRule::Any, OptionStyle::Gnu, false, gradleCallIsHarmless},
    // mvn / ./mvnw: phases and plugin goals from closed lists, -D switches
    // from a closed list (mavenCallIsHarmless). Left out: -s/--settings and
    // -gs/--global-settings (repositories, proxies, mirrors), -t/--toolchains
    // (JDKs to run), -b/--builder, -emp/-ep (encryption).
    {"mvn|mvnw",
     "-q|--quiet -X|--debug -e|--errors -B|--batch-mode|--non-interactive -o|--offline "
     "-U|--update-snapshots -T|--threads=word -P|--activate-profiles=text -pl|--projects=text "
     "-am|--also-make -amd|--also-make-dependents -rf|--resume-from=text -f|--file=inside "
     "-N|--non-recursive -fae|--fail-at-end -ff|--fail-fast -fn|--fail-never "
     "-ntp|--no-transfer-progress -V|--show-version -v|--version -h|--help "
     "-C|--strict-checksums -c|--lax-checksums -nsu|--no-snapshot-updates -l|--log-file=write "
     "-D|--define=text --color={auto,always,never}",
     OperandRule::Any, OptionStyle::Long, false, mavenCallIsHarmless},
    // javac: class and module paths checked (javacCallIsHarmless). The module
    // path has no `-p` here: one-letter values are read glued, and
    // `-processorpath DIR` would read as `-p rocessorpath`. Left out:
    // -processor, -processorpath/--processor-path, --processor-module-path,
    // -Xplugin, -J (options of the JVM: -javaagent), -A (processor options),
    // --system, --upgrade-module-path, -bootclasspath, -extdirs.
    {"javac",
     "-d=write -s=write -h=write -cp|-classpath|--class-path=text --module-path=text "
     "-sourcepath|--source-path=tree --module-source-path=tree -encoding=word "
     "-source|--source=word -target|--target=word --release=word -g -g:*=text -nowarn -verbose "
     "-deprecation -Xlint -Xlint:*=text -Werror -parameters -proc:*={none,only,full} "
     "-implicit:*={none,class} -Xmaxerrs=num -Xmaxwarns=num -Xdiags:*={compact,verbose} "
     "-Xdoclint -Xdoclint:*=text --enable-preview --add-modules=text --limit-modules=text "
     "-m|--module=word --add-exports=text --add-reads=text -version|--version -help|--help -X",
     OperandRule::Any, OptionStyle::Long, true, javacCallIsHarmless},

    // ---- Go ----
    // go: build, test, vet, list, fmt, doc, version, env (read), help, mod,
    // tool cover. `go run`, `go generate`, `go get`, `go install`, other
    // tools, `go clean`, `go work` and `go env -w/-u` ask.
    {"go", "", OperandRule::Sub, OptionStyle::Go},
    {"go build", TG_BUILD_GO_FLAGS " -o=write -json", OperandRule::Any, OptionStyle::Go, false,
     goCallIsHarmless},
    {"go test",
     TG_BUILD_GO_FLAGS
     " -o=write -c -json -run=text -skip=text -count=num -timeout=word -short -failfast "
     "-parallel=num -cpu=num -bench=text -benchtime=word -benchmem -list=text -shuffle=word "
     "-fuzz=text -fuzztime=word -fuzzminimizetime=word -coverprofile=write -cpuprofile=write "
     "-memprofile=write -memprofilerate=num -blockprofile=write -blockprofilerate=num "
     "-mutexprofile=write -mutexprofilefraction=num -trace=write -outputdir=write -vet=text "
     "-fullpath",
     OperandRule::Any, OptionStyle::Go, false, goCallIsHarmless},
    {"go vet", TG_BUILD_GO_FLAGS " -json", OperandRule::Any, OptionStyle::Go, false,
     goCallIsHarmless},
    {"go list",
     TG_BUILD_GO_FLAGS
     " -m -json?=text -f=text -e -u -versions -retracted -deps -test -export -compiled -find",
     OperandRule::Any, OptionStyle::Go, false, goCallIsHarmless},
    {"go fmt", "-n -x -mod={readonly,vendor,mod}", OperandRule::Any, OptionStyle::Go, false,
     goFmtIsHarmless},
    {"go doc", "-all -c -cmd -short -src -u", OperandRule::Any, OptionStyle::Go},
    {"go version", "-m -v -json", OperandRule::Any, OptionStyle::Go},
    {"go env", "-json -changed", OperandRule::Any, OptionStyle::Go},
    {"go help", "", OperandRule::Any, OptionStyle::Go},
    {"go mod", "", OperandRule::Sub, OptionStyle::Go},
    {"go mod tidy", "-v -e -x -go=word -compat=word -diff", OperandRule::None, OptionStyle::Go},
    {"go mod download", "-json -x", OperandRule::Any, OptionStyle::Go},
    {"go mod verify", "", OperandRule::None, OptionStyle::Go},
    {"go mod graph", "-go=word -x", OperandRule::None, OptionStyle::Go},
    {"go mod why", "-m -vendor", OperandRule::Any, OptionStyle::Go},
    {"go tool", "", OperandRule::Sub, OptionStyle::Go},
    {"go tool cover", "-func=read -html=read -o=write -mode={set,count,atomic} -var=word -V",
     OperandRule::None, OptionStyle::Go, false, goCoverIsHarmless},

    // ---- Rust ----
    // cargo: build, check, test, bench, nextest, clippy, fmt, doc, tree,
    // metadata, clean, version. Left out: --config (a runner or wrapper from
    // anywhere), -Z, -C, `cargo +toolchain`, doc --open (a browser), clean
    // --target-dir (deletes any directory); `cargo run`, install, add,
    // update, publish ask.
    {"cargo", TG_BUILD_CARGO_COMMON " -V|--version --list", OperandRule::Sub},
    {"cargo build|b|check|c", TG_BUILD_CARGO_COMPILE, OperandRule::None, OptionStyle::Gnu, false,
     cargoBuildIsHarmless},
    {"cargo test|t|bench", TG_BUILD_CARGO_COMPILE " --no-run --no-fail-fast --doc",
     OperandRule::Any, OptionStyle::Gnu, false, cargoTestIsHarmless},
    {"cargo clippy", TG_BUILD_CARGO_COMPILE " --fix --allow-dirty --allow-staged --no-deps",
     OperandRule::Any, OptionStyle::Gnu, false, cargoClippyIsHarmless},
    {"cargo fmt",
     "--all --check -p|--package=word --manifest-path=inside --message-format={short,human} "
     "-q|--quiet -v|--verbose -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, cargoFmtIsHarmless},
    {"cargo doc|d",
     TG_BUILD_CARGO_COMMON TG_BUILD_CARGO_PACKAGES TG_BUILD_CARGO_FEATURES
     " --no-deps --document-private-items --lib --bins --bin=word --examples --example=word "
     "-r|--release --profile=word --target=word --target-dir=write -j|--jobs=num "
     "--message-format=text --keep-going",
     OperandRule::None, OptionStyle::Gnu, false, cargoBuildIsHarmless},
    {"cargo tree",
     TG_BUILD_CARGO_COMMON TG_BUILD_CARGO_PACKAGES TG_BUILD_CARGO_FEATURES
     " -e|--edges=text -i|--invert=word --depth=num --prefix={depth,indent,none} --no-dedupe "
     "-d|--duplicates --charset={utf8,ascii} -f|--format=text --target=word",
     OperandRule::None, OptionStyle::Gnu, false, cargoBuildIsHarmless},
    {"cargo metadata",
     TG_BUILD_CARGO_COMMON TG_BUILD_CARGO_FEATURES
     " --manifest-path=inside --format-version=num --no-deps --filter-platform=word",
     OperandRule::None},
    {"cargo clean",
     TG_BUILD_CARGO_COMMON
     " -p|--package=word -r|--release --profile=word --target=word --manifest-path=inside "
     "--doc -n|--dry-run",
     OperandRule::None, OptionStyle::Gnu, false, cargoBuildIsHarmless},
    {"cargo version", TG_BUILD_CARGO_COMMON, OperandRule::None},
    // cargo nextest run|list: as cargo test, with nextest's own options
    // (-j is its test threads). Left out: --tool-config-file, --archive-file,
    // --workspace-remap, --cargo-metadata, --binaries-metadata, --target-runner.
    {"cargo nextest", "-V|--version -h|--help", OperandRule::Sub},
    {"cargo nextest run|r|list",
     TG_BUILD_CARGO_COMMON TG_BUILD_CARGO_PACKAGES TG_BUILD_CARGO_FEATURES TG_BUILD_CARGO_TARGETS
     " --cargo-profile=word --build-jobs=num -P|--profile=word -j|--test-threads=num "
     "--retries=num --no-fail-fast --fail-fast --no-capture|--nocapture --failure-output=word "
     "--success-output=word --status-level=word --final-status-level=word --hide-progress-bar "
     "--no-tests={fail,warn,pass} -E|--filterset|--filter-expr=text "
     "--run-ignored={default,only,all} --partition=word --message-format=text "
     "--config-file=inside",
     OperandRule::Any, OptionStyle::Gnu, false, cargoTestIsHarmless},
    // rustc: -C, -L and --target checked (rustcCallIsHarmless). Left out: -Z,
    // --extern (proc-macro crates run while compiling), --sysroot.
    {"rustc",
     "--edition=word -O -g -o=write --out-dir=write --crate-type=word --crate-name=word "
     "--emit=word --test --cfg=text --check-cfg=text -L=text -l=word --target=word "
     "-C|--codegen=text -W|--warn=word -A|--allow=word -D|--deny=word -F|--forbid=word "
     "--force-warn=word --cap-lints=word --print=word --explain=word --error-format=word "
     "--json=text --color={auto,always,never} --remap-path-prefix=text --diagnostic-width=num "
     "-V|--version -v|--verbose -h|--help",
     OperandRule::Any, OptionStyle::Long, true, rustcCallIsHarmless},

    // ---- C and C++ ----
    {"gcc|g++|cc|c++|clang|clang++", TG_BUILD_CC_OPTIONS, OperandRule::Any, OptionStyle::Long, true,
     ccCallIsHarmless},

    // ---- version queries of runtimes: each prints and exits; with no
    // option the runtime would read a program from its input ----
    // node: -v is its version. Left out: -e, -p, -r, --eval, anything else.
    {"node", "-v|--version -h|--help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    // java: -showversion goes on to run a class: left out.
    {"java", "-version|--version -fullversion -help|--help|-h --help-extra|-X", OperandRule::None,
     OptionStyle::Long, false, buildToolPrintsAndExits},
    // ruby: -v prints the version, then reads a script from the input: left out.
    {"ruby", "--version -h|--help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    // perl -v prints its version and exits; -V its configuration.
    {"perl", "-v|--version -V -h|--help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    // php: -i (phpinfo) prints the environment: left out.
    {"php", "-v|--version -h|--help -m", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    {"deno", "-V|--version -h|--help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    // docker: only its version here (its commands have their own rules).
    {"docker", "-v|--version --help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
};

#undef TG_BUILD_PYTEST_OPTIONS
#undef TG_BUILD_UNITTEST_OPTIONS
#undef TG_BUILD_COVERAGE_REPORT
#undef TG_BUILD_COVERAGE_RUN
#undef TG_BUILD_PIP_GENERAL
#undef TG_BUILD_PIP_INSTALL
#undef TG_BUILD_PIP_LIST
#undef TG_BUILD_PIP_FREEZE
#undef TG_BUILD_NPM_COMMON
#undef TG_BUILD_NPM_INSTALL
#undef TG_BUILD_SCRIPT_ARGS
#undef TG_BUILD_SCRIPT_NAMES
#undef TG_BUILD_PNPM_COMMON
#undef TG_BUILD_YARN_COMMON
#undef TG_BUILD_YARN_INSTALL
#undef TG_BUILD_UV_COMMON
#undef TG_BUILD_UV_GROUPS
#undef TG_BUILD_POETRY_COMMON
#undef TG_BUILD_CARGO_COMMON
#undef TG_BUILD_CARGO_PACKAGES
#undef TG_BUILD_CARGO_FEATURES
#undef TG_BUILD_CARGO_TARGETS
#undef TG_BUILD_CARGO_COMPILE
#undef TG_BUILD_GO_FLAGS
#undef TG_BUILD_CC_OPTIONS

}  // namespace

std::span<const ProgramSpec> buildToolSpecs() {
  return kBuildToolSpecs;
}

}  // namespace toolguard::detail
