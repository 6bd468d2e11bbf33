#pragma once
// Helpers shared by the libFuzzer targets: the input as text, a selector byte
// taken from its front, and the input cut into parts at NUL bytes (a schema
// and an instance, a path, a cwd and a home, ...).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::fuzz {

/// The fuzzer's bytes, read from the front.
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : rest_(reinterpret_cast<const char*>(data), size) {}

  /// The first byte (0 when the input is empty), removed from the input.
  uint8_t takeByte() {
    if (rest_.empty()) return 0;
    const auto byte = static_cast<uint8_t>(rest_.front());
    rest_.remove_prefix(1);
    return byte;
  }

  /// What is left of the input.
  std::string_view rest() const { return rest_; }

  /// What is left, cut at NUL bytes into exactly `count` parts: missing parts
  /// are empty, and the last part keeps any further NUL bytes.
  std::vector<std::string> parts(size_t count) const {
    std::vector<std::string> out;
    std::string_view text = rest_;
    while (out.size() + 1 < count) {
      const size_t nul = text.find('\0');
      if (nul == std::string_view::npos) break;
      out.emplace_back(text.substr(0, nul));
      text.remove_prefix(nul + 1);
    }
    out.emplace_back(text);
    out.resize(count);
    return out;
  }

 private:
  std::string_view rest_;
};

}  // namespace toolguard::fuzz
