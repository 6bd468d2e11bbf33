// promptOnTerminal: the dialogue. Shows the request, asks allow once /
// always / deny by number or single key, then the binding and scope of an
// "always", or an optional reason for a deny.
#include <unistd.h>

#include <vector>

#include "approval/terminal_internal.hpp"

namespace toolguard {
namespace detail {
namespace {

// Unrecognised keys (in the whole prompt) before it gives up and denies.
constexpr size_t kMaxUnknownKeys = 10;
// Longest reason a person may type for a deny, in bytes.
constexpr size_t kMaxTypedReasonBytes = 500;
// Most choices one question offers (each is one digit).
constexpr size_t kMaxChoices = 9;

// `text` made safe, cut after about `max` bytes.
std::string shortSafe(std::string_view text, size_t max) {
  if (text.size() <= max) return terminalSafe(text);
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return terminalSafe(text.substr(0, cut)) + "…";
}

std::string scopeLabel(ApprovalScope scope, const CallContext& context, size_t max) {
  std::string label;
  switch (scope) {
    case ApprovalScope::Session:
      label = "this session";
      break;
    case ApprovalScope::Project:
      label = "this project";
      break;
    case ApprovalScope::Agent:
      label = "this agent";
      break;
    case ApprovalScope::Global:
      return "everywhere";
  }
  const std::optional<std::string> id = scopeIdOf(scope, context);
  if (id && !id->empty()) {
    label += " (" + shortSafe(*id, max) + ")";
  }
  return label;
}

class Dialogue {
 public:
  Dialogue(int out_fd, KeyReader& keys, const ApprovalRequest& request, const PromptLayout& layout)
      : out_fd_(out_fd), keys_(keys), request_(request), layout_(layout) {}

  ApprovalAnswer run() {
    std::string intro = "\n";
    intro += renderApprovalRequest(request_, layout_);
    if (request_.timeout.count() > 0) {
      intro += "  (" + timeoutReason(request_.timeout) + " denies the call)\n";
    }
    const bool can_always = !request_.options.empty() && !request_.scopes.empty();
    intro += "Allow it?\n";
    intro += "  1  allow once      (y)\n";
    if (can_always) intro += "  2  always allow    (a)\n";
    intro += "  3  deny            (n, Esc)\n";
    if (const int error = say(intro); error != 0) {
      return deniedAnswer("cannot write to the terminal (" + errorText(error) + ")");
    }
    const std::string keys_for_always = can_always ? "2a" : "";
    const Picked first = choose({"1y", keys_for_always, "3n"},
                                can_always ? "Press 1, 2 or 3 (or y, a, n; Esc denies)."
                                           : "Press 1 or 3 (or y, n; Esc denies).");
    if (first.ended) return *first.ended;
    if (first.index == 0) {
      ApprovalAnswer answer;
      answer.outcome = ApprovalOutcome::AllowOnce;
      return finish(answer, "allowed once");
    }
    if (first.index == 1) return always();
    return denyWithReason();
  }

 private:
  struct Picked {
    size_t index = 0;
    std::optional<ApprovalAnswer> ended;  // set: the prompt ended with this answer
  };

  // Writes `text` with "\r\n" line ends (the terminal may not translate \n).
  int say(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 16);
    for (char c : text) {
      if (c == '\n') out += '\r';
      out += c;
    }
    if (!text.empty()) at_line_start_ = text.back() == '\n';
    return writeAll(out_fd_, out);
  }

  ApprovalAnswer finish(ApprovalAnswer answer, std::string_view shown) {
    if (!at_line_start_) say("\n");
    say("→ " + std::string(shown) + "\n");
    return answer;
  }

  ApprovalAnswer denied(std::string reason, std::string_view why = {}) {
    std::string shown = "denied";
    if (!why.empty()) shown += " (" + std::string(why) + ")";
    ApprovalAnswer answer = deniedAnswer(std::move(reason));
    answer.by_person = why.empty();  // Esc, Ctrl-C, or `n` with the person's own reason
    return finish(std::move(answer), shown);
  }

  // How a key that is not an answer ends the prompt, if it does.
  std::optional<ApprovalAnswer> endedBy(const Key& key) {
    switch (key.kind) {
      case Key::Kind::Escape:
      case Key::Kind::Interrupt:
        return denied("");
      case Key::Kind::Timeout: {
        const std::string reason = timeoutReason(request_.timeout);
        return denied(reason, reason);
      }
      case Key::Kind::Closed:
        return denied("the terminal closed before an answer",
                      "the terminal closed before an answer");
      case Key::Kind::Error: {
        const std::string reason = "cannot read the terminal (" + errorText(key.error) + ")";
        return denied(reason, reason);
      }
      default:
        return std::nullopt;
    }
  }

  // Waits for one of the keys in keys_for[i] (case does not matter); spaces,
  // \r and \n are skipped; another key prints `hint` and asks again.
  Picked choose(const std::vector<std::string>& keys_for, const std::string& hint) {
    const std::string question = "Choice: ";
    say(question);
    for (;;) {
      const Key key = keys_.next();
      if (key.kind == Key::Kind::Char) {
        if (key.ch == ' ' || key.ch == '\t' || key.ch == '\r' || key.ch == '\n') continue;
        const char lower = key.ch >= 'A' && key.ch <= 'Z' ? static_cast<char>(key.ch + 32) : key.ch;
        for (size_t i = 0; i < keys_for.size(); ++i) {
          if (keys_for[i].find(lower) == std::string::npos) continue;
          say(std::string(1, key.ch) + "\n");
          keys_.dropPendingBlanks();
          return {i, std::nullopt};
        }
      } else if (std::optional<ApprovalAnswer> ended = endedBy(key)) {
        return {0, ended};
      }
      if (++unknown_keys_ >= kMaxUnknownKeys) {
        const std::string reason =
            "no valid answer after " + std::to_string(kMaxUnknownKeys) + " unrecognised keys";
        return {0, denied(reason, reason)};
      }
      say("\n  " + hint + "\n" + question);
    }
  }

