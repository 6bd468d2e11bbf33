// The approval store: loading, looking up (with a stamp-checked cache) and
// changing scope files under their lock, one atomic rewrite per change.
#include "toolguard/approval_store.hpp"

#include <utility>

#include "approval/store_cache.hpp"
#include "approval/store_file_io.hpp"
#include "approval/store_format.hpp"
#include "approval/store_layout.hpp"

namespace toolguard {

namespace {

std::string errorMessage(const std::string& path, const std::string& problem) {
  if (path.empty()) return problem;
  std::string message = path;
  message.append(": ");
  message.append(problem);
  return message;
}

void requireValidScopeId(const std::string& path, ApprovalScope scope, std::string_view scope_id) {
  if (std::string problem = detail::scopeIdProblem(scope, scope_id); !problem.empty()) {
    throw ApprovalStoreError(path, problem);
  }
}

std::string directoryOf(const std::string& path) {
  return path.substr(0, path.rfind('/'));
}

// The entries of one scope file under its lock, and how to write them back.
class LockedScopeFile {
 public:
  LockedScopeFile(std::string path, ApprovalScope scope, std::string_view scope_id)
      : path_(std::move(path)), scope_(scope), scope_id_(scope_id), lock_(makeParentsFor(path_)) {
    if (std::optional<detail::FileContents> read = detail::readStoreFile(path_)) {
      contents_ = detail::parseScopeFileFor(path_, read->bytes, scope_, scope_id_);
    }
  }

  std::vector<ApprovalEntry>& entries() { return contents_.entries; }

  bool grants(const ApprovalEntry& entry) const {
    for (const ApprovalEntry& existing : contents_.entries) {
      if (existing.sameGrant(entry)) return true;
    }
    return false;
  }

  void write() {
    if (contents_.plain && !contents_.plain_other_keys.empty()) {
      std::string keys;
      for (const std::string& key : contents_.plain_other_keys) {
        if (!keys.empty()) keys.append(", ");
        keys.append("\"" + key + "\"");
      }
      throw ApprovalStoreError(path_, "is in the plain format with other keys (" + keys +
                                          ") that the toolguard format cannot keep; not rewritten");
    }
    detail::replaceFileAtomically(
        path_, detail::formatScopeFile(path_, scope_, scope_id_, contents_.entries));
  }

 private:
  static const std::string& makeParentsFor(const std::string& path) {
    detail::makeDirectories(directoryOf(path));
    return path;
  }

