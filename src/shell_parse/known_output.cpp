// The output of echo, printf, cat and base64 -d from their words and input.
#include "known_output.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "backslash_escapes.hpp"
#include "core/unicode_text.hpp"

namespace toolguard::detail {
namespace {

// Output longer than this is not followed (a value that large is not a
// command worth judging as written out, and printf's reuse of its format
// could otherwise be made to grow).
constexpr size_t kMaxOutput = 64 * 1024;

enum class Escapes { Format, Echo };

// Backslash escapes of printf's format (Format: \NNN octal) or of echo -e
// and %b (Echo: \0NNN octal, \c ends all output). Returns false for what is
// not followed; sets `stop` at \c.
// The escape at in[i] (a backslash); leaves `i` on its last character.
bool decodeEscapeAt(std::string_view in, size_t& i, Escapes mode, std::string& out, bool& stop) {
  if (i + 1 >= in.size()) {
    out += in[i];
    return true;
  }
  const char e = in[++i];
  if (const std::optional<char> c = controlEscape(e)) {
    out += *c;
    return true;
  }
  switch (e) {
    case '"':
    case '\'':
      if (mode == Escapes::Echo) out += '\\';
      out += e;
      return true;
    case 'c':
      if (mode == Escapes::Format) return false;
      stop = true;
      return true;
    case 'x':
    case 'u':
    case 'U':
      return appendHexEscape(in, i, out);
    default:
      break;
  }
  if (e < '0' || e > '7') {
    out += '\\';
    out += e;
    return true;
  }
  if (mode == Escapes::Echo && e != '0') return false;
  uint32_t value = mode == Escapes::Echo ? 0 : static_cast<uint32_t>(e - '0');
  for (int n = 0; n < (mode == Escapes::Echo ? 3 : 2) && i + 1 < in.size() && in[i + 1] >= '0' &&
                  in[i + 1] <= '7';
       ++n) {
    value = value * 8 + static_cast<uint32_t>(in[++i] - '0');
  }
  out += static_cast<char>(value & 0xFF);
  return true;
}

bool decodeEscapes(std::string_view in, Escapes mode, std::string& out, bool& stop) {
  for (size_t i = 0; i < in.size() && !stop; ++i) {
    if (in[i] != '\\') {
      out += in[i];
    } else if (!decodeEscapeAt(in, i, mode, out, stop)) {
      return false;
    }
  }
  return true;
}

std::optional<std::string> echoOutput(const std::vector<std::string>& w) {
  bool newline = true;
  bool escapes = false;
  size_t i = 1;
  for (; i < w.size(); ++i) {
    const std::string& o = w[i];
    if (o.size() < 2 || o[0] != '-' || o.find_first_not_of("neE", 1) != std::string::npos) break;
    for (char c : o.substr(1)) {
      if (c == 'n') newline = false;
      if (c == 'e') escapes = true;
      if (c == 'E') escapes = false;
    }
  }
  std::string out;
  for (size_t k = i; k < w.size(); ++k) {
    if (k > i) out += ' ';
    if (!escapes) {
      // Without -e, bash's echo still reads escapes under xpg_echo.
      if (w[k].find('\\') != std::string::npos) return std::nullopt;
      out += w[k];
      continue;
    }
    bool stop = false;
    if (!decodeEscapes(w[k], Escapes::Echo, out, stop)) return std::nullopt;
    if (stop) return out;
  }
  if (newline) out += '\n';
  return out;
}

std::optional<long long> integerArgument(const std::string& text) {
  if (text.empty()) return 0;
  size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (i == text.size() || text.size() > 18) return std::nullopt;
  for (size_t k = i; k < text.size(); ++k) {
    if (!std::isdigit(static_cast<unsigned char>(text[k]))) return std::nullopt;
  }
  // A leading 0 is octal to printf (010 is 8): not followed.
  if (text.size() > i + 1 && text[i] == '0') return std::nullopt;
  return std::stoll(text);
}

void pad(std::string& out, std::string value, bool left, char fill, size_t width) {
  if (value.size() >= width) {
    out += value;
  } else if (left) {
    out += value + std::string(width - value.size(), ' ');
  } else if (fill == '0' && !value.empty() && value[0] == '-') {
    out += '-' + std::string(width - value.size(), '0') + value.substr(1);
  } else {
    out += std::string(width - value.size(), fill) + value;
  }
}

}  // namespace

std::optional<std::string> printfOutput(const std::vector<std::string>& words) {
  if (words.empty()) return std::nullopt;
  const std::string& format = words[0];
  size_t next = 1;
  std::string out;
  bool stop = false;
  do {
    const size_t before = next;
    for (size_t i = 0; i < format.size() && !stop; ++i) {
      const char c = format[i];
      if (c == '\\') {
        if (!decodeEscapeAt(format, i, Escapes::Format, out, stop)) return std::nullopt;
        continue;
      }
      if (c != '%') {
        out += c;
        continue;
      }
      if (++i >= format.size()) return std::nullopt;
      if (format[i] == '%') {
        out += '%';
        continue;
      }
      bool left = false;
      char fill = ' ';
      while (i < format.size() &&
             std::string_view("-0 +#'").find(format[i]) != std::string_view::npos) {
        if (format[i] == '-') left = true;
        if (format[i] == '0') fill = '0';
        if (format[i] != '-' && format[i] != '0') return std::nullopt;
        ++i;
      }
      size_t width = 0;
      while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) {
        width = width * 10 + static_cast<size_t>(format[i++] - '0');
        if (width > 4096) return std::nullopt;
      }
      std::optional<size_t> precision;
      if (i < format.size() && format[i] == '.') {
        precision = 0;
        ++i;
        while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) {
          *precision = *precision * 10 + static_cast<size_t>(format[i++] - '0');
          if (*precision > 4096) return std::nullopt;
        }
      }
      if (i >= format.size()) return std::nullopt;
      const char conversion = format[i];
      const std::string arg = next < words.size() ? words[next] : std::string();
      if (next < words.size()) ++next;
      std::string value;
      switch (conversion) {
        case 's':
          value = precision ? arg.substr(0, *precision) : arg;
          break;
        case 'b': {
          bool b_stop = false;
          if (!decodeEscapes(arg, Escapes::Echo, value, b_stop)) return std::nullopt;
          if (b_stop) stop = true;
          if (precision) value = value.substr(0, *precision);
          break;
        }
        case 'c':
          value = arg.empty() ? std::string() : arg.substr(0, 1);
          break;
        case 'd':
        case 'i': {
          const std::optional<long long> n = integerArgument(arg);
          if (!n || precision) return std::nullopt;
          value = std::to_string(*n);
          break;
        }
        default:
          return std::nullopt;  // %q, %x, %f, %(...)T, `*` widths: not followed
      }
      pad(out, std::move(value), left, conversion == 'd' || conversion == 'i' ? fill : ' ', width);
      if (out.size() > kMaxOutput) return std::nullopt;
    }
    // printf uses its format again while arguments are left.
    if (next == before) break;
  } while (next < words.size() && !stop);
  return out;
}

