// JsonSchema: violations and their messages, schema errors, drafts, $ref,
// the recursion guard, limits and use from many threads.
#include "toolguard/json_schema.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <thread>

#include "schema/json_values.hpp"
#include "schema/node.hpp"
#include "schema/regex.hpp"
#include "schema/uri.hpp"

namespace toolguard {
namespace json_schema_test {

using nlohmann::json;

JsonSchema compile(const char* text, SchemaOptions options = {}) {
  return JsonSchema::compile(json::parse(text), options);
}

// The SchemaError compiling `text` throws (fails the test when none).
SchemaError compileError(const char* text, SchemaOptions options = {}) {
  try {
    compile(text, options);
  } catch (const SchemaError& e) {
    return e;
  }
  ADD_FAILURE() << "no SchemaError for " << text;
  return SchemaError("?", "none");
}

std::string firstDescribed(const JsonSchema& schema, const char* instance) {
  std::optional<SchemaViolation> v = schema.firstViolation(json::parse(instance));
  return v ? describe(*v) : "valid";
}

TEST(JsonSchema, ViolationNamesInstancePointerKeywordAndSchemaPointer) {
  JsonSchema schema = compile(R"({"properties":{"path":{"type":"string"}}})");
  std::optional<SchemaViolation> v = schema.firstViolation(json::parse(R"({"path":3})"));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->instance_pointer, "/path");
  EXPECT_EQ(v->keyword, "type");
  EXPECT_EQ(v->schema_pointer, "/properties/path/type");
  EXPECT_EQ(v->message, R"("type" failed: 3 is not of type "string")");
  EXPECT_EQ(describe(*v), R"(#/path: "type" failed: 3 is not of type "string")");
  EXPECT_TRUE(schema.isValid(json::parse(R"({"path":"a"})")));
  EXPECT_FALSE(schema.firstViolation(json::parse(R"({"path":"a"})")));
  EXPECT_TRUE(schema.violations(json::parse(R"({"path":"a"})")).empty());
}

TEST(JsonSchema, MessagesSayWhatIsWrong) {
  JsonSchema schema = compile(R"({
    "type": "object",
    "required": ["path", "mode"],
    "additionalProperties": false,
    "properties": {
      "path": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 5},
      "mode": {"enum": ["read", "write"]},
      "count": {"type": ["integer", "null"], "minimum": 1, "exclusiveMaximum": 10, "multipleOf": 2},
      "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 3}
    }})");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a b","mode":"read"})"),
            R"(#/path: "pattern" failed: "a b" does not match "^[a-z]+$")");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"abcdéf","mode":"read"})"),
            R"(#/path: "maxLength" failed: "abcdéf" has 6 characters, more than the maximum of 5)");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a"})"),
            R"(#: "required" failed: required property "mode" is missing)");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a","mode":"rw"})"),
            R"(#/mode: "enum" failed: "rw" is not one of ["read", "write"])");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a","mode":"read","pth":1})"),
            R"(#/pth: "additionalProperties" failed: property "pth" is not allowed )"
            R"((allowed: "count", "mode", "path", "tags"))");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a","mode":"read","count":1.5})"),
            R"(#/count: "type" failed: 1.5 is not of type "integer" or "null")");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a","mode":"read","count":0})"),
            R"(#/count: "minimum" failed: 0 is less than the minimum of 1)");
  EXPECT_EQ(
      firstDescribed(schema, R"({"path":"a","mode":"read","count":10})"),
      R"(#/count: "exclusiveMaximum" failed: 10 is not less than the exclusive maximum of 10)");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a","mode":"read","count":3})"),
            R"(#/count: "multipleOf" failed: 3 is not a multiple of 2)");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a","mode":"read","tags":["x",2]})"),
            R"(#/tags/1: "type" failed: 2 is not of type "string")");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a","mode":"read","tags":["x","y","x"]})"),
            R"(#/tags: "uniqueItems" failed: items 0 and 2 are equal ("x"))");
  EXPECT_EQ(firstDescribed(schema, R"({"path":"a","mode":"read","tags":["a","b","c","d"]})"),
            R"(#/tags: "maxItems" failed: the array has 4 items, more than the maximum of 3)");
  EXPECT_EQ(firstDescribed(schema, "[]"), R"(#: "type" failed: [] is not of type "object")");
}

