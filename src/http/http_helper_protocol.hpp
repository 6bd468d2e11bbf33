#pragma once
// Internal: what the library and the toolguard-http helper say to each other
// over the socket that is the helper's stdin and stdout.
//
// Request (library -> helper), then the library shuts its side for writing:
//   "toolguard-http 1\n", then fields, each a u64 (little-endian) length and
//   its bytes: origin, path, body, the header count (8 bytes), each header's
//   name and value, and the three timeouts in ms (8 bytes each).
// Answer (helper -> library), frames of a tag byte, a u32 length, the bytes:
//   'S' status: i32 status, then the Content-Type;
//   'D' a piece of the body;
//   'E' the end: i32 failure, i32 client_made, then the failure text.
// A helper that ends without 'E' failed; the library says so (never an allow).

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace toolguard::detail::http_protocol {

inline constexpr std::string_view kGreeting = "toolguard-http 1\n";
inline constexpr char kStatus = 'S';
inline constexpr char kData = 'D';
inline constexpr char kEnd = 'E';
inline constexpr size_t kFrameHeader = 5;  // tag and u32 length

inline void putU64(std::string& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

inline void putField(std::string& out, std::string_view bytes) {
  putU64(out, bytes.size());
  out.append(bytes);
}

inline void putU32(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

inline uint32_t getU32(const char* p) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(p[i]);
  return value;
}

/// Reads the fields of a request in order; any read past the end fails.
class FieldReader {
 public:
  explicit FieldReader(std::string_view text) : text_(text) {}

  bool u64(uint64_t& value) {
    if (text_.size() - at_ < 8) return false;
    value = 0;
    for (int i = 7; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(text_[at_ + i]);
    at_ += 8;
    return true;
  }

  bool field(std::string& value) {
    uint64_t size = 0;
    if (!u64(size) || size > text_.size() - at_) return false;
    value.assign(text_.substr(at_, size));
    at_ += size;
    return true;
  }

  bool done() const { return at_ == text_.size(); }

 private:
  std::string_view text_;
  size_t at_ = 0;
};

}  // namespace toolguard::detail::http_protocol
