// Ordinary work that needs no question: read-only tools, everyday git,
// builds and tests, formatters and linters, file operations inside the
// workspace, version and help queries. Every option that runs another
// program, writes elsewhere or changes the system takes the allow away.
#include "safe_commands.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "command_accesses.hpp"
#include "command_args.hpp"
#include "command_paths.hpp"
#include "name_lists.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

using Words = std::span<const ShellWord>;

// True when a word is one of the options, or `--option=value` of a long one.
bool hasOption(Words words, std::initializer_list<std::string_view> options) {
  return std::any_of(words.begin(), words.end(), [&](const ShellWord& w) {
    return std::any_of(options.begin(), options.end(), [&](std::string_view o) {
      if (w.text == o) return true;
      // `--option=value`, and Go's `-option=value`.
      return o.size() > 2 && w.text.size() > o.size() && w.text.starts_with(o) &&
             w.text[o.size()] == '=';
    });
  });
}

bool isReadOnlyTool(std::string_view name) {
  static const std::set<std::string, std::less<>> kNames = {
      "ls",        "cat",       "head",      "tail",      "wc",       "grep",     "egrep",
      "fgrep",     "rg",        "ag",        "ack",       "echo",     "printf",   "pwd",
      "which",     "whereis",   "type",      "diff",      "cmp",      "sort",     "uniq",
      "stat",      "file",      "du",        "df",        "tree",     "realpath", "readlink",
      "dirname",   "basename",  "date",      "whoami",    "id",       "uname",    "hostname",
      "printenv",  "true",      "false",     "test",      "[",        "[[",       "cd",
      "pushd",     "popd",      "cut",       "tr",        "tac",      "nl",       "jq",
      "column",    "paste",     "join",      "comm",      "seq",      "sleep",    "sha1sum",
      "sha256sum", "sha512sum", "md5sum",    "cksum",     "xxd",      "od",       "hexdump",
      "strings",   "fold",      "fmt",       "expand",    "unexpand", "less",     "more",
      "locale",    "nproc",     "uptime",    "free",      "ps",       "pgrep",    "lsof",
      "man",       "help",      "yes",       "read",      "export",   "local",    "declare",
      "typeset",   "set",       "shopt",     "alias",     "command",  "hash",     "getconf",
      "tput",      "clear",     "stty",      "bc",        "expr",     "fd",       "fdfind",
      "exa",       "eza",       "bat",       "batcat",    "delta",    "diff3",    "sdiff",
      "look",      "rev",       "shuf",      "tsort",     "numfmt",   "pr",       "base64",
      "base32",    "b2sum",     "sha224sum", "sha384sum", "env",      "wait",     "times",
      "umask"};
  return kNames.count(name) != 0;
}

// Options of read-only tools that run another program or change the system.
bool readOnlyToolIsHarmless(std::string_view name, const SimpleCommand& c) {
  const Words args = c.arguments();
  const CommandArgs a = parseArgs(args);
  if (name == "sort") return !hasOption(args, {"--compress-program"});
  if (name == "date") return !a.hasAny("s", {"--set"});
  if (name == "hostname") return a.operands.empty() && !a.hasAny("bF", {"--file", "--boot"});
  if (name == "man") return !hasOption(args, {"-P", "--pager", "-H", "--html", "--browser"});
  if (name == "bat" || name == "batcat") return !hasOption(args, {"--pager"});
  if (name == "rg") return !hasOption(args, {"--pre", "--search-zip", "-z"});
  if (name == "fd" || name == "fdfind") {
    return !hasOption(args, {"-x", "--exec", "-X", "--exec-batch"});
  }
  if (name == "umask") return a.operands.empty();
  if (name == "env") return args.empty();  // `env` alone prints; with a command it is unwrapped
  return true;
}

bool safeFind(const SimpleCommand& c) {
  return !hasOption(c.arguments(), {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint",
                                    "-fprint0", "-fprintf", "-fls"});
}