  // A numbered list of `labels` and a choice among them; with one label, no question.
  Picked pickNumbered(std::string_view question, std::string_view only,
                      const std::vector<std::string>& labels) {
    if (labels.size() == 1) {
      say(std::string(only) + " " + labels.front() + "\n");
      return {0, std::nullopt};
    }
    std::string text = std::string(question) + "\n";
    std::vector<std::string> keys_for;
    for (size_t i = 0; i < labels.size() && i < kMaxChoices; ++i) {
      text += "  " + std::to_string(i + 1) + "  " + labels[i] + "\n";
      keys_for.push_back(std::to_string(i + 1));
    }
    if (labels.size() > kMaxChoices) {
      text += "  (" + std::to_string(labels.size() - kMaxChoices) + " more not offered)\n";
    }
    say(text);
    return choose(keys_for,
                  "Press a number from 1 to " + std::to_string(keys_for.size()) + " (Esc denies).");
  }

  ApprovalAnswer always() {
    std::vector<std::string> options;
    for (const ApprovalOption& option : request_.options) {
      const std::string label = option.description.empty()
                                    ? std::string(toString(option.binding)) + " " + option.value
                                    : option.description;
      options.push_back(shortSafe(label, layout_.max_value_chars));
    }
    const Picked option = pickNumbered("Always allow which calls?", "Always allow:", options);
    if (option.ended) return *option.ended;

    std::vector<std::string> scopes;
    for (ApprovalScope scope : request_.scopes) {
      scopes.push_back(scopeLabel(scope, request_.call.context, layout_.max_value_chars));
    }
    const Picked scope = pickNumbered("Remember it for:", "Remembered for:", scopes);
    if (scope.ended) return *scope.ended;

    ApprovalAnswer answer;
    answer.outcome = ApprovalOutcome::AlwaysAllow;
    answer.option = option.index;
    answer.scope = request_.scopes[scope.index];
    return finish(answer,
                  "always allowed: " + options[option.index] + ", for " + scopes[scope.index]);
  }

  // The optional reason after a deny: a line with its own echo and backspace.
  ApprovalAnswer denyWithReason() {
    say("Reason for the model (optional, Enter to skip): ");
    std::string line;
    for (;;) {
      const Key key = keys_.next();
      switch (key.kind) {
        case Key::Kind::Char:
          if (key.ch == '\r' || key.ch == '\n') {
            const size_t begin = line.find_first_not_of(' ');
            const size_t end = line.find_last_not_of(' ');
            line = begin == std::string::npos ? "" : line.substr(begin, end - begin + 1);
            return denied(line);
          }
          if (line.size() < kMaxTypedReasonBytes) {
            const char c = key.ch == '\t' ? ' ' : key.ch;
            line += c;
            say(std::string(1, c));
          }
          break;
        case Key::Kind::Text:
          if (line.size() + key.text.size() <= kMaxTypedReasonBytes) {
            line += key.text;
            say(key.text);
          }
          break;
        case Key::Kind::Erase:
          if (!line.empty()) {
            while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80) {
              line.pop_back();
            }
            if (!line.empty()) line.pop_back();
            say("\b \b");
          }
          break;
        case Key::Kind::Sequence:
        case Key::Kind::Other:
          break;  // arrows and other control keys do nothing here
        default:
          // Esc, Ctrl-C, end of input or the time running out: denied
          // (the person already said no), without the unfinished reason.
          return denied("");
      }
    }
  }

  int out_fd_;
  KeyReader& keys_;
  const ApprovalRequest& request_;
  const PromptLayout& layout_;
  bool at_line_start_ = true;
  size_t unknown_keys_ = 0;
};

}  // namespace

ApprovalAnswer promptUntil(int in_fd, int out_fd, const ApprovalRequest& request,
                           const PromptLayout& layout, PromptDeadline deadline) {
  if (in_fd < 0 || out_fd < 0) return deniedAnswer("no terminal to ask on");
  if (deadline && PromptClock::now() >= *deadline) {
    return deniedAnswer(timeoutReason(request.timeout));
  }
  if (::isatty(in_fd)) {
    // A process in the background of its terminal would be stopped (SIGTTIN,
    // SIGTTOU) when it reads or changes the mode.
    const pid_t foreground = ::tcgetpgrp(in_fd);
    if (foreground > 0 && foreground != ::getpgrp()) {
      return deniedAnswer("the terminal is in use by another process group");
    }
  }
  const TerminalMode mode(in_fd);
  KeyReader keys(in_fd, deadline);
  Dialogue dialogue(out_fd, keys, request, layout);
  return dialogue.run();
}

}  // namespace detail

ApprovalAnswer promptOnTerminal(int in_fd, int out_fd, const ApprovalRequest& request,
                                const PromptLayout& layout) {
  detail::PromptDeadline deadline;
  if (request.timeout.count() > 0) deadline = detail::PromptClock::now() + request.timeout;
  return detail::promptUntil(in_fd, out_fd, request, layout, deadline);
}

}  // namespace toolguard
