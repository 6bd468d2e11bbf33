// Random bytes from the operating system.
#include "core/random_bytes.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
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

}  // namespace

void randomBytes(void* out, size_t size) {
  auto* bytes = static_cast<unsigned char*>(out);
  if (fromGetrandom(bytes, size) == size || fromUrandom(bytes, size) == size) return;
  std::random_device device;
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<unsigned char>(device());
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
