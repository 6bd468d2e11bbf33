#pragma once
// `toolguard explain`'s text output, rendered from its JSON report.

#include <nlohmann/json.hpp>
#include <string>

namespace toolguard::cli {

/// The readable text of an explainReport (or explainFailure) document.
std::string explainText(const nlohmann::json& report);

}  // namespace toolguard::cli
