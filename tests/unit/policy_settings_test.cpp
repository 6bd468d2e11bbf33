// The `paths:` and `limits:` sections of policy files, and how layers may
// change them.
#include <gtest/gtest.h>

#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace policy_settings_test {

Policy merged(std::initializer_list<std::pair<std::string, PolicyLayer>> files,
              bool trusted = false) {
  Policy policy;
  for (const auto& [text, layer] : files) {
    mergePolicyText(policy, text, std::string(toString(layer)) + ".yaml", layer, trusted);
  }
  return policy;
}

TEST(PolicySettings, PathsAndLimitsAreRead) {
  Policy p =
      merged({{"version: 1\n"
               "paths:\n"
               "  case_sensitivity: insensitive\n"
               "  follow_symlinks: true\n"
               "  workspace_roots: [/srv/shared, ~/libs]\n"
               "limits:\n"
               "  max_argument_bytes: 4096\n"
               "  max_argument_depth: 10\n",
               PolicyLayer::User}});
  EXPECT_EQ(p.paths.case_sensitivity, CaseSensitivity::Insensitive);
  EXPECT_EQ(p.paths.workspace_roots, (std::vector<std::string>{"/srv/shared", "~/libs"}));
  EXPECT_EQ(p.limits.max_bytes, 4096u);
  EXPECT_EQ(p.limits.max_depth, 10u);
}

TEST(PolicySettings, BadValuesAreErrorsWithLineAndColumn) {
  auto error = [](const std::string& text) {
    try {
      merged({{text, PolicyLayer::User}});
    } catch (const PolicyError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("paths:\n  case_sensitivity: maybe\n").find("user.yaml:2:21"), std::string::npos);
  EXPECT_NE(error("limits:\n  max_argument_depth: 1000\n").find("from 1 to 64"), std::string::npos);
  EXPECT_NE(error("limits:\n  max_argument_bytes: -1\n").find("whole number"), std::string::npos);
  EXPECT_NE(error("paths:\n  roots: [/x]\n").find("unknown key 'roots'"), std::string::npos);
  EXPECT_NE(error("builtin_rules: [secret]\n").find("(did you mean 'secrets'?)"),
            std::string::npos);
}

TEST(PolicySettings, AnUntrustedProjectCanTightenButNotLoosen) {
  Policy p = merged({{"limits: {max_argument_bytes: 100000}\n", PolicyLayer::User},
                     {"paths: {workspace_roots: [/], case_sensitivity: insensitive}\n"
                      "limits: {max_argument_bytes: 60000000, max_argument_depth: 5}\n",
                      PolicyLayer::Project}});
  EXPECT_TRUE(p.paths.workspace_roots.empty());
  EXPECT_EQ(p.paths.case_sensitivity, CaseSensitivity::Insensitive);  // tighter: kept
  EXPECT_EQ(p.limits.max_bytes, 100000u);                             // raise refused
  EXPECT_EQ(p.limits.max_depth, 5u);                                  // lower: kept
  ASSERT_EQ(p.warnings.size(), 2u);
  EXPECT_NE(p.warnings[0].message.find("workspace_roots ignored"), std::string::npos);
  EXPECT_NE(p.warnings[1].message.find("max_argument_bytes 60000000 ignored"), std::string::npos);
}

TEST(PolicySettings, ManagedSettingsCannotBeLoosenedLater) {
  Policy p = merged({{"paths: {follow_symlinks: true}\nlimits: {max_argument_bytes: 500}\n",
                      PolicyLayer::Managed},
                     {"paths: {follow_symlinks: false}\nlimits: {max_argument_bytes: 5000}\n",
                      PolicyLayer::Explicit}});
  EXPECT_TRUE(p.paths.follow_symlinks);
  EXPECT_EQ(p.limits.max_bytes, 500u);
  EXPECT_EQ(p.warnings.size(), 2u);
}

}  // namespace policy_settings_test
}  // namespace toolguard
