// Why a rule had nothing to say about a call: its target skipped the tool, or
// it abstained on every simple command or path.
#include "cli/explain_unmatched.hpp"

#include <algorithm>
#include <set>

#include "core/rule_conditions.hpp"

namespace toolguard::cli {
namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// Why the rule's target does not select the call's tool; "" when it does.
std::string targetMismatch(const RuleTarget& target, const CallView& view) {
  const std::string& name = view.toolName();
  const ToolInfo& tool = view.tool();
  if (!target.tools.empty() &&
      std::none_of(target.tools.begin(), target.tools.end(),
                   [&](const std::string& p) { return toolNameMatches(p, name); })) {
    return "it is for the tools " + joined(target.tools) + "; the call is to " + name;
  }
  if (!target.categories.empty() && std::find(target.categories.begin(), target.categories.end(),
                                              tool.metadata.category) == target.categories.end()) {
    return "it is for tools of the categories " + joined(target.categories) + "; " + name +
           (tool.metadata.category.empty() ? " has no category"
                                           : "'s category is " + tool.metadata.category);
  }
  if (!target.kinds.empty() &&
      std::find(target.kinds.begin(), target.kinds.end(), tool.kind) == target.kinds.end()) {
    std::vector<std::string> kinds;
    for (ToolKind kind : target.kinds) kinds.emplace_back(toString(kind));
    return "it is for " + joined(kinds) + " tools; " + name + " is a " +
           std::string(toString(tool.kind)) + " tool";
  }
  return "";
}

}  // namespace

std::string whyNotMatched(const Rule& rule, const CallView& view) {
  if (std::string mismatch = targetMismatch(rule.target(), view); !mismatch.empty()) {
    return mismatch;
  }
  const ShellProgram* program = view.shellProgram();
  if (restrictsPathByPath(rule)) {  // judged path by path
    if (program != nullptr) {
      return "no path the program's commands read or write matches it";
    }
    return "the call reads or writes no path";
  }
  if (rule.judgesShellCommands() && program != nullptr) {
    if (program->commands.empty()) return "the program has no simple command";
    std::string each;
    for (const SimpleCommand& command : program->commands) {
      each += (each.empty() ? "'" : ", '") + command.text + "'";
    }
    return program->commands.size() == 1 ? "it does not match the command " + each
                                         : "it matches none of the simple commands " + each;
  }
  return "its conditions do not hold for this call";
}

std::vector<UnmatchedRule> unmatchedRules(const std::vector<std::shared_ptr<const Rule>>& rules,
                                          const Decision& decision, const CallView& view) {
  std::set<const Rule*> consulted;
  for (const RuleTrace& trace : decision.consulted) consulted.insert(trace.rule.get());
  std::vector<UnmatchedRule> out;
  for (const std::shared_ptr<const Rule>& rule : rules) {
    if (consulted.count(rule.get()) != 0) continue;
    out.push_back(UnmatchedRule{rule, whyNotMatched(*rule, view)});
  }
  return out;
}

}  // namespace toolguard::cli
