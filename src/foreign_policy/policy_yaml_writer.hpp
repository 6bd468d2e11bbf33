#pragma once
// Internal: a parsed policy document written back as a toolguard policy file
// (what `toolguard policy import` prints).

#include <string>

#include "foreign_policy.hpp"

namespace toolguard::detail {

/// The YAML text of `imported`: a comment saying where it came from, the
/// import's notes, and each rule preceded by a comment naming its source
/// line. Loading the text gives the same decisions as the source.
std::string writePolicyYaml(const ForeignPolicy& imported, const std::string& source_description);

}  // namespace toolguard::detail
