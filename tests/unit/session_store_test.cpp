// Sessions kept in files: events remembered in order with their labels,
// sessions kept apart by key, bounded over a long session, forgotten after
// their time, unknown (so: everything seen) when the file was edited or torn,
// and whole when several processes append at once.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>

#include "session/session_json.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/session_state.hpp"

namespace toolguard {
namespace session_store_test {

namespace fs = std::filesystem;
using Clock = std::chrono::system_clock;
using testing::TempDir;

SessionEvent event(const std::string& tool, std::vector<std::string> labels,
                   Clock::time_point at = Clock::now()) {
  return SessionEvent{at, tool, tool + " called", std::move(labels), ""};
}

// `line` damaged: a byte changed, dropped or added.
std::string damagedCopy(const std::string& line, std::mt19937& random) {
  std::string damaged = line;
  const size_t at = random() % damaged.size();
  switch (random() % 3) {
    case 0:
      damaged[at] = static_cast<char>(random() % 256);
      break;
    case 1:
      damaged.erase(at, 1);
      break;
    default:
      damaged.insert(at, 1, static_cast<char>(random() % 256));
      break;
  }
  return damaged;
}

// The (last listed) session file of a store's directory.
fs::path sessionFile(const fs::path& dir) {
  fs::path file;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") file = entry.path();
  }
  return file;
}

// The session files of a store's directory (not its locks).
size_t sessionFiles(const fs::path& dir) {
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    files += entry.path().extension() == ".json";
  return files;
}

TEST(SessionStore, RemembersEventsInOrderWithTheirLabels) {
  TempDir dir;
  SessionStore store({.dir = dir.path() / "sessions"});
  const std::string key = SessionStore::keyOf("claude", "s1");
  EXPECT_TRUE(store.load(key).events.empty());
  store.append(key, event("WebFetch", {"untrusted"}));
  store.append(key, event("Read", {"sensitive"}));
  store.append(key, event("Bash", {}));
  const SessionState state = store.load(key);
  ASSERT_EQ(state.events.size(), 3u);
  EXPECT_EQ(state.events[0].tool, "WebFetch");
  EXPECT_EQ(state.events[2].tool, "Bash");
  EXPECT_FALSE(state.unknown);
  EXPECT_TRUE(state.holdsLabel("untrusted"));
  EXPECT_TRUE(state.holdsLabel("sensitive"));
  EXPECT_FALSE(state.holdsLabel("outward"));
  ASSERT_NE(state.latestWith("sensitive"), nullptr);
  EXPECT_EQ(state.latestWith("sensitive")->summary, "Read called");
  EXPECT_EQ(state.labels(), (std::set<std::string>{"sensitive", "untrusted"}));
}

TEST(SessionStore, KeysKeepAgentsAndSessionsApart) {
  TempDir dir;
  SessionStore store({.dir = dir.path()});
  // A session id holding the separator cannot reach another agent's session.
  const std::string a = SessionStore::keyOf("ci/x", "s1");
  const std::string b = SessionStore::keyOf("ci", "x/s1");
  EXPECT_NE(a, b);
  store.append(a, event("WebFetch", {"untrusted"}));
  EXPECT_TRUE(store.load(b).events.empty());
  EXPECT_TRUE(store.load(SessionStore::keyOf("ci/x", "s2")).events.empty());
  EXPECT_EQ(store.load(a).events.size(), 1u);
}

// A 10,000-call session: the newest events are kept, the file stays small,
// and the directory holds one file for it (and a bounded set of locks).
TEST(SessionStore, ALongSessionStaysBounded) {
  TempDir dir;
  SessionStore store({.dir = dir.path(), .max_events = 256});
  const std::string key = SessionStore::keyOf("claude", "long");
  for (int i = 0; i < 10000; ++i) {
    store.append(key, event("Tool" + std::to_string(i), {i == 10 ? "sensitive" : "untrusted"}));
  }
  const SessionState state = store.load(key);
  // The 256 newest, and before them the latest forgotten event of a label
  // none of them carries: many calls never make the session forget what it
  // saw, only how long ago (a window of calls no longer reaches it).
  ASSERT_EQ(state.events.size(), 257u);
  EXPECT_EQ(state.events.back().tool, "Tool9999");
  EXPECT_EQ(state.events[1].tool, "Tool9744");
  EXPECT_EQ(state.events.front().tool, "Tool10");
  ASSERT_TRUE(state.holdsLabel("sensitive"));
  EXPECT_EQ(state.eventsAfter(*state.latestWith("sensitive")), 256u);
  EXPECT_EQ(sessionFiles(dir.path()), 1u);
  size_t bytes = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".json") bytes = fs::file_size(entry.path());
  }
  // At most a quarter more events than are kept, each line about a hundred bytes.
  EXPECT_LT(bytes, (256 + 64) * 160u) << bytes;
  size_t locks = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path() / "locks")) ++locks;
  EXPECT_LE(locks, 64u);
}

