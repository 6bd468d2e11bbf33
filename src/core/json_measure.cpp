// Depth and size of JSON values, measured without recursion.
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "toolguard/tool_call.hpp"

namespace toolguard {
namespace {

// A LIFO stack whose first entries live inline: most arguments are shallow,
// and these run for every call.
template <typename T>
class WorkStack {
 public:
  explicit WorkStack(T first) { push(first); }
  void push(T value) {
    if (size_ < kInline) {
      inline_[size_++] = value;
    } else {
      overflow_.push_back(value);
    }
  }
  bool empty() const { return size_ == 0 && overflow_.empty(); }
  T pop() {
    if (!overflow_.empty()) {
      T value = overflow_.back();
      overflow_.pop_back();
      return value;
    }
    return inline_[--size_];
  }

 private:
  static constexpr size_t kInline = 32;
  std::array<T, kInline> inline_{};
  size_t size_ = 0;
  std::vector<T> overflow_;
};

// Digits of an integer as JSON writes it.
size_t integerWidth(uint64_t magnitude) {
  size_t width = 1;
  while (magnitude >= 10) {
    magnitude /= 10;
    ++width;
  }
  return width;
}

size_t scalarSize(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::string:
      return value.get_ref<const std::string&>().size() + 2;
    case nlohmann::json::value_t::number_unsigned:
      return integerWidth(value.get<uint64_t>());
    case nlohmann::json::value_t::number_integer: {
      const int64_t n = value.get<int64_t>();
      return n < 0 ? integerWidth(0 - static_cast<uint64_t>(n)) + 1
                   : integerWidth(static_cast<uint64_t>(n));
    }
    case nlohmann::json::value_t::number_float:
      return 17;  // at most, as nlohmann writes a double
    case nlohmann::json::value_t::boolean:
      return value.get<bool>() ? 4 : 5;
    default:
      return 4;  // null, discarded, binary
  }
}

}  // namespace

size_t jsonDepth(const nlohmann::json& value, size_t limit) {
  size_t deepest = 0;
  WorkStack<std::pair<const nlohmann::json*, size_t>> stack({&value, 0});
  while (!stack.empty()) {
    auto [node, depth] = stack.pop();
    if (!node->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const auto& child : *node) stack.push({&child, depth + 1});
  }
  return deepest;
}

size_t jsonSize(const nlohmann::json& value, size_t limit) {
  size_t total = 0;
  WorkStack<const nlohmann::json*> stack(&value);
  while (!stack.empty()) {
    const nlohmann::json* node = stack.pop();
    if (node->is_object()) {
      total += 2 + (node->empty() ? 0 : node->size() - 1);  // braces and commas
      for (const auto& [key, child] : node->items()) {
        total += key.size() + 3;  // quotes and colon
        stack.push(&child);
      }
    } else if (node->is_array()) {
      total += 2 + (node->empty() ? 0 : node->size() - 1);
      for (const auto& child : *node) stack.push(&child);
    } else {
      total += scalarSize(*node);
    }
    if (total > limit) return total;
  }
  return total;
}

}  // namespace toolguard
