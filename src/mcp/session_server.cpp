// The MCP proxy's session: its own requests to the server and what comes
// from the server (responses, tools/list registered and filtered).
#include "guard/session_step.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/session.hpp"
#include "registry/catalog_merge.hpp"
#include "toolguard/json_schema.hpp"
#include "toolguard/mcp_pins.hpp"
#include "toolguard/mcp_tools.hpp"
#include "toolguard/result_scan.hpp"

namespace toolguard::mcp {

using json = nlohmann::json;

// ---- the proxy's own requests to the server ----

std::optional<json> Session::askServer(const std::string& method, json params) {
  std::promise<json> promise;
  std::future<json> answer = promise.get_future();
  json id;
  {
    std::lock_guard lock(mutex_);
    if (server_gone_) return std::nullopt;
    id = question_prefix_ + "own-" + std::to_string(++next_question_);
    own_requests_.emplace(idKey(id), std::move(promise));
  }
  sinks_.to_server(
      toLine({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}));
  if (answer.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
    std::lock_guard lock(mutex_);
    own_requests_.erase(idKey(id));
    return std::nullopt;
  }
  try {
    return answer.get();
  } catch (const std::future_error&) {  // the server went away
    return std::nullopt;
  }
}

void Session::listToolsForTheProxy() {
  json params = json::object();
  for (int page = 0; page < 100; ++page) {
    std::optional<json> response = askServer("tools/list", params);
    if (!response || !response->is_object() || !(*response)["result"].is_object()) {
      sinks_.log("toolguard mcp: the server \"" + options_.server_name +
                 "\" did not list its tools; its calls are judged as unknown tools");
      return;
    }
    registerListedTools(*response);
    const json& cursor = (*response)["result"]["nextCursor"];
    if (!cursor.is_string()) return;
    params["cursor"] = cursor;
  }
}

// ---- from the server ----

void Session::fromServer(std::string_view line) {
  MessageShape shape = scanMessage(line);
  if (shape.kind == MessageKind::Invalid) {
    sinks_.log("toolguard mcp: the server \"" + options_.server_name +
               "\" sent an invalid message (dropped): " + shape.problem);
    if (shape.id.is_string() || shape.id.is_number()) {
      std::unique_lock lock(mutex_);
      calls_awaiting_.erase(idKey(shape.id));
      if (awaiting_server_.erase(idKey(shape.id)) > 0) {
        lock.unlock();
        reply(errorResponse(
            shape.id, kInternalError,
            "toolguard mcp: the MCP server sent an invalid response: " + shape.problem));
      }
    }
    return;
  }
  if (shape.kind == MessageKind::Batch) {
    json batch = json::parse(line, nullptr, false);
    json relayed = json::array();
    bool changed = false;
    for (json& element : batch) {
      if (shapeOf(element).kind == MessageKind::Response) {
        if (!answersARequest(element["id"])) {
          changed = true;  // an answer nobody asked for: dropped
          continue;
        }
        changed |= handleServerResponse(element);
      }
      relayed.push_back(std::move(element));
    }
    if (relayed.empty()) return;
    sinks_.to_client(changed ? toLine(relayed) : std::string(line));
    return;
  }
  if (shape.kind == MessageKind::Response) {
    std::string method;
    {
      std::unique_lock lock(mutex_);
      auto own = own_requests_.find(idKey(shape.id));
      if (own != own_requests_.end()) {  // the proxy's own request: not the client's business
        std::promise<json> answer = std::move(own->second);
        own_requests_.erase(own);
        lock.unlock();
        answer.set_value(json::parse(line, nullptr, false));
        return;
      }
      auto it = awaiting_server_.find(idKey(shape.id));
      if (it != awaiting_server_.end()) method = it->second;
    }
    // Every request the server was sent is awaited under its exact id. An
    // answer to none (an id spelled another way, 3.0 for 3, "3" for 3, or
    // made up) would reach the client unjudged, as the answer to a call it
    // may read it as: it is dropped. An error with a null id (about a line
    // the server could not read) answers nothing and is relayed.
    if (method.empty() && !shape.id.is_null()) {
      sinks_.log("toolguard mcp: the server \"" + options_.server_name +
                 "\" answered a request it was not sent (id " + shape.id.dump() + "; dropped)");
      return;
    }
    // Only these responses are read; every other one is relayed as it came.
    if (method == "tools/list" || method == "initialize" || method == "tools/call") {
      json response = json::parse(line, nullptr, false);
      if (handleServerResponse(response)) {
        sinks_.to_client(toLine(response));
        return;
      }
    } else if (!method.empty()) {
      std::lock_guard lock(mutex_);
      awaiting_server_.erase(idKey(shape.id));
    }
  }
  sinks_.to_client(std::string(line));
}

bool Session::answersARequest(const json& id) {
  if (id.is_null()) return true;
  std::lock_guard lock(mutex_);
  return awaiting_server_.count(idKey(id)) != 0;
}

bool Session::handleServerResponse(json& response) {
  std::string method;
  {
    std::lock_guard lock(mutex_);
    auto it = awaiting_server_.find(idKey(response["id"]));
    if (it == awaiting_server_.end()) return false;
    method = std::move(it->second);
    awaiting_server_.erase(it);
  }
  auto result = response.find("result");
  if (method == "tools/call" && (result == response.end() || !result->is_object())) {
    std::lock_guard lock(mutex_);
    calls_awaiting_.erase(idKey(response["id"]));  // an error: nothing to judge
    return false;
  }
  if (result == response.end() || !result->is_object()) return false;
  if (method == "tools/call") return judgeCallResult(response["id"], *result);
  if (method == "initialize") {
    auto version = result->find("protocolVersion");
    if (version != result->end() && version->is_string()) {
      std::lock_guard lock(mutex_);
      protocol_version_ = version->get<std::string>();
    }
    // The server's instructions reach the model's system prompt: ones that
    // address it the way an attack does are not passed on.
    auto instructions = result->find("instructions");
    if (instructions != result->end() && instructions->is_string()) {
      if (std::optional<std::string> found =
              findAgentInstructions(instructions->get_ref<const std::string&>())) {
        sinks_.log("toolguard mcp: the server \"" + options_.server_name +
                   "\" sent instructions that address the agent (\"" + *found +
                   "\"); they were not passed on");
        result->erase("instructions");
        return true;
      }
    }
    return false;
  }
  return method == "tools/list" && registerListedTools(response);
}

std::map<std::string, std::string> Session::heldByPins(const json& tools, bool last_page) {
  std::map<std::string, std::string> held;
  if (options_.pins_dir.empty()) return held;
  std::vector<HeldTool> found;
  try {
    McpToolPins pins(options_.pins_dir, options_.server_name);
    bool continues_first;
    {
      // The server's first listing, every page of it, is what gets pinned.
      std::lock_guard lock(mutex_);
      if (!pins_first_listing_) pins_first_listing_ = !pins.known();
      continues_first = *pins_first_listing_ && !pins_first_listing_done_;
      if (last_page) pins_first_listing_done_ = true;
    }
    found = pins.review(tools, continues_first);
  } catch (const std::exception& e) {
    // Without its pins nothing of the listing can be trusted: all held.
    for (const json& entry : tools) {
      if (entry.is_object() && entry.value("name", json()).is_string()) {
        found.push_back({entry["name"].get<std::string>(),
                         std::string("the pins could not be read: ") + e.what(), "", ""});
      }
    }
  }
  std::shared_ptr<AuditSink> log = guard()->options().audit_log;
  for (const HeldTool& tool : found) {
    const std::string judged = mcpToolName(options_.server_name, tool.name);
    held[tool.name] = tool.why;
    {
      std::lock_guard lock(mutex_);
      if (held_tools_.count(judged) > 0) continue;  // reported once per session
    }
    sinks_.log("toolguard mcp: the tool \"" + tool.name + "\" of the server \"" +
               options_.server_name + "\" is hidden: " + tool.why +
               "; a person can approve it with `toolguard pins approve " + options_.server_name +
               " " + tool.name + "`");
    if (!log) continue;
    Decision d;
    d.verdict = d.policy_verdict = Verdict::Deny;
    d.basis = DecisionBasis::Rule;
    d.rule_id = "mcp-tool-pin";
    d.reason = "the tool is hidden from the client: " + tool.why;
    d.source = SourceLocation{"<mcp server " + options_.server_name + ">", 0, 0};
    ToolCall listing{judged, {{"description", tool.description}}, context_};
    try {
      log->write(listing, d);
    } catch (const std::exception& e) {  // the tool is hidden anyway
      sinks_.log(std::string("toolguard mcp: the audit log could not be written: ") + e.what());
    }
  }
  return held;
}

bool Session::judgeCallResult(const json& id, json& result) {
  json params;
  ToolCall call;
  {
    std::lock_guard lock(mutex_);
    auto it = calls_awaiting_.find(idKey(id));
    if (it == calls_awaiting_.end()) return false;
    params = std::move(it->second);
    calls_awaiting_.erase(it);
    call.context = context_;  // as the call had it (the session's key)
    if (call.context.agent.empty()) call.context.agent = client_name_;
  }
  const ResultFindings findings = scanToolResult(result);
  if (findings.empty()) return false;
  call.tool = mcpToolName(options_.server_name, params.value("name", ""));
  call.args = params.value("arguments", json::object());
  if (findings.secret) result = redactSecrets(result);  // the model never sees it
  const std::string warning = resultWarningForModel(findings, findings.secret.has_value());
  if (!result.contains("content") || !result["content"].is_array()) {
    result["content"] = json::array();
  }
  result["content"].push_back({{"type", "text"}, {"text", warning}});
  sinks_.log("toolguard mcp: the result of " + call.tool + " " +
             (findings.secret ? "held a credential (" + *findings.secret + "), redacted" : "") +
             (findings.secret && findings.instructions ? "; it " : "") +
             (findings.instructions
                  ? "contains text aimed at an AI agent: \"" + *findings.instructions + "\""
                  : ""));
  if (std::shared_ptr<AuditSink> log = guard()->options().audit_log) {
    try {
      log->writeRecord(resultAuditRecord(call, findings, findings.secret.has_value(), "mcp-proxy",
                                         std::chrono::system_clock::now()));
    } catch (const std::exception& e) {  // the client is warned anyway
      sinks_.log(std::string("toolguard mcp: the audit log could not be written: ") + e.what());
    }
  }
  std::shared_ptr<SessionRepository> sessions = guard()->options().sessions;
  if (sessions) {
    try {
      rememberToolResult(*sessions, call, findings.labels());
    } catch (const std::exception& e) {
      sinks_.log(std::string("toolguard mcp: the session's memory could not be written: ") +
                 e.what());
    }
  }
  return true;
}

bool Session::registerListedTools(json& response) {
  json& result = response["result"];
  auto tools = result.find("tools");
  if (tools == result.end() || !tools->is_array()) return false;
  const std::map<std::string, std::string> held =
      heldByPins(*tools, !result.value("nextCursor", json()).is_string());
  std::vector<std::optional<ToolInfo>> infos;  // nullopt: the entry is dropped
  for (const json& entry : *tools) {
    if (entry.is_object() && entry.value("name", json()).is_string() &&
        held.count(entry["name"].get<std::string>()) > 0) {
      infos.emplace_back();  // hidden until a person approves it
      continue;
    }
    try {
      ToolInfo info = mcpToolInfo(options_.server_name, entry, base_policy_.default_verdict);
      if (!info.input_schema.is_null()) (void)JsonSchema::compile(info.input_schema);
      infos.push_back(std::move(info));
    } catch (const std::exception& e) {
      auto name = entry.is_object() ? entry.find("name") : entry.end();
      const std::string tool = entry.is_object() && name != entry.end() && name->is_string()
                                   ? " \"" + name->get<std::string>() + "\""
                                   : "";
      sinks_.log("toolguard mcp: the server \"" + options_.server_name + "\" listed a tool" + tool +
                 " toolguard cannot judge, so the client does not see it: " + e.what());
      infos.emplace_back();
    }
  }
  std::lock_guard lock(mutex_);
  std::map<std::string, ToolInfo> listed = listed_tools_;
  for (const auto& [name, why] : held) {
    const std::string judged = mcpToolName(options_.server_name, name);
    listed.erase(judged);  // shown before, changed since: no longer callable
    held_tools_[judged] = why;
  }
  for (auto& info : infos) {
    if (info) {
      listed[info->name] = detail::mergeServerTool(*info, base_policy_);
      held_tools_.erase(info->name);
    }
  }
  Policy policy = base_policy_;
  for (const auto& [name, tool] : listed) {
    policy.tools.add(tool);
    // A tool policy comes from the policy file's entry, which keeps its origin.
    if (!tool.policy || policy.tool_origins.count(name) == 0) {
      policy.tool_origins[name] =
          ToolOrigin{PolicyLayer::Code, {"<mcp server " + options_.server_name + ">", 0, 0}};
    }
  }
  try {
    guard_ = std::make_shared<Guard>(guard_->withEngine(Engine(policy)));
    listed_tools_ = std::move(listed);
  } catch (const std::exception& e) {  // keep judging with what was known; show nothing new
    sinks_.log(std::string("toolguard mcp: the listed tools could not be registered: ") + e.what());
    infos.assign(infos.size(), std::nullopt);
  }
  json kept = json::array();
  for (size_t i = 0; i < infos.size(); ++i) {
    if (infos[i] && !detail::deniedOutright(listed_tools_.at(infos[i]->name), policy)) {
      kept.push_back(std::move((*tools)[i]));
    }
  }
  tools_listed_ = true;
  bool changed = kept.size() != tools->size();
  if (changed) *tools = std::move(kept);
  return changed;
}

}  // namespace toolguard::mcp
