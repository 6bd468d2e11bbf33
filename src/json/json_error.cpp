// The JSON library's exception text read as a sentence.
#include "json/json_error.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

namespace toolguard::detail {
namespace {

// Reads the number at the start of `text` and moves past it; 0 when there is none.
size_t takeNumber(std::string_view& text) {
  size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc()) return 0;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return value;
}

}  // namespace

JsonErrorText readJsonError(std::string_view what) {
  JsonErrorText out;
  // "[json.exception.parse_error.101] "
  if (what.starts_with("[json.exception.")) {
    if (size_t end = what.find("] "); end != std::string_view::npos) what.remove_prefix(end + 2);
  }
  // "parse error at line 1, column 38: " (or "parse error at 3: ", a byte)
  constexpr std::string_view kAtLine = "parse error at line ";
  constexpr std::string_view kParseError = "parse error";
  if (what.starts_with(kAtLine)) {
    std::string_view rest = what.substr(kAtLine.size());
    out.line = takeNumber(rest);
    if (rest.starts_with(", column ")) {
      rest.remove_prefix(9);
      out.column = takeNumber(rest);
    }
    if (rest.starts_with(": ")) rest.remove_prefix(2);
    what = rest;
  } else if (what.starts_with(kParseError)) {
    if (size_t colon = what.find(": "); colon != std::string_view::npos) {
      what.remove_prefix(colon + 2);
    }
  }
  // "syntax error while parsing object - "
  constexpr std::string_view kSyntax = "syntax error while parsing ";
  if (what.starts_with(kSyntax)) {
    if (size_t dash = what.find(" - "); dash != std::string_view::npos) {
      what.remove_prefix(dash + 3);
    }
  }
  out.message = std::string(what);
  return out;
}

std::string jsonErrorSentence(const std::exception& error) {
  const JsonErrorText text = readJsonError(error.what());
  std::string out = "invalid JSON";
  if (text.line > 0) {
    out += " at line " + std::to_string(text.line);
    if (text.column > 0) out += ", column " + std::to_string(text.column);
  }
  return out + ": " + text.message;
}

size_t jsonErrorByte(std::string_view text) {
  // Accepts every value; only where the parser stops matters.
  struct Stop : nlohmann::json_sax<nlohmann::json> {
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception&) override {
      byte = position;
      return false;
    }
    size_t byte;
  } stop;
  stop.byte = text.size();
  (void)nlohmann::json::sax_parse(text, &stop);
  return stop.byte;
}

}  // namespace toolguard::detail
