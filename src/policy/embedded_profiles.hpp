#pragma once
// Internal: the ready-made profiles compiled into the library (generated).
#include <cstddef>
#include <string>
#include <string_view>

#include "toolguard/policy.hpp"

namespace toolguard::detail {

/// One profile of policies/ (tools/embed_profiles.cpp writes the table).
struct EmbeddedProfile {
  const char* name;
  const char* text;           ///< the YAML as written
  const unsigned char* tree;  ///< its document tree (encodeDocNode)
  size_t tree_size;
};

extern const EmbeddedProfile kEmbeddedProfiles[];
extern const size_t kEmbeddedProfileCount;

/// "unknown profile 'nope'; the profiles are default, safe-chat, ..."
/// (with "did you mean" when one is close).
std::string unknownProfileMessage(std::string_view name);

/// Whether a profile's rules keep their examples. A program that only
/// decides never looks at them (the test suite checks them, and `toolguard
/// test --builtin` runs them), so reading them is left out by default.
enum class ProfileExamples { Skip, Read };

/// Merges the profile `name` into `policy` from its stored tree, as
/// mergePolicyText would from its text; false when there is no such profile.
bool mergeProfile(Policy& policy, std::string_view name, PolicyLayer layer,
                  ProfileExamples examples = ProfileExamples::Skip);

}  // namespace toolguard::detail
