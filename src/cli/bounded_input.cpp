// Bounded reads of standard input.
#include "cli/bounded_input.hpp"

#include <algorithm>

namespace toolguard::cli {

bool readBounded(std::istream& in, size_t limit, std::string& out, size_t keep) {
  out.clear();
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const auto n = static_cast<size_t>(in.gcount());
    if (out.size() + n > limit) {
      out.append(buffer, std::min(n, keep > out.size() ? keep - out.size() : 0));
      out.resize(std::min(out.size(), keep));
      out.shrink_to_fit();
      return false;
    }
    out.append(buffer, n);
  }
  return true;
}

bool readBoundedLine(std::istream& in, size_t limit, std::string& line, bool& too_large,
                     size_t keep, size_t* line_bytes) {
  line.clear();
  too_large = false;
  size_t length = 0;
  std::streambuf* buffer = in.rdbuf();
  bool any = false;
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      break;
    }
    any = true;
    if (c == '\n') break;
    ++length;
    if (too_large) continue;
    if (line.size() >= limit) {
      too_large = true;
      line.resize(std::min(line.size(), keep));
      line.shrink_to_fit();
      continue;
    }
    line.push_back(static_cast<char>(c));
  }
  if (line_bytes != nullptr) *line_bytes = length;
  return any;
}

}  // namespace toolguard::cli
