// Listing every entry of the store: global.json and each *.json file of the
// projects, agents and sessions directories, each checked to be in its place.
#include <dirent.h>
#include <errno.h>

#include <algorithm>
#include <cstring>

#include "approval/store_file_io.hpp"
#include "approval/store_format.hpp"
#include "approval/store_layout.hpp"
#include "toolguard/approval_store.hpp"

namespace toolguard {

namespace {

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The names of the *.json files in `dir`, sorted; none when it does not exist.
std::vector<std::string> jsonFileNames(const std::string& dir) {
  DIR* stream = ::opendir(dir.c_str());
  if (stream == nullptr) {
    if (errno == ENOENT) return {};
    throw ApprovalStoreError(dir, std::string("cannot list: ") + std::strerror(errno));
  }
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* item = ::readdir(stream)) {
    const std::string_view name = item->d_name;
    // Temporary files (`*.tmp.*`) and lock files (`*.lock`) never end in .json.
    if (endsWith(name, ".json") && name.find(".tmp.") == std::string_view::npos) {
      names.emplace_back(name);
    }
  }
  const int error = errno;
  ::closedir(stream);
  if (error != 0)
    throw ApprovalStoreError(dir, std::string("cannot list: ") + std::strerror(error));
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

ApprovalListing ApprovalStore::list() const {
  ApprovalListing listing;
  // Adds the entries of one file found in the directory of `scope`.
  auto addFile = [&](const std::string& path, ApprovalScope scope) {
    try {
      std::optional<detail::FileContents> read = detail::readStoreFile(path);
      if (!read) return;  // removed meanwhile
      detail::ScopeFileContents contents = detail::parseScopeFile(path, read->bytes);
      if (contents.plain) {
        // A plain-format file does not record its scope id.
        for (ApprovalEntry& entry : contents.entries) entry.scope = scope;
      } else if (contents.scope != scope) {
        throw ApprovalStoreError(path, "records " + std::string(toString(contents.scope)) +
                                           " entries in the directory of " +
                                           std::string(toString(scope)) +
                                           " entries; they are never used");
      } else if (fileFor(contents.scope, contents.scope_id) != path) {
        throw ApprovalStoreError(
            path, "records scope id \"" + contents.scope_id + "\", whose file is " +
                      fileFor(contents.scope, contents.scope_id) + "; its entries are never used");
      }
      listing.entries.insert(listing.entries.end(), contents.entries.begin(),
                             contents.entries.end());
    } catch (const std::exception& error) {
      listing.errors.push_back(error.what());
    }
  };
  addFile(fileFor(ApprovalScope::Global, ""), ApprovalScope::Global);
  const std::string approvals = home_ + (home_.back() == '/' ? "" : "/") + "approvals/";
  for (ApprovalScope scope :
       {ApprovalScope::Project, ApprovalScope::Agent, ApprovalScope::Session}) {
    const std::string dir = approvals + std::string(detail::scopeDirectoryName(scope));
    try {
      for (const std::string& name : jsonFileNames(dir)) addFile(dir + "/" + name, scope);
    } catch (const std::exception& error) {
      listing.errors.push_back(error.what());
    }
  }
  return listing;
}

}  // namespace toolguard
