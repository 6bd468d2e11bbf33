// Looking up the embedded ready-made profiles.
#include "policy/did_you_mean.hpp"
#include "policy/doc_node.hpp"
#include "policy/embedded_profiles.hpp"
#include "policy/policy_document.hpp"
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

namespace detail {

std::string unknownProfileMessage(std::string_view name) {
  const std::vector<std::string> names = policyProfiles();
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return "unknown profile '" + std::string(name) + "'" + didYouMean(name, names) +
         "; the profiles are " + list;
}

bool mergeProfile(Policy& policy, std::string_view name, PolicyLayer layer,
                  ProfileExamples examples) {
  for (size_t i = 0; i < kEmbeddedProfileCount; ++i) {
    const EmbeddedProfile& profile = kEmbeddedProfiles[i];
    if (name != profile.name) continue;
    const DocNode tree = decodeDocNode(
        std::string_view(reinterpret_cast<const char*>(profile.tree), profile.tree_size));
    const std::string source = "<profile:" + std::string(name) + ">";
    mergeDocument(policy,
                  // The profile's text is loaded with every check by the tests
                  // (ProfileTrees.AProfileFromItsTreeIsTheProfileFromItsText).
                  parsePolicyTree(tree, source, layer, policy.tools,
                                  examples == ProfileExamples::Read, TreeChecks::CheckedAtBuild),
                  layer, /*trusted=*/true);
    return true;
  }
  return false;
}

}  // namespace detail
}  // namespace toolguard
