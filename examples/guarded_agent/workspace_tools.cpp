// The tools themselves. They trust the guard to have judged the call: the
// registry only calls them for allowed calls, with sanitized arguments.
#include "workspace_tools.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_process.hpp"

namespace guarded_agent {
namespace {

using nlohmann::json;
using toolguard::ToolInfo;
using toolguard::ToolInvocation;
using toolguard::ToolKind;

constexpr size_t kMaxReadBytes = 256 * 1024;
constexpr size_t kMaxCommandOutput = 64 * 1024;

/// A path from the model, relative to the call's working directory.
std::filesystem::path resolve(const ToolInvocation& invocation, const std::string& path) {
  std::filesystem::path p(path);
  if (p.is_relative() && !invocation.call.context.cwd.empty()) {
    p = std::filesystem::path(invocation.call.context.cwd) / p;
  }
  return p;
}

json stringSchema(std::initializer_list<const char*> required,
                  std::initializer_list<const char*> optional = {}) {
  json properties = json::object();
  for (const char* name : required) properties[name] = {{"type", "string"}};
  for (const char* name : optional) properties[name] = {{"type", "string"}};
  return {{"type", "object"},
          {"properties", properties},
          {"required", json(std::vector<std::string>(required.begin(), required.end()))},
          {"additionalProperties", false}};
}

ToolInfo tool(std::string name, std::string description, ToolKind kind, json schema) {
  ToolInfo info;
  info.name = std::move(name);
  info.description = std::move(description);
  info.kind = kind;
  info.input_schema = std::move(schema);
  return info;
}

json runShell(const ToolInvocation& invocation) {
  auto result =
      runShellCommand(invocation.call.args.at("command").get<std::string>(),
                      invocation.call.context.cwd, std::chrono::seconds(30), kMaxCommandOutput);
  json out = {{"exit_code", result.exit_code}, {"output", result.output}};
  if (result.timed_out) out["timed_out"] = true;
  if (result.truncated) out["truncated"] = true;
  return out;
}

json readFile(const ToolInvocation& invocation) {
  auto path = resolve(invocation, invocation.call.args.at("path").get<std::string>());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::string text(kMaxReadBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxReadBytes) {
    text.resize(kMaxReadBytes);
    text.append("\n[file truncated]");
  }
  return text;
}

json writeFile(const ToolInvocation& invocation) {
  auto path = resolve(invocation, invocation.call.args.at("path").get<std::string>());
  const std::string content = invocation.call.args.at("content").get<std::string>();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot open " + path.string() + " for writing");
  out << content;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
  return "wrote " + std::to_string(content.size()) + " bytes to " + path.string();
}

json listDirectory(const ToolInvocation& invocation) {
  auto path = resolve(invocation, invocation.call.args.value("path", "."));
  json names = json::array();
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    names.push_back(entry.path().filename().string() + (entry.is_directory() ? "/" : ""));
    if (names.size() >= 1000) break;
  }
  return names;
}

}  // namespace

void registerWorkspaceTools(toolguard::ToolRegistry& registry) {
  ToolInfo shell = tool("run_shell", "Run a shell command in the working directory.",
                        ToolKind::Shell, stringSchema({"command"}));
  shell.command_arg = "command";  // no tool policy: the shell rules judge each command
  registry.registerTool(shell, runShell);

  ToolInfo read = tool("read_file", "Read a text file (path relative to the working directory).",
                       ToolKind::FileRead, stringSchema({"path"}));
  read.path_args = {"path"};
  read.metadata.read_only = true;
  read.policy = toolguard::ToolPolicy::Allow;  // the path rules still judge every path
  registry.registerTool(read, readFile);

  ToolInfo write = tool("write_file", "Write a text file (path relative to the working directory).",
                        ToolKind::FileWrite, stringSchema({"path", "content"}));
  write.path_args = {"path"};
  write.policy = toolguard::ToolPolicy::Allow;  // outside the workspace, secrets: the rules ask
  registry.registerTool(write, writeFile);

  ToolInfo list = tool("list_directory", "List a directory (default: the working directory).",
                       ToolKind::FileSearch, stringSchema({}, {"path"}));
  list.path_args = {"path"};
  list.metadata.read_only = true;
  list.policy = toolguard::ToolPolicy::Allow;
  registry.registerTool(list, listDirectory);
}

}  // namespace guarded_agent
