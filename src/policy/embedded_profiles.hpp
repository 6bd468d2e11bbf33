#pragma once
// Internal: the ready-made profiles compiled into the library (generated).
#include <cstddef>
#include <string>
#include <string_view>

namespace toolguard::detail {

struct EmbeddedProfile {
  const char* name;
  const char* text;
};

extern const EmbeddedProfile kEmbeddedProfiles[];
extern const size_t kEmbeddedProfileCount;

/// "unknown profile 'nope'; the profiles are default, read-only-chat, ..."
/// (with "did you mean" when one is close).
std::string unknownProfileMessage(std::string_view name);

}  // namespace toolguard::detail
