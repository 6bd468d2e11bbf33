#pragma once
// Internal: parsed scope files kept between lookups, re-read only when the
// file changed, so a decision pays one stat per scope file.

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "approval/store_file_io.hpp"
#include "toolguard/approval.hpp"

namespace toolguard::detail {

/// One scope file as read: its entries, or why it grants nothing.
struct ScopeFileReading {
  std::vector<ApprovalEntry> entries;
  std::string error;  ///< "PATH: problem" when the file cannot be read or parsed
};

/// Readings of scope files by path, each kept with the stamp (device, inode,
/// size, modification time) of the version read. Safe to share between threads.
class ScopeFileCache {
 public:
  /// The reading of the scope file at `path` for `scope` and `scope_id`;
  /// nullptr when the file does not exist. Never throws ApprovalStoreError:
  /// a bad file gives a reading with an error.
  std::shared_ptr<const ScopeFileReading> read(const std::string& path, ApprovalScope scope,
                                               std::string_view scope_id);

 private:
  struct Slot {
    FileStamp stamp;
    bool trusted = false;  ///< false: re-read even when the stamp is the same
    ApprovalScope scope = ApprovalScope::Global;
    std::string scope_id;
    std::shared_ptr<const ScopeFileReading> reading;
  };
  static constexpr size_t kMaxSlots = 256;

  std::mutex mutex_;
  std::unordered_map<std::string, Slot> slots_;
};

}  // namespace toolguard::detail
