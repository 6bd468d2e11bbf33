// The chain in an audit log file: the last line (read backwards from the
// end, so a write never reads the whole file), the first anchor of a rotated
// file, and a record's text with its link added.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "audit/audit_detail.hpp"
#include "core/file_descriptor.hpp"
#include "toolguard/audit_chain.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard::detail {
namespace {

void readAt(int fd, char* buffer, size_t size, std::uint64_t offset, const std::string& path) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, buffer + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw AuditLogError("audit log " + path +
                          ": cannot read its end: " + std::generic_category().message(errno));
    }
    if (n == 0) throw AuditLogError("audit log " + path + ": it shrank while being read");
    done += static_cast<size_t>(n);
  }
}

}  // namespace

std::string lastLogLine(int fd, std::uint64_t size, const std::string& path,
                        bool& ends_with_newline) {
  ends_with_newline = true;
  if (size == 0) return "";
  char last = 0;
  readAt(fd, &last, 1, size - 1, path);
  ends_with_newline = last == '\n';
  const std::uint64_t end = ends_with_newline ? size - 1 : size;  // the line's end
  std::string line;                                               // the line, back to front
  constexpr size_t kBlock = 4096;
  char block[kBlock];
  for (std::uint64_t at = end; at > 0;) {
    const size_t n = static_cast<size_t>(std::min<std::uint64_t>(kBlock, at));
    at -= n;
    readAt(fd, block, n, at, path);
    for (size_t i = n; i-- > 0;) {
      if (block[i] == '\n') return std::string(line.rbegin(), line.rend());
      line += block[i];
    }
  }
  return std::string(line.rbegin(), line.rend());
}

nlohmann::json firstAnchorOf(const std::string& path) {
  detail::FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return nullptr;
  // An anchor starts its file, or (a file an older toolguard began) the
  // first chained line; such a file is read up to its first anchor.
  std::string pending;
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return nullptr;
    pending.append(buffer, static_cast<size_t>(n));
    for (size_t newline; (newline = pending.find('\n')) != std::string::npos;) {
      if (pending.starts_with("{\"anchor\":")) {
        nlohmann::json record = nlohmann::json::parse(pending.substr(0, newline), nullptr, false);
        if (record.is_object() && record["anchor"].is_object()) return record["anchor"];
      }
      pending.erase(0, newline + 1);
    }
  }
}

std::string chainedRecordText(std::string_view record_text, std::string_view prev_hash) {
  std::string out(record_text);
  if (!out.empty() && out.back() == '}') out.pop_back();
  if (out.size() > 1) out += ',';
  out += "\"prev_hash\":\"";
  out += prev_hash;
  out += "\"}";
  return out;
}

}  // namespace toolguard::detail
