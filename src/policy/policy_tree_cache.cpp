// Parsed policy trees kept between processes; see the header for why an
// entry cannot loosen a policy.
//
// An entry, named by a hash of the policy file's path:
//   "toolguard-policy-tree 1\n"
//   the build that wrote it: "<dev>:<inode>:<size>:<mtime ns> of the running executable\n"
//   u64 text size, the file's text, u64 tree size, the tree (encodeDocNode),
//   u64 FNV-1a of everything before it (a torn or damaged entry is a miss).
#include "policy/policy_tree_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/random_bytes.hpp"
#include "policy/doc_node_yaml.hpp"

namespace toolguard::detail {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMagic = "toolguard-policy-tree 1\n";

uint64_t fnv1a(std::string_view bytes, uint64_t hash = 14695981039346656037ull) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

void appendU64(std::string& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

std::optional<uint64_t> getU64(std::string_view bytes, size_t& at) {
  if (bytes.size() - at < 8) return std::nullopt;
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  at += 8;
  return value;
}

// The running executable, as the file system sees it: a rebuilt or
// reinstalled toolguard (whose YAML reading may differ) reads no old entry.
// Empty when it cannot be told: then nothing is cached.
const std::string& buildIdentity() {
  static const std::string identity = [] {
    struct stat st {};
    if (::stat("/proc/self/exe", &st) != 0) return std::string();
    return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" +
           std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec) + "\n";
  }();
  return identity;
}

// Ours alone: owned by this user, writable by nobody else.
bool ownedAndPrivate(const struct stat& st) {
  return st.st_uid == ::geteuid() && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

// The cache directory, opened without following a symbolic link, when it is
// ours alone; -1 otherwise.
int openCacheDir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !ownedAndPrivate(st)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The whole entry when it is a regular file of ours alone, at most `limit` bytes.
std::optional<std::string> readEntry(int dir_fd, const std::string& name, size_t limit) {
  const int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ownedAndPrivate(st) &&
      static_cast<uint64_t>(st.st_size) <= limit) {
    std::string bytes(static_cast<size_t>(st.st_size), '\0');
    size_t filled = 0;
    while (filled < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + filled, bytes.size() - filled);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      filled += static_cast<size_t>(n);
    }
    if (filled == bytes.size()) out = std::move(bytes);
  }
  ::close(fd);
  return out;
}

