// GNU-style argument parsing for command rules.
#include "command_args.hpp"

#include <algorithm>

namespace toolguard::detail {

bool OptionNames::contains(std::string_view name) const {
  return std::find(names_.begin(), names_.begin() + static_cast<std::ptrdiff_t>(size_), name) !=
         names_.begin() + static_cast<std::ptrdiff_t>(size_);
}

bool CommandArgs::hasAny(const std::string& short_flags,
                         std::initializer_list<const char*> long_names) const {
  for (char c : short_flags) {
    if (has(c)) return true;
  }
  for (const char* name : long_names) {
    if (hasLong(name)) return true;
  }
  return false;
}

std::vector<ShellWord> CommandArgs::valuesOf(std::initializer_list<const char*> options) const {
  std::vector<ShellWord> out;
  for (const auto& [option, value] : valued) {
    for (const char* o : options) {
      if (option == o) out.push_back(value);
    }
  }
  return out;
}

CommandArgs parseArgs(std::span<const ShellWord> words, std::string_view short_with_value,
                      const OptionNames& long_with_value) {
  CommandArgs args;
  bool options_end = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i].text;
    if (options_end || words[i].dynamic || w.size() < 2 || w[0] != '-') {
      args.operands.push_back(words[i]);
      continue;
    }
    if (w == "--") {
      options_end = true;
      continue;
    }
    if (w.starts_with("--")) {
      const size_t eq = w.find('=');
      const std::string name = w.substr(0, eq);
      args.longs.insert(name);
      if (eq != std::string::npos) {
        args.values.push_back(w.substr(eq + 1));
        args.valued.emplace_back(name, ShellWord{w.substr(eq + 1), false, w.substr(eq + 1)});
      } else if (long_with_value.contains(name) && i + 1 < words.size()) {
        args.values.push_back(words[++i].text);
        args.valued.emplace_back(name, words[i]);
      }
      continue;
    }
    for (size_t k = 1; k < w.size(); ++k) {
      args.flags.insert(w[k]);
      if (short_with_value.find(w[k]) != std::string::npos) {
        const std::string option = std::string("-") + w[k];
        if (k + 1 < w.size()) {
          args.values.push_back(w.substr(k + 1));
          args.valued.emplace_back(option, ShellWord{w.substr(k + 1), false, w.substr(k + 1)});
        } else if (i + 1 < words.size()) {
          args.values.push_back(words[++i].text);
          args.valued.emplace_back(option, words[i]);
        }
        break;
      }
    }
  }
  return args;
}

}  // namespace toolguard::detail
