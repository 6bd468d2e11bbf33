// Reading configuration files without blocking on a FIFO or reading a
// device forever.
#include "bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "toolguard/policy_error.hpp"

namespace toolguard::detail {

std::string readBoundedFile(const std::filesystem::path& file, size_t max_bytes,
                            std::string_view what) {
  const SourceLocation where{file.string(), 0, 0};
  const std::string kind(what);
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw PolicyError(where, "cannot read " + kind + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    throw PolicyError(where, "cannot examine " + kind + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    throw PolicyError(where, "not a regular file (a " + kind + " must be one)");
  }
  const std::string too_large = "larger than " + std::to_string(max_bytes) + " bytes";
  if (static_cast<size_t>(st.st_size) > max_bytes) throw PolicyError(where, too_large);
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw PolicyError(where, "error reading " + kind + ": " + std::strerror(errno));
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > max_bytes) throw PolicyError(where, too_large);  // it grew
  }
  return text;
}

std::vector<std::filesystem::path> configFilesIn(const std::filesystem::path& dir,
                                                 const std::vector<std::string_view>& extensions) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string ext = p.extension().string();
    if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end() &&
        !it->is_directory(ec)) {
      files.push_back(p);
    }
  }
  if (ec) throw PolicyError(SourceLocation{dir.string(), 0, 0}, "cannot list: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace toolguard::detail
