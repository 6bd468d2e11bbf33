// JsonSchema in drafts 2019-09 and 2020-12, beyond the official suite (which
// json_schema_suite_test.cpp runs): how the draft is chosen, what violations
// of the new keywords say, the dynamic references, custom meta-schemas and
// their vocabularies, and the ways a schema fails closed.
#include <gtest/gtest.h>

#include "toolguard/json_schema.hpp"

namespace toolguard {
namespace json_schema_2019_2020_test {

using nlohmann::json;

constexpr const char* k2020 = "https://json-schema.org/draft/2020-12/schema";
constexpr const char* k2019 = "https://json-schema.org/draft/2019-09/schema";

// `schema` with "$schema": `dialect` added.
json in(const char* dialect, const char* schema) {
  json parsed = json::parse(schema);
  parsed["$schema"] = dialect;
  return parsed;
}

SchemaError compileError(const json& schema, const SchemaOptions& options = {}) {
  try {
    JsonSchema::compile(schema, options);
  } catch (const SchemaError& e) {
    return e;
  }
  ADD_FAILURE() << "no SchemaError for " << schema.dump();
  return SchemaError("?", "?");
}

SchemaViolation firstViolation(const JsonSchema& schema, const char* instance) {
  std::optional<SchemaViolation> v = schema.firstViolation(json::parse(instance));
  if (!v) {
    ADD_FAILURE() << instance << " is valid";
    return {};
  }
  return *v;
}

TEST(JsonSchemaLaterDrafts, TheDraftComesFromSchemaThenOptions) {
  EXPECT_EQ(JsonSchema::compile(in(k2020, "{}")).draft(), SchemaDraft::Draft2020_12);
  EXPECT_EQ(JsonSchema::compile(in(k2019, "{}")).draft(), SchemaDraft::Draft2019_09);
  for (const char* spelling : {"https://json-schema.org/draft/2020-12/schema#",
                               "http://json-schema.org/draft/2020-12/schema"}) {
    EXPECT_EQ(JsonSchema::compile(in(spelling, "{}")).draft(), SchemaDraft::Draft2020_12)
        << spelling;
  }
  SchemaOptions mcp;
  mcp.default_draft = SchemaDraft::Draft2020_12;
  EXPECT_EQ(JsonSchema::compile(json::object(), mcp).draft(), SchemaDraft::Draft2020_12);
  // An explicit "$schema" wins over the default; SchemaOptions::draft over both.
  EXPECT_EQ(JsonSchema::compile(json{{"$schema", "http://json-schema.org/draft-07/schema#"}}, mcp)
                .draft(),
            SchemaDraft::Draft7);
  SchemaOptions forced;
  forced.draft = SchemaDraft::Draft2019_09;
  EXPECT_EQ(JsonSchema::compile(in(k2020, "{}"), forced).draft(), SchemaDraft::Draft2019_09);
  EXPECT_EQ(JsonSchema::compile(json::object()).draft(), SchemaDraft::Draft7);
}

TEST(JsonSchemaLaterDrafts, ReadAsDraft7TheirKeywordsAreRefusedNotIgnored) {
  SchemaError e = compileError(json::parse(R"({"prefixItems":[{"type":"string"}]})"));
  EXPECT_EQ(e.pointer(), "/prefixItems");
  EXPECT_NE(std::string(e.what()).find("\"$schema\""), std::string::npos) << e.what();
  EXPECT_EQ(
      compileError(json::parse(R"({"properties":{"a":{"unevaluatedItems":false}}})")).pointer(),
      "/properties/a/unevaluatedItems");
  // The same keywords are fine where the draft has them.
  EXPECT_FALSE(JsonSchema::compile(in(k2020, R"({"prefixItems":[{"type":"string"}]})"))
                   .isValid(json::parse("[1]")));
}

TEST(JsonSchemaLaterDrafts, RefNoLongerHidesItsSiblings) {
  const char* text = R"({"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","maxLength":2})";
  EXPECT_FALSE(JsonSchema::compile(in(k2020, text)).isValid("abc"));
  EXPECT_FALSE(JsonSchema::compile(in(k2019, text)).isValid(1));
  EXPECT_TRUE(JsonSchema::compile(in(k2020, text)).isValid("ab"));
  SchemaOptions draft7;
  draft7.draft = SchemaDraft::Draft7;
  EXPECT_TRUE(JsonSchema::compile(json::parse(text), draft7).isValid("abc"));  // siblings void
  // "$anchor" names a place; "definitions" still works as a JSON pointer.
  JsonSchema anchored = JsonSchema::compile(
      in(k2020, R"({"$defs":{"n":{"$anchor":"num","type":"number"}},"$ref":"#num"})"));
  EXPECT_FALSE(anchored.isValid("x"));
  EXPECT_TRUE(anchored.isValid(1));
  EXPECT_FALSE(JsonSchema::compile(
                   in(k2020, R"({"definitions":{"n":{"type":"number"}},"$ref":"#/definitions/n"})"))
                   .isValid("x"));
}

TEST(JsonSchemaLaterDrafts, UnevaluatedPropertiesSeeWhatValidSubschemasEvaluated) {
  JsonSchema schema = JsonSchema::compile(in(k2020, R"({
    "properties": {"path": {"type": "string"}},
    "allOf": [{"properties": {"mode": {"enum": ["r", "w"]}}}],
    "anyOf": [{"properties": {"a": true}, "required": ["a"]},
              {"properties": {"b": true}, "required": ["b"]}],
    "if": {"properties": {"kind": {"const": "x"}}, "required": ["kind"]},
    "then": {"properties": {"x": true}},
    "not": {"properties": {"secret": true}, "required": ["secret"]},
    "unevaluatedProperties": false
  })"));
  EXPECT_TRUE(schema.isValid(json::parse(R"({"path":"p","mode":"r","a":1})")));
  EXPECT_TRUE(schema.isValid(json::parse(R"({"a":1,"b":2})")));  // both anyOf branches count
  EXPECT_TRUE(schema.isValid(json::parse(R"({"a":1,"kind":"x","x":0})")));
  EXPECT_FALSE(schema.isValid(json::parse(R"({"a":1,"kind":"y","x":0})")));  // else: x unknown
  SchemaViolation v = firstViolation(schema, R"({"a":1,"extra":true})");
  EXPECT_EQ(v.instance_pointer, "/extra");
  EXPECT_EQ(v.keyword, "unevaluatedProperties");
  EXPECT_EQ(v.schema_pointer, "/unevaluatedProperties");
  EXPECT_EQ(describe(v),
            "#/extra: \"unevaluatedProperties\" failed: property \"extra\" is not allowed: no "
            "other keyword of the schema accepts it");
  // A member only "not" looked at stays unevaluated (and "not" forbids it anyway).
  EXPECT_FALSE(schema.isValid(json::parse(R"({"a":1,"secret":1})")));
  // A failed branch evaluates nothing: "b" is unevaluated when its branch fails.
  JsonSchema one = JsonSchema::compile(in(k2020, R"({
    "oneOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "string"}}, "required": ["b"]}],
    "unevaluatedProperties": false})"));
  EXPECT_TRUE(one.isValid(json::parse(R"({"a":"x"})")));
  EXPECT_FALSE(one.isValid(json::parse(R"({"a":"x","b":1})")));
}

TEST(JsonSchemaLaterDrafts, UnevaluatedPropertiesFollowRefsAndNesting) {
  JsonSchema schema = JsonSchema::compile(in(k2019, R"({
    "$defs": {"base": {"properties": {"id": {"type": "integer"}}}},
    "$ref": "#/$defs/base",
    "properties": {"child": {"properties": {"n": true}, "unevaluatedProperties": false}},
    "unevaluatedProperties": {"type": "string"}
  })"));
  EXPECT_TRUE(schema.isValid(json::parse(R"({"id":1,"child":{"n":1},"note":"x"})")));
  EXPECT_FALSE(schema.isValid(json::parse(R"({"id":1,"note":2})")));
  SchemaViolation v = firstViolation(schema, R"({"child":{"n":1,"m":2}})");
  EXPECT_EQ(v.instance_pointer, "/child/m");
  EXPECT_EQ(v.schema_pointer, "/properties/child/unevaluatedProperties");
}

TEST(JsonSchemaLaterDrafts, ArraysPrefixItemsItemsContainsAndUnevaluatedItems) {
  JsonSchema tuple =
      JsonSchema::compile(in(k2020, R"({"prefixItems":[{"type":"string"}],"items":false})"));
  EXPECT_TRUE(tuple.isValid(json::parse(R"(["a"])")));
  SchemaViolation v = firstViolation(tuple, R"(["a", 1])");
  EXPECT_EQ(v.instance_pointer, "/1");
  EXPECT_EQ(v.keyword, "items");
  EXPECT_EQ(v.message,
            "\"items\" failed: item 1 is not allowed: the array may have at most 1 item");
  // 2019-09 spells the same with items as an array and additionalItems.
  EXPECT_FALSE(
      JsonSchema::compile(in(k2019, R"({"items":[{"type":"string"}],"additionalItems":false})"))
          .isValid(json::parse(R"(["a", 1])")));

  JsonSchema counted = JsonSchema::compile(
      in(k2020, R"({"contains":{"type":"integer"},"minContains":2,"maxContains":3})"));
  EXPECT_TRUE(counted.isValid(json::parse("[1, 2, \"x\"]")));
  v = firstViolation(counted, "[1, \"x\"]");
  EXPECT_EQ(v.keyword, "minContains");
  EXPECT_EQ(v.message,
            "\"minContains\" failed: 1 of the items is valid against the \"contains\" schema, "
            "fewer than the minimum of 2");
  v = firstViolation(counted, "[1, 2, 3, 4]");
  EXPECT_EQ(v.keyword, "maxContains");
  EXPECT_TRUE(JsonSchema::compile(in(k2020, R"({"contains":false,"minContains":0})"))
                  .isValid(json::parse("[]")));

  // 2020-12: the items "contains" matched are evaluated; 2019-09: they are not.
  const char* text = R"({"contains":{"type":"string"},"unevaluatedItems":false})";
  EXPECT_TRUE(JsonSchema::compile(in(k2020, text)).isValid(json::parse(R"(["a","b"])")));
  EXPECT_FALSE(JsonSchema::compile(in(k2020, text)).isValid(json::parse(R"(["a",1])")));
  EXPECT_FALSE(JsonSchema::compile(in(k2019, text)).isValid(json::parse(R"(["a"])")));
  v = firstViolation(JsonSchema::compile(in(k2020, R"({"prefixItems":[true],
                                                       "unevaluatedItems":false})")),
                     "[1, 2]");
  EXPECT_EQ(v.instance_pointer, "/1");
  EXPECT_EQ(v.keyword, "unevaluatedItems");
}

TEST(JsonSchemaLaterDrafts, DependentRequiredAndDependentSchemas) {
  JsonSchema schema = JsonSchema::compile(in(k2020, R"({
    "dependentRequired": {"credit_card": ["billing_address"]},
    "dependentSchemas": {"name": {"properties": {"name": {"type": "string"}}}},
    "unevaluatedProperties": {"type": "number"}
  })"));
  SchemaViolation v = firstViolation(schema, R"({"credit_card": 1})");
  EXPECT_EQ(v.keyword, "dependentRequired");
  EXPECT_EQ(v.message,
            "\"dependentRequired\" failed: property \"billing_address\" is required when "
            "\"credit_card\" is present");
  EXPECT_TRUE(schema.isValid(json::parse(R"({"name": "n"})")));  // evaluated by dependentSchemas
  EXPECT_FALSE(schema.isValid(json::parse(R"({"name": 1})")));
  EXPECT_EQ(compileError(in(k2020, R"({"dependentRequired": {"a": "b"}})")).pointer(),
            "/dependentRequired/a");
}

TEST(JsonSchemaLaterDrafts, DynamicRefGoesToTheOutermostDynamicAnchor) {
  // A generic tree whose node type a user extends, as 2020-12 intends $dynamicRef.
  SchemaStore store;
  store.add("https://example.com/tree", json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.com/tree",
    "$dynamicAnchor": "node",
    "type": "object",
    "properties": {"children": {"type": "array", "items": {"$dynamicRef": "#node"}}}
  })"));
  SchemaOptions options;
  options.store = &store;
  JsonSchema strict = JsonSchema::compile(in(k2020, R"({
    "$id": "https://example.com/strict-tree",
    "$dynamicAnchor": "node",
    "$ref": "tree",
    "unevaluatedProperties": false
  })"),
                                          options);
  EXPECT_TRUE(strict.isValid(json::parse(R"({"children":[{"children":[]}]})")));
  // The nested node is checked by the strict tree, not only by the generic one.
  SchemaViolation v = firstViolation(strict, R"({"children":[{"daat":1}]})");
  EXPECT_EQ(v.instance_pointer, "/children/0/daat");
  EXPECT_EQ(v.keyword, "unevaluatedProperties");
  // The generic tree alone allows any member.
  EXPECT_TRUE(JsonSchema::compile(json{{"$ref", "https://example.com/tree"}}, options)
                  .isValid(json::parse(R"({"children":[{"daat":1}]})")));
}

TEST(JsonSchemaLaterDrafts, RecursiveRefGoesToTheOutermostRecursiveAnchor) {
  SchemaStore store;
  store.add("https://example.com/tree2019", json::parse(R"({
    "$schema": "https://json-schema.org/draft/2019-09/schema",
    "$id": "https://example.com/tree2019",
    "$recursiveAnchor": true,
    "type": "object",
    "properties": {"children": {"type": "array", "items": {"$recursiveRef": "#"}}}
  })"));
  SchemaOptions options;
  options.store = &store;
  JsonSchema strict = JsonSchema::compile(in(k2019, R"({
    "$id": "https://example.com/strict-tree2019",
    "$recursiveAnchor": true,
    "$ref": "tree2019",
    "unevaluatedProperties": false
  })"),
                                          options);
  EXPECT_TRUE(strict.isValid(json::parse(R"({"children":[{"children":[]}]})")));
  EXPECT_FALSE(strict.isValid(json::parse(R"({"children":[{"daat":1}]})")));
}

TEST(JsonSchemaLaterDrafts, TheBuiltInMetaSchemasValidateSchemas) {
  for (const char* meta : {k2020, k2019}) {
    JsonSchema schema = JsonSchema::compile(json{{"$ref", meta}});
    EXPECT_TRUE(schema.isValid(json::parse(R"({"properties":{"a":{"minLength":1}}})"))) << meta;
    // The nested error is found through $dynamicRef / $recursiveRef.
    SchemaViolation v = firstViolation(schema, R"({"properties":{"a":{"minLength":-1}}})");
    EXPECT_EQ(v.instance_pointer, "/properties/a/minLength") << meta;
    EXPECT_FALSE(schema.isValid(json::parse(R"({"type":"strin"})"))) << meta;
  }
}

TEST(JsonSchemaLaterDrafts, CustomMetaSchemasAndVocabularies) {
  SchemaStore store;
  store.add("https://example.com/no-validation", json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true,
                    "https://json-schema.org/draft/2020-12/vocab/applicator": true}
  })"));
  store.add("https://example.com/unknown-vocabulary", json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true,
                    "https://example.com/vocab/mine": true}
  })"));
  store.add("https://example.com/format-assertion", json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true,
                    "https://json-schema.org/draft/2020-12/vocab/format-assertion": true}
  })"));
  SchemaOptions options;
  options.store = &store;
  JsonSchema lax =
      JsonSchema::compile(json::parse(R"({"$schema":"https://example.com/no-validation",
                      "properties":{"n":{"minimum":10}, "no":false}})"),
                          options);
  EXPECT_EQ(lax.draft(), SchemaDraft::Draft2020_12);
  EXPECT_TRUE(lax.isValid(json::parse(R"({"n":1})")));    // validation vocabulary is off
  EXPECT_FALSE(lax.isValid(json::parse(R"({"no":1})")));  // applicators still apply
  // A required vocabulary toolguard does not implement (format assertion included) is refused.
  for (const char* meta :
       {"https://example.com/unknown-vocabulary", "https://example.com/format-assertion"}) {
    SchemaError e = compileError(json{{"$schema", meta}}, options);
    EXPECT_EQ(e.pointer(), "/$schema") << e.what();
    EXPECT_NE(std::string(e.what()).find("does not implement"), std::string::npos) << e.what();
  }
  // A "$schema" neither built in nor in the store is refused.
  EXPECT_EQ(
      compileError(json{{"$schema", "https://json-schema.org/draft/2099-01/schema"}}).pointer(),
      "/$schema");
}

