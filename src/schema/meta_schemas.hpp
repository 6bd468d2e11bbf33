#pragma once
// The built-in meta-schemas (drafts 4, 6, 7, 2019-09 and 2020-12, with the
// vocabulary meta-schemas of the last two), and the "$schema" URIs that name
// a draft.

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "toolguard/json_schema.hpp"

namespace toolguard::schema {

/// The draft a "$schema" URI names ("http://json-schema.org/draft-07/schema#",
/// "https://json-schema.org/draft/2020-12/schema", with or without "#", http
/// or https), or nullopt for any other URI.
std::optional<SchemaDraft> draftOfMetaSchema(std::string_view uri);

/// A built-in document and the draft it is written in.
struct BuiltInDocument {
  const nlohmann::json* json = nullptr;
  SchemaDraft draft = SchemaDraft::Draft7;
};

/// The built-in document published at `uri` (a meta-schema or a vocabulary
/// meta-schema; any of the spellings draftOfMetaSchema() takes), parsed on
/// first use; nullopt when none is.
std::optional<BuiltInDocument> builtInDocument(std::string_view uri);

/// The URI of the meta-schema of `draft`, without fragment.
std::string metaSchemaUri(SchemaDraft draft);

/// One document's published URI and text.
struct MetaSchemaText {
  const char* uri;
  const char* json;
};

/// The draft 2019-09 meta-schema and its vocabulary meta-schemas.
std::span<const MetaSchemaText> metaSchemas2019_09();
/// The draft 2020-12 meta-schema and its vocabulary meta-schemas.
std::span<const MetaSchemaText> metaSchemas2020_12();

}  // namespace toolguard::schema
