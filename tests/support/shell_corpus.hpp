#pragma once
// The calls of tests/data/shell-corpus.yaml, for tests that run something
// over every one of them.

#include <fstream>
#include <sstream>
#include <vector>

#include "toolguard/policy_tests.hpp"

namespace toolguard::testing {

/// Every case of the shell corpus (more than a thousand).
inline std::vector<PolicyTestCase> shellCorpusCases() {
  std::ifstream in(TOOLGUARD_SOURCE_DIR "/tests/data/shell-corpus.yaml");
  std::stringstream text;
  text << in.rdbuf();
  return parsePolicyTests(text.str(), "shell-corpus.yaml");
}

}  // namespace toolguard::testing
