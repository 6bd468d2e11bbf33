// Tables of harmless options: programs that run another command (the
// command they run is judged on its own). Options read from Debian 12's
// coreutils 9.1 (timeout, nice, nohup, stdbuf, env), GNU time 1.9, uv 0.5
// and poetry 1.8 docs, npm 9's npx. Left out on purpose: `uv run --with`,
// `--with-requirements`, `--python`/`-p`, `--index*`, `--find-links`,
// `--env-file` (a package, an interpreter, a registry or variables from
// elsewhere); `env -S` (splits a string into more words); `npx -p`/`--yes`
// (a package from the registry).
#include <algorithm>
#include <filesystem>

#include "program_specs.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"
#include "shell_unwrap/unwrap.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

// npx / npm exec NAME: only a program the project already installed
// (node_modules/.bin/NAME where it runs, or at a workspace root); anything
// else npx downloads from the registry and runs, without asking when no
// terminal is attached.
bool runsInstalledBin(const TableParse& parse, const CommandScene& scene) {
  if (parse.operands.empty()) return true;  // nothing run: `npx --version`
  const ShellWord& bin = parse.operands.front();
  if (bin.dynamic || bin.text.find('/') != std::string::npos ||
      bin.text.find('@') != std::string::npos) {
    return false;
  }
  std::vector<std::string> places;
  if (const std::optional<std::string> cwd = effectiveCwd(scene);
      cwd && *cwd != kUnknownDirectory) {
    places.push_back(*cwd);
  }
  for (const ResolvedPath& root : scene.view.resolvedWorkspaceRoots())
    places.push_back(root.resolved);
  std::error_code error;
  for (const std::string& place : places) {
    if (std::filesystem::exists(place + "/node_modules/.bin/" + bin.text, error)) return true;
  }
  return false;
}

// env runs a command; alone, or with only variables, it prints the
// environment (credentials too).
bool envRunsACommand(const TableParse& parse, const CommandScene&) {
  for (const ShellWord& w : parse.operands) {
    if (w.text.find('=') == std::string::npos) return true;
  }
  return false;
}

const ProgramSpec kWrapperSpecs[] = {
    {"timeout",
     "-s|--signal=word -k|--kill-after=num --preserve-status --foreground -v|--verbose --help "
     "--version",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     nullptr,
     false,
     {},
     true},
    {"nice",
     "-n|--adjustment=num --help --version",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     nullptr,
     false,
     {},
     true},
    {"nohup|setsid",
     "--help --version -w|--wait",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     nullptr,
     false,
     {},
     true},
    {"stdbuf",
     "-i|--input=word -o|--output=word -e|--error=word --help --version",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     nullptr,
     false,
     {},
     true},
    // GNU time (the bash keyword has only -p): -o names the report it writes.
    {"time",
     "-p|--portability -v|--verbose -q|--quiet -f|--format=text -o|--output=write -a|--append "
     "--help -V|--version",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     nullptr,
     false,
     {},
     true},
    // env NAME=VALUE CMD: the variables meet the variable rules; -C runs elsewhere.
    {"env",
     "-i|--ignore-environment -u|--unset=word -0|--null -C|--chdir=inside -v|--debug --help "
     "--version",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     envRunsACommand,
     false,
     {},
     true},
    {"ionice",
     "-c|--class=word -n|--classdata=num -t|--ignore --help --version",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     nullptr,
     false,
     {},
     true},
    // uv run CMD: the project's environment, synced from its own lock.
    {"uv run",
     "-q|--quiet -v|--verbose --color={auto,always,never} --no-progress --offline --no-cache "
     "--directory=inside --project=inside --no-config --frozen --locked --no-sync --no-dev "
     "--dev --only-dev --all-extras --extra=word --no-extra=word --group=word --no-group=word "
     "--only-group=word --all-groups --no-default-groups --package=word --all-packages "
     "--isolated --exact --inexact --no-editable -h|--help",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     nullptr,
     false,
     {},
     true},
    {"poetry run",
     "-q|--quiet -v|--verbose -n|--no-interaction --ansi --no-ansi -C|--directory=inside "
     "-P|--project=inside --no-cache -h|--help",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     nullptr,
     false,
     {},
     true},
    {"npx",
     "--no --offline --prefer-offline -c|--call=text -q|--quiet --help -v|--version",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     runsInstalledBin,
     false,
     {},
     true},
    {"npm exec|x",
     "--no --offline --prefer-offline -c|--call=text -w|--workspace=word "
     "--workspaces -q|--quiet",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     runsInstalledBin,
     false,
     {},
     true},
    // pnpm exec and yarn exec run only the project's installed programs.
    {"pnpm exec",
     "-r|--recursive --filter=text --parallel -c|--shell-mode --no-reporter-hide-prefix",
     OperandRule::Any,
     OptionStyle::Gnu,
     false,
     nullptr,
     false,
     {},
     true},
    {"yarn exec", "", OperandRule::Any, OptionStyle::Gnu, false, nullptr, false, {}, true},
};

}  // namespace

std::span<const ProgramSpec> wrapperSpecs() {
  return kWrapperSpecs;
}