// git's own options before its subcommand: where the subcommand is, and
// whether an option that makes git run other programs was given.
struct GitCommandLine {
  size_t subcommand = 0;  ///< index in the arguments; == size when there is none
  bool runs_programs = false;
};

GitCommandLine gitCommandLine(Words args) {
  GitCommandLine line;
  size_t i = 0;
  while (i < args.size()) {
    const std::string& t = args[i].text;
    if (t == "-c" || t.starts_with("--config-env") || t.starts_with("--exec-path") ||
        t == "--upload-pack" || t.starts_with("--upload-pack=")) {
      line.runs_programs = true;  // -c core.pager=..., alias.x=!..., another git's programs
    }
    if (t == "-c" || t == "-C" || t == "--git-dir" || t == "--work-tree" || t == "--namespace" ||
        t == "--config-env") {
      i += 2;
    } else if (t.starts_with("-")) {
      ++i;
    } else {
      break;
    }
  }
  line.subcommand = i;
  return line;
}

// git: reads, and the everyday changes of one's own repository.
bool safeGit(const SimpleCommand& c) {
  const Words args = c.arguments();
  const GitCommandLine line = gitCommandLine(args);
  if (line.runs_programs) return false;
  if (line.subcommand >= args.size()) return hasOption(args, {"--version", "--help"});
  const std::string sub = args[line.subcommand].text;
  const Words rest = args.subspan(line.subcommand + 1);
  // Options that write files elsewhere or run programs.
  if (hasOption(rest, {"--output", "--open-files-in-pager", "--ext-diff", "--upload-pack",
                       "--receive-pack", "--exec", "--exec-path", "--extcmd", "--tool"})) {
    return false;
  }
  const CommandArgs a = parseArgs(rest);
  if (sub == "grep" && a.has('O')) return false;  // opens the files found in a program
  if (oneOf(sub, {"status",       "log",          "diff",     "show",          "rev-parse",
                  "ls-files",     "blame",        "describe", "shortlog",      "grep",
                  "rev-list",     "cat-file",     "ls-tree",  "reflog",        "whatchanged",
                  "merge-base",   "name-rev",     "cherry",   "count-objects", "show-ref",
                  "for-each-ref", "check-ignore", "var",      "version",       "help",
                  "add",          "commit",       "fetch",    "merge",         "mv",
                  "init",         "cherry-pick",  "revert"})) {
    return !(sub == "merge" && hasOption(rest, {"-s", "--strategy"}));
  }
  const std::string after = a.operands.empty() ? "" : a.operands.front().text;
  if (sub == "branch" || sub == "tag") {
    return !a.hasAny("dDmMfc", {"--delete", "--move", "--force", "--copy", "--set-upstream-to",
                                "--unset-upstream", "--edit-description"}) &&
           (a.operands.empty() || a.hasAny("alrv", {"--list", "--all", "--remotes", "--contains",
                                                    "--merged", "--no-merged", "--show-current"}));
  }
  if (sub == "remote") return rest.empty() || after == "show" || hasOption(rest, {"-v"});
  if (sub == "config") return a.hasAny("l", {"--get", "--get-all", "--list", "--get-regexp"});
  if (sub == "stash") {
    return a.operands.empty() || oneOf(after, {"list", "show", "push", "save", "pop", "apply"});
  }
  if (sub == "checkout") return a.hasAny("bB", {"--orphan"}) && !a.hasAny("f", {"--force"});
  if (sub == "switch") return !a.hasAny("f", {"--force", "--discard-changes"});
  if (sub == "restore") return a.hasAny("S", {"--staged"}) && !a.hasAny("W", {"--worktree"});
  if (sub == "clean") return a.hasAny("n", {"--dry-run"}) && !a.hasAny("f", {"--force"});
  return false;
}

