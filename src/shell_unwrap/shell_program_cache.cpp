#include "shell_program_cache.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

constexpr size_t kKeptPrograms = 64;
constexpr size_t kLongestKeptScript = 4096;
// A short script may still expand to a large program (brace expansion,
// loops written out): one whose text is larger than this is not kept, so
// that the calls of a model cannot make a process hold much memory.
constexpr size_t kLargestKeptProgram = 64 * 1024;

size_t wordBytes(const ShellWord& word) {
  return word.text.size() + word.source.size();
}

// About how many bytes the program's text takes (its strings' sizes).
size_t programBytes(const ShellProgram& program) {
  size_t bytes = program.error.size();
  for (const SimpleCommand& command : program.commands) {
    bytes += command.text.size() + command.placement.function_name.size();
    for (const ShellWord& word : command.words) bytes += wordBytes(word);
    for (const auto& [name, value] : command.assignments) bytes += name.size() + wordBytes(value);
    for (const ShellRedirect& r : command.redirects) {
      bytes += r.op.size() + wordBytes(r.target) + wordBytes(r.document);
    }
    for (const ShellWrapper& wrapper : command.wrappers) bytes += wrapper.name.size();
    if (command.working_directory) bytes += wordBytes(*command.working_directory);
    if (command.input) bytes += wordBytes(*command.input);
  }
  return bytes;
}

struct KeptProgram {
  size_t hash = 0;
  std::string script;
  std::string home;
  size_t max_unwrap_depth = 0;
  std::shared_ptr<const ShellProgram> program;
  std::uint64_t last_use = 0;  ///< 0: an empty slot
};

struct KeptPrograms {
  std::array<KeptProgram, kKeptPrograms> slots;
  std::uint64_t uses = 0;
};

}  // namespace

std::shared_ptr<const ShellProgram> parsedShellProgram(std::string_view script,
                                                       const ShellParseOptions& options) {
  if (script.size() > kLongestKeptScript) {
    return std::make_shared<const ShellProgram>(parseShellProgram(script, options));
  }
  // The key's home is the one parsing would use, so that "" and the home it
  // stands for are one entry, and a changed $HOME is another.
  ShellParseOptions resolved = options;
  if (resolved.home.empty()) resolved.home = homeDirectory();
  thread_local KeptPrograms kept;
  const size_t hash = std::hash<std::string_view>{}(script);
  KeptProgram* oldest = &kept.slots[0];
  for (KeptProgram& slot : kept.slots) {
    if (slot.last_use != 0 && slot.hash == hash && slot.script == script &&
        slot.home == resolved.home && slot.max_unwrap_depth == resolved.max_unwrap_depth) {
      slot.last_use = ++kept.uses;
      return slot.program;
    }
    if (slot.last_use < oldest->last_use) oldest = &slot;
  }
  auto program = std::make_shared<const ShellProgram>(parseShellProgram(script, resolved));
  if (programBytes(*program) > kLargestKeptProgram) return program;
  oldest->hash = hash;
  oldest->script.assign(script);
  oldest->home = resolved.home;
  oldest->max_unwrap_depth = resolved.max_unwrap_depth;
  oldest->program = program;
  oldest->last_use = ++kept.uses;
  return program;
}

}  // namespace toolguard::detail
