#pragma once
// The approval store: remembered "always allow" entries, one JSON file per
// scope, written so that concurrent writers and crashes never lose an entry.

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "toolguard/approval.hpp"

namespace toolguard {

/// A store file that cannot be read, parsed or written. The message names
/// the file and the problem; a corrupt file is never overwritten.
class ApprovalStoreError : public std::runtime_error {
 public:
  ApprovalStoreError(std::string path, const std::string& problem);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The toolguard home directory: `flag` when not empty, else
/// `$TOOLGUARD_HOME` when set and not empty, else `~/.toolguard`.
std::string toolguardHome(const std::string& flag = "");

/// Entries read from store files, with the files that could not be read.
struct ApprovalListing {
  std::vector<ApprovalEntry> entries;
  std::vector<std::string> errors;  ///< "PATH: problem", one per bad file
};

/// Where remembered approvals are kept and looked up: the files of an
/// ApprovalStore on one machine, or the database of `toolguard serve`. The
/// Guard reads and adds through this. Implementations are thread-safe.
class ApprovalRepository {
 public:
  virtual ~ApprovalRepository() = default;

  /// The entries that apply to a call made in `context` (global, its
  /// project's, its agent's and its session's); what could not be read is
  /// listed in `errors` and grants nothing.
  virtual ApprovalListing lookup(const CallContext& context) const = 0;

  /// What lookup would return, when that is known without waiting (held in
  /// memory); nullopt when only lookup can say. A service asks this on a
  /// thread that must not wait. The default knows nothing.
  virtual std::optional<ApprovalListing> lookupNow(const CallContext& context) const {
    (void)context;
    return std::nullopt;
  }

  /// Remembers an entry; false when the same grant was already there.
  /// Throws (and remembers nothing) when it cannot be written.
  virtual bool add(const ApprovalEntry& entry) = 0;

  /// Where one scope's entries are kept, for the audit record: a file, or
  /// the database's name.
  virtual std::string locationOf(ApprovalScope scope, std::string_view scope_id) const = 0;
};

/// The store under one home directory. Files (created on first write):
///   HOME/approvals/global.json
///   HOME/approvals/projects/<name>.json   (one per project root)
///   HOME/approvals/agents/<name>.json     (one per agent id)
///   HOME/approvals/sessions/<name>.json   (one per session id)
/// where <name> is the scope id made safe for a file name plus a hash of it.
/// Each file is {"version": 1, "format": "toolguard-approvals", "scope": ...,
/// "scope_id": ..., "entries": [...]}; the plain format {"version": 1,
/// "allowed_tools": [NAME, ...]} is read too (each name a Tool entry of the
/// scope asked for). An add or remove that changes a plain-format file
/// rewrites it in the toolguard format, its names kept as Tool entries; one
/// with keys besides "version" and "allowed_tools" is never rewritten (the
/// change throws, as those keys would be lost). A symlink in place of a scope
/// file is replaced by the new file; its target is left as it was.
/// The Global scope's id is ""; every other scope needs a non-empty id (else
/// ApprovalStoreError). A bad file is never overwritten and grants nothing.
/// Safe to use from many threads and many processes at once.
class ApprovalStore : public ApprovalRepository {
 public:
  /// A store in `home` (see toolguardHome()).
  explicit ApprovalStore(std::string home);

  const std::string& home() const { return home_; }

  /// The file that holds one scope's entries.
  std::string fileFor(ApprovalScope scope, std::string_view scope_id) const;

  /// The entries of one scope file (none when it does not exist). Throws
  /// ApprovalStoreError when it cannot be read or parsed, or belongs to
  /// another scope id.
  std::vector<ApprovalEntry> load(ApprovalScope scope, std::string_view scope_id) const;

  /// The entries that apply to a call made in `context`: global, its
  /// project's, its agent's and its session's. Files are re-read only when
  /// they changed (size, time, inode). A bad file gives no entries and is
  /// listed in `errors`.
  ApprovalListing lookup(const CallContext& context) const override;

  /// Every entry of every scope file, for listing. A file in the directory of
  /// another scope, or whose recorded scope id is not the one its name is made
  /// from, is listed in `errors` (lookup never reads it). The entries of a
  /// plain-format file under projects/, agents/ or sessions/ have an empty
  /// scope_id: the file does not record it.
  ApprovalListing list() const;

  /// Adds an entry: takes the scope file's lock, re-reads the file, adds the
  /// entry unless the same grant is there, writes a temporary file, fsyncs it,
  /// renames it into place and fsyncs the directory. Returns false when the
  /// same grant was already there. Throws ApprovalStoreError (and leaves the
  /// file as it was) when the file is corrupt or cannot be written.
  bool add(const ApprovalEntry& entry) override;

  /// The scope's file (fileFor).
  std::string locationOf(ApprovalScope scope, std::string_view scope_id) const override {
    return fileFor(scope, scope_id);
  }

  /// Removes the entries of one scope file for which `matches` is true, in
  /// the same locked, atomic way (the file is not written when none match).
  /// Returns the removed entries.
  std::vector<ApprovalEntry> remove(ApprovalScope scope, std::string_view scope_id,
                                    const std::function<bool(const ApprovalEntry&)>& matches);

  /// Reads a plain-format file ({"version": 1, "allowed_tools": [...]}) and
  /// adds a Tool entry for each name to the given scope. Returns the entries
  /// added (names already granted are skipped). Throws ApprovalStoreError
  /// naming the file for anything that is not that format.
  std::vector<ApprovalEntry> importPlain(const std::string& path, ApprovalScope scope,
                                         std::string_view scope_id);

 private:
  std::string home_;
  struct Cache;
  std::shared_ptr<Cache> cache_;
};

}  // namespace toolguard