namespace {

std::optional<std::string> base64Decode(std::string_view in, bool ignore_garbage) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  bool padding = false;
  for (char c : in) {
    int v = -1;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    if (c >= '0' && c <= '9') v = c - '0' + 52;
    if (c == '+') v = 62;
    if (c == '/') v = 63;
    if (c == '\n') continue;
    if (c == '=') {
      padding = true;
      continue;
    }
    if (v < 0 || padding) {
      if (ignore_garbage && v < 0) continue;
      return std::nullopt;
    }
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> knownOutput(const SimpleCommand& cmd, const ShellEnv& env) {
  if (cmd.words.empty() || !env.outputsKnown()) return std::nullopt;
  for (const ShellWord& w : cmd.words) {
    if (w.dynamic) return std::nullopt;
  }
  for (const ShellRedirect& r : cmd.redirects) {
    // Output sent elsewhere, or input from a file: not followed.
    if (r.op != "<<<" && r.op != "<<" && r.op != "<<-") return std::nullopt;
  }
  const std::string& first = cmd.words.front().text;
  const std::string_view name = cmd.commandName();
  if (first != name && first != "/usr/bin/" + std::string(name) &&
      first != "/bin/" + std::string(name)) {
    return std::nullopt;
  }
  std::vector<std::string> w;
  w.reserve(cmd.words.size());
  for (const ShellWord& word : cmd.words) w.push_back(word.text);
  const bool input_known = cmd.input && !cmd.input->dynamic;
  if (name == "echo") return echoOutput(w);
  if (name == "printf") {
    if (w.size() < 2 || w[1].starts_with("-")) return std::nullopt;  // -v is an assignment
    return printfOutput(std::vector<std::string>(w.begin() + 1, w.end()));
  }
  if (name == "cat") {
    if (!input_known) return std::nullopt;
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i] != "-" && w[i] != "-u" && w[i] != "--") return std::nullopt;
    }
    return cmd.input->text;
  }
  if (name == "base64") {
    bool decode = false;
    bool ignore_garbage = false;
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i] == "-d" || w[i] == "--decode") {
        decode = true;
      } else if (w[i] == "-i" || w[i] == "--ignore-garbage") {
        ignore_garbage = true;
      } else if (w[i] == "-di" || w[i] == "-id") {
        decode = ignore_garbage = true;
      } else if (w[i] != "-") {
        return std::nullopt;
      }
    }
    if (!decode || !input_known) return std::nullopt;
    return base64Decode(cmd.input->text, ignore_garbage);
  }
  return std::nullopt;
}

}  // namespace toolguard::detail
