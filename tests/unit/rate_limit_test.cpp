// Rate limits: the policy section, the limiter's windows and concurrency,
// and how a Guard applies them.
#include <gtest/gtest.h>

#include "support/calls.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace rate_limit_test {

using namespace std::chrono_literals;
using testing::makeCall;

Policy policyFrom(const std::string& text) {
  Policy policy;
  mergePolicyText(policy, text, "limits.yaml", PolicyLayer::User);
  return policy;
}

ToolCall callIn(std::string tool, std::string session, std::string agent = "") {
  ToolCall c = makeCall(std::move(tool));
  c.context.session = std::move(session);
  c.context.agent = std::move(agent);
  return c;
}

TEST(RateLimitPolicy, TheSectionIsParsedWithItsSource) {
  Policy policy = policyFrom(R"(
rate_limits:
  - tool: "mcp__github__*"
    max_calls: 30
    window: 1m
    per: agent
  - category: network
    max_concurrent: 2
)");
  ASSERT_EQ(policy.rate_limits.size(), 2u);
  const RateLimit& first = policy.rate_limits[0];
  EXPECT_EQ(first.tool, "mcp__github__*");
  EXPECT_EQ(first.max_calls, 30u);
  EXPECT_EQ(first.window, 60s);
  EXPECT_EQ(first.per, RateLimitPer::Agent);
  EXPECT_EQ(first.source.line, 3u);
  EXPECT_EQ(policy.rate_limits[1].category, "network");
  EXPECT_EQ(policy.rate_limits[1].max_concurrent, 2u);
}

TEST(RateLimitPolicy, MistakesNameFileLineAndField) {
  auto error = [](const std::string& text) {
    try {
      policyFrom(text);
    } catch (const PolicyError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("rate_limits:\n  - tool: x\n    max_calls: 3\n    window: soon\n")
                .find("limits.yaml:4:13: rate_limits[0].window"),
            std::string::npos);
  EXPECT_NE(error("rate_limits:\n  - tool: x\n    max_calls: 3\n").find("go together"),
            std::string::npos);
  EXPECT_NE(error("rate_limits:\n  - tool: x\n    per: user\n    max_concurrent: 1\n")
                .find("expected session or agent"),
            std::string::npos);
  EXPECT_NE(error("rate_limits:\n  - tool: x\n").find("expected max_calls"), std::string::npos);
  EXPECT_NE(error("rate_limits: 3\n").find("expected a list"), std::string::npos);
}

RateLimit callsPer(std::string tool, size_t calls, std::chrono::milliseconds window) {
  RateLimit limit;
  limit.tool = std::move(tool);
  limit.max_calls = calls;
  limit.window = window;
  return limit;
}

TEST(RateLimiter, AWindowAdmitsItsCountThenSaysWhenToRetry) {
  RateLimiter limiter({callsPer("search", 3, 10s)});
  ToolInfo info;
  auto t0 = std::chrono::steady_clock::time_point{} + 1h;
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(limiter.admit(callIn("search", "a"), info, t0 + i * 1s).admitted);
  }
  RateLimitAdmission full = limiter.admit(callIn("search", "a"), info, t0 + 4s);
  EXPECT_FALSE(full.admitted);
  EXPECT_NE(full.reason.find("at most 3 calls of search"), std::string::npos) << full.reason;
  EXPECT_NE(full.reason.find("retry in 6 s"), std::string::npos) << full.reason;
  EXPECT_TRUE(limiter.admit(callIn("search", "b"), info, t0 + 4s).admitted);   // other session
  EXPECT_TRUE(limiter.admit(callIn("fetch", "a"), info, t0 + 4s).admitted);    // other tool
  EXPECT_TRUE(limiter.admit(callIn("search", "a"), info, t0 + 10s).admitted);  // first expired
}

TEST(RateLimiter, ACancelledCallGivesItsPlaceBack) {
  RateLimiter limiter({callsPer("*", 1, 10s)});
  ToolInfo info;
  auto now = std::chrono::steady_clock::now();
  RateLimitAdmission first = limiter.admit(callIn("x", "a"), info, now);
  ASSERT_TRUE(first.admitted);
  EXPECT_FALSE(limiter.admit(callIn("x", "a"), info, now).admitted);
  first.ticket.cancel();
  EXPECT_TRUE(limiter.admit(callIn("x", "a"), info, now).admitted);
}

