// The webhook of new asks (see serve_webhook.hpp).
#include "serve/serve_webhook.hpp"

#include <iostream>

#include "http/plain_http.hpp"
#include "toolguard/terminal_prompt.hpp"

namespace toolguard::serve {
namespace {

constexpr size_t kMostWaiting = 256;
constexpr long kTimeoutMs = 10000;

// One line of at most `most` bytes that no terminal or chat tool takes for
// markup: hidden and control characters made visible (terminalSafe), `<`,
// `>` and `&` escaped as chat tools' incoming webhooks expect (so a model's
// text cannot @-mention a channel or dress up a link), cut on a character's
// boundary.
std::string plainLine(const std::string& text, size_t most) {
  std::string out;
  for (char c : terminalSafe(text)) {
    if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else {
      out += c;
    }
  }
  if (out.size() <= most) return out;
  size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  return out.substr(0, cut) + "...";
}

// A string member of a record that came from a client, or "".
std::string textOf(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

}  // namespace

AskWebhook::AskWebhook(std::string url, std::string public_url)
    : url_(std::move(url)), public_url_(std::move(public_url)), worker_([this] { run(); }) {}

AskWebhook::~AskWebhook() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

nlohmann::json AskWebhook::payload(const store::AskRecord& ask, const std::string& public_url) {
  const nlohmann::json detail = ask.decision.is_object()
                                    ? ask.decision.value("detail", nlohmann::json::object())
                                    : nlohmann::json::object();
  const nlohmann::json args = ask.call.is_object()
                                  ? ask.call.value("args", nlohmann::json::object())
                                  : nlohmann::json::object();
  const std::string command = textOf(args, "command");
  const std::string summary = plainLine(
      command.empty() ? args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                      : command,
      200);
  std::string base = public_url;
  while (base.ends_with('/')) base.pop_back();
  const std::string link = base + "/#ask=" + ask.id;
  const std::string tool = plainLine(textOf(ask.call, "tool"), 100);
  const std::string rule = plainLine(textOf(ask.decision, "rule"), 100);
  return {{"event", "ask"},
          {"id", ask.id},
          {"agent", ask.token},
          {"machine", plainLine(textOf(detail, "machine"), 100)},
          {"tool", tool},
          {"summary", summary},
          {"rule", rule},
          {"reason", plainLine(textOf(ask.decision, "reason"), 300)},
          {"created", ask.created},
          {"expires", ask.expires},
          {"url", link},
          {"text", "toolguard: " + ask.token + " asks to run " + tool + ": " + summary +
                       (rule.empty() ? "" : " (rule " + rule + ")") + " - answer by " +
                       ask.expires + ": " + link}};
}

void AskWebhook::notify(const store::AskRecord& ask) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (backlog_.size() >= kMostWaiting) {
      std::cerr << "toolguard serve: the ask webhook is behind; no notice for ask " << ask.id
                << "\n";
      return;
    }
    backlog_.push_back(payload(ask, public_url_));
  }
  wake_.notify_one();
}

void AskWebhook::run() {
  for (;;) {
    nlohmann::json next;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !backlog_.empty(); });
      if (stopping_) return;  // notices still waiting are dropped: the queue shows them
      next = std::move(backlog_.front());
      backlog_.pop_front();
    }
    // Nothing a notice holds may end this thread (an uncaught exception
    // would end the service).
    try {
      std::string error;
      std::optional<detail::PlainHttpResponse> r = detail::postToService(
          url_, "", {{"Content-Type", "application/json"}},
          next.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), kTimeoutMs, error);
      if (!r) {
        std::cerr << "toolguard serve: the ask webhook failed: " << error << "\n";
      } else if (r->status < 200 || r->status > 299) {
        std::cerr << "toolguard serve: the ask webhook answered " << r->status << "\n";
      }
    } catch (const std::exception& e) {
      std::cerr << "toolguard serve: the ask webhook failed: " << e.what() << "\n";
    }
  }
}

}  // namespace toolguard::serve
