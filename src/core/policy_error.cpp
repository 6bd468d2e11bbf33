// Policy errors.
#include "toolguard/policy_error.hpp"

namespace toolguard {
namespace {

std::string joinDiagnostics(const std::vector<PolicyDiagnostic>& errors) {
  std::string out;
  for (const auto& e : errors) {
    if (!out.empty()) out += '\n';
    out += e.toString();
  }
  return out;
}

}  // namespace

std::string PolicyDiagnostic::toString() const {
  std::string location = where.toString();
  return location.empty() ? message : location + ": " + message;
}

PolicyError::PolicyError(std::vector<PolicyDiagnostic> errors)
    : std::runtime_error(joinDiagnostics(errors)), errors_(std::move(errors)) {}

PolicyError::PolicyError(SourceLocation where, std::string message)
    : PolicyError(std::vector<PolicyDiagnostic>{{std::move(where), std::move(message)}}) {}

}  // namespace toolguard
