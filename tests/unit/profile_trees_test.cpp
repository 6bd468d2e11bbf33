// The built-in profiles are loaded from document trees stored at build time
// (tools/embed_profiles.cpp): each tree is the one its YAML text gives, and a
// profile loaded from its tree is the profile loaded from its text.
#include <gtest/gtest.h>

#include <string>

#include "policy/doc_node.hpp"
#include "policy/doc_node_yaml.hpp"
#include "policy/embedded_profiles.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::detail {
namespace profile_trees_test {

std::string_view treeBytes(const EmbeddedProfile& profile) {
  return {reinterpret_cast<const char*>(profile.tree), profile.tree_size};
}

TEST(ProfileTrees, EachStoredTreeIsTheTreeOfItsText) {
  ASSERT_GT(kEmbeddedProfileCount, 0u);
  for (size_t i = 0; i < kEmbeddedProfileCount; ++i) {
    const EmbeddedProfile& profile = kEmbeddedProfiles[i];
    const std::string name = std::string("<profile:") + profile.name + ">";
    EXPECT_EQ(decodeDocNode(treeBytes(profile)), parseYamlDocument(profile.text, name))
        << profile.name;
  }
}

TEST(ProfileTrees, AProfileFromItsTreeIsTheProfileFromItsText) {
  for (const std::string& name : policyProfiles()) {
    Policy from_tree, from_text;
    ASSERT_TRUE(mergeProfile(from_tree, name, PolicyLayer::Builtin, ProfileExamples::Read));
    mergePolicyText(from_text, policyProfileText(name), "<profile:" + name + ">",
                    PolicyLayer::Builtin);
    ASSERT_EQ(from_tree.rules.size(), from_text.rules.size()) << name;
    for (size_t r = 0; r < from_tree.rules.size(); ++r) {
      EXPECT_EQ(from_tree.rules[r]->id(), from_text.rules[r]->id());
      EXPECT_EQ(from_tree.rules[r]->source().toString(), from_text.rules[r]->source().toString());
      EXPECT_EQ(from_tree.rules[r]->describe(), from_text.rules[r]->describe());
      EXPECT_EQ(from_tree.rules[r]->examples().size(), from_text.rules[r]->examples().size());
    }
    EXPECT_EQ(from_tree.default_verdict, from_text.default_verdict) << name;
    EXPECT_FALSE(mergeProfile(from_tree, "no-such-profile", PolicyLayer::Builtin));
  }
}

// A program that only decides leaves the profiles' examples unread; the
// rules are the same.
TEST(ProfileTrees, ExamplesAreReadOnlyWhenAskedFor) {
  for (const std::string& name : policyProfiles()) {
    Policy skipped, read;
    ASSERT_TRUE(mergeProfile(skipped, name, PolicyLayer::Builtin));
    ASSERT_TRUE(mergeProfile(read, name, PolicyLayer::Builtin, ProfileExamples::Read));
    ASSERT_EQ(skipped.rules.size(), read.rules.size()) << name;
    size_t examples = 0;
    for (size_t r = 0; r < read.rules.size(); ++r) {
      EXPECT_EQ(skipped.rules[r]->describe(), read.rules[r]->describe());
      // Rules written in the profile (not the built-in rule sets it names).
      if (!read.rules[r]->source().toString().starts_with("<profile:")) continue;
      EXPECT_TRUE(skipped.rules[r]->examples().empty()) << skipped.rules[r]->id();
      examples += read.rules[r]->examples().size();
    }
    EXPECT_GT(examples, 0u) << name;
  }
}

// Programs do not check the built-in layer's examples when they load it
// (it costs milliseconds); this test does, for every profile.
TEST(ProfileTrees, EveryProfilesExamplesPass) {
  for (const std::string& name : policyProfiles()) {
    Policy policy;
    ASSERT_TRUE(mergeProfile(policy, name, PolicyLayer::Builtin, ProfileExamples::Read));
    size_t examples = 0;
    for (const auto& rule : policy.rules) examples += rule->examples().size();
    EXPECT_GT(examples, 0u) << name;
    for (const PolicyDiagnostic& failure : checkRuleExamples(policy, /*include_builtin=*/true)) {
      ADD_FAILURE() << name << ": " << failure.toString();
    }
  }
}

TEST(ProfileTrees, TreesSurviveTheirCompactFormAndDamageIsAnError) {
  const DocNode tree = parseYamlDocument(
      "a: [1, \"2\", {b: ~}]\n\xc3\xa9t\xc3\xa9: |\n  long\n  text\nempty:\n", "t.yaml");
  const std::string bytes = encodeDocNode(tree);
  EXPECT_EQ(decodeDocNode(bytes), tree);
  EXPECT_TRUE(tree.value(0)[1].quoted());
  EXPECT_EQ(tree.value(0).line(), 1u);
  EXPECT_EQ(tree.value(0).column(), 4u);
  EXPECT_THROW(decodeDocNode(bytes.substr(0, bytes.size() - 1)), std::runtime_error);
  EXPECT_THROW(decodeDocNode(bytes + "x"), std::runtime_error);
  EXPECT_THROW(decodeDocNode(std::string(1, '\x7f')), std::runtime_error);
}

TEST(ProfileTrees, AliasesThatExpandWithoutBoundAreALoadError) {
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 8; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev + ", " + prev +
            ", " + prev + ", " + prev + ", " + prev + ", " + prev + ", " + prev + ", " + prev +
            ", " + prev + ", " + prev + "]\n";
  }
  try {
    Policy policy;
    mergePolicyText(policy, text, "bomb.yaml", PolicyLayer::Project);
    FAIL() << "loaded";
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find("bomb.yaml:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("aliases are expanded"), std::string::npos) << e.what();
  }
}

}  // namespace profile_trees_test
}  // namespace toolguard::detail
