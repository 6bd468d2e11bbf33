#pragma once
// A tool call as an agent asks for it, with the context it is made in.

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace toolguard {

struct SessionState;

/// Whether a person can be asked: headless calls turn "ask" into "deny".
enum class InteractionMode { Interactive, Headless };

/// Where and by whom a call is made. Empty strings mean "not known".
struct CallContext {
  std::string cwd;                           ///< working directory; relative paths resolve here
  std::vector<std::string> workspace_roots;  ///< extra workspace roots besides cwd
  std::string agent;                         ///< agent id
  std::string session;                       ///< session id
  std::string model;                         ///< model id
  std::string role;                          ///< role of the caller (e.g. "planner")
  std::string mcp_server;                    ///< the MCP server the call goes to (toolguard mcp)
  InteractionMode mode = InteractionMode::Interactive;
  /// The call will run in toolguard's sandbox with no network (`check
  /// --sandbox` sets it when the kernel holds the whole sandbox): the
  /// workspace's own code may then run without a question (rule
  /// shell-confined-code). Never read from a call's JSON; whoever sets it
  /// promises the confinement.
  bool confined = false;
  /// What the call's session saw before it (toolguard/session_state.hpp),
  /// when the route keeps sessions (a Guard with session memory sets it):
  /// rules with `after:` and the rule of two read it. Null: the session is
  /// not known, and those conditions do not hold. Never read from JSON.
  std::shared_ptr<const SessionState> session_state;
  /// Which remembered session the call belongs to, when the route knows
  /// better than (agent, session) (a Claude Code subagent's calls, which
  /// carry their own agent id, belong to their session). Set in code.
  std::string session_key;
};

/// One request to run a tool: its name, JSON arguments and context.
struct ToolCall {
  std::string tool;
  nlohmann::json args = nlohmann::json::object();
  CallContext context;
};

/// Arguments nested deeper than this are refused (deny) before anything copies
/// or prints them: recursion on hostile input must not crash the guard.
inline constexpr size_t kMaxArgumentDepth = 64;

/// The nesting depth of a JSON value (a scalar is 0, `[]` is 1), computed
/// without recursion; stops counting past `limit`.
size_t jsonDepth(const nlohmann::json& value, size_t limit = kMaxArgumentDepth + 1);

/// About how many bytes a JSON value takes written compactly (string escapes
/// are not counted), computed without recursion; stops counting past `limit`.
size_t jsonSize(const nlohmann::json& value, size_t limit = SIZE_MAX);

/// The lowercase name of an interaction mode ("interactive", "headless").
std::string_view toString(InteractionMode mode);

/// The call as toolguard's call JSON, as `toolguard check` reads it:
/// {"tool", "args", "context": {"cwd", "mode", and the ids that are set}}
/// (the MCP server is not part of it).
nlohmann::json toJson(const ToolCall& call);

/// Sets one string field of a context by name: cwd, agent, session, model, role
/// or mode ("interactive" or "headless"). Returns an error message naming what
/// was expected, or an empty string on success.
std::string setContextField(CallContext& context, std::string_view field, std::string value);

}  // namespace toolguard
