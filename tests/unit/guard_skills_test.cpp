// Guard skills: parsing skill files, the built-in library, skill directories
// and the languages a call is detected to use.
#include "toolguard/guard_skills.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <optional>

#include "support/calls.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/tool_catalog.hpp"

namespace toolguard {
namespace guard_skills_test {

namespace fs = std::filesystem;
using testing::TempDir;
using Languages = std::vector<std::string>;

const std::string kGood =
    "---\n"
    "name: my-skill\n"
    "description: Reading Rust build scripts\n"
    "language: bash\n"
    "auto_invoke: true\n"
    "---\n"
    "\n"
    "# Title\n"
    "Text.\n";

// The message of the PolicyError that parsing `text` throws, or "" when it parses.
std::string parseError(const std::string& text) {
  try {
    parseGuardSkill(text, "skill.md");
  } catch (const PolicyError& e) {
    return e.what();
  }
  return "";
}

// Sets an environment variable for the test's duration, restoring it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::string skillText(const std::string& name, const std::string& body,
                      const std::string& language = "") {
  return "---\nname: " + name + "\ndescription: d\nlanguage: \"" + language + "\"\n---\n" + body +
         "\n";
}

Languages languagesOf(const std::string& tool, nlohmann::json args) {
  const ToolCall call = testing::makeCall(tool, std::move(args));
  const ToolInfo info = ToolCatalog::builtin().resolve(tool);
  const CallView view(call, info);
  return detectCallLanguages(view);
}

Languages languagesOfCommand(const std::string& command) {
  return languagesOf("Bash", {{"command", command}});
}

// Parsing

TEST(GuardSkillParsing, ReadsFrontMatterAndBody) {
  const GuardSkill skill = parseGuardSkill(kGood, "dir/my-skill.md");
  EXPECT_EQ(skill.name, "my-skill");
  EXPECT_EQ(skill.description, "Reading Rust build scripts");
  EXPECT_EQ(skill.language, "bash");
  EXPECT_TRUE(skill.auto_invoke);
  EXPECT_EQ(skill.body, "# Title\nText.");
  EXPECT_EQ(skill.source, "dir/my-skill.md");
}

TEST(GuardSkillParsing, LanguageAndAutoInvokeAreOptional) {
  const GuardSkill skill = parseGuardSkill("---\nname: x\ndescription: y\n---\nbody\n", "s.md");
  EXPECT_EQ(skill.language, "");
  EXPECT_FALSE(skill.auto_invoke);
  EXPECT_EQ(skill.body, "body");
}

TEST(GuardSkillParsing, AcceptsCrlfLineEndings) {
  std::string crlf;
  for (char c : kGood) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const GuardSkill skill = parseGuardSkill(crlf, "s.md");
  EXPECT_EQ(skill.name, "my-skill");
  EXPECT_EQ(skill.description, "Reading Rust build scripts");
  EXPECT_EQ(skill.body, "# Title\nText.");
  // Line numbers stay those of the file.
  EXPECT_NE(parseError("---\r\nname: x\r\ndescription: y\r\ncolour: red\r\n---\r\nb\r\n")
                .find("skill.md:4:1: unknown key 'colour'"),
            std::string::npos);
}

TEST(GuardSkillParsing, ErrorsNameLineAndColumn) {
  struct Case {
    std::string text;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"name: x\n", "skill.md:1:1: expected '---' on the first line"},
      {"", "skill.md:1:1: expected '---'"},
      {"---\nname: x\ndescription: y\n",
       "skill.md:1:1: the front matter opened here is never closed"},
      {"---\nname: x\ndescription: y\nextra: 1\n---\nb\n", "skill.md:4:1: unknown key 'extra'"},
      {"---\nname: x\nname: y\ndescription: y\n---\nb\n", "skill.md:3:1: duplicate key 'name'"},
      {"---\nname: [a]\ndescription: y\n---\nb\n", "skill.md:2:7: name: expected a string"},
      {"---\nname: 12\ndescription: y\n---\nb\n", "skill.md:2:7: name: expected a string"},
      {"---\nname: x\ndescription: true\n---\nb\n",
       "skill.md:3:14: description: expected a string"},
      {"---\nname: x\ndescription:\nlanguage: go\n---\nb\n",
       "skill.md:3:1: description: expected a string, found no value"},
      {"---\nname: x\ndescription: y\nlanguage: 3\n---\nb\n",
       "skill.md:4:11: language: expected a string"},
      {"---\nname: x\ndescription: y\nauto_invoke: yes\n---\nb\n",
       "skill.md:4:14: auto_invoke: expected true or false"},
      {"---\nname: My_Skill\ndescription: y\n---\nb\n",
       "skill.md:2:7: name: 'My_Skill' is not a skill name"},
      {"---\nname: -x\ndescription: y\n---\nb\n", "skill.md:2:7: name: '-x' is not a skill name"},
      {"---\nname: x\ndescription: y\nlanguage: rust\n---\nb\n",
       "skill.md:4:11: language: unknown language 'rust'"},
      {"---\nname: x\ndescription: y\n---\n\n  \n", "skill.md:5:1: the skill has no text"},
      {"---\nname: x\ndescription: y\n---", "skill.md:5:1: the skill has no text"},
      {"---\ndescription: y\n---\nb\n", "skill.md:2:1: the front matter has no 'name'"},
      {"---\nname: x\n---\nb\n", "skill.md:2:1: the front matter has no 'description'"},
      {"---\n---\nb\n", "skill.md:2:1: the front matter has no 'name'"},
      {"---\n- a\n---\nb\n", "skill.md:2:1: the front matter must be a mapping"},
      {"---\nname: x\ndescription: [y\n---\nb\n", "skill.md:4:1: invalid YAML"},
      {"---\nname: x\ndescription: \"two\\nlines\"\n---\nb\n",
       "skill.md:3:14: description: expected one non-empty line"},
      {"---\nname: x\ndescription: y\nauto_invoke: true\n---\nb\n",
       "skill.md:4:14: auto_invoke: true needs a language"},
  };
  for (const Case& c : cases) {
    const std::string message = parseError(c.text);
    EXPECT_NE(message.find(c.expected), std::string::npos)
        << "text:\n"
        << c.text << "\nmessage: " << message << "\nexpected: " << c.expected;
  }
}

