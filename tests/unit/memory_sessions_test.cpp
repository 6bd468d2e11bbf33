// Sessions kept in memory: a snapshot handed out never changes, whatever is
// remembered while it is held; what is remembered meanwhile is not lost and
// is kept in the order it came, as a plain list that forgets its oldest
// after every call would keep it; and a session forgotten after its time
// stays forgotten.
#include <gtest/gtest.h>

#include <random>

#include "toolguard/session_state.hpp"

namespace toolguard {
namespace memory_sessions_test {

using Clock = std::chrono::system_clock;

SessionEvent event(const std::string& tool, std::vector<std::string> labels,
                   Clock::time_point at = Clock::now()) {
  return SessionEvent{at, tool, labels.empty() ? "" : tool + " called", std::move(labels), ""};
}

std::vector<std::string> tools(const SessionState& state) {
  std::vector<std::string> out;
  for (const SessionEvent& e : state.events) out.push_back(e.tool);
  return out;
}

TEST(MemorySessions, ASnapshotHeldNeverChanges) {
  auto sessions = memorySessionRepository({{}, 8, std::chrono::hours(1)});
  sessions->append("k", event("WebFetch", {"untrusted"}));
  const std::shared_ptr<const SessionState> held = sessions->snapshot("k");
  ASSERT_EQ(tools(*held), std::vector<std::string>{"WebFetch"});
  for (int i = 0; i < 40; ++i) sessions->append("k", event("Tool" + std::to_string(i), {}));
  EXPECT_EQ(tools(*held), std::vector<std::string>{"WebFetch"});
  const SessionState now = sessions->load("k");
  ASSERT_EQ(now.events.size(), 9u);  // 8 kept, and the fetch that carries its label
  EXPECT_EQ(now.events.front().tool, "WebFetch");
  EXPECT_EQ(now.events.back().tool, "Tool39");
  EXPECT_TRUE(now.holdsLabel("untrusted"));
}

// Random appends, snapshots held and let go, against a list that takes each
// event and forgets its oldest at once.
TEST(MemorySessions, KeepsWhatAPlainListKeepsWhateverIsHeld) {
  constexpr size_t kKept = 8;
  auto sessions = memorySessionRepository({{}, kKept, std::chrono::hours(1)});
  std::mt19937 random(20261201);
  const std::vector<std::string> labels = {"untrusted", "sensitive", "outward"};
  SessionState expected;
  std::vector<std::shared_ptr<const SessionState>> held;
  std::vector<SessionState> held_as_taken;
  for (int i = 0; i < 3000; ++i) {
    switch (random() % 4) {
      case 0:
      case 1: {
        std::vector<std::string> brought;
        if (random() % 3 == 0) brought.push_back(labels[random() % labels.size()]);
        SessionEvent next = event("Tool" + std::to_string(i), brought);
        sessions->append("k", next);
        expected.events.push_back(next);
        expected.forgetOldest(kKept);
        break;
      }
      case 2:
        if (held.size() < 3 && random() % 8 == 0) {
          held.push_back(sessions->snapshot("k"));
          held_as_taken.push_back(*held.back());
          ASSERT_EQ(tools(*held.back()), tools(expected)) << "at step " << i;
        }
        break;
      default:
        if (!held.empty()) {
          const size_t which = random() % held.size();
          EXPECT_EQ(tools(*held[which]), tools(held_as_taken[which])) << "at step " << i;
          held.erase(held.begin() + static_cast<ptrdiff_t>(which));
          held_as_taken.erase(held_as_taken.begin() + static_cast<ptrdiff_t>(which));
        }
        break;
    }
    if (i % 41 != 0) continue;  // between looks, many events may wait beside a held snapshot
    const SessionState loaded = sessions->load("k");
    ASSERT_EQ(tools(loaded), tools(expected)) << "at step " << i;
    for (size_t k = 0; k < loaded.events.size(); ++k)
      EXPECT_EQ(loaded.events[k].labels, expected.events[k].labels) << "at step " << i;
  }
}

TEST(MemorySessions, ASessionPastItsTimeIsForgottenEvenWhileHeld) {
  auto sessions = memorySessionRepository({{}, 8, std::chrono::seconds(60)});
  sessions->append("k", event("WebFetch", {"untrusted"}, Clock::now() - std::chrono::hours(1)));
  EXPECT_TRUE(sessions->snapshot("k")->events.empty());  // expired
  sessions->append("k", event("Old", {"sensitive"}, Clock::now() - std::chrono::hours(1)));
  const std::shared_ptr<const SessionState> held = sessions->snapshot("k");
  sessions->append("k", event("Read", {}));  // the session had expired: it starts again
  const SessionState now = sessions->load("k");
  EXPECT_EQ(tools(now), std::vector<std::string>{"Read"});
  EXPECT_FALSE(now.holdsLabel("untrusted"));
}

}  // namespace memory_sessions_test
}  // namespace toolguard
