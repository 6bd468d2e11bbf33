// Shipping the audit as it is kept (see audit_shipper.hpp).
#include "serve/audit_shipper.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "audit/audit_detail.hpp"
#include "http/plain_http.hpp"
#include "serve/serve_webhook.hpp"

namespace toolguard::serve {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr long kShipTimeoutMs = 10000;
constexpr size_t kShipBatchBytes = size_t{1} << 20;
constexpr std::chrono::seconds kLongestShipPause{30};
// At stop, what waits is sent for this long at most (from the stop's start).
constexpr std::chrono::seconds kStopFlush{5};

}  // namespace

struct AuditShipper::State {
  std::string url;
  std::string secret;
  std::string shipper_id;  // new at each start: batch numbers start again
  size_t max_backlog = kDefaultMaxBacklog;
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable finished_cv;
  std::deque<std::string> backlog;  // lines not yet in a batch
  size_t backlog_bytes = 0;
  std::uint64_t dropped = 0;                       // lines dropped since the last batch said so
  bool dropping = false;                           // said on stderr when it starts
  std::optional<SteadyClock::time_point> stop_by;  // set when the stop starts
  bool finished = false;                           // the thread has returned
  size_t unsent_at_stop = 0;                       // lines left when the stop's time ran out

  // POSTs `body` (numbered `batch`); true when the collector took it (2xx).
  bool post(const std::string& body, std::uint64_t batch, long timeout_ms) const;
  // The next batch's body from the backlog (waits for a line); "" when
  // stopping with nothing left.
  std::string nextBatch();
  void run();
};

AuditShipper::AuditShipper(std::string url, std::string secret, size_t max_backlog)
    : state_(std::make_shared<State>()) {
  state_->url = std::move(url);
  state_->secret = std::move(secret);
  state_->shipper_id = detail::randomAuditId();
  state_->max_backlog = std::max<size_t>(1, max_backlog);
  std::thread([state = state_] {
    state->run();
    std::lock_guard<std::mutex> lock(state->mutex);
    state->finished = true;
    state->finished_cv.notify_all();
  }).detach();
}

AuditShipper::~AuditShipper() {
  std::unique_lock<std::mutex> lock(state_->mutex);
  const SteadyClock::time_point stop_by = SteadyClock::now() + kStopFlush;
  state_->stop_by = stop_by;
  state_->wake.notify_all();
  // A POST under way may take its whole timeout: past the stop's time the
  // thread is left to end with the process (it holds the state it uses).
  const bool finished = state_->finished_cv.wait_until(
      lock, stop_by + std::chrono::milliseconds(200), [&] { return state_->finished; });
  const size_t unsent = finished ? state_->unsent_at_stop : state_->backlog.size() + 1;
  lock.unlock();
  if (unsent != 0) {
    std::cerr << "toolguard serve: about " << unsent
              << " audit lines were not shipped at stop (the store keeps them)\n";
  }
}

void AuditShipper::kept(const std::string& line) {
  State& s = *state_;
  bool started_dropping = false;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.backlog.push_back(line);
    s.backlog_bytes += line.size();
    while (s.backlog.size() > 1 &&
           (s.backlog.size() > s.max_backlog || s.backlog_bytes > kMaxBacklogBytes)) {
      s.backlog_bytes -= s.backlog.front().size();
      s.backlog.pop_front();
      ++s.dropped;
      started_dropping = !s.dropping || started_dropping;
      s.dropping = true;
    }
  }
  s.wake.notify_one();
  if (started_dropping) {
    std::cerr << "toolguard serve: the audit collector is behind; the oldest lines waiting are "
                 "dropped from shipping (the store keeps them)\n";
  }
}

bool AuditShipper::State::post(const std::string& body, std::uint64_t batch,
                               long timeout_ms) const {
  try {
    std::map<std::string, std::string> headers = {{"Content-Type", "application/x-ndjson"},
                                                  {"X-Toolguard-Shipper", shipper_id},
                                                  {"X-Toolguard-Batch", std::to_string(batch)}};
    if (!secret.empty()) {
      const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
      headers.merge(AskWebhook::signatureHeaders(secret, body, now));
    }
    const Expected<detail::PlainHttpResponse> r =
        detail::postToService(url, "", headers, body, timeout_ms);
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

std::string AuditShipper::State::nextBatch() {
  std::vector<std::string> lines;
  std::uint64_t dropped_lines = 0;
  {
    std::unique_lock<std::mutex> lock(mutex);
    wake.wait(lock, [&] { return stop_by || !backlog.empty(); });
    if (backlog.empty()) return "";  // stopping, nothing left
    size_t bytes = 0;
    while (!backlog.empty() && lines.size() < kMaxBatchLines &&
           (lines.empty() || bytes + backlog.front().size() <= kShipBatchBytes)) {
      bytes += backlog.front().size();
      backlog_bytes -= backlog.front().size();
      lines.push_back(std::move(backlog.front()));
      backlog.pop_front();
    }
    dropped_lines = std::exchange(dropped, 0);
    dropping = false;
  }
  std::string batch;
  if (dropped_lines != 0) {
    batch = nlohmann::json{{"event", "audit-ship-dropped"}, {"lines", dropped_lines}}.dump() + "\n";
  }
  for (const std::string& line : lines) {
    batch += line;
    batch += '\n';
  }
  return batch;
}

void AuditShipper::State::run() {
  std::uint64_t number = 0;  // of the last batch taken
  std::string batch;         // the batch being sent: the same lines until taken
  std::chrono::seconds pause{1};
  for (;;) {
    if (batch.empty()) {
      batch = nextBatch();
      if (batch.empty()) return;
    }
    long timeout_ms = kShipTimeoutMs;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (stop_by) {
        timeout_ms = std::min<long>(
            timeout_ms,
            std::chrono::duration_cast<std::chrono::milliseconds>(*stop_by - SteadyClock::now())
                .count());
      }
    }
    if (timeout_ms > 0 && post(batch, number + 1, timeout_ms)) {
      ++number;
      batch.clear();
      pause = std::chrono::seconds{1};
      continue;
    }
    std::unique_lock<std::mutex> lock(mutex);
    if (stop_by && SteadyClock::now() >= *stop_by) {
      unsent_at_stop =
          backlog.size() + static_cast<size_t>(std::count(batch.begin(), batch.end(), '\n'));
      return;
    }
    if (stop_by) {  // stopping: short pauses, until the stop's time
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      continue;
    }
    wake.wait_for(lock, pause, [&] { return stop_by.has_value(); });
    pause = std::min(pause * 2, kLongestShipPause);
  }
}

}  // namespace toolguard::serve
