// Bounded reads of standard input.
#include "cli/bounded_input.hpp"

namespace toolguard::cli {

bool readBounded(std::istream& in, size_t limit, std::string& out) {
  out.clear();
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const auto n = static_cast<size_t>(in.gcount());
    if (out.size() + n > limit) {
      out.clear();
      out.shrink_to_fit();
      return false;
    }
    out.append(buffer, n);
  }
  return true;
}

bool readBoundedLine(std::istream& in, size_t limit, std::string& line, bool& too_large) {
  line.clear();
  too_large = false;
  std::streambuf* buffer = in.rdbuf();
  bool any = false;
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any;
    }
    any = true;
    if (c == '\n') return true;
    if (too_large) continue;
    if (line.size() >= limit) {
      too_large = true;
      line.clear();
      line.shrink_to_fit();
      continue;
    }
    line.push_back(static_cast<char>(c));
  }
}

}  // namespace toolguard::cli
