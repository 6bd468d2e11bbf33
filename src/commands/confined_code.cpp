// The workspace's own code, confined (see confined_code.hpp).
#include "confined_code.hpp"

#include <sys/stat.h>

#include <span>

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

// Options after which an interpreter runs code or a module named on the
// command line rather than a file: inline code stays for a person to read.
bool runsInlineCode(std::string_view option) {
  return oneOf(option,
               {"-c", "-e", "-E", "-m", "-p", "-r", "--eval", "--print", "--command", "--require",
                "--import", "--loader", "--experimental-loader", "-i", "--interactive", "-s"});
}

// Interpreter options followed by a value in the next word.
bool takesValue(std::string_view interpreter, std::string_view option) {
  if (interpreter.starts_with("python"))
    return oneOf(option, {"-W", "-X", "-Q", "--check-hash-based-pycs"});
  if (interpreter == "perl") return oneOf(option, {"-I", "-M", "-m"});
  if (interpreter == "ruby") return oneOf(option, {"-I", "-r"});
  return false;
}

std::optional<std::string> interpretedScript(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  const std::span<const ShellWord> args = c.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    const ShellWord& word = args[i];
    if (word.dynamic) return std::nullopt;
    if (word.text == "--") {
      if (i + 1 < args.size() && workspaceFile(args[i + 1], s)) {
        return "the workspace's script " + args[i + 1].text;
      }
      return std::nullopt;
    }
    if (word.text.starts_with('-') && word.text.size() > 1) {
      if (runsInlineCode(word.text.substr(0, word.text.find('=')))) return std::nullopt;
      // A cluster of short options with one that runs inline code (-Bc, -pe).
      if (!word.text.starts_with("--") &&
          word.text.find_first_of("ceEmprs", 1) != std::string::npos) {
        return std::nullopt;
      }
      if (takesValue(name, word.text)) ++i;
      continue;
    }
    if (workspaceFile(word, s)) return "the workspace's script " + word.text;
    return std::nullopt;
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