TEST(JsonSchemaLaterDrafts, BadSchemasFailClosed) {
  SchemaError e = compileError(in(k2020, R"({"items":[{"type":"string"}]})"));
  EXPECT_EQ(e.pointer(), "/items");
  EXPECT_NE(std::string(e.what()).find("prefixItems"), std::string::npos) << e.what();
  EXPECT_EQ(compileError(in(k2020, R"({"minContains":-1,"contains":true})")).pointer(),
            "/minContains");
  EXPECT_EQ(compileError(in(k2020, R"({"$dynamicRef":"#nowhere"})")).pointer(), "/$dynamicRef");
  EXPECT_EQ(compileError(in(k2019, R"({"$recursiveRef":3})")).pointer(), "/$recursiveRef");
  EXPECT_EQ(
      compileError(in(k2020, R"({"$defs":{"a":{"$anchor":"x"},"b":{"$anchor":"x"}}})")).pointer(),
      "/$defs/b");
  // A $ref that only leads back to itself is a keyword now, not a replacement: it is
  // compiled, and validation stops at the depth limit with the value invalid.
  JsonSchema loop = JsonSchema::compile(in(k2020, R"({"$ref":"#"})"));
  EXPECT_FALSE(loop.isValid(1));
  EXPECT_EQ(loop.firstViolation(1)->keyword, "depth");
  EXPECT_FALSE(
      JsonSchema::compile(in(k2020, R"({"not":{"$ref":"#/$defs/l"},"$defs":{"l":{"$ref":"#"}}})"))
          .isValid(1));
}

TEST(JsonSchemaLaterDrafts, FormatAndContentAreAnnotations) {
  JsonSchema schema = JsonSchema::compile(in(k2020, R"({
    "format": "email", "contentMediaType": "application/json", "contentEncoding": "base64",
    "contentSchema": {"type": "object"}, "deprecated": true, "readOnly": true})"));
  EXPECT_TRUE(schema.isValid("not an email, not base64"));
}

}  // namespace json_schema_2019_2020_test
}  // namespace toolguard
