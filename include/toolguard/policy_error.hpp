#pragma once
// Errors in policy files and policy definitions.

#include <stdexcept>
#include <string>
#include <vector>

#include "toolguard/source_location.hpp"

namespace toolguard {

/// One problem found in a policy, with where it is.
struct PolicyDiagnostic {
  SourceLocation where;
  std::string message;

  /// "file:line:column: message".
  std::string toString() const;
};

/// Thrown when a policy cannot be loaded; carries every error found.
/// A policy that fails to load is never used (fail closed).
class PolicyError : public std::runtime_error {
 public:
  explicit PolicyError(std::vector<PolicyDiagnostic> errors);
  PolicyError(SourceLocation where, std::string message);

  const std::vector<PolicyDiagnostic>& errors() const { return errors_; }

 private:
  std::vector<PolicyDiagnostic> errors_;
};

}  // namespace toolguard