TEST(GuardSkillParsing, ReportsEveryFrontMatterError) {
  const std::string message =
      parseError("---\nname: X\ndescription: y\nlanguage: rust\nother: 1\n---\nb\n");
  EXPECT_NE(message.find("skill.md:2:7:"), std::string::npos) << message;
  EXPECT_NE(message.find("skill.md:4:11:"), std::string::npos) << message;
  EXPECT_NE(message.find("skill.md:5:1:"), std::string::npos) << message;
}

TEST(GuardSkillParsing, AcceptsAnEmptyQuotedLanguageAndAByteOrderMark) {
  const GuardSkill skill =
      parseGuardSkill("\xEF\xBB\xBF---\nname: x\ndescription: y\nlanguage: ''\n---\nb\n", "s.md");
  EXPECT_EQ(skill.language, "");
}

// The built-in library

TEST(GuardSkillLibrary, BuiltinHasTheSixSkills) {
  const GuardSkillLibrary library = GuardSkillLibrary::builtin();
  std::vector<std::string> names;
  for (const GuardSkill& skill : library.all()) {
    names.push_back(skill.name);
    EXPECT_FALSE(skill.description.empty()) << skill.name;
    EXPECT_GT(skill.body.size(), 1000u) << skill.name;
    EXPECT_EQ(skill.source, "<builtin>/" + skill.name + ".md");
    EXPECT_NE(skill.body.find("untrusted"), std::string::npos) << skill.name;
    EXPECT_NE(skill.body.find("ALLOW"), std::string::npos) << skill.name;
  }
  EXPECT_EQ(names, (Languages{"bash", "code-simulation", "go", "js", "powershell", "python"}));
  for (const std::string language : {"bash", "python", "go", "js", "powershell"}) {
    const GuardSkill* skill = library.find(language);
    ASSERT_NE(skill, nullptr) << language;
    EXPECT_EQ(skill->language, language);
    EXPECT_TRUE(skill->auto_invoke) << language;
  }
  const GuardSkill* simulation = library.find("code-simulation");
  ASSERT_NE(simulation, nullptr);
  EXPECT_EQ(simulation->language, "");
  EXPECT_FALSE(simulation->auto_invoke);
  EXPECT_EQ(library.find("rust"), nullptr);
  // Parsed once and shared: a pointer into it stays valid.
  EXPECT_EQ(&GuardSkillLibrary::builtin(), &GuardSkillLibrary::builtin());
  EXPECT_EQ(GuardSkillLibrary::builtin().find("go")->name, "go");
}

TEST(GuardSkillLibrary, BuiltinFilesInTheSourceTreeParse) {
  const GuardSkillLibrary library = GuardSkillLibrary::builtin();
  for (const auto& entry :
       fs::directory_iterator(fs::path(TOOLGUARD_SOURCE_DIR) / "guard-skills")) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const GuardSkill skill = parseGuardSkill(text, entry.path().string());
    EXPECT_EQ(skill.name + ".md", entry.path().filename().string());
    const GuardSkill* builtin = library.find(skill.name);
    ASSERT_NE(builtin, nullptr) << skill.name;
    EXPECT_EQ(builtin->body, skill.body) << "rebuild: the embedded copy is stale";
  }
}

