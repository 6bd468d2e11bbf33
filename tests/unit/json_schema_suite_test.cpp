// The official JSON Schema Test Suite: drafts 4, 6 and 7 from Debian's
// json-schema-test-suite (2.0.0), drafts 2019-09 and 2020-12 from the copy
// Debian's libtest-json-schema-acceptance-perl ships (the suite at commit
// 47958f8, 2.0.0-730); every case of tests/DRAFT/*.json (not optional/), with
// the suite's remotes served from a SchemaStore as http://localhost:1234/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "toolguard/json_schema.hpp"

// JSON_SCHEMA_TEST_SUITE_DIR and JSON_SCHEMA_ACCEPTANCE_DIR come from tests/CMakeLists.txt.

namespace toolguard {
namespace json_schema_suite_test {

namespace fs = std::filesystem;

// Cases skipped on purpose, as "draftN/FILE.json: GROUP DESCRIPTION: TEST DESCRIPTION",
// each with its reason. Empty: every case runs.
const std::map<std::string, std::string> kSkipped = {};

nlohmann::json readJson(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The suite's remotes/ directory as the README says it is served.
SchemaStore remotes(const fs::path& root) {
  SchemaStore store;
  const fs::path dir = root / "remotes";
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    store.add("http://localhost:1234/" + fs::relative(entry.path(), dir).generic_string(),
              readJson(entry.path()));
  }
  return store;
}

struct Counts {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
};

// Runs tests/NAME of the suite at `root`. Drafts 4-7 are read as `draft`
// whatever "$schema" says; 2019-09 and 2020-12 as their schemas' "$schema"
// says (every schema there has one; some name a custom meta-schema from
// remotes/), `draft` when there is none.
void runDraft(const fs::path& root, const std::string& name, SchemaDraft draft) {
  if (!fs::is_directory(root / "tests" / name)) {
    FAIL() << "the JSON Schema Test Suite is missing at " << root
           << ": run scripts/install-deps.sh (it installs Debian's json-schema-test-suite and "
              "libtest-json-schema-acceptance-perl)";
  }
  const SchemaStore store = remotes(root);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(root / "tests" / name)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry);
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no test files in " << root / "tests" / name;

  Counts counts;
  std::vector<std::string> failures;
  std::set<std::string> skips_used;
  for (const fs::path& file : files) {
    for (const nlohmann::json& group : readJson(file)) {
      const std::string group_name =
          name + "/" + file.filename().string() + ": " + group.at("description").get<std::string>();
      std::optional<JsonSchema> schema;
      std::string compile_error;
      try {
        SchemaOptions options;
        options.store = &store;
        if (draft <= SchemaDraft::Draft7) options.draft = draft;
        options.default_draft = draft;
        schema = JsonSchema::compile(group.at("schema"), options);
      } catch (const std::exception& e) {
        compile_error = e.what();
      }
      for (const nlohmann::json& test : group.at("tests")) {
        const std::string case_name = group_name + ": " + test.at("description").get<std::string>();
        if (kSkipped.count(case_name) != 0) {
          ++counts.skipped;
          skips_used.insert(case_name);
          continue;
        }
        const bool expected = test.at("valid").get<bool>();
        std::string problem;
        if (!schema) {
          problem = "schema does not compile: " + compile_error;
        } else {
          const bool valid = schema->isValid(test.at("data"));
          std::optional<SchemaViolation> first = schema->firstViolation(test.at("data"));
          const bool all_agree = schema->violations(test.at("data")).empty() == valid;
          if (valid != expected) {
            problem = std::string("expected ") + (expected ? "valid" : "invalid") + ", got " +
                      (valid ? "valid" : "invalid: " + (first ? describe(*first) : "?"));
          } else if (first.has_value() == valid || !all_agree) {
            problem = "isValid, firstViolation and violations disagree";
          }
        }
        if (problem.empty()) {
          ++counts.passed;
        } else {
          ++counts.failed;
          failures.push_back(case_name + ": " + problem);
        }
      }
    }
  }
  std::cout << name << " (" << root.string() << "): " << counts.passed << " passed, "
            << counts.failed << " failed, " << counts.skipped << " skipped\n";
  std::string list;
  for (const std::string& failure : failures) list += "  " + failure + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " failing cases:\n" << list;
  for (const auto& [case_name, reason] : kSkipped) {
    if (case_name.rfind(name + "/", 0) == 0) {
      EXPECT_TRUE(skips_used.count(case_name) != 0) << "stale skip entry: " << case_name;
    }
  }
}

TEST(JsonSchemaSuite, Draft4) {
  runDraft(JSON_SCHEMA_TEST_SUITE_DIR, "draft4", SchemaDraft::Draft4);
}
TEST(JsonSchemaSuite, Draft6) {
  runDraft(JSON_SCHEMA_TEST_SUITE_DIR, "draft6", SchemaDraft::Draft6);
}
TEST(JsonSchemaSuite, Draft7) {
  runDraft(JSON_SCHEMA_TEST_SUITE_DIR, "draft7", SchemaDraft::Draft7);
}
// The newer copy's drafts 4, 6 and 7 have more cases than Debian's 2.0.0.
TEST(JsonSchemaSuite, Draft4At47958f8) {
  runDraft(JSON_SCHEMA_ACCEPTANCE_DIR, "draft4", SchemaDraft::Draft4);
}
TEST(JsonSchemaSuite, Draft6At47958f8) {
  runDraft(JSON_SCHEMA_ACCEPTANCE_DIR, "draft6", SchemaDraft::Draft6);
}
TEST(JsonSchemaSuite, Draft7At47958f8) {
  runDraft(JSON_SCHEMA_ACCEPTANCE_DIR, "draft7", SchemaDraft::Draft7);
}
TEST(JsonSchemaSuite, Draft2019_09) {
  runDraft(JSON_SCHEMA_ACCEPTANCE_DIR, "draft2019-09", SchemaDraft::Draft2019_09);
}
TEST(JsonSchemaSuite, Draft2020_12) {
  runDraft(JSON_SCHEMA_ACCEPTANCE_DIR, "draft2020-12", SchemaDraft::Draft2020_12);
}

}  // namespace json_schema_suite_test
}  // namespace toolguard
