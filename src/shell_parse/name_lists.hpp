#pragma once
// Internal: whether a name is one of a short list (program names, options).

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace toolguard::detail {

/// True when `name` is one of `names`.
inline bool oneOf(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace toolguard::detail