// A shell's own words before the script it runs (`bash -euo pipefail -c
// '...'`, `sh -lc '...'`): every one known and harmless. Start-up files
// given by name (--rcfile, --init-file), interactive mode (which reads
// ~/.bashrc, and the file --rcfile names), restricted-mode tricks and debug
// hooks are not; neither is any option not listed here.
Expected<void> checkShellOwnWords(const std::vector<ShellWord>& words, bool bash) {
  static constexpr std::string_view kSetOptions[] = {
      "errexit",   "nounset", "pipefail",  "xtrace",   "verbose",   "noglob",
      "noclobber", "posix",   "allexport", "errtrace", "functrace", "noexec"};
  static constexpr std::string_view kShoptOptions[] = {
      "extglob",    "globstar",    "nullglob", "failglob",        "dotglob",
      "nocaseglob", "nocasematch", "lastpipe", "inherit_errexit", "expand_aliases"};
  auto listed = [](std::string_view value, auto& list) {
    return std::find(std::begin(list), std::end(list), value) != std::end(list);
  };
  for (size_t i = 1; i < words.size(); ++i) {
    const ShellWord& w = words[i];
    if (w.dynamic) {
      return fail("a word of the shell's own options is known only at run time");
    }
    const std::string& t = w.text;
    if (t == "--" || t == "-" || t.size() < 2 || (t[0] != '-' && t[0] != '+')) return {};
    if (t.starts_with("--")) {
      if (t == "--norc" || t == "--noprofile" || t == "--posix" || t == "--login" ||
          t == "--noediting" || t == "--verbose") {
        continue;
      }
      return fail("the shell option " + t + " is not known to be harmless");
    }
    // A cluster of letters; -o/+o and -O/+O take the next word; -c ends
    // the options (the script follows).
    bool ends = false;
    for (size_t k = 1; k < t.size(); ++k) {
      const char letter = t[k];
      // -O is bash's shopt; zsh reads it as an option of its own that takes
      // no value (the next word would be the script file).
      if (letter == 'o' || (letter == 'O' && bash)) {
        if (k + 1 != t.size() || i + 1 >= words.size() || words[i + 1].dynamic ||
            !(letter == 'o' ? listed(words[i + 1].text, kSetOptions)
                            : listed(words[i + 1].text, kShoptOptions))) {
          return fail(std::string("the shell option -") + letter + " " +
                      (i + 1 < words.size() ? words[i + 1].text : "") +
                      " is not known to be harmless");
        }
        ++i;
        continue;
      }
      if (letter == 'c') {
        ends = true;
        continue;
      }
      if (std::string_view("euxvfnlsCaEThB").find(letter) == std::string_view::npos) {
        return fail(std::string("the shell option -") + letter + " is not known to be harmless");
      }
    }
    if (ends) return {};
  }
  return {};
}

// find's own words with its -exec/-execdir/-ok/-okdir parts taken out (they
// are judged as the commands they run): every one must be what the find
// table knows harmless, so `find . -exec true \; -delete` and `-fprint FILE`
// are not taken for a wrapper that only runs its command.
Expected<void> checkFindOwnWords(const CommandScene& scene) {
  SimpleCommand own = scene.command;
  own.words.clear();
  const std::vector<ShellWord>& words = scene.command.words;
  for (size_t i = 0; i < words.size(); ++i) {
    if (!words[i].dynamic && oneOf(words[i].text, {"-exec", "-execdir", "-ok", "-okdir"})) {
      size_t end = i + 1;
      while (end < words.size() && words[end].text != ";" &&
             !(words[end].text == "+" && words[end - 1].text == "{}")) {
        ++end;
      }
      i = end;  // past the terminator
      continue;
    }
    own.words.push_back(words[i]);
  }
  const ProgramSpec* spec = programSpec("find");
  if (spec == nullptr) {
    return fail("find's own options are not known");
  }
  const CommandScene own_scene{own, scene.program, scene.view, scene.home};
  const TableParse parse = parseWithTable(*spec, own.arguments(), &own_scene);
  if (!parse.known()) {
    return fail("find " + parse.unknown);
  }
  return {};
}

Expected<void> checkWrapperKnown(const CommandScene& scene) {
  const std::string_view name = scene.command.commandName();
  // A shell runs only the commands of its script, each judged on its own.
  if (runsBashScripts(name)) return checkShellOwnWords(scene.command.words, name == "bash");
  // An interpreter whose code runs a command runs the rest of that code too:
  // it is never only a wrapper (`python3 <<< "os.system('ls'); ..."`).
  if (isInterpreter(name)) {
    return fail("'" + std::string(name) + "' runs code besides the commands found in it");
  }
  if (name == "find") return checkFindOwnWords(scene);
  // parallel's own options can send its commands elsewhere (-S HOST) or
  // feed them anything (--pipe): only `parallel CMD ... ::: ARGS`.
  if (name == "parallel") {
    const std::vector<ShellWord>& words = scene.command.words;
    if (words.size() < 2 || words[1].dynamic || words[1].text.starts_with('-')) {
      return fail("parallel's own options are not known to be harmless");
    }
    return {};
  }
  // Followed by the rules that judge what they run: shells and eval (the
  // text), sudo and the like (privilege), xargs (the command and its
  // run-time arguments).
  if (oneOf(name, {"sudo", "doas", "pkexec", "su", "busybox", "eval", "command", "builtin", "exec",
                   "xargs"})) {
    return {};
  }
  const ProgramSpec* spec = programSpec(name);
  if (spec == nullptr) {
    return fail("'" + std::string(name) +
                "' runs another command and its own options are not known");
  }
  const TableParse parse = parseWithTable(*spec, scene.command.arguments(), &scene);
  if (!parse.known()) {
    return fail(parse.unknown);
  }
  return {};
}

}  // namespace toolguard::detail
