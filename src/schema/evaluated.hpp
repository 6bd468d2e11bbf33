#pragma once
// What the keywords applied to one value have evaluated of it (the
// annotations of properties, items, contains ... that unevaluatedProperties
// and unevaluatedItems read), kept only for the subschemas the value is valid
// against.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::schema {

/// The members or items of one value that some keyword evaluated.
struct Evaluated {
  /// Every member / item.
  bool all = false;
  /// Items 0 .. prefix-1 (prefixItems, items as a tuple).
  std::size_t prefix = 0;
  /// Members by name (pointers into the validated value); may repeat.
  std::vector<const std::string*> names;
  /// Items by index (contains); may repeat.
  std::vector<std::size_t> indices;

  /// Adds what `other` evaluated.
  void merge(const Evaluated& other);
  /// The evaluated names, sorted, for binary search (std::binary_search).
  std::vector<std::string_view> sortedNames() const;
  /// The evaluated indices past `prefix`, sorted, for binary search.
  std::vector<std::size_t> sortedIndices() const;
};

}  // namespace toolguard::schema
