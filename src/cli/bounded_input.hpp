#pragma once
// Reading standard input without letting a huge payload fill the memory.

#include <istream>
#include <string>

namespace toolguard::cli {

/// Reads the whole stream into `out`; false (out emptied) when it holds more
/// than `limit` bytes.
bool readBounded(std::istream& in, size_t limit, std::string& out);

/// Reads one line (without its '\n') into `line`. A line longer than `limit`
/// bytes is skipped to its end and reported with `too_large` set and `line`
/// empty. False at the end of the stream with nothing read.
bool readBoundedLine(std::istream& in, size_t limit, std::string& line, bool& too_large);

}  // namespace toolguard::cli
