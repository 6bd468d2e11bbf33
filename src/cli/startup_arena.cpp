// The command's operator new: its first allocations come from one arena.
//
// A hook starts one `toolguard check` per tool call, and that process makes
// a few thousand small allocations (the policy's rules, globs, strings) and
// frees most of them within a millisecond. glibc's malloc serves a fresh
// heap from its top chunk at some 150-250 instructions a call and a free
// costs about as much again: a third of a whole check. Here small blocks are
// cut from one arena with an atomic bump; a block freed with its size (as
// C++ frees nearly all) goes on its thread's list for its size and is handed
// out again, since every page first touched costs a page fault, dearer on
// this path than the instructions saved. A block freed without its size
// stays unused. The arena is bounded: once it is used up, allocations go to
// malloc, so a long-lived process (--batch, the MCP proxy) wastes at most
// kArenaBytes. Memory is only touched as it is handed out.
//
// Nothing is mapped ahead of use. The command once faulted in its ordered
// code, .data/.bss, 96 KiB of stack, 256 KiB of this arena and 320 KiB of
// malloc's heap with MADV_POPULATE_READ/WRITE at start, for a VM where each
// first touch of a page trapped to the hypervisor (10-20 us). On a VM whose
// faults do not trap (this one since, and bare metal) populating those
// ~850 pages cost ~0.4 ms a check, more than the 40 faults it saved: spawned
// in turn with /bin/true (BM_CheckProcessBesideFloor), a check was 2.19-2.21x
// the bare start with it and 1.59-1.62x without (binaries copied with cp;
// as the linker writes them, 2.57x and 1.8x: README "Performance"). The
// text stays ordered (cmake/toolguard-command.order), so each fault maps
// neighbours it will use.
//
// Not built with the sanitizers: ASan must see every allocation.
#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kArenaBytes = std::size_t{8} << 20;
constexpr std::size_t kLargestArenaBlock = 1024;  // larger blocks are malloc's
constexpr std::size_t kAlignment = alignof(std::max_align_t);
constexpr std::size_t kSizeClasses = kLargestArenaBlock / kAlignment;

// Freed arena blocks of each size (a multiple of kAlignment), linked
// through their first word; per thread, so no lock is taken.
struct FreeLists {
  void* head[kSizeClasses];
};
thread_local FreeLists free_lists;  // zero-initialized: no constructor runs

std::size_t sizeClass(std::size_t size) {
  return (size + kAlignment - 1) / kAlignment - 1;
}

struct Arena {
  char* begin = nullptr;
  std::atomic<std::size_t> used{0};
  char* end = nullptr;

  Arena() {
    void* p = ::mmap(nullptr, kArenaBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      begin = static_cast<char*>(p);
      end = begin + kArenaBytes;
    }
  }
};

// Constructed on first use: other static constructors allocate too.
Arena& arena() {
  static Arena instance;
  return instance;
}

void* allocate(std::size_t size) {
  if (size == 0) size = 1;
  if (size <= kLargestArenaBlock) {
    const std::size_t size_class = sizeClass(size);
    if (void* p = free_lists.head[size_class]) {
      free_lists.head[size_class] = *static_cast<void**>(p);
      return p;
    }
    Arena& a = arena();
    if (a.begin != nullptr) {
      const std::size_t rounded = (size_class + 1) * kAlignment;
      const std::size_t offset = a.used.fetch_add(rounded, std::memory_order_relaxed);
      if (offset + rounded <= kArenaBytes) return a.begin + offset;
    }
  }
  for (;;) {
    if (void* p = std::malloc(size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

bool inArena(void* p) {
  const Arena& a = arena();
  return static_cast<char*>(p) >= a.begin && static_cast<char*>(p) < a.end;
}

void release(void* p) noexcept {
  if (p != nullptr && !inArena(p)) std::free(p);
}

void release(void* p, std::size_t size) noexcept {
  if (p == nullptr) return;
  if (!inArena(p)) {
    std::free(p);
    return;
  }
  if (size == 0) size = 1;
  const std::size_t size_class = sizeClass(size);
  *static_cast<void**>(p) = free_lists.head[size_class];
  free_lists.head[size_class] = p;
}

}  // namespace

void* operator new(std::size_t size) {
  return allocate(size);
}
void* operator new[](std::size_t size) {
  return allocate(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t size) noexcept {
  release(p, size);
}
void operator delete[](void* p, std::size_t size) noexcept {
  release(p, size);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release(p);
}
