// Shell commands rewritten to run in the sandbox (sandboxed_command.hpp).
#include "cli/sandboxed_command.hpp"

#include "core/shell_quote.hpp"

namespace toolguard::cli {

std::string sandboxedShellCommand(const std::string& binary,
                                  const std::vector<std::string>& workspaces,
                                  const front::PolicyOptions& policy, const std::string& command) {
  using detail::EqualsSign;
  std::string text = detail::quotedIfNeeded(binary, EqualsSign::Quoted) + " sandbox";
  for (const std::string& workspace : workspaces) {
    text += " --workspace " + detail::quotedIfNeeded(workspace, EqualsSign::Plain);
  }
  // The same policy layers the hook judged the call with.
  for (const std::string& file : policy.policy_files) {
    text += " --policy " + detail::quotedIfNeeded(file, EqualsSign::Plain);
  }
  for (const std::string& profile : policy.profiles) {
    text += " --profile " + detail::quotedIfNeeded(profile, EqualsSign::Plain);
  }
  if (!policy.project.empty()) {
    text += " --project " + detail::quotedIfNeeded(policy.project, EqualsSign::Plain);
  }
  if (policy.no_builtin) text += " --no-builtin";
  if (policy.no_user) text += " --no-user";
  if (policy.no_project) text += " --no-project";
  if (policy.no_managed) text += " --no-managed";
  return text + " -- bash -c " + detail::singleQuoted(command);
}

}  // namespace toolguard::cli
