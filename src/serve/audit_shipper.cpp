// Shipping the audit as it is kept (see audit_shipper.hpp).
#include "serve/audit_shipper.hpp"

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

#include "audit/audit_detail.hpp"
#include "http/plain_http.hpp"
#include "serve/serve_webhook.hpp"

namespace toolguard::serve {
namespace {

constexpr long kShipTimeoutMs = 10000;
constexpr size_t kShipBatchBytes = size_t{1} << 20;
constexpr std::chrono::seconds kLongestShipPause{30};
// At stop, what waits is sent for this long at most.
constexpr std::chrono::seconds kStopFlush{5};

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
  bool started_dropping = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    backlog_.push_back(line);
    backlog_bytes_ += line.size();
    while (backlog_.size() > 1 &&
           (backlog_.size() > kMaxBacklog || backlog_bytes_ > kMaxBacklogBytes)) {
      backlog_bytes_ -= backlog_.front().size();
      backlog_.pop_front();
      ++dropped_;
      started_dropping = !dropping_ || started_dropping;
      dropping_ = true;
    }
  }
  wake_.notify_one();
  if (started_dropping) {
    std::cerr << "toolguard serve: the audit collector is behind; the oldest lines waiting are "
                 "dropped from shipping (the store keeps them)\n";
  }
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
  std::uint64_t number = 0;  // of the last batch taken
  std::string batch;         // the batch being sent: the same lines until taken
  std::chrono::seconds pause{1};
  std::optional<std::chrono::steady_clock::time_point> stop_by;
  for (;;) {
    if (batch.empty()) {
      std::vector<std::string> lines;
      std::uint64_t dropped = 0;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || !backlog_.empty(); });
        if (backlog_.empty()) return;  // stopping, nothing left
        size_t bytes = 0;
        while (!backlog_.empty() && lines.size() < kMaxBatchLines &&
               (lines.empty() || bytes + backlog_.front().size() <= kShipBatchBytes)) {
          bytes += backlog_.front().size();
          backlog_bytes_ -= backlog_.front().size();
          lines.push_back(std::move(backlog_.front()));
          backlog_.pop_front();
        }
        dropped = std::exchange(dropped_, 0);
        dropping_ = false;
      }
      if (dropped != 0) {
        batch = nlohmann::json{{"event", "audit-ship-dropped"}, {"lines", dropped}}.dump() + "\n";
      }
      for (const std::string& line : lines) {
        batch += line;
        batch += '\n';
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_ && !stop_by) stop_by = std::chrono::steady_clock::now() + kStopFlush;
    }
    long timeout_ms = kShipTimeoutMs;
    if (stop_by) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            *stop_by - std::chrono::steady_clock::now())
                            .count();
      timeout_ms = std::min<long>(timeout_ms, std::max<long>(left, 0));
    }
    if (timeout_ms > 0 && post(batch, number + 1, timeout_ms)) {
      ++number;
      batch.clear();
      pause = std::chrono::seconds{1};
      continue;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (stop_by && std::chrono::steady_clock::now() >= *stop_by) {
      const size_t left = backlog_.size() + 1;
      lock.unlock();
      std::cerr << "toolguard serve: about " << left
                << " audit lines were not shipped at stop (the store keeps them)\n";
      return;
    }
    if (stop_by) {  // stopping: short pauses, until the deadline
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      continue;
    }
    wake_.wait_for(lock, pause, [&] { return stopping_; });
    pause = std::min(pause * 2, kLongestShipPause);
  }
}

}  // namespace toolguard::serve
