#pragma once
// Internal: random bytes from the operating system, for ids, nonces and
// temporary names. getrandom(2) first; std::random_device is not used on the
// way, because constructing one runs CPUID, which a virtual machine traps
// (20 us of every check process, measured in issue 18).

#include <cstddef>
#include <string>

namespace toolguard::detail {

/// Fills `size` bytes at `out`: getrandom, else /dev/urandom, else
/// std::random_device (an old kernel or a seccomp filter), else the clock.
/// Requests of 16 bytes or fewer (ids) come from a per-thread buffer that
/// one getrandom fills and a fork() empties. Never throws.
void randomBytes(void* out, size_t size);

/// `bytes` random bytes as lowercase hex (2 * bytes characters).
std::string randomHex(size_t bytes);

}  // namespace toolguard::detail
