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
// Not built with the sanitizers: ASan must see every allocation.
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
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

// What a check uses of each, faulted in at once: on a virtual machine each
// first touch of a page traps to the hypervisor (some 10-20 us here), and
// MADV_POPULATE_WRITE (Linux 5.14) maps a range in one call for well under
// a microsecond a page. A check touched ~40 arena pages and ~55 of malloc's
// (perf record -e page-faults -d: 247 faults, 156 with these); on this
// machine that took 6-10% off a check's wall time (0.5-1 ms).
constexpr std::size_t kPrefaultArenaBytes = std::size_t{256} << 10;
constexpr std::size_t kPrefaultHeapBytes = std::size_t{320} << 10;

void prefault(void* start, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  (void)::madvise(start, bytes, MADV_POPULATE_WRITE);  // older kernels: EINVAL, and nothing lost
#else
  (void)start;
  (void)bytes;
#endif
}

// malloc's heap (blocks larger than the arena's): grown once by what a
// check uses, and faulted in.
void prefaultMallocHeap() {
  // Below 1 MiB from the heap, not mmap; grown and kept by the pad.
  if (::mallopt(M_MMAP_THRESHOLD, 1 << 20) == 0 ||
      ::mallopt(M_TOP_PAD, static_cast<int>(kPrefaultHeapBytes)) == 0 ||
      ::mallopt(M_TRIM_THRESHOLD, 4 << 20) == 0) {
    return;
  }
  // Grows the heap by twice the pad (volatile: a compiler may drop an
  // unused malloc and free).
  void* volatile grown = std::malloc(kPrefaultHeapBytes);
  std::free(grown);
  const struct mallinfo2 info = ::mallinfo2();
  const auto top = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  if (top == static_cast<std::uintptr_t>(-1) || info.arena == 0 || info.arena > top) return;
  const std::uintptr_t start = (top - info.arena) & ~std::uintptr_t{4095};
  prefault(reinterpret_cast<void*>(start), top - start);
}

// The program's own pages a check touches, mapped at once. The code a check
// runs is placed first in the text, between these two markers, by the link
// order (cmake/toolguard-command.order, which scripts/hot-order.py begins and
// ends with them); left to page faults it took ~35 of them (the kernel maps
// up to 16 neighbouring pages a fault), and .data and .bss (zero pages,
// faulted one at a time) ~25 more, each a trap to the hypervisor here.
// Without the ordered link the markers are anywhere, and nothing is done
// unless they bound a plausible range.
extern "C" __attribute__((used, noinline)) void toolguard_hot_text_begin() {
  asm volatile("");
}
extern "C" __attribute__((used, noinline)) void toolguard_hot_text_end() {
  asm volatile("");
}
extern "C" char __data_start[];  // glibc's start files: the start of .data
extern "C" char _end[];          // the linker's: the end of .bss

void prefaultImage() {
#ifdef MADV_POPULATE_READ
  constexpr std::uintptr_t kPage = 4096;
  constexpr std::uintptr_t kLargestHotText = std::uintptr_t{8} << 20;
  const auto text_begin =
      reinterpret_cast<std::uintptr_t>(&toolguard_hot_text_begin) & ~(kPage - 1);
  const auto text_end = reinterpret_cast<std::uintptr_t>(&toolguard_hot_text_end);
  if (text_end > text_begin && text_end - text_begin <= kLargestHotText) {
    (void)::madvise(reinterpret_cast<void*>(text_begin), text_end - text_begin, MADV_POPULATE_READ);
  }
  const auto data_begin = reinterpret_cast<std::uintptr_t>(__data_start) & ~(kPage - 1);
  const auto data_end = reinterpret_cast<std::uintptr_t>(_end);
  if (data_end > data_begin && data_end - data_begin <= kLargestHotText) {
    prefault(reinterpret_cast<void*>(data_begin), data_end - data_begin);
  }
  // The stack a check grows into (some 70 KiB deep, a fault a page). The
  // kernel maps a new program's stack 128 KiB below where it starts, so
  // this stays inside it; past its end madvise fails, and nothing is lost.
  constexpr std::uintptr_t kStackBytes = std::uintptr_t{96} << 10;
  const auto stack_top =
      reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) & ~(kPage - 1);
  prefault(reinterpret_cast<void*>(stack_top - kStackBytes), kStackBytes);
#endif
}

// The C library runs .preinit_array before any static constructor (the C++
// library's locale and streams, the program's tables), so what those touch
// is mapped at once too; statically linked, after its own set-up (TLS, ifunc
// relocations). The entries are called with main's arguments.
void prefaultImageAtStart(int, char**, char**) {
  prefaultImage();
}
__attribute__((section(".preinit_array"),
               used)) void (*const prefault_image_at_start)(int, char**,
                                                            char**) = prefaultImageAtStart;

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
      prefault(begin, kPrefaultArenaBytes);
    }
    prefaultMallocHeap();
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
