// Finding and loading the HTTP plugin.
#include "http/http_plugin_loader.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <vector>

namespace toolguard::detail {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPluginFile = "libtoolguard-http.so";

std::vector<fs::path> candidates() {
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back(exe.parent_path() / kPluginFile);
    out.push_back(exe.parent_path() / TOOLGUARD_HTTP_PLUGIN_RELATIVE_DIR / kPluginFile);
  }
  out.push_back(fs::path(TOOLGUARD_HTTP_PLUGIN_INSTALL_DIR) / kPluginFile);
  out.push_back(fs::path(TOOLGUARD_HTTP_PLUGIN_BUILD_DIR) / kPluginFile);
  return out;
}

// A plugin someone else could have written is never loaded: it would run as
// us. The file is opened itself (never through a symbolic link) and what was
// opened is checked; its directory must not let others replace it between
// this check and the load. Returns the descriptor, or -1 with `why`.
int openTrustworthy(const fs::path& file, std::string& why) {
  const uid_t me = ::geteuid();
  struct stat st {};
  if (::stat(file.parent_path().c_str(), &st) != 0) {
    why = "not found";
    return -1;
  }
  if (st.st_uid != 0 && st.st_uid != me) {
    why = "in a directory owned by another user";
    return -1;
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0) {
    why = "in a directory others can write";
    return -1;
  }
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    why = errno == ELOOP ? "a symbolic link" : "not found";
    return -1;
  }
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else if (st.st_uid != 0 && st.st_uid != me) {
    why = "owned by another user";
  } else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    why = "writable by others";
  } else {
    return fd;
  }
  ::close(fd);
  return -1;
}

struct Loaded {
  toolguard_http_post_fn post = nullptr;
  std::string error;
};

Loaded load(const std::vector<fs::path>& files) {
  Loaded out;
  std::string tried;
  for (const fs::path& file : files) {
    std::string why;
    if (const int fd = openTrustworthy(file, why); fd >= 0) {
      // Loaded by its path: the checks above leave no one else able to put
      // another file there. (Through /proc/self/fd, the loader would take a
      // later file at the same descriptor number for one it already has.)
      ::close(fd);
      void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) {
        const char* message = ::dlerror();
        why = message ? message : "cannot be loaded";
      } else {
        auto version = reinterpret_cast<int (*)()>(::dlsym(handle, "toolguard_http_abi_version"));
        auto post =
            reinterpret_cast<toolguard_http_post_fn>(::dlsym(handle, "toolguard_http_post_v1"));
        if (version != nullptr && version() == TOOLGUARD_HTTP_ABI_VERSION && post != nullptr) {
          out.post = post;
          return out;  // kept loaded for the life of the process
        }
        why = "a different version of the plugin";
        ::dlclose(handle);
      }
    }
    tried += (tried.empty() ? "" : "; ") + file.string() + ": " + why;
  }
  out.error = "the HTTP client plugin " + std::string(kPluginFile) +
              " could not be loaded (reinstall toolguard): " + tried;
  return out;
}

}  // namespace

toolguard_http_post_fn httpPostFunction(std::string& error) {
  static const Loaded loaded = load(candidates());
  if (loaded.post == nullptr) error = loaded.error;
  return loaded.post;
}

toolguard_http_post_fn loadHttpPluginFrom(const std::vector<fs::path>& files, std::string& error) {
  Loaded loaded = load(files);
  if (loaded.post == nullptr) error = loaded.error;
  return loaded.post;
}

}  // namespace toolguard::detail
