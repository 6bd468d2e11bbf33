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
// What a thread may hold, and what one program may take of it. A short
// script may still expand to a large program (brace expansion, loops
// written out); the service runs up to hundreds of handler threads, each
// with its own kept parses, so the calls of a model can make it hold at
// most this much a thread. A usual command line's program is 1-3 KiB.
constexpr size_t kKeptBytes = 256 * 1024;
constexpr size_t kLargestKeptProgram = 16 * 1024;

size_t wordBytes(const ShellWord& word) {
  return sizeof(ShellWord) + word.text.size() + word.source.size();
}

// About how much memory the program takes: its objects and their strings.
size_t programBytes(const ShellProgram& program) {
  size_t bytes = sizeof(ShellProgram) + program.error.size();
  for (const SimpleCommand& command : program.commands) {
    bytes += sizeof(SimpleCommand) + command.text.size() + command.placement.function_name.size();
    for (const ShellWord& word : command.words) bytes += wordBytes(word);
    for (const auto& [name, value] : command.assignments) bytes += name.size() + wordBytes(value);
    for (const ShellRedirect& r : command.redirects) {
      bytes += sizeof(ShellRedirect) + r.op.size() + wordBytes(r.target) + wordBytes(r.document);
    }
    for (const ShellWrapper& wrapper : command.wrappers) {
      bytes += sizeof(ShellWrapper) + wrapper.name.size();
    }
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
  size_t bytes = 0;            ///< programBytes plus the key's
  std::uint64_t last_use = 0;  ///< 0: an empty slot
};

struct KeptPrograms {
  std::array<KeptProgram, kKeptPrograms> slots;
  size_t bytes = 0;  ///< of the slots in use
  std::uint64_t uses = 0;

  // The slot used least recently (an empty one first).
  KeptProgram& oldest() {
    KeptProgram* oldest = &slots[0];
    for (KeptProgram& slot : slots) {
      if (slot.last_use < oldest->last_use) oldest = &slot;
    }
    return *oldest;
  }

  // The slot in use used least recently, or null when none is in use.
  KeptProgram* oldestInUse() {
    KeptProgram* oldest = nullptr;
    for (KeptProgram& slot : slots) {
      if (slot.last_use != 0 && (oldest == nullptr || slot.last_use < oldest->last_use)) {
        oldest = &slot;
      }
    }
    return oldest;
  }

  void empty(KeptProgram& slot) {
    bytes -= slot.bytes;
    slot = KeptProgram{};
  }
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
  for (KeptProgram& slot : kept.slots) {
    if (slot.last_use != 0 && slot.hash == hash && slot.script == script &&
        slot.home == resolved.home && slot.max_unwrap_depth == resolved.max_unwrap_depth) {
      slot.last_use = ++kept.uses;
      return slot.program;
    }
  }
  auto program = std::make_shared<const ShellProgram>(parseShellProgram(script, resolved));
  const size_t bytes = programBytes(*program) + script.size() + resolved.home.size();
  if (bytes > kLargestKeptProgram) return program;
  KeptProgram* slot = &kept.oldest();
  kept.empty(*slot);
  while (kept.bytes + bytes > kKeptBytes) {
    KeptProgram* victim = kept.oldestInUse();
    if (victim == nullptr) break;
    kept.empty(*victim);
  }
  slot->hash = hash;
  slot->script.assign(script);
  slot->home = resolved.home;
  slot->max_unwrap_depth = resolved.max_unwrap_depth;
  slot->program = program;
  slot->bytes = bytes;
  slot->last_use = ++kept.uses;
  kept.bytes += bytes;
  return program;
}

}  // namespace toolguard::detail
