// Every C++ example in README.md and docs/ compiles (syntax only, with the
// compiler and include directories of the build), and toolguard.hpp is the
// one include it claims to be.
//
// How a document's ```cpp blocks are compiled: one translation unit per
// document. A block's #include lines go to the top; when no block of the
// document includes anything, <toolguard/toolguard.hpp> is included instead
// (a context's own #include lines are added either way).
// The rest of each block is a statement list, and the blocks of a document
// continue each other (a later block sees what an earlier one declared), so
// block N is compiled in a scope nested inside block N-1's. Names the reader
// is assumed to have (`engine`, `call`, their own `readFile`) come from an
// HTML comment right before the block, invisible on a rendered page:
//
//   <!-- example context:
//   extern toolguard::Engine engine;
//   -->
//
// A block whose info string says `cpp top-level` is put at namespace scope
// (function or type definitions). A block that is deliberately not code a
// reader can compile (an excerpt of a declaration) says `cpp fragment` and is
// listed, not compiled. #line directives make errors name the document line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

namespace toolguard::testing {
namespace {

namespace fs = std::filesystem;

struct Block {
  int first_line = 0;  // 1-based line of the block's first code line
  std::string code;
  int context_line = 0;  // 1-based line of the context's first line, 0 if none
  std::string context;
  bool top_level = false;
  bool fragment = false;
};

struct Document {
  std::string path;  // as errors should name it
  std::vector<Block> blocks;
  std::string error;  // the Markdown could not be read
};

void PrintTo(const Document& doc, std::ostream* out) {
  *out << doc.path;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string trimmed(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") + 1 - begin);
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool isCppInfo(std::string language) {
  std::transform(language.begin(), language.end(), language.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return language == "cpp" || language == "c++" || language == "cxx" || language == "cc" ||
         language == "hpp";
}

constexpr std::string_view kContextStart = "<!-- example context:";

// The C++ blocks of a Markdown text. Throws on an unterminated fence or
// context comment, and on a context comment that no C++ block follows.
std::vector<Block> cppBlocks(const std::string& markdown) {
  std::vector<std::string> lines = splitLines(markdown);
  std::vector<Block> blocks;
  Block pending;  // carries a context until its block
  bool has_pending_context = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string line = trimmed(lines[i]);
    if (line.starts_with(kContextStart)) {
      if (has_pending_context) {
        throw std::runtime_error("line " + std::to_string(i + 1) +
                                 ": an example context follows another without a block");
      }
      has_pending_context = true;
      pending = Block{};
      pending.context_line = static_cast<int>(i) + 2;
      for (++i; i < lines.size() && trimmed(lines[i]) != "-->"; ++i) {
        pending.context += lines[i] + "\n";
      }
      if (i == lines.size()) throw std::runtime_error("an example context without -->");
      continue;
    }
    if (!line.starts_with("```") && !line.starts_with("~~~")) {
      if (has_pending_context && !line.empty()) {
        throw std::runtime_error("line " + std::to_string(i + 1) +
                                 ": an example context must come right before a ```cpp block");
      }
      continue;
    }
    const std::string fence = line.substr(0, line.find_first_not_of(line[0]));
    const std::vector<std::string> info = words(line.substr(fence.size()));
    const bool cpp = !info.empty() && isCppInfo(info[0]);
    if (has_pending_context && !cpp) {
      throw std::runtime_error("line " + std::to_string(i + 1) +
                               ": an example context is followed by a block that is not C++");
    }
    Block block = has_pending_context ? pending : Block{};
    has_pending_context = false;
    block.first_line = static_cast<int>(i) + 2;
    for (size_t w = 1; w < info.size(); ++w) {
      if (info[w] == "fragment") block.fragment = true;
      if (info[w] == "top-level") block.top_level = true;
    }
    for (++i; i < lines.size() && !trimmed(lines[i]).starts_with(fence); ++i) {
      block.code += lines[i] + "\n";
    }
    if (i == lines.size()) throw std::runtime_error("an unterminated ``` block");
    if (cpp) blocks.push_back(std::move(block));
  }
  if (has_pending_context) throw std::runtime_error("an example context at the end");
  return blocks;
}

std::string quoted(const std::string& path) {
  std::string out = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// `text`'s #include lines go to `includes`, the rest (with #line
// directives keeping the document's numbering) is returned.
std::string withoutIncludes(const std::string& text, int first_line, const std::string& file,
                            std::string& includes) {
  std::string body = "#line " + std::to_string(first_line) + " " + quoted(file) + "\n";
  int number = first_line;
  for (const std::string& line : splitLines(text)) {
    if (trimmed(line).starts_with("#include")) {
      includes += "#line " + std::to_string(number) + " " + quoted(file) + "\n" + line + "\n";
      body += "\n";  // keeps the numbering
    } else {
      body += line + "\n";
    }
    ++number;
  }
  return body;
}

// The translation unit that compiles every non-fragment block of `doc`.
std::string translationUnit(const Document& doc) {
  std::string context_includes;
  std::string includes;  // the blocks' own
  std::string namespace_scope;
  std::string function_body;
  int depth = 0;
  for (const Block& block : doc.blocks) {
    if (block.fragment) continue;
    if (!block.context.empty()) {
      namespace_scope +=
          withoutIncludes(block.context, block.context_line, doc.path, context_includes);
    }
    std::string code = withoutIncludes(block.code, block.first_line, doc.path, includes);
    if (block.top_level) {
      namespace_scope += code;
    } else {
      function_body += (depth++ == 0 ? "" : "{\n") + code;
    }
  }
  if (includes.empty()) includes = "#include <toolguard/toolguard.hpp>\n";
  std::string tu = "// Generated from " + doc.path + " by tests/docs/doc_examples_test.cpp\n";
  tu += includes + context_includes;
  tu += "namespace doc_example {\n" + namespace_scope;
  tu += "[[maybe_unused]] void examples() {\n" + function_body;
  tu += std::string(std::max(depth - 1, 0), '}') + "\n}\n}  // namespace doc_example\n";
  return tu;
}

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> out;
  std::string item;
  for (char c : list + "|") {
    if (c == '|') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  return out;
}

// Compiles `source` (syntax only) with the build's compiler and toolguard's
// include directories; the compiler's diagnostics, or "" when it compiled.
std::string compileErrors(const std::string& source, const fs::path& work) {
  const fs::path file = work / "example.cpp";
  std::ofstream(file) << source;
  std::vector<std::string> args = {
      "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
      // Examples show how to call things; what they declare need not be used.
      "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-parameter",
      "-Wno-unused-function", "-Wno-unused-local-typedefs"};
  const std::vector<std::string> implicit = splitList(DOC_EXAMPLES_IMPLICIT_DIRS);
  for (const std::string& dir : splitList(DOC_EXAMPLES_INCLUDE_DIRS)) {
    // A standard directory passed again breaks #include_next in libstdc++.
    if (std::find(implicit.begin(), implicit.end(), dir) != implicit.end()) continue;
    args.push_back("-I" + dir);
  }
  args.push_back(file.string());
  RunResult r = runBinary(DOC_EXAMPLES_CXX, args, "", {}, work.string());
  if (r.exit_code == 0) return "";
  return "exit " + std::to_string(r.exit_code) + "\n" + r.out + r.err;
}

std::vector<Document> documents() {
  const fs::path root = TOOLGUARD_SOURCE_DIR;
  std::vector<fs::path> files = {root / "README.md"};
  for (const auto& entry : fs::recursive_directory_iterator(root / "docs")) {
    if (entry.is_regular_file() && entry.path().extension() == ".md") files.push_back(entry);
  }
  std::sort(files.begin(), files.end());
  std::vector<Document> docs;
  for (const fs::path& file : files) {
    Document doc{fs::relative(file, root).string(), {}, ""};
    try {
      doc.blocks = cppBlocks(slurp(file.string()));
    } catch (const std::exception& e) {
      doc.error = e.what();
    }
    if (!doc.blocks.empty() || !doc.error.empty()) docs.push_back(std::move(doc));
  }
  return docs;
}

class DocExamples : public ::testing::TestWithParam<Document> {};

TEST_P(DocExamples, EveryCppBlockCompiles) {
  const Document& doc = GetParam();
  ASSERT_EQ(doc.error, "") << doc.path;
  for (const Block& block : doc.blocks) {
    if (block.fragment) {
      std::cout << doc.path << ":" << block.first_line - 1
                << ": marked `cpp fragment`, not compiled\n";
    }
  }
  // Kept in the build tree, so that a failure can be looked at.
  std::string name = doc.path;
  std::replace(name.begin(), name.end(), '/', '_');
  const fs::path work = fs::path(DOC_EXAMPLES_WORK_DIR) / name;
  fs::create_directories(work);
  const std::string errors = compileErrors(translationUnit(doc), work);
  if (!errors.empty()) {
    ADD_FAILURE() << "the C++ examples of " << doc.path
                  << " do not compile (generated file: " << (work / "example.cpp").string()
                  << "):\n"
                  << errors;
  }
}

std::string documentName(const ::testing::TestParamInfo<Document>& info) {
  std::string name;
  for (char c : info.param.path) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Docs, DocExamples, ::testing::ValuesIn(documents()), documentName);

TEST(DocExamplesHarness, ABrokenBlockFailsAndNamesTheDocumentLine) {
  // Blocks that include a standard header only, so the harness tests are quick.
  const std::string markdown =
      "# Title\n"
      "\n"
      "```cpp\n"
      "#include <string>\n"
      "std::string v = \"x\";\n"
      "```\n"
      "\n"
      "```cpp\n"
      "v = no_such_name;\n"
      "```\n";
  Document doc{"broken.md", cppBlocks(markdown), ""};
  ASSERT_EQ(doc.blocks.size(), 2u);
  TempDir work;
  const std::string errors = compileErrors(translationUnit(doc), work.path());
  EXPECT_NE(errors.find("broken.md:9"), std::string::npos) << errors;
  EXPECT_EQ(errors.find("broken.md:5"), std::string::npos) << errors;
}

TEST(DocExamplesHarness, ContextsTopLevelBlocksAndFragments) {
  const std::string markdown =
      "<!-- example context:\n"
      "extern std::string tool;\n"
      "-->\n"
      "```cpp\n"
      "#include <string>\n"
      "tool = name();\n"
      "```\n"
      "```cpp top-level\n"
      "std::string name() { return \"Read\"; }\n"
      "```\n"
      "```cpp fragment\n"
      "this is not C++\n"
      "```\n"
      "```sh\n"
      "echo not C++ either\n"
      "```\n"
      "```c++\n"
      "std::string other = tool;  // sees what the blocks before declared\n"
      "```\n";
  Document doc{"ok.md", cppBlocks(markdown), ""};
  ASSERT_EQ(doc.blocks.size(), 4u);
  EXPECT_EQ(doc.blocks[0].context, "extern std::string tool;\n");
  EXPECT_EQ(doc.blocks[0].first_line, 5);
  EXPECT_TRUE(doc.blocks[1].top_level);
  EXPECT_TRUE(doc.blocks[2].fragment);
  TempDir work;
  EXPECT_EQ(compileErrors(translationUnit(doc), work.path()), "");
  // Without its context the first block does not compile.
  doc.blocks[0].context.clear();
  EXPECT_NE(compileErrors(translationUnit(doc), work.path()).find("ok.md:6"), std::string::npos);
}

TEST(DocExamplesHarness, AContextMustComeRightBeforeACppBlock) {
  EXPECT_THROW(cppBlocks("<!-- example context:\nint x;\n-->\ntext\n```cpp\nx;\n```\n"),
               std::runtime_error);
  EXPECT_THROW(cppBlocks("<!-- example context:\nint x;\n-->\n```sh\nls\n```\n"),
               std::runtime_error);
  EXPECT_THROW(cppBlocks("```cpp\nint x;\n"), std::runtime_error);
}

TEST(OneInclude, ToolguardHppIncludesEveryPublicHeader) {
  const fs::path dir = fs::path(TOOLGUARD_SOURCE_DIR) / "include/toolguard";
  const std::string umbrella = slurp((dir / "toolguard.hpp").string());
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == "toolguard.hpp" || entry.path().extension() != ".hpp") continue;
    EXPECT_NE(umbrella.find("#include \"toolguard/" + name + "\""), std::string::npos)
        << "toolguard.hpp does not include " << name;
  }
}

}  // namespace
}  // namespace toolguard::testing
