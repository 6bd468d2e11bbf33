// A message's id replaced in its text, without reading the whole message
// into a document and writing it again (the gateway renames the id of every
// answer it relays; an answer can be megabytes of a tool's result).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace toolguard::mcp {

/// `line` (one JSON object, already checked to be valid JSON) with the value
/// of its top-level "id" member replaced by `id_json` (JSON text). nullopt
/// when the line is not as plainly written as that needs: not an object, no
/// top-level "id" or two of them, or a top-level key written with an escape
/// (the caller then reads the message whole).
std::optional<std::string> withTopLevelId(std::string_view line, std::string_view id_json);

}  // namespace toolguard::mcp
