// "$schema" to a dialect: built-in meta-schemas, and custom meta-schemas with
// "$vocabulary" (2019-09 and 2020-12).
#include "schema/dialect.hpp"

#include "schema/meta_schemas.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

// What a vocabulary URI of `draft` turns on; nullopt for a vocabulary
// toolguard does not know (or will not honour: format assertion).
std::optional<unsigned> vocabularyBits(std::string_view uri, SchemaDraft draft) {
  const std::string prefix = draft == SchemaDraft::Draft2019_09
                                 ? "https://json-schema.org/draft/2019-09/vocab/"
                                 : "https://json-schema.org/draft/2020-12/vocab/";
  if (uri.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view name = uri.substr(prefix.size());
  if (name == "applicator") {
    return draft == SchemaDraft::Draft2019_09 ? kApplicator | kUnevaluated : kApplicator;
  }
  if (name == "unevaluated" && draft == SchemaDraft::Draft2020_12) return kUnevaluated;
  if (name == "validation") return kValidation;
  // Annotations only: toolguard reads them as such (format is never asserted).
  if (name == "core" || name == "meta-data" || name == "content") return 0u;
  if (name == "format" && draft == SchemaDraft::Draft2019_09) return 0u;
  if (name == "format-annotation" && draft == SchemaDraft::Draft2020_12) return 0u;
  return std::nullopt;
}

// The dialect a custom meta-schema (found in the store) defines.
Dialect customDialect(const Json& meta, const std::string& uri, const std::string& where) {
  auto fail = [&](const std::string& why) {
    throw SchemaError(where, "\"$schema\" " + quoteText(uri, 200) + " " + why);
  };
  if (!meta.is_object()) fail("is not a schema object");
  auto declared = meta.find("$schema");
  if (declared == meta.end() || !declared->is_string()) {
    fail("has no \"$schema\" of its own, so its dialect is unknown");
  }
  std::optional<SchemaDraft> draft = draftOfMetaSchema(declared->get_ref<const std::string&>());
  if (!draft || !atLeast(*draft, SchemaDraft::Draft2019_09)) {
    fail("is a meta-schema written in " + quoteText(declared->get<std::string>(), 200) +
         "; a custom meta-schema must be written in 2019-09 or 2020-12");
  }
  Dialect dialect{*draft, kAllVocabularies};
  auto vocabularies = meta.find("$vocabulary");
  if (vocabularies == meta.end()) return dialect;
  if (!vocabularies->is_object()) fail("has a \"$vocabulary\" that is not an object");
  dialect.vocabularies = 0;
  for (auto it = vocabularies->begin(); it != vocabularies->end(); ++it) {
    if (!it.value().is_boolean()) fail("has a \"$vocabulary\" value that is not a boolean");
    std::optional<unsigned> bits = vocabularyBits(it.key(), *draft);
    if (bits) {
      dialect.vocabularies |= *bits;
    } else if (it.value().get<bool>()) {
      fail("requires the vocabulary " + quoteText(it.key(), 200) +
           ", which toolguard does not implement");
    }
  }
  return dialect;
}

}  // namespace

Dialect dialectOf(const Json& document, SchemaDraft fallback, const SchemaStore* store,
                  const std::string& at) {
  if (!document.is_object()) return {fallback, kAllVocabularies};
  auto declared = document.find("$schema");
  if (declared == document.end()) return {fallback, kAllVocabularies};
  const std::string where = at + "/$schema";
  if (!declared->is_string()) throw SchemaError(where, "\"$schema\" must be a string");
  const std::string& uri = declared->get_ref<const std::string&>();
  if (auto draft = draftOfMetaSchema(uri)) return {*draft, kAllVocabularies};
  if (const Json* meta = store != nullptr ? store->find(uri) : nullptr) {
    return customDialect(*meta, uri, where);
  }
  throw SchemaError(where,
                    "unsupported \"$schema\" " + quoteText(uri, 200) +
                        ": toolguard reads drafts 4, 6, 7, 2019-09 and 2020-12 "
                        "(\"https://json-schema.org/draft/2020-12/schema\", "
                        "\"http://json-schema.org/draft-07/schema#\" ...) and meta-schemas added "
                        "to the SchemaStore; set SchemaOptions::draft to read the schema as one "
                        "of them");
}

}  // namespace toolguard::schema
