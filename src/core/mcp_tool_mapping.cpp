// MCP tools/list entries as ToolInfo: the judged name, the schema, the
// annotations read cautiously, and which arguments hold paths.
#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <vector>

#include "toolguard/mcp_tools.hpp"

namespace toolguard {
namespace {

bool isToolNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
}

/// The lowercase words of a name: split at non-alphanumerics and where a
/// lowercase letter or digit meets an uppercase one (readFile -> read, file).
std::vector<std::string> wordsOf(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  char previous = 0;
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) == 0) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      bool boundary = std::isupper(u) != 0 && previous != 0 &&
                      (std::islower(static_cast<unsigned char>(previous)) != 0 ||
                       std::isdigit(static_cast<unsigned char>(previous)) != 0);
      if (boundary && !word.empty()) {
        words.push_back(std::move(word));
        word.clear();
      }
      word.push_back(static_cast<char>(std::tolower(u)));
    }
    previous = c;
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// Words that say a tool changes files, systems or the outside world.
constexpr std::array kActingWords = {
    "write",    "writes",    "edit",     "edits",   "create",    "creates",  "update",  "updates",
    "delete",   "deletes",   "remove",   "removes", "rm",        "del",      "unlink",  "move",
    "moves",    "mv",        "rename",   "copy",    "cp",        "send",     "sends",   "post",
    "put",      "patch",     "publish",  "push",    "upload",    "run",      "runs",    "exec",
    "execute",  "eval",      "shell",    "bash",    "command",   "cmd",      "spawn",   "kill",
    "install",  "uninstall", "deploy",   "drop",    "truncate",  "insert",   "set",     "modify",
    "replace",  "append",    "save",     "mkdir",   "merge",     "commit",   "email",   "mail",
    "message",  "notify",    "transfer", "pay",     "purchase",  "buy",      "approve", "grant",
    "revoke",   "reset",     "restart",  "stop",    "start",     "launch",   "apply",   "submit",
    "invoke",   "terminal",  "script",   "chmod",   "chown",     "format",   "wipe",    "destroy",
    "close",    "archive",   "import",   "sync",    "share",     "invite",   "assign",  "add",
    "fork",     "withdraw",  "schedule", "cancel",  "block",     "ban",      "lock",    "unlock",
    "enable",   "disable",   "clear",    "purge",   "overwrite", "download", "fetch",   "browse",
    "navigate", "click",     "fill",     "press",   "call",      "trigger",  "tweet",   "reply",
    "comment",  "react",     "sign",     "mint"};

bool isActingWord(const std::string& word) {
  return std::find(kActingWords.begin(), kActingWords.end(), word) != kActingWords.end();
}

// Argument names (lowercase, without '_' and '-') that hold a path.
constexpr std::array kPathArgumentNames = {
    "path",     "paths",     "file",       "files",     "filename",    "filenames",
    "filepath", "filepaths", "source",     "sources",   "destination", "dest",
    "dst",      "src",       "target",     "directory", "directories", "dir",
    "dirs",     "folder",    "folders",    "cwd",       "workdir",     "workingdirectory",
    "root",     "location",  "outputfile", "inputfile", "outfile",     "infile"};

