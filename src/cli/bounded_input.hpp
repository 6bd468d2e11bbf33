#pragma once
// Reading standard input without letting a huge payload fill the memory.

#include <istream>
#include <string>

namespace toolguard::cli {

/// Reads the whole stream into `out`; false when it holds more than `limit`
/// bytes, with `out` then holding only its first `keep` bytes (for the
/// audit log) and the rest of the stream left unread.
bool readBounded(std::istream& in, size_t limit, std::string& out, size_t keep = 0);

/// Reads one line (without its '\n') into `line`. A line longer than `limit`
/// bytes is skipped to its end and reported with `too_large` set, `line`
/// holding its first `keep` bytes and `line_bytes` its length. False at the
/// end of the stream with nothing read.
bool readBoundedLine(std::istream& in, size_t limit, std::string& line, bool& too_large,
                     size_t keep = 0, size_t* line_bytes = nullptr);

}  // namespace toolguard::cli
