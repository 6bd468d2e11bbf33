#pragma once
// Internal: the built-in guard skills compiled into the library (generated
// from guard-skills/*.md by cmake/embed_guard_skills.cmake).
#include <cstddef>

namespace toolguard::detail {

struct EmbeddedSkill {
  const char* file;  ///< the file name in guard-skills/, e.g. "bash.md"
  const char* text;  ///< the whole file
};

extern const EmbeddedSkill kEmbeddedSkills[];
extern const size_t kEmbeddedSkillCount;

}  // namespace toolguard::detail