// The tree an entry holds for exactly `text`, or nullopt.
std::optional<DocNode> treeOf(std::string_view entry, std::string_view text) {
  const std::string& identity = buildIdentity();
  if (entry.size() < kMagic.size() + identity.size() + 8 ||
      entry.substr(0, kMagic.size()) != kMagic ||
      entry.substr(kMagic.size(), identity.size()) != identity) {
    return std::nullopt;
  }
  size_t at = kMagic.size() + identity.size();
  const std::optional<uint64_t> text_size = getU64(entry, at);
  if (!text_size || *text_size != text.size() || entry.size() - at < text.size() ||
      entry.substr(at, text.size()) != text) {
    return std::nullopt;
  }
  at += text.size();
  const std::optional<uint64_t> tree_size = getU64(entry, at);
  if (!tree_size || entry.size() - at < *tree_size) return std::nullopt;
  const std::string_view tree = entry.substr(at, *tree_size);
  at += *tree_size;
  const size_t checked = at;
  const std::optional<uint64_t> checksum = getU64(entry, at);
  if (!checksum || at != entry.size() || *checksum != fnv1a(entry.substr(0, checked))) {
    return std::nullopt;
  }
  try {
    return decodeDocNode(tree);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Creates the cache directory (and toolguard's home) as ours alone.
void makeCacheDir(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return;
  if (!dir.parent_path().empty() && dir.parent_path() != dir) makeCacheDir(dir.parent_path());
  ::mkdir(dir.c_str(), 0700);
}

void writeEntry(const fs::path& dir, const std::string& name, const std::string& entry) {
  if (entry.empty()) return;
  makeCacheDir(dir);
  const int dir_fd = openCacheDir(dir);
  if (dir_fd < 0) return;
  const std::string temporary = name + ".tmp." + randomHex(8);
  const int fd = ::openat(dir_fd, temporary.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  bool written = fd >= 0;
  for (size_t sent = 0; written && sent < entry.size();) {
    const ssize_t n = ::write(fd, entry.data() + sent, entry.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) written = false;
    sent += n > 0 ? static_cast<size_t>(n) : 0;
  }
  if (fd >= 0 && ::close(fd) != 0) written = false;
  // Not synced: a torn entry fails its checksum and is a miss.
  if (!written || ::renameat(dir_fd, temporary.c_str(), dir_fd, name.c_str()) != 0) {
    ::unlinkat(dir_fd, temporary.c_str(), 0);
  }
  ::close(dir_fd);
}

// The largest entry read for `text`: the text, its tree (a few times the
// text: each node adds a few bytes of kind and place) and a header.
size_t entryLimit(std::string_view text) {
  return 8 * text.size() + 4096;
}

// Whether the encoded `tree` stays within `budget` bytes, counted without
// encoding it (each node at most 30 bytes of varints besides its text).
bool fitsIn(const DocNode& tree, size_t budget) {
  size_t used = 0;
  std::vector<const DocNode*> pending = {&tree};
  while (!pending.empty()) {
    const DocNode* node = pending.back();
    pending.pop_back();
    used += 30 + node->Scalar().size();
    if (used > budget) return false;
    for (std::size_t i = 0; i < node->size(); ++i) {
      if (node->IsMap()) {
        pending.push_back(&node->key(i));
        pending.push_back(&node->value(i));
      } else {
        pending.push_back(&(*node)[i]);
      }
    }
  }
  return true;
}

std::string entryName(const fs::path& file) {
  static constexpr char kHex[] = "0123456789abcdef";
  uint64_t hash = fnv1a(file.string());
  std::string name(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) name[i] = kHex[hash & 0xf];
  return name + ".tree";
}

}  // namespace

std::string PolicyTreeCache::encodeEntry(std::string_view text, const DocNode& tree) {
  const std::string& identity = buildIdentity();
  if (identity.empty()) return "";
  std::string entry(kMagic);
  entry += identity;
  appendU64(entry, text.size());
  entry.append(text);
  const std::string encoded = encodeDocNode(tree);
  appendU64(entry, encoded.size());
  entry += encoded;
  appendU64(entry, fnv1a(entry));
  return entry;
}

fs::path PolicyTreeCache::entryPath(const fs::path& file) const {
  return dir_ / entryName(file);
}

DocNode PolicyTreeCache::tree(std::string_view text, const fs::path& file,
                              const std::string& name) const {
  struct stat source {};
  // Only a file this user could edit anyway is cached (a managed file, or a
  // project's that belongs to root or another user, is always parsed).
  const bool cacheable = dir_.is_absolute() && !buildIdentity().empty() &&
                         ::stat(file.c_str(), &source) == 0 && source.st_uid == ::geteuid();
  if (!cacheable) return parseYamlDocument(text, name);
  const std::string entry_name = entryName(file);
  if (const int dir_fd = openCacheDir(dir_); dir_fd >= 0) {
    std::optional<std::string> entry = readEntry(dir_fd, entry_name, entryLimit(text));
    ::close(dir_fd);
    if (entry) {
      if (std::optional<DocNode> cached = treeOf(*entry, text)) return std::move(*cached);
    }
  }
  DocNode parsed = parseYamlDocument(text, name);
  // A tree that its entry could not hold (aliases expand a small text into a
  // large tree) is not written: it would be refused when read, every time.
  if (fitsIn(parsed, entryLimit(text))) {
    try {
      writeEntry(dir_, entry_name, encodeEntry(text, parsed));
    } catch (const std::exception&) {
      // A cache that cannot be written is never an error: the next check parses.
    }
  }
  return parsed;
}

}  // namespace toolguard::detail
