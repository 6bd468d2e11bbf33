#pragma once
// Internal: the YAML trees of the user's own policy files, kept between
// processes. A hook starts one `toolguard check` per tool call, and reading a
// 50-rule policy file with libfyaml was more than half of such a process
// (2.1M of 3.8M instructions); decoding its stored tree is a twentieth of that.
//
// Why an entry cannot be used to switch the guard off (see the .cpp for the
// checks): an entry is used only when it holds the file's whole current text,
// byte for byte; only files owned by this user are cached, and never the
// managed layer, so whoever could write an entry could as well have edited
// the file itself; entries live in toolguard's home, beside the approvals and
// the LLM verdict cache, where the built-in rules deny every write, must
// belong to this user and be writable by nobody else, and are never followed
// through a symbolic link; and a different build of toolguard never reads
// another's entries.

#include <filesystem>
#include <string>
#include <string_view>

#include "policy/doc_node.hpp"

namespace toolguard::detail {

/// A directory of parsed policy trees, one entry per policy file.
class PolicyTreeCache {
 public:
  /// Entries under `dir` (created, mode 0700, when the first one is written).
  explicit PolicyTreeCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  /// The YAML tree of `text`, which was read from `file`: from its entry when
  /// that holds exactly `text` and may be trusted, else parsed by
  /// parseYamlDocument (and its entry written, when `file` belongs to this
  /// user). Throws PolicyError, with `name` in the location, as
  /// parseYamlDocument does; a cache that cannot be read or written is
  /// never an error (the file is parsed).
  DocNode tree(std::string_view text, const std::filesystem::path& file,
               const std::string& name) const;

  /// Where the entry of `file` is kept (for tests).
  std::filesystem::path entryPath(const std::filesystem::path& file) const;

  /// The bytes of an entry holding `tree` for `text`, as this build writes
  /// them ("" when this build cannot name itself; tests forge entries with it).
  static std::string encodeEntry(std::string_view text, const DocNode& tree);

 private:
  std::filesystem::path dir_;
};

}  // namespace toolguard::detail
