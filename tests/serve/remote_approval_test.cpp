// remoteApprovalHandler: a program's own Guard sends its asks to a real
// `toolguard serve`; a person answers there; the Guard gets the answer.
#include <future>

#include "serve/serve_fixture.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_builder.hpp"

namespace toolguard::testing {
namespace remote_approval_test {

using nlohmann::json;

Guard guardAskingThrough(const std::string& url, const std::string& token,
                         std::chrono::milliseconds timeout) {
  GuardOptions options;
  options.approval_handler = remoteApprovalHandler(url, token);
  options.approval_timeout = timeout;
  return Guard(Engine(PolicyBuilder().profile("default").build()), options);
}

ToolCall pushCall() {
  ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", "git push origin main"}};
  call.context.cwd = "/tmp";
  call.context.session = "s1";
  return call;
}

TEST_F(Serve, AProgramsGuardSendsItsAsksToTheServiceQueue) {
  const std::string agent = token("agent", "embedded");
  const std::string approver = token("approver", "alice");
  auto server = start();
  Guard guard = guardAskingThrough(server->url(), agent, std::chrono::seconds(20));
  auto decided = std::async(std::launch::async, [&] { return guard.decide(pushCall()); });
  auto a = client(*server, approver);
  json asks = pendingAsks(*a, 1);
  ASSERT_EQ(asks.size(), 1u);
  EXPECT_EQ(asks[0]["agent"], "embedded");
  EXPECT_EQ(asks[0]["decision"]["rule"], "shell-unknown-command");
  // The page's view of the call is the service's own parse of it.
  const json& detail = asks[0]["decision"]["detail"];
  ASSERT_EQ(detail["commands"].size(), 1u) << detail;
  EXPECT_EQ(detail["commands"][0]["text"], "git push origin main") << detail;
  EXPECT_TRUE(detail["commands"][0]["findings"].empty()) << detail;
  auto r =
      a->Post("/v1/asks/" + asks[0]["id"].get<std::string>() + "/answer",
              R"({"answer":"always","binding":"pattern","scope":"session"})", "application/json");
  ASSERT_EQ(r->status, 200) << r->body;
  const Decision d = decided.get();
  EXPECT_EQ(d.verdict, Verdict::Allow) << d.reason;
  ASSERT_TRUE(d.approval);
  EXPECT_EQ(d.approval->by, "serve");
  EXPECT_EQ(d.approval->person, "alice");  // who answered reaches the program's decision
  EXPECT_NE(d.resolution.find("allowed always by alice through serve"), std::string::npos)
      << d.resolution;
  EXPECT_EQ(d.approval->value, "git push origin *");
  // Remembered by this Guard (its session), not by the service's store.
  ToolCall next = pushCall();
  next.args["command"] = "git push origin dev";
  EXPECT_EQ(guard.decide(next).verdict, Verdict::Allow);
  RunResult list = run({"approvals", "list"});
  EXPECT_EQ(list.out.find("git push origin *"), std::string::npos) << list.out;
}

TEST_F(Serve, ARemoteAskNobodyAnswersOrAServiceThatCannotBeAskedIsADeny) {
  const std::string agent = token("agent", "embedded");
  auto server = start();
  Guard waiting = guardAskingThrough(server->url(), agent, std::chrono::seconds(1));
  Decision d = waiting.decide(pushCall());
  EXPECT_EQ(d.verdict, Verdict::Deny);
  // The Guard's own timeout, or the service's expiry, whichever says it first.
  EXPECT_TRUE(d.reason.find("no answer within") != std::string::npos ||
              d.reason.find("no one answered") != std::string::npos)
      << d.reason;
  Guard wrong = guardAskingThrough(server->url(), "tg_not-a-token", std::chrono::seconds(5));
  d = wrong.decide(pushCall());
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.reason.find("401"), std::string::npos) << d.reason;
  Guard gone = guardAskingThrough("http://127.0.0.1:" + std::to_string(freePort()), agent,
                                  std::chrono::seconds(5));
  d = gone.decide(pushCall());
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.reason.find("could not be asked"), std::string::npos) << d.reason;
}

}  // namespace remote_approval_test
}  // namespace toolguard::testing
