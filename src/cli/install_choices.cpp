// Choosing Claude Code's mode and Gemini CLI's ask for `toolguard install`.
#include "cli/install_choices.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>

namespace toolguard::cli {
namespace {

// The first line the person types, trimmed and lower-cased; "" at EOF.
std::string answerLine() {
  std::string line;
  if (!std::getline(std::cin, line)) return "";
  std::string out;
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r') out += static_cast<char>(std::tolower(c));
  }
  return out;
}

// The output of `gemini --version` (at most ten seconds), or "".
std::string geminiVersionOutput() {
  FILE* pipe = ::popen("timeout 10 gemini --version 2>/dev/null", "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[256];
  while (out.size() < 4096 && std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  ::pclose(pipe);
  return out;
}

}  // namespace

std::string claudeModeSentence(ClaudeMode mode) {
  if (mode == ClaudeMode::Decide) {
    return "decide: toolguard's allow skips Claude Code's permission prompt (fewer prompts); "
           "its deny blocks and its ask prompts";
  }
  return "tighten: toolguard's allow is no opinion, so Claude Code's own permissions decide "
         "(allow rules, prompts); toolguard's deny blocks and its ask prompts";
}

ClaudeModeChoice chooseClaudeMode(const std::string& flag, const nlohmann::ordered_json& settings,
                                  bool interactive) {
  if (flag == "decide") return {ClaudeMode::Decide, "given with --mode"};
  if (flag == "tighten") return {ClaudeMode::Tighten, "given with --mode"};
  if (std::optional<ClaudeMode> installed = installedClaudeMode(settings)) {
    return {*installed, "kept from the installed hook (change it with --mode)"};
  }
  if (interactive) {
    std::cout << "What should toolguard's allow mean to Claude Code?\n"
              << "  1) " << claudeModeSentence(ClaudeMode::Tighten) << "\n"
              << "  2) " << claudeModeSentence(ClaudeMode::Decide) << "\n"
              << "Choose 1 or 2 [1]: " << std::flush;
    const std::string answer = answerLine();
    if (answer == "2" || answer == "decide") return {ClaudeMode::Decide, "chosen at the prompt"};
    return {ClaudeMode::Tighten, "chosen at the prompt"};
  }
  return {ClaudeMode::Tighten, "the default without --mode when no one can be asked"};
}

bool geminiVersionAsks(const std::string& version_output) {
  // The first MAJOR.MINOR.PATCH in the text.
  for (size_t i = 0; i < version_output.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(version_output[i]))) continue;
    long parts[3] = {0, 0, 0};
    size_t j = i;
    int n = 0;
    for (; n < 3; ++n) {
      if (j >= version_output.size() ||
          !std::isdigit(static_cast<unsigned char>(version_output[j])))
        break;
      for (;
           j < version_output.size() && std::isdigit(static_cast<unsigned char>(version_output[j]));
           ++j) {
        parts[n] = std::min(parts[n] * 10 + (version_output[j] - '0'), 1000000L);
      }
      if (n < 2) {
        if (j >= version_output.size() || version_output[j] != '.') break;
        ++j;
      }
    }
    if (n == 3) return parts[0] > 0 || parts[1] >= 36;
    i = j;
  }
  return false;
}

GeminiAsksChoice chooseGeminiAsks(const std::string& flag) {
  if (flag == "yes") return {true, "given with --agent-asks yes"};
  if (flag == "no") return {false, "given with --agent-asks no"};
  std::string output = geminiVersionOutput();
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  if (output.empty()) {
    return {false,
            "no `gemini --version` answered on PATH; if your Gemini CLI is 0.36 or later, "
            "install again with --agent-asks yes"};
  }
  if (geminiVersionAsks(output)) {
    return {true, "Gemini CLI " + output + " (0.36 or later) asks the user on a hook's ask"};
  }
  return {false, "Gemini CLI " + output +
                     " is older than 0.36 and would run a call a hook asks "
                     "about; upgrade and install again"};
}

}  // namespace toolguard::cli