bool namesAPath(std::string_view argument) {
  std::string squashed;
  for (char c : argument) {
    if (c != '_' && c != '-')
      squashed.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (std::find(kPathArgumentNames.begin(), kPathArgumentNames.end(), squashed) !=
      kPathArgumentNames.end()) {
    return true;
  }
  for (std::string_view suffix : {"path", "paths", "dir", "directory"}) {
    if (squashed.size() > suffix.size() && squashed.ends_with(suffix)) return true;
  }
  return false;
}

// Argument names (lower case, without `_` and `-`) that hold a shell command.
bool holdsCommand(std::string_view argument) {
  std::string squashed;
  for (char c : argument) {
    if (c != '_' && c != '-') {
      squashed.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return squashed == "command" || squashed == "cmd" || squashed == "shellcommand" ||
         squashed == "commandline" || squashed == "bashcommand" || squashed == "script";
}

/// True when a property schema may hold a string or a list of strings.
bool mayHoldPathText(const nlohmann::json& property) {
  if (!property.is_object()) return true;  // `true` or a reference: anything
  auto type = property.find("type");
  if (type == property.end()) return true;
  auto holds = [](const nlohmann::json& t) {
    return t.is_string() && (t == "string" || t == "array");
  };
  if (type->is_array()) return std::any_of(type->begin(), type->end(), holds);
  return holds(*type);
}

std::vector<std::string> pathArguments(const nlohmann::json& schema) {
  std::vector<std::string> out;
  if (!schema.is_object()) return out;
  auto properties = schema.find("properties");
  if (properties == schema.end() || !properties->is_object()) return out;
  for (const auto& [name, property] : properties->items()) {
    if (namesAPath(name) && mayHoldPathText(property)) out.push_back(name);
  }
  return out;
}

/// A hint's value: its boolean, else the protocol's default for it.
bool hint(const nlohmann::json& annotations, const char* key, bool fallback) {
  if (!annotations.is_object()) return fallback;
  auto it = annotations.find(key);
  return it != annotations.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

}  // namespace

std::string mcpToolName(std::string_view server, std::string_view tool) {
  std::string name = "mcp__";
  name.append(server).append("__").append(tool);
  return name;
}

std::string mcpServerNameError(std::string_view name) {
  if (name.empty()) return "the server name is empty";
  if (name.size() > 64) return "the server name is longer than 64 characters";
  if (!std::all_of(name.begin(), name.end(), isToolNameChar)) {
    return "the server name may only hold letters, digits, '-' and '_'";
  }
  if (name.find("__") != std::string_view::npos) {
    return "the server name may not hold \"__\" (it separates server and tool in "
           "mcp__SERVER__TOOL)";
  }
  return "";
}

bool mcpNameSaysItActs(std::string_view tool_name) {
  std::vector<std::string> words = wordsOf(tool_name);
  return std::any_of(words.begin(), words.end(), isActingWord);
}

ToolInfo mcpToolInfo(std::string_view server, const nlohmann::json& tool, Verdict policy_default) {
  if (!tool.is_object()) throw std::invalid_argument("a tool entry is not an object");
  auto name = tool.find("name");
  if (name == tool.end() || !name->is_string() || name->get_ref<const std::string&>().empty()) {
    throw std::invalid_argument("a tool entry has no name (field \"name\")");
  }
  ToolInfo info;
  info.name = mcpToolName(server, name->get_ref<const std::string&>());
  if (auto d = tool.find("description"); d != tool.end() && d->is_string()) {
    info.description = d->get<std::string>();
  }
  if (auto schema = tool.find("inputSchema"); schema != tool.end()) {
    if (!schema->is_object()) {
      throw std::invalid_argument("tool '" + name->get<std::string>() +
                                  "': field \"inputSchema\" is not an object");
    }
    info.input_schema = *schema;
    // MCP (SEP-1613, protocol 2025-11-25): a schema without "$schema" is
    // JSON Schema 2020-12. Said in the schema, every later compile reads it so.
    if (!info.input_schema.contains("$schema")) {
      info.input_schema["$schema"] = kMcpDefaultSchemaDialect;
    }
  }
  nlohmann::json annotations = tool.value("annotations", nlohmann::json());
  // The protocol's defaults: not read-only, destructive, not idempotent, open world.
  bool read_only = hint(annotations, "readOnlyHint", false) &&
                   !mcpNameSaysItActs(name->get_ref<const std::string&>());
  bool destructive = !read_only && hint(annotations, "destructiveHint", true);
  bool open_world = hint(annotations, "openWorldHint", true);
  ToolMetadata& m = info.metadata;
  m.category = "mcp";
  m.read_only = read_only;
  m.idempotent = read_only || hint(annotations, "idempotentHint", false);
  // The claims only ever tighten the policy's default: read-only leaves it
  // as it is, anything else asks unless the default is already ask or stricter.
  if (read_only) {
    m.side_effect = open_world ? SideEffect::NetworkRead : SideEffect::LocalRead;
    m.risk = RiskLevel::Low;
    m.default_approval = DefaultApproval::Conditional;
  } else {
    m.side_effect = destructive  ? SideEffect::Irreversible
                    : open_world ? SideEffect::NetworkWrite
                                 : SideEffect::LocalWrite;
    m.risk = destructive ? RiskLevel::High : RiskLevel::Medium;
    m.default_approval = isStricter(Verdict::Ask, policy_default) ? DefaultApproval::Always
                                                                  : DefaultApproval::Conditional;
  }
  info.path_args = pathArguments(info.input_schema);
  if (!info.path_args.empty()) info.kind = read_only ? ToolKind::FileRead : ToolKind::FileWrite;
  // A string argument named like a command: the tool runs it, and the shell
  // rules judge it as they judge the agent's own shell tool.
  if (auto properties = info.input_schema.find("properties");
      properties != info.input_schema.end() && properties->is_object()) {
    for (const auto& [argument, property] : properties->items()) {
      const bool text =
          property.is_object() && property.value("type", nlohmann::json()) == "string";
      if (text && holdsCommand(argument)) {
        info.kind = ToolKind::Shell;
        info.command_arg = argument;
        break;
      }
    }
  }
  return info;
}

}  // namespace toolguard
