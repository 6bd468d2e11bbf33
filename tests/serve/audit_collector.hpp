#pragma once
// An audit collector for the tests of `toolguard serve --audit-ship`: a real
// HTTP server (cpp-httplib) that takes POSTed batches, and can refuse them
// (503) for a while or answer them late, as a collector that is down or
// slow does.
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace toolguard::testing {

/// Refuses its first `refuse` batches (and all while refusing(true)), then
/// takes them; answers each after delay(ms).
class AuditCollector {
 public:
  struct Batch {
    std::string shipper, number, timestamp, signature, content_type, body;
  };

  explicit AuditCollector(int refuse = 0) : refuse_(refuse) {
    server_.Post("/audit", [this](const httplib::Request& req, httplib::Response& res) {
      // Answered late, in short naps, so that stopping the collector is quick.
      const auto answer_at =
          std::chrono::steady_clock::now() + std::chrono::milliseconds(delay_ms_);
      while (!stopping_ && std::chrono::steady_clock::now() < answer_at) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      std::lock_guard<std::mutex> lock(mutex_);
      Batch batch{req.get_header_value("X-Toolguard-Shipper"),
                  req.get_header_value("X-Toolguard-Batch"),
                  req.get_header_value("X-Toolguard-Timestamp"),
                  req.get_header_value("X-Toolguard-Signature"),
                  req.get_header_value("Content-Type"),
                  req.body};
      if (refuse_ > 0 || refusing_) {
        // As if it was stored and the answer lost: it must come again as it was.
        if (refuse_ > 0) --refuse_;
        refused_.push_back(std::move(batch));
        res.status = 503;
        return;
      }
      taken_.push_back(std::move(batch));
      res.status = 204;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~AuditCollector() {
    stopping_ = true;
    server_.stop();
    thread_.join();
  }
  AuditCollector(const AuditCollector&) = delete;
  AuditCollector& operator=(const AuditCollector&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/audit"; }
  /// Refuses every batch while true.
  void refusing(bool refuse) { refusing_ = refuse; }
  /// Answers each batch this late.
  void delay(int ms) { delay_ms_ = ms; }
  std::vector<Batch> taken() {
    std::lock_guard<std::mutex> lock(mutex_);
    return taken_;
  }
  std::vector<Batch> refused() {
    std::lock_guard<std::mutex> lock(mutex_);
    return refused_;
  }
  /// Every line taken so far, in order.
  std::vector<std::string> lines() {
    std::vector<std::string> out;
    for (const Batch& b : taken()) {
      std::istringstream in(b.body);
      for (std::string line; std::getline(in, line);) out.push_back(line);
    }
    return out;
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mutex_;
  int refuse_;
  std::atomic<bool> refusing_{false};
  std::atomic<int> delay_ms_{0};
  std::atomic<bool> stopping_{false};
  std::vector<Batch> refused_;
  std::vector<Batch> taken_;
};

}  // namespace toolguard::testing
