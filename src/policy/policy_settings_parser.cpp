// Policy files: the path settings, limits, the LLM validator, rate limits
// and the tools a file defines.
#include "policy_file_parser.hpp"

namespace toolguard::detail {

void PolicyFileParser::parsePathSettings(const DocNode& node, PolicyDocument& doc) {
  doc.paths_where = where(node);
  if (!node.IsMap()) {
    error(node,
          "paths: expected a mapping with case_sensitivity, follow_symlinks, "
          "workspace_roots");
    return;
  }
  for (const auto& [key, value] : entries(node)) {
    const std::string k = key.Scalar();
    if (k == "case_sensitivity") {
      doc.case_sensitivity = named<CaseSensitivity>(
          value, "paths.case_sensitivity", parseCaseSensitivity, "auto, sensitive, insensitive");
    } else if (k == "follow_symlinks") {
      doc.follow_symlinks = boolean(value, "paths.follow_symlinks");
    } else if (k == "workspace_roots") {
      doc.workspace_roots = strings(value, "paths.workspace_roots");
      for (const std::string& root : doc.workspace_roots) {
        if (Expected<void> characters = checkPathCharacters(root); !characters) {
          error(value, "paths.workspace_roots: " + characters.error());
        }
      }
    } else {
      error(key, unknownNameMessage("paths: unknown key", k, "",
                                    "case_sensitivity, follow_symlinks, workspace_roots"));
    }
  }
}

void PolicyFileParser::parseLimits(const DocNode& node, PolicyDocument& doc) {
  doc.limits_where = where(node);
  if (!node.IsMap()) {
    error(node, "limits: expected a mapping with max_argument_bytes, max_argument_depth");
    return;
  }
  for (const auto& [key, value] : entries(node)) {
    const std::string k = key.Scalar();
    if (k == "max_argument_bytes") {
      doc.max_argument_bytes = count(value, "limits.max_argument_bytes", 2, kMaxArgumentBytes);
    } else if (k == "max_argument_depth") {
      doc.max_argument_depth = count(value, "limits.max_argument_depth", 1, kMaxArgumentDepth);
    } else {
      error(key, unknownNameMessage("limits: unknown key", k, "",
                                    "max_argument_bytes, max_argument_depth"));
    }
  }
}

// llm: the LLM validator for escalated calls (docs/llm-validator.md).
void PolicyFileParser::parseLlm(const DocNode& node, PolicyDocument& doc) {
  doc.llm_where = where(node);
  if (!node.IsMap()) {
    error(node,
          "llm: expected a mapping with enabled, base_url, model, api_key_env, "
          "max_turns, timeout, max_input_bytes");
    return;
  }
  for (const auto& [key, value] : entries(node)) {
    const std::string k = key.Scalar();
    const std::string what = "llm." + k;
    if (k == "enabled") {
      doc.llm_enabled = boolean(value, what);
    } else if (k == "base_url") {
      doc.llm_base_url = scalar(value, what);
    } else if (k == "model") {
      doc.llm_model = scalar(value, what);
    } else if (k == "api_key_env") {
      doc.llm_api_key_env = scalar(value, what);
    } else if (k == "max_turns") {
      doc.llm_max_turns = count(value, what, 1, 20);
    } else if (k == "timeout") {
      doc.llm_timeout = duration(value, what);
    } else if (k == "max_input_bytes") {
      doc.llm_max_input_bytes = count(value, what, 256, size_t{1} << 20);
    } else if (k == "api_key") {
      error(key,
            "llm.api_key: a policy file never holds the key; name the environment "
            "variable that does with api_key_env");
    } else {
      error(key, unknownNameMessage("llm: unknown key", k, "",
                                    "enabled, base_url, model, api_key_env, max_turns, "
                                    "timeout, max_input_bytes"));
    }
  }
}

void PolicyFileParser::parseRateLimits(const DocNode& node, PolicyDocument& doc) {
  if (!node.IsSequence()) {
    error(node, "rate_limits: expected a list of limits");
    return;
  }
  for (size_t i = 0; i < node.size(); ++i) {
    const DocNode& item = node[i];
    const std::string p = "rate_limits[" + std::to_string(i) + "]";
    if (!item.IsMap()) {
      error(item, p + ": expected a mapping with tool or category, max_calls and window, " +
                      "per, max_concurrent");
      continue;
    }
    RateLimit limit;
    limit.source = where(item);
    bool has_window = false;
    for (const auto& [key, value] : entries(item)) {
      const std::string k = key.Scalar();
      if (k == "tool") {
        limit.tool = scalar(value, p + ".tool").value_or("*");
      } else if (k == "category") {
        limit.category = scalar(value, p + ".category").value_or("");
      } else if (k == "max_calls") {
        limit.max_calls = count(value, p + ".max_calls", 1, 1000000).value_or(0);
      } else if (k == "window") {
        has_window = true;
        limit.window = duration(value, p + ".window").value_or(std::chrono::milliseconds(0));
      } else if (k == "max_concurrent") {
        limit.max_concurrent = count(value, p + ".max_concurrent", 1, 100000).value_or(0);
      } else if (k == "per") {
        std::string per = scalar(value, p + ".per").value_or("");
        if (per == "session") {
          limit.per = RateLimitPer::Session;
        } else if (per == "agent") {
          limit.per = RateLimitPer::Agent;
        } else {
          error(value, p + ".per: expected session or agent");
        }
      } else {
        error(key, unknownNameMessage(p + ": unknown key", k, "",
                                      "tool, category, max_calls, window, per, "
                                      "max_concurrent"));
      }
    }
    if ((limit.max_calls > 0) != has_window) {
      error(item, p + ": max_calls and window go together");
    } else if (limit.max_calls == 0 && limit.max_concurrent == 0) {
      error(item, p + ": expected max_calls with window, or max_concurrent");
    }
    doc.rate_limits.push_back(std::move(limit));
  }
}

void PolicyFileParser::parseTools(const DocNode& node, PolicyDocument& doc) {
  if (!node.IsMap()) {
    error(node, "tools: expected a mapping from tool name to its description");
    return;
  }
  for (const auto& [key, value] : entries(node)) {
    ToolEntry entry;
    entry.name = key.Scalar();
    entry.where = where(key);
    if (!value.IsMap()) {
      error(value, "tools." + entry.name + ": expected a mapping");
      continue;
    }
    const std::string p = "tools." + entry.name + ".";
    for (const auto& [fk, fv] : entries(value)) {
      const std::string f = fk.Scalar();
      if (f == "description") {
        entry.description = scalar(fv, p + f);
      } else if (f == "kind") {
        entry.kind = named<ToolKind>(fv, p + f, parseToolKind,
                                     "shell, file-read, file-write, file-search, network, "
                                     "agent, other");
      } else if (f == "category") {
        entry.category = scalar(fv, p + f);
      } else if (f == "side_effect") {
        entry.side_effect = named<SideEffect>(fv, p + f, parseSideEffect,
                                              "none, local-read, local-write, network-read, "
                                              "network-write, irreversible");
      } else if (f == "risk") {
        entry.risk = named<RiskLevel>(fv, p + f, parseRiskLevel, "low, medium, high, critical");
      } else if (f == "default_approval") {
        entry.default_approval =
            named<DefaultApproval>(fv, p + f, parseDefaultApproval, "never, conditional, always");
      } else if (f == "idempotent") {
        entry.idempotent = boolean(fv, p + f);
      } else if (f == "read_only") {
        entry.read_only = boolean(fv, p + f);
      } else if (f == "policy") {
        entry.policy = named<ToolPolicy>(fv, p + f, parseToolPolicy, "allow, confirm, deny");
      } else if (f == "command_arg") {
        entry.command_arg = scalar(fv, p + f);
      } else if (f == "path_args") {
        entry.path_args = strings(fv, p + f);
      } else if (f == "input_schema") {
        entry.input_schema = docToJson(fv);
        try {
          JsonSchema::compile(*entry.input_schema);
        } catch (const SchemaError& e) {
          error(fv, p + f + ": " + e.what());
        }
      } else {
        error(fk, unknownNameMessage("unknown key", f, " in a tool",
                                     "description, kind, category, side_effect, risk, "
                                     "default_approval, idempotent, read_only, policy, "
                                     "command_arg, path_args, input_schema"));
      }
    }
    doc.tools.push_back(std::move(entry));
  }
}

}  // namespace toolguard::detail
