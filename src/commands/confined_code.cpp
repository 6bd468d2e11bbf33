// The workspace's own code, confined (see confined_code.hpp).
#include "confined_code.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <span>
#include <vector>

#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

// A file of the workspace, named by a literal word, with its symlinks
// followed (a file that is not there yet fails to run, confined).
bool workspaceFile(const ShellWord& word, const CommandScene& s) {
  if (word.dynamic || word.text.empty() || word.text == "{}") return false;
  const ResolvedPath path = resolvedPath(word, s);
  struct stat st {};
  const bool directory = ::stat(path.resolved.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  return !directory && s.view.insideWorkspace(path);
}

// A program that runs a script file named on its command line.
bool runsScripts(std::string_view name) {
  return isInterpreter(name) || oneOf(name, {"tsx", "ts-node", "Rscript"});
}

// The options of an interpreter known to change only warnings, buffering,
// optimisation, tracing or error handling: none names code, a module, a
// library or another file to run. Anything else (inline code, -m, -r, -M,
// --import, a made-up option) leaves the call to the other rules: the
// world of options is closed.
struct HarmlessOptions {
  std::string_view letters;                  ///< single letters, alone or in a cluster
  std::vector<std::string_view> words;       ///< whole options (`--no-warnings`, `-W0`)
  std::vector<std::string_view> prefixes;    ///< options with a value attached (`--stack-size=`)
  std::vector<std::string_view> with_value;  ///< options followed by a value (`-W ignore`)
  std::vector<std::string_view> values;      ///< the values `-o` may take, for a shell
};

const HarmlessOptions& harmlessOptions(std::string_view interpreter) {
  static const HarmlessOptions kPython{
      "bBdEIOPqsSuvxR", {"-OO", "-bb"}, {"-W", "-X"}, {"-W", "-X"}, {}};
  static const HarmlessOptions kNode{
      "",
      {"--no-warnings", "--enable-source-maps", "--trace-warnings", "--trace-deprecation",
       "--no-deprecation", "--throw-deprecation", "--trace-uncaught", "--experimental-vm-modules",
       "--test", "--abort-on-uncaught-exception", "--preserve-symlinks"},
      {"--max-old-space-size=", "--stack-size=", "--unhandled-rejections="},
      {},
      {}};
  static const HarmlessOptions kRuby{"wvd", {"-W", "-W0", "-W1", "-W2"}, {}, {}, {}};
  static const HarmlessOptions kPerl{"wWXTt", {}, {}, {}, {}};
  static const HarmlessOptions kShell{
      "xeuvn", {}, {}, {"-o"}, {"pipefail", "errexit", "nounset", "xtrace", "verbose"}};
  static const HarmlessOptions kNone{"", {}, {}, {}, {}};
  if (interpreter.starts_with("python")) return kPython;
  if (interpreter == "node" || interpreter == "nodejs") return kNode;
  if (interpreter == "ruby") return kRuby;
  if (interpreter == "perl") return kPerl;
  if (oneOf(interpreter, {"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh"})) return kShell;
  return kNone;
}

bool isListed(const std::vector<std::string_view>& list, std::string_view text) {
  return std::find(list.begin(), list.end(), text) != list.end();
}

// The script an interpreter runs, when every option before it is harmless
// and it is a file of the workspace.
std::optional<std::string> interpretedScript(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const HarmlessOptions& harmless = harmlessOptions(c.commandName());
  const std::span<const ShellWord> args = c.arguments();
  auto script = [&](size_t i) -> std::optional<std::string> {
    // `-` is the code on standard input (a here-document): inline code.
    if (i < args.size() && args[i].text != "-" && workspaceFile(args[i], s))
      return "the workspace's script " + args[i].text;
    return std::nullopt;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const ShellWord& word = args[i];
    if (word.dynamic) return std::nullopt;
    const std::string_view text = word.text;
    if (text == "--") return script(i + 1);
    if (!text.starts_with('-') || text.size() == 1) return script(i);
    if (isListed(harmless.words, text)) continue;
    // An option that takes the next word, alone (-o pipefail) or closing a
    // cluster of harmless letters (-euo pipefail).
    const std::string last_letter = "-" + std::string(1, text.back());
    const bool takes_value =
        isListed(harmless.with_value, text) ||
        (!text.starts_with("--") && text.size() > 2 && isListed(harmless.with_value, last_letter) &&
         text.substr(1, text.size() - 2).find_first_not_of(harmless.letters) ==
             std::string_view::npos);
    if (takes_value) {
      if (++i >= args.size() || args[i].dynamic) return std::nullopt;
      if (!harmless.values.empty() && !isListed(harmless.values, args[i].text)) return std::nullopt;
      continue;
    }
    const bool attached = std::any_of(
        harmless.prefixes.begin(), harmless.prefixes.end(), [&](std::string_view prefix) {
          return text.size() > prefix.size() && text.starts_with(prefix);
        });
    if (attached) continue;
    // A cluster of short options, each of them harmless (-uB, -eux).
    if (text.starts_with("--") || harmless.letters.empty() ||
        text.find_first_not_of(harmless.letters, 1) != std::string_view::npos) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> confinedWorkspaceCode(const CommandScene& s) {
  if (!s.view.call().context.confined) return std::nullopt;
  const SimpleCommand& c = s.command;
  // Words xargs or find -exec add at run time (`{}`) name files nobody knows.
  if (c.words.empty() || c.nameIsDynamic() || c.unknown_extra_arguments) return std::nullopt;
  for (const auto& assignment : c.assignments) {
    if (assignment.second.dynamic) return std::nullopt;
  }
  const ShellWord& program = c.words[0];
  if (program.text.find('/') != std::string::npos) {
    if (workspaceFile(program, s)) return "the workspace's program " + program.text;
    return std::nullopt;
  }
  const std::string_view name = c.commandName();
  const std::span<const ShellWord> args = c.arguments();
  if (runsScripts(name)) return interpretedScript(s);
  if (args.empty() || args[0].dynamic) return std::nullopt;
  const std::string& first = args[0].text;
  if (name == "go" && (first == "run" || first == "generate")) {
    return "go " + first + " of the workspace's code";
  }
  if (name == "cargo" && first == "run") return "cargo run of the workspace's code";
  if (name == "java" && first == "-jar" && args.size() >= 2 && workspaceFile(args[1], s)) {
    return "the workspace's jar " + args[1].text;
  }
  if (name == "npx" && !first.starts_with('-') && first.find('/') == std::string::npos &&
      first.find('@') == std::string::npos) {
    for (const ResolvedPath& root : s.view.resolvedWorkspaceRoots()) {
      struct stat st {};
      const std::string tool = root.resolved + "/node_modules/.bin/" + first;
      if (::stat(tool.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        return "the project's installed tool " + first;
      }
    }
  }
  return std::nullopt;
}

}  // namespace toolguard::detail
