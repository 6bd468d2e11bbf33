// The known names a mistyped one was probably meant to be.
#include "policy/did_you_mean.hpp"

#include <algorithm>

namespace toolguard::detail {
namespace {

// Edits (insert, delete, substitute, swap two neighbours) from a to b.
size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string didYouMean(std::string_view typed, const std::vector<std::string>& known) {
  if (typed.empty() || typed.size() > 64) return "";
  const size_t allowed = std::max<size_t>(1, typed.size() / 3);
  size_t best = allowed + 1;
  std::vector<std::string> closest;
  for (const std::string& name : known) {
    size_t distance = editDistance(typed, name);
    if (typed.size() >= 3 && name.starts_with(typed)) distance = std::min<size_t>(distance, 1);
    if (distance < best) {
      best = distance;
      closest = {name};
    } else if (distance == best) {
      closest.push_back(name);
    }
  }
  if (closest.empty() || best > allowed) return "";
  std::string out = " (did you mean ";
  for (size_t i = 0; i < closest.size() && i < 3; ++i) {
    if (i > 0) out += i + 1 == closest.size() || i == 2 ? " or " : ", ";
    out += "'" + closest[i] + "'";
  }
  return out + "?)";
}

std::vector<std::string> splitNameList(std::string_view list) {
  std::vector<std::string> names;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) names.emplace_back(name);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return names;
}

std::string unknownNameMessage(std::string_view head, std::string_view typed, std::string_view tail,
                               std::string_view list) {
  std::string out(head);
  out += " '";
  out += typed;
  out += "'";
  out += tail;
  const std::string hint = didYouMean(typed, splitNameList(list));
  if (!hint.empty()) return out + hint;
  out += " (expected ";
  out += list;
  return out + ")";
}

}  // namespace toolguard::detail