// A build or test run: the project's own code runs, which is everyday work;
// an option that names another program to run, or a build file from
// elsewhere, takes the allow away.
bool safeBuildOrTest(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  const Words args = c.arguments();
  const std::string first = args.empty() ? "" : args[0].text;
  auto insideWorkspace = [&](const std::vector<ShellWord>& dirs) {
    return std::all_of(dirs.begin(), dirs.end(), [&](const ShellWord& d) {
      return !d.dynamic && s.view.insideWorkspace(resolvedPath(d, s));
    });
  };
  if (name == "make" || name == "gmake") {
    const CommandArgs a =
        parseArgs(args, "CfIEWojlo",
                  {"--directory", "--file", "--makefile", "--include-dir", "--eval", "--what-if",
                   "--old-file", "--jobs", "--load-average"});
    if (a.hasAny("E", {"--eval"})) return false;
    const std::vector<ShellWord> files = a.valuesOf({"-f", "--file", "--makefile"});
    if (std::any_of(files.begin(), files.end(), [](const ShellWord& f) {
          return f.text == "-" || f.text.starts_with("/dev/") || f.text.starts_with("/proc/");
        })) {
      return false;  // a makefile read from the input runs what it says
    }
    for (const ShellWord& w : a.operands) {
      const std::string var = w.text.substr(0, w.text.find('='));
      if (w.text.find('=') != std::string::npos &&
          oneOf(var, {"SHELL", ".SHELLFLAGS", "MAKESHELL", "MAKEFLAGS", "MAKEFILES"})) {
        return false;
      }
    }
    return insideWorkspace(
        a.valuesOf({"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir"}));
  }
  if (name == "ninja") {
    const CommandArgs a = parseArgs(args, "Cfjlkdtw", {});
    return insideWorkspace(a.valuesOf({"-C", "-f"}));
  }
  if (name == "ctest") return !hasOption(args, {"-S", "-SP", "--build-and-test", "--script"});
  if (oneOf(name, {"pytest", "tsc", "gradle", "gradlew", "mvnw", "vitest", "jest", "mocha", "tox",
                   "nox", "ava", "karma"})) {
    return true;
  }
  if (name == "coverage") return oneOf(first, {"run", "report", "html", "xml", "json", "erase"});
  if (name == "playwright") return first == "test" || first == "show-report";
  if (oneOf(name, {"gcc", "g++", "cc", "c++", "clang", "clang++", "javac", "rustc"})) {
    // A compiler that loads a plugin or takes its tools from elsewhere runs them.
    return std::none_of(args.begin(), args.end(), [](const ShellWord& w) {
      return w.text.starts_with("-fplugin") || w.text.starts_with("-B") || w.text == "-wrapper" ||
             w.text.starts_with("-specs") || w.text.starts_with("--specs") ||
             w.text.starts_with("-processorpath") || w.text == "-processor";
    });
  }
  if (name == "mvn") {
    return std::none_of(args.begin(), args.end(), [](const ShellWord& w) {
      return w.text == "deploy" || w.text.starts_with("exec:") || w.text.starts_with("-Dexec.") ||
             w.text.starts_with("antrun:");
    });
  }
  if (name == "cmake") {
    // Command mode (-E), scripts (-P) and initial-cache scripts (-C) run anything.
    return !hasOption(args, {"-E", "-P", "-C"}) &&
           std::none_of(args.begin(), args.end(), [](const ShellWord& w) {
             return w.text.starts_with("-C") || w.text.starts_with("-P") ||
                    w.text.find("_LAUNCHER=") != std::string::npos;
           });
  }
  if (oneOf(name, {"vite", "webpack", "rollup", "esbuild", "tsup", "parcel"})) {
    return first.empty() || oneOf(first, {"build", "--version", "-c", "--config"}) ||
           first.starts_with("--") || name == "esbuild";
  }
  if (name == "pre-commit") return first == "run";
  if (name == "go") {
    if (hasOption(args, {"-toolexec", "--toolexec", "-exec", "--exec", "-vettool", "--vettool"})) {
      return false;
    }
    if (first == "env") return !hasOption(args, {"-w", "-u"});
    return oneOf(first, {"build", "test", "vet", "version", "list", "fmt", "mod", "doc", "work"});
  }
  if (name == "cargo") {
    if (hasOption(args, {"--config", "-Z"})) return false;  // a runner or wrapper from anywhere
    return oneOf(first, {"build", "test", "check", "clippy", "fmt", "doc", "bench", "tree",
                         "metadata", "--version", "version"});
  }
  if (oneOf(name, {"npm", "pnpm", "yarn", "bun"})) {
    if (hasOption(args, {"--script-shell", "--shell"})) return false;
    // Installing what the project already lists, not a new package.
    const CommandArgs a = parseArgs(args, "", {"--filter", "--workspace", "-w"});
    if (oneOf(first, {"install", "i"}) || (name == "yarn" && first.empty())) {
      return a.operands.size() <= 1;
    }
    return oneOf(first, {"test", "run", "ci", "run-script", "ls", "list", "outdated", "view", "t",
                         "why", "audit", "exec"}) ||
           (name == "yarn" && oneOf(first, {"build", "lint", "workspace", "workspaces"})) ||
           (name == "pnpm" && oneOf(first, {"-r", "--recursive", "--filter", "build", "lint"}));
  }
  if (name == "pip" || name == "pip3" ||
      (name.starts_with("python") && args.size() >= 2 && first == "-m" && args[1].text == "pip")) {
    // The project's own requirements or the project itself: `-r FILE`, `-e .`.
    const Words rest = name.starts_with("python") ? args.subspan(2) : args;
    if (rest.empty()) return false;
    if (oneOf(rest[0].text, {"list", "show", "freeze", "check", "--version"})) return true;
    if (rest[0].text != "install") return false;
    const CommandArgs a =
        parseArgs(rest.subspan(1), "rec", {"--requirement", "--editable", "--constraint"});
    return std::all_of(a.operands.begin(), a.operands.end(), [](const ShellWord& w) {
      return w.text == "." || w.text.starts_with(".[") || w.text.starts_with("./");
    });
  }
  if (name == "uv") return oneOf(first, {"sync", "lock", "tree", "--version", "version"});
  if (name == "poetry") return oneOf(first, {"install", "lock", "check", "show", "--version"});
  if (name.starts_with("python") && args.size() >= 2 && first == "-m") {
    const std::string module = args[1].text;
    if (module == "pip") {
      return args.size() >= 3 && oneOf(args[2].text, {"list", "show", "freeze", "check"});
    }
    return oneOf(module,
                 {"pytest", "unittest", "mypy", "pyflakes", "compileall", "json.tool", "py_compile",
                  "black", "isort", "flake8", "pylint", "ruff", "venv", "build", "coverage"});
  }
  return false;
}

