#pragma once
// Internal: the ready-made profiles compiled into the library (generated).
#include <cstddef>

namespace toolguard::detail {

struct EmbeddedProfile {
  const char* name;
  const char* text;
};

extern const EmbeddedProfile kEmbeddedProfiles[];
extern const size_t kEmbeddedProfileCount;

}  // namespace toolguard::detail
