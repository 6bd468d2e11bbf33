// Following the audit log: new lines read as they are appended.
#include "cli/audit_follow.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

namespace toolguard::cli {
namespace {

using nlohmann::json;

constexpr auto kPollInterval = std::chrono::milliseconds(200);

// The record of one line of the log.
json recordOf(const std::string& line, const std::string& path, size_t number) {
  json value = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (value.is_object()) return value;
  return {{"unreadable", line}, {"file", path}, {"line", number}};
}

// The number of lines in the first `bytes` bytes of `path`.
size_t linesBefore(const std::string& path, std::uintmax_t bytes) {
  std::ifstream in(path, std::ios::binary);
  size_t lines = 0;
  char buffer[65536];
  while (bytes > 0 && in) {
    const auto want = static_cast<std::streamsize>(std::min<std::uintmax_t>(bytes, sizeof buffer));
    in.read(buffer, want);
    const auto got = in.gcount();
    if (got <= 0) break;
    for (std::streamsize i = 0; i < got; ++i) lines += buffer[i] == '\n' ? 1 : 0;
    bytes -= static_cast<std::uintmax_t>(got);
  }
  return lines;
}

}  // namespace

Expected<void> followAuditLog(const std::string& path, std::uintmax_t offset,
                              const std::set<std::string>& seen,
                              const std::function<void(const json&)>& print) {
  ino_t inode = 0;
  bool known = false;
  std::string partial;  // a line not yet ended by its newline
  size_t line_number = offset == 0 ? 0 : linesBefore(path, offset);
  while (true) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      if (errno != ENOENT) return fail(path + ": " + std::strerror(errno));
      std::this_thread::sleep_for(kPollInterval);  // rotated away; the next one comes
      continue;
    }
    const auto size = static_cast<std::uintmax_t>(st.st_size);
    if ((known && st.st_ino != inode) || size < offset) {  // rotated: a new file
      offset = 0;
      partial.clear();
      line_number = 0;
    }
    inode = st.st_ino;
    known = true;
    if (size > offset) {
      std::ifstream in(path, std::ios::binary);
      if (!in) return fail(path + ": cannot be read");
      in.seekg(static_cast<std::streamoff>(offset));
      std::string chunk(static_cast<size_t>(size - offset), '\0');
      in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
      chunk.resize(static_cast<size_t>(in.gcount()));
      offset += chunk.size();
      partial += chunk;
      for (size_t end; (end = partial.find('\n')) != std::string::npos;) {
        const std::string line = partial.substr(0, end);
        partial.erase(0, end + 1);
        ++line_number;
        if (line.empty()) continue;
        json record = recordOf(line, path, line_number);
        if (auto anchor = record.find("anchor"); anchor != record.end() && anchor->is_object()) {
          continue;  // the chain's start in a file, not a decision
        }
        if (auto id = record.find("id");
            id != record.end() && id->is_string() && seen.count(id->get<std::string>()) != 0) {
          continue;
        }
        print(record);
      }
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace toolguard::cli
