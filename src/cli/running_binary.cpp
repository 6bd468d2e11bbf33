// The running toolguard's path (running_binary.hpp).
#include "cli/running_binary.hpp"

#include <filesystem>
#include <stdexcept>

namespace toolguard::cli {

std::string runningBinary() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty() || !exe.is_absolute()) {
    throw std::runtime_error("cannot find the path of the running toolguard (/proc/self/exe)");
  }
  const std::string path = exe.string();
  if (path.ends_with(" (deleted)")) {
    throw std::runtime_error("the running toolguard binary was deleted or replaced (" + path +
                             "); run install with the installed binary");
  }
  return path;
}

}  // namespace toolguard::cli