// Formatters and linters: they read, and rewrite in place, the project's files.
bool formatterOrLinter(std::string_view name) {
  return oneOf(name, {"ruff",
                      "black",
                      "isort",
                      "flake8",
                      "pylint",
                      "mypy",
                      "pyright",
                      "pyflakes",
                      "pycodestyle",
                      "autopep8",
                      "yapf",
                      "eslint",
                      "prettier",
                      "biome",
                      "stylelint",
                      "markdownlint",
                      "gofmt",
                      "goimports",
                      "golangci-lint",
                      "staticcheck",
                      "rustfmt",
                      "clang-format",
                      "clang-tidy",
                      "cppcheck",
                      "shellcheck",
                      "shfmt",
                      "yamllint",
                      "hadolint",
                      "actionlint",
                      "taplo",
                      "markdownlint-cli",
                      "markdownlint-cli2",
                      "cargo-fmt"});
}

// `--version`, `-V`, `--help` alone, or `help TOPIC`: any program on the PATH
// answers them harmlessly (`-v` too, but for Python it starts a verbose REPL).
bool versionOrHelp(const SimpleCommand& c) {
  const Words args = c.arguments();
  if (args.empty() || args[0].dynamic) return false;
  if (oneOf(args[0].text, {"help", "--help", "-h"})) {
    return std::none_of(args.begin(), args.end(), [](const ShellWord& w) { return w.dynamic; });
  }
  return args.size() == 1 && (oneOf(args[0].text, {"--version", "-V", "-version", "version"}) ||
                              (args[0].text == "-v" && !c.name().starts_with("python")));
}

