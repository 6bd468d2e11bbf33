// The file system as one decision sees it (see file_glance.hpp).
#include "file_glance.hpp"

#include <memory>
#include <unordered_map>

namespace toolguard::detail {
namespace {

struct Answer {
  bool found = false;
  struct stat info {};
};

// A judgement of a long command asks about a few hundred places at most;
// past this the glance stops remembering (each answer then costs its call).
constexpr size_t kMaxRemembered = 4096;

struct Glance {
  std::unordered_map<std::string, Answer> without_links;  // lstat
  std::unordered_map<std::string, Answer> with_links;     // stat
};

thread_local Glance* current = nullptr;

bool answer(std::unordered_map<std::string, Answer>* memo, const std::string& path,
            struct stat& out, bool follow) {
  if (memo != nullptr) {
    if (const auto it = memo->find(path); it != memo->end()) {
      if (it->second.found) out = it->second.info;
      return it->second.found;
    }
  }
  Answer fresh;
  fresh.found =
      (follow ? ::stat(path.c_str(), &fresh.info) : ::lstat(path.c_str(), &fresh.info)) == 0;
  if (fresh.found) out = fresh.info;
  if (memo != nullptr && memo->size() < kMaxRemembered) memo->emplace(path, fresh);
  return fresh.found;
}

}  // namespace

FileGlance::FileGlance() : opened_(current == nullptr) {
  if (opened_) current = new Glance();
}

FileGlance::~FileGlance() {
  if (opened_) {
    delete current;
    current = nullptr;
  }
}

bool glanceLstat(const std::string& path, struct stat& out) {
  return answer(current ? &current->without_links : nullptr, path, out, false);
}

bool glanceStat(const std::string& path, struct stat& out) {
  return answer(current ? &current->with_links : nullptr, path, out, true);
}

}  // namespace toolguard::detail
