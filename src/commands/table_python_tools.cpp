// Tables of harmless options: Python's tests, builds and package managers
// (python -m MODULE, pytest, unittest, coverage, pip, tox, nox, uv, poetry,
// pre-commit). Each program's options were read from its `--help` on Debian
// 12 where it is installed (pytest 7.2.1, Python 3.11 (venv, compileall,
// py_compile, json.tool, unittest)), otherwise from the tools' documentation
// (uv, poetry, tox 4, nox, pre-commit, coverage.py, pip 23, pypa/build).
//
// What runs here is the project's own code; what names other code to run, a
// registry, a package by name, an install into the system or a place the
// path rules do not judge does not pass (build_tool_checks.hpp).
#include <algorithm>
#include <string>
#include <string_view>

#include "build_tool_checks.hpp"
#include "program_specs.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"
#include "toolguard/call_view.hpp"

namespace toolguard::detail {
namespace {

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

const ProgramSpec kPythonToolSpecs[] = {
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

};

#undef TG_BUILD_PYTEST_OPTIONS
#undef TG_BUILD_UNITTEST_OPTIONS
#undef TG_BUILD_COVERAGE_REPORT
#undef TG_BUILD_COVERAGE_RUN
#undef TG_BUILD_PIP_GENERAL
#undef TG_BUILD_PIP_INSTALL
#undef TG_BUILD_PIP_LIST
#undef TG_BUILD_PIP_FREEZE
#undef TG_BUILD_UV_COMMON
#undef TG_BUILD_UV_GROUPS
#undef TG_BUILD_POETRY_COMMON

}  // namespace

std::span<const ProgramSpec> pythonToolSpecs() {
  return kPythonToolSpecs;
}

}  // namespace toolguard::detail
