// Tables of harmless options: build systems and their test drivers (make,
// ninja, cmake, ctest, meson, sphinx-build). Each program's options were read
// from its `--help` on Debian 12 where it is installed (GNU Make 4.3, Ninja
// 1.11.1, CMake/CTest 3.25.1), otherwise from the tools' documentation
// (meson, sphinx-build).
//
// What runs here is the project's own code; what names other code to run, a
// registry, a package by name, an install into the system or a place the
// path rules do not judge does not pass (build_tool_checks.hpp).
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "build_tool_checks.hpp"
#include "program_specs.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"
#include "variable_lists.hpp"

namespace toolguard::detail {
namespace {

// ---- helpers of the checks (prefixed: this file is unity-built with others)

bool buildToolIdentifier(std::string_view t) {
  return !t.empty() && !std::isdigit(static_cast<unsigned char>(t[0])) &&
         std::all_of(t.begin(), t.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

// A target that installs into the system or publishes: `make install` writes
// to the prefix (/usr/local unless told), `deploy` and `publish` upload.
bool buildToolInstallsOrPublishes(std::string_view target) {
  return target == "install" || target == "uninstall" || target.starts_with("install-") ||
         target.starts_with("install_") ||
         oneOf(target, {"deploy", "publish", "upload", "dist-upload", "release-upload"});
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

const ProgramSpec kBuildSystemSpecs[] = {
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

};

}  // namespace

std::span<const ProgramSpec> buildSystemSpecs() {
  return kBuildSystemSpecs;
}

}  // namespace toolguard::detail
