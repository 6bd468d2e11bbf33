// Policy files are read with libfyaml (src/policy/doc_node_fyaml.cpp) into the
// same tree yaml-cpp gives: every YAML file of the repository and a set of
// hard cases are read both ways and compared, places included (but for empty
// values, which yaml-cpp places at whatever token follows them).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "policy/doc_node_yaml.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace yaml_reader_test {

namespace fs = std::filesystem;

// "" when equal, else where they first differ.
std::string difference(const DocNode& a, const DocNode& b, const std::string& at = "") {
  const std::string where = at + "@" + std::to_string(a.line()) + ":" + std::to_string(a.column());
  if (a.kind() != b.kind()) return where + ": kinds differ";
  if (a.IsNull()) return "";  // empty values: see the file comment
  if (a.line() != b.line() || a.column() != b.column()) {
    return where + ": placed at " + std::to_string(b.line()) + ":" + std::to_string(b.column());
  }
  if (a.Scalar() != b.Scalar()) return where + ": [" + a.Scalar() + "] vs [" + b.Scalar() + "]";
  if (a.quoted() != b.quoted()) return where + ": quoted differs";
  if (a.size() != b.size()) return where + ": sizes differ";
  if (a.IsSequence()) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::string d = difference(a[i], b[i], where + "/" + std::to_string(i)); !d.empty()) {
        return d;
      }
    }
  } else if (a.IsMap()) {
    for (size_t i = 0; i < a.size(); ++i) {
      for (const auto& [x, y] : {std::pair{&a.key(i), &b.key(i)}, {&a.value(i), &b.value(i)}}) {
        if (std::string d = difference(*x, *y, where + "/" + a.key(i).Scalar()); !d.empty()) {
          return d;
        }
      }
    }
  }
  return "";
}

void expectSameTree(const std::string& text, const std::string& name) {
  const DocNode expected = parseWithYamlCpp(text, name);
  const DocNode got = parseYamlDocument(text, name);
  EXPECT_EQ(difference(expected, got), "") << name;
}

TEST(YamlReader, EveryYamlFileOfTheRepositoryReadsAsYamlCppReadsIt) {
  int files = 0;
  for (const char* dir : {"policies", "tests/data", "docs", "examples"}) {
    const fs::path root = fs::path(TOOLGUARD_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      expectSameTree(text.str(), entry.path().string());
      ++files;
    }
  }
  EXPECT_GE(files, 6);
}

TEST(YamlReader, HardCasesReadAsYamlCppReadsThem) {
  const std::vector<std::string> cases = {
      "a: 'x''''y'\nb: 'it''s'\nc: ''\nd: ''''\n",  // libfyaml 0.7.12 gets the first wrong
      "a: 'multi\n  line ''q'' here'\nb: 'multi\n  line'\n",  // read by yaml-cpp, then by fyaml
      "a: \"dq \\x41 \\u00e9 \\t\\\"\"\nb: \"two\\\n  lines\"\n",
      "a: |-\n  lit\n   more\nb: >-\n  fold\n  ed\n\nc: | # comment\n  x\n",
      "k: &A {z: 1, y: [1, 2]}\nl: *A\nm: &B scalar\nn: *B\n",
      "a: !!str 5\nb: &x !!str 6\nc: ~\nd: null\ne: Null\nf:\ng: ''\n",
      "- {id: a, tool: Bash}\n- [x, 'y', \"z\"]\n- ? complex\n  : value\n",
      "a: 1\n---\nb: 2\n",  // only the first document
      "",
      "# only a comment\n",
      "rules:\n  - id: x\n    shell: \"git push *\"\n    examples:\n      match: ['a''b']\n",
      "a: !!str null\nb: ! 5\nc: !!str '5'\nd: !foo x\ne: !!str\n",  // tags decide, as in yaml-cpp
  };
  for (size_t i = 0; i < cases.size(); ++i) expectSameTree(cases[i], "case" + std::to_string(i));
}

// Where yaml-cpp is wrong, the reader follows YAML 1.2.
TEST(YamlReader, KeepChompingAndCharacterColumnsFollowTheSpecification) {
  const DocNode kept = parseYamlDocument("b: >+\n  fold\n  ed\n\nc: x\n", "k.yaml");
  EXPECT_EQ(kept.value(0).Scalar(), "fold ed\n\n");
  const DocNode wide = parseYamlDocument("\xc3\xa9t\xc3\xa9: caf\xc3\xa9\n", "w.yaml");
  EXPECT_EQ(wide.value(0).column(), 6u);  // after "été: ", five characters
}

// Nesting deeper than kMaxDocDepth, and anchors nested in anchors, are load
// errors, not a stack overflow or quadratic work in a hook.
TEST(YamlReader, DeepNestingAndNestedAnchorsAreBounded) {
  const std::string deep = std::string(300000, '[') + std::string(300000, ']');
  try {
    parseYamlDocument(deep, "deep.yaml");
    ADD_FAILURE() << "read";
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find("nested more than"), std::string::npos) << e.what();
  }
  std::string anchors;
  for (int i = 0; i < 250; ++i) anchors += "&a" + std::to_string(i) + " [x, x, x, x, x, x, x, x, ";
  anchors += "x";
  for (int i = 0; i < 250; ++i) anchors += "]";
  std::string text = "a: " + anchors + "\n";
  for (int i = 0; i < 40; ++i) text += "b" + std::to_string(i) + ": [*a0, *a0, *a0, *a0]\n";
  EXPECT_THROW(parseYamlDocument(text, "anchors.yaml"), PolicyError);
}

TEST(YamlReader, BadYamlIsAnErrorWithItsPlace) {
  for (const auto& [text, place] :
       std::vector<std::pair<std::string, std::string>>{{"a: [\n", "bad.yaml:2:1"},
                                                        {"a: b: c\n", "bad.yaml:1:5"},
                                                        {"a: *nope\n", "bad.yaml:"}}) {
    try {
      parseYamlDocument(text, "bad.yaml");
      ADD_FAILURE() << "read: " << text;
    } catch (const PolicyError& e) {
      EXPECT_NE(std::string(e.what()).find(place), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("YAML"), std::string::npos) << e.what();
    }
  }
}

}  // namespace yaml_reader_test
}  // namespace toolguard::detail
