// The logging filter: one InvocationRecord per invocation, handed to a sink.
#include <exception>
#include <stdexcept>

#include "toolguard/tool_filters.hpp"

namespace toolguard {

nlohmann::json InvocationRecord::toJson() const {
  nlohmann::json out = {{"tool", tool}, {"decision_id", decision_id}, {"outcome", toString(kind)}};
  if (!reason.empty()) out["reason"] = reason;
  if (cached) out["cached"] = true;
  out["duration_us"] = duration.count();
  return out;
}

namespace {

using Clock = std::chrono::steady_clock;

class LoggingFilter final : public InvocationFilter {
 public:
  explicit LoggingFilter(std::function<void(const InvocationRecord&)> sink)
      : sink_(std::move(sink)) {}

  std::string name() const override { return "logging"; }

  ToolOutcome invoke(const ToolInvocation& invocation, const InvocationNext& next) override {
    InvocationRecord record;
    record.tool = invocation.call.tool;
    record.decision_id = invocation.decision.id;
    const Clock::time_point start = Clock::now();
    try {
      ToolOutcome outcome = next(invocation);
      record.kind = outcome.kind;
      if (outcome.kind != OutcomeKind::Result) record.reason = outcome.reason;
      record.cached = outcome.cached;
      report(record, start);
      return outcome;
    } catch (const std::exception& e) {
      record.reason = e.what();
      report(record, start);
      throw;
    } catch (...) {
      record.reason = "unknown exception";
      report(record, start);
      throw;
    }
  }

 private:
  // A failing sink must not change what the call came to.
  void report(InvocationRecord& record, Clock::time_point start) const {
    record.duration = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    try {
      sink_(record);
    } catch (...) {
    }
  }

  std::function<void(const InvocationRecord&)> sink_;
};

}  // namespace

std::shared_ptr<InvocationFilter> loggingFilter(std::function<void(const InvocationRecord&)> sink) {
  if (!sink) throw std::invalid_argument("loggingFilter: sink must be set");
  return std::make_shared<LoggingFilter>(std::move(sink));
}

}  // namespace toolguard
