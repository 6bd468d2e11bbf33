#pragma once
// A schema's dialect: the draft its keywords are read in and, from 2019-09
// on, the vocabularies its meta-schema turns on ("$vocabulary"), taken from
// its "$schema".

#include <string>

#include "schema/json_values.hpp"
#include "toolguard/json_schema.hpp"

namespace toolguard::schema {

/// The vocabularies of drafts 2019-09 and 2020-12 whose keywords toolguard
/// reads (earlier drafts have them all). In 2019-09 the unevaluated*
/// keywords belong to the applicator vocabulary, so kUnevaluated goes with it.
enum Vocabulary : unsigned {
  kApplicator = 1,   // properties, items, allOf, if ...
  kUnevaluated = 2,  // unevaluatedProperties, unevaluatedItems
  kValidation = 4,   // type, enum, minimum, required ...
  kAllVocabularies = 7,
};

/// The draft and vocabularies a document is read with.
struct Dialect {
  SchemaDraft draft = SchemaDraft::Draft7;
  unsigned vocabularies = kAllVocabularies;
};

/// Whether `draft` is `since` or a later one.
inline bool atLeast(SchemaDraft draft, SchemaDraft since) {
  return static_cast<int>(draft) >= static_cast<int>(since);
}

/// The dialect of `document` (a document root) as its "$schema" names it: a
/// built-in meta-schema, or a meta-schema in `store` written in 2019-09 or
/// 2020-12 whose "$vocabulary" toolguard understands (a required vocabulary
/// it does not know, format assertion included, is refused); `fallback` when
/// it has no "$schema". Throws SchemaError at `at` + "/$schema" (`at` is ""
/// for the root schema, "URI#" for another document).
Dialect dialectOf(const Json& document, SchemaDraft fallback, const SchemaStore* store,
                  const std::string& at);

}  // namespace toolguard::schema
