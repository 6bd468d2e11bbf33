// `toolguard serve --audit-ship` when the collector is away or slow: past
// --audit-ship-backlog the oldest lines waiting are dropped from shipping and
// the next batch says how many; at stop what waits is still sent, for five
// seconds at most. Real serve processes, a real HTTP collector, the file
// store's audit file as what was kept.
#include <signal.h>

#include <fstream>

#include "serve/audit_collector.hpp"
#include "serve/serve_fixture.hpp"

namespace toolguard::testing {
namespace audit_ship_backlog_test {

using nlohmann::json;

// The lines of the file store's audit file.
std::vector<std::string> keptLines(const Serve& s) {
  std::vector<std::string> lines;
  std::ifstream in(s.dir.path() / "home/.toolguard/audit.jsonl");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// The lines kept after the first `before`.
std::vector<std::string> keptSince(const Serve& s, size_t before) {
  std::vector<std::string> all = keptLines(s);
  return std::vector<std::string>(all.begin() + static_cast<long>(std::min(before, all.size())),
                                  all.end());
}

std::string serveLog(const Serve& s) {
  std::ifstream in(s.dir.path() / "serve.log");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void check(const ServeProcess& server, const std::string& agent, size_t calls) {
  auto c = Serve::client(server, agent);
  for (size_t i = 0; i < calls; ++i) {
    auto r = c->Post("/v1/check", Serve::call("ls /tmp/n" + std::to_string(i)).dump(),
                     "application/json");
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
  }
}

// Polls `done` every 50 ms for at most `seconds`.
bool within(int seconds, const std::function<bool()>& done) {
  for (int i = 0; i < seconds * 20; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

TEST_F(Serve, PastItsBacklogShippingDropsTheOldestLinesAndTheNextBatchSaysHowMany) {
  const std::string agent = token("agent", "bot");
  const size_t before = keptLines(*this).size();
  AuditCollector collector;
  collector.refusing(true);
  auto server = start({"--audit-ship", collector.url(), "--audit-ship-backlog", "20"});
  // The first batch is tried (and refused) before the rest is kept.
  check(*server, agent, 1);
  ASSERT_TRUE(within(10, [&] { return !collector.refused().empty(); }));
  check(*server, agent, 59);
  const std::string first_try = collector.refused().front().body;
  collector.refusing(false);
  // Everything kept is either shipped or counted as dropped, once the
  // collector takes batches again (after the shipper's pause: 1, 2, 4 s).
  size_t dropped = 0;
  std::vector<std::string> shipped;
  const bool settled = within(20, [&] {
    dropped = 0;
    shipped.clear();
    for (const std::string& line : collector.lines()) {
      const json record = json::parse(line);
      if (record.value("event", "") == "audit-ship-dropped") {
        dropped += record.value("lines", size_t{0});
      } else {
        shipped.push_back(line);
      }
    }
    return shipped.size() + dropped == keptSince(*this, before).size() && dropped != 0;
  });
  EXPECT_TRUE(settled) << "shipped " << shipped.size() << ", dropped " << dropped << ", kept "
                       << keptSince(*this, before).size();
  // Of what was kept, the first batch (tried while refused) and the last 20
  // waiting are shipped: the rest were dropped.
  const size_t first_lines =
      static_cast<size_t>(std::count(first_try.begin(), first_try.end(), '\n'));
  const std::vector<std::string> kept = keptSince(*this, before);
  ASSERT_GE(kept.size(), 60u);
  EXPECT_EQ(dropped, kept.size() - first_lines - 20);
  const std::vector<AuditCollector::Batch> taken = collector.taken();
  ASSERT_GE(taken.size(), 2u);
  EXPECT_EQ(taken.front().body, first_try) << "the batch refused is sent again as it was";
  EXPECT_TRUE(taken[1].body.starts_with("{\"event\":\"audit-ship-dropped\"")) << taken[1].body;
  // What was shipped is what was kept, in order, less the dropped run.
  ASSERT_EQ(shipped.size() + dropped, kept.size());
  for (size_t i = 0; i < shipped.size(); ++i) {
    EXPECT_EQ(shipped[i], kept[i < first_lines ? i : i + dropped]) << i;
  }
  EXPECT_NE(serveLog(*this).find("dropped from shipping"), std::string::npos) << serveLog(*this);
}

TEST_F(Serve, AtStopWhatWaitsIsShippedAndASilentCollectorHoldsTheStopFiveSecondsAtMost) {
  const std::string agent = token("agent", "bot");
  {
    // A slow collector: at stop, the batch in flight and the lines behind
    // it are still sent; after the process ends, it has every line kept.
    const size_t before = keptLines(*this).size();
    AuditCollector collector;
    collector.delay(300);
    auto server = start({"--audit-ship", collector.url()});
    check(*server, agent, 5);
    // The first batch is under way (answered 300 ms late) while the rest is kept.
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    check(*server, agent, 35);
    const int status = server->stop(SIGTERM);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    EXPECT_EQ(collector.lines(), keptSince(*this, before));
    EXPECT_GE(collector.taken().size(), 2u) << "lines waited behind a batch in flight";
  }
  {
    // A collector that never answers: the stop waits five seconds for it,
    // then says what was not shipped.
    AuditCollector collector;
    collector.delay(60000);
    auto server = start({"--audit-ship", collector.url()});
    check(*server, agent, 5);
    const auto stopping = std::chrono::steady_clock::now();
    server->stop(SIGTERM);
    const auto took = std::chrono::steady_clock::now() - stopping;
    EXPECT_LT(took, std::chrono::seconds(9));
    EXPECT_GE(took, std::chrono::seconds(4));
    EXPECT_NE(serveLog(*this).find("audit lines were not shipped at stop"), std::string::npos)
        << serveLog(*this);
  }
}

TEST_F(Serve, ABacklogWithoutACollectorIsRefusedAtStart) {
  RunResult r =
      run({"serve", "--store", store, "--listen", "127.0.0.1:0", "--audit-ship-backlog", "10"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--audit-ship-backlog needs --audit-ship"), std::string::npos) << r.err;
}

}  // namespace audit_ship_backlog_test
}  // namespace toolguard::testing
