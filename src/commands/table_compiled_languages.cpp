// Tables of harmless options: the builds, tests and compilers of compiled
// languages (go, cargo, rustc, gcc and clang; the JVM's are in
// table_jvm_tools.cpp). Each
// program's options were read from its `--help` on Debian 12 where it is
// installed (Go 1.19 `go help build|test|list|mod`, cargo and rustc 1.7x, GCC
// 12 and Clang 14, javac 17, Maven 3.8), otherwise from the tools'
// documentation (Gradle 8, cargo-nextest).
//
// What runs here is the project's own code; what names other code to run, a
// registry, a package by name, an install into the system or a place the
// path rules do not judge does not pass (build_tool_checks.hpp).
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "build_tool_checks.hpp"
#include "program_specs.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

// ---- helpers of the checks (prefixed: this file is unity-built with others)

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

bool ccCallIsHarmless(const TableParse& parse, const CommandScene&) {
  for (const ShellWord& output : parse.valuesOf("-o")) {
    if (output.text.starts_with("bj")) return false;
  }
  return true;
}

// ---- option lists shared by several tables (macros: adjacent literals join)

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

const ProgramSpec kCompiledLanguageSpecs[] = {
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

};

#undef TG_BUILD_CARGO_COMMON
#undef TG_BUILD_CARGO_PACKAGES
#undef TG_BUILD_CARGO_FEATURES
#undef TG_BUILD_CARGO_TARGETS
#undef TG_BUILD_CARGO_COMPILE
#undef TG_BUILD_GO_FLAGS
#undef TG_BUILD_CC_OPTIONS

}  // namespace

std::span<const ProgramSpec> compiledLanguageSpecs() {
  return kCompiledLanguageSpecs;
}

}  // namespace toolguard::detail
