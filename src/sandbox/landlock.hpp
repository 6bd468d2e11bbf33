#pragma once
// Landlock, the kernel's access control for unprivileged processes: its
// system calls and flags (written out here, since the C library's headers
// may be older than the kernel), and a ruleset built in one process and
// enforced in another (the child, after fork, before exec).

#include <cstdint>
#include <string>

#include "toolguard/expected.hpp"

namespace toolguard::sandbox {

// File access rights, by the ABI that brought them.
inline constexpr uint64_t kFsExecute = 1ULL << 0;
inline constexpr uint64_t kFsWriteFile = 1ULL << 1;
inline constexpr uint64_t kFsReadFile = 1ULL << 2;
inline constexpr uint64_t kFsReadDir = 1ULL << 3;
inline constexpr uint64_t kFsRemoveDir = 1ULL << 4;
inline constexpr uint64_t kFsRemoveFile = 1ULL << 5;
inline constexpr uint64_t kFsMakeChar = 1ULL << 6;
inline constexpr uint64_t kFsMakeDir = 1ULL << 7;
inline constexpr uint64_t kFsMakeReg = 1ULL << 8;
inline constexpr uint64_t kFsMakeSock = 1ULL << 9;
inline constexpr uint64_t kFsMakeFifo = 1ULL << 10;
inline constexpr uint64_t kFsMakeBlock = 1ULL << 11;
inline constexpr uint64_t kFsMakeSym = 1ULL << 12;
inline constexpr uint64_t kFsRefer = 1ULL << 13;     // ABI 2
inline constexpr uint64_t kFsTruncate = 1ULL << 14;  // ABI 3
inline constexpr uint64_t kFsIoctlDev = 1ULL << 15;  // ABI 5
// TCP (ABI 4).
inline constexpr uint64_t kNetBindTcp = 1ULL << 0;
inline constexpr uint64_t kNetConnectTcp = 1ULL << 1;
// Scopes (ABI 6).
inline constexpr uint64_t kScopeAbstractUnixSocket = 1ULL << 0;
inline constexpr uint64_t kScopeSignal = 1ULL << 1;

/// Reading and running what is there.
inline constexpr uint64_t kFsReadAccess = kFsExecute | kFsReadFile | kFsReadDir;

/// Every file right the kernel of ABI `abi` knows.
uint64_t fsAccessOf(int abi);

/// The rights that change files, among those of ABI `abi`.
uint64_t fsWriteAccessOf(int abi);

/// The Landlock ABI of the running kernel; 0 when it has none (or it is off).
int landlockAbi();

/// A ruleset: everything of `abi` is denied but what a rule allows. Owns
/// its file descriptor (close-on-exec).
class LandlockRuleset {
 public:
  LandlockRuleset() = default;
  LandlockRuleset(const LandlockRuleset&) = delete;
  LandlockRuleset& operator=(const LandlockRuleset&) = delete;
  LandlockRuleset(LandlockRuleset&& other) noexcept;
  LandlockRuleset& operator=(LandlockRuleset&& other) noexcept;
  ~LandlockRuleset();

  /// A ruleset that handles every file right of `abi`, TCP binds and
  /// connects when `confine_tcp` (ABI 4 and later), and the signal and
  /// abstract socket scopes (ABI 6 and later).
  static Expected<LandlockRuleset> create(int abi, bool confine_tcp);

  /// Allows `access` (limited to what the ruleset handles, and for a file
  /// to what applies to files) on `path` and everything beneath it.
  Expected<void> allowPath(const std::string& path, uint64_t access);
  /// allowPath for a directory, with system calls only (between fork and
  /// exec): returns 0, or the errno.
  int allowDirectoryNow(const char* path, uint64_t access) noexcept;

  /// Allows TCP connections to `port` (any address).
  Expected<void> allowConnect(uint16_t port);

  /// Enforces the ruleset on the calling thread and its future children;
  /// async-signal-safe (the child calls it between fork and exec). Needs
  /// no_new_privs set first. Returns 0, or the errno.
  int enforce() const noexcept;

  int abi() const { return abi_; }
  uint64_t handledFs() const { return handled_fs_; }
  bool confinesTcp() const { return handled_net_ != 0; }
  bool scopesSignals() const { return scoped_ != 0; }

 private:
  int fd_ = -1;
  int abi_ = 0;
  uint64_t handled_fs_ = 0;
  uint64_t handled_net_ = 0;
  uint64_t scoped_ = 0;
};

}  // namespace toolguard::sandbox