  std::string path_;
  ApprovalScope scope_;
  std::string scope_id_;
  detail::ScopeFileLock lock_;
  detail::ScopeFileContents contents_;
};

}  // namespace

ApprovalStoreError::ApprovalStoreError(std::string path, const std::string& problem)
    : std::runtime_error(errorMessage(path, problem)), path_(std::move(path)) {}

/// The store's parsed files, shared by its copies.
struct ApprovalStore::Cache : detail::ScopeFileCache {};

ApprovalStore::ApprovalStore(std::string home)
    : home_(std::move(home)), cache_(std::make_shared<Cache>()) {
  if (home_.empty()) throw ApprovalStoreError("", "the approval store needs a home directory");
  while (home_.size() > 1 && home_.back() == '/') home_.pop_back();
}

std::string ApprovalStore::fileFor(ApprovalScope scope, std::string_view scope_id) const {
  std::string path = home_;
  if (path.back() != '/') path.push_back('/');
  path.append("approvals/");
  if (scope == ApprovalScope::Global) return path + "global.json";
  path.append(detail::scopeDirectoryName(scope));
  path.push_back('/');
  path.append(detail::scopeFileName(scope_id));
  return path;
}

std::vector<ApprovalEntry> ApprovalStore::load(ApprovalScope scope,
                                               std::string_view scope_id) const {
  const std::string path = fileFor(scope, scope_id);
  requireValidScopeId(path, scope, scope_id);
  std::optional<detail::FileContents> read = detail::readStoreFile(path);
  if (!read) return {};
  return detail::parseScopeFileFor(path, read->bytes, scope, scope_id).entries;
}

ApprovalListing ApprovalStore::lookup(const CallContext& context) const {
  ApprovalListing listing;
  for (ApprovalScope scope : {ApprovalScope::Global, ApprovalScope::Project, ApprovalScope::Agent,
                              ApprovalScope::Session}) {
    const std::optional<std::string> scope_id = scopeIdOf(scope, context);
    if (!scope_id) continue;
    const std::string path = fileFor(scope, *scope_id);
    if (std::string problem = detail::scopeIdProblem(scope, *scope_id); !problem.empty()) {
      listing.errors.push_back(errorMessage(path, problem));
      continue;
    }
    const std::shared_ptr<const detail::ScopeFileReading> reading =
        cache_->read(path, scope, *scope_id);
    if (!reading) continue;
    if (!reading->error.empty()) {
      listing.errors.push_back(reading->error);
    } else {
      listing.entries.insert(listing.entries.end(), reading->entries.begin(),
                             reading->entries.end());
    }
  }
  return listing;
}

bool ApprovalStore::add(const ApprovalEntry& entry) {
  const std::string path = fileFor(entry.scope, entry.scope_id);
  requireValidScopeId(path, entry.scope, entry.scope_id);
  if (entry.tool.empty()) throw ApprovalStoreError(path, "cannot add an entry without a tool");
  if (entry.binding != ApprovalBinding::Tool && entry.value.empty()) {
    throw ApprovalStoreError(path, "cannot add an entry of binding " +
                                       std::string(toString(entry.binding)) + " without a value");
  }
  LockedScopeFile file(path, entry.scope, entry.scope_id);
  if (file.grants(entry)) return false;
  ApprovalEntry added = entry;
  if (added.created.empty()) added.created = detail::currentUtcTimestamp();
  file.entries().push_back(std::move(added));
  file.write();
  return true;
}

std::vector<ApprovalEntry> ApprovalStore::remove(
    ApprovalScope scope, std::string_view scope_id,
    const std::function<bool(const ApprovalEntry&)>& matches) {
  const std::string path = fileFor(scope, scope_id);
  requireValidScopeId(path, scope, scope_id);
  if (!detail::statStoreFile(path)) return {};  // nothing to remove; create nothing
  LockedScopeFile file(path, scope, scope_id);
  std::vector<ApprovalEntry> kept;
  std::vector<ApprovalEntry> removed;
  for (ApprovalEntry& entry : file.entries()) {
    (matches(entry) ? removed : kept).push_back(std::move(entry));
  }
  file.entries() = std::move(kept);
  if (!removed.empty()) file.write();
  return removed;
}

std::vector<ApprovalEntry> ApprovalStore::importPlain(const std::string& path, ApprovalScope scope,
                                                      std::string_view scope_id) {
  std::optional<detail::FileContents> read = detail::readStoreFile(path);
  if (!read) throw ApprovalStoreError(path, "does not exist");
  const std::vector<std::string> names = detail::parsePlainFile(path, read->bytes);
  const std::string target = fileFor(scope, scope_id);
  requireValidScopeId(target, scope, scope_id);
  LockedScopeFile file(target, scope, scope_id);
  std::vector<ApprovalEntry> added;
  const std::string created = detail::currentUtcTimestamp();
  for (const std::string& name : names) {
    ApprovalEntry entry;
    entry.tool = name;
    entry.binding = ApprovalBinding::Tool;
    entry.scope = scope;
    entry.scope_id = std::string(scope_id);
    entry.created = created;
    entry.note = "import " + path;
    if (file.grants(entry)) continue;
    file.entries().push_back(entry);
    added.push_back(std::move(entry));
  }
  if (!added.empty()) file.write();
  return added;
}

}  // namespace toolguard