// A load reads the calls older than the kept ones only for their labels
// (it does not keep those that brought none): what it returns is what
// reading every line and forgetting the oldest gives, after every append of
// a session whose labels come and go at random.
TEST(SessionStore, ALoadKeepsWhatForgettingTheOldestOfEveryLineKeeps) {
  TempDir dir;
  constexpr size_t kKept = 16;
  SessionStore store({.dir = dir.path(), .max_events = kKept});
  const std::string key = SessionStore::keyOf("claude", "mixed");
  std::mt19937 random(20261201);
  const std::vector<std::string> labels = {"untrusted", "sensitive", "outward", "rare"};
  for (int i = 0; i < 600; ++i) {
    std::vector<std::string> brought;
    if (random() % 3 == 0) brought.push_back(labels[random() % (i % 50 == 0 ? 4 : 3)]);
    SessionEvent next = event("Tool" + std::to_string(i), brought,
                              Clock::now() - std::chrono::seconds(random() % 30));
    if (brought.empty()) next.summary.clear();  // as a call that brought none is kept
    store.append(key, next);
    std::string path;
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      if (entry.path().extension() == ".json") path = entry.path().string();
    }
    SessionState every;  // every line of the file, read one by one
    std::ifstream file(path);
    std::string line;
    std::getline(file, line);  // the header
    while (std::getline(file, line)) {
      SessionEvent read;
      size_t calls = 0;
      ASSERT_TRUE(detail::readSessionLine(line, read, calls)) << line;
      every.events.insert(every.events.end(), calls, read);  // a run line: its calls
    }
    every.forgetOldest(kKept);
    const SessionState loaded = store.load(key);
    ASSERT_FALSE(loaded.unknown);
    ASSERT_EQ(loaded.events.size(), every.events.size()) << "after call " << i;
    for (size_t k = 0; k < every.events.size(); ++k) {
      EXPECT_EQ(loaded.events[k].tool, every.events[k].tool) << "after call " << i;
      EXPECT_EQ(loaded.events[k].labels, every.events[k].labels) << "after call " << i;
      EXPECT_EQ(loaded.events[k].at, every.events[k].at) << "after call " << i;
    }
  }
}

