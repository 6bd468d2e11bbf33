// renderApprovalRequest: what the prompt shows about a call, safe to print.
#include <string>
#include <vector>

#include "approval/terminal_internal.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard {
namespace {

// `text` cut to `max` bytes (on a character boundary), made safe; what was
// cut is counted after it.
struct Elided {
  std::string shown;
  size_t cut_bytes = 0;
};

Elided elide(std::string_view text, size_t max) {
  if (text.size() <= max) return {terminalSafe(text), 0};
  size_t cut = max;
  // Do not split a UTF-8 sequence: back up over continuation bytes.
  for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++k) {
    --cut;
  }
  return {terminalSafe(text.substr(0, cut)), text.size() - cut};
}

std::string moreBytes(size_t count) {
  return "… (" + std::to_string(count) + (count == 1 ? " more byte)" : " more bytes)");
}

// Plain text, safe, cut after `max` bytes.
std::string plain(std::string_view text, size_t max) {
  Elided elided = elide(text, max);
  if (elided.cut_bytes > 0) elided.shown += moreBytes(elided.cut_bytes);
  return elided.shown;
}

// A string in double quotes: safe, with `"` escaped, cut after `max` bytes.
std::string quotedForTerminal(std::string_view text, size_t max) {
  const Elided elided = elide(text, max);
  std::string result = "\"";
  for (char c : elided.shown) {
    if (c == '"') result += '\\';
    result += c;
  }
  result += '"';
  if (elided.cut_bytes > 0) result += moreBytes(elided.cut_bytes);
  return result;
}

bool isPlainKey(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    const bool plain_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
                            c == '$' || c == '@' || c == '/';
    if (!plain_char) return false;
  }
  return true;
}

// The argument lines, one key or element per line, cut after max_lines.
class ArgumentLines {
 public:
  explicit ArgumentLines(const PromptLayout& layout) : layout_(layout) {}

  void value(const nlohmann::json& value, const std::string& label, size_t indent, size_t depth) {
    if (full()) {  // only counted from here on
      const bool opens = value.is_structured() && !value.empty() && depth <= kMaxArgumentDepth;
      if (!opens || !label.empty()) ++hidden_;
      if (opens) {
        for (const auto& child : value) this->value(child, "-", indent, depth + 1);
      }
      return;
    }
    const std::string prefix = std::string(indent, ' ') + label;
    if (depth > kMaxArgumentDepth) {
      add(prefix + (label.empty() ? "" : " ") + "… (nested too deep)");
    } else if (value.is_object()) {
      if (value.empty()) {
        add(prefix + (label.empty() ? "{}" : " {}"));
        return;
      }
      size_t inner = indent;
      if (!label.empty()) {
        add(prefix);
        inner += 2;
      }
      for (const auto& [key, child] : value.items()) {
        const std::string key_label = (isPlainKey(key) && key.size() <= layout_.max_value_chars
                                           ? key
                                           : quotedForTerminal(key, layout_.max_value_chars)) +
                                      ":";
        this->value(child, key_label, inner, depth + 1);
      }
    } else if (value.is_array()) {
      if (value.empty()) {
        add(prefix + (label.empty() ? "[]" : " []"));
        return;
      }
      size_t inner = indent;
      if (!label.empty()) {
        add(prefix);
        inner += 2;
      }
      for (const auto& child : value) this->value(child, "-", inner, depth + 1);
    } else {
      add(prefix + (label.empty() ? "" : " ") + scalar(value));
    }
  }

  std::string text() const {
    std::string text;
    for (const std::string& line : lines_) text += line + "\n";
    if (hidden_ > 0) {
      text += std::string(4, ' ') + "… (" + std::to_string(hidden_) +
              (hidden_ == 1 ? " more line)\n" : " more lines)\n");
    }
    return text;
  }

 private:
  bool full() const { return lines_.size() >= layout_.max_lines; }
  void add(std::string line) { lines_.push_back(std::move(line)); }

  std::string scalar(const nlohmann::json& value) const {
    if (value.is_string())
      return quotedForTerminal(value.get_ref<const std::string&>(), layout_.max_value_chars);
    if (value.is_binary())
      return "(binary, " + std::to_string(value.get_binary().size()) + " bytes)";
    return terminalSafe(value.dump());  // numbers, booleans, null
  }

  const PromptLayout& layout_;
  std::vector<std::string> lines_;
  size_t hidden_ = 0;
};

}  // namespace

std::string renderApprovalRequest(const ApprovalRequest& request, const PromptLayout& layout) {
  const size_t max = layout.max_value_chars;
  const Decision& decision = request.decision;
  std::string text = "toolguard: a tool call needs your approval\n";
  text += "  Tool:      " + plain(request.call.tool, max) + "\n";
  text += "  Risk:      " + std::string(toString(request.tool.risk)) + ", " +
          std::string(toString(request.tool.side_effect)) +
          (request.tool.category.empty() ? "" : ", category " + plain(request.tool.category, max)) +
          "\n";
  if (!decision.reason.empty()) text += "  Reason:    " + plain(decision.reason, max) + "\n";
  if (!decision.rule_id.empty()) {
    text += "  Rule:      " + plain(decision.rule_id, max);
    if (!decision.source.file.empty()) text += " (" + plain(decision.source.toString(), max) + ")";
    text += "\n";
  } else if (!decision.source.file.empty()) {
    text += "  Source:    " + plain(decision.source.toString(), max) + "\n";
  }
  if (!decision.decided_on.empty()) {
    text += "  Command:   " + plain(decision.decided_on, max) + "\n";
  }
  if (!request.call.context.cwd.empty()) {
    text += "  Directory: " + plain(request.call.context.cwd, max) + "\n";
  }
  const nlohmann::json& args = request.call.args;
  if (args.is_structured() && args.empty()) {
    text += "  Arguments: (none)\n";
    return text;
  }
  text += "  Arguments:\n";
  ArgumentLines lines(layout);
  lines.value(args, "", 4, 0);
  return text + lines.text();
}

}  // namespace toolguard
