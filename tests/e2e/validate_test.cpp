// `toolguard validate` through the real binary.
#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace validate_test {

class Validate : public Cli {
 protected:
  std::string writeSchema(const std::string& text) const {
    return dir.write("schema.json", text).string();
  }
};

constexpr const char* kWriteFileSchema = R"({
  "type": "object",
  "required": ["path", "content"],
  "additionalProperties": false,
  "properties": {
    "path": {"type": "string", "pattern": "^[a-z/._-]+$"},
    "content": {"type": "string"}
  }
})";

TEST_F(Validate, AnswersEachLine) {
  const std::string schema = writeSchema(kWriteFileSchema);
  RunResult r = run({"validate", "--schema", schema},
                    "{\"path\":\"/tmp/a.txt\",\"content\":\"hi\"}\n"
                    "\n"
                    "{\"path\":\"a b\",\"content\":\"hi\"}\n"
                    "{\"path\":\"/x\"}\n"
                    "{\"path\":\"/x\",\"content\":\"\",\"mode\":1}\n"
                    "{\"path\": \n");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out,
            "valid\n"
            "invalid: #/path: \"pattern\" failed: \"a b\" does not match \"^[a-z/._-]+$\"\n"
            "invalid: #: \"required\" failed: required property \"content\" is missing\n"
            "invalid: #/mode: \"additionalProperties\" failed: property \"mode\" is not allowed "
            "(allowed: \"content\", \"path\")\n"
            "invalid: line 6, column 10: not JSON: unexpected end of input; expected '[', '{', "
            "or a literal\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(Validate, ExitsZeroWhenEverythingIsValid) {
  const std::string schema = writeSchema(R"({"type":"integer"})");
  RunResult r = run({"validate", "--schema", schema}, "1\n2\n\n3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "valid\nvalid\nvalid\n");
  r = run({"validate", "--schema", schema}, "");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(Validate, DraftOptionChangesTheReading) {
  const std::string schema = writeSchema(R"({"type":"integer"})");
  RunResult r = run({"validate", "--schema", schema, "--draft", "4"}, "1.0\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "invalid: #: \"type\" failed: 1.0 is not of type \"integer\"\n");
  r = run({"validate", "--schema", schema, "--draft", "7"}, "1.0\n");
  EXPECT_EQ(r.exit_code, 0);
  r = run({"validate", "--schema", schema, "--draft", "5"}, "1\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--draft"), std::string::npos) << r.err;
}

TEST_F(Validate, BadSchemaFilesExitTwoNamingTheFile) {
  const std::string missing = (dir.path() / "missing.json").string();
  RunResult r = run({"validate", "--schema", missing}, "1\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(missing + ": cannot read the schema file"), std::string::npos) << r.err;

  std::string schema = writeSchema("{\n  \"type\": \"object\",\n  \"properties\": {,}\n}\n");
  r = run({"validate", "--schema", schema}, "1\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(schema + ": invalid JSON at line 3, column"), std::string::npos) << r.err;

  schema = writeSchema(R"({"properties":{"path":{"pattern":"(?<=x)y"}}})");
  r = run({"validate", "--schema", schema}, "1\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(schema + ": invalid schema: #/properties/path/pattern: invalid regular "
                                "expression"),
            std::string::npos)
      << r.err;

  r = run({"validate"}, "1\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--schema"), std::string::npos) << r.err;
}

}  // namespace validate_test
}  // namespace toolguard::testing
