// Prometheus text exposition of the service's counters.
#include "serve_metrics.hpp"

#include <sstream>

namespace toolguard::serve {
namespace {

// A label value as Prometheus reads it: backslash, quote and newline escaped.
std::string label(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

void Metrics::decision(const std::string& verdict, const std::string& rule, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++decisions_[{verdict, rule}];
  size_t i = 0;
  while (i < kBuckets.size() && seconds > kBuckets[i]) ++i;
  ++latency_[i];
  latency_sum_ += seconds;
  ++latency_count_;
}

void Metrics::refused(int status) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++refused_[status];
}

void Metrics::policyReload(bool ok) {
  ++(ok ? reloads_ok_ : reloads_failed_);
  policy_ok_ = ok ? 1 : 0;
}

std::string Metrics::render(long pending_asks) const {
  std::ostringstream out;
  std::lock_guard<std::mutex> lock(mutex_);
  out << "# HELP toolguard_decisions_total Decisions answered, by verdict and rule.\n"
      << "# TYPE toolguard_decisions_total counter\n";
  for (const auto& [key, n] : decisions_) {
    out << "toolguard_decisions_total{verdict=\"" << label(key.first) << "\",rule=\""
        << label(key.second) << "\"} " << n << "\n";
  }
  out << "# HELP toolguard_decision_seconds Time to answer /v1/check (waiting for a person "
         "included).\n"
      << "# TYPE toolguard_decision_seconds histogram\n";
  unsigned long cumulative = 0;
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    cumulative += latency_[i];
    out << "toolguard_decision_seconds_bucket{le=\"" << kBuckets[i] << "\"} " << cumulative << "\n";
  }
  cumulative += latency_[kBuckets.size()];
  out << "toolguard_decision_seconds_bucket{le=\"+Inf\"} " << cumulative << "\n"
      << "toolguard_decision_seconds_sum " << latency_sum_ << "\n"
      << "toolguard_decision_seconds_count " << latency_count_ << "\n";
  out << "# HELP toolguard_pending_asks Asks waiting for a person.\n"
      << "# TYPE toolguard_pending_asks gauge\n"
      << "toolguard_pending_asks " << pending_asks << "\n";
  out << "# HELP toolguard_asks_answered_total Answers given through this instance.\n"
      << "# TYPE toolguard_asks_answered_total counter\n"
      << "toolguard_asks_answered_total " << asks_answered_.load() << "\n";
  out << "# HELP toolguard_store_errors_total Store operations that failed (each failed closed).\n"
      << "# TYPE toolguard_store_errors_total counter\n"
      << "toolguard_store_errors_total " << store_errors_.load() << "\n";
  out << "# HELP toolguard_requests_refused_total Requests refused, by HTTP status.\n"
      << "# TYPE toolguard_requests_refused_total counter\n";
  for (const auto& [status, n] : refused_) {
    out << "toolguard_requests_refused_total{status=\"" << status << "\"} " << n << "\n";
  }
  out << "# HELP toolguard_policy_reloads_total Policy reloads, by result.\n"
      << "# TYPE toolguard_policy_reloads_total counter\n"
      << "toolguard_policy_reloads_total{result=\"ok\"} " << reloads_ok_.load() << "\n"
      << "toolguard_policy_reloads_total{result=\"failed\"} " << reloads_failed_.load() << "\n"
      << "# HELP toolguard_policy_loaded 1 when the last policy load succeeded; 0 when the "
         "previous policy is still serving.\n"
      << "# TYPE toolguard_policy_loaded gauge\n"
      << "toolguard_policy_loaded " << policy_ok_.load() << "\n";
  return out.str();
}

}  // namespace toolguard::serve
