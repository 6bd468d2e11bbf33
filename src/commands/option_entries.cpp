// The entries of a table of harmless options: the kind of a value, the
// spelling index each table gets on first use, and the checks of a table's
// text (spellingsOf, specProblem).
#include "option_entries.hpp"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <utility>

namespace toolguard::detail {

ValueKind kindOf(std::string_view kind) {
  if (kind.empty()) return ValueKind::None;
  if (kind == "text") return ValueKind::Text;
  if (kind == "num") return ValueKind::Number;
  if (kind == "word") return ValueKind::Word;
  if (kind == "read") return ValueKind::Read;
  if (kind == "tree") return ValueKind::Tree;
  if (kind == "write") return ValueKind::Write;
  if (kind == "inside") return ValueKind::Inside;
  if (kind == "sub") return ValueKind::Sub;
  if (kind.size() >= 2 && kind.front() == '{' && kind.back() == '}') return ValueKind::Choice;
  return ValueKind::None;
}

bool validKind(std::string_view kind) {
  return kind.empty() || kindOf(kind) != ValueKind::None;
}

namespace {

// A table's spellings, sorted, and its families: built on a table's first
// use in each thread (never all tables at start-up, which every hook process
// would pay), then found by binary search instead of walking the text.
struct SpellingIndex {
  std::vector<std::pair<std::string_view, OptionEntry>> exact;     ///< sorted by spelling
  std::vector<std::pair<std::string_view, OptionEntry>> families;  ///< `-W` of `-W*`, in order
};

struct TableKey {
  const char* data;
  size_t size;
  bool operator==(const TableKey&) const = default;
};

struct TableKeyHash {
  size_t operator()(const TableKey& k) const {
    return std::hash<const void*>()(k.data) ^ (k.size * 0x9e3779b97f4a7c15ULL);
  }
};

const SpellingIndex& spellingIndex(std::string_view options) {
  thread_local std::unordered_map<TableKey, SpellingIndex, TableKeyHash> indexes;
  const auto [it, inserted] = indexes.try_emplace(TableKey{options.data(), options.size()});
  if (inserted) {
    SpellingIndex& index = it->second;
    forEachEntry(options, [&](const OptionEntry& e) {
      forEachSpelling(e.spellings, [&](std::string_view s) {
        if (s.ends_with('*')) {
          index.families.emplace_back(s.substr(0, s.size() - 1), e);
        } else {
          index.exact.emplace_back(s, e);
        }
        return false;
      });
      return false;
    });
    // Stable: the first entry that spells a name wins, as a walk would find it.
    std::stable_sort(index.exact.begin(), index.exact.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
  }
  return it->second;
}

}  // namespace

std::optional<Match> findSpelling(std::string_view options, std::string_view name) {
  const auto& exact = spellingIndex(options).exact;
  const auto it = std::lower_bound(exact.begin(), exact.end(), name,
                                   [](const auto& e, std::string_view n) { return e.first < n; });
  if (it == exact.end() || it->first != name) return std::nullopt;
  return Match{it->second, it->first, false};
}

std::optional<Match> findFamily(std::string_view options, std::string_view word) {
  for (const auto& [start, entry] : spellingIndex(options).families) {
    if (word.size() > start.size() && word.starts_with(start)) return Match{entry, start, true};
  }
  return std::nullopt;
}

std::vector<std::string_view> spellingsOf(const ProgramSpec& spec) {
  std::vector<std::string_view> out;
  forEachEntry(spec.options, [&](const OptionEntry& e) {
    forEachSpelling(e.spellings, [&](std::string_view s) {
      out.push_back(s);
      return false;
    });
    return false;
  });
  return out;
}

std::string specProblem(const ProgramSpec& spec) {
  std::string problem;
  size_t index = 0;
  forEachEntry(spec.options, [&](const OptionEntry& e) {
    ++index;
    const std::string where = std::string(spec.command) + ": entry " + std::to_string(index) +
                              " '" + std::string(e.spellings) + "'";
    if (!validKind(e.kind) || (e.optional_value && e.kind.empty())) {
      problem = where + ": unknown kind '" + std::string(e.kind) + "'";
      return true;
    }
    return forEachSpelling(e.spellings, [&](std::string_view s) {
      const bool dashes = s.starts_with('-') && s.size() >= 2 && s != "--";
      const bool family = s.ends_with('*');
      if (!dashes || s.find_first_of(" =?") != std::string_view::npos ||
          (family && e.kind.empty())) {
        problem = where + ": bad spelling '" + std::string(s) + "'";
        return true;
      }
      if (spec.style == OptionStyle::Gnu && !s.starts_with("--") && s.size() != 2 && s != "-#") {
        problem = where + ": a GNU short option has one letter: '" + std::string(s) + "'";
        return true;
      }
      return false;
    });
  });
  return problem;
}

}  // namespace toolguard::detail
