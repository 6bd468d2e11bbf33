#pragma once
// Policy layers of a test's own: user, project and managed directories in a
// temporary directory, without the built-in layer, and the warnings loading
// them gave.
#include <string>

#include "support/temp_dir.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::testing {

struct PolicyLayers {
  TempDir dir;
  PolicySources sources() const {
    PolicySources s;
    s.builtin = false;
    s.user_dir = dir.path() / "user";
    s.project_roots = {dir.path() / "project"};
    s.managed_dir = dir.path() / "managed";
    return s;
  }
  void user(const std::string& text) const { dir.write("user/10-user.yaml", text); }
  void project(const std::string& text) const { dir.write("project/.toolguard/policy.yaml", text); }
  void managed(const std::string& text) const { dir.write("managed/policy.yml", text); }
  /// True when loading gave a warning that contains `needle`.
  static bool hasWarning(const Policy& p, const std::string& needle) {
    for (const auto& w : p.warnings) {
      if (w.message.find(needle) != std::string::npos) return true;
    }
    return false;
  }
};

}  // namespace toolguard::testing
