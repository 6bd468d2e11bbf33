// Writes committed in the audit's transaction (grouped_writes.hpp).
#include "grouped_writes.hpp"

namespace toolguard::store {
namespace {

// The capture open on this thread, if any.
thread_local GroupedWrites* t_open = nullptr;

}  // namespace

void lose(GroupedWrite& write) noexcept {
  try {
    if (write.lost) write.lost();
  } catch (...) {
  }
}

void loseAll(std::vector<GroupedWrite>& writes) noexcept {
  for (GroupedWrite& write : writes) lose(write);
}

GroupedWrites::GroupedWrites() : outer_(t_open) {
  t_open = this;
}

// Writes never handed to the audit did not happen.
GroupedWrites::~GroupedWrites() {
  loseAll(writes);
  t_open = outer_;
}

GroupedWrites* GroupedWrites::open() {
  return t_open;
}

}  // namespace toolguard::store
