#pragma once
// The keyword compilers: each reads its keywords from the schema object in
// `scope`, checks their values (SchemaError when malformed) and adds the
// compiled checks. The compiler calls them in this order, which is also the
// order violations are reported in.

#include "schema/compiler.hpp"

namespace toolguard::schema {

/// type, enum, const.
void compileGeneralKeywords(Scope& scope);
/// minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf.
void compileNumberKeywords(Scope& scope);
/// minLength, maxLength, pattern.
void compileStringKeywords(Scope& scope);
/// items, additionalItems, minItems, maxItems, uniqueItems, contains.
void compileArrayKeywords(Scope& scope);
/// required, properties, patternProperties, additionalProperties,
/// minProperties, maxProperties, dependencies, propertyNames.
void compileObjectKeywords(Scope& scope);
/// Bounds on an array's items (minItems, maxItems) or an object's
/// properties (minProperties, maxProperties); `applies` is Array or Object.
void compileSizeBounds(Scope& scope, Applies applies, const char* min_keyword,
                       const char* max_keyword);
/// allOf, anyOf, oneOf, not, if / then / else.
void compileCombinatorKeywords(Scope& scope);

}  // namespace toolguard::schema
