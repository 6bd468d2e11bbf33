// Unknown sub-commands and options, at every level, with a suggestion.
#include "command_line/unknown_command.hpp"

#include <vector>

#include "policy/did_you_mean.hpp"

namespace toolguard::command_line {

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

namespace {

// Every spelling of the options of one command ("--policy", "-q").
std::vector<std::string> optionSpellings(CLI::App& command) {
  std::vector<std::string> out;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) out.push_back("--" + name);
    for (const std::string& name : option->get_snames()) out.push_back("-" + name);
  }
  return out;
}

const CLI::Option* optionSpelled(CLI::App& command, const std::string& spelling) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->check_name(spelling)) return option;
  }
  return nullptr;
}

// True when `word` ("-qv", "-n5") is a cluster of the command's one-letter
// flags, or one of its one-letter options with the value attached.
bool isShortCluster(CLI::App& command, const std::string& word) {
  if (word.size() < 3 || word[1] == '-') return false;
  for (size_t i = 1; i < word.size(); ++i) {
    const CLI::Option* option = optionSpelled(command, std::string("-") + word[i]);
    if (option == nullptr) return false;
    if (option->get_items_expected_min() > 0) return true;  // the rest is its value
  }
  return true;
}

}  // namespace

std::optional<std::string> unknownOptionMessage(CLI::App& app, int argc, const char* const* argv,
                                                const std::string& program) {
  CLI::App* current = &app;
  std::string path = program;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") return std::nullopt;  // the rest is positional
    if (word.size() < 2 || word[0] != '-') {
      for (CLI::App* sub : current->get_subcommands({})) {
        if (sub->get_name() == word) {
          current = sub;
          path += " " + word;
          break;
        }
      }
      continue;
    }
    const std::string spelling = word.substr(0, word.find('='));
    if (const CLI::Option* option = optionSpelled(*current, spelling)) {
      // Its value is the next word unless given with '='.
      if (option->get_items_expected_min() > 0 && spelling.size() == word.size()) ++i;
      continue;
    }
    if (isShortCluster(*current, word)) continue;
    return "unknown option '" + spelling + "'" +
           detail::didYouMean(spelling, optionSpellings(*current)) + "; see " + path + " --help";
  }
  return std::nullopt;
}

}  // namespace toolguard::command_line
