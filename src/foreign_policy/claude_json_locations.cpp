// JSON text with the position of every value: nlohmann parses and validates,
// then a small scanner walks the (now known valid) text to record positions.
#include "foreign_policy/claude_json_locations.hpp"

#include "json/json_error.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

// Nesting deeper than this is refused rather than walked recursively.
constexpr int kMaxJsonDepth = 256;

// Line and column (1-based, in characters) of byte `offset` of `text`.
SourceLocation locate(std::string_view text, size_t offset, const std::string& file) {
  SourceLocation where{file, 1, 1};
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++where.line;
      where.column = 1;
    } else if ((c & 0xC0) != 0x80) {  // not a UTF-8 continuation byte
      ++where.column;
    }
  }
  return where;
}

// Walks valid JSON text and records where each value starts.
class PositionScanner {
 public:
  PositionScanner(std::string_view text, const std::string& file, LocatedJson& out)
      : text_(text), file_(file), out_(out) {}

  // Records every value of the document.
  void run() {
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // nlohmann skips a UTF-8 BOM too
    value("", 0);
  }

 private:
  // Moves past JSON white space.
  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  // The value at pos_ (after space), recorded under `pointer`.
  void value(const std::string& pointer, int depth) {
    skipSpace();
    if (depth > kMaxJsonDepth) {
      throw PolicyError(locate(text_, pos_, file_), "JSON nested too deeply");
    }
    out_.where[pointer] = locate(text_, pos_, file_);
    if (pos_ >= text_.size()) return;
    const char c = text_[pos_];
    if (c == '{') {
      object(pointer, depth);
    } else if (c == '[') {
      array(pointer, depth);
    } else if (c == '"') {
      (void)string();
    } else {
      while (pos_ < text_.size() &&
             std::string_view(",]} \t\r\n").find(text_[pos_]) == std::string_view::npos) {
        ++pos_;
      }
    }
  }

  // The members of the object at pos_, each recorded under its key.
  void object(const std::string& pointer, int depth) {
    ++pos_;  // '{'
    skipSpace();
    while (pos_ < text_.size() && text_[pos_] != '}') {
      const std::string key = string();
      skipSpace();
      ++pos_;  // ':'
      value(childPointer(pointer, key), depth + 1);
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
      skipSpace();
    }
    ++pos_;  // '}'
  }

  // The elements of the array at pos_, each recorded under its index.
  void array(const std::string& pointer, int depth) {
    ++pos_;  // '['
    skipSpace();
    for (size_t index = 0; pos_ < text_.size() && text_[pos_] != ']'; ++index) {
      value(childPointer(pointer, std::to_string(index)), depth + 1);
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
      skipSpace();
    }
    ++pos_;  // ']'
  }

  // A string token at pos_, decoded by nlohmann (the text is known valid).
  std::string string() {
    const size_t start = pos_++;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      pos_ += text_[pos_] == '\\' ? 2 : 1;
    }
    ++pos_;  // closing quote
    return nlohmann::json::parse(text_.substr(start, pos_ - start)).get<std::string>();
  }

  std::string_view text_;
  const std::string& file_;
  LocatedJson& out_;
  size_t pos_ = 0;
};

}  // namespace

SourceLocation LocatedJson::at(const std::string& pointer) const {
  auto it = where.find(pointer);
  if (it != where.end()) return it->second;
  auto root = where.find("");
  return SourceLocation{root != where.end() ? root->second.file : std::string(), 0, 0};
}

std::string childPointer(const std::string& pointer, const std::string& key) {
  return (nlohmann::json::json_pointer(pointer) / key).to_string();  // escapes ~ and /
}

LocatedJson parseLocatedJson(std::string_view text, const std::string& file) {
  LocatedJson out;
  try {
    out.value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts the bytes it read: the error is at byte `e.byte` (1-based).
    const size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    std::string message = e.what();
    if (size_t at = message.find("column "); at != std::string::npos) {
      if (size_t colon = message.find(": ", at); colon != std::string::npos) {
        message = message.substr(colon + 2);  // nlohmann's own position is dropped
      }
    }
    throw PolicyError(locate(text, offset, file), "invalid JSON: " + message);
  } catch (const nlohmann::json::exception& e) {
    // A number too large for a double (5e555) is an out_of_range error, which
    // holds no position: find where the parser stops.
    const size_t byte = jsonErrorByte(text);
    throw PolicyError(locate(text, byte > 0 ? byte - 1 : 0, file),
                      "invalid JSON: " + readJsonError(e.what()).message);
  }
  PositionScanner(text, file, out).run();
  return out;
}

}  // namespace toolguard::detail
