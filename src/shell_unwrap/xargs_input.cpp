// xargs over known input, and run-time placeholders.
#include "xargs_input.hpp"

#include <optional>
#include <string>

namespace toolguard::detail {
namespace {

// Beyond these, the commands are not written out (arguments stay unknown).
constexpr size_t kMaxItems = 1024;
constexpr size_t kMaxCommands = 64;

struct XargsOptions {
  enum class Split { Blanks, Nul, Char } split = Split::Blanks;
  char delimiter = '\n';
  std::optional<std::string> replace;
  std::optional<std::string> eof;
  size_t max_args = 0;
  size_t max_lines = 0;
  bool reads_file = false;
  bool readable = true;  // every option understood
  size_t command = 0;    // index of the command's first word
};

std::optional<char> delimiterValue(const std::string& text) {
  if (text.size() == 1) return text[0];
  if (text == "\\n") return '\n';
  if (text == "\\t") return '\t';
  if (text == "\\0") return '\0';
  if (text == "\\\\") return '\\';
  return std::nullopt;
}

std::optional<size_t> parseCount(const std::string& text) {
  if (text.empty() || text.size() > 6 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<size_t>(std::stoul(text));
}

void apply(XargsOptions& o, char option, const std::string& value) {
  switch (option) {
    case 'a':
      o.reads_file = true;
      break;
    case 'd':
      if (auto d = delimiterValue(value)) {
        o.split = XargsOptions::Split::Char;
        o.delimiter = *d;
      } else {
        o.readable = false;
      }
      break;
    case 'E':
      o.eof = value;
      break;
    // -I, -L and -n exclude each other, as GNU xargs 4.9 reads them: -I
    // cancels -L and -n before it, -L cancels -I and -n, and -n cancels -L
    // but not -I (which then ignores it).
    case 'I':
      o.replace = value;
      o.max_lines = o.max_args = 0;
      break;
    case 'L':
      if (auto n = parseCount(value)) {
        o.max_lines = *n;
        o.replace.reset();
        o.max_args = 0;
      } else {
        o.readable = false;
      }
      break;
    case 'n':
      if (auto n = parseCount(value)) {
        o.max_args = *n;
        o.max_lines = 0;
      } else {
        o.readable = false;
      }
      break;
    default:
      break;  // -P, -s: how many at once, not what runs
  }
}

XargsOptions readOptions(const std::vector<ShellWord>& w) {
  XargsOptions o;
  size_t i = 1;
  for (; i < w.size(); ++i) {
    const std::string& t = w[i].text;
    if (w[i].dynamic) {
      o.readable = false;
      break;
    }
    if (t == "--") {
      ++i;
      break;
    }
    if (t.size() < 2 || t[0] != '-') break;
    if (t.starts_with("--")) {
      const size_t eq = t.find('=');
      const std::string name = t.substr(0, eq);
      const bool inline_value = eq != std::string::npos;
      std::string value = inline_value ? t.substr(eq + 1) : std::string();
      static const std::pair<const char*, char> kWithValue[] = {
          {"--arg-file", 'a'},        {"--delimiter", 'd'}, {"--max-lines", 'L'},
          {"--max-args", 'n'},        {"--max-procs", 'P'}, {"--max-chars", 's'},
          {"--process-slot-var", 'S'}};
      bool known = false;
      for (const auto& [long_name, option] : kWithValue) {
        if (name != long_name) continue;
        known = true;
        if (!inline_value) {
          if (i + 1 >= w.size()) return o.readable = false, o;
          value = w[++i].text;
        }
        apply(o, option, value);
      }
      if (known) continue;
      if (name == "--null") {
        o.split = XargsOptions::Split::Nul;
      } else if (name == "--replace") {
        apply(o, 'I', inline_value ? value : "{}");
      } else if (name == "--eof") {
        if (inline_value) o.eof = value;
      } else if (name != "--no-run-if-empty" && name != "--verbose" && name != "--interactive" &&
                 name != "--exit" && name != "--open-tty") {
        o.readable = false;
      }
      continue;
    }
    for (size_t k = 1; k < t.size(); ++k) {
      const char c = t[k];
      const std::string rest = t.substr(k + 1);
      if (c == '0') {
        o.split = XargsOptions::Split::Nul;
      } else if (c == 'r' || c == 't' || c == 'p' || c == 'x') {
        continue;
      } else if (std::string_view("adEILnPs").find(c) != std::string_view::npos) {
        std::string value = rest;
        if (value.empty()) {
          if (i + 1 >= w.size()) return o.readable = false, o;
          value = w[++i].text;
        }
        apply(o, c, value);
        break;
      } else if (c == 'i') {
        apply(o, 'I', rest.empty() ? "{}" : rest);
        break;
      } else if (c == 'e') {
        if (!rest.empty()) o.eof = rest;
        break;
      } else if (c == 'l') {
        apply(o, 'L', rest.empty() ? "1" : rest);
        break;
      } else {
        o.readable = false;
        break;
      }
    }
  }
  o.command = i;
  return o;
}

// The items xargs reads from `input`, grouped by line (for -I and -L);
// nullopt for input it would refuse (an unmatched quote) or that is too big.
std::optional<std::vector<std::vector<std::string>>> readItems(const std::string& input,
                                                               const XargsOptions& o) {
  std::vector<std::vector<std::string>> lines(1);
  size_t total = 0;
  auto push = [&](std::string item) {
    lines.back().push_back(std::move(item));
    ++total;
  };
  if (o.split != XargsOptions::Split::Blanks) {
    const char d = o.split == XargsOptions::Split::Nul ? '\0' : o.delimiter;
    std::string item;
    for (char c : input) {
      if (c != d) {
        item += c;
        continue;
      }
      push(std::move(item));
      item.clear();
      lines.emplace_back();
    }
    if (!item.empty()) push(std::move(item));
    if (lines.back().empty()) lines.pop_back();
    if (total > kMaxItems) return std::nullopt;
    return lines;
  }
  // Blanks and newlines separate items (with -I only newlines); quotes and
  // backslashes are read as xargs reads them.
  const bool whole_lines = o.replace.has_value();
  std::string item;
  bool in_item = false;
  char quote = 0;
  for (size_t i = 0; i < input.size(); ++i) {
    const char c = input[i];
    if (quote != 0) {
      if (c == '\n') return std::nullopt;  // xargs: unmatched quote
      if (c == quote) {
        quote = 0;
      } else {
        item += c;
      }
      continue;
    }
    if (c == '\\' && i + 1 < input.size()) {
      item += input[++i];
      in_item = true;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_item = true;
    } else if (c == '\n' || ((c == ' ' || c == '\t') && !whole_lines)) {
      if (in_item) {
        if (o.eof && item == *o.eof) break;
        push(std::move(item));
      }
      item.clear();
      in_item = false;
      if (c == '\n' && !lines.back().empty()) lines.emplace_back();
    } else if ((c == ' ' || c == '\t') && !in_item) {
      continue;  // -I: leading blanks of a line
    } else {
      item += c;
      in_item = true;
    }
  }
  if (quote != 0) return std::nullopt;
  if (in_item && !(o.eof && item == *o.eof)) push(std::move(item));
  if (lines.back().empty()) lines.pop_back();
  if (total > kMaxItems) return std::nullopt;
  return lines;
}

std::string replacedAll(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

void markPlaceholder(std::vector<ShellWord>& words, std::string_view placeholder,
                     std::string_view by) {
  if (placeholder.empty()) return;
  for (ShellWord& w : words) {
    if (w.text.find(placeholder) == std::string::npos) continue;
    w.text = replacedAll(w.text, placeholder, "${" + std::string(by) + "}");
    w.dynamic = true;
  }
}

void markPlaceholders(std::vector<ShellWord>& words,
                      std::initializer_list<std::string_view> placeholders, std::string_view by) {
  for (std::string_view p : placeholders) markPlaceholder(words, p, by);
}

void unwrapXargs(const SimpleCommand& cmd, std::vector<Unwrapped>& out) {
  const std::vector<ShellWord>& w = cmd.words;
  const XargsOptions o = readOptions(w);
  std::vector<ShellWord> base(
      w.begin() + static_cast<std::ptrdiff_t>(std::min(o.command, w.size())), w.end());
  if (base.empty()) base.push_back(ShellWord{"echo", false, "echo"});
  std::optional<std::vector<std::vector<std::string>>> lines;
  if (o.readable && !o.reads_file && cmd.input && !cmd.input->dynamic) {
    lines = readItems(cmd.input->text, o);
  }
  std::vector<Unwrapped> written;
  if (lines) {
    auto command = [&](std::vector<ShellWord> words) {
      Unwrapped u;
      u.wrapper = "xargs";
      u.words = std::move(words);
      written.push_back(std::move(u));
    };
    std::vector<std::string> items;
    for (const auto& line : *lines) items.insert(items.end(), line.begin(), line.end());
    if (o.replace) {
      for (const std::string& item : items) {
        std::vector<ShellWord> words = base;
        for (ShellWord& word : words) word.text = replacedAll(word.text, *o.replace, item);
        command(std::move(words));
      }
    } else if (o.max_lines > 0) {
      for (size_t l = 0; l < lines->size(); l += o.max_lines) {
        std::vector<ShellWord> words = base;
        for (size_t k = l; k < std::min(lines->size(), l + o.max_lines); ++k) {
          for (const std::string& item : (*lines)[k]) words.push_back(ShellWord{item, false, item});
        }
        command(std::move(words));
      }
    } else {
      const size_t group = o.max_args == 0 ? std::max<size_t>(items.size(), 1) : o.max_args;
      for (size_t k = 0; k < items.size() || (k == 0 && items.empty()); k += group) {
        std::vector<ShellWord> words = base;
        for (size_t m = k; m < std::min(items.size(), k + group); ++m) {
          words.push_back(ShellWord{items[m], false, items[m]});
        }
        command(std::move(words));
      }
    }
    if (written.size() <= kMaxCommands) {
      for (Unwrapped& u : written) out.push_back(std::move(u));
      return;
    }
  }
  // The input is only known at run time: the command gets unknown arguments,
  // pasted where -I's placeholder is (a path there stands for any path).
  Unwrapped u;
  u.wrapper = "xargs";
  u.words = std::move(base);
  u.unknown_extra_arguments = true;
  if (o.replace) markPlaceholder(u.words, *o.replace, "xargs");
  if (!o.readable) {
    // An option not understood may be one that takes the next word: the
    // command xargs runs is not known.
    u.words.front().dynamic = true;
  }
  out.push_back(std::move(u));
}

XargsInputForm xargsInputForm(const SimpleCommand& xargs) {
  const XargsOptions o = readOptions(xargs.words);
  return XargsInputForm{o.readable, o.split == XargsOptions::Split::Nul, o.reads_file};
}

}  // namespace toolguard::detail
