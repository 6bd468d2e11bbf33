// Every path a call reads or writes, whatever the route, meets the path rules here.
#include "path_judgement.hpp"

#include "paths/path_probes.hpp"

namespace toolguard::detail {

std::string describeAccess(const PathAccess& access) {
  const std::string verb(toString(access.kind));
  std::string where = access.path.lexical;
  if (!access.known_location) where = "'" + access.text + "' (a place known only at run time)";
  switch (access.shape) {
    case PathShape::File:
      if (access.known_location && access.path.resolved != access.path.lexical) {
        where += " (-> " + access.path.resolved + ")";
      }
      return access.route + " " + verb + " " + where;
    case PathShape::Tree:
      return access.route + " " + verb + " everything in " + where;
    case PathShape::Pattern:
      return access.route + " " + verb + " the files " + where + " matches";
  }
  return access.route + " " + verb + " " + where;
}

bool judgePathAccesses(const CompiledPolicy& compiled, const CallView& view,
                       const std::vector<PathAccess>& accesses, std::optional<size_t> command_index,
                       const std::string& command_text, StrictestFinding& best, Decision& d) {
  if (compiled.path_rules.empty() || accesses.empty()) return false;
  std::vector<std::vector<PathAccess>> probes;
  probes.reserve(accesses.size());
  const PathExamplesSource examples = [&compiled]() -> const std::vector<PathExample>& {
    return compiled.pathExamples();
  };
  for (const PathAccess& access : accesses) probes.push_back(pathProbes(access, examples, view));
  bool found = false;
  for (uint32_t index : compiled.path_rules) {
    const std::shared_ptr<const Rule>& rule = compiled.policy.rules[index];
    std::optional<Finding> strictest;
    for (size_t a = 0; a < accesses.size(); ++a) {
      for (const PathAccess& probe : probes[a]) {
        std::optional<Finding> finding =
            safely(*rule, [&] { return rule->evaluateAccess(probe, view); });
        if (!finding) continue;
        // A shell command's reason says which of its paths met the rule.
        if (command_index) finding->reason += ": " + describeAccess(accesses[a]);
        if (!strictest || isStricter(finding->verdict, strictest->verdict)) strictest = finding;
        break;  // one concrete path per access is enough
      }
    }
    if (strictest) {
      found = true;
      best.consider(strictest, rule.get(), command_text);
    }
    // A shell program's abstentions would bury the findings; the call's own are listed.
    if (strictest || !command_index) {
      d.consulted.push_back(RuleTrace{rule, std::move(strictest), command_index});
    }
  }
  return found;
}

}  // namespace toolguard::detail
