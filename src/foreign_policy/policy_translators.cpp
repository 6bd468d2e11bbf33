// Looking a format up in the registry of policy translators.
#include "policy_translators.hpp"

namespace toolguard::detail {

const PolicyTranslator* translatorOfFile(std::string_view file) {
  for (const PolicyTranslator& t : policyTranslators()) {
    if (t.reads_file(file)) return &t;
  }
  return nullptr;
}

const PolicyTranslator* translatorNamed(std::string_view name) {
  for (const PolicyTranslator& t : policyTranslators()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

}  // namespace toolguard::detail