bool isLocalUrl(const ShellWord& u) {
  if (u.dynamic) return false;
  std::string_view t = u.text;
  for (std::string_view scheme : {"http://", "https://"}) {
    if (t.starts_with(scheme)) t.remove_prefix(scheme.size());
  }
  const size_t end = t.find_first_of(":/?#");
  return oneOf(t.substr(0, end), {"localhost", "127.0.0.1", "[::1]", "0.0.0.0"});
}

// wget of the developer's own server, printed or saved (where it saves is judged as a path).
bool wgetLocalhost(const SimpleCommand& c) {
  const Words args = c.arguments();
  if (hasOption(args, {"--post-data", "--post-file", "--method", "--body-data", "--body-file", "-i",
                       "--input-file", "-e", "--execute", "--use-askpass"})) {
    return false;
  }
  const CommandArgs a = parseArgs(args, "OoaPUtTwQDARl",
                                  {"--output-document", "--output-file", "--directory-prefix",
                                   "--user-agent", "--header", "--tries", "--timeout"});
  return !a.operands.empty() && std::all_of(a.operands.begin(), a.operands.end(), isLocalUrl);
}

// curl of the developer's own server: no upload, no method that changes.
bool curlLocalhost(const SimpleCommand& c) {
  const Words args = c.arguments();
  if (hasOption(args, {"-d", "--data", "--data-ascii", "--data-binary", "--data-raw",
                       "--data-urlencode", "--json", "-F", "--form", "--form-string", "-T",
                       "--upload-file", "-K", "--config", "--unix-socket", "-x", "--proxy"})) {
    return false;
  }
  const CommandArgs a = parseArgs(
      args, "AbcCdDeEFHKmoPQrTuUwxXyYzt",
      {"--header", "--user-agent", "--user", "--request", "--url", "--output", "--max-time",
       "--connect-timeout", "--retry", "--write-out", "--referer", "--cookie", "--cookie-jar"});
  for (const ShellWord& m : a.valuesOf({"-X", "--request"})) {
    if (m.text != "GET" && m.text != "HEAD") return false;
  }
  std::vector<ShellWord> urls = a.operands;
  for (const ShellWord& u : a.valuesOf({"--url"})) urls.push_back(u);
  return !urls.empty() && std::all_of(urls.begin(), urls.end(), isLocalUrl);
}

