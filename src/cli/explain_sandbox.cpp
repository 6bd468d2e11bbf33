// The sandbox part of `toolguard explain` (explain_sandbox.hpp).
#include "cli/explain_sandbox.hpp"

#include <sstream>

#include "toolguard/paths.hpp"
#include "toolguard/sandbox.hpp"

namespace toolguard::cli {

nlohmann::json sandboxReport(const ToolCall& call, const Engine& engine,
                             const PolicySources& sources, const std::string& rule_id) {
  const ToolInfo& tool = engine.toolInfo(call.tool);
  if (tool.kind != ToolKind::Shell || tool.command_arg.empty()) return nullptr;
  auto command = call.args.find(tool.command_arg);
  if (command == call.args.end() || !command->is_string()) return nullptr;
  SandboxRequest request;
  request.home = homeDirectory();
  request.command = {"bash", "-c", command->get<std::string>()};
  for (const auto& root : sources.project_roots) request.workspaces.push_back(root.string());
  for (const std::string& root : call.context.workspace_roots) request.workspaces.push_back(root);
  if (request.workspaces.empty()) request.workspaces.push_back(call.context.cwd);
  const auto grant = engine.policy().rule_sandbox_grants.find(rule_id);
  const bool granted = grant != engine.policy().rule_sandbox_grants.end();
  const SandboxSettings settings =
      granted ? *sandboxSettingsFor(engine.policy(), rule_id) : sandboxSettingsOf(engine.policy());
  nlohmann::json report = {
      {"rule", granted ? nlohmann::json{{"id", rule_id},
                                        {"writable", grant->second.writable},
                                        {"hosts", grant->second.hosts}}
                       : nlohmann::json(nullptr)},
      {"workspaces", request.workspaces},
      {"writable", settings.writable},
      {"read_only", settings.read_only},
      {"deny_read", settings.deny_read},
      {"network", settings.network == SandboxNetwork::None       ? "none"
                  : settings.network == SandboxNetwork::Loopback ? "loopback"
                  : settings.network == SandboxNetwork::Proxy    ? "proxy"
                                                                 : "open"},
      {"hosts", settings.hosts},
      {"when_unavailable",
       settings.when_unavailable == SandboxFallback::Ask ? "ask" : "unconfined"},
  };
  Expected<SandboxReport> described = describeSandbox(settings, request);
  if (!described) {
    report["error"] = described.error();
    return report;
  }
  nlohmann::json parts = nlohmann::json::array();
  for (const SandboxPart& part : described->parts) {
    parts.push_back({{"what", part.what}, {"held", part.held}, {"why", part.why}});
  }
  report["parts"] = std::move(parts);
  report["kernel"] = {{"landlock_abi", described->kernel.landlock_abi},
                      {"seccomp", described->kernel.seccomp},
                      {"user_namespaces", described->kernel.user_namespaces}};
  return report;
}

std::string sandboxReportText(const nlohmann::json& sandbox) {
  if (!sandbox.is_object()) return "";
  std::ostringstream out;
  out << "\nIn the sandbox (toolguard sandbox, or a hook installed with --sandbox yes):\n";
  out << "  writes only in: ";
  for (const auto& place : sandbox.at("workspaces")) out << place.get<std::string>() << ", ";
  out << "a private TMPDIR and the writable places; network: "
      << sandbox.at("network").get<std::string>() << "\n";
  if (const nlohmann::json rule = sandbox.value("rule", nlohmann::json()); rule.is_object()) {
    out << "  rule " << rule.at("id").get<std::string>() << " adds (its own sandbox:, run with "
        << "toolguard sandbox --rule " << rule.at("id").get<std::string>() << "):";
    for (const char* list : {"writable", "hosts"}) {
      if (rule.at(list).empty()) continue;
      out << " " << list;
      for (const auto& entry : rule.at(list)) out << " " << entry.get<std::string>();
      out << ";";
    }
    out << "\n";
  }
  if (sandbox.contains("error")) {
    out << "  cannot be set up: " << sandbox.at("error").get<std::string>() << "\n";
    return out.str();
  }
  for (const auto& part : sandbox.at("parts")) {
    out << (part.at("held").get<bool>() ? "  held:     " : "  NOT HELD: ")
        << part.at("what").get<std::string>() << " (" << part.at("why").get<std::string>() << ")\n";
  }
  return out.str();
}

}  // namespace toolguard::cli
