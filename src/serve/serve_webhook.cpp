// The webhook of new asks (see serve_webhook.hpp).
#include "serve/serve_webhook.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

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

AskWebhook::AskWebhook(std::string url, std::string public_url, std::string secret)
    : url_(std::move(url)),
      public_url_(std::move(public_url)),
      secret_(std::move(secret)),
      worker_([this] { run(); }) {}

std::map<std::string, std::string> AskWebhook::signatureHeaders(const std::string& secret,
                                                                const std::string& body,
                                                                long long unix_seconds) {
  const std::string stamp = std::to_string(unix_seconds);
  const std::string signed_text = stamp + "." + body;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
            reinterpret_cast<const unsigned char*>(signed_text.data()), signed_text.size(), mac,
            &size)) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[mac[i] >> 4];
    hex += kHex[mac[i] & 15];
  }
  return {{"X-Toolguard-Timestamp", stamp}, {"X-Toolguard-Signature", "sha256=" + hex}};
}

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
      const std::string body = next.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      std::map<std::string, std::string> headers = {{"Content-Type", "application/json"}};
      if (!secret_.empty()) {
        const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        headers.merge(signatureHeaders(secret_, body, now));
      }
      const Expected<detail::PlainHttpResponse> r =
          detail::postToService(url_, "", headers, body, kTimeoutMs);
      if (!r) {
        std::cerr << "toolguard serve: the ask webhook failed: " << r.error() << "\n";
      } else if (r->status < 200 || r->status > 299) {
        std::cerr << "toolguard serve: the ask webhook answered " << r->status << "\n";
      }
    } catch (const std::exception& e) {
      std::cerr << "toolguard serve: the ask webhook failed: " << e.what() << "\n";
    }
  }
}

}  // namespace toolguard::serve
