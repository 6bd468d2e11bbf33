#pragma once
// The built-in meta-schemas of drafts 4, 6 and 7, and the "$schema" URIs that name them.

#include <optional>
#include <string>
#include <string_view>

#include "toolguard/json_schema.hpp"

namespace toolguard::schema {

/// The draft a "$schema" URI names ("http://json-schema.org/draft-07/schema#",
/// with or without "#", http or https), or nullopt for any other URI.
std::optional<SchemaDraft> draftOfMetaSchema(std::string_view uri);

/// The meta-schema of `draft`, parsed on first use.
const nlohmann::json& metaSchema(SchemaDraft draft);

/// The URI of the meta-schema of `draft`, without fragment.
std::string metaSchemaUri(SchemaDraft draft);

}  // namespace toolguard::schema
