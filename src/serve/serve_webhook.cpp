// The webhook of new asks (see serve_webhook.hpp).
#include "serve/serve_webhook.hpp"

#include <iostream>

#include "http/plain_http.hpp"

namespace toolguard::serve {
namespace {

constexpr size_t kMostWaiting = 256;
constexpr long kTimeoutMs = 10000;

// At most `most` characters of one line: enough to recognise the call.
std::string oneLine(const std::string& text, size_t most) {
  std::string out;
  for (char c : text) {
    if (out.size() >= most) {
      out += "...";
      break;
    }
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  }
  return out;
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
  const nlohmann::json& detail = ask.decision.value("detail", nlohmann::json::object());
  const nlohmann::json& args = ask.call.value("args", nlohmann::json::object());
  const std::string summary =
      oneLine(args.is_object() && args.contains("command") && args["command"].is_string()
                  ? args["command"].get<std::string>()
                  : args.dump(),
              200);
  std::string base = public_url;
  while (base.ends_with('/')) base.pop_back();
  const std::string link = base + "/#ask=" + ask.id;
  const std::string tool = ask.call.value("tool", "");
  const std::string rule = ask.decision.value("rule", nlohmann::json()).is_string()
                               ? ask.decision["rule"].get<std::string>()
                               : "";
  return {{"event", "ask"},
          {"id", ask.id},
          {"agent", ask.token},
          {"machine", detail.value("machine", "")},
          {"tool", tool},
          {"summary", summary},
          {"rule", rule},
          {"reason", ask.decision.value("reason", "")},
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
    std::string error;
    std::optional<detail::PlainHttpResponse> r = detail::postToService(
        url_, "", {{"Content-Type", "application/json"}}, next.dump(), kTimeoutMs, error);
    if (!r) {
      std::cerr << "toolguard serve: the ask webhook failed: " << error << "\n";
    } else if (r->status < 200 || r->status > 299) {
      std::cerr << "toolguard serve: the ask webhook answered " << r->status << "\n";
    }
  }
}

}  // namespace toolguard::serve