TEST(RateLimiter, ConcurrencyCountsRunningCallsPerAgent) {
  RateLimit limit;
  limit.tool = "mcp__*";
  limit.max_concurrent = 2;
  limit.per = RateLimitPer::Agent;
  RateLimiter limiter({limit});
  ToolInfo info;
  RateLimitAdmission a = limiter.admit(callIn("mcp__db__query", "s1", "bot"), info);
  RateLimitAdmission b = limiter.admit(callIn("mcp__db__query", "s2", "bot"), info);
  ASSERT_TRUE(a.admitted && b.admitted);
  RateLimitAdmission c = limiter.admit(callIn("mcp__db__query", "s3", "bot"), info);
  EXPECT_FALSE(c.admitted);
  EXPECT_NE(c.reason.find("may run at once"), std::string::npos);
  EXPECT_TRUE(limiter.admit(callIn("mcp__db__query", "s3", "other"), info).admitted);
  a.ticket.release();
  EXPECT_TRUE(limiter.admit(callIn("mcp__db__query", "s3", "bot"), info).admitted);
}

TEST(RateLimiter, CategoryLimitsCountOnlyThatCategory) {
  RateLimit limit = callsPer("*", 1, 1h);
  limit.category = "network";
  RateLimiter limiter({limit});
  ToolInfo web;
  web.metadata.category = "network";
  ToolInfo local;
  local.metadata.category = "filesystem";
  EXPECT_TRUE(limiter.admit(callIn("fetch", "a"), web).admitted);
  EXPECT_FALSE(limiter.admit(callIn("fetch2", "a"), web).admitted);
  EXPECT_TRUE(limiter.admit(callIn("read", "a"), local).admitted);
}

TEST(RateLimitGuard, OverTheLimitIsDenyAndDeniedCallsDoNotCount) {
  Engine engine = PolicyBuilder()
                      .allow("search")
                      .deny("search_forbidden")
                      .rateLimit(callsPer("search*", 2, 1h))
                      .build();
  Guard guard(engine);
  EXPECT_EQ(guard.decide(callIn("search_forbidden", "a")).verdict, Verdict::Deny);
  EXPECT_EQ(guard.decide(callIn("search", "a")).verdict, Verdict::Allow);
  EXPECT_EQ(guard.decide(callIn("search", "a")).verdict, Verdict::Allow);
  Decision third = guard.decide(callIn("search", "a"));
  EXPECT_EQ(third.verdict, Verdict::Deny);
  EXPECT_EQ(third.basis, DecisionBasis::RateLimit);
  EXPECT_NE(third.model_reason.find("retry in"), std::string::npos) << third.model_reason;
}

TEST(RateLimitGuard, ARunningCallHoldsItsConcurrencyPlace) {
  RateLimit limit;
  limit.tool = "build";
  limit.max_concurrent = 1;
  Guard guard(PolicyBuilder().allow("build").rateLimit(limit).build());
  {
    RateLimitTicket running;
    EXPECT_EQ(guard.decide(callIn("build", "a"), running).verdict, Verdict::Allow);
    EXPECT_EQ(guard.decide(callIn("build", "a")).verdict, Verdict::Deny);
  }
  EXPECT_EQ(guard.decide(callIn("build", "a")).verdict, Verdict::Allow);
}