TEST(JsonSchema, CombinatorMessagesShowEachAlternative) {
  JsonSchema schema = compile(R"({"anyOf":[{"type":"string"},{"type":"integer","minimum":5}]})");
  EXPECT_EQ(firstDescribed(schema, "3"),
            R"(#: "anyOf" failed: the value is valid against none of the 2 schemas )"
            R"(([0] #: "type" failed: 3 is not of type "string"; )"
            R"([1] #: "minimum" failed: 3 is less than the minimum of 5))");
  JsonSchema one = compile(R"({"oneOf":[{"type":"integer"},{"minimum":2}]})");
  EXPECT_EQ(firstDescribed(one, "3"),
            R"(#: "oneOf" failed: the value is valid against more than one of the 2 schemas )"
            R"((0 and 1); it must be valid against exactly one)");
  JsonSchema never = compile(R"({"properties":{"a":false}})");
  EXPECT_EQ(firstDescribed(never, R"({"a":1})"),
            "#/a: the schema is false: no value is allowed here");
  JsonSchema names = compile(R"({"propertyNames":{"pattern":"^[a-z]+$"}})");
  EXPECT_EQ(firstDescribed(names, R"({"A":1})"),
            R"(#: "propertyNames" failed: property name "A" is invalid: )"
            R"("pattern" failed: "A" does not match "^[a-z]+$")");
}

TEST(JsonSchema, PointersAreEscaped) {
  JsonSchema schema = compile(R"({"additionalProperties":{"type":"string"}})");
  std::optional<SchemaViolation> v = schema.firstViolation(json::parse(R"({"a/b~c":1})"));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->instance_pointer, "/a~1b~0c");
  EXPECT_EQ(describe(*v).substr(0, 11), "#/a~1b~0c: ");
  v = schema.firstViolation(json::parse(R"({"a b%\"é":1})"));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->instance_pointer, "/a b%\"é");
  EXPECT_EQ(describe(*v).substr(0, 23), "#/a%20b%25%22%C3%A9: \"t");
  JsonSchema escaped = compile(R"({"properties":{"x/y":{"type":"string"}}})");
  EXPECT_EQ(escaped.firstViolation(json::parse(R"({"x/y":1})"))->schema_pointer,
            "/properties/x~1y/type");
}

TEST(JsonSchema, DescribeStaysOnOneLine) {
  JsonSchema schema = compile(R"({"additionalProperties":{"pattern":"^x$"}})");
  const std::string line = firstDescribed(schema, R"({"a\nb":"two\nlines\u0007"})");
  EXPECT_EQ(line, R"(#/a%0Ab: "pattern" failed: "two\nlines\u0007" does not match "^x$")");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  // Long values are cut.
  const std::string long_value(500, 'y');
  std::string text = firstDescribed(schema, ("{\"k\":\"" + long_value + "\"}").c_str());
  EXPECT_LT(text.size(), 150u) << text;
  EXPECT_NE(text.find("...\""), std::string::npos) << text;
}

