// The detail of an ask for the web queue (see ask_detail.hpp).
#include "serve/ask_detail.hpp"

#include "toolguard/call_view.hpp"
#include "toolguard/policy.hpp"

namespace toolguard::serve {
namespace {

using nlohmann::json;

// A host name as a header gave it: printable ASCII, at most 255 bytes.
std::string cleanMachine(const std::string& name) {
  std::string out;
  for (char c : name.substr(0, 255)) {
    if (c > ' ' && c < 0x7f) out += c;
  }
  return out;
}

json findingJson(const RuleTrace& trace) {
  return {{"rule", trace.rule ? trace.rule->id() : std::string()},
          {"verdict", toString(trace.finding->verdict)},
          {"reason", trace.finding->reason}};
}

}  // namespace

json askDetail(const ToolCall& call, const Decision& decision, const Engine* engine,
               const AskOrigin& origin, const CallView* viewed) {
  json detail = {{"machine", cleanMachine(origin.machine)}, {"peer", origin.peer}};
  if (engine == nullptr && viewed == nullptr) return detail;
  std::optional<CallView> here;
  if (viewed == nullptr) {
    const Policy& policy = engine->policy();
    here.emplace(call, engine->toolInfo(call.tool), policy.paths.pathOptions(),
                 &policy.paths.workspace_roots);
  }
  const CallView& view = viewed ? *viewed : *here;
  detail["command"] = view.command() ? json(*view.command()) : json(nullptr);
  json commands = json::array();
  if (const ShellProgram* program = view.shellProgram()) {
    for (size_t i = 0; i < program->commands.size(); ++i) {
      commands.push_back(
          {{"index", i + 1}, {"text", program->commands[i].text}, {"findings", json::array()}});
    }
  }
  json whole = json::array();
  for (const RuleTrace& t : decision.consulted) {
    if (!t.finding) continue;
    if (t.command_index && *t.command_index < commands.size()) {
      commands[*t.command_index]["findings"].push_back(findingJson(t));
    } else {
      whole.push_back(findingJson(t));
    }
  }
  detail["commands"] = std::move(commands);
  detail["findings"] = std::move(whole);
  json paths = json::array();
  for (const std::string& raw : view.rawPaths()) {
    const size_t i = static_cast<size_t>(&raw - view.rawPaths().data());
    json entry = {{"field", view.pathFields()[i]}, {"raw", raw}};
    PathValidation checked = view.resolve(raw, call.context.cwd);
    if (!checked) {
      entry["refused"] = checked.error;
    } else {
      entry["resolved"] = checked.path->resolved;
      entry["inside_workspace"] = view.insideWorkspace(*checked.path);
    }
    paths.push_back(std::move(entry));
  }
  detail["paths"] = std::move(paths);
  return detail;
}

}  // namespace toolguard::serve
