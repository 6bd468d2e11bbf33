// The demo's tools: small, real implementations an agent could be given.
#include "demo_tools.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "toolguard/paths.hpp"

namespace demo {

namespace fs = std::filesystem;
using nlohmann::json;
using toolguard::ToolInfo;
using toolguard::ToolInvocation;
using toolguard::ToolKind;

namespace {

// A tool resolves a path the way the guard judged it: against the call's
// cwd (never the process's working directory), with `~` expanded.
fs::path resolve(const ToolInvocation& invocation, const std::string& path) {
  return toolguard::normalizePath(path, invocation.call.context.cwd, toolguard::homeDirectory());
}

std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  // An exception becomes an error outcome the model can read.
  if (!in) throw std::runtime_error("cannot open " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeText(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

// The JSON Schema of an object whose properties are all strings.
json objectSchema(std::initializer_list<std::pair<const char*, const char*>> properties,
                  std::initializer_list<const char*> required) {
  json schema = {{"type", "object"},
                 {"properties", json::object()},
                 {"required", json::array()},
                 {"additionalProperties", false}};
  for (const auto& [name, description] : properties) {
    schema["properties"][name] = {{"type", "string"}, {"description", description}};
  }
  for (const char* name : required) schema["required"].push_back(name);
  return schema;
}

}  // namespace

void addTool(toolguard::ToolRegistry& registry, DemoTool tool,
             std::optional<toolguard::ToolPolicy> policy) {
  tool.info.policy = policy;
  registry.registerTool(std::move(tool.info), std::move(tool.function));
}

fs::path prepareWorkspace(const fs::path& dir) {
  fs::create_directories(dir / "src");
  writeText(dir / "README.md", "# Demo project\nA workspace made by toolguard's security_demo.\n");
  // A fake credential (AWS's documented example key id) for the redaction filter.
  writeText(dir / "config.txt", "region = eu-west-1\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n");
  std::string log;
  for (int i = 1; i <= 40; ++i) {
    log += "2026-11-23T10:00:" + std::string(i < 10 ? "0" : "") + std::to_string(i) +
           "Z INFO request " + std::to_string(i) + " served in 12 ms\n";
  }
  writeText(dir / "app.log", log);
  writeText(dir / "src" / "main.c", "int main(void) { return 0; }\n");
  // Canonical, so that the cwd the calls carry (and the project an approval
  // is remembered for) is the same whatever symlinks lead to the directory.
  return fs::canonical(dir);
}

DemoTool readFileTool() {
  ToolInfo info;
  info.name = "read_file";
  info.description = "Read a text file of the workspace.";
  info.input_schema = objectSchema({{"path", "the file, relative to the workspace"}}, {"path"});
  info.kind = ToolKind::FileRead;  // the read rules apply (private keys, .env, outside)
  info.path_args = {"path"};       // ... to this argument
  info.metadata.category = "filesystem";
  info.metadata.side_effect = toolguard::SideEffect::LocalRead;
  info.metadata.risk = toolguard::RiskLevel::Low;
  info.metadata.read_only = true;
  info.metadata.idempotent = true;
  return {std::move(info), [](const ToolInvocation& invocation) -> json {
            return readText(resolve(invocation, invocation.call.args.at("path")));
          }};
}

DemoTool writeFileTool() {
  ToolInfo info;
  info.name = "write_file";
  info.description = "Write a text file of the workspace (replacing it).";
  info.input_schema =
      objectSchema({{"path", "the file, relative to the workspace"}, {"content", "the new text"}},
                   {"path", "content"});
  info.kind = ToolKind::FileWrite;  // the write rules apply (system files, outside, ...)
  info.path_args = {"path"};
  info.metadata.category = "filesystem";
  info.metadata.side_effect = toolguard::SideEffect::LocalWrite;
  return {std::move(info), [](const ToolInvocation& invocation) -> json {
            const std::string& content = invocation.call.args.at("content");
            fs::path file = resolve(invocation, invocation.call.args.at("path"));
            writeText(file, content);
            return "wrote " + std::to_string(content.size()) + " bytes to " + file.string();
          }};
}

DemoTool listDirTool() {
  ToolInfo info;
  info.name = "list_dir";
  info.description = "List the names in a directory of the workspace.";
  info.input_schema = objectSchema({{"path", "the directory (default: the workspace)"}}, {});
  info.kind = ToolKind::FileRead;
  info.path_args = {"path"};
  info.metadata.side_effect = toolguard::SideEffect::LocalRead;
  info.metadata.read_only = true;
  return {std::move(info), [](const ToolInvocation& invocation) -> json {
            fs::path dir = resolve(invocation, invocation.call.args.value("path", "."));
            std::vector<std::string> names;
            for (const auto& entry : fs::directory_iterator(dir)) {
              names.push_back(entry.path().filename().string() + (entry.is_directory() ? "/" : ""));
            }
            std::sort(names.begin(), names.end());
            return names;
          }};
}

DemoTool readLogTool() {
  ToolInfo info;
  info.name = "read_log";
  info.description = "Show the application log of the workspace.";
  info.input_schema = objectSchema({}, {});
  info.metadata.side_effect = toolguard::SideEffect::LocalRead;
  info.metadata.read_only = true;
  return {std::move(info), [](const ToolInvocation& invocation) -> json {
            return readText(fs::path(invocation.call.context.cwd) / "app.log");
          }};
}

DemoTool dropDatabaseTool() {
  ToolInfo info;
  info.name = "drop_database";
  info.description = "Drop a database.";
  info.input_schema = objectSchema({{"name", "the database"}}, {"name"});
  info.metadata.side_effect = toolguard::SideEffect::Irreversible;
  info.metadata.risk = toolguard::RiskLevel::Critical;
  return {std::move(info), [](const ToolInvocation& invocation) -> json {
            return "would drop database " + invocation.call.args.at("name").get<std::string>();
          }};
}

DemoTool gitLogTool() {
  ToolInfo info;
  info.name = "git_log";
  info.description = "Show the last commits of a branch.";
  info.input_schema = objectSchema({{"branch", "the branch name"}}, {"branch"});
  info.metadata.side_effect = toolguard::SideEffect::LocalRead;
  return {std::move(info), [](const ToolInvocation& invocation) -> json {
            // A real tool would run this. Pasting a model's value into a
            // command line is only safe because the validateArgs hook of
            // mode 2 let through nothing but plain words (isSafeShellArg).
            return "would run: git log --oneline -5 " +
                   invocation.call.args.at("branch").get<std::string>();
          }};
}

DemoTool runCommandTool() {
  ToolInfo info;
  info.name = "run_command";
  info.description = "Run a shell command in the workspace.";
  info.input_schema = objectSchema({{"command", "the command line"}}, {"command"});
  info.kind = ToolKind::Shell;  // the command is parsed and judged command by command
  info.command_arg = "command";
  info.metadata.category = "shell";
  info.metadata.risk = toolguard::RiskLevel::High;
  return {std::move(info), [](const ToolInvocation& invocation) -> json {
            return "would run: " + invocation.call.args.at("command").get<std::string>();
          }};
}

DemoTool deployTool() {
  ToolInfo info;
  info.name = "deploy";
  info.description = "Deploy the project.";
  info.input_schema = {
      {"type", "object"},
      {"properties", {{"target", {{"type", "string"}, {"enum", {"staging", "production"}}}}}},
      {"required", {"target"}},
      {"additionalProperties", false}};
  info.metadata.side_effect = toolguard::SideEffect::NetworkWrite;
  info.metadata.risk = toolguard::RiskLevel::High;
  return {std::move(info), [](const ToolInvocation& invocation) -> json {
            return "would deploy to " + invocation.call.args.at("target").get<std::string>();
          }};
}

}  // namespace demo
