// The rate-limit filter: a RateLimiter of its own in front of the tool.
#include "toolguard/rate_limiter.hpp"
#include "toolguard/tool_filters.hpp"

namespace toolguard {
namespace {

class RateLimitFilter final : public InvocationFilter {
 public:
  explicit RateLimitFilter(std::vector<RateLimit> limits) : limiter_(std::move(limits)) {}

  std::string name() const override { return "rate-limit"; }

  ToolOutcome invoke(const ToolInvocation& invocation, const InvocationNext& next) override {
    RateLimitAdmission admission = limiter_.admit(invocation.call, invocation.tool);
    if (!admission.admitted) return ToolOutcome::denied(std::move(admission.reason));
    // The call counts as running while the ticket lives (also when next
    // throws), and stays in the windows whatever it came to: it was attempted.
    RateLimitTicket ticket = std::move(admission.ticket);
    ToolOutcome outcome = next(invocation);
    ticket.release();
    return outcome;
  }

 private:
  RateLimiter limiter_;  // thread-safe
};

}  // namespace

std::shared_ptr<InvocationFilter> rateLimitFilter(std::vector<RateLimit> limits) {
  return std::make_shared<RateLimitFilter>(std::move(limits));
}

}  // namespace toolguard
