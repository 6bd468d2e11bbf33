// Merging one policy document into a policy, layer by layer.
//
// Rules are all consulted and the strictest finding wins, so adding one never
// loosens another. What can loosen is replacing something: the default
// verdict, a tool's entry, or a rule with the same id. A restricted layer may
// replace only to tighten: nothing may loosen a managed setting, and an
// untrusted project may loosen nothing (its allow and escalate rules are
// ignored too). Ignored parts become warnings, shown by `policy lint`.
#include <algorithm>

#include "policy_document.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/secret_rules.hpp"
#include "toolguard/shell_rules.hpp"

namespace toolguard::detail {

bool mayLoosenSetting(PolicyLayer existing, PolicyLayer incoming, bool trusted) {
  if (existing == PolicyLayer::Managed && incoming != PolicyLayer::Managed) return false;
  if (incoming == PolicyLayer::Project && !trusted) return false;
  return true;
}

std::string loosenRefusal(PolicyLayer layer, bool trusted) {
  if (layer == PolicyLayer::Project && !trusted) {
    return "an untrusted project cannot loosen the policy (list the project in "
           "trusted_projects of a user policy file to allow it)";
  }
  return "the " + std::string(toString(layer)) + " layer cannot loosen a managed setting";
}

namespace {

// The layer that owns a setting after `incoming` changed it: a managed setting
// stays managed when another layer only tightens it.
PolicyLayer owner(PolicyLayer existing, PolicyLayer incoming) {
  return existing == PolicyLayer::Managed ? PolicyLayer::Managed : incoming;
}

// Verdict a tool's entry stands for when nothing else decides.
Verdict fallbackVerdict(const ToolInfo& tool, Verdict default_verdict) {
  auto policy = effectivePolicy(tool);
  return policy ? toVerdict(*policy) : default_verdict;
}

void mergeDefault(Policy& policy, const PolicyDocument& doc, PolicyLayer layer, bool trusted) {
  if (!doc.default_verdict) return;
  Verdict incoming = *doc.default_verdict;
  if (isStricter(policy.default_verdict, incoming) &&
      !mayLoosenSetting(policy.default_layer, layer, trusted)) {
    policy.warnings.push_back(
        {doc.default_where, "default " + std::string(toString(incoming)) +
                                " ignored: " + loosenRefusal(layer, trusted) + " (default " +
                                std::string(toString(policy.default_verdict)) + " from " +
                                policy.default_source.toString() + ")"});
    return;
  }
  policy.default_verdict = incoming;
  if (incoming == Verdict::Deny) policy.rules_before_deny_default = policy.rules.size();
  policy.default_source = doc.default_where;
  policy.default_layer = owner(policy.default_layer, layer);
}

void mergeTool(Policy& policy, const ToolEntry& entry, PolicyLayer layer, bool trusted) {
  const ToolInfo* existing = policy.tools.find(entry.name);
  auto origin = policy.tool_origins.find(entry.name);
  PolicyLayer existing_layer =
      origin != policy.tool_origins.end() ? origin->second.layer : PolicyLayer::Builtin;
  ToolInfo updated = existing ? *existing : policy.tools.resolve(entry.name);
  updated.name = entry.name;
  applyToolEntry(updated, entry);

  bool policy_given = entry.policy || entry.default_approval;
  if (!mayLoosenSetting(existing ? existing_layer : PolicyLayer::Builtin, layer, trusted)) {
    // Only tightening survives: a stricter fallback verdict, a higher risk, and
    // the description. A new tool starts from the generic description of an
    // unknown tool, so its category, kind and arguments cannot steer it away
    // from the rules that select unknown tools.
    ToolInfo restricted = existing ? *existing : policy.tools.resolve(entry.name);
    restricted.name = entry.name;
    if (entry.description) restricted.description = *entry.description;
    const Verdict before = fallbackVerdict(restricted, policy.default_verdict);
    policy_given = false;  // only a stricter policy is taken, below
    if (isStricter(fallbackVerdict(updated, policy.default_verdict), before)) {
      restricted.policy = updated.policy;
      restricted.metadata.default_approval = updated.metadata.default_approval;
      // Under a deny default an ask from this layer would loosen: it grants
      // only when at least as strict as the default.
      policy_given =
          (entry.policy || entry.default_approval) &&
          !isStricter(policy.default_verdict, fallbackVerdict(updated, policy.default_verdict));
    }
    if (updated.metadata.risk > restricted.metadata.risk) {
      restricted.metadata.risk = updated.metadata.risk;
    }
    const bool ignored = fallbackVerdict(restricted, policy.default_verdict) !=
                             fallbackVerdict(updated, policy.default_verdict) ||
                         restricted.metadata.risk != updated.metadata.risk ||
                         restricted.kind != updated.kind ||
                         restricted.command_arg != updated.command_arg ||
                         restricted.path_args != updated.path_args ||
                         restricted.metadata.category != updated.metadata.category ||
                         restricted.metadata.side_effect != updated.metadata.side_effect ||
                         restricted.metadata.read_only != updated.metadata.read_only ||
                         restricted.metadata.idempotent != updated.metadata.idempotent;
    if (ignored) {
      policy.warnings.push_back({entry.where, "tool " + entry.name + ": looser settings ignored: " +
                                                  loosenRefusal(layer, trusted)});
    }
    updated = std::move(restricted);
  }
  const bool sets_policy =
      (origin != policy.tool_origins.end() && origin->second.sets_policy) || policy_given;
  policy.tools.add(std::move(updated));
  policy.tool_origins[entry.name] = ToolOrigin{
      owner(existing ? existing_layer : PolicyLayer::Builtin, layer), entry.where, sets_policy};
}

void mergeRule(Policy& policy, RuleSpec spec, PolicyLayer layer, bool trusted,
               std::vector<PolicyDiagnostic>& errors) {
  const SourceLocation where = spec.header.source;
  const std::string id = spec.header.id;
  auto existing = std::find_if(policy.rules.begin(), policy.rules.end(),
                               [&](const auto& rule) { return rule->id() == id; });
  if (existing != policy.rules.end() && (*existing)->layer() == layer &&
      layer != PolicyLayer::Code) {
    errors.push_back({where, "duplicate rule id '" + id + "' (first defined at " +
                                 (*existing)->source().toString() + ")"});
    return;
  }
  auto loosening = [](const RuleSpec& s) {
    return s.verdict == Verdict::Allow || s.verdict == Verdict::Escalate;
  };
  if (layer == PolicyLayer::Project && !trusted && !spec.first_match.empty()) {
    // Dropping a loosening case only lets a later, stricter case decide.
    auto& cases = spec.first_match;
    for (auto it = cases.begin(); it != cases.end();) {
      if (!loosening(*it)) {
        ++it;
        continue;
      }
      policy.warnings.push_back(
          {it->header.source, "rule " + id + ": a first_match case (" +
                                  std::string(toString(it->verdict)) +
                                  ") ignored: " + loosenRefusal(layer, trusted)});
      it = cases.erase(it);
    }
    if (cases.empty()) return;
  } else if (layer == PolicyLayer::Project && !trusted && loosening(spec)) {
    policy.warnings.push_back({where, "rule " + id + " (" + std::string(toString(spec.verdict)) +
                                          ") ignored: " + loosenRefusal(layer, trusted)});
    return;
  }
  if (existing != policy.rules.end() && !mayLoosenSetting((*existing)->layer(), layer, trusted)) {
    policy.warnings.push_back({where, "rule " + id + " ignored: it would replace rule " + id +
                                          " from " + (*existing)->source().toString() + ", and " +
                                          loosenRefusal(layer, trusted)});
    return;
  }
  RuleSandboxGrant grant{spec.sandbox_writable, spec.sandbox_hosts};
  std::shared_ptr<const Rule> compiled;
  try {
    compiled = compileRule(std::move(spec));
  } catch (const PolicyError& e) {
    errors.insert(errors.end(), e.errors().begin(), e.errors().end());
    return;
  }
  // The grant goes with the rule: a later layer's rule of the same id
  // replaces both.
  if (!grant.writable.empty() || !grant.hosts.empty()) {
    policy.rule_sandbox_grants[id] = std::move(grant);
  } else {
    policy.rule_sandbox_grants.erase(id);
  }
  if (existing != policy.rules.end()) {
    *existing = std::move(compiled);  // a later layer replaces a rule with the same id
  } else {
    policy.rules.push_back(std::move(compiled));
  }
}

}  // namespace

void applyToolEntry(ToolInfo& tool, const ToolEntry& e) {
  tool.name = e.name;
  if (e.description) tool.description = *e.description;
  if (e.kind) tool.kind = *e.kind;
  if (e.category) tool.metadata.category = *e.category;
  if (e.side_effect) tool.metadata.side_effect = *e.side_effect;
  if (e.risk) tool.metadata.risk = *e.risk;
  if (e.default_approval) tool.metadata.default_approval = *e.default_approval;
  if (e.idempotent) tool.metadata.idempotent = *e.idempotent;
  if (e.read_only) tool.metadata.read_only = *e.read_only;
  if (e.policy) tool.policy = *e.policy;
  if (e.command_arg) tool.command_arg = *e.command_arg;
  if (e.path_args) tool.path_args = *e.path_args;
  if (e.input_schema) tool.input_schema = *e.input_schema;
}

// paths: settings. Judging case-sensitively, not following symlinks and
// widening the workspace loosen; restricted layers may only tighten.
void mergePathSettings(Policy& policy, const PolicyDocument& doc, PolicyLayer layer, bool trusted) {
  PathSettings& paths = policy.paths;
  const bool may_loosen = mayLoosenSetting(paths.layer, layer, trusted);
  auto refuse = [&](const std::string& what) {
    policy.warnings.push_back(
        {doc.paths_where, what + " ignored: " + loosenRefusal(layer, trusted)});
  };
  bool changed = false;
  if (doc.case_sensitivity) {
    const bool tightens = *doc.case_sensitivity == CaseSensitivity::Insensitive ||
                          *doc.case_sensitivity == paths.case_sensitivity;
    if (tightens || may_loosen) {
      paths.case_sensitivity = *doc.case_sensitivity;
      changed = true;
    } else {
      refuse("paths.case_sensitivity " + std::string(toString(*doc.case_sensitivity)));
    }
  }
  if (doc.follow_symlinks) {
    if (*doc.follow_symlinks || !paths.follow_symlinks || may_loosen) {
      paths.follow_symlinks = *doc.follow_symlinks;
      changed = true;
    } else {
      refuse("paths.follow_symlinks false");
    }
  }
  if (!doc.workspace_roots.empty()) {
    if (may_loosen) {
      paths.workspace_roots.insert(paths.workspace_roots.end(), doc.workspace_roots.begin(),
                                   doc.workspace_roots.end());
      changed = true;
    } else {
      refuse("paths.workspace_roots");
    }
  }
  if (changed) paths.layer = owner(paths.layer, layer);
}

// limits: lowering a limit tightens; raising one loosens.
void mergeLimits(Policy& policy, const PolicyDocument& doc, PolicyLayer layer, bool trusted) {
  ArgumentLimits& limits = policy.limits;
  const bool may_loosen = mayLoosenSetting(limits.layer, layer, trusted);
  auto apply = [&](const std::optional<size_t>& incoming, size_t& current, const char* name) {
    if (!incoming) return;
    if (*incoming <= current || may_loosen) {
      limits.layer = owner(limits.layer, layer);
      current = *incoming;
      return;
    }
    policy.warnings.push_back({doc.limits_where, std::string("limits.") + name + " " +
                                                     std::to_string(*incoming) +
                                                     " ignored: " + loosenRefusal(layer, trusted)});
  };
  apply(doc.max_argument_bytes, limits.max_bytes, "max_argument_bytes");
  apply(doc.max_argument_depth, limits.max_depth, "max_argument_depth");
}

// llm: turning the validator off and lowering its limits tighten; turning
// it on, pointing it at an endpoint or a model, and raising limits loosen
// (an untrusted project must not send calls to a server that says ALLOW).
void mergeLlmSettings(Policy& policy, const PolicyDocument& doc, PolicyLayer layer, bool trusted) {
  LlmSettings& llm = policy.llm;
  const bool may_loosen = mayLoosenSetting(llm.layer, layer, trusted);
  bool changed = false;
  auto refuse = [&](const std::string& what) {
    policy.warnings.push_back(
        {doc.llm_where, "llm." + what + " ignored: " + loosenRefusal(layer, trusted)});
  };
  auto set = [&](auto& current, const auto& incoming, bool tightens, const std::string& what) {
    if (!incoming) return;
    if (tightens || may_loosen) {
      current = *incoming;
      changed = true;
    } else {
      refuse(what);
    }
  };
  set(llm.enabled, doc.llm_enabled, doc.llm_enabled == false, "enabled");
  set(llm.base_url, doc.llm_base_url, false, "base_url");
  set(llm.model, doc.llm_model, false, "model");
  set(llm.api_key_env, doc.llm_api_key_env, false, "api_key_env");
  std::optional<int> turns;
  if (doc.llm_max_turns) turns = static_cast<int>(*doc.llm_max_turns);
  set(llm.max_turns, turns, turns && *turns <= llm.max_turns, "max_turns");
  set(llm.timeout, doc.llm_timeout, doc.llm_timeout && *doc.llm_timeout <= llm.timeout, "timeout");
  set(llm.max_input_bytes, doc.llm_max_input_bytes,
      doc.llm_max_input_bytes && *doc.llm_max_input_bytes <= llm.max_input_bytes,
      "max_input_bytes");
  if (changed) {
    llm.layer = owner(llm.layer, layer);
    llm.source = doc.llm_where;
  }
}

// The built-in rule sets a document asks for, each added once.
void mergeBuiltinRules(Policy& policy, const PolicyDocument& doc, PolicyLayer layer, bool trusted) {
  for (const std::string& set : doc.builtin_rules) {
    // The shell rules' allow rules loosen: an untrusted project cannot add
    // them. The secrets rule only asks, so anyone may add it.
    if (set == "shell" && layer == PolicyLayer::Project && !trusted) {
      policy.warnings.push_back(
          {doc.default_where, "builtin_rules ignored: " + loosenRefusal(layer, trusted)});
      continue;
    }
    const std::string marker = set == "shell" ? "shell-safe" : "secrets-in-arguments";
    const bool present = std::any_of(policy.rules.begin(), policy.rules.end(),
                                     [&](const auto& r) { return r->id() == marker; });
    if (present) continue;
    auto rules = set == "shell" ? builtinShellRules(layer) : builtinSecretRules(layer);
    for (auto& rule : rules) policy.rules.push_back(std::move(rule));
  }
}

void mergeDocument(Policy& policy, PolicyDocument doc, PolicyLayer layer, bool trusted) {
  mergeDefault(policy, doc, layer, trusted);
  for (const ToolEntry& entry : doc.tools) mergeTool(policy, entry, layer, trusted);
  if (!doc.trusted_projects.empty()) {
    if (layer == PolicyLayer::User || layer == PolicyLayer::Code) {
      policy.trusted_projects.insert(policy.trusted_projects.end(), doc.trusted_projects.begin(),
                                     doc.trusted_projects.end());
    } else {
      policy.warnings.push_back(
          {doc.trusted_where,
           "trusted_projects ignored: only user policy files can trust a project"});
    }
  }
  mergeBuiltinRules(policy, doc, layer, trusted);
  mergePathSettings(policy, doc, layer, trusted);
  mergeLimits(policy, doc, layer, trusted);
  mergeLlmSettings(policy, doc, layer, trusted);
  mergeSandbox(policy, doc, layer, trusted);
  for (RateLimit& limit : doc.rate_limits) {  // a limit only ever tightens
    limit.layer = layer;
    policy.rate_limits.push_back(std::move(limit));
  }
  std::vector<PolicyDiagnostic> errors;
  for (RuleSpec& spec : doc.rules) mergeRule(policy, std::move(spec), layer, trusted, errors);
  mergeSessions(policy, doc, layer, trusted, errors);
  if (!errors.empty()) throw PolicyError(std::move(errors));
}

}  // namespace toolguard::detail