TEST(JsonSchema, BadSchemasAreErrorsThatNameThePointer) {
  SchemaError e = compileError(R"({"properties":{"x":{"pattern":"(?=a)b"}}})");
  EXPECT_EQ(e.pointer(), "/properties/x/pattern");
  EXPECT_NE(std::string(e.what()).find("#/properties/x/pattern: invalid regular expression"),
            std::string::npos)
      << e.what();
  e = compileError(R"({"properties":{"a":{"$ref":"#/definitions/missing"}}})");
  EXPECT_EQ(e.pointer(), "/properties/a/$ref");
  EXPECT_NE(std::string(e.what()).find("cannot resolve \"$ref\" \"#/definitions/missing\""),
            std::string::npos)
      << e.what();
  e = compileError(R"({"$ref":"http://example.com/nowhere.json"})");
  EXPECT_NE(std::string(e.what()).find("no network is used"), std::string::npos) << e.what();
  e = compileError(R"({"patternProperties":{"[":{}}})");
  EXPECT_EQ(e.pointer(), "/patternProperties/[");
  EXPECT_EQ(compileError(R"({"items":{"minLength":-1}})").pointer(), "/items/minLength");
  EXPECT_EQ(compileError(R"({"type":"strin"})").pointer(), "/type");
  EXPECT_EQ(compileError(R"({"type":[]})").pointer(), "/type");
  EXPECT_EQ(compileError(R"({"required":"a"})").pointer(), "/required");
  EXPECT_EQ(compileError(R"({"properties":[]})").pointer(), "/properties");
  EXPECT_EQ(compileError(R"({"properties":{"a":1}})").pointer(), "/properties/a");
  EXPECT_EQ(compileError(R"({"anyOf":[]})").pointer(), "/anyOf");
  EXPECT_EQ(compileError(R"({"multipleOf":0})").pointer(), "/multipleOf");
  EXPECT_EQ(compileError(R"({"enum":"a"})").pointer(), "/enum");
  EXPECT_EQ(compileError(R"({"$ref":5})").pointer(), "/$ref");
  EXPECT_EQ(compileError(R"({"$schema":"https://json-schema.org/draft/2099-01/schema"})").pointer(),
            "/$schema");
  EXPECT_EQ(compileError(R"({"prefixItems":[{}]})").pointer(), "/prefixItems");
  EXPECT_EQ(compileError(R"({"not":true})", {SchemaDraft::Draft4}).pointer(), "/not");
  EXPECT_EQ(compileError(R"({"exclusiveMaximum":true})", {SchemaDraft::Draft4}).pointer(),
            "/exclusiveMaximum");
  e = compileError(
      R"({"definitions":{"a":{"$ref":"#/definitions/b"},"b":{"$ref":"#/definitions/a"}},
                       "$ref":"#/definitions/a"})");
  EXPECT_EQ(e.pointer(), "/$ref");
  EXPECT_NE(std::string(e.what()).find("\"$ref\" cycle"), std::string::npos) << e.what();
  EXPECT_EQ(compileError(R"({"$ref":"#"})").pointer(), "/$ref");
  EXPECT_EQ(compileError(R"({"definitions":{"a":{"$id":"#x"},"b":{"$id":"#x"}}})").pointer(),
            "/definitions/b");
}

TEST(JsonSchema, DraftComesFromSchemaKeywordOrOptions) {
  const char* text = R"({"$schema":"http://json-schema.org/draft-04/schema#","type":"integer"})";
  EXPECT_EQ(compile(text).draft(), SchemaDraft::Draft4);
  EXPECT_FALSE(compile(text).isValid(json::parse("1.0")));  // draft 4: 1.0 is not an integer
  EXPECT_TRUE(compile(text, {SchemaDraft::Draft7}).isValid(json::parse("1.0")));
  EXPECT_TRUE(compile(R"({"type":"integer"})").isValid(json::parse("1.0")));
  EXPECT_EQ(compile(R"({"type":"integer"})").draft(), SchemaDraft::Draft7);
  EXPECT_EQ(compile(R"({"$schema":"https://json-schema.org/draft-06/schema"})").draft(),
            SchemaDraft::Draft6);
  // Draft 4's boolean exclusiveMaximum and draft 6's number.
  JsonSchema d4 = compile(R"({"maximum":3,"exclusiveMaximum":true})", {SchemaDraft::Draft4});
  EXPECT_FALSE(d4.isValid(json::parse("3")));
  EXPECT_TRUE(d4.isValid(json::parse("2.9")));
  JsonSchema d6 = compile(R"({"exclusiveMaximum":3})", {SchemaDraft::Draft6});
  EXPECT_FALSE(d6.isValid(json::parse("3")));
  // if/then/else exists from draft 7 on; const from draft 6 on.
  EXPECT_TRUE(compile(R"({"if":true,"then":false})", {SchemaDraft::Draft6}).isValid(1));
  EXPECT_FALSE(compile(R"({"if":true,"then":false})").isValid(1));
  EXPECT_TRUE(compile(R"({"const":2})", {SchemaDraft::Draft4}).isValid(1));
  EXPECT_FALSE(compile(R"({"const":2})").isValid(1));
}

TEST(JsonSchema, NumbersAreComparedExactly) {
  EXPECT_TRUE(compile(R"({"multipleOf":0.0001})").isValid(json::parse("0.0075")));
  EXPECT_FALSE(compile(R"({"multipleOf":0.0001})").isValid(json::parse("0.00751")));
  EXPECT_TRUE(compile(R"({"multipleOf":0.1})").isValid(json::parse("0.3")));
  EXPECT_TRUE(compile(R"({"multipleOf":0.5})").isValid(json::parse("1e308")));
  EXPECT_FALSE(compile(R"({"multipleOf":3})").isValid(json::parse("1e308")));
  EXPECT_TRUE(compile(R"({"multipleOf":3})").isValid(json::parse("18446744073709551615")));
  EXPECT_TRUE(compile(R"({"multipleOf":7})").isValid(json::parse("-9223372036854775807")));
  EXPECT_TRUE(
      compile(R"({"maximum":18446744073709551615})").isValid(json::parse("18446744073709551600")));
  EXPECT_FALSE(compile(R"({"maximum":9007199254740992})").isValid(json::parse("9007199254740993")));
  EXPECT_FALSE(
      compile(R"({"minimum":-9223372036854775807})").isValid(json::parse("-9223372036854775808")));
  EXPECT_FALSE(compile(R"({"uniqueItems":true})").isValid(json::parse("[1, 1.0]")));
  EXPECT_FALSE(compile(R"({"uniqueItems":true})")
                   .isValid(json::parse(R"([0,1,2,3,4,5,6,7,8,9,{"a":[1]},{"a":[1.0]}])")));
  EXPECT_TRUE(compile(R"({"uniqueItems":true})")
                  .isValid(json::parse(R"([0,1,2,3,4,5,6,7,8,9,{"a":[1]},{"a":[2]}])")));
  EXPECT_TRUE(compile(R"({"enum":[{"a":1.0}]})").isValid(json::parse(R"({"a":1})")));
  EXPECT_TRUE(compile(R"({"minLength":2,"maxLength":2})").isValid(json::parse(R"("é😀")")));
  // A NaN can only come from a value built in code; it is never within bounds.
  EXPECT_FALSE(compile(R"({"maximum":5})").isValid(json(std::nan(""))));
  EXPECT_FALSE(compile(R"({"minimum":5})").isValid(json(std::nan(""))));
  EXPECT_FALSE(compile(R"({"multipleOf":2})").isValid(json(std::nan(""))));
}

TEST(JsonSchema, RefsReachDefinitionsIdsStoreAndMetaSchemas) {
  JsonSchema tree = compile(R"({
    "definitions": {"node": {"type": "object", "properties": {
      "value": {"type": "number"}, "children": {"type": "array", "items": {"$ref": "#/definitions/node"}}}}},
    "$ref": "#/definitions/node"})");
  EXPECT_TRUE(tree.isValid(json::parse(R"({"value":1,"children":[{"value":2,"children":[]}]})")));
  std::optional<SchemaViolation> v =
      tree.firstViolation(json::parse(R"({"value":1,"children":[{"value":"x"}]})"));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->instance_pointer, "/children/0/value");
  EXPECT_EQ(v->schema_pointer, "/definitions/node/properties/value/type");

  JsonSchema anchor = compile(R"({"definitions":{"a":{"$id":"#num","type":"number"}},
                                  "items":{"$ref":"#num"}})");
  EXPECT_FALSE(anchor.isValid(json::parse(R"([1,"x"])")));

  SchemaStore store;
  store.add("https://schemas.example/common.json#",
            json::parse(R"({"definitions":{"name":{"type":"string","minLength":1}}})"));
  SchemaOptions options;
  options.store = &store;
  JsonSchema remote = compile(
      R"({"$id":"https://schemas.example/tool.json","properties":{"n":{"$ref":"common.json#/definitions/name"}}})",
      options);
  EXPECT_TRUE(remote.isValid(json::parse(R"({"n":"x"})")));
  v = remote.firstViolation(json::parse(R"({"n":""})"));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->schema_pointer, "https://schemas.example/common.json#/definitions/name/minLength");

  JsonSchema meta = compile(R"({"$ref":"http://json-schema.org/draft-07/schema#"})");
  EXPECT_TRUE(meta.isValid(json::parse(R"({"type":"string","minLength":1})")));
  EXPECT_FALSE(meta.isValid(json::parse(R"({"type":"strin"})")));
  EXPECT_FALSE(meta.isValid(json::parse(R"({"properties":{"a":{"minLength":-1}}})")));
  JsonSchema meta4 = compile(R"({"$ref":"http://json-schema.org/draft-04/schema#"})");
  EXPECT_FALSE(meta4.isValid(json::parse(R"({"exclusiveMinimum":true})")));
}

TEST(JsonSchema, RecursionIsCappedAndFailsClosed) {
  // A schema that recurses without consuming the value.
  JsonSchema loop = compile(R"({"allOf":[{"$ref":"#"}]})");
  EXPECT_FALSE(loop.isValid(1));
  std::optional<SchemaViolation> v = loop.firstViolation(1);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->keyword, "depth");
  // "not" of it must not turn the failure into a pass.
  JsonSchema negated = compile(R"({"definitions":{"loop":{"allOf":[{"$ref":"#/definitions/loop"}]}},
                                   "not":{"$ref":"#/definitions/loop"}})");
  EXPECT_FALSE(negated.isValid(1));
  EXPECT_EQ(negated.violations(1).at(0).keyword, "depth");
  // A value nested far deeper than any tool call's arguments.
  JsonSchema nested = compile(R"({"items":{"$ref":"#"}})");
  json deep = json::array();
  for (int i = 0; i < 5000; ++i) deep = json::array({std::move(deep)});
  EXPECT_FALSE(nested.isValid(deep));
  v = nested.firstViolation(deep);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->keyword, "depth");
  EXPECT_EQ(v->instance_pointer.size(), 2u * schema::kMaxValidationDepth);
  json shallow = json::array();
  for (int i = 0; i < 64; ++i) shallow = json::array({std::move(shallow)});
  EXPECT_TRUE(nested.isValid(shallow));
  // Schemas nested too deeply are refused, not overflowed.
  std::string schema_text;
  for (int i = 0; i < 2000; ++i) schema_text += R"({"items":)";
  schema_text += "{}";
  for (int i = 0; i < 2000; ++i) schema_text += "}";
  EXPECT_THROW(JsonSchema::compile(json::parse(schema_text)), SchemaError);
}

TEST(JsonSchema, MaxViolationsLimitsTheList) {
  const char* text = R"({"required":["a","b","c","d","e"]})";
  EXPECT_EQ(compile(text).violations(json::object()).size(), 5u);
  SchemaOptions options;
  options.max_violations = 3;
  std::vector<SchemaViolation> found = compile(text, options).violations(json::object());
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[2].message, R"("required" failed: required property "c" is missing)");
  options.max_violations = 0;  // counts as 1
  EXPECT_EQ(compile(text, options).violations(json::object()).size(), 1u);
  // Violations of several keywords and places, in evaluation order.
  found = compile(R"({"properties":{"a":{"type":"string"},"b":{"minimum":3}},"required":["c"]})")
              .violations(json::parse(R"({"a":1,"b":2})"));
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].keyword, "required");
  EXPECT_EQ(found[1].instance_pointer, "/a");
  EXPECT_EQ(found[2].instance_pointer, "/b");
}

TEST(JsonSchema, OneSchemaServesManyThreads) {
  const JsonSchema schema = compile(R"({
    "type":"object","required":["path"],"additionalProperties":false,
    "properties":{"path":{"type":"string","pattern":"^/[a-z/]+$"},"n":{"$ref":"#/definitions/n"}},
    "definitions":{"n":{"type":"integer","minimum":0}}})");
  const json good = json::parse(R"({"path":"/tmp/x","n":3})");
  const json bad = json::parse(R"({"path":"tmp x","n":-1})");
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, copy = schema] {
      for (int i = 0; i < 2000; ++i) {
        if (!copy.isValid(good) || copy.isValid(bad)) ++wrong;
        std::vector<SchemaViolation> found = copy.violations(bad);
        if (found.size() != 2 || found[0].instance_pointer != "/n" ||
            found[1].keyword != "pattern") {
          ++wrong;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(JsonSchemaInternals, UrisResolveAsRfc3986Says) {
  using schema::resolveUri;
  EXPECT_EQ(resolveUri("http://a/b/c/d;p?q", "g"), "http://a/b/c/g");
  EXPECT_EQ(resolveUri("http://a/b/c/d;p?q", "../g"), "http://a/b/g");
  EXPECT_EQ(resolveUri("http://a/b/c/d;p?q", "../../../g"), "http://a/g");
  EXPECT_EQ(resolveUri("http://a/b/c/d;p?q", "#s"), "http://a/b/c/d;p?q#s");
  EXPECT_EQ(resolveUri("http://a/b/c/d;p?q", "//g"), "http://g");
  EXPECT_EQ(resolveUri("http://localhost:1234/", "folder/"), "http://localhost:1234/folder/");
  EXPECT_EQ(resolveUri("", "#/definitions/a"), "#/definitions/a");
  EXPECT_EQ(resolveUri("urn:x", "tag:y"), "tag:y");
}

// The translation itself is tested in js_regex_test.cpp.
TEST(JsonSchemaInternals, EcmaPatternsAreTranslatedForRe2) {
  auto year = schema::compilePattern("(?<year>[0-9]{4})");
  ASSERT_TRUE(year) << year.error();
  EXPECT_TRUE(schema::searchPattern(**year, "in 2026"));
  auto accented = schema::compilePattern(R"(^\u00e9$)");
  ASSERT_TRUE(accented) << accented.error();
  EXPECT_TRUE(schema::searchPattern(**accented, "\u00e9"));
  auto spaces = schema::compilePattern(R"(^\s+$)");
  ASSERT_TRUE(spaces) << spaces.error();
  EXPECT_TRUE(schema::searchPattern(**spaces, "\t\v\u00a0\u2028 "));
  auto backreference = schema::compilePattern("(a)\\1");
  EXPECT_FALSE(backreference);
  EXPECT_FALSE(backreference.error().empty());
}

}  // namespace json_schema_test
}  // namespace toolguard
