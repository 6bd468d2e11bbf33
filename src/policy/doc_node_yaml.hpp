#pragma once
// Internal: YAML text into the policy parser's DocNode tree.

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include "policy/doc_node.hpp"

namespace toolguard::detail {

/// The most nodes one document may have once its aliases are expanded (an
/// alias-of-aliases "billion laughs" file is a load error, not a hang).
inline constexpr std::size_t kMaxDocNodes = 200000;

/// The deepest a document's sequences and mappings may nest (yaml-cpp stops at
/// 500; every walk of the tree is recursive).
inline constexpr std::size_t kMaxDocDepth = 256;

/// The tree of a yaml-cpp node; throws PolicyError (at `name`) past kMaxDocNodes.
DocNode docNodeFromYaml(const YAML::Node& node, const std::string& name);

/// The tree of YAML text (read with libfyaml, src/policy/doc_node_fyaml.cpp);
/// throws PolicyError ("invalid YAML: ...", with the line and column) when it
/// does not parse.
DocNode parseYamlDocument(std::string_view text, const std::string& name);

/// The same tree read with yaml-cpp (what parseYamlDocument falls back to
/// where libfyaml 0.7.12 is known to read a scalar wrongly).
DocNode parseWithYamlCpp(std::string_view text, const std::string& name);

}  // namespace toolguard::detail
