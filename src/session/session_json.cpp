// A remembered session event as JSON (session/session_json.hpp).
#include "session/session_json.hpp"

#include <array>
#include <cstdint>
#include <cstring>

#include "core/unicode_text.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard::detail {
namespace {

using Clock = std::chrono::system_clock;

constexpr size_t kMaxSummaryBytes = 200;
constexpr size_t kMaxToolBytes = 200;
constexpr size_t kMaxLabels = 16;
constexpr size_t kMaxLabelBytes = 64;

std::string clipped(const std::string& text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t end = limit;
  // Not in the middle of a UTF-8 sequence.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "…";
}

long long millisOf(Clock::time_point at) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
}

// The bytes a JSON string holds as they are: all but the quote, the
// backslash and the control characters.
constexpr std::array<bool, 256> kPlainInString = [] {
  std::array<bool, 256> plain{};
  for (size_t c = 0x20; c < 256; ++c) plain[c] = c != '"' && c != '\\';
  return plain;
}();

// Whether `text` is UTF-8 (what the JSON reader would refuse, the fast one
// must not accept), eight ASCII bytes at a time.
bool isUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    if (i + 8 <= text.size()) {
      uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    unsigned code_point = 0;
    const size_t length = decodeUtf8(text, i, code_point);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

// A reader of the one shape sessionEventJson writes (nlohmann's dump: keys
// in order, no spaces, strings with JSON escapes and raw UTF-8). Anything
// else, or anything it is unsure of, is left to the JSON parser.
class EventLineReader {
 public:
  explicit EventLineReader(std::string_view line) : line_(line) {}

  // Reads the line into `event` (whose fields are empty); false when the
  // line is not of the shape written.
  bool read(SessionEvent& event) {
    if (!literal("{\"at\":") || !integer(event.at)) return false;
    if (literal(",\"decision\":") && !string(event.decision_id)) return false;
    if (!literal(",\"labels\":[")) return false;
    if (!literal("]")) {
      do {
        if (!string(event.labels.emplace_back())) return false;
      } while (literal(","));
      if (!literal("]")) return false;
    }
    if (!literal(",\"summary\":") || !string(event.summary)) return false;
    if (!literal(",\"tool\":") || !string(event.tool)) return false;
    return literal("}") && at_ == line_.size();
  }

  // Reads a run line: {"at":MS,"calls":N,"labels":[],"tool":"NAME"} with
  // the NAME readUnlabelled reads; false for anything else.
  bool readRun(SessionEvent& event, size_t& calls) {
    constexpr std::string_view kEnd = "\"}";
    if (!line_.ends_with(kEnd) || !literal("{\"at\":") || !integer(event.at) ||
        !literal(",\"calls\":") || !count(calls) || !literal(",\"labels\":[],\"tool\":\"")) {
      return false;
    }
    return plainTool(event);
  }

  // Reads the line of a call that brought no label (most of a long
  // session's lines): {"at":MS,"labels":[],"summary":"","tool":"NAME"} with
  // a NAME of printable ASCII and no escape; false for anything else, which
  // read() or the JSON parser then reads.
  bool readUnlabelled(SessionEvent& event) {
    constexpr std::string_view kEnd = "\"}";
    if (!line_.ends_with(kEnd) || !literal("{\"at\":") || !integer(event.at) ||
        !literal(",\"labels\":[],\"summary\":\"\",\"tool\":\"")) {
      return false;
    }
    return plainTool(event);
  }

 private:
  // The literal `text` next; its length is known when compiled, so the
  // comparison is a few loads (a line of a long session is read in some
  // hundred instructions, and a check reads hundreds of lines).
  template <size_t N>
  bool literal(const char (&text)[N]) {
    constexpr size_t length = N - 1;
    if (line_.size() - at_ < length || std::memcmp(line_.data() + at_, text, length) != 0) {
      return false;
    }
    at_ += length;
    return true;
  }

  // The tool's NAME up to the line's closing `"}`: printable ASCII with no
  // quote or backslash (anything else is left to the other readers).
  bool plainTool(SessionEvent& event) {
    const size_t tool_end = line_.size() - 2;
    if (at_ > tool_end) return false;
    const std::string_view tool = line_.substr(at_, tool_end - at_);
    for (const char c : tool) {
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
    }
    event.tool.assign(tool);
    return true;
  }

  // A run's count: 2 to kMaxRunCalls, in digits as dump writes them.
  bool count(size_t& out) {
    size_t value = 0;
    const size_t start = at_;
    while (at_ < line_.size() && line_[at_] >= '0' && line_[at_] <= '9') {
      if (at_ - start >= 7) return false;
      value = value * 10 + static_cast<size_t>(line_[at_++] - '0');
    }
    if (at_ == start || line_[start] == '0' || value < 2 || value > kMaxRunCalls) return false;
    out = value;
    return true;
  }

  bool integer(Clock::time_point& out) {
    long long value = 0;
    const size_t start = at_;
    while (at_ < line_.size() && line_[at_] >= '0' && line_[at_] <= '9') {
      if (at_ - start >= 15) return false;  // milliseconds until the year 33658
      value = value * 10 + (line_[at_++] - '0');
    }
    if (at_ == start || (line_[start] == '0' && at_ - start > 1)) return false;
    out = Clock::time_point(std::chrono::milliseconds(value));
    return true;
  }

  // A string whose escapes are the simple ones and \u00XX (what dump
  // writes for control characters); others go to the JSON parser.
  bool string(std::string& out) {
    if (!literal("\"")) return false;
    while (at_ < line_.size()) {
      // The run of plain characters up to a quote, an escape or a control character.
      size_t end = at_;
      while (end < line_.size() && kPlainInString[static_cast<unsigned char>(line_[end])]) ++end;
      out.append(line_.data() + at_, end - at_);
      at_ = end;
      if (at_ >= line_.size()) return false;
      const char c = line_[at_++];
      if (c == '"') return true;
      if (c != '\\') return false;  // a control character
      if (at_ >= line_.size()) return false;
      switch (line_[at_++]) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          if (line_.substr(at_, 2) != "00" || at_ + 4 > line_.size()) return false;
          int value = 0;
          for (size_t k = at_ + 2; k < at_ + 4; ++k) {
            const char h = line_[k];
            const int digit = h >= '0' && h <= '9'   ? h - '0'
                              : h >= 'a' && h <= 'f' ? h - 'a' + 10
                              : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                     : -1;
            if (digit < 0) return false;
            value = value * 16 + digit;
          }
          if (value >= 0x80) return false;  // a two-byte UTF-8 character: left to the parser
          out += static_cast<char>(value);
          at_ += 4;
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  std::string_view line_;
  size_t at_ = 0;
};

}  // namespace

bool readSessionEventLine(std::string_view line, SessionEvent& event) {
  size_t calls = 1;
  return readSessionLine(line, event, calls) && calls == 1;
}

bool readSessionLine(std::string_view line, SessionEvent& event, size_t& calls) {
  calls = 1;
  if (EventLineReader(line).readUnlabelled(event)) return true;
  if (EventLineReader(line).readRun(event, calls)) return true;
  calls = 1;
  event = SessionEvent{};
  if (isUtf8(line) && EventLineReader(line).read(event)) return true;
  const nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
  if (json.is_object() && json.contains("calls")) return sessionRunFrom(json, event, calls);
  std::optional<SessionEvent> parsed = sessionEventFrom(json);
  if (!parsed) return false;
  event = std::move(*parsed);
  return true;
}

bool sessionRunFrom(const nlohmann::json& json, SessionEvent& event, size_t& calls) {
  if (!json.is_object() || json.size() != 4) return false;  // at, calls, labels, tool: no more
  const auto at = json.find("at");
  const auto run = json.find("calls");
  const auto labels = json.find("labels");
  const auto tool = json.find("tool");
  if (at == json.end() || !at->is_number_integer() || run == json.end() ||
      !run->is_number_unsigned() || run->get<uint64_t>() < 2 ||
      run->get<uint64_t>() > kMaxRunCalls || labels == json.end() || !labels->is_array() ||
      !labels->empty() || tool == json.end() || !tool->is_string()) {
    return false;
  }
  event = SessionEvent{};
  event.at = Clock::time_point(std::chrono::milliseconds(at->get<long long>()));
  event.tool = tool->get<std::string>();
  calls = run->get<size_t>();
  return true;
}

nlohmann::json sessionRunJson(const SessionEvent& event, size_t calls) {
  return {{"at", millisOf(event.at)},
          {"calls", calls},
          {"tool", clipped(event.tool, kMaxToolBytes)},
          {"labels", nlohmann::json::array()}};
}

std::string sessionLinesOf(const std::vector<SessionEvent>& events) {
  auto plain = [](const SessionEvent& e) {
    return e.labels.empty() && e.summary.empty() && e.decision_id.empty();
  };
  std::string out;
  for (size_t i = 0; i < events.size();) {
    size_t end = i + 1;
    if (plain(events[i])) {
      while (end < events.size() && end - i < kMaxRunCalls && plain(events[end])) {
        ++end;
      }
    }
    if (end - i == 1) {
      out += sessionEventJson(events[i]).dump();
    } else {
      // The run's latest moment (hooks running at once may append out of order).
      SessionEvent last = events[end - 1];
      for (size_t k = i; k < end; ++k) last.at = std::max(last.at, events[k].at);
      out += sessionRunJson(last, end - i).dump();
    }
    out += '\n';
    i = end;
  }
  return out;
}

std::optional<SessionEvent> sessionEventFromLine(std::string_view line) {
  SessionEvent event;
  if (!readSessionEventLine(line, event)) return std::nullopt;
  return event;
}

nlohmann::json sessionEventJson(const SessionEvent& event) {
  std::vector<std::string> labels;
  for (const std::string& label : event.labels) {
    if (labels.size() == kMaxLabels) break;
    labels.push_back(clipped(label, kMaxLabelBytes));
  }
  nlohmann::json line = {{"at", millisOf(event.at)},
                         {"tool", clipped(event.tool, kMaxToolBytes)},
                         {"summary", clipped(event.summary, kMaxSummaryBytes)},
                         {"labels", labels}};
  if (!event.decision_id.empty()) line["decision"] = event.decision_id.substr(0, 64);
  return line;
}

std::optional<SessionEvent> sessionEventFrom(const nlohmann::json& line) {
  if (!line.is_object()) return std::nullopt;
  const auto at = line.find("at");
  const auto tool = line.find("tool");
  const auto summary = line.find("summary");
  const auto labels = line.find("labels");
  if (at == line.end() || !at->is_number_integer() || tool == line.end() || !tool->is_string() ||
      summary == line.end() || !summary->is_string() || labels == line.end() ||
      !labels->is_array()) {
    return std::nullopt;
  }
  SessionEvent event;
  event.at = Clock::time_point(std::chrono::milliseconds(at->get<long long>()));
  event.tool = tool->get<std::string>();
  event.summary = summary->get<std::string>();
  for (const nlohmann::json& label : *labels) {
    if (!label.is_string()) return std::nullopt;
    event.labels.push_back(label.get<std::string>());
  }
  if (const auto decision = line.find("decision"); decision != line.end()) {
    if (!decision->is_string()) return std::nullopt;
    event.decision_id = decision->get<std::string>();
  }
  return event;
}

std::string sessionSummaryOf(const ToolCall& call) {
  const nlohmann::json args = redactSecrets(call.args);
  const auto command = args.is_object() ? args.find("command") : args.end();
  return call.tool + " " +
         (command != args.end() && command->is_string() ? command->get<std::string>()
                                                        : args.dump());
}

}  // namespace toolguard::detail

namespace toolguard {

std::string sessionKeyOf(const ToolCall& call) {
  if (!call.context.session_key.empty()) return call.context.session_key;
  if (call.context.session.empty()) return "";
  return SessionStore::keyOf(call.context.agent, call.context.session);
}

void rememberToolResult(SessionRepository& sessions, const ToolCall& call,
                        const std::vector<std::string>& labels) {
  const std::string key = sessionKeyOf(call);
  if (labels.empty() || key.empty()) return;
  SessionEvent event;
  event.at = std::chrono::system_clock::now();
  event.tool = call.tool;
  event.summary = "the result of " + detail::sessionSummaryOf(call);
  event.labels = labels;
  sessions.append(key, event);
}

}  // namespace toolguard
