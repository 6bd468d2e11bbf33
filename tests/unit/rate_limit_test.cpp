// Rate limits: the policy section, the limiter's windows and concurrency,
// and how a Guard applies them.
#include <gtest/gtest.h>

#include "support/calls.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace {

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

}  // namespace
}  // namespace toolguard