// A file operation whose every path is a file in the workspace (not the
// workspace itself, nor all of it at once).
bool workspaceFileOperation(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  if (!oneOf(name,
             {"mkdir", "touch", "cp", "mv", "rm", "rmdir", "ln", "chmod", "tee", "sed", "find"})) {
    return false;
  }
  // find deletes what it finds: only by name, under the workspace.
  if (name == "find" && (!hasOption(c.arguments(), {"-delete"}) || findNameGlobs(c).empty() ||
                         hasOption(c.arguments(), {"-exec", "-execdir", "-ok", "-okdir"}))) {
    return false;
  }
  if (name == "sed") {
    // sed -i with a script that only edits: the scripts are checked on their own.
    const CommandArgs a =
        parseArgs(c.arguments(), "efl", {"--expression", "--file", "--line-length"});
    if (a.hasAny("f", {"--file"})) return false;
    const std::vector<ShellWord> scripts = a.valuesOf({"-e", "--expression"});
    if (scripts.empty() && a.operands.empty()) return false;
    for (const ShellWord& script :
         scripts.empty() ? std::vector<ShellWord>{a.operands.front()} : scripts) {
      if (script.dynamic || !sedScriptIsSafe(script.text)) return false;
    }
  }
  const std::vector<PathAccess> accesses = commandAccesses(s);
  if (accesses.empty()) return name == "tee" || name == "mkdir" || name == "touch";
  return std::all_of(accesses.begin(), accesses.end(), [&](const PathAccess& access) {
    if (!access.known_location || !s.view.insideWorkspace(access.path)) return false;
    for (const ResolvedPath& root : s.view.resolvedWorkspaceRoots()) {
      if (access.path.resolved == root.resolved || access.path.lexical == root.lexical) {
        return false;  // the workspace itself
      }
      if (access.shape == PathShape::Pattern && access.kind == PathAccessKind::Write) {
        const std::string& glob = access.path.lexical;
        const std::string prefix = root.lexical == "/" ? "/" : root.lexical + "/";
        if (glob == prefix + "*" || glob == prefix + "**" || glob == prefix + ".*") return false;
      }
    }
    return true;
  });
}

// `source .venv/bin/activate`: the activation script of a virtual
// environment inside the workspace.
bool venvActivation(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const Words args = c.arguments();
  if ((c.commandName() != "source" && c.commandName() != ".") || args.size() != 1 ||
      args[0].dynamic || !args[0].text.ends_with("bin/activate")) {
    return false;
  }
  const ResolvedPath script = resolvedPath(args[0], s);
  return s.view.insideWorkspace(script);
}

}  // namespace

bool sedScriptIsSafe(std::string_view script) {
  size_t i = 0;
  auto skipSpace = [&] {
    while (i < script.size() && (script[i] == ' ' || script[i] == '\t')) ++i;
  };
  // Reads a delimited part (`/re/`, the parts of s///), honouring escapes.
  auto delimited = [&](char delimiter) {
    while (i < script.size() && script[i] != delimiter) {
      if (script[i] == '\\') ++i;
      ++i;
    }
    if (i >= script.size()) return false;
    ++i;
    return true;
  };
  auto toLineOrSemicolon = [&] {
    while (i < script.size() && script[i] != '\n' && script[i] != ';' && script[i] != '}') ++i;
  };
  while (i < script.size()) {
    skipSpace();
    if (i >= script.size()) break;
    const char c = script[i];
    if (c == ';' || c == '\n' || c == '{' || c == '}' || c == '!') {
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < script.size() && script[i] != '\n') ++i;
      continue;
    }
    // Addresses: numbers, $, /regex/, \cregexc, first~step, addr1,addr2.
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '$' || c == ',' || c == '~' ||
        c == '+') {
      ++i;
      continue;
    }
    if (c == '/') {
      ++i;
      if (!delimited('/')) return false;
      while (i < script.size() && (script[i] == 'I' || script[i] == 'M')) ++i;
      continue;
    }
    if (c == '\\' && i + 1 < script.size()) {
      const char d = script[i + 1];
      i += 2;
      if (!delimited(d)) return false;
      continue;
    }
    ++i;
    if (c == 's' || c == 'y') {
      if (i >= script.size()) return false;
      const char d = script[i++];
      if (!delimited(d) || !delimited(d)) return false;
      if (c == 's') {
        // Flags: e runs the pattern space as a command, w writes a file.
        while (i < script.size() && script[i] != ';' && script[i] != '\n' && script[i] != '}') {
          if (script[i] == 'e' || script[i] == 'w' || script[i] == 'W') return false;
          ++i;
        }
      }
      continue;
    }
    if (oneOf(std::string_view(&c, 1), {"a", "i", "c"})) {
      while (i < script.size() && script[i] != '\n') ++i;  // text to the end of the line
      continue;
    }
    if (oneOf(std::string_view(&c, 1), {":", "b", "t", "T", "q", "Q", "l", "L"})) {
      toLineOrSemicolon();
      continue;
    }
    if (oneOf(std::string_view(&c, 1),
              {"p", "P", "d", "D", "n", "N", "g", "G", "h", "H", "x", "=", "z", "F"})) {
      continue;
    }
    return false;  // e, w, W, r, R, v and anything unknown
  }
  return true;
}

