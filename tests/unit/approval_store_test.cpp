// The approval store: file layout and format, strict reading of corrupt files
// (reported, never overwritten, no approval taken), lookup and its cache, and
// concurrent writers and crashes (forked processes) losing no entry.
#include "toolguard/approval_store.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <re2/re2.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "approval/store_layout.hpp"
#include "support/sanitized_build.hpp"
#include "support/temp_dir.hpp"

namespace toolguard {
namespace approval_store_test {

namespace fs = std::filesystem;
using testing::TempDir;

ApprovalEntry makeEntry(std::string tool, ApprovalBinding binding, std::string value,
                        ApprovalScope scope = ApprovalScope::Global, std::string scope_id = "") {
  ApprovalEntry entry;
  entry.tool = std::move(tool);
  entry.binding = binding;
  entry.value = std::move(value);
  entry.scope = scope;
  entry.scope_id = std::move(scope_id);
  return entry;
}

ApprovalEntry toolEntry(std::string tool, ApprovalScope scope = ApprovalScope::Global,
                        std::string scope_id = "") {
  return makeEntry(std::move(tool), ApprovalBinding::Tool, "", scope, std::move(scope_id));
}

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void writeBytes(const std::string& path, const std::string& bytes) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<std::string> toolsOf(const std::vector<ApprovalEntry>& entries) {
  std::vector<std::string> tools;
  for (const ApprovalEntry& entry : entries) tools.push_back(entry.tool);
  return tools;
}

std::string home(const TempDir& dir) {
  return (dir.path() / "home").string();
}

CallContext contextFor(std::string cwd, std::string agent, std::string session) {
  CallContext context;
  context.cwd = std::move(cwd);
  context.agent = std::move(agent);
  context.session = std::move(session);
  return context;
}

// Waits for a child process; returns its wait status.
int waitFor(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// --- Layout -----------------------------------------------------------------

TEST(ApprovalStoreLayout, FnvHashMatchesTheReferenceValues) {
  EXPECT_EQ(detail::fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(detail::fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(detail::fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(ApprovalStoreLayout, FileNamesAreAReadablePrefixAndAHash) {
  ApprovalStore store("/h");
  EXPECT_EQ(store.fileFor(ApprovalScope::Global, ""), "/h/approvals/global.json");
  const std::string project = store.fileFor(ApprovalScope::Project, "/work/proj");
  EXPECT_TRUE(RE2::FullMatch(project, "/h/approvals/projects/work_proj-[0-9a-f]{16}\\.json"))
      << project;
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(detail::fnv1a64("/work/proj")));
  EXPECT_EQ(project, std::string("/h/approvals/projects/work_proj-") + hash + ".json");
  EXPECT_TRUE(
      store.fileFor(ApprovalScope::Agent, "claude").starts_with("/h/approvals/agents/claude-"));
  EXPECT_TRUE(
      store.fileFor(ApprovalScope::Session, "s 1").starts_with("/h/approvals/sessions/s_1-"));
  // Unsafe bytes, dots at the start and long ids stay file names of their own.
  const std::string dots = detail::scopeFileName("../../etc");
  EXPECT_TRUE(RE2::FullMatch(dots, "etc-[0-9a-f]{16}\\.json")) << dots;
  EXPECT_TRUE(RE2::FullMatch(detail::scopeFileName("\xc3\xa9t\xc3\xa9"), "t-[0-9a-f]{16}\\.json"));
  EXPECT_TRUE(RE2::FullMatch(detail::scopeFileName("///"), "[0-9a-f]{16}\\.json"));
  const std::string long_name = detail::scopeFileName(std::string(300, 'x'));
  EXPECT_EQ(long_name.size(), 40u + 1 + 16 + 5);
  EXPECT_NE(detail::scopeFileName("/a/b"), detail::scopeFileName("/a_b"));
  EXPECT_EQ(ApprovalStore("/h/").fileFor(ApprovalScope::Global, ""), "/h/approvals/global.json");
}

TEST(ApprovalStoreLayout, HomeIsTheFlagThenTheEnvironmentThenTheUsersHome) {
  const char* saved_home = std::getenv("HOME");
  const char* saved_toolguard = std::getenv("TOOLGUARD_HOME");
  const std::string old_home = saved_home ? saved_home : "";
  const std::string old_toolguard = saved_toolguard ? saved_toolguard : "";
  setenv("HOME", "/home/someone", 1);
  setenv("TOOLGUARD_HOME", "/etc/tg", 1);
  EXPECT_EQ(toolguardHome("/flag"), "/flag");
  EXPECT_EQ(toolguardHome(), "/etc/tg");
  setenv("TOOLGUARD_HOME", "", 1);
  EXPECT_EQ(toolguardHome(), "/home/someone/.toolguard");
  unsetenv("TOOLGUARD_HOME");
  EXPECT_EQ(toolguardHome(""), "/home/someone/.toolguard");
  unsetenv("HOME");
  EXPECT_TRUE(toolguardHome().ends_with("/.toolguard"));
  if (saved_home) setenv("HOME", old_home.c_str(), 1);
  if (saved_toolguard) setenv("TOOLGUARD_HOME", old_toolguard.c_str(), 1);
}

TEST(ApprovalStoreLayout, AStoreNeedsAHome) {
  EXPECT_THROW(ApprovalStore(""), ApprovalStoreError);
}

// --- Round trip -----------------------------------------------------------------

TEST(ApprovalStore, AddedEntriesLoadAndListInInsertionOrder) {
  TempDir dir;
  ApprovalStore store(home(dir));
  EXPECT_TRUE(store.load(ApprovalScope::Project, "/work/proj").empty());  // no file yet
  ApprovalEntry first = makeEntry("Bash", ApprovalBinding::Pattern, "npm run test *",
                                  ApprovalScope::Project, "/work/proj");
  first.created = "2026-11-23T10:00:00Z";
  first.note = "terminal prompt";
  EXPECT_TRUE(store.add(first));
  ApprovalEntry read = toolEntry("Read", ApprovalScope::Project, "/work/proj");
  read.rule = "protect-env";
  EXPECT_TRUE(store.add(read));
  EXPECT_TRUE(store.add(makeEntry("Edit", ApprovalBinding::ExactCall, "Edit {\"path\":\"a\"}",
                                  ApprovalScope::Project, "/work/proj")));
  EXPECT_TRUE(store.add(toolEntry("Glob")));
  EXPECT_TRUE(store.add(toolEntry("Grep", ApprovalScope::Agent, "claude")));
  EXPECT_TRUE(store.add(toolEntry("LS", ApprovalScope::Session, "s1")));

  const std::vector<ApprovalEntry> project = store.load(ApprovalScope::Project, "/work/proj");
  ASSERT_EQ(project.size(), 3u);
  EXPECT_EQ(toolsOf(project), (std::vector<std::string>{"Bash", "Read", "Edit"}));
  EXPECT_EQ(project[0].binding, ApprovalBinding::Pattern);
  EXPECT_EQ(project[0].value, "npm run test *");
  EXPECT_EQ(project[0].scope, ApprovalScope::Project);
  EXPECT_EQ(project[0].scope_id, "/work/proj");
  EXPECT_EQ(project[0].created, "2026-11-23T10:00:00Z");
  EXPECT_EQ(project[0].note, "terminal prompt");
  EXPECT_TRUE(RE2::FullMatch(project[1].created, "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"))
      << project[1].created;
  EXPECT_EQ(project[2].value, "Edit {\"path\":\"a\"}");
  EXPECT_EQ(project[0].rule, "");
  EXPECT_EQ(project[1].rule, "protect-env");

  const ApprovalListing listing = store.list();
  EXPECT_TRUE(listing.errors.empty());
  std::set<std::string> tools;
  for (const ApprovalEntry& entry : listing.entries) tools.insert(entry.tool);
  EXPECT_EQ(tools, (std::set<std::string>{"Bash", "Read", "Edit", "Glob", "Grep", "LS"}));
}

TEST(ApprovalStore, FilesAreThePrettyPrintedToolguardFormat) {
  TempDir dir;
  ApprovalStore store(home(dir));
  ApprovalEntry entry = makeEntry("Bash", ApprovalBinding::Pattern, "npm run test *",
                                  ApprovalScope::Project, "/work/proj");
  entry.created = "2026-11-23T10:00:00Z";
  entry.note = "terminal prompt";
  ASSERT_TRUE(store.add(entry));
  ApprovalEntry any_ask = toolEntry("Read", ApprovalScope::Project, "/work/proj");
  any_ask.rule = "*";
  any_ask.created = "2026-11-23T10:00:01Z";
  ASSERT_TRUE(store.add(any_ask));
  const std::string path = store.fileFor(ApprovalScope::Project, "/work/proj");
  EXPECT_EQ(readBytes(path),
            "{\n"
            "  \"version\": 1,\n"
            "  \"format\": \"toolguard-approvals\",\n"
            "  \"scope\": \"project\",\n"
            "  \"scope_id\": \"/work/proj\",\n"
            "  \"entries\": [\n"
            "    {\n"
            "      \"tool\": \"Bash\",\n"
            "      \"binding\": \"pattern\",\n"
            "      \"value\": \"npm run test *\",\n"
            "      \"created\": \"2026-11-23T10:00:00Z\",\n"
            "      \"note\": \"terminal prompt\"\n"
            "    },\n"
            "    {\n"
            "      \"tool\": \"Read\",\n"
            "      \"binding\": \"tool\",\n"
            "      \"value\": \"\",\n"
            "      \"rule\": \"*\",\n"
            "      \"created\": \"2026-11-23T10:00:01Z\",\n"
            "      \"note\": \"\"\n"
            "    }\n"
            "  ]\n"
            "}\n");
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(stat((path + ".lock").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(stat(fs::path(path).parent_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(stat((home(dir) + "/approvals").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST(ApprovalStore, TheSameGrantIsNotAddedTwice) {
  TempDir dir;
  ApprovalStore store(home(dir));
  ApprovalEntry entry = makeEntry("Bash", ApprovalBinding::Pattern, "git status *");
  ASSERT_TRUE(store.add(entry));
  const std::string before = readBytes(store.fileFor(ApprovalScope::Global, ""));
  entry.note = "another note";
  entry.created = "2020-01-01T00:00:00Z";
  EXPECT_FALSE(store.add(entry));
  EXPECT_EQ(readBytes(store.fileFor(ApprovalScope::Global, "")), before);
  // A different value, binding or scope is another grant.
  EXPECT_TRUE(store.add(makeEntry("Bash", ApprovalBinding::Pattern, "git log *")));
  EXPECT_TRUE(store.add(makeEntry("Bash", ApprovalBinding::ExactCall, "git status *")));
  EXPECT_TRUE(store.add(
      makeEntry("Bash", ApprovalBinding::Pattern, "git status *", ApprovalScope::Session, "s")));
  ApprovalEntry for_rule = makeEntry("Bash", ApprovalBinding::Pattern, "git status *");
  for_rule.rule = "git-rule";
  EXPECT_TRUE(store.add(for_rule));
  EXPECT_FALSE(store.add(for_rule));
  EXPECT_EQ(store.load(ApprovalScope::Global, "").size(), 4u);
}

TEST(ApprovalStore, RemoveTakesOutTheMatchingEntries) {
  TempDir dir;
  ApprovalStore store(home(dir));
  for (const char* tool : {"A", "B", "C", "D"}) {
    ASSERT_TRUE(store.add(toolEntry(tool, ApprovalScope::Agent, "bot")));
  }
  const std::vector<ApprovalEntry> removed = store.remove(
      ApprovalScope::Agent, "bot",
      [](const ApprovalEntry& entry) { return entry.tool == "B" || entry.tool == "D"; });
  EXPECT_EQ(toolsOf(removed), (std::vector<std::string>{"B", "D"}));
  EXPECT_EQ(removed[0].scope_id, "bot");
  EXPECT_EQ(toolsOf(store.load(ApprovalScope::Agent, "bot")), (std::vector<std::string>{"A", "C"}));
  EXPECT_TRUE(store.remove(ApprovalScope::Agent, "bot", [](const ApprovalEntry&) { return false; })
                  .empty());
  // Removing from a scope without a file changes nothing and creates nothing.
  EXPECT_TRUE(
      store.remove(ApprovalScope::Session, "none", [](const ApprovalEntry&) { return true; })
          .empty());
  EXPECT_FALSE(fs::exists(home(dir) + "/approvals/sessions"));
}

TEST(ApprovalStore, ScopeIdsMustFitTheScope) {
  TempDir dir;
  ApprovalStore store(home(dir));
  EXPECT_THROW(store.add(toolEntry("A", ApprovalScope::Global, "x")), ApprovalStoreError);
  EXPECT_THROW(store.add(toolEntry("A", ApprovalScope::Session, "")), ApprovalStoreError);
  EXPECT_THROW(store.load(ApprovalScope::Project, ""), ApprovalStoreError);
  EXPECT_THROW(store.add(toolEntry("", ApprovalScope::Global)), ApprovalStoreError);
  EXPECT_THROW(store.add(makeEntry("Bash", ApprovalBinding::Pattern, "")), ApprovalStoreError);
  EXPECT_THROW(store.add(makeEntry("Bash", ApprovalBinding::ExactCall, "")), ApprovalStoreError);
  EXPECT_FALSE(fs::exists(home(dir) + "/approvals/global.json"));
}

TEST(ApprovalStore, AnEntryThatIsNotUtf8IsRefusedAndLeavesNoTemporaryFile) {
  TempDir dir;
  ApprovalStore store(home(dir));
  ASSERT_TRUE(store.add(toolEntry("Read")));
  const std::string path = store.fileFor(ApprovalScope::Global, "");
  const std::string before = readBytes(path);
  EXPECT_THROW(store.add(makeEntry("Bash", ApprovalBinding::Pattern, "\xff\xfe")),
               ApprovalStoreError);
  EXPECT_EQ(readBytes(path), before);
  for (const auto& item : fs::directory_iterator(fs::path(path).parent_path())) {
    EXPECT_EQ(item.path().filename().string().find(".tmp."), std::string::npos) << item.path();
  }
}

// --- The plain format ------------------------------------------------------------

TEST(ApprovalStorePlainFormat, IsReadAsToolEntriesOfTheScope) {
  TempDir dir;
  ApprovalStore store(home(dir));
  const std::string path = store.fileFor(ApprovalScope::Project, "/work/proj");
  writeBytes(path, R"({"version": 1, "allowed_tools": ["Read", "Grep"]})");
  const std::vector<ApprovalEntry> entries = store.load(ApprovalScope::Project, "/work/proj");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].tool, "Read");
  EXPECT_EQ(entries[0].binding, ApprovalBinding::Tool);
  EXPECT_EQ(entries[0].value, "");
  EXPECT_EQ(entries[0].scope, ApprovalScope::Project);
  EXPECT_EQ(entries[0].scope_id, "/work/proj");
  const ApprovalListing found = store.lookup(contextFor("/work/proj", "", ""));
  EXPECT_TRUE(found.errors.empty());
  EXPECT_EQ(toolsOf(found.entries), (std::vector<std::string>{"Read", "Grep"}));
}

TEST(ApprovalStorePlainFormat, IsRewrittenInTheToolguardFormatOnAdd) {
  TempDir dir;
  ApprovalStore store(home(dir));
  const std::string path = store.fileFor(ApprovalScope::Global, "");
  const std::string plain = R"({"version": 1, "allowed_tools": ["Read", "Grep"]})";
  writeBytes(path, plain);
  EXPECT_FALSE(store.add(toolEntry("Read")));  // already granted: the file is not touched
  EXPECT_EQ(readBytes(path), plain);
  EXPECT_TRUE(store.add(toolEntry("Write")));
  const nlohmann::json written = nlohmann::json::parse(readBytes(path));
  EXPECT_EQ(written["format"], "toolguard-approvals");
  EXPECT_EQ(written["scope"], "global");
  EXPECT_FALSE(written.contains("allowed_tools"));
  EXPECT_EQ(toolsOf(store.load(ApprovalScope::Global, "")),
            (std::vector<std::string>{"Read", "Grep", "Write"}));
  EXPECT_EQ(written["entries"][0]["binding"], "tool");
}

TEST(ApprovalStorePlainFormat, WithOtherKeysIsReadButNeverRewritten) {
  TempDir dir;
  ApprovalStore store(home(dir));
  const std::string path = store.fileFor(ApprovalScope::Global, "");
  const std::string plain =
      R"({"version": 1, "allowed_tools": ["Read"], "denied_tools": ["Bash"]})";
  writeBytes(path, plain);
  EXPECT_EQ(toolsOf(store.load(ApprovalScope::Global, "")), (std::vector<std::string>{"Read"}));
  try {
    store.add(toolEntry("Write"));
    ADD_FAILURE() << "add rewrote a plain file with other keys";
  } catch (const ApprovalStoreError& error) {
    EXPECT_NE(std::string(error.what()).find("denied_tools"), std::string::npos) << error.what();
  }
  EXPECT_EQ(readBytes(path), plain);
}

TEST(ApprovalStorePlainFormat, ImportAddsTheNamesNotYetGranted) {
  TempDir dir;
  ApprovalStore store(home(dir));
  ASSERT_TRUE(store.add(toolEntry("Read", ApprovalScope::Agent, "bot")));
  const std::string source =
      dir.write("framework/approvals.json",
                R"({"version": 1, "allowed_tools": ["Read", "Grep", "Glob", "Grep"], "other": 1})")
          .string();
  const std::vector<ApprovalEntry> added = store.importPlain(source, ApprovalScope::Agent, "bot");
  EXPECT_EQ(toolsOf(added), (std::vector<std::string>{"Grep", "Glob"}));
  EXPECT_EQ(added[0].note, "import " + source);
  EXPECT_EQ(added[0].scope, ApprovalScope::Agent);
  EXPECT_EQ(toolsOf(store.load(ApprovalScope::Agent, "bot")),
            (std::vector<std::string>{"Read", "Grep", "Glob"}));
  EXPECT_TRUE(store.importPlain(source, ApprovalScope::Agent, "bot").empty());
}

TEST(ApprovalStorePlainFormat, ImportRefusesAnythingElse) {
  TempDir dir;
  ApprovalStore store(home(dir));
  const std::string missing = (dir.path() / "missing.json").string();
  EXPECT_THROW(store.importPlain(missing, ApprovalScope::Global, ""), ApprovalStoreError);
  for (
      const std::string text :
      {R"({"version": 1, "format": "toolguard-approvals", "scope": "global", "scope_id": "", "entries": []})",
       R"({"version": 2, "allowed_tools": ["Read"]})", R"({"allowed_tools": ["Read"]})",
       R"({"version": 1, "allowed_tools": "Read"})", R"({"version": 1, "allowed_tools": [1]})",
       R"({"version": 1, "allowed_tools": [""]})", "[1]", "", "{"}) {
    const std::string source = dir.write("source.json", text).string();
    try {
      store.importPlain(source, ApprovalScope::Global, "");
      ADD_FAILURE() << "imported " << text;
    } catch (const ApprovalStoreError& error) {
      EXPECT_EQ(error.path(), source);
      EXPECT_TRUE(std::string(error.what()).starts_with(source + ": ")) << error.what();
    }
  }
  EXPECT_FALSE(fs::exists(store.fileFor(ApprovalScope::Global, "")));
}

// --- Bad files ----------------------------------------------------------------

TEST(ApprovalStoreBadFiles, AFileOfAnotherScopeIdIsAnError) {
  TempDir dir;
  ApprovalStore store(home(dir));
  ASSERT_TRUE(store.add(toolEntry("Read", ApprovalScope::Project, "/a")));
  const std::string path_b = store.fileFor(ApprovalScope::Project, "/b");
  fs::create_directories(fs::path(path_b).parent_path());
  fs::copy_file(store.fileFor(ApprovalScope::Project, "/a"), path_b);
  const std::string before = readBytes(path_b);
  try {
    store.load(ApprovalScope::Project, "/b");
    ADD_FAILURE() << "loaded the file of another scope id";
  } catch (const ApprovalStoreError& error) {
    EXPECT_EQ(error.path(), path_b);
    EXPECT_NE(std::string(error.what()).find("\"/a\""), std::string::npos) << error.what();
  }
  const ApprovalListing found = store.lookup(contextFor("/b", "", ""));
  EXPECT_TRUE(found.entries.empty());
  ASSERT_EQ(found.errors.size(), 1u);
  EXPECT_TRUE(found.errors[0].starts_with(path_b + ": ")) << found.errors[0];
  EXPECT_THROW(store.add(toolEntry("Grep", ApprovalScope::Project, "/b")), ApprovalStoreError);
  EXPECT_EQ(readBytes(path_b), before);
  // list() finds it misplaced; the good copy is listed.
  const ApprovalListing listing = store.list();
  EXPECT_EQ(listing.entries.size(), 1u);
  ASSERT_EQ(listing.errors.size(), 1u);
  EXPECT_TRUE(listing.errors[0].starts_with(path_b + ": ")) << listing.errors[0];
}

struct CorruptCase {
  const char* name;
  const char* bytes;
  const char* expected_problem;  // a part of the error message
};

void PrintTo(const CorruptCase& value, std::ostream* out) {
  *out << value.name;
}

class ApprovalStoreCorruptFile : public ::testing::TestWithParam<CorruptCase> {};

TEST_P(ApprovalStoreCorruptFile, IsReportedNeverOverwrittenAndGrantsNothing) {
  TempDir dir;
  ApprovalStore store(home(dir));
  ASSERT_TRUE(store.add(toolEntry("Glob", ApprovalScope::Agent, "bot")));  // a good file next to it
  const std::string path = store.fileFor(ApprovalScope::Global, "");
  const std::string bytes = GetParam().bytes;
  writeBytes(path, bytes);

  try {
    store.load(ApprovalScope::Global, "");
    ADD_FAILURE() << "loaded a corrupt file";
  } catch (const ApprovalStoreError& error) {
    EXPECT_EQ(error.path(), path);
    const std::string message = error.what();
    EXPECT_TRUE(message.starts_with(path + ": ")) << message;
    EXPECT_NE(message.find(GetParam().expected_problem), std::string::npos) << message;
  }
  const ApprovalListing found = store.lookup(contextFor("/work", "bot", "s"));
  EXPECT_EQ(toolsOf(found.entries), (std::vector<std::string>{"Glob"}));
  ASSERT_EQ(found.errors.size(), 1u);
  EXPECT_TRUE(found.errors[0].starts_with(path + ": ")) << found.errors[0];
  // Again, from the cache.
  EXPECT_EQ(store.lookup(contextFor("/work", "bot", "s")).errors, found.errors);

  EXPECT_THROW(store.add(toolEntry("Read")), ApprovalStoreError);
  EXPECT_EQ(readBytes(path), bytes);
  EXPECT_THROW(store.remove(ApprovalScope::Global, "", [](const ApprovalEntry&) { return true; }),
               ApprovalStoreError);
  EXPECT_EQ(readBytes(path), bytes);
  EXPECT_THROW(store.importPlain(dir.write("p.json", R"({"version": 1, "allowed_tools": ["X"]})"),
                                 ApprovalScope::Global, ""),
               ApprovalStoreError);
  EXPECT_EQ(readBytes(path), bytes);

  const ApprovalListing listing = store.list();
  EXPECT_EQ(toolsOf(listing.entries), (std::vector<std::string>{"Glob"}));
  EXPECT_EQ(listing.errors.size(), 1u);
}

constexpr const char* kHead =
    R"({"version": 1, "format": "toolguard-approvals", "scope": "global", "scope_id": "", )";

std::string withEntries(const char* entries) {
  std::string text = kHead;
  text.append("\"entries\": ");
  text.append(entries);
  text.append("}");
  return text;
}

// Kept alive for the parameter table, which holds pointers.
const std::string kEntriesNotArray = withEntries("{}");
const std::string kToolNotString = withEntries(R"([{"tool": 1, "binding": "tool"}])");
const std::string kUnknownBinding = withEntries(R"([{"tool": "Bash", "binding": "always"}])");
const std::string kMissingTool = withEntries(R"([{"binding": "tool"}])");
const std::string kEntryNotObject = withEntries(R"(["Bash"])");
const std::string kPatternWithoutValue = withEntries(R"([{"tool": "Bash", "binding": "pattern"}])");
const std::string kUnknownEntryKey =
    withEntries(R"([{"tool": "Bash", "binding": "tool", "expires": "never"}])");
const std::string kRuleNotString =
    withEntries(R"([{"tool": "Bash", "binding": "tool", "rule": 1}])");
const std::string kNoteNotString =
    withEntries(R"([{"tool": "Bash", "binding": "tool", "note": null}])");

INSTANTIATE_TEST_SUITE_P(
    Cases, ApprovalStoreCorruptFile,
    ::testing::Values(
        CorruptCase{"Garbage", "this is not json", "not valid JSON (at byte 2)"},
        CorruptCase{"Truncated", R"({"version": 1, "format": "toolguard-approvals", "sco)",
                    "not valid JSON"},
        CorruptCase{"Empty", "", "empty file (0 bytes)"},
        CorruptCase{"NotAnObject", "[]", "must be a JSON object"},
        CorruptCase{
            "UnknownVersion",
            R"({"version": 2, "format": "toolguard-approvals", "scope": "global", "scope_id": "", "entries": []})",
            "unsupported \"version\" 2"},
        CorruptCase{
            "VersionNotANumber",
            R"({"version": "1", "format": "toolguard-approvals", "scope": "global", "scope_id": "", "entries": []})",
            "unsupported \"version\""},
        CorruptCase{
            "UnknownFormat",
            R"({"version": 1, "format": "other", "scope": "global", "scope_id": "", "entries": []})",
            "unknown \"format\""},
        CorruptCase{
            "UnknownScope",
            R"({"version": 1, "format": "toolguard-approvals", "scope": "planet", "scope_id": "", "entries": []})",
            "unknown \"scope\""},
        CorruptCase{
            "MissingEntries",
            R"({"version": 1, "format": "toolguard-approvals", "scope": "global", "scope_id": ""})",
            "missing \"entries\""},
        CorruptCase{"NeitherFormat", R"({"version": 1})", "neither"},
        CorruptCase{"EntriesNotArray", kEntriesNotArray.c_str(), "\"entries\" must be an array"},
        CorruptCase{"ToolNotString", kToolNotString.c_str(), "entries[0].tool must be a string"},
        CorruptCase{"UnknownBinding", kUnknownBinding.c_str(), "unknown binding \"always\""},
        CorruptCase{"MissingTool", kMissingTool.c_str(), "entries[0]: missing \"tool\""},
        CorruptCase{"EntryNotObject", kEntryNotObject.c_str(), "entries[0] must be an object"},
        CorruptCase{"PatternWithoutValue", kPatternWithoutValue.c_str(), "entries[0].value"},
        CorruptCase{"UnknownEntryKey", kUnknownEntryKey.c_str(), "unknown key \"expires\""},
        CorruptCase{"RuleNotString", kRuleNotString.c_str(), "entries[0].rule must be a string"},
        CorruptCase{"NoteNotString", kNoteNotString.c_str(), "entries[0].note must be a string"},
        CorruptCase{"PlainNamesNotStrings", R"({"version": 1, "allowed_tools": [true]})",
                    "allowed_tools[0] must be a string"}),
    [](const ::testing::TestParamInfo<CorruptCase>& info) { return info.param.name; });

TEST(ApprovalStoreBadFiles, AnUnreadableFileIsAnError) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads files whatever their mode";
  TempDir dir;
  ApprovalStore store(home(dir));
  ASSERT_TRUE(store.add(toolEntry("Read")));
  const std::string path = store.fileFor(ApprovalScope::Global, "");
  const std::string before = readBytes(path);
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  EXPECT_THROW(store.load(ApprovalScope::Global, ""), ApprovalStoreError);
  const ApprovalListing found = store.lookup(contextFor("/w", "", ""));
  EXPECT_TRUE(found.entries.empty());
  ASSERT_EQ(found.errors.size(), 1u);
  EXPECT_TRUE(found.errors[0].starts_with(path + ": ")) << found.errors[0];
  EXPECT_THROW(store.add(toolEntry("Grep")), ApprovalStoreError);
  ASSERT_EQ(chmod(path.c_str(), 0600), 0);
  EXPECT_EQ(readBytes(path), before);
}

TEST(ApprovalStoreBadFiles, ADirectoryInPlaceOfAFileIsAnError) {
  TempDir dir;
  ApprovalStore store(home(dir));
  const std::string path = store.fileFor(ApprovalScope::Global, "");
  fs::create_directories(path);
  EXPECT_THROW(store.load(ApprovalScope::Global, ""), ApprovalStoreError);
  EXPECT_EQ(store.lookup(contextFor("/w", "", "")).errors.size(), 1u);
  EXPECT_THROW(store.add(toolEntry("Read")), ApprovalStoreError);
  EXPECT_TRUE(fs::is_directory(path));
}

// --- Lookup -----------------------------------------------------------------------

TEST(ApprovalStoreLookup, TakesTheGlobalProjectAgentAndSessionFilesOfTheCall) {
  TempDir dir;
  ApprovalStore store(home(dir));
  ASSERT_TRUE(store.add(toolEntry("Global")));
  ASSERT_TRUE(store.add(toolEntry("Project", ApprovalScope::Project, "/work/proj")));
  ASSERT_TRUE(store.add(toolEntry("OtherProject", ApprovalScope::Project, "/work/other")));
  ASSERT_TRUE(store.add(toolEntry("Agent", ApprovalScope::Agent, "claude")));
  ASSERT_TRUE(store.add(toolEntry("OtherAgent", ApprovalScope::Agent, "gemini")));
  ASSERT_TRUE(store.add(toolEntry("Session", ApprovalScope::Session, "s1")));
  ASSERT_TRUE(store.add(toolEntry("OtherSession", ApprovalScope::Session, "s2")));

  ApprovalListing found = store.lookup(contextFor("/work/proj", "claude", "s1"));
  EXPECT_TRUE(found.errors.empty());
  EXPECT_EQ(toolsOf(found.entries),
            (std::vector<std::string>{"Global", "Project", "Agent", "Session"}));

  // The project is the first workspace root, normalized, before the cwd.
  CallContext context = contextFor("/work/proj/src", "", "");
  context.workspace_roots = {"/work/proj/./"};
  EXPECT_EQ(toolsOf(store.lookup(context).entries),
            (std::vector<std::string>{"Global", "Project"}));

  // No cwd, agent or session: only global entries.
  EXPECT_EQ(toolsOf(store.lookup(CallContext{}).entries), (std::vector<std::string>{"Global"}));
  EXPECT_EQ(toolsOf(store.lookup(contextFor("/work/other", "", "s3")).entries),
            (std::vector<std::string>{"Global", "OtherProject"}));
}

TEST(ApprovalStoreLookup, NoFilesNoEntries) {
  TempDir dir;
  ApprovalStore store(home(dir));
  const ApprovalListing found = store.lookup(contextFor("/w", "a", "s"));
  EXPECT_TRUE(found.entries.empty());
  EXPECT_TRUE(found.errors.empty());
  EXPECT_FALSE(fs::exists(home(dir)));
  const ApprovalListing listing = store.list();
  EXPECT_TRUE(listing.entries.empty());
  EXPECT_TRUE(listing.errors.empty());
}

TEST(ApprovalStoreLookup, TheCacheNoticesChangesMadeElsewhere) {
  TempDir dir;
  ApprovalStore reader(home(dir));
  ApprovalStore writer(home(dir));
  const CallContext context = contextFor("/work/proj", "", "s1");
  EXPECT_TRUE(reader.lookup(context).entries.empty());
  ASSERT_TRUE(writer.add(toolEntry("Aaaa", ApprovalScope::Session, "s1")));
  EXPECT_EQ(toolsOf(reader.lookup(context).entries), (std::vector<std::string>{"Aaaa"}));
  EXPECT_EQ(toolsOf(reader.lookup(context).entries), (std::vector<std::string>{"Aaaa"}));
  ASSERT_TRUE(writer.add(toolEntry("Bbbb", ApprovalScope::Session, "s1")));
  EXPECT_EQ(toolsOf(reader.lookup(context).entries), (std::vector<std::string>{"Aaaa", "Bbbb"}));
  writer.remove(ApprovalScope::Session, "s1",
                [](const ApprovalEntry& entry) { return entry.tool == "Aaaa"; });
  EXPECT_EQ(toolsOf(reader.lookup(context).entries), (std::vector<std::string>{"Bbbb"}));

  // An edit in place of the same size, at once: same inode, size and maybe time.
  const std::string path = reader.fileFor(ApprovalScope::Session, "s1");
  std::string bytes = readBytes(path);
  bytes.replace(bytes.find("Bbbb"), 4, "Cccc");
  writeBytes(path, bytes);
  EXPECT_EQ(toolsOf(reader.lookup(context).entries), (std::vector<std::string>{"Cccc"}));

  // A file that disappears grants nothing any more.
  fs::remove(path);
  EXPECT_TRUE(reader.lookup(context).entries.empty());
}

// Sets a file's modification time an hour back, so the cache trusts its stamp.
timespec ageFile(const std::string& path) {
  timespec times[2];
  clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= 3600;
  times[1] = times[0];
  EXPECT_EQ(utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  return times[1];
}

TEST(ApprovalStoreLookup, AnUnchangedFileIsNotReadAgain) {
  TempDir dir;
  ApprovalStore reader(home(dir));
  ApprovalStore writer(home(dir));
  const CallContext context = contextFor("/w", "", "s1");
  ASSERT_TRUE(writer.add(toolEntry("Aaaa", ApprovalScope::Session, "s1")));
  const std::string path = reader.fileFor(ApprovalScope::Session, "s1");
  const timespec old_time = ageFile(path);
  EXPECT_EQ(toolsOf(reader.lookup(context).entries), (std::vector<std::string>{"Aaaa"}));

  // The same inode, size and time: the cached reading is used (no read).
  std::string bytes = readBytes(path);
  bytes.replace(bytes.find("Aaaa"), 4, "Bbbb");
  writeBytes(path, bytes);
  const timespec times[2] = {old_time, old_time};
  ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  EXPECT_EQ(toolsOf(reader.lookup(context).entries), (std::vector<std::string>{"Aaaa"}));
  EXPECT_EQ(toolsOf(ApprovalStore(home(dir)).lookup(context).entries),
            (std::vector<std::string>{"Bbbb"}));

  // A rewrite by another store is a new inode: read again.
  ASSERT_TRUE(writer.add(toolEntry("Cccc", ApprovalScope::Session, "s1")));
  ageFile(path);
  EXPECT_EQ(toolsOf(reader.lookup(context).entries), (std::vector<std::string>{"Bbbb", "Cccc"}));
  // An edit in place that changes the size: read again.
  bytes = readBytes(path);
  bytes.replace(bytes.find("Cccc"), 4, "Dddddd");
  writeBytes(path, bytes);
  ageFile(path);
  EXPECT_EQ(toolsOf(reader.lookup(context).entries), (std::vector<std::string>{"Bbbb", "Dddddd"}));
}

TEST(ApprovalStoreLookup, ManyThreadsLookUpAndAddAtOnce) {
  TempDir dir;
  ApprovalStore store(home(dir));
  const CallContext context = contextFor("/w", "", "");
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      ApprovalStore own(home(dir));
      for (int i = 0; i < 10; ++i) {
        ApprovalStore& target = (i % 2 == 0) ? store : own;
        std::string name = "T";  // (appends: GCC 12 -Wrestrict misfires on "T" + ...)
        name.append(std::to_string(t)).append("-").append(std::to_string(i));
        if (!target.add(toolEntry(name))) ++failures;
        if (!store.lookup(context).errors.empty()) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(store.lookup(context).entries.size(), 40u);
}

// --- Listing ------------------------------------------------------------------------

TEST(ApprovalStoreList, SkipsTemporaryAndLockFilesAndReportsBadOnes) {
  TempDir dir;
  ApprovalStore store(home(dir));
  ASSERT_TRUE(store.add(toolEntry("Read", ApprovalScope::Project, "/p")));
  const std::string file = store.fileFor(ApprovalScope::Project, "/p");
  writeBytes(file + ".tmp.123.abcdef", "{ half written");
  writeBytes(home(dir) + "/approvals/projects/notes.txt", "not ours");
  writeBytes(home(dir) + "/approvals/agents/broken.json", "{");
  writeBytes(home(dir) + "/approvals/sessions/copied.json",
             R"({"version": 1, "allowed_tools": ["Grep"]})");
  const ApprovalListing listing = store.list();
  EXPECT_EQ(toolsOf(listing.entries), (std::vector<std::string>{"Read", "Grep"}));
  EXPECT_EQ(listing.entries[1].scope, ApprovalScope::Session);
  EXPECT_EQ(listing.entries[1].scope_id, "");  // a plain file does not record it
  ASSERT_EQ(listing.errors.size(), 1u);
  EXPECT_NE(listing.errors[0].find("broken.json: "), std::string::npos) << listing.errors[0];
}

TEST(ApprovalStoreList, ReportsAFileInTheDirectoryOfAnotherScope) {
  TempDir dir;
  ApprovalStore store(home(dir));
  ASSERT_TRUE(store.add(toolEntry("Read", ApprovalScope::Agent, "bot")));
  const std::string agent_file = store.fileFor(ApprovalScope::Agent, "bot");
  const std::string moved =
      home(dir) + "/approvals/sessions/" + fs::path(agent_file).filename().string();
  fs::create_directories(fs::path(moved).parent_path());
  fs::copy_file(agent_file, moved);
  const ApprovalListing listing = store.list();
  EXPECT_EQ(listing.entries.size(), 1u);
  ASSERT_EQ(listing.errors.size(), 1u);
  EXPECT_TRUE(listing.errors[0].starts_with(moved + ": ")) << listing.errors[0];
}

// --- Many processes ---------------------------------------------------------------

// Every add re-reads and rewrites the whole file, so the work grows with the
// square of the entries; sanitizers make JSON parsing many times slower, and
// their builds check memory, not scale: they add fewer entries.
constexpr int kStressEntriesEach = testing::kSanitizedBuild ? 10 : 50;

TEST(ApprovalStoreStress, TwentyProcessesAddingAtOnceLoseNoEntry) {
  constexpr int kProcesses = 20;
  constexpr int kEntriesEach = kStressEntriesEach;
  TempDir dir;
  const std::string store_home = home(dir);
  const auto start = std::chrono::steady_clock::now();
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0) << "fork failed";
    if (pid == 0) {
      try {
        ApprovalStore store(store_home);
        for (int i = 0; i < kEntriesEach; ++i) {
          const std::string value = "cmd " + std::to_string(p) + " " + std::to_string(i) + " *";
          if (!store.add(makeEntry("Bash", ApprovalBinding::Pattern, value, ApprovalScope::Project,
                                   "/work/proj"))) {
            _exit(2);
          }
        }
      } catch (...) {
        _exit(1);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    const int status = waitFor(pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  }
  ApprovalStore store(store_home);
  const std::vector<ApprovalEntry> entries = store.load(ApprovalScope::Project, "/work/proj");
  std::set<std::string> values;
  for (const ApprovalEntry& entry : entries) values.insert(entry.value);
  EXPECT_EQ(entries.size(), size_t{kProcesses * kEntriesEach});
  EXPECT_EQ(values.size(), size_t{kProcesses * kEntriesEach});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ info     ] %d processes x %d adds: %.2f s\n", kProcesses, kEntriesEach, seconds);
}

TEST(ApprovalStoreStress, ProcessesKilledAtRandomMomentsLeaveAReadableFile) {
  constexpr int kRounds = 30;
  constexpr int kProcesses = 3;
  TempDir dir;
  const std::string store_home = home(dir);
  std::mt19937 random(12345);
  std::uniform_int_distribution<int> pause_us(0, 20000);
  const auto start = std::chrono::steady_clock::now();
  size_t previous_count = 0;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
      const pid_t pid = fork();
      ASSERT_GE(pid, 0) << "fork failed";
      if (pid == 0) {
        try {
          ApprovalStore store(store_home);
          for (int i = 0;; ++i) {
            const std::string value = "r" + std::to_string(round) + " p" + std::to_string(p) + " " +
                                      std::to_string(i) + " *";
            store.add(makeEntry("Bash", ApprovalBinding::Pattern, value));
          }
        } catch (...) {
          _exit(1);
        }
      }
      children.push_back(pid);
    }
    usleep(static_cast<useconds_t>(pause_us(random)));
    for (pid_t pid : children) kill(pid, SIGKILL);
    for (pid_t pid : children) {
      const int status = waitFor(pid);
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
          << "round " << round << ": a child ended by itself, status " << status;
    }
    ApprovalStore store(store_home);
    std::vector<ApprovalEntry> entries;
    ASSERT_NO_THROW(entries = store.load(ApprovalScope::Global, "")) << "round " << round;
    EXPECT_GE(entries.size(), previous_count) << "round " << round;
    previous_count = entries.size();
  }
  ApprovalStore store(store_home);
  const ApprovalListing listing = store.list();  // stray temporary files are not listed
  EXPECT_TRUE(listing.errors.empty());
  EXPECT_EQ(listing.entries.size(), previous_count);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int stray_temporary_files = 0;
  for (const auto& item : fs::directory_iterator(store_home + "/approvals")) {
    if (item.path().filename().string().find(".tmp.") != std::string::npos) ++stray_temporary_files;
  }
  std::printf(
      "[ info     ] %d rounds of %d killed writers: %zu entries, %d stray temporary files, %.2f "
      "s\n",
      kRounds, kProcesses, previous_count, stray_temporary_files, seconds);
}

}  // namespace approval_store_test
}  // namespace toolguard
