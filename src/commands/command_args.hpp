#pragma once
// Internal: a command's arguments parsed the way GNU tools read them:
// combined short flags (-rf = -r -f = -fr), long options, `--` ending the
// options, options and operands in any order.

#include <array>
#include <initializer_list>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// The options and operands of one simple command.
struct CommandArgs {
  std::set<char> flags;             ///< short options (`-rf` gives r and f)
  std::set<std::string> longs;      ///< long options without their value ("--force")
  std::vector<std::string> values;  ///< values of options that take one
  /// The same values with the option that took each ("-o" or "--output")
  /// and the word it came from (kept dynamic when it was).
  std::vector<std::pair<std::string, ShellWord>> valued;
  std::vector<ShellWord> operands;

  bool has(char flag) const { return flags.count(flag) != 0; }
  bool hasLong(const std::string& name) const { return longs.count(name) != 0; }
  bool hasAny(const std::string& short_flags, std::initializer_list<const char*> long_names) const;
  /// The values given to any of these options ("-o", "--output"), in order.
  std::vector<ShellWord> valuesOf(std::initializer_list<const char*> options) const;
};

/// A short list of option names (string literals), held without allocating:
/// parseArgs runs for every command of every call.
class OptionNames {
 public:
  static constexpr size_t kCapacity = 64;
  OptionNames() = default;
  /// At compile time: a list longer than kCapacity does not compile.
  consteval OptionNames(std::initializer_list<std::string_view> names) : size_(names.size()) {
    if (names.size() > kCapacity) throw "OptionNames: more names than kCapacity";
    size_t i = 0;
    for (std::string_view name : names) names_[i++] = name;
  }
  bool contains(std::string_view name) const;

 private:
  std::array<std::string_view, kCapacity> names_{};
  size_t size_ = 0;
};

/// Parses `words` (the command's arguments, without its name). Short options
/// in `short_with_value` and long options in `long_with_value` take a value.
CommandArgs parseArgs(std::span<const ShellWord> words, std::string_view short_with_value = "",
                      const OptionNames& long_with_value = {});

}  // namespace toolguard::detail