bool awkProgramIsSafe(std::string_view program) {
  if (program.find("system") != std::string_view::npos ||
      program.find('|') != std::string_view::npos ||
      program.find("getline") != std::string_view::npos) {
    return false;
  }
  // `print ... > "file"`: output redirection (a `>` in a print statement).
  for (size_t at = program.find("print"); at != std::string_view::npos;
       at = program.find("print", at + 5)) {
    const size_t end = program.find_first_of(";}\n", at);
    const std::string_view statement =
        program.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (statement.find('>') != std::string_view::npos) return false;
  }
  return true;
}

namespace {

// The project's own build wrappers (`./gradlew`, `./mvnw`) and the tools of
// its virtual environment (`.venv/bin/pip`), run from the workspace: judged
// by their names, as the project's own build is.
bool projectTool(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const ShellWord& program = c.words[0];
  if (program.dynamic || !s.view.insideWorkspace(resolvedPath(program, s))) return false;
  if (oneOf(c.commandName(), {"gradlew", "mvnw"})) return true;
  const std::string& path = program.text;
  return path.find("venv/bin/") != std::string::npos &&
         path.find("venv/bin/") + 9 + c.name().size() == path.size();
}

}  // namespace

bool activatesWorkspaceVenv(const CommandScene& s) {
  return venvActivation(s);
}

std::optional<std::string> safeCommand(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  if (c.words.empty() || c.nameIsDynamic()) return std::nullopt;
  if (c.runsFromUnusualPlace() && !projectTool(s)) return std::nullopt;
  const std::string_view name = c.commandName();
  if (name == "find") {
    return safeFind(c) || workspaceFileOperation(s) ? std::optional<std::string>("") : std::nullopt;
  }
  if (name == "git") return safeGit(c) ? std::optional<std::string>("") : std::nullopt;
  if (name == "command" || name == "type") return "";
  if (name == "sed" || name == "awk" || name == "gawk" || name == "mawk") {
    const CommandArgs a = parseArgs(c.arguments(), name == "sed" ? "efl" : "fvF",
                                    {"--expression", "--file", "--assign", "--field-separator"});
    const bool in_place = name == "sed" && (a.has('i') || a.hasLong("--in-place"));
    if (in_place) {
      return workspaceFileOperation(s) ? std::optional<std::string>("") : std::nullopt;
    }
    if (a.hasAny("f", {"--file"})) return std::nullopt;
    std::vector<ShellWord> programs = a.valuesOf({"-e", "--expression"});
    if (programs.empty() && !a.operands.empty()) programs.push_back(a.operands.front());
    if (programs.empty()) return std::nullopt;
    for (const ShellWord& p : programs) {
      if (p.dynamic) return std::nullopt;
      if (name == "sed" ? !sedScriptIsSafe(p.text) : !awkProgramIsSafe(p.text)) {
        return std::nullopt;
      }
    }
    return "";
  }
  if (isReadOnlyTool(name)) {
    return readOnlyToolIsHarmless(name, c) ? std::optional<std::string>("") : std::nullopt;
  }
  if (safeBuildOrTest(s) || formatterOrLinter(name) || versionOrHelp(c) ||
      (name == "curl" && curlLocalhost(c)) || (name == "wget" && wgetLocalhost(c)) ||
      workspaceFileOperation(s) || venvActivation(s)) {
    return "";
  }
  return std::nullopt;
}

}  // namespace toolguard::detail
