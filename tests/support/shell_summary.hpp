#pragma once
// Test helper: a parsed shell program as one line per simple command.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/shell.hpp"

namespace toolguard::testing {

/// Parses with HOME /home/u, as the shell tests expect.
inline ShellProgram parseAsUser(std::string_view script) {
  ShellParseOptions options;
  options.home = "/home/u";
  return parseShellProgram(script, options);
}

/// Each command as "name arg arg", dynamic words marked with a leading '$'.
inline std::vector<std::string> summary(const ShellProgram& p) {
  std::vector<std::string> out;
  for (const SimpleCommand& c : p.commands) {
    std::string line;
    for (const ShellWord& w : c.words) {
      if (!line.empty()) line += ' ';
      line += (w.dynamic ? "$" : "") + w.text;
    }
    out.push_back(line);
  }
  return out;
}

/// True when one of the program's commands reads as `line`.
inline bool runs(const ShellProgram& p, std::string_view line) {
  const std::vector<std::string> lines = summary(p);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

}  // namespace toolguard::testing
