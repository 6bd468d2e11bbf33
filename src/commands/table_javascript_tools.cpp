// Tables of harmless options: JavaScript's package managers, test runners
// and bundlers (npm, pnpm, yarn, bun, tsc, vitest, jest, mocha, ava, karma,
// playwright, vite, webpack, rollup, esbuild, tsup, parcel). npm's options
// were read from `npm --help` (npm 9) on Debian 12, the others' from the
// tools' documentation (pnpm, yarn 1 and 4, bun, vitest, jest, mocha, ava,
// karma, playwright, vite, webpack-cli, rollup, esbuild, tsup, parcel).
//
// What runs here is the project's own code; what names other code to run, a
// registry, a package by name, an install into the system or a place the
// path rules do not judge does not pass (build_tool_checks.hpp).
#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>

#include "build_tool_checks.hpp"
#include "program_specs.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

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

// ---- option lists shared by several tables (macros: adjacent literals join)

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

const ProgramSpec kJavaScriptToolSpecs[] = {
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

};

#undef TG_BUILD_NPM_COMMON
#undef TG_BUILD_NPM_INSTALL
#undef TG_BUILD_SCRIPT_ARGS
#undef TG_BUILD_SCRIPT_NAMES
#undef TG_BUILD_PNPM_COMMON
#undef TG_BUILD_YARN_COMMON
#undef TG_BUILD_YARN_INSTALL

}  // namespace

std::span<const ProgramSpec> javascriptToolSpecs() {
  return kJavaScriptToolSpecs;
}

}  // namespace toolguard::detail
