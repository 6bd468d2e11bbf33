#pragma once
// MCP tools as toolguard sees them: the name a server's tool is judged under,
// and what its tools/list entry (schema, annotations) says about it.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "toolguard/tool_info.hpp"

namespace toolguard {

/// The JSON Schema dialect MCP gives a tool's inputSchema that has no
/// "$schema" (SEP-1613, protocol 2025-11-25; earlier versions said nothing
/// and implementations split between draft 7 and 2020-12).
inline constexpr const char* kMcpDefaultSchemaDialect =
    "https://json-schema.org/draft/2020-12/schema";

/// The name a server's tool is judged under: `mcp__SERVER__TOOL`, so a
/// policy can select a whole server (`mcp__github__*`) or one tool.
std::string mcpToolName(std::string_view server, std::string_view tool);

/// Why `name` cannot name a server ("" when it can): it must be 1 to 64
/// letters, digits, '-' or '_', and hold no "__" (which would make
/// `mcp__a__b__c` ambiguous).
std::string mcpServerNameError(std::string_view name);

/// True when a tool's name says it changes something: a word of it (split at
/// '_', '-', '.', '/', spaces and camelCase) is write, delete, send, run, and
/// the like.
bool mcpNameSaysItActs(std::string_view tool_name);

/// What a tools/list entry (`{"name", "description", "inputSchema",
/// "annotations"}`) tells toolguard about the tool, judged as
/// mcpToolName(server, name) under a policy whose default verdict is
/// `policy_default`. Annotations are the server's claims about its own tool,
/// so they can make the verdict stricter, never looser: a tool is read-only
/// only when it says readOnlyHint and its name does not say it acts; a
/// read-only tool gets the policy's default (DefaultApproval::Conditional);
/// every other tool is asked about (DefaultApproval::Always) when the
/// default is looser than ask, else gets the default too. A server's
/// annotations thus never turn a `default: deny` or `default: ask` into an
/// allow. Rules and a policy file's own entry for the name decide before
/// any of this. Arguments whose names say they hold paths (`path`, `paths`,
/// `source`, `destination`, `*_path`, `file`, `directory`, ...) become path
/// arguments, so the path rules judge them (kind file-read for read-only
/// tools, file-write otherwise); a string argument named like a command
/// (`command`, `cmd`, `shell_command`, `command_line`, `script`) makes it a
/// shell tool whose command the shell rules judge. A hook call of an
/// `mcp__` tool the policy does not list is read the same way, from the
/// arguments it gives. Throws std::invalid_argument naming the
/// field when the entry has no string name or its inputSchema is not an
/// object. An inputSchema without "$schema" gets "$schema":
/// kMcpDefaultSchemaDialect in the ToolInfo (the server's entry is not
/// changed), so it is compiled as 2020-12 wherever it is compiled; an
/// explicit "$schema" is kept. Whether the schema compiles is not checked
/// here (JsonSchema::compile throws SchemaError; the proxy then hides the tool).
ToolInfo mcpToolInfo(std::string_view server, const nlohmann::json& tool, Verdict policy_default);

}  // namespace toolguard
