// Finding and loading the HTTP plugin.
#include "http/http_plugin_loader.hpp"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

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

// A plugin someone else could have written is never loaded: it would run as us.
bool trustworthy(const fs::path& file, std::string& why) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    why = "not found";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else if (st.st_uid != 0 && st.st_uid != ::geteuid()) {
    why = "owned by another user";
  } else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    why = "writable by others";
  } else {
    return true;
  }
  return false;
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
    if (trustworthy(file, why)) {
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
