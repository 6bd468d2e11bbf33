// Looking up the embedded ready-made profiles.
#include "policy/embedded_profiles.hpp"
#include "toolguard/policy_builder.hpp"

namespace toolguard {

std::vector<std::string> policyProfiles() {
  std::vector<std::string> names;
  for (size_t i = 0; i < detail::kEmbeddedProfileCount; ++i) {
    names.emplace_back(detail::kEmbeddedProfiles[i].name);
  }
  return names;
}

const char* policyProfileText(std::string_view name) {
  for (size_t i = 0; i < detail::kEmbeddedProfileCount; ++i) {
    if (name == detail::kEmbeddedProfiles[i].name) return detail::kEmbeddedProfiles[i].text;
  }
  return nullptr;
}

}  // namespace toolguard
