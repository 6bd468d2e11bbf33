#pragma once
// Internal: nlohmann::json's compact dump() written without its stream
// machinery (an output adapter on the heap, a locale query per call): the
// approval key of every decision is one.

#include <nlohmann/json.hpp>
#include <string>

namespace toolguard::detail {

/// Appends exactly what `value.dump()` gives (no indentation, UTF-8 kept as
/// it is); like dump(), throws nlohmann's type_error for invalid UTF-8.
void appendCompactDump(std::string& out, const nlohmann::json& value);

}  // namespace toolguard::detail
