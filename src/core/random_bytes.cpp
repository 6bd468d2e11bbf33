// Random bytes from the operating system.
#include "core/random_bytes.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/random.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>

namespace toolguard::detail {
namespace {

size_t fromGetrandom(unsigned char* out, size_t size) {
  size_t filled = 0;
  while (filled < size) {
    const ssize_t n = ::getrandom(out + filled, size - filled, 0);
    if (n > 0) {
      filled += static_cast<size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      break;
    }
  }
  return filled;
}

size_t fromUrandom(unsigned char* out, size_t size) {
  const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  size_t filled = 0;
  while (filled < size) {
    const ssize_t n = ::read(fd, out + filled, size - filled);
    if (n > 0) {
      filled += static_cast<size_t>(n);
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fd);
  return filled;
}

// Ids are asked for once a decision (16 bytes); one getrandom(2) of 512
// bytes serves 32 of them. A child of fork() must not hand out its parent's
// bytes: fork bumps the generation, and a buffer of an older one is dropped.
std::atomic<unsigned> fork_generation{0};
void afterForkInChild() {
  fork_generation.fetch_add(1, std::memory_order_relaxed);
}

struct SmallRandomBuffer {
  static constexpr size_t kSize = 512;
  unsigned char bytes[kSize];
  size_t used = kSize;
  unsigned generation = 0;

  bool take(unsigned char* out, size_t size) {
    static const bool registered = ::pthread_atfork(nullptr, nullptr, &afterForkInChild) == 0;
    if (!registered) return false;
    const unsigned now = fork_generation.load(std::memory_order_relaxed);
    if (generation != now) used = kSize;
    if (kSize - used < size) {
      if (fromGetrandom(bytes, kSize) != kSize) return false;
      used = 0;
      generation = now;
    }
    std::memcpy(out, bytes + used, size);
    std::memset(bytes + used, 0, size);  // handed out once
    used += size;
    return true;
  }
};

}  // namespace

void randomBytes(void* out, size_t size) {
  auto* bytes = static_cast<unsigned char*>(out);
  if (size <= 16) {
    thread_local SmallRandomBuffer buffer;
    if (buffer.take(bytes, size)) return;
  }
  if (fromGetrandom(bytes, size) == size || fromUrandom(bytes, size) == size) return;
  try {
    std::random_device device;
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<unsigned char>(device());
  } catch (const std::exception&) {
    // No source of randomness at all: the clock and the process, mixed, so
    // that ids and temporary names still differ (never a secret's only source
    // on a system that has any of the three above).
    uint64_t state = static_cast<uint64_t>(
                         std::chrono::high_resolution_clock::now().time_since_epoch().count()) ^
                     (static_cast<uint64_t>(::getpid()) << 32) ^ reinterpret_cast<uintptr_t>(out);
    for (size_t i = 0; i < size; ++i) {
      state += 0x9e3779b97f4a7c15ull;  // splitmix64
      uint64_t z = state;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      bytes[i] = static_cast<unsigned char>(z ^ (z >> 31));
    }
  }
}

std::string randomHex(size_t bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string raw(bytes, '\0');
  randomBytes(raw.data(), bytes);
  std::string hex;
  hex.reserve(2 * bytes);
  for (unsigned char b : raw) {
    hex += kHex[b >> 4];
    hex += kHex[b & 0xf];
  }
  return hex;
}

}  // namespace toolguard::detail