// Calls that brought no label, in a row, share a line when the file is
// rewritten ("calls": N), so that a long session's file stays a few lines
// and a hook reads little: every load still returns the calls they stand
// for, as a session that remembered every call one by one and forgot its
// oldest after each would (its labels, the labelled calls' tools, times,
// summaries and decisions, how many calls ago each label came), after
// every append of a session whose labels and tools come and go at random.
TEST(SessionStore, RunsOfCallsWithoutALabelLoadAsTheCallsTheyStandFor) {
  TempDir dir;
  constexpr size_t kKept = 32;
  SessionStore store({.dir = dir.path(), .max_events = kKept});
  const std::string key = SessionStore::keyOf("claude", "runs");
  std::mt19937 random(20261202);
  const std::vector<std::string> tools = {"Read", "Bash", "Grep"};
  const std::vector<std::string> labels = {"untrusted", "sensitive", "outward"};
  SessionState remembered;  // every call, forgetting the oldest after each
  size_t line_total = 0;
  constexpr int kCalls = 1500;
  for (int i = 0; i < kCalls; ++i) {
    SessionEvent next = event(tools[random() % (i % 100 < 50 ? 1 : 3)], {},
                              std::chrono::floor<std::chrono::milliseconds>(Clock::now()));
    if (random() % 10 == 0) {
      next.labels.push_back(labels[random() % labels.size()]);
      next.decision_id = "d" + std::to_string(i);
    } else {
      next.summary.clear();  // as a call that brought none is kept
    }
    store.append(key, next);
    remembered.events.push_back(next);
    remembered.forgetOldest(kKept);
    const SessionState loaded = store.load(key);
    ASSERT_FALSE(loaded.unknown);
    ASSERT_EQ(loaded.events.size(), remembered.events.size()) << "after call " << i;
    for (size_t k = 0; k < loaded.events.size(); ++k) {
      const SessionEvent& got = loaded.events[k];
      const SessionEvent& want = remembered.events[k];
      ASSERT_EQ(got.labels, want.labels) << "after call " << i << ", event " << k;
      if (!want.labels.empty()) {
        EXPECT_EQ(got.tool, want.tool);
        EXPECT_EQ(got.summary, want.summary);
        EXPECT_EQ(got.decision_id, want.decision_id);
        EXPECT_EQ(got.at, want.at);
      }
    }
    for (const std::string& label : labels) {
      const SessionEvent* want = remembered.latestWith(label);
      const SessionEvent* got = loaded.latestWith(label);
      ASSERT_EQ(got == nullptr, want == nullptr) << label;
      if (want) {
        EXPECT_EQ(loaded.eventsAfter(*got), remembered.eventsAfter(*want)) << label;
      }
    }
    EXPECT_EQ(loaded.events.back().at, next.at) << "the session's latest moment stays exact";
    const fs::path file = sessionFile(dir.path());
    std::ifstream in(file);
    const auto lines = static_cast<size_t>(
        std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
    EXPECT_LE(lines, 1 + kKept + kKept / 4);
    line_total += lines;
  }
  // Without runs a file this long holds 33 to 41 lines; with them, a few
  // lines for the labelled calls and the runs between, and the calls
  // appended since the last rewrite.
  EXPECT_LT(line_total / kCalls, 16u) << line_total / kCalls;
}

// A file that claims millions of calls in its runs (edited, or written by
// something else) costs a load no more than the calls it keeps: what it
// returns is what expanding every run would give, without expanding them.
TEST(SessionStore, RunsClaimingMillionsOfCallsLoadOnlyWhatIsKept) {
  TempDir dir;
  SessionStore store({.dir = dir.path()});  // 256 kept
  const std::string key = SessionStore::keyOf("claude", "huge");
  store.append(key, event("WebFetch", {"untrusted"}));
  fs::path file = sessionFile(dir.path());
  {
    std::ofstream out(file, std::ios::app);
    for (int i = 0; i < 300; ++i) {
      out << R"({"at":1,"calls":1000000,"labels":[],"tool":"Read"})"
          << "\n";
    }
    out << detail::sessionEventJson(event("Read", {"sensitive"})).dump() << "\n";
    out << R"({"at":2,"calls":7,"labels":[],"tool":"Grep"})"
        << "\n";
  }
  const SessionState state = store.load(key);
  ASSERT_FALSE(state.unknown);
  // The newest 256 calls (the 7 of the last run, the sensitive read, 248
  // of the runs before it), and before them the web fetch, whose label no
  // kept call carries.
  ASSERT_EQ(state.events.size(), 257u);
  EXPECT_EQ(state.events.front().tool, "WebFetch");
  EXPECT_EQ(state.events.back().tool, "Grep");
  EXPECT_EQ(state.eventsAfter(*state.latestWith("untrusted")), 256u);
  EXPECT_EQ(state.eventsAfter(*state.latestWith("sensitive")), 7u);
}

// A file as the previous toolguard wrote it (a line per call, a header
// without "lines") is read as it is, grows to a quarter past max_events as
// it did, and its rewrite puts the calls without a label in runs.
TEST(SessionStore, AFileOfThePreviousShapeIsReadAndRewrittenWithRuns) {
  TempDir dir;
  SessionStore store({.dir = dir.path()});  // 256 kept: 321 lines at most
  const std::string key = SessionStore::keyOf("claude", "previous");
  store.append(key, event("WebFetch", {"untrusted"}));
  const fs::path file = sessionFile(dir.path());
  std::string fetch_line;
  {
    std::ifstream in(file);
    std::getline(in, fetch_line);  // the header, replaced below
    std::getline(in, fetch_line);
  }
  {
    std::ofstream out(file, std::ios::trunc);
    out << nlohmann::json{{"session", key}}.dump() << "\n" << fetch_line << "\n";
    const long long now =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch())
            .count();
    for (int i = 0; i < 298; ++i) {
      out << R"({"at":)" << now << R"(,"labels":[],"summary":"","tool":"Read"})"
          << "\n";
    }
  }
  auto lines = [&] {
    std::ifstream in(file);
    return static_cast<size_t>(
        std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
  };
  ASSERT_EQ(lines(), 300u);
  SessionEvent read = event("Read", {});
  read.summary.clear();
  for (int i = 0; i < 21; ++i) {
    ASSERT_EQ(store.load(key).events.size(), 257u) << i;  // the 256 newest and the fetch
    store.append(key, read);
  }
  EXPECT_EQ(lines(), 321u) << "appended to the bound the previous toolguard kept";
  store.append(key, read);
  EXPECT_EQ(lines(), 3u) << "rewritten: the header, the fetch, one run";
  std::ifstream in(file);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(nlohmann::json::parse(header).value("lines", 0u), 2u) << header;
  const SessionState state = store.load(key);
  ASSERT_EQ(state.events.size(), 257u);
  EXPECT_EQ(state.eventsAfter(*state.latestWith("untrusted")), 256u);
  // A file ending in a run is appended to, by a process that did not load
  // it too (a hook of another call at once), not rewritten again.
  SessionStore(SessionStoreOptions{.dir = dir.path()}).append(key, read);
  EXPECT_EQ(lines(), 4u);
}

// The reader of a run line reads what the JSON parser reads: random tools
// (quotes, escapes, control characters, UTF-8) and counts, every line as
// written and damaged byte by byte; a run with a label, a summary, a
// decision or any other key, or of fewer than two calls, is no line of the
// store's; and a toolguard that knows no runs cannot read one as an event
// (it would count one call), so it takes the session to have seen all.
TEST(SessionStore, RunLinesReadTheSameByEitherReader) {
  std::mt19937 random(20261203);
  const std::vector<std::string> pieces = {"a", "\"", "\\", "\n", "\x1f", "é", "😀", "{", ",", " "};
  // A run as the JSON parser gives it: exactly at, calls, labels (empty), tool.
  auto slow = [](std::string_view line, size_t& calls) -> std::optional<SessionEvent> {
    const nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
    calls = 1;
    if (!json.is_object() || !json.contains("calls")) return detail::sessionEventFrom(json);
    if (json.size() != 4 || !json.contains("at") || !json["at"].is_number_integer() ||
        !json["calls"].is_number_unsigned() || json["calls"].get<uint64_t>() < 2 ||
        json["calls"].get<uint64_t>() > detail::kMaxRunCalls || !json.contains("labels") ||
        json["labels"] != nlohmann::json::array() || !json.contains("tool") ||
        !json["tool"].is_string()) {
      return std::nullopt;
    }
    SessionEvent event;
    event.at = Clock::time_point(std::chrono::milliseconds(json["at"].get<long long>()));
    event.tool = json["tool"].get<std::string>();
    calls = json["calls"].get<size_t>();
    return event;
  };
  for (int i = 0; i < 3000; ++i) {
    SessionEvent event;
    event.at = Clock::time_point(std::chrono::milliseconds(random() % 4000000000000LL));
    for (size_t n = random() % 5; n > 0; --n) event.tool += pieces[random() % pieces.size()];
    const size_t calls = 2 + random() % 300;
    const std::string line = detail::sessionRunJson(event, calls)
                                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    SCOPED_TRACE(line);
    SessionEvent fast;
    size_t fast_calls = 0;
    ASSERT_TRUE(detail::readSessionLine(line, fast, fast_calls));
    size_t slow_calls = 0;
    const std::optional<SessionEvent> reference = slow(line, slow_calls);
    ASSERT_TRUE(reference.has_value());
    EXPECT_EQ(fast_calls, calls);
    EXPECT_EQ(fast_calls, slow_calls);
    EXPECT_EQ(fast.tool, reference->tool);
    EXPECT_EQ(fast.at, reference->at);
    EXPECT_FALSE(detail::sessionEventFromLine(line).has_value()) << "a run is not one event";
    EXPECT_FALSE(detail::sessionEventFrom(nlohmann::json::parse(line)).has_value())
        << "what an older toolguard reads an event line with";
    const std::string damaged = damagedCopy(line, random);
    SessionEvent got;
    size_t got_calls = 0;
    const bool read = detail::readSessionLine(damaged, got, got_calls);
    const std::optional<SessionEvent> want = slow(damaged, slow_calls);
    ASSERT_EQ(read, want.has_value()) << damaged;
    if (read) {
      EXPECT_EQ(got_calls, slow_calls) << damaged;
      EXPECT_EQ(got.tool, want->tool) << damaged;
      EXPECT_EQ(got.labels, want->labels) << damaged;
      EXPECT_EQ(got.at, want->at) << damaged;
    }
  }
  SessionEvent unused;
  size_t calls = 0;
  for (const char* line :
       {R"({"at":1,"calls":1,"labels":[],"tool":"Read"})",
        R"({"at":1,"calls":0,"labels":[],"tool":"Read"})",
        R"({"at":1,"calls":-3,"labels":[],"tool":"Read"})",
        R"({"at":1,"calls":2.5,"labels":[],"tool":"Read"})",
        R"({"at":1,"calls":2000000,"labels":[],"tool":"Read"})",
        R"({"at":1,"calls":3,"labels":["sensitive"],"tool":"Read"})",
        R"({"at":1,"calls":3,"labels":[],"summary":"","tool":"Read"})",
        R"({"at":1,"calls":3,"labels":[],"tool":"Read","extra":1})",
        R"({"at":1,"calls":3,"labels":[]})",
        R"({"at":1,"calls":3,"labels":[],"summary":"x","tool":"Read"})",
        R"({"at":1,"calls":3,"decision":"d","labels":[],"summary":"","tool":"Read"})",
        R"({"at":1,"calls":03,"labels":[],"tool":"Read"})"}) {
    EXPECT_FALSE(detail::readSessionLine(line, unused, calls)) << line;
  }
}

TEST(SessionStore, ASessionIsForgottenAfterItsTime) {
  TempDir dir;
  SessionStore store({.dir = dir.path(), .expire_after = std::chrono::seconds(60)});
  const std::string key = SessionStore::keyOf("claude", "old");
  store.append(key, event("WebFetch", {"untrusted"}, Clock::now() - std::chrono::minutes(5)));
  EXPECT_TRUE(store.load(key).events.empty()) << "its latest event is older than its time";
  store.append(key, event("Read", {"sensitive"}));
  const SessionState state = store.load(key);
  ASSERT_EQ(state.events.size(), 1u);
  EXPECT_EQ(state.events[0].tool, "Read");
  EXPECT_FALSE(state.holdsLabel("untrusted"));
}

// The files of sessions that expired are removed when a new session starts.
TEST(SessionStore, ExpiredSessionsFilesAreRemoved) {
  TempDir dir;
  SessionStore store({.dir = dir.path(), .expire_after = std::chrono::seconds(60)});
  for (int i = 0; i < 10; ++i) {
    store.append(SessionStore::keyOf("claude", "old" + std::to_string(i)), event("Read", {}));
  }
  ASSERT_EQ(sessionFiles(dir.path()), 10u);
  const timeval old[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".json") ::utimes(entry.path().c_str(), old);
  }
  store.append(SessionStore::keyOf("claude", "new"), event("Read", {}));
  EXPECT_EQ(sessionFiles(dir.path()), 1u);
}

