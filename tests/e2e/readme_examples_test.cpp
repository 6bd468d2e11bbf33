// Sample sessions in the README and docs (```console blocks) are run and
// compared with what they show, so an output never drifts from the binary's
// (issue 26). A `$ ` line is a command (a trailing `\` continues it); the
// lines after it, up to the next command, are what it prints. Whitespace and
// line breaks are not compared (samples are wrapped to be read); `<random>`
// in a sample stands for a value that differs on every run (a decision's id).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace readme_examples_test {

namespace fs = std::filesystem;

struct Example {
  std::string file;
  int line = 0;
  std::string command;
  std::string output;
};

std::vector<Example> examplesIn(const fs::path& file) {
  std::vector<Example> out;
  std::ifstream in(file);
  std::string line;
  bool in_console = false;
  int number = 0;
  bool continued = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.starts_with("```")) {
      in_console = !in_console && line == "```console";
      continue;
    }
    if (!in_console) continue;
    if (continued) {
      out.back().command += "\n" + line;
    } else if (line.starts_with("$ ")) {
      out.push_back({file.filename().string(), number, line.substr(2), ""});
    } else if (!out.empty()) {
      out.back().output += line + "\n";
    }
    continued = !out.empty() && line.ends_with('\\') && out.back().output.empty();
  }
  return out;
}

std::string withoutSpace(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  }
  return out;
}

// True when `text` is `sample` with each `<random>` standing for any run of
// characters.
bool matchesSample(const std::string& text, const std::string& sample) {
  const std::string hole = "<random>";
  size_t at = 0;
  size_t from = 0;
  bool first = true;
  while (true) {
    const size_t next = sample.find(hole, from);
    const std::string piece = sample.substr(from, next == std::string::npos ? next : next - from);
    if (first) {
      if (!text.starts_with(piece)) return false;
      at = piece.size();
      first = false;
    } else if (next == std::string::npos) {
      return text.size() >= at + piece.size() && text.ends_with(piece);
    } else {
      const size_t found = text.find(piece, at);
      if (found == std::string::npos) return false;
      at = found + piece.size();
    }
    if (next == std::string::npos) return at == text.size();
    from = next + hole.size();
  }
}

class ReadmeExamples : public Cli {};

TEST_F(ReadmeExamples, EverySampleSessionPrintsWhatItShows) {
  std::vector<fs::path> files = {fs::path(TOOLGUARD_SOURCE_DIR) / "README.md"};
  for (const auto& entry : fs::directory_iterator(fs::path(TOOLGUARD_SOURCE_DIR) / "docs")) {
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  }
  const std::string bin = fs::path(TOOLGUARD_BINARY).parent_path().string();
  auto environment = env();
  environment["PATH"] = bin + ":/usr/bin:/bin";
  size_t ran = 0;
  for (const fs::path& file : files) {
    for (const Example& ex : examplesIn(file)) {
      SCOPED_TRACE(ex.file + ":" + std::to_string(ex.line) + ": " + ex.command);
      RunResult r =
          runBinary("/bin/sh", {"-c", ex.command + " 2>&1"}, "", environment, dir.path().string());
      EXPECT_TRUE(matchesSample(withoutSpace(r.out), withoutSpace(ex.output)))
          << "it printed:\n"
          << r.out << "\nthe sample shows:\n"
          << ex.output;
      ++ran;
    }
  }
  EXPECT_GE(ran, 1u);  // the README's own sample at least
}

}  // namespace readme_examples_test
}  // namespace toolguard::testing