TEST(GuardSkillLibrary, AutoInvokedPicksSkillsOfTheLanguages) {
  const GuardSkillLibrary library = GuardSkillLibrary::builtin();
  std::vector<std::string> names;
  for (const GuardSkill* skill : library.autoInvoked({"python", "bash", "rust"})) {
    names.push_back(skill->name);
  }
  EXPECT_EQ(names, (Languages{"bash", "python"}));
  EXPECT_TRUE(library.autoInvoked({}).empty());
  EXPECT_TRUE(library.autoInvoked({""}).empty());  // code-simulation is asked for, never automatic
}

// Directories

TEST(GuardSkillDirectory, LaterSkillsReplaceEarlierOnesByName) {
  TempDir dir;
  dir.write("user/bash.md", skillText("bash", "user bash", "bash"));
  dir.write("user/extra.md", skillText("extra", "user extra"));
  dir.write("user/notes.txt", "not a skill");
  dir.write("user/.#extra.md", "an editor's lock file");
  dir.write("project/extra.md", skillText("extra", "project extra"));
  const GuardSkillLibrary library =
      loadGuardSkills({dir.path() / "user", dir.path() / "missing", dir.path() / "project"});
  ASSERT_NE(library.find("bash"), nullptr);
  EXPECT_EQ(library.find("bash")->body, "user bash");
  EXPECT_EQ(library.find("bash")->source, (dir.path() / "user/bash.md").string());
  ASSERT_NE(library.find("extra"), nullptr);
  EXPECT_EQ(library.find("extra")->body, "project extra");
  EXPECT_EQ(library.all().size(), 7u);
  EXPECT_NE(library.find("python"), nullptr);
  for (size_t i = 1; i < library.all().size(); ++i) {
    EXPECT_LT(library.all()[i - 1].name, library.all()[i].name);
  }
}

TEST(GuardSkillDirectory, FilesAreAddedInNameOrder) {
  TempDir dir;
  dir.write("skills/b.md", skillText("same", "from b"));
  dir.write("skills/a.md", skillText("same", "from a"));
  GuardSkillLibrary library;
  library.addDirectory(dir.path() / "skills");
  ASSERT_EQ(library.all().size(), 1u);
  EXPECT_EQ(library.all()[0].body, "from b");
}

TEST(GuardSkillDirectory, MissingDirectoryAddsNothing) {
  TempDir dir;
  GuardSkillLibrary library;
  library.addDirectory(dir.path() / "nothing-here");
  library.addDirectory(dir.path() / "nothing-here/deeper");
  EXPECT_TRUE(library.all().empty());
}

TEST(GuardSkillDirectory, BadFileThrowsNamingThePath) {
  TempDir dir;
  const fs::path bad = dir.write("skills/bad.md", "---\nname: Bad\ndescription: d\n---\nb\n");
  GuardSkillLibrary library;
  try {
    library.addDirectory(dir.path() / "skills");
    FAIL() << "a broken skill must not be skipped";
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string() + ":2:7:"), std::string::npos) << e.what();
  }
}

TEST(GuardSkillDirectory, OversizeAndIrregularFilesThrow) {
  TempDir dir;
  const fs::path big =
      dir.write("big/huge.md", skillText("huge", std::string(256 * 1024 + 1, 'x')));
  GuardSkillLibrary library;
  try {
    library.addDirectory(dir.path() / "big");
    FAIL();
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find(big.string() + ": larger than 262144 bytes"),
              std::string::npos)
        << e.what();
  }
  fs::create_directories(dir.path() / "fifo");
  ASSERT_EQ(mkfifo((dir.path() / "fifo/pipe.md").c_str(), 0600), 0);
  try {
    library.addDirectory(dir.path() / "fifo");  // must not block on the FIFO
    FAIL();
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find("regular file"), std::string::npos) << e.what();
  }
  const fs::path file = dir.write("plain-file", "x");
  EXPECT_THROW(library.addDirectory(file), PolicyError);
  EXPECT_TRUE(library.all().empty());
}

