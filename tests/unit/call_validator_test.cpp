// The validation callback through ToolRegistry and Guard: consulted after
// the policy, stricter only, fail closed.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "support/calls.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/tool_registry.hpp"

namespace toolguard {
namespace call_validator_test {

using nlohmann::json;
using testing::makeCall;

std::future<ValidationResult> ready(ValidationResult result) {
  std::promise<ValidationResult> promise;
  promise.set_value(std::move(result));
  return promise.get_future();
}

struct Fixture {
  std::atomic<int> runs{0};
  std::atomic<int> consulted{0};
  std::unique_ptr<ToolRegistry> registry;

  explicit Fixture(CallValidator validator, Policy policy = PolicyBuilder().buildPolicy(),
                   std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    GuardOptions options;
    options.validator = [this, validator](const ValidationContext& context, const ToolInfo& tool,
                                          const json& args) {
      ++consulted;
      return validator(context, tool, args);
    };
    options.validator_timeout = timeout;
    registry = std::make_unique<ToolRegistry>(std::move(policy), options);
    for (const char* name : {"query", "transfer"}) {
      ToolInfo info;
      info.name = name;
      info.policy = ToolPolicy::Allow;
      registry->registerTool(info, [this](const ToolInvocation&) {
        ++runs;
        return json("done");
      });
    }
  }
};

TEST(CallValidator, SeesContextToolAndArgumentsAndCanDeny) {
  ValidationContext seen;
  std::string seen_tool;
  json seen_args;
  Fixture f([&](const ValidationContext& context, const ToolInfo& tool, const json& args) {
    seen = context;
    seen_tool = tool.name;
    seen_args = args;
    return ready(args.value("amount", 0) > 100 ? ValidationResult::deny("over the limit")
                                               : ValidationResult::allow());
  });
  ToolCall call = makeCall("transfer", {{"amount", 500}});
  call.context.model = "m1";
  call.context.agent = "payer";
  call.context.session = "s9";
  ToolOutcome outcome = f.registry->executeTool(call);
  EXPECT_EQ(outcome.kind, OutcomeKind::Denied);
  EXPECT_EQ(outcome.reason, "Blocked by toolguard (validator): over the limit");
  EXPECT_EQ(outcome.decision->basis, DecisionBasis::Validator);
  EXPECT_EQ(seen.model, "m1");
  EXPECT_EQ(seen.agent, "payer");
  EXPECT_EQ(seen.session, "s9");
  EXPECT_EQ(seen_tool, "transfer");
  EXPECT_EQ(seen_args, (json{{"amount", 500}}));
  EXPECT_EQ(f.runs, 0);

  EXPECT_EQ(f.registry->executeTool(makeCall("transfer", {{"amount", 5}})).kind,
            OutcomeKind::Result);
  EXPECT_EQ(f.runs, 1);
}

TEST(CallValidator, AbortCarriesTheExtraData) {
  Fixture f([](const ValidationContext&, const ToolInfo&, const json&) {
    return ready(ValidationResult::abort("prompt injection suspected", {{"score", 0.97}}));
  });
  ToolOutcome outcome = f.registry->executeTool(makeCall("query"));
  EXPECT_EQ(outcome.kind, OutcomeKind::Aborted);
  EXPECT_EQ(outcome.extra, (json{{"score", 0.97}}));
  EXPECT_NE(outcome.reason.find("prompt injection suspected"), std::string::npos);
  EXPECT_EQ(outcome.decision->verdict, Verdict::Abort);
  EXPECT_EQ(f.runs, 0);
}

TEST(CallValidator, CannotLoosenThePolicyAndIsNotAskedAboutDeniedCalls) {
  Fixture f([](const ValidationContext&, const ToolInfo&,
               const json&) { return ready(ValidationResult::allow()); },
            PolicyBuilder().deny("transfer", "no transfers").buildPolicy());
  ToolOutcome outcome = f.registry->executeTool(makeCall("transfer"));
  EXPECT_EQ(outcome.kind, OutcomeKind::Denied);
  EXPECT_NE(outcome.reason.find("no transfers"), std::string::npos);
  EXPECT_EQ(f.consulted, 0);
  EXPECT_EQ(f.runs, 0);
}

TEST(CallValidator, AllowLeavesAnAskToBeApproved) {
  // Policy asks; the validator's allow does not approve it; with no
  // handler the ask is denied.
  Fixture f([](const ValidationContext&, const ToolInfo&,
               const json&) { return ready(ValidationResult::allow()); },
            PolicyBuilder().requireApproval("query").buildPolicy());
  ToolOutcome outcome = f.registry->executeTool(makeCall("query"));
  EXPECT_EQ(outcome.kind, OutcomeKind::Denied);
  EXPECT_EQ(outcome.decision->policy_verdict, Verdict::Ask);
  EXPECT_EQ(f.consulted, 1);
}

TEST(CallValidator, ThrowingBrokenOrSilentValidatorsDeny) {
  Fixture throwing(
      [](const ValidationContext&, const ToolInfo&, const json&) -> std::future<ValidationResult> {
        throw std::runtime_error("model unreachable");
      });
  ToolOutcome a = throwing.registry->executeTool(makeCall("query"));
  EXPECT_EQ(a.kind, OutcomeKind::Denied);
  EXPECT_NE(a.reason.find("model unreachable"), std::string::npos);

  Fixture broken([](const ValidationContext&, const ToolInfo&, const json&) {
    std::promise<ValidationResult> dropped;
    return dropped.get_future();  // broken promise
  });
  EXPECT_EQ(broken.registry->executeTool(makeCall("query")).kind, OutcomeKind::Denied);

  Fixture invalid([](const ValidationContext&, const ToolInfo&, const json&) {
    return std::future<ValidationResult>();
  });
  EXPECT_EQ(invalid.registry->executeTool(makeCall("query")).kind, OutcomeKind::Denied);

  auto never = std::make_shared<std::promise<ValidationResult>>();
  Fixture silent([never](const ValidationContext&, const ToolInfo&,
                         const json&) { return never->get_future(); },
                 PolicyBuilder().buildPolicy(), std::chrono::milliseconds(50));
  ToolOutcome c = silent.registry->executeTool(makeCall("query"));
  EXPECT_EQ(c.kind, OutcomeKind::Denied);
  EXPECT_NE(c.reason.find("did not answer in time"), std::string::npos) << c.reason;
  never->set_value(ValidationResult::allow());
  EXPECT_EQ(throwing.runs + broken.runs + invalid.runs + silent.runs, 0);
}

TEST(CallValidator, ADeferredFutureRunsOnTheGuardsThread) {
  Fixture f(
      [](const ValidationContext&, const ToolInfo&, const json& args) {
        return std::async(std::launch::deferred, [args] {
          return args.contains("drop") ? ValidationResult::deny("no drops")
                                       : ValidationResult::allow();
        });
      },
      PolicyBuilder().buildPolicy(), std::chrono::milliseconds(1));
  EXPECT_EQ(f.registry->executeTool(makeCall("query", {{"select", true}})).kind,
            OutcomeKind::Result);
  EXPECT_EQ(f.registry->executeTool(makeCall("query", {{"drop", true}})).kind, OutcomeKind::Denied);
}

TEST(CallValidator, ALateValidatorStillReadsValidArguments) {
  // Captures the arguments by reference and answers after the timeout.
  std::atomic<bool> read_ok{false};
  Fixture f(
      [&](const ValidationContext&, const ToolInfo& tool, const json& args) {
        return std::async(std::launch::async, [&tool, &args, &read_ok] {
          std::this_thread::sleep_for(std::chrono::milliseconds(80));
          read_ok = tool.name == "query" && args.value("q", "") == "still here";
          return ValidationResult::allow();
        });
      },
      PolicyBuilder().buildPolicy(), std::chrono::milliseconds(10));
  EXPECT_EQ(f.registry->executeTool(makeCall("query", {{"q", "still here"}})).kind,
            OutcomeKind::Denied);
  for (int i = 0; i < 200 && !read_ok; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(read_ok);
}

TEST(CallValidator, CancellationStopsTheWait) {
  auto never = std::make_shared<std::promise<ValidationResult>>();
  Fixture f([never](const ValidationContext&, const ToolInfo&, const json&) {
    return never->get_future();
  });
  CancellationToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    cancel.cancel();
  });
  ToolOutcome outcome = f.registry->executeTool(makeCall("query"), cancel);
  canceller.join();
  EXPECT_EQ(outcome.kind, OutcomeKind::Denied);
  EXPECT_NE(outcome.reason.find("cancelled"), std::string::npos) << outcome.reason;
  never->set_value(ValidationResult::allow());
}

TEST(CallValidator, AnAsyncValidatorAnswersLater) {
  Fixture f([](const ValidationContext& context, const ToolInfo&, const json& args) {
    return std::async(std::launch::async, [context, args] {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (context.cancellation.cancelled()) return ValidationResult::deny("cancelled");
      return args.contains("drop") ? ValidationResult::deny("no drops") : ValidationResult::allow();
    });
  });
  EXPECT_EQ(f.registry->executeTool(makeCall("query", {{"drop", true}})).kind, OutcomeKind::Denied);
  EXPECT_EQ(f.registry->executeTool(makeCall("query", {{"select", true}})).kind,
            OutcomeKind::Result);
}

}  // namespace call_validator_test
}  // namespace toolguard