// A file edited by hand, or torn by a crash, is not trusted to say what the
// session saw: the session holds every label until it expires.
TEST(SessionStore, AFileThatIsNotTheStoresMakesTheSessionUnknown) {
  TempDir dir;
  SessionStore store({.dir = dir.path()});
  const std::string key = SessionStore::keyOf("claude", "edited");
  store.append(key, event("Read", {}));
  fs::path file = sessionFile(dir.path());
  for (const std::string& tail :
       {std::string("{\"at\": \"yesterday\"}\n"), std::string("{\"at\":1,\"tool\":\"x\""),
        std::string("not json\n")}) {
    std::ofstream(file, std::ios::app) << tail;
    SessionState state = store.load(key);
    EXPECT_TRUE(state.unknown) << tail;
    EXPECT_TRUE(state.holdsLabel("sensitive")) << tail;
    // It stays unknown when the session goes on.
    store.append(key, event("Bash", {}));
    EXPECT_TRUE(store.load(key).unknown) << tail;
    fs::remove(file);
    store.append(key, event("Read", {}));
  }
  // Another session's file under this one's name.
  std::ofstream(file, std::ios::trunc) << "{\"session\":\"someone else\"}\n";
  EXPECT_TRUE(store.load(key).unknown);
}

// A store appends after its own load without reading the file again only
// when nobody changed the file in between: another process's append (or
// rewrite) between the two is seen, and the file is still trimmed in time.
TEST(SessionStore, AnAppendAfterALoadSeesWhatOthersWroteInBetween) {
  TempDir dir;
  const SessionStoreOptions options{.dir = dir.path(), .max_events = 4};
  SessionStore mine(options);
  SessionStore other(options);
  const std::string key = SessionStore::keyOf("claude", "shared");
  fs::path file;
  auto lines = [&] {
    std::ifstream in(file);
    return static_cast<size_t>(
        std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
  };
  // Five appends: the fifth rewrote the file with the four newest events,
  // which leaves room for one line more (six lines at most).
  for (int i = 0; i < 5; ++i) other.append(key, event("Read" + std::to_string(i), {"sensitive"}));
  file = sessionFile(dir.path());
  ASSERT_EQ(lines(), 5u);
  ASSERT_EQ(mine.load(key).events.size(), 4u);
  other.append(key, event("WebFetch", {"untrusted"}));  // the sixth line, after my load
  mine.append(key, event("Bash", {}));
  // Had it appended as it loaded, the file would hold seven lines: it was
  // rewritten with the four newest events instead.
  EXPECT_EQ(lines(), 5u);
  const SessionState state = mine.load(key);
  ASSERT_EQ(state.events.size(), 4u);
  EXPECT_EQ(state.events.back().tool, "Bash");
  EXPECT_TRUE(state.holdsLabel("untrusted"));
  // Unchanged since the load: appended as it was (no rewrite, one line more).
  mine.append(key, event("Grep", {}));
  EXPECT_EQ(lines(), 6u);
  EXPECT_EQ(mine.load(key).events.back().tool, "Grep");
}

// The lock files' directory is made when a lock needs it, not looked for
// before every append: removed between a load and an append (by hand, or a
// clean-up), it is made again and nothing is lost.
TEST(SessionStore, AnAppendMakesTheLockDirectoryAgainWhenItWasRemoved) {
  TempDir dir;
  SessionStore store({.dir = dir.path() / "sessions"});
  const std::string key = SessionStore::keyOf("claude", "locks");
  store.append(key, event("WebFetch", {"untrusted"}));
  ASSERT_TRUE(fs::is_directory(dir.path() / "sessions" / "locks"));
  ASSERT_EQ(store.load(key).events.size(), 1u);
  fs::remove_all(dir.path() / "sessions" / "locks");
  store.append(key, event("Read", {"sensitive"}));
  EXPECT_TRUE(fs::is_directory(dir.path() / "sessions" / "locks"));
  // Without a load before it, and for a session not yet on disk.
  fs::remove_all(dir.path() / "sessions" / "locks");
  store.append(SessionStore::keyOf("claude", "other"), event("Bash", {}));
  const SessionState state = store.load(key);
  ASSERT_EQ(state.events.size(), 2u);
  EXPECT_EQ(state.events[1].tool, "Read");
  EXPECT_EQ(store.load(SessionStore::keyOf("claude", "other")).events.size(), 1u);
}

// Hook processes of one session run at once: nothing is lost or torn,
// with and without the file being rewritten under them.
TEST(SessionStore, ProcessesAppendingAtOnceLoseNothing) {
  // Labelled calls, and calls without a label (which rewrites put in runs).
  for (const auto& [max_events, labelled] :
       {std::pair{1000u, true}, {40u, true}, {1000u, false}, {40u, false}}) {
    TempDir dir;
    const SessionStoreOptions options{.dir = dir.path(), .max_events = max_events};
    const std::string key = SessionStore::keyOf("claude", "busy");
    constexpr int kProcesses = 4;
    constexpr int kEach = 60;
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
      const pid_t child = ::fork();
      ASSERT_GE(child, 0);
      if (child == 0) {
        SessionStore store(options);
        for (int i = 0; i < kEach; ++i) {
          SessionEvent next = event("P" + std::to_string(p) + "-" + std::to_string(i), {"x"});
          if (!labelled) next = SessionEvent{next.at, next.tool, "", {}, ""};
          store.append(key, next);
        }
        ::_exit(0);
      }
      children.push_back(child);
    }
    for (pid_t child : children) {
      int status = 0;
      ::waitpid(child, &status, 0);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    const SessionState state = SessionStore(options).load(key);
    EXPECT_FALSE(state.unknown) << max_events;
    EXPECT_EQ(state.events.size(), std::min<size_t>(max_events, kProcesses * kEach)) << max_events;
    if (!labelled) continue;  // a run keeps only its last call's tool
    // Each process's own events stay in its order.
    std::map<char, int> last;
    for (const SessionEvent& e : state.events) {
      const int i = std::stoi(e.tool.substr(e.tool.find('-') + 1));
      auto [it, fresh] = last.emplace(e.tool[1], i);
      if (!fresh) {
        EXPECT_GT(i, it->second) << e.tool;
      }
      it->second = i;
    }
  }
}

// The fast readers of event lines (a labelled call's, and the shorter line
// of a call that brought no label) read every line the store writes exactly
// as the JSON parser does, and leave every other line to it: events with
// random text (quotes, backslashes, control characters, UTF-8 of every
// length), half of them unlabelled, and the same lines damaged byte by byte.
TEST(SessionStore, EventLinesReadTheSameByEitherReader) {
  std::mt19937 random(20261130);
  const std::vector<std::string> pieces = {
      "a",    "\"",   "\\", "/", "\n",      "\t", std::string(1, '\0'),
      "\x1f", "\x7f", "é",  "→", "😀",       "{",  "}",
      "[",    "]",    ",",  ":", "\\u0041", " "};
  auto text = [&](size_t most) {
    std::string out;
    for (size_t n = random() % (most + 1); n > 0; --n) out += pieces[random() % pieces.size()];
    return out;
  };
  auto slow = [](std::string_view line) {
    return detail::sessionEventFrom(nlohmann::json::parse(line, nullptr, false));
  };
  auto same = [](const std::optional<SessionEvent>& a, const std::optional<SessionEvent>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || (a->at == b->at && a->tool == b->tool && a->summary == b->summary &&
                  a->labels == b->labels && a->decision_id == b->decision_id);
  };
  for (int i = 0; i < 3000; ++i) {
    SessionEvent event;
    event.at = std::chrono::system_clock::time_point(
        std::chrono::milliseconds(random() % 4000000000000LL));
    event.tool = text(6);
    event.summary = text(20);
    for (size_t n = random() % 3; n > 0; --n) event.labels.push_back(text(3));
    if (random() % 2) event.decision_id = text(4);
    if (i % 2 == 0) {  // a call that brought no label: the shape read without the general reader
      event.summary.clear();
      event.labels.clear();
      event.decision_id.clear();
    }
    const std::string line = detail::sessionEventJson(event).dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
    SCOPED_TRACE(line);
    const std::optional<SessionEvent> fast = detail::sessionEventFromLine(line);
    ASSERT_TRUE(fast.has_value());
    EXPECT_TRUE(same(fast, slow(line)));
    const std::string damaged = damagedCopy(line, random);
    EXPECT_TRUE(same(detail::sessionEventFromLine(damaged), slow(damaged))) << damaged;
  }
}

}  // namespace session_store_test
}  // namespace toolguard
