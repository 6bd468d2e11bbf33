#pragma once
// Internal: tells people that an ask is waiting: one small JSON POSTed to a
// webhook URL (--ask-webhook) per new ask, with a link to it on the web
// queue, so a chat tool can notify. Sent from a thread of its own with a
// bounded backlog: a slow or dead webhook never holds up an ask.

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "store/service_store.hpp"

namespace toolguard::serve {

/// The webhook sender.
class AskWebhook {
 public:
  /// Posts to `url` ("http://...", "https://..." or "unix:/..."); links are
  /// made from `public_url` (the queue's address as people reach it). With
  /// a `secret`, each notice is signed (signatureHeaders).
  AskWebhook(std::string url, std::string public_url, std::string secret = "");
  ~AskWebhook();
  AskWebhook(const AskWebhook&) = delete;
  AskWebhook& operator=(const AskWebhook&) = delete;

  /// Queues the notice of a new ask (dropped, and said on stderr, past 256 waiting).
  void notify(const store::AskRecord& ask);

  /// The JSON POSTed for `ask`: {"event": "ask", "id", "agent", "machine",
  /// "tool", "summary", "rule", "reason", "created", "expires", "url",
  /// "text"} ("text" is one line for chat tools' incoming webhooks).
  static nlohmann::json payload(const store::AskRecord& ask, const std::string& public_url);

  /// The headers that sign `body` sent at `unix_seconds`:
  /// X-Toolguard-Timestamp (the seconds) and X-Toolguard-Signature,
  /// "sha256=" and the hex HMAC-SHA256 under `secret` of "SECONDS.BODY" (the
  /// time is signed too, so a receiver can refuse an old notice sent again).
  static std::map<std::string, std::string> signatureHeaders(const std::string& secret,
                                                             const std::string& body,
                                                             long long unix_seconds);

 private:
  void run();

  std::string url_;
  std::string public_url_;
  std::string secret_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<nlohmann::json> backlog_;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace toolguard::serve
