// Uses an installed toolguard through its public headers: a ToolRegistry
// with an allowed and a denied tool, the default policy's decision on
// `rm -rf ~`, and the chat client (cpp-httplib) failing to connect to a
// closed local port. Exits 1 when anything is not as expected.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>

#include "toolguard/chat_client.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/tool_registry.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::cout << (ok ? "ok:   " : "FAIL: ") << what << '\n';
  if (!ok) ++failures;
}

}  // namespace

int main() {
  using namespace toolguard;
  try {
    ToolRegistry registry(PolicyBuilder().buildPolicy(), GuardOptions{});

    ToolInfo add;
    add.name = "add";
    add.description = "Adds two numbers";
    add.input_schema = {{"type", "object"},
                        {"properties", {{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}},
                        {"required", {"a", "b"}}};
    add.kind = ToolKind::Other;
    add.policy = ToolPolicy::Allow;
    registry.registerTool(add, [](const ToolInvocation& invocation) {
      return nlohmann::json(invocation.call.args.at("a").get<double>() +
                            invocation.call.args.at("b").get<double>());
    });

    ToolInfo wipe;
    wipe.name = "wipe_disk";
    wipe.description = "Erases everything";
    wipe.policy = ToolPolicy::Deny;
    bool wipe_ran = false;
    registry.registerTool(wipe, [&wipe_ran](const ToolInvocation&) {
      wipe_ran = true;
      return nlohmann::json("wiped");
    });

    CallContext context;
    context.cwd = std::filesystem::current_path().string();
    context.mode = InteractionMode::Headless;

    ToolOutcome sum = registry.executeTool({"add", {{"a", 2}, {"b", 3}}, context});
    std::cout << "add(2, 3): " << sum.toJson().dump() << '\n';
    expect(sum.ok() && sum.result == 5, "the allowed tool ran and returned 5");

    ToolOutcome wiped = registry.executeTool({"wipe_disk", nlohmann::json::object(), context});
    std::cout << "wipe_disk(): " << wiped.toJson().dump() << '\n';
    expect(wiped.kind == OutcomeKind::Denied && !wipe_ran, "the denied tool was denied, not run");

    nlohmann::json definitions = registry.toolDefinitions();
    expect(definitions.size() == 1 && definitions[0]["function"]["name"] == "add",
           "toolDefinitions() offers add only");

    // Interactive, so that a mere ask is not turned into a deny.
    CallContext interactive = context;
    interactive.mode = InteractionMode::Interactive;
    Engine engine(defaultRegistryPolicy());
    Decision decision = engine.decide({"Bash", {{"command", "rm -rf ~"}}, interactive});
    std::cout << "Bash `rm -rf ~`: " << toString(decision.verdict) << " (" << decision.rule_id
              << "): " << decision.reason << '\n';
    expect(decision.verdict == Verdict::Deny || decision.verdict == Verdict::Abort,
           "the default policy denies rm -rf ~");

    // Links the library's HTTP client: nothing listens on port 9 (discard).
    ChatEndpoint endpoint;
    endpoint.base_url = "http://127.0.0.1:9/v1";
    endpoint.model = "none";
    endpoint.timeout = std::chrono::seconds(2);
    ChatRequest request;
    request.messages.push_back(ChatMessage::user("hello"));
    ChatResult chat = ChatClient(endpoint).complete(request);
    std::cout << "chat to a closed port: "
              << (chat.error ? std::string(toString(chat.error->kind)) + ": " + chat.error->message
                             : std::string("a reply"))
              << '\n';
    expect(chat.error && chat.error->kind == ChatError::Kind::Connection,
           "the chat client reports a connection error");
  } catch (const std::exception& error) {
    std::cout << "FAIL: exception: " << error.what() << '\n';
    return 1;
  }
  std::cout << (failures == 0 ? "consumer: all checks passed" : "consumer: checks failed") << '\n';
  return failures == 0 ? 0 : 1;
}
