// Which commands a pattern approval may cover (pattern_commands.hpp).
#include "pattern_commands.hpp"

#include <re2/re2.h>

#include <array>
#include <filesystem>
#include <fstream>

namespace toolguard::detail {
namespace {

// Commands people approve again and again that run no project code and no
// code given to them. Left out on purpose: git pull and git commit (hooks and
// merge drivers the project can set), everything that builds, tests or
// installs (it runs the project's code), and readers of secrets (kubectl get,
// docker inspect and docker logs print credentials).
constexpr std::array kPatternCommands{
    PatternCommand{"git push",
                   "-u|--set-upstream|--tags|--follow-tags|--no-follow-tags|-n|--dry-run|-v|"
                   "--verbose|-q|--quiet|--porcelain|--progress|--no-progress|--atomic|"
                   "--no-atomic|--no-verify",
                   "", "+:", true},
    PatternCommand{"git fetch",
                   "--prune|-p|--tags|-t|--no-tags|-v|--verbose|-q|--quiet|--dry-run|--unshallow|"
                   "--progress|--no-progress",
                   "--depth|--deepen|--shallow-since", "+:", true, false},
    PatternCommand{"gh pr list|view|status|diff|checks", "-c|--comments|--web|-w",
                   "-R|--repo|-s|--state|-L|--limit|-B|--base|-A|--author|-l|--label|--json"},
    PatternCommand{"gh issue list|view|status", "-c|--comments|--web|-w",
                   "-R|--repo|-s|--state|-L|--limit|-A|--author|-l|--label|--json"},
    PatternCommand{"docker ps|images", "-a|--all|-q|--quiet|--no-trunc|-s|--size|--digests", ""},
};

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find(separator, at);
    if (end == std::string_view::npos) end = text.size();
    if (end > at) parts.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return parts;
}

bool spellingListed(std::string_view list, std::string_view word) {
  for (std::string_view item : split(list, '|')) {
    if (item == word) return true;
  }
  return false;
}

// The repository configuration that applies in `cwd`: .git/config of the
// nearest directory with a .git directory (a linked worktree's .git file is
// not followed: its remotes are not checked, so nothing is covered there).
std::optional<std::filesystem::path> gitConfigFor(const std::string& cwd) {
  std::error_code error;
  for (std::filesystem::path dir = cwd; !dir.empty(); dir = dir.parent_path()) {
    if (std::filesystem::is_directory(dir / ".git", error)) return dir / ".git" / "config";
    if (std::filesystem::exists(dir / ".git", error)) return std::nullopt;
    if (dir == dir.parent_path()) break;
  }
  return std::nullopt;
}

// A remote name git cannot take for a repository on disk: a plain name
// (no `/`, `:`, leading dot) that the repository's configuration names
// (`[remote "NAME"]`), or that names nothing in `cwd` (git would then fail,
// not push to a directory whose hooks run).
bool configuredRemote(const std::string& cwd, const std::string& name) {
  static const RE2 kPlainName("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  if (!RE2::FullMatch(name, kPlainName) || name.find("..") != std::string::npos) return false;
  if (cwd.empty() || cwd.front() != '/') return false;
  std::error_code error;
  const bool on_disk = std::filesystem::exists(std::filesystem::path(cwd) / name, error) || error;
  if (!on_disk) return true;
  const std::optional<std::filesystem::path> config = gitConfigFor(cwd);
  if (!config) return false;
  std::ifstream in(*config);
  const std::string header = "[remote \"" + name + "\"]";
  for (std::string line; std::getline(in, line);) {
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    std::string trimmed = line.substr(start);
    while (!trimmed.empty() &&
           (trimmed.back() == ' ' || trimmed.back() == '\t' || trimmed.back() == '\r')) {
      trimmed.pop_back();
    }
    if (trimmed == header) return true;
  }
  return false;
}

}  // namespace

std::optional<std::pair<const PatternCommand*, size_t>> patternCommandOf(
    const std::vector<std::string>& tokens) {
  for (const PatternCommand& entry : kPatternCommands) {
    const std::vector<std::string_view> words = split(entry.prefix, ' ');
    if (tokens.size() < words.size()) continue;
    bool same = true;
    for (size_t i = 0; i < words.size() && same; ++i) {
      same = i + 1 == words.size() ? spellingListed(words[i], tokens[i]) : words[i] == tokens[i];
    }
    if (same) return std::pair{&entry, words.size()};
  }
  return std::nullopt;
}

bool onlyHarmlessWords(const SimpleCommand& command, const PatternCommand& entry,
                       size_t prefix_words, const std::string& cwd) {
  const std::vector<ShellWord>& words = command.words;
  bool operands_only = false;
  size_t operands = 0;
  for (size_t i = prefix_words; i < words.size(); ++i) {
    const ShellWord& word = words[i];
    if (word.dynamic) return false;
    const std::string& text = word.text;
    // An operand: data, unless it names a transport that runs a program
    // (`ext::CMD`) or starts with a character that changes what it does.
    if (operands_only || !text.starts_with('-') || text == "-") {
      if (text.find("::") != std::string::npos) return false;
      if (!text.empty() && entry.refused_operand_starts.find(text[0]) != std::string_view::npos) {
        return false;
      }
      if (entry.remote_first && operands == 0 && !configuredRemote(cwd, text)) return false;
      if (operands > 0 && !entry.local_destinations && text.find(':') != std::string::npos) {
        return false;
      }
      ++operands;
      continue;
    }
    if (text == "--") {
      operands_only = true;
      continue;
    }
    if (spellingListed(entry.flags, text)) continue;
    const size_t equals = text.find('=');
    if (equals != std::string::npos) {
      if (text.starts_with("--") && spellingListed(entry.valued, text.substr(0, equals))) continue;
      return false;
    }
    if (spellingListed(entry.valued, text) && i + 1 < words.size() && !words[i + 1].dynamic) {
      ++i;  // its value is data
      continue;
    }
    return false;
  }
  return true;
}

std::string patternCommandList() {
  std::string out;
  for (const PatternCommand& entry : kPatternCommands) {
    if (!out.empty()) out += ", ";
    out += entry.prefix;
  }
  return out;
}

}  // namespace toolguard::detail