TEST(RateLimiter, CountersOfSessionsThatStoppedCallingAreFreed) {
  RateLimit running;
  running.tool = "build";
  running.max_concurrent = 1;
  RateLimiter limiter({callsPer("build", 5, 10s), running});
  const auto start = std::chrono::steady_clock::now();
  // 1,000 sessions call once each: two counters each (the window, running).
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(limiter.admit(callIn("build", "old" + std::to_string(i)), {}, start).admitted);
  }
  EXPECT_GE(limiter.countersHeld(), 1000u);  // their windows have not passed yet
  // Later, other sessions call: the old ones' windows have passed, their
  // counters are freed as new ones are added (before: 4,000 held).
  const auto later = start + 11s;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(limiter.admit(callIn("build", "new" + std::to_string(i)), {}, later).admitted);
  }
  EXPECT_LE(limiter.countersHeld(), 2100u);
  // A counter in use is never freed: a session over its window limit stays refused.
  RateLimiter busy({callsPer("build", 1, 1h)});
  ASSERT_TRUE(busy.admit(callIn("build", "keep"), {}, start).admitted);
  for (int i = 0; i < 500; ++i) busy.admit(callIn("build", "s" + std::to_string(i)), {}, later);
  EXPECT_FALSE(busy.admit(callIn("build", "keep"), {}, later).admitted);
  // And one whose call is still running is kept until it finishes.
  RateLimiter held({running});
  RateLimitAdmission first = held.admit(callIn("build", "keep"), {}, start);
  ASSERT_TRUE(first.admitted);
  for (int i = 0; i < 500; ++i) held.admit(callIn("build", "s" + std::to_string(i)), {}, later);
  EXPECT_FALSE(held.admit(callIn("build", "keep"), {}, later).admitted);
  first.ticket.release();
  EXPECT_TRUE(held.admit(callIn("build", "keep"), {}, later).admitted);
}

TEST(RateLimitGuard, AnAskedCallDoesNotHoldItsPlaceWhileAPersonDecides) {
  RateLimit one_at_a_time;
  one_at_a_time.tool = "deploy*";
  one_at_a_time.max_concurrent = 1;
  GuardOptions options;
  Guard* guard_ptr = nullptr;
  Verdict during_ask = Verdict::Ask;
  options.approval_handler = callbackApprovalHandler([&](const ApprovalRequest&) {
    // While the person decides, another call under the same limit runs.
    RateLimitTicket other;
    during_ask = guard_ptr->decide(callIn("deploy_status", "a"), other).verdict;
    return ApprovalAnswer{ApprovalOutcome::AllowOnce, 0, ApprovalScope::Session, ""};
  });
  Guard guard(PolicyBuilder()
                  .requireApproval("deploy")
                  .allow("deploy_status")
                  .rateLimit(one_at_a_time)
                  .rateLimit(callsPer("deploy*", 3, 1h))
                  .build(),
              options);
  guard_ptr = &guard;
  RateLimitTicket running;
  Decision asked = guard.decide(callIn("deploy", "a"), running);
  EXPECT_EQ(during_ask, Verdict::Allow);  // before: denied, the asked call held the place
  EXPECT_EQ(asked.verdict, Verdict::Allow);
  // Once allowed, the call holds its place again while it runs ...
  Decision meanwhile = guard.decide(callIn("deploy_status", "a"));
  EXPECT_EQ(meanwhile.verdict, Verdict::Deny);
  EXPECT_NE(meanwhile.reason.find("at once"), std::string::npos) << meanwhile.reason;
  running.release();
  // ... and each call is counted once in the window (3: two so far).
  EXPECT_EQ(guard.decide(callIn("deploy_status", "a")).verdict, Verdict::Allow);
  EXPECT_EQ(guard.decide(callIn("deploy_status", "a")).basis, DecisionBasis::RateLimit);
}

TEST(RateLimitGuard, ACallApprovedAfterTheLimitFilledIsDeniedForTheLimit) {
  GuardOptions options;
  Guard* guard_ptr = nullptr;
  options.approval_handler = callbackApprovalHandler([&](const ApprovalRequest&) {
    EXPECT_EQ(guard_ptr->decide(callIn("deploy_status", "a")).verdict, Verdict::Allow);
    return ApprovalAnswer{ApprovalOutcome::AllowOnce, 0, ApprovalScope::Session, ""};
  });
  Guard guard(PolicyBuilder()
                  .requireApproval("deploy")
                  .allow("deploy_status")
                  .rateLimit(callsPer("deploy*", 1, 1h))
                  .build(),
              options);
  guard_ptr = &guard;
  Decision d = guard.decide(callIn("deploy", "a"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.basis, DecisionBasis::RateLimit);
  ASSERT_TRUE(d.approval);
  EXPECT_EQ(d.approval->outcome, "allow-once");  // the person's answer is still recorded
}

}  // namespace rate_limit_test
}  // namespace toolguard
