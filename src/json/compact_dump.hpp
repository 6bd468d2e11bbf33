#pragma once
// Internal: nlohmann::json's compact dump() written without its stream
// machinery (an output adapter on the heap, a locale query per call): the
// approval key of every decision is one.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace toolguard::detail {

/// What becomes of a string that is not valid UTF-8: as dump()'s error handlers.
enum class BadUtf8 {
  Throw,    ///< nlohmann's type_error (dump()'s default)
  Replace,  ///< each bad byte becomes U+FFFD (error_handler_t::replace)
};

/// Appends exactly what `value.dump(-1, ' ', false, handler)` gives (no
/// indentation, UTF-8 kept as it is).
void appendCompactDump(std::string& out, const nlohmann::json& value,
                       BadUtf8 bad_utf8 = BadUtf8::Throw);

/// Appends one string as appendCompactDump writes it (quoted, escaped).
void appendJsonString(std::string& out, const std::string& text, BadUtf8 bad_utf8 = BadUtf8::Throw);

/// Writes one JSON object member by member, in the order given, into `out`:
/// `{`, then `"name":` before each value (a comma before all but the first),
/// then `}` at close(). Names are written as they are (plain ASCII of ours).
/// To match appendCompactDump of an nlohmann object, give the keys sorted.
class JsonObjectWriter {
 public:
  explicit JsonObjectWriter(std::string& out) : out_(out) { out_ += '{'; }
  /// Starts member `name`; its value is appended to the returned string.
  std::string& key(const char* name) {
    if (!first_) out_ += ',';
    first_ = false;
    out_ += '"';
    out_ += name;
    out_ += "\":";
    return out_;
  }
  /// A string member, escaped (bytes that are not UTF-8 become U+FFFD).
  void string(const char* name, const std::string& value) {
    appendJsonString(key(name), value, BadUtf8::Replace);
  }
  /// A string member whose value is plain ASCII of ours (a verdict's name).
  void text(const char* name, std::string_view value) {
    key(name) += '"';
    out_ += value;
    out_ += '"';
  }
  /// A list of strings, each escaped as string() escapes it.
  void strings(const char* name, const std::vector<std::string>& values) {
    std::string& list = key(name);
    list += '[';
    for (size_t i = 0; i < values.size(); ++i) {
      if (i != 0) list += ',';
      appendJsonString(list, values[i], BadUtf8::Replace);
    }
    list += ']';
  }
  /// Any JSON value, as appendCompactDump writes it.
  void value(const char* name, const nlohmann::json& value) {
    appendCompactDump(key(name), value, BadUtf8::Replace);
  }
  void close() { out_ += '}'; }

 private:
  std::string& out_;
  bool first_ = true;
};

/// appendCompactDump into a new string.
std::string compactDump(const nlohmann::json& value, BadUtf8 bad_utf8 = BadUtf8::Throw);

}  // namespace toolguard::detail
