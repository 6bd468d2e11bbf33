// Shipping the audit as it is kept (see audit_shipper.hpp).
#include "serve/audit_shipper.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "audit/audit_detail.hpp"
#include "http/plain_http.hpp"
#include "serve/serve_webhook.hpp"

namespace toolguard::serve {
namespace {

constexpr long kShipTimeoutMs = 10000;
constexpr size_t kShipBatchBytes = size_t{1} << 20;
constexpr std::chrono::seconds kLongestShipPause{30};

}  // namespace

AuditShipper::AuditShipper(std::string url, std::string secret)
    : url_(std::move(url)),
      secret_(std::move(secret)),
      shipper_id_(detail::randomAuditId()),
      worker_([this] { run(); }) {}

AuditShipper::~AuditShipper() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

void AuditShipper::kept(const std::string& line) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (backlog_.size() >= kMaxBacklog) {
      backlog_.pop_front();
      if (dropped_++ == 0) {
        std::cerr << "toolguard serve: the audit collector is behind by " << kMaxBacklog
                  << " lines; the oldest are dropped from shipping (the store keeps them)\n";
      }
    }
    backlog_.push_back(line);
  }
  wake_.notify_one();
}

bool AuditShipper::post(const std::string& body, std::uint64_t batch, long timeout_ms) {
  try {
    std::map<std::string, std::string> headers = {{"Content-Type", "application/x-ndjson"},
                                                  {"X-Toolguard-Shipper", shipper_id_},
                                                  {"X-Toolguard-Batch", std::to_string(batch)}};
    if (!secret_.empty()) {
      const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
      headers.merge(AskWebhook::signatureHeaders(secret_, body, now));
    }
    const Expected<detail::PlainHttpResponse> r =
        detail::postToService(url_, "", headers, body, timeout_ms);
    if (!r) {
      std::cerr << "toolguard serve: the audit collector failed: " << r.error() << "\n";
      return false;
    }
    if (r->status < 200 || r->status > 299) {
      std::cerr << "toolguard serve: the audit collector answered " << r->status << "\n";
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    std::cerr << "toolguard serve: the audit collector failed: " << e.what() << "\n";
    return false;
  }
}

void AuditShipper::run() {
  std::uint64_t batch = 0;
  std::chrono::seconds pause{1};
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !backlog_.empty(); });
    if (backlog_.empty()) return;  // stopping, nothing left
    // A batch from the front; the lines stay queued until it is taken, so
    // a failed POST sends the same lines again, in the same order.
    std::string body;
    size_t lines = 0;
    if (dropped_ != 0) {
      body = nlohmann::json{{"event", "audit-ship-dropped"}, {"lines", dropped_}}.dump() + "\n";
    }
    const std::uint64_t dropped_told = dropped_;
    for (const std::string& line : backlog_) {
      if (lines == kMaxBatchLines || (lines > 0 && body.size() + line.size() > kShipBatchBytes)) {
        break;
      }
      body += line;
      body += '\n';
      ++lines;
    }
    const bool last_try = stopping_;
    lock.unlock();
    const bool taken = post(body, batch + 1, last_try ? 3000 : kShipTimeoutMs);
    lock.lock();
    if (taken) {
      ++batch;
      pause = std::chrono::seconds{1};
      // Lines dropped from the front while it was posted were this batch's:
      // sent all the same. The rest of the batch is still at the front.
      const std::uint64_t during = dropped_ - dropped_told;
      const size_t gone = static_cast<size_t>(std::min<std::uint64_t>(during, lines));
      backlog_.erase(backlog_.begin(),
                     backlog_.begin() + static_cast<std::ptrdiff_t>(lines - gone));
      dropped_ = during - gone;
      continue;
    }
    if (last_try || stopping_) {
      if (!backlog_.empty()) {
        std::cerr << "toolguard serve: " << backlog_.size()
                  << " audit lines were not shipped at stop (the store keeps them)\n";
      }
      return;
    }
    wake_.wait_for(lock, pause, [&] { return stopping_; });
    pause = std::min(pause * 2, kLongestShipPause);
  }
}

}  // namespace toolguard::serve
