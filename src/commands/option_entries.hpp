#pragma once
// Internal: the entries of a table of harmless options (option_table.hpp
// describes the text): reading them, the kind of an entry's value, and
// finding the entry of a spelling.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "option_table.hpp"

namespace toolguard::detail {

// One entry of a spec's option list: `-n|--lines=num`.
struct OptionEntry {
  std::string_view spellings;   ///< "-n|--lines"
  std::string_view kind;        ///< "num", "{a,b}", "" for a flag
  bool optional_value = false;  ///< `?=`: a value only when glued
};

// Calls `visit(entry)` for each entry until it returns true.
template <typename Visit>
bool forEachEntry(std::string_view options, Visit visit) {
  size_t at = 0;
  while (at < options.size()) {
    while (at < options.size() && options[at] == ' ') ++at;
    if (at >= options.size()) break;
    size_t end = options.find(' ', at);
    if (end == std::string_view::npos) end = options.size();
    const std::string_view token = options.substr(at, end - at);
    at = end;
    OptionEntry entry;
    const size_t eq = token.find('=');
    if (eq == std::string_view::npos) {
      entry.spellings = token;
    } else if (eq > 0 && token[eq - 1] == '?') {
      entry.spellings = token.substr(0, eq - 1);
      entry.kind = token.substr(eq + 1);
      entry.optional_value = true;
    } else {
      entry.spellings = token.substr(0, eq);
      entry.kind = token.substr(eq + 1);
    }
    if (visit(entry)) return true;
  }
  return false;
}

// Calls `visit(spelling)` for each `|`-separated spelling until it returns true.
template <typename Visit>
bool forEachSpelling(std::string_view spellings, Visit visit) {
  size_t at = 0;
  while (at <= spellings.size()) {
    size_t end = spellings.find('|', at);
    if (end == std::string_view::npos) end = spellings.size();
    if (visit(spellings.substr(at, end - at))) return true;
    at = end + 1;
  }
  return false;
}

ValueKind kindOf(std::string_view kind);

/// True for a kind the text may name (empty: a flag).
bool validKind(std::string_view kind);

/// An option found in a table: its entry, the spelling it matched, and
/// whether that was a family (`-W*`).
struct Match {
  OptionEntry entry;
  std::string_view spelling;
  bool family = false;  ///< matched a `-W*` entry: the rest of the word is the value
};

/// The entry whose spelling is `name` exactly (families excluded).
std::optional<Match> findSpelling(std::string_view options, std::string_view name);

/// The family entry (`-W*=word`) whose start the word has.
std::optional<Match> findFamily(std::string_view options, std::string_view word);

}  // namespace toolguard::detail
