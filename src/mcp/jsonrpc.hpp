#pragma once
// Internal: JSON-RPC 2.0 messages as the MCP proxy sees them: what kind a
// line is, and the responses the proxy writes itself.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace toolguard::mcp {

/// What a message is.
enum class MessageKind { Request, Notification, Response, Batch, Invalid };

/// The parts of a message the proxy routes by.
struct MessageShape {
  MessageKind kind = MessageKind::Invalid;
  nlohmann::json id;    ///< requests and responses (null when absent)
  std::string method;   ///< requests and notifications
  std::string problem;  ///< Invalid: why ("not JSON: ...", "no \"jsonrpc\": \"2.0\"", ...)
};

/// Reads one line's shape without building the document (a linear scan that
/// also checks the whole line is valid JSON), for messages relayed unchanged.
MessageShape scanMessage(std::string_view line);

/// The shape of a parsed message.
MessageShape shapeOf(const nlohmann::json& message);

/// A key that identifies a request id (ids are numbers or strings: 1 and "1"
/// differ).
inline std::string idKey(const nlohmann::json& id) {
  return id.dump();
}

// Error codes: JSON-RPC's own, and the proxy's in the implementation range.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kServerUnavailable = -32000;  ///< the server exited or cannot be reached
inline constexpr int kAbortedByGuard = -32001;     ///< toolguard aborted the generation

/// `{"jsonrpc": "2.0", "id": id, "error": {"code", "message"[, "data"]}}`.
nlohmann::json errorResponse(const nlohmann::json& id, int code, const std::string& message,
                             const nlohmann::json& data = nullptr);

/// A tools/call result the model reads: `{"content": [{"type": "text",
/// "text": text}], "isError": true}`, as the response to `id`.
nlohmann::json toolErrorResponse(const nlohmann::json& id, const std::string& text);

/// The `message` of a JSON-RPC error object when it is a string, else
/// `otherwise` (a peer's error object is never trusted to be well formed).
std::string errorMessageOf(const nlohmann::json& error, const std::string& otherwise);

/// A message as one line (no raw line breaks, invalid UTF-8 replaced).
std::string toLine(const nlohmann::json& message);

}  // namespace toolguard::mcp
