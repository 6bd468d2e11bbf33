// The cache of parsed scope files: one stat per file when nothing changed,
// a fresh read and parse when its stamp differs.
#include "approval/store_cache.hpp"

#include <time.h>

#include "approval/store_format.hpp"
#include "toolguard/approval_store.hpp"

namespace toolguard::detail {

namespace {

// Time stamps are coarse: a file replaced again within the same tick can get
// the inode, size and time of the version cached (the "racy git" problem). A
// version this recent when read is therefore not trusted: it is re-read until
// a reading happens long after its modification.
bool isSettled(const FileStamp& stamp) {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return stamp.modified.tv_sec < now.tv_sec - 2;
}

std::shared_ptr<const ScopeFileReading> errorReading(std::string error) {
  auto reading = std::make_shared<ScopeFileReading>();
  reading->error = std::move(error);
  return reading;
}

}  // namespace

std::shared_ptr<const ScopeFileReading> ScopeFileCache::read(const std::string& path,
                                                             ApprovalScope scope,
                                                             std::string_view scope_id) {
  try {
    const std::optional<FileStamp> stamp = statStoreFile(path);
    if (!stamp) return nullptr;
    {
      std::lock_guard<std::mutex> guard(mutex_);
      const auto found = slots_.find(path);
      if (found != slots_.end() && found->second.trusted && found->second.stamp == *stamp &&
          found->second.scope == scope && found->second.scope_id == scope_id) {
        return found->second.reading;
      }
    }
    std::optional<FileContents> contents = readStoreFile(path);
    if (!contents) return nullptr;
    Slot slot;
    slot.stamp = contents->stamp;
    slot.trusted = isSettled(contents->stamp);
    slot.scope = scope;
    slot.scope_id = std::string(scope_id);
    try {
      auto reading = std::make_shared<ScopeFileReading>();
      reading->entries = parseScopeFileFor(path, contents->bytes, scope, scope_id).entries;
      slot.reading = std::move(reading);
    } catch (const ApprovalStoreError& error) {
      slot.reading = errorReading(error.what());  // kept: a bad file is not parsed again
    }
    std::lock_guard<std::mutex> guard(mutex_);
    if (slots_.size() >= kMaxSlots) slots_.clear();
    return slots_.insert_or_assign(path, std::move(slot)).first->second.reading;
  } catch (const ApprovalStoreError& error) {
    return errorReading(error.what());  // not kept: stat or read failed, try again next time
  } catch (const std::exception& error) {
    return errorReading(path + ": " + error.what());
  }
}

}  // namespace toolguard::detail
