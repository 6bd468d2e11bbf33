#pragma once
// A fresh directory under the system's temp directory, for a benchmark's
// toolguard home (approvals, rate-limit windows). Left behind: benchmarks
// are run by hand.
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace toolguard::bench {

inline std::string tempHome() {
  std::string pattern = (std::filesystem::temp_directory_path() / "tg-bench-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

}  // namespace toolguard::bench
