#pragma once
// The keyword compilers: each reads its keywords from the schema object in
// `scope`, checks their values (SchemaError when malformed) and adds the
// compiled checks. The compiler calls them in this order, which is also the
// order violations are reported in.

#include <string>
#include <vector>

#include "schema/compiler.hpp"

namespace toolguard::schema {

/// type, enum, const.
void compileGeneralKeywords(Scope& scope);
/// minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf.
void compileNumberKeywords(Scope& scope);
/// minLength, maxLength, pattern.
void compileStringKeywords(Scope& scope);
/// items, additionalItems (up to 2019-09), prefixItems (2020-12), minItems,
/// maxItems, uniqueItems, contains, minContains and maxContains (2019-09 on).
void compileArrayKeywords(Scope& scope);
/// required, properties, patternProperties, additionalProperties,
/// minProperties, maxProperties, dependencies, dependentRequired and
/// dependentSchemas (2019-09 on), propertyNames.
void compileObjectKeywords(Scope& scope);
/// dependencies (both forms), dependentRequired, dependentSchemas.
void compileDependencyKeywords(Scope& scope);
/// From 2019-09 on: $ref (a keyword beside the others, no longer replacing
/// them), $dynamicRef (2020-12), $recursiveRef (2019-09).
void compileReferenceKeywords(Scope& scope);
/// unevaluatedProperties and unevaluatedItems (2019-09 on).
void compileUnevaluatedKeywords(Scope& scope);
/// Bounds on an array's items (minItems, maxItems) or an object's
/// properties (minProperties, maxProperties); `applies` is Array or Object.
void compileSizeBounds(Scope& scope, Applies applies, const char* min_keyword,
                       const char* max_keyword);
/// The value of `keyword` as an object (SchemaError otherwise).
const Json& objectValue(Scope& scope, const char* keyword);
/// `value` as an array of strings (SchemaError at `pointer`, naming `what`, otherwise).
std::vector<std::string> stringArray(Scope& scope, const Json& value, const std::string& pointer,
                                     const char* what);
/// allOf, anyOf, oneOf, not, if / then / else.
void compileCombinatorKeywords(Scope& scope);

}  // namespace toolguard::schema
