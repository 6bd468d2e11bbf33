// The index of every table of harmless options, built once on first use.
#include "program_specs.hpp"

#include <algorithm>
#include <vector>

namespace toolguard::detail {
namespace {

struct IndexEntry {
  std::string key;  ///< "grep", "git log", "git stash list"
  const ProgramSpec* spec = nullptr;
};

struct SpecIndex {
  std::vector<const ProgramSpec*> all;
  std::vector<IndexEntry> by_key;  ///< sorted by key
};

const SpecIndex& specIndex() {
  static const SpecIndex index = [] {
    SpecIndex built;
    for (auto group : {fileReaderSpecs(), textAndSystemToolSpecs(), gitSpecs(), buildSystemSpecs(),
                       pythonToolSpecs(), javascriptToolSpecs(), jvmToolSpecs(),
                       compiledLanguageSpecs(), runtimeVersionSpecs(), linterSpecs(),
                       configLinterSpecs(), fileToolSpecs(), wrapperSpecs()}) {
      for (const ProgramSpec& spec : group) {
        built.all.push_back(&spec);
        const std::string_view command = spec.command;
        const size_t space = command.rfind(' ');
        const std::string parent =
            space == std::string_view::npos ? "" : canonicalCommand(command.substr(0, space)) + " ";
        const std::string_view names =
            space == std::string_view::npos ? command : command.substr(space + 1);
        size_t at = 0;
        while (at <= names.size()) {
          size_t end = names.find('|', at);
          if (end == std::string_view::npos) end = names.size();
          built.by_key.push_back(
              IndexEntry{parent + std::string(names.substr(at, end - at)), &spec});
          at = end + 1;
        }
      }
    }
    std::sort(built.by_key.begin(), built.by_key.end(),
              [](const IndexEntry& a, const IndexEntry& b) { return a.key < b.key; });
    return built;
  }();
  return index;
}

}  // namespace

std::string canonicalCommand(std::string_view command) {
  std::string out;
  size_t at = 0;
  while (at < command.size()) {
    size_t end = command.find(' ', at);
    if (end == std::string_view::npos) end = command.size();
    const std::string_view word = command.substr(at, end - at);
    if (!out.empty()) out += ' ';
    out += word.substr(0, word.find('|'));
    at = end + 1;
  }
  return out;
}

const ProgramSpec* findProgramSpec(std::string_view command) {
  const auto& keys = specIndex().by_key;
  const auto it =
      std::lower_bound(keys.begin(), keys.end(), command,
                       [](const IndexEntry& e, std::string_view k) { return e.key < k; });
  return it != keys.end() && it->key == command ? it->spec : nullptr;
}

const ProgramSpec* programSpec(std::string_view name) {
  if (name.find(' ') != std::string_view::npos) return nullptr;
  return findProgramSpec(name);
}

std::span<const ProgramSpec* const> allProgramSpecs() {
  return specIndex().all;
}

}  // namespace toolguard::detail
