// The languages of the code a tool call would run or write, so that the guard
// agent loads the right skills: read from the shell program's commands, or
// from the extensions of a file tool's paths.
#include <algorithm>
#include <filesystem>
#include <set>

#include "core/unicode_text.hpp"
#include "toolguard/guard_skills.hpp"

namespace toolguard {
namespace {

// The language of a file by its extension (any case), or "".
std::string_view languageOfPath(std::string_view path) {
  const std::string extension =
      detail::asciiLowercase(std::filesystem::path(path).extension().string());
  if (extension == ".py") return "python";
  if (extension == ".go") return "go";
  if (extension == ".js" || extension == ".mjs" || extension == ".cjs" || extension == ".ts" ||
      extension == ".mts" || extension == ".cts" || extension == ".jsx" || extension == ".tsx") {
    return "js";
  }
  if (extension == ".ps1" || extension == ".psm1") return "powershell";
  if (extension == ".sh" || extension == ".bash") return "bash";
  return "";
}

// python, python3, python3.12, python2.7: "python" and an optional version.
bool isPythonName(std::string_view name) {
  if (!name.starts_with("python")) return false;
  std::string_view version = name.substr(6);
  bool digit_expected = true;  // a version starts with a digit, and so does each part after a '.'
  for (char c : version) {
    if (c >= '0' && c <= '9') {
      digit_expected = false;
    } else if (c == '.' && !digit_expected) {
      digit_expected = true;
    } else {
      return false;
    }
  }
  return version.empty() || !digit_expected;
}

// The first argument that is not an option (`uv --quiet run`), skipping the
// values of the options listed in `options_with_value` (`go -C dir test`).
std::string firstOperand(const SimpleCommand& command,
                         std::initializer_list<std::string_view> options_with_value = {}) {
  const auto args = command.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i].text;
    if (!word.starts_with('-')) return word;
    if (std::find(options_with_value.begin(), options_with_value.end(), word) !=
        options_with_value.end()) {
      ++i;
    }
  }
  return "";
}

// The language a simple command runs code in besides the shell, or "".
std::string_view languageOfCommand(const SimpleCommand& command) {
  std::string name = detail::asciiLowercase(command.name());
  if (name.ends_with(".exe")) name.resize(name.size() - 4);  // powershell.exe, python.exe
  if (isPythonName(name)) return "python";
  if (name == "uv" && firstOperand(command) == "run") return "python";
  if (name == "go") {
    const std::string verb = firstOperand(command, {"-C"});
    if (verb == "run" || verb == "build" || verb == "test" || verb == "generate") return "go";
  }
  if (name == "node" || name == "nodejs" || name == "deno" || name == "bun" || name == "bunx" ||
      name == "npx") {
    return "js";
  }
  if (name == "pwsh" || name == "powershell") return "powershell";
  return languageOfPath(name);  // a script run by its path: ./deploy.py
}

}  // namespace

std::vector<std::string> detectCallLanguages(const CallView& view) {
  std::set<std::string> languages;
  switch (view.tool().kind) {
    case ToolKind::Shell:
      languages.insert("bash");
      if (const ShellProgram* program = view.shellProgram()) {
        for (const SimpleCommand& command : program->commands) {
          if (std::string_view language = languageOfCommand(command); !language.empty()) {
            languages.emplace(language);
          }
        }
      }
      break;
    case ToolKind::FileRead:
    case ToolKind::FileWrite:
    case ToolKind::FileSearch:
      for (const std::string& path : view.rawPaths()) {
        if (std::string_view language = languageOfPath(path); !language.empty()) {
          languages.emplace(language);
        }
      }
      break;
    default:
      break;
  }
  return {languages.begin(), languages.end()};
}

}  // namespace toolguard
