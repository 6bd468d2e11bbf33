// The index of every table of harmless options, built once on first use.
#include "program_specs.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <vector>

namespace toolguard::detail {
namespace {

// FNV-1a: a few instructions a byte, enough for a table of ~700 names.
std::uint64_t keyHash(std::string_view key) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const char c : key) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

// Keys are views: a program's own name points into its table's text; a
// subcommand's key ("git log") is kept in `composite_keys`. An open-addressed
// table built once per process, without sorting or a node per key: the sorted
// vector of strings it replaced took 674k of a hook's 2.1M instructions
// (callgrind, `toolguard check` of `git status`), a std::unordered_map 258k.
struct SpecIndex {
  struct Slot {
    std::string_view key;
    const ProgramSpec* spec = nullptr;
  };
  std::vector<const ProgramSpec*> all;
  std::deque<std::string> composite_keys;
  std::vector<Slot> slots;  ///< a power of two, at most half full

  // The first table to name a key keeps it.
  void add(std::string_view key, const ProgramSpec* spec) {
    const size_t mask = slots.size() - 1;
    for (size_t i = keyHash(key) & mask;; i = (i + 1) & mask) {
      if (slots[i].spec == nullptr) {
        slots[i] = Slot{key, spec};
        return;
      }
      if (slots[i].key == key) return;
    }
  }
  const ProgramSpec* find(std::string_view key) const {
    const size_t mask = slots.size() - 1;
    for (size_t i = keyHash(key) & mask; slots[i].spec != nullptr; i = (i + 1) & mask) {
      if (slots[i].key == key) return slots[i].spec;
    }
    return nullptr;
  }
};

const SpecIndex& specIndex() {
  static const SpecIndex index = [] {
    SpecIndex built;
    const auto groups = {fileReaderSpecs(),  textAndSystemToolSpecs(), gitSpecs(),
                         buildSystemSpecs(), pythonToolSpecs(),        javascriptToolSpecs(),
                         jvmToolSpecs(),     compiledLanguageSpecs(),  runtimeVersionSpecs(),
                         linterSpecs(),      configLinterSpecs(),      fileToolSpecs(),
                         wrapperSpecs()};
    size_t names = 0;
    for (auto group : groups) {
      for (const ProgramSpec& spec : group) {
        names += 1 + static_cast<size_t>(std::count(spec.command.begin(), spec.command.end(), '|'));
      }
    }
    built.slots.resize(std::bit_ceil(names * 2 + 1));
    for (auto group : groups) {
      for (const ProgramSpec& spec : group) {
        built.all.push_back(&spec);
        const std::string_view command = spec.command;
        const size_t space = command.rfind(' ');
        const std::string parent =
            space == std::string_view::npos ? "" : canonicalCommand(command.substr(0, space)) + " ";
        const std::string_view alternatives =
            space == std::string_view::npos ? command : command.substr(space + 1);
        size_t at = 0;
        while (at <= alternatives.size()) {
          size_t end = alternatives.find('|', at);
          if (end == std::string_view::npos) end = alternatives.size();
          std::string_view key = alternatives.substr(at, end - at);
          if (!parent.empty()) key = built.composite_keys.emplace_back(parent + std::string(key));
          built.add(key, &spec);
          at = end + 1;
        }
      }
    }
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
  return specIndex().find(command);
}

const ProgramSpec* programSpec(std::string_view name) {
  if (name.find(' ') != std::string_view::npos) return nullptr;
  return findProgramSpec(name);
}

std::span<const ProgramSpec* const> allProgramSpecs() {
  return specIndex().all;
}

}  // namespace toolguard::detail