TEST(GuardSkillDirectory, DirectoriesIncludeOnlyTrustedProjects) {
  TempDir dir;
  ScopedEnv home("HOME", (dir.path() / "home").string());
  ScopedEnv config("TOOLGUARD_CONFIG_DIR", (dir.path() / "config").string());
  const fs::path trusted = dir.path() / "work/trusted";
  const fs::path untrusted = dir.path() / "work/trusted/vendor/cloned";
  const std::vector<fs::path> dirs = guardSkillDirectories(
      dir.path() / "home/.toolguard", {trusted, untrusted},
      {(dir.path() / "work/other").string(), (dir.path() / "work/./trusted/").string()});
  const fs::path h = dir.path() / "home";
  const std::vector<fs::path> expected = {
      h / ".toolguard/guard-skills", dir.path() / "config/guard-skills",
      h / ".agents/guard-skills",    h / ".claude/guard-skills",
      h / ".bitcode/guard-skills",   trusted / ".toolguard/guard-skills",
  };
  EXPECT_EQ(dirs, expected);

  // A trusted project's skill replaces a user skill; the untrusted one is never read.
  dir.write("config/guard-skills/bash.md", skillText("bash", "config bash", "bash"));
  dir.write("work/trusted/.toolguard/guard-skills/bash.md",
            skillText("bash", "project bash", "bash"));
  dir.write("work/trusted/vendor/cloned/.toolguard/guard-skills/bash.md", "not even a skill");
  const GuardSkillLibrary library = loadGuardSkills(dirs);
  EXPECT_EQ(library.find("bash")->body, "project bash");
}

TEST(GuardSkillDirectory, ConfigDirectoryFollowsXdgWithoutToolguardConfigDir) {
  TempDir dir;
  ScopedEnv home("HOME", (dir.path() / "home").string());
  ScopedEnv xdg("XDG_CONFIG_HOME", (dir.path() / "xdg").string());
  ScopedEnv config("TOOLGUARD_CONFIG_DIR", "");
  const std::vector<fs::path> dirs = guardSkillDirectories({}, {dir.path() / "p"}, {});
  ASSERT_EQ(dirs.size(), 4u);  // no toolguard home given, the project is not trusted
  EXPECT_EQ(dirs[0], dir.path() / "xdg/toolguard/guard-skills");
}

// Language detection

TEST(CallLanguages, ShellCommands) {
  EXPECT_EQ(languagesOfCommand("ls -la"), (Languages{"bash"}));
  EXPECT_EQ(languagesOfCommand("python3 -c 'import os'"), (Languages{"bash", "python"}));
  EXPECT_EQ(languagesOfCommand("cd x && uv run app.py"), (Languages{"bash", "python"}));
  EXPECT_EQ(languagesOfCommand("go test ./..."), (Languages{"bash", "go"}));
  EXPECT_EQ(languagesOfCommand("npx some-pkg"), (Languages{"bash", "js"}));
  EXPECT_EQ(languagesOfCommand("sudo /usr/bin/node x.js"), (Languages{"bash", "js"}));
  EXPECT_EQ(languagesOfCommand("bash -c \"pwsh -c ls\""), (Languages{"bash", "powershell"}));
}

TEST(CallLanguages, CommandNameVariants) {
  EXPECT_EQ(languagesOfCommand("python3.12 x.py"), (Languages{"bash", "python"}));
  EXPECT_EQ(languagesOfCommand("/usr/bin/python"), (Languages{"bash", "python"}));
  EXPECT_EQ(languagesOfCommand("pythonic"), (Languages{"bash"}));
  EXPECT_EQ(languagesOfCommand("python3."), (Languages{"bash"}));
  EXPECT_EQ(languagesOfCommand("uv --quiet run x"), (Languages{"bash", "python"}));
  EXPECT_EQ(languagesOfCommand("uv sync"), (Languages{"bash"}));
  EXPECT_EQ(languagesOfCommand("go -C sub generate ./..."), (Languages{"bash", "go"}));
  EXPECT_EQ(languagesOfCommand("go version"), (Languages{"bash"}));
  EXPECT_EQ(languagesOfCommand("powershell.exe -enc AAAA"), (Languages{"bash", "powershell"}));
  EXPECT_EQ(languagesOfCommand("./tools/deploy.py --prod"), (Languages{"bash", "python"}));
  EXPECT_EQ(languagesOfCommand("echo $(deno eval 1) | go run ."), (Languages{"bash", "go", "js"}));
  EXPECT_EQ(languagesOf("Bash", nlohmann::json::object()), (Languages{"bash"}));
}

TEST(CallLanguages, FileToolsByExtension) {
  EXPECT_EQ(languagesOf("Write", {{"file_path", "src/a.ts"}, {"content", "x"}}), (Languages{"js"}));
  EXPECT_EQ(languagesOf("Read", {{"file_path", "notes.txt"}}), Languages{});
  EXPECT_EQ(languagesOf("Read", {{"file_path", "/x/Setup.PS1"}}), (Languages{"powershell"}));
  EXPECT_EQ(
      languagesOf("Edit", {{"file_path", "run.sh"}, {"old_string", "a"}, {"new_string", "b"}}),
      (Languages{"bash"}));
  EXPECT_EQ(languagesOf("Read", {{"file_path", "/home/u/.bashrc"}}), Languages{});
  EXPECT_EQ(languagesOf("WebFetch", {{"url", "https://example.com/a.py"}}), Languages{});
}

}  // namespace guard_skills_test
}  // namespace toolguard
