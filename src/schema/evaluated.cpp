// Merging and reading the evaluated members and items of a value.
#include "schema/evaluated.hpp"

#include <algorithm>

namespace toolguard::schema {

void Evaluated::merge(const Evaluated& other) {
  all = all || other.all;
  prefix = std::max(prefix, other.prefix);
  names.insert(names.end(), other.names.begin(), other.names.end());
  indices.insert(indices.end(), other.indices.begin(), other.indices.end());
}

std::vector<std::string_view> Evaluated::sortedNames() const {
  std::vector<std::string_view> sorted;
  sorted.reserve(names.size());
  for (const std::string* name : names) sorted.emplace_back(*name);
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

std::vector<std::size_t> Evaluated::sortedIndices() const {
  std::vector<std::size_t> sorted = indices;
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

}  // namespace toolguard::schema
