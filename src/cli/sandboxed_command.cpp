// Commands rewritten to run in the sandbox (sandboxed_command.hpp).
#include "cli/sandboxed_command.hpp"

#include "core/shell_quote.hpp"

namespace toolguard::cli {

std::vector<std::string> sandboxedArguments(const std::string& binary,
                                            const std::vector<std::string>& workspaces,
                                            const front::PolicyOptions& policy,
                                            const std::vector<std::string>& command,
                                            const std::string& rule) {
  std::vector<std::string> words = {binary, "sandbox"};
  auto add = [&words](const char* option, const std::string& value) {
    words.emplace_back(option);
    words.push_back(value);
  };
  for (const std::string& workspace : workspaces) add("--workspace", workspace);
  // The same policy layers the call was judged with.
  for (const std::string& file : policy.policy_files) add("--policy", file);
  for (const std::string& profile : policy.profiles) add("--profile", profile);
  if (!policy.project.empty()) add("--project", policy.project);
  for (auto [flag, set] : {std::pair{"--no-builtin", policy.no_builtin},
                           {"--no-user", policy.no_user},
                           {"--no-project", policy.no_project},
                           {"--no-managed", policy.no_managed}}) {
    if (set) words.emplace_back(flag);
  }
  if (!rule.empty()) add("--rule", rule);
  words.emplace_back("--");
  words.insert(words.end(), command.begin(), command.end());
  return words;
}

std::string sandboxedShellCommand(const std::string& binary,
                                  const std::vector<std::string>& workspaces,
                                  const front::PolicyOptions& policy, const std::string& command,
                                  const std::string& rule) {
  std::string text;
  for (const std::string& word :
       sandboxedArguments(binary, workspaces, policy, {"bash", "-c", command}, rule)) {
    text += (text.empty() ? "" : " ") + detail::quotedIfNeeded(word, detail::EqualsSign::Quoted);
  }
  return text;
}

}  // namespace toolguard::cli
