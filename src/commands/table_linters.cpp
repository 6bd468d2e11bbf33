// Tables of harmless options: formatters and linters. Each program's options
// were read from: `--help` of the programs on Debian 12 (gofmt of Go 1.19,
// clang-format and clang-tidy 14, cppcheck 2.10, shellcheck 0.9) and rustfmt
// 1.9; ruff's clap definitions (crates/ruff/src/args.rs) and its
// docs/configuration.md; the documented command lines of the others (black,
// isort, flake8, pylint, mypy, pyright, pyflakes, pycodestyle, autopep8, yapf,
// eslint, prettier, biome, stylelint, markdownlint-cli, markdownlint-cli2,
// goimports, golangci-lint v1 and v2, staticcheck, shfmt, yamllint, hadolint,
// actionlint, taplo).
//
// They read and rewrite the project's files in place; what they must not do
// without a question is run other programs, load plugins or code named on the
// command line, read configuration from outside the workspace, or write
// where the path rules cannot see it.
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>

#include "program_specs.hpp"
#include "shell_facts.hpp"

namespace toolguard::detail {
namespace {

// ---- checks of what a table cannot say -------------------------------------

// A path written out that resolves inside the workspace.
bool pathInsideWorkspace(const std::string& path, const CommandScene& scene) {
  if (path.empty()) return false;
  return scene.view.insideWorkspace(resolvedPath(ShellWord{path, false, path}, scene));
}

bool oneOfLower(const std::string& text, std::initializer_list<std::string_view> names) {
  const std::string lower = asciiLower(text);
  return std::find(names.begin(), names.end(), lower) != names.end();
}

// ruff's --config takes a path or an inline `KEY = VALUE` TOML override; an
// override can move the cache (`cache-dir = "/elsewhere"`) or extend another
// configuration. An override always has `=`, a path here never.
bool checkRuffConfig(const TableParse& parse, const CommandScene&) {
  const auto values = parse.valuesOf("--config");
  return std::none_of(values.begin(), values.end(), [](const ShellWord& v) {
    return v.dynamic || v.text.find('=') != std::string::npos;
  });
}

// clang-format's style (also clang-tidy's --format-style): a predefined name,
// `file`, inline YAML (`{BasedOnStyle: llvm}`), or `file:PATH`, which reads
// PATH (and prints parts of it when it is not YAML): PATH must be inside.
bool llvmStyleKnown(const ShellWord& v, const CommandScene& scene) {
  if (v.dynamic) return false;
  if (oneOfLower(v.text, {"llvm", "gnu", "google", "chromium", "microsoft", "mozilla", "webkit",
                          "none", "file", "inheritparentconfig"})) {
    return true;
  }
  if (v.text.starts_with('{')) return true;
  if (asciiLower(v.text.substr(0, 5)) == "file:") {
    return pathInsideWorkspace(v.text.substr(5), scene);
  }
  return false;
}

bool checkClangFormat(const TableParse& parse, const CommandScene& scene) {
  for (const char* option : {"-style", "-fallback-style"}) {
    for (const ShellWord& v : parse.valuesOf(option)) {
      if (!llvmStyleKnown(v, scene)) return false;
    }
  }
  return true;
}

// One compiler argument after clang-tidy's `--`: only those that set the
// language, defines, include directories and warnings. Not -include (reads
// any file into the diagnostics), -Xclang/-fplugin (load plugins), -Wp,/-Wl,
// (pass options on), -o, or anything else.
bool safeCompileArgument(const std::string& a) {
  for (std::string_view prefix :
       {"-std=", "--std=", "-I", "-D", "-U", "-isystem", "-iquote", "-idirafter", "-x", "-O"}) {
    if (a.starts_with(prefix)) return true;
  }
  if (a.starts_with("-W")) {
    return !a.starts_with("-Wp,") && !a.starts_with("-Wl,") && !a.starts_with("-Wa,");
  }
  return oneOfLower(a, {"-g", "-pedantic", "-pedantic-errors", "-ansi", "-nostdinc", "-nostdinc++",
                        "-pthread", "-c", "-fno-exceptions", "-fexceptions", "-fno-rtti", "-frtti",
                        "-fpic", "-fopenmp", "-fms-extensions", "-fcoroutines", "-fsyntax-only"});
}

// clang-tidy: its format style, and the compiler arguments after `--` (the
// only operands that can start with `-`).
bool checkClangTidy(const TableParse& parse, const CommandScene& scene) {
  for (const ShellWord& v : parse.valuesOf("-format-style")) {
    if (!llvmStyleKnown(v, scene)) return false;
  }
  return std::all_of(parse.operands.begin(), parse.operands.end(), [](const ShellWord& w) {
    if (wordIsFixedOperand(w)) return true;
    return !w.dynamic && safeCompileArgument(w.text);
  });
}

// yapf's --style: a predefined style, inline `{key: value}`, or a style file
// inside the workspace.
bool checkYapf(const TableParse& parse, const CommandScene& scene) {
  const auto values = parse.valuesOf("--style");
  return std::all_of(values.begin(), values.end(), [&](const ShellWord& v) {
    if (v.dynamic) return false;
    if (oneOfLower(v.text, {"pep8", "google", "facebook", "yapf"})) return true;
    if (v.text.starts_with('{')) return true;
    return pathInsideWorkspace(v.text, scene);
  });
}

// ---- option lists shared by a program and `python -m PROGRAM` ---------------

// ruff (clap; `@FILE` reads more arguments). Not: `--watch` (runs until
// stopped), `clean` (deletes caches), `server`, `analyze`.
constexpr const char kRuff[] =
    "-v|--verbose -q|--quiet -s|--silent --isolated -h|--help -V|--version";
constexpr const char kRuffCheck[] =
    "--fix --no-fix --unsafe-fixes --no-unsafe-fixes --show-fixes --no-show-fixes --diff "
    "--fix-only --no-fix-only --ignore-noqa --add-noqa?=text "
    "--output-format={concise,full,json,json-lines,junit,grouped,github,gitlab,pylint,rdjson,"
    "azure,sarif,text} "
    "-o|--output-file=write --target-version=word --preview --no-preview --extension=text "
    "--statistics --show-files --show-settings --select=text --ignore=text --extend-select=text "
    "--extend-ignore=text --per-file-ignores=text --extend-per-file-ignores=text --fixable=text "
    "--unfixable=text --extend-fixable=text --extend-unfixable=text --exclude=text "
    "--extend-exclude=text --respect-gitignore --no-respect-gitignore --force-exclude "
    "--no-force-exclude --line-length=num --dummy-variable-rgx=text -n|--no-cache "
    "--cache-dir=write --stdin-filename=text -e|--exit-zero --exit-non-zero-on-fix "
    "--config=inside --isolated -v|--verbose -q|--quiet -s|--silent -h|--help";
constexpr const char kRuffFormat[] =
    "--check --diff --config=inside --extension=text --target-version=word --preview "
    "--no-preview -n|--no-cache --cache-dir=write --isolated --stdin-filename=text "
    "--respect-gitignore --no-respect-gitignore --exclude=text --extend-exclude=text "
    "--force-exclude --no-force-exclude --line-length=num --range=text "
    "--exit-non-zero-on-format --exit-non-zero-on-fix -v|--verbose -q|--quiet -s|--silent "
    "-h|--help";
constexpr const char kRuffRule[] =
    "--all --output-format={text,json} -v|--verbose -q|--quiet -s|--silent -h|--help";
constexpr const char kRuffListing[] =
    "--output-format={text,json} -v|--verbose -q|--quiet -s|--silent -h|--help";

// black (click). Its cache is its own directory.
constexpr const char kBlack[] =
    "-c|--code=text -l|--line-length=num -t|--target-version=word --pyi --ipynb "
    "--python-cell-magics=text -x|--skip-source-first-line -S|--skip-string-normalization "
    "-C|--skip-magic-trailing-comma --preview --unstable --enable-unstable-feature=word "
    "--check --diff --color --no-color --line-ranges=text --fast --safe "
    "--required-version=word --include=text --exclude=text --extend-exclude=text "
    "--force-exclude=text --stdin-filename=text -W|--workers=num -q|--quiet -v|--verbose "
    "--config=inside --version -h|--help";

// isort (argparse). Not: --formatter and --sort-order (name plugins), --interactive,
// --virtual-env/--conda-env (another environment), --ext-format.
constexpr const char kIsort[] =
    "-V|--version --vn|--version-number -v|--verbose --only-modified|--om --dedup-headings "
    "-q|--quiet -d|--stdout --overwrite-in-place --show-config --show-files --df|--diff "
    "-c|--check-only|--check --ws|--ignore-whitespace "
    "--sp|--settings-path|--settings-file|--settings=inside --cr|--config-root=inside "
    "--resolve-all-configs --profile=word -j|--jobs?=num --ac|--atomic --format-error=text "
    "--format-success=text --sort-reexports --filter-files -s|--skip=text --extend-skip=text "
    "--sg|--skip-glob=text --extend-skip-glob=text --gitignore|--skip-gitignore "
    "--ext|--extension|--supported-extension=word --blocked-extension=word "
    "--dont-follow-links --filename=text --allow-root -a|--add-import=text "
    "--append|--append-only --af|--force-adds --rm|--remove-import=text --float-to-top "
    "--dont-float-to-top --ca|--combine-as --cs|--combine-star -e|--balanced "
    "--ff|--from-first --fgw|--force-grid-wrap?=num -i|--indent=text "
    "--lai|--lines-after-imports=num --lbt|--lines-between-types=num --le|--line-ending=text "
    "--ls|--length-sort --lss|--length-sort-straight -m|--multi-line=word "
    "-n|--ensure-newline-before-comments --nis|--no-inline-sort --ot|--order-by-type "
    "--dt|--dont-order-by-type --rr|--reverse-relative --reverse-sort "
    "--sl|--force-single-line-imports --nsl|--single-line-exclusions=text "
    "--tc|--trailing-comma --up|--use-parentheses -l|-w|--line-length|--line-width=num "
    "--wl|--wrap-length=num --case-sensitive --remove-redundant-aliases --honor-noqa "
    "--treat-comment-as-code=text --treat-all-comment-as-code --color --star-first "
    "--split-on-trailing-comment --sd|--section-default=word --only-sections|--os "
    "--ds|--no-sections --fas|--force-alphabetical-sort --fss|--force-sort-within-sections "
    "--hcss|--honor-case-in-force-sorted-sections "
    "--srss|--sort-relative-in-force-sorted-sections "
    "--fass|--force-alphabetical-sort-within-sections -t|--top=text "
    "--combine-straight-imports|--csi --nlb|--no-lines-before=text --src|--src-path=tree "
    "-b|--builtin=text --extra-builtin=text -f|--future=text -o|--thirdparty=text "
    "-p|--project=text --known-local-folder=text --py|--python-version=word -h|--help";

// flake8 (with a few options of common plugins). Plugins come from the
// installed packages; --enable-extensions only turns on installed ones.
constexpr const char kFlake8[] =
    "-v|--verbose -q|--quiet --output-file=write --tee --append-config=inside --config=inside "
    "--isolated --enable-extensions=text --require-plugins=text --color={auto,always,never} "
    "--count --exclude=text --extend-exclude=text --filename=text --stdin-display-name=text "
    "--format=text --hang-closing --indent-size=num --max-line-length=num "
    "--max-doc-length=num --select=text --extend-select=text --ignore=text "
    "--extend-ignore=text --per-file-ignores=text --disable-noqa --show-source "
    "--no-show-source --statistics --exit-zero -j|--jobs=word --benchmark --bug-report "
    "--max-complexity=num --doctests --builtins=text --docstring-convention=word "
    "--import-order-style=word --application-import-names=text --inline-quotes=word "
    "--version -h|--help";

// pylint. Not: --load-plugins, --init-hook (runs Python code), --extension-pkg-allow-list
// and --unsafe-load-any-extension (import C extensions), a reporter class as output format.
constexpr const char kPylint[] =
    "--rcfile=inside -j|--jobs=num -d|--disable=text -e|--enable=text -E|--errors-only "
    "-v|--verbose -s|--score={y,n,yes,no,true,false} -r|--reports={y,n,yes,no,true,false} "
    "-f|--output-format={text,parseable,colorized,json,json2,msvs,github} --output=write "
    "--fail-under=num --fail-on=text --exit-zero --max-line-length=num --ignore=text "
    "--ignore-patterns=text --ignore-paths=text --recursive={y,n,yes,no,true,false} "
    "--py-version=word --persistent={y,n,yes,no,true,false} --source-roots=text "
    "--msg-template=text --ignored-modules=text --ignored-classes=text --good-names=text "
    "--bad-names=text --clear-cache-post-run={y,n,yes,no,true,false} --from-stdin "
    "--prefer-stubs={y,n,yes,no,true,false} --suggestion-mode={y,n,yes,no,true,false} "
    "--limit-inference-results=num --max-args=num --max-positional-arguments=num "
    "--max-locals=num --max-returns=num --max-branches=num --max-statements=num "
    "--max-attributes=num --min-public-methods=num --max-public-methods=num "
    "--max-module-lines=num --min-similarity-lines=num --docstring-min-length=num "
    "--generate-rcfile --generate-toml-config --list-msgs --list-msgs-enabled "
    "--list-groups --list-conf-levels --list-extensions --full-documentation "
    "--help-msg=text --long-help -h|--help --version";

// mypy (`@FILE` reads more arguments). Not: --python-executable (runs it),
// --install-types (installs packages), --custom-typeshed-dir, --shadow-file, --pdb.
constexpr const char kMypy[] =
    "--strict --config-file=inside --cache-dir=write --no-incremental --incremental "
    "--sqlite-cache --cache-fine-grained --skip-cache-mtime-checks --skip-version-check "
    "--ignore-missing-imports --follow-imports={normal,silent,skip,error} "
    "--follow-untyped-imports --python-version=word --platform=word --always-true=word "
    "--always-false=word --disallow-any-unimported --disallow-any-expr "
    "--disallow-any-decorated --disallow-any-explicit --disallow-any-generics "
    "--allow-any-generics --disallow-subclassing-any --allow-subclassing-any "
    "--disallow-untyped-calls --allow-untyped-calls --untyped-calls-exclude=text "
    "--disallow-untyped-defs --allow-untyped-defs --disallow-incomplete-defs "
    "--allow-incomplete-defs --check-untyped-defs --no-check-untyped-defs "
    "--disallow-untyped-decorators --allow-untyped-decorators --implicit-optional "
    "--no-implicit-optional --strict-optional --no-strict-optional --warn-redundant-casts "
    "--no-warn-redundant-casts --warn-unused-ignores --no-warn-unused-ignores "
    "--no-warn-no-return --warn-no-return --warn-return-any --no-warn-return-any "
    "--warn-unreachable --no-warn-unreachable --warn-unused-configs "
    "--no-warn-unused-configs --warn-incomplete-stub --allow-untyped-globals "
    "--allow-redefinition --allow-redefinition-new --no-allow-redefinition "
    "--local-partial-types --no-implicit-reexport --implicit-reexport --strict-equality "
    "--no-strict-equality --strict-bytes --extra-checks --strict-concatenate "
    "--enable-error-code=text --disable-error-code=text --enable-incomplete-feature=word "
    "--explicit-package-bases --no-explicit-package-bases --namespace-packages "
    "--no-namespace-packages --no-site-packages --no-silence-site-packages --exclude=text "
    "--exclude-gitignore --show-error-context --hide-error-context --show-column-numbers "
    "--hide-column-numbers --show-error-end --hide-error-end --show-error-codes "
    "--hide-error-codes --show-error-code-links --pretty --no-pretty --color-output "
    "--no-color-output --error-summary --no-error-summary --show-absolute-path "
    "--soft-error-limit=num --show-traceback --tb --raise-exceptions "
    "--force-uppercase-builtins --force-union-syntax --fast-module-lookup "
    "--no-fast-module-lookup --scripts-are-modules --non-interactive "
    "--junit-xml=write --html-report=write --txt-report=write --linecount-report=write "
    "--linecoverage-report=write --lineprecision-report=write --any-exprs-report=write "
    "--cobertura-xml-report=write --xml-report=write --xslt-html-report=write "
    "--xslt-txt-report=write -O|--output={json} -m|--module=word -p|--package=word "
    "-c|--command=text -v|--verbose -V|--version -h|--help";

// pyflakes: no options but these.
constexpr const char kPyflakes[] = "--version -h|--help";

const ProgramSpec kLinterSpecs[] = {
    // ---- Python --------------------------------------------------------------
    // ruff: the linter and formatter; `check --fix` and `format` rewrite the
    // files named. --config is a path inside (its inline TOML form is not known).
    {"ruff", kRuff, OperandRule::Sub, OptionStyle::Gnu, true},
    {"ruff check", kRuffCheck, OperandRule::Any, OptionStyle::Gnu, true, checkRuffConfig},
    {"ruff format", kRuffFormat, OperandRule::Any, OptionStyle::Gnu, true, checkRuffConfig},
    {"ruff rule", kRuffRule, OperandRule::Any, OptionStyle::Gnu, true},
    {"ruff version|linter|config", kRuffListing, OperandRule::Any, OptionStyle::Gnu, true},
    {"ruff help", "-h|--help", OperandRule::Any, OptionStyle::Gnu, true},
    {"python -m ruff", kRuff, OperandRule::Sub, OptionStyle::Gnu, true},
    {"python -m ruff check", kRuffCheck, OperandRule::Any, OptionStyle::Gnu, true, checkRuffConfig},
    {"python -m ruff format", kRuffFormat, OperandRule::Any, OptionStyle::Gnu, true,
     checkRuffConfig},
    {"python -m ruff rule", kRuffRule, OperandRule::Any, OptionStyle::Gnu, true},
    {"python -m ruff version|linter|config", kRuffListing, OperandRule::Any, OptionStyle::Gnu,
     true},
    // black: formats the files named (or -c CODE to stdout).
    {"black", kBlack},
    // autoflake (2.x): removes unused imports and variables in place.
    {"autoflake",
     "-i|--in-place -c|--check --check-diff -r|--recursive --exclude=text --imports=text "
     "--expand-star-imports --remove-all-unused-imports --ignore-init-module-imports "
     "--remove-duplicate-keys --remove-unused-variables --remove-rhs-for-unused-variables "
     "--ignore-pass-statements --ignore-pass-after-docstring -s|--stdout -q|--quiet "
     "-j|--jobs=num -v|--verbose --version -h|--help"},
    {"python -m black", kBlack},
    // isort: sorts the imports of the files named.
    {"isort", kIsort},
    {"python -m isort", kIsort},
    // flake8: reports only (or into --output-file).
    {"flake8", kFlake8},
    {"python -m flake8", kFlake8},
    // pylint: reports only.
    {"pylint", kPylint},
    {"python -m pylint", kPylint},
    // mypy: type checks; writes its cache (.mypy_cache or --cache-dir) and reports.
    {"mypy", kMypy, OperandRule::Any, OptionStyle::Gnu, true},
    {"python -m mypy", kMypy, OperandRule::Any, OptionStyle::Gnu, true},
    // pyflakes
    {"pyflakes", kPyflakes},
    {"python -m pyflakes", kPyflakes},
    // pyright: type checks. Not: --pythonpath (runs that interpreter), --venvpath,
    // --createstub and --writebaseline (write files), -w/--watch.
    {"pyright",
     "-h|--help --version --outputjson --level={error,warning} -p|--project=inside "
     "--pythonplatform={Darwin,Linux,Windows,All} --pythonversion=word --skipunannotated "
     "--stats --dependencies --verbose --warnings --ignoreexternal --verifytypes=word "
     "--threads?=num -t|--typeshedpath=tree"},
    // pycodestyle: reports only (optparse: abbreviations are not known).
    {"pycodestyle",
     "-v|--verbose -q|--quiet -r|--repeat --first --exclude=text --filename=text --select=text "
     "--ignore=text --show-source --show-pep8 --statistics --count --max-line-length=num "
     "--max-doc-length=num --indent-size=num --hang-closing --format=text --diff --benchmark "
     "--config=inside --version -h|--help"},
    // autopep8: -i rewrites the files named. Not: --line-range (two values).
    {"autopep8",
     "-h|--help --version -v|--verbose -d|--diff -i|--in-place --global-config=inside "
     "--ignore-local-config -r|--recursive -j|--jobs=num -p|--pep8-passes=num -a|--aggressive "
     "--experimental --exclude=text --list-fixes --ignore=text --select=text "
     "--max-line-length=num --indent-size=num --hang-closing --exit-code"},
    // yapf: -i rewrites the files named; --style is checked (a name, inline, or a file inside).
    {"yapf",
     "-h|--help -v|--version -d|--diff -i|--in-place -q|--quiet -r|--recursive -l|--lines=text "
     "-e|--exclude=text --style=text --style-help --no-local-style -p|--parallel "
     "-m|--print-modified --verbose",
     OperandRule::Any, OptionStyle::Gnu, false, checkYapf},

    // ---- JavaScript, CSS, Markdown --------------------------------------------
    // eslint: -c is the project's own config (JavaScript) inside. Not: --rulesdir,
    // --plugin, --parser, --parser-options, --resolve-plugins-relative-to (load code),
    // --init, --inspect-config, --mcp, --env-info (run npm/npx), a formatter by path.
    {"eslint",
     "-c|--config=inside --no-config-lookup --no-eslintrc --env=text --ext=text --global=text "
     "--rule=text --fix --fix-dry-run --fix-type=text --ignore-path=read --no-ignore "
     "--ignore-pattern=text --stdin --stdin-filename=text --quiet --max-warnings=num "
     "-o|--output-file=write "
     "-f|--format={stylish,json,json-with-metadata,html,compact,unix,visualstudio,checkstyle,"
     "junit,tap,jslint-xml} "
     "--color --no-color --no-inline-config --report-unused-disable-directives "
     "--report-unused-disable-directives-severity={off,warn,error,0,1,2} "
     "--report-unused-inline-configs={off,warn,error,0,1,2} --cache --cache-file=write "
     "--cache-location=write --cache-strategy={metadata,content} --debug -h|--help "
     "-v|--version --print-config=read --no-error-on-unmatched-pattern --exit-on-fatal-error "
     "--no-warn-ignored --pass-on-no-patterns --stats --flag=word --concurrency=word"},
    // prettier: --write rewrites the files named. Not: --plugin (loads code), a parser
    // other than the built-in ones.
    {"prettier",
     "-w|--write -c|--check -l|--list-different --config=inside --no-config "
     "--config-precedence={cli-override,file-override,prefer-file} --no-editorconfig "
     "--find-config-path=read --ignore-path=read -u|--ignore-unknown "
     "--no-error-on-unmatched-pattern --log-level={silent,error,warn,log,debug} "
     "--loglevel={silent,error,warn,log,debug} --cache --cache-location=write "
     "--cache-strategy={metadata,content} --stdin-filepath=text "
     "--parser={flow,babel,babel-flow,babel-ts,typescript,acorn,espree,meriyah,css,less,scss,"
     "json,json5,jsonc,json-stringify,graphql,markdown,mdx,vue,yaml,glimmer,html,angular,lwc} "
     "--arrow-parens={always,avoid} --bracket-same-line --no-bracket-spacing "
     "--embedded-language-formatting={auto,off} --end-of-line={lf,crlf,cr,auto} "
     "--experimental-ternaries --experimental-operator-position={start,end} "
     "--html-whitespace-sensitivity={css,strict,ignore} --jsx-single-quote "
     "--object-wrap={preserve,collapse} --print-width=num --prose-wrap={always,never,preserve} "
     "--quote-props={as-needed,consistent,preserve} --no-semi --single-attribute-per-line "
     "--single-quote --tab-width=num --trailing-comma={all,es5,none} --use-tabs "
     "--vue-indent-script-and-style --cursor-offset=num --range-start=num --range-end=num "
     "--insert-pragma --require-pragma --check-ignore-pragma --color --no-color "
     "--file-info=read --support-info --with-node-modules -v|--version -h|--help"},
    // biome: check/lint/format (--write rewrites the files named), ci, version, explain.
    // Not: --use-server, --changed/--staged/--since (run git), init, migrate, start, rage.
    {"biome", "-h|--help -V|--version", OperandRule::Sub},
    {"biome check|lint|format|ci",
     "--write --fix --unsafe --apply --apply-unsafe --formatter-enabled={true,false} "
     "--linter-enabled={true,false} --assist-enabled={true,false} "
     "--enforce-assist={true,false} --organize-imports-enabled={true,false} --only=word "
     "--skip=word --config-path=inside --max-diagnostics=word --skip-parse-errors "
     "--skip-errors --no-errors-on-unmatched --error-on-warnings "
     "--reporter={json,json-pretty,github,junit,summary,gitlab,checkstyle,rdjson,sarif,default} "
     "--log-level={none,debug,info,warn,error} --log-kind={pretty,compact,json} "
     "--diagnostic-level={info,warn,error} --colors={off,force} --verbose "
     "--files-max-size=num --files-ignore-unknown={true,false} --vcs-enabled={true,false} "
     "--vcs-client-kind={git} --vcs-use-ignore-file={true,false} --stdin-file-path=text "
     "--indent-style={tab,space} --indent-width=num --line-width=num "
     "--line-ending={lf,crlf,cr,auto} --threads=num -h|--help"},
    {"biome version", "--colors={off,force} -h|--help"},
    {"biome explain", "--colors={off,force} -h|--help"},
    // stylelint: --fix rewrites the files named. Not: --custom-syntax, --custom-formatter
    // (load modules), --config-basedir (where modules are loaded from), --globby-options.
    {"stylelint",
     "-c|--config=inside --print-config=read -i|--ignore-path=read --ip|--ignore-pattern=text "
     "--stdin --stdin-filename=text --id|--ignore-disables --fix?={lax,strict} --cache "
     "--cache-location=write --cache-strategy={metadata,content} "
     "-f|--formatter={compact,github,json,string,tap,unix,verbose} -q|--quiet "
     "--quiet-deprecation-warnings --color --no-color --rd|--report-needless-disables "
     "--risd|--report-invalid-scope-disables --rdd|--report-descriptionless-disables "
     "--mw|--max-warnings=num -o|--output-file=write --aei|--allow-empty-input "
     "--di|--disable-default-ignores --validate --no-validate -h|--help -v|--version"},
    // markdownlint-cli (command markdownlint). Not: -r/--rules (loads custom rule modules).
    {"markdownlint|markdownlint-cli",
     "-c|--config=inside --configPointer=text -d|--dot -f|--fix -i|--ignore=text -j|--json "
     "-o|--output=write -p|--ignore-path=read -q|--quiet -s|--stdin --enable=text "
     "--disable=text -h|--help -V|--version"},
    // markdownlint-cli2: operands are globs; --fix rewrites the files found.
    {"markdownlint-cli2", "--config=inside --fix --format --no-globs --help"},

    // ---- Go ------------------------------------------------------------------
    // gofmt: -w rewrites the files named; -r is a rewrite rule (text). Not: -cpuprofile.
    {"gofmt", "-l -w -d -s -e -r=text -h|-help", OperandRule::Any, OptionStyle::Long},
    // goimports. Not: -cpuprofile, -memprofile, -trace (write files).
    {"goimports", "-l -w -d -e -v -local=text -format-only -srcdir=tree -h|-help", OperandRule::Any,
     OptionStyle::Long},
    // golangci-lint (v1 and v2). Not: --new/--new-from-rev/--new-from-merge-base (run git),
    // --modules-download-mode=mod, custom, migrate, cache clean, config verify (fetches).
    {"golangci-lint", "--color={always,auto,never} -h|--help -v|--verbose --version",
     OperandRule::Sub},
    {"golangci-lint run",
     "-c|--config=inside --no-config --default={standard,all,none,fast} -D|--disable=text "
     "-E|--enable=text --enable-only=text --enable-all --disable-all --fast --fast-only "
     "-p|--presets=text -j|--concurrency=num --modules-download-mode={readonly,vendor} "
     "--issues-exit-code=num --build-tags=text --timeout=word --deadline=word "
     "--tests?={true,false} --allow-parallel-runners --allow-serial-runners "
     "--path-prefix=text --path-mode=word --show-stats --max-issues-per-linter=num "
     "--max-same-issues=num --uniq-by-line?={true,false} --whole-files --fix --go=word "
     "--out-format={colored-line-number,line-number,json,colored-tab,tab,checkstyle,"
     "code-climate,junit-xml,junit-xml-extended,github-actions,teamcity,sarif,html} "
     "--print-issued-lines?={true,false} --print-linter-name?={true,false} --sort-results "
     "--skip-dirs=text --skip-files=text --skip-dirs-use-default?={true,false} "
     "--exclude=text --exclude-use-default?={true,false} --exclude-dirs=text "
     "--exclude-files=text --exclude-generated=word "
     "--output.text.path=write --output.text.print-linter-name?={true,false} "
     "--output.text.print-issued-lines?={true,false} --output.text.colors?={true,false} "
     "--output.json.path=write --output.tab.path=write "
     "--output.tab.print-linter-name?={true,false} --output.tab.colors?={true,false} "
     "--output.html.path=write --output.checkstyle.path=write "
     "--output.code-climate.path=write --output.junit-xml.path=write "
     "--output.junit-xml.extended?={true,false} --output.teamcity.path=write "
     "--output.sarif.path=write --cpu-profile-path=write --mem-profile-path=write "
     "--trace-path=write -v|--verbose --color={always,auto,never} -h|--help"},
    {"golangci-lint fmt",
     "-c|--config=inside --no-config -E|--enable=text -d|--diff --diff-colored --stdin "
     "-v|--verbose --color={always,auto,never} -h|--help"},
    {"golangci-lint linters|formatters",
     "-c|--config=inside --no-config -E|--enable=text -D|--disable=text --enable-only=text "
     "--enable-all --disable-all --default={standard,all,none,fast} --fast --fast-only "
     "-p|--presets=text --json -v|--verbose --color={always,auto,never} -h|--help"},
    {"golangci-lint version",
     "--format={short,json} --json --short --debug -v|--verbose --color={always,auto,never} "
     "-h|--help"},
    {"golangci-lint help", "-h|--help"},
    {"golangci-lint config", "--color={always,auto,never} -h|--help -v|--verbose",
     OperandRule::Sub},
    {"golangci-lint config path",
     "-c|--config=inside --no-config --json -v|--verbose --color={always,auto,never} "
     "-h|--help"},
    {"golangci-lint cache", "--color={always,auto,never} -h|--help -v|--verbose", OperandRule::Sub},
    {"golangci-lint cache status", "--color={always,auto,never} -h|--help -v|--verbose"},
    // staticcheck. Not: -matrix (build flags from stdin), -debug.* profiles (write files).
    {"staticcheck",
     "-checks=text -explain=word -f={text,stylish,json,binary,null,sarif} -fail=text -go=word "
     "-list-checks -merge -show-ignored -tags=text -tests -version -debug.version -h|-help",
     OperandRule::Any, OptionStyle::Long},

    // ---- Rust ----------------------------------------------------------------
    // rustfmt: rewrites the files named. Not: --backup (writes .bk files), --print-config
    // (writes a file), --config (inline settings).
    {"rustfmt",
     "--check --emit={files,stdout} --config-path=inside --edition={2015,2018,2021,2024} "
     "--style-edition={2015,2018,2021,2024} --color={always,never,auto} "
     "-l|--files-with-diff -v|--verbose -q|--quiet -V|--version -h|--help?={config,file-lines}"},

    // ---- C and C++ -----------------------------------------------------------
    // clang-format (LLVM options: one or two dashes; `@FILE` reads more). -i rewrites the
    // files named; the style is checked (file:PATH inside). Not: --files (a list of files
    // to edit read from a file).
    {"clang-format",
     "-i -n -dry-run -Werror -Wno-error={unknown} -assume-filename=text -cursor=num "
     "-dump-config -fallback-style=text -ferror-limit=num -length=num -lines=num -offset=num "
     "-output-replacements-xml -qualifier-alignment=word -sort-includes -style=text "
     "-fail-on-incomplete-format -verbose -help -help-list -help-hidden -help-list-hidden "
     "-version",
     OperandRule::Any, OptionStyle::Long, true, checkClangFormat},
    // clang-tidy: -p is the build directory (compile_commands.json) inside; after `--`
    // only compiler arguments that set defines, includes, language and warnings. Not: --load
    // (a plugin), --config and --extra-arg(-before) (compiler arguments that load plugins
    // or read any file), --vfsoverlay.
    {"clang-tidy",
     "-checks=text -config-file=inside -p=inside -fix -fix-errors -fix-notes "
     "-format-style=text -export-fixes=write -header-filter=text -exclude-header-filter=text "
     "-line-filter=text -list-checks -dump-config -explain-config -quiet -use-color "
     "-warnings-as-errors=text -system-headers -allow-no-checks -verify-config "
     "-enable-check-profile -store-check-profile=write -help -help-list -help-hidden "
     "-version",
     OperandRule::Any, OptionStyle::Long, true, checkClangTidy},
    // cppcheck: reports only. Not: --addon and --addon-python (run Python), --clang (runs
    // clang), --dump (writes files beside the sources), --file-list, --include,
    // --includes-file (more files read into its reports).
    {"cppcheck",
     "--enable=text --disable=text --std=word -I=tree -D=text -U=text -i=text "
     "--suppress=text --suppressions-list=read --suppress-xml=read --inline-suppr "
     "--error-exitcode=num -q|--quiet --template=text --template-location=text -j=num -l=num "
     "--project=inside --project-configuration=text --output-file=write --xml "
     "--xml-version=num -f|--force --max-configs=num --platform=word --language=word -x=word "
     "--library=word --check-config --check-library --check-level={normal,exhaustive} "
     "--checkers-report=write --cppcheck-build-dir=write --inconclusive --max-ctu-depth=num "
     "--report-progress -v|--verbose --version -h|--help --doc --errorlist "
     "--plist-output=write --file-filter=text --exitcode-suppressions=read -E "
     "--config-exclude=tree --config-excludes-file=read --showtime=word --rule=text "
     "--rule-file=read"},

};

}  // namespace

std::span<const ProgramSpec> linterSpecs() {
  return kLinterSpecs;
}

}  // namespace toolguard::detail
