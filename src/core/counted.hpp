#pragma once
// Internal: a count with its noun in the right number ("1 error", "2 errors").

#include <string>
#include <string_view>

namespace toolguard::detail {

/// "1 error" or "N errors": `one` for a count of exactly one, else `many`.
inline std::string counted(size_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

}  // namespace toolguard::detail
