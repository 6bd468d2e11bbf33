// Unknown sub-commands, at every level, with a suggestion.
#include "cli/unknown_command.hpp"

#include <vector>

#include "policy/did_you_mean.hpp"

namespace toolguard::cli {

std::optional<std::string> unknownCommandMessage(CLI::App& app, int argc, const char* const* argv) {
  CLI::App* current = &app;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') return std::nullopt;  // options: CLI11's part
    std::vector<CLI::App*> subs = current->get_subcommands({});
    if (subs.empty()) return std::nullopt;
    CLI::App* next = nullptr;
    std::vector<std::string> names;
    for (CLI::App* sub : subs) {
      names.push_back(sub->get_name());
      if (sub->get_name() == word) next = sub;
    }
    if (next == nullptr) {
      // A command that takes arguments of its own (`test FILE`) may get a
      // word here; one that only chooses among sub-commands may not.
      if (current->get_require_subcommand_min() == 0) return std::nullopt;
      const std::string where = path.empty() ? "" : path + " ";
      std::string hint = detail::didYouMean(word, names);
      if (!hint.empty() && !path.empty()) {
        for (const std::string& name : names) {
          const std::string quoted = "'" + name + "'";
          if (size_t at = hint.find(quoted); at != std::string::npos) {
            hint.replace(at, quoted.size(), "'" + where + name + "'");
          }
        }
      }
      return "unknown command '" + where + word + "'" + hint + "; see toolguard " + where +
             "--help";
    }
    path += (path.empty() ? "" : " ") + word;
    current = next;
  }
  return std::nullopt;
}

}  // namespace toolguard::cli
