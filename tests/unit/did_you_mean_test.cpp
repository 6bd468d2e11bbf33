// "Did you mean": the suggestions for mistyped sub-commands, keys, verdicts
// and profiles (src/policy/did_you_mean.hpp), and the policy messages that
// use them.
#include "policy/did_you_mean.hpp"

#include <gtest/gtest.h>

#include "policy/embedded_profiles.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace did_you_mean_test {

using detail::didYouMean;
using detail::splitNameList;
using detail::unknownNameMessage;

TEST(DidYouMean, SuggestsTheClosestNames) {
  const std::vector<std::string> commands = {"check", "explain", "test", "policy", "audit"};
  EXPECT_EQ(didYouMean("chek", commands), " (did you mean 'check'?)");
  EXPECT_EQ(didYouMean("exlpain", commands), " (did you mean 'explain'?)");  // a swap
  EXPECT_EQ(didYouMean("pol", commands), " (did you mean 'policy'?)");       // a beginning
  EXPECT_EQ(didYouMean("frobnicate", commands), "");
  EXPECT_EQ(didYouMean("", commands), "");
  EXPECT_EQ(didYouMean("tset", {"test", "tset2", "rest"}), " (did you mean 'test' or 'tset2'?)");
}

TEST(DidYouMean, NameListsAndMessages) {
  EXPECT_EQ(splitNameList("allow, ask,deny ,  abort"),
            (std::vector<std::string>{"allow", "ask", "deny", "abort"}));
  EXPECT_TRUE(splitNameList("").empty());
  EXPECT_EQ(unknownNameMessage("unknown key", "verdit", " in a rule", "id, tool, verdict"),
            "unknown key 'verdit' in a rule (did you mean 'verdict'?)");
  EXPECT_EQ(unknownNameMessage("unknown key", "zzz", "", "id, tool"),
            "unknown key 'zzz' (expected id, tool)");
}

std::string loadError(const std::string& text) {
  try {
    Policy policy;
    mergePolicyText(policy, text, "p.yaml", PolicyLayer::Explicit);
  } catch (const PolicyError& e) {
    return e.errors().front().toString();
  }
  return "no error";
}

TEST(DidYouMean, PolicyFilesSuggestKeysVerdictsAndKinds) {
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"rules:\n  - {id: a, tool: Bash, verdit: deny}\n",
            "p.yaml:2:25: unknown key 'verdit' in a rule (did you mean 'verdict'?)"},
           {"rules:\n  - {id: a, tool: Bash, verdict: dney}\n",
            "verdict: unknown value 'dney' (did you mean 'deny'?)"},
           {"rules:\n  - {id: a, kind: shel, verdict: deny}\n",
            "kind: unknown kind 'shel' (did you mean 'shell'?)"},
           {"tools:\n  x: {kidn: shell}\n", "unknown key 'kidn' in a tool (did you mean 'kind'?)"},
           {"rules:\n  - {id: a, shell: {comand: ls}, verdict: deny}\n",
            "shell: unknown matcher 'comand' (did you mean 'command'?)"},
           {"rules:\n  - {id: a, args: {url: {web_url: private}}, verdict: allow}\n",
            "p.yaml:2:35: args.url.web_url: expected public or loopback"},
           {"rules:\n  - {id: a, args: {url: {web_ur: public}}, verdict: allow}\n",
            "unknown matcher 'web_ur' (did you mean 'web_url'?)"},
           {"rules:\n  - {id: a, tool: Bash, sandbox: maybe, verdict: allow}\n",
            "p.yaml:2:34: sandbox: expected required"},
           {"defualt: deny\n", "unknown key 'defualt' (did you mean 'default'?)"}}) {
    EXPECT_NE(loadError(text).find(message), std::string::npos) << loadError(text);
  }
}

TEST(DidYouMean, AnUnknownProfileListsTheProfiles) {
  const std::string message = detail::unknownProfileMessage("safe-caht");
  EXPECT_NE(message.find("unknown profile 'safe-caht' (did you mean 'safe-chat'?)"),
            std::string::npos)
      << message;
  for (const std::string& name : policyProfiles()) {
    EXPECT_NE(message.find(name), std::string::npos) << name;
  }
  PolicySources sources;
  sources.profiles = {"nope"};
  try {
    loadPolicy(sources);
    ADD_FAILURE() << "loaded";
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find("the profiles are default, "), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(PolicyBuilder().profile("nope"), PolicyError);
}

}  // namespace did_you_mean_test
}  // namespace toolguard
