#pragma once
// Internal: YAML nodes to JSON values and source locations.

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <string>

#include "policy/doc_node.hpp"
#include "toolguard/source_location.hpp"

namespace toolguard::detail {

/// The 1-based position of a node in file `name`.
SourceLocation locationOf(const YAML::Node& node, const std::string& name);

/// Converts YAML to JSON with the YAML 1.2 core schema: quoted scalars are
/// strings; plain `true`/`false`, `null`/`~`, integers and floats are typed; the
/// rest are strings (so `yes`, `no`, `on` stay strings).
nlohmann::json yamlToJson(const YAML::Node& node);

/// The position of a document node in file `name`.
SourceLocation locationOf(const DocNode& node, const std::string& name);

/// yamlToJson for a document node (one set of rules for both).
nlohmann::json docToJson(const DocNode& node);

}  // namespace toolguard::detail
