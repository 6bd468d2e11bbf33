#pragma once
// Internal: JSON text parsed with the position of every value, so that an
// imported rule can point at the line of the string it came from.

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "toolguard/source_location.hpp"

namespace toolguard::detail {

/// A parsed JSON document and where each of its values starts, keyed by JSON
/// pointer ("" is the root, "/permissions/allow/0" the first allow rule).
struct LocatedJson {
  nlohmann::json value;
  std::map<std::string, SourceLocation> where;

  /// The position of the value at `pointer`; the file alone when unknown.
  SourceLocation at(const std::string& pointer) const;
};

/// Parses JSON text. A syntax error throws PolicyError naming file, line and
/// column (1-based; columns count characters, not bytes).
LocatedJson parseLocatedJson(std::string_view text, const std::string& file);

/// `pointer` extended by one object key or array index (escaped per RFC 6901).
std::string childPointer(const std::string& pointer, const std::string& key);

}  // namespace toolguard::detail
