// Asks do not outlive their askers, end to end: a real `toolguard check
// --server --wait` killed while it waits, a serve instance killed with
// SIGKILL while its check waits (two instances on one PostgreSQL). The ask
// then cannot be answered: the answer gets 410 saying why, and the audit
// holds no allow for it.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <future>

#include "serve/serve_fixture.hpp"
#include "support/prepared_exec.hpp"

namespace toolguard::testing {
namespace serve_orphaned_ask_test {

using nlohmann::json;

// `toolguard check --server URL --wait 60` with `input`, running until killed.
class WaitingCheck {
 public:
  WaitingCheck(const Serve& s, const std::string& url, const std::string& token,
               const std::string& input, const std::filesystem::path& scratch) {
    const std::filesystem::path in = scratch / "waiting-check-input.json";
    std::ofstream(in) << input;
    std::map<std::string, std::string> env = s.env();
    env["TOOLGUARD_TOKEN"] = token;
    const PreparedExec program(TOOLGUARD_BINARY, {"check", "--server", url, "--wait", "60"}, env);
    const int input_fd = ::open(in.c_str(), O_RDONLY);
    const int null_fd = ::open("/dev/null", O_WRONLY);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(input_fd, 0);
      dup2(null_fd, 1);
      dup2(null_fd, 2);
      program.exec();
    }
    close(input_fd);
    close(null_fd);
  }
  ~WaitingCheck() { kill9(); }

  void kill9() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
};

// The ask `id` once it is no longer pending, or as it is after `most`.
json onceSettled(httplib::Client& approver, const std::string& id, std::chrono::seconds most) {
  const auto until = std::chrono::steady_clock::now() + most;
  json now;
  do {
    auto r = approver.Get("/v1/asks/" + id);
    now = r ? json::parse(r->body) : json();
    if (now.value("state", "") != "pending") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  } while (std::chrono::steady_clock::now() < until);
  return now;
}

// The audit records about the ask `id` and its call, as the admin reads them.
void expectNothingAllowed(httplib::Client& admin, const std::string& id,
                          const std::string& command) {
  auto audit = admin.Get("/v1/audit");
  ASSERT_EQ(audit->status, 200) << audit->body;
  bool denied = false;
  for (const json& record : json::parse(audit->body)) {
    const bool about_ask = record.value("ask", "") == id || record.value("id", "") == id;
    const bool about_call = record.contains("args") && record["args"].is_object() &&
                            record["args"].value("command", "") == command;
    if (!about_ask && !about_call) continue;
    EXPECT_NE(record.value("verdict", ""), "allow") << record;
    EXPECT_NE(record.value("event", ""), "ask-answered") << record;
    denied = denied || (about_call && record.value("verdict", "") == "deny");
  }
  EXPECT_TRUE(denied) << "the waiting check's own decision is audited as a deny";
}

TEST_F(Serve, AnAskWhoseCheckWasKilledCannotBeAnswered) {
  const std::string agent = token("agent", "ci-bot", "carol");
  const std::string approver = token("approver", "alice");
  const std::string admin = token("admin", "root");
  auto server = start();
  const std::string command = "git push origin orphan";
  WaitingCheck check(*this, server->url(), agent, call(command).dump(), dir.path());
  auto on_queue = client(*server, approver);
  json asks = pendingAsks(*on_queue, 1);
  ASSERT_EQ(asks.size(), 1u);
  const std::string id = asks[0]["id"];
  EXPECT_EQ(asks[0]["owner"], "carol");
  check.kill9();
  // The service sees the connection closed within a second or two; the ask
  // leaves the queue.
  const json now = onceSettled(*on_queue, id, std::chrono::seconds(6));
  EXPECT_EQ(now["state"], "expired") << now;
  EXPECT_EQ(now["ended"], "asker-gone") << now;
  EXPECT_TRUE(pendingAsks(*on_queue, 0).empty());
  auto answered = on_queue->Post("/v1/asks/" + id + "/answer",
                                 R"({"answer":"always","binding":"exact","scope":"project"})",
                                 "application/json");
  EXPECT_EQ(answered->status, 410) << answered->body;
  EXPECT_NE(answered->body.find("the request that asked is gone"), std::string::npos)
      << answered->body;
  expectNothingAllowed(*client(*server, admin), id, command);
  // Nothing was remembered either: the same call asks again.
  auto again = client(*server, agent)->Post("/v1/check", call(command).dump(), "application/json");
  EXPECT_EQ(json::parse(again->body)["verdict"], "ask") << again->body;
}

// Two instances on one store: an ask waiting on A longer than the heartbeat's
// staleness is still answered through B; once A is killed, it cannot be.
void answeredWhileAliveNotOnceDead(Serve& t) {
  const std::string agent = t.token("agent", "ci-bot", "carol");
  const std::string approver = t.token("approver", "alice");
  const std::string admin = t.token("admin", "root");
  auto a = t.start();
  auto b = t.start();
  auto on_b = Serve::client(*b, approver);
  // Waiting longer than the heartbeat's staleness: still answerable (A keeps it alive).
  auto waiting = std::async(std::launch::async, [&] {
    auto r = Serve::client(*a, agent)->Post(
        "/v1/check?wait=40", Serve::call("git push origin live").dump(), "application/json");
    return r ? r->body : std::string("no response");
  });
  json asks = Serve::pendingAsks(*on_b, 1);
  ASSERT_EQ(asks.size(), 1u);
  std::this_thread::sleep_for(std::chrono::seconds(12));
  auto answered = on_b->Post("/v1/asks/" + asks[0]["id"].get<std::string>() + "/answer",
                             R"({"answer":"allow_once"})", "application/json");
  EXPECT_EQ(answered->status, 200) << answered->body;
  EXPECT_EQ(json::parse(waiting.get())["verdict"], "allow");

  // Now A dies with the check waiting on it.
  const std::string command = "git push origin orphan";
  WaitingCheck check(t, a->url(), agent, Serve::call(command).dump(), t.dir.path());
  asks = Serve::pendingAsks(*on_b, 1);
  ASSERT_EQ(asks.size(), 1u);
  const std::string id = asks[0]["id"];
  a->stop(SIGKILL);
  // Its heartbeat goes stale within kAskStaleAfter (10 s): the queue drops it.
  const json now = onceSettled(*on_b, id, std::chrono::seconds(15));
  EXPECT_EQ(now["state"], "expired") << now;
  EXPECT_EQ(now["ended"], "asker-gone") << now;
  answered =
      on_b->Post("/v1/asks/" + id + "/answer", R"({"answer":"allow_once"})", "application/json");
  EXPECT_EQ(answered->status, 410) << answered->body;
  EXPECT_NE(answered->body.find("nothing was allowed"), std::string::npos) << answered->body;
  // The audit: no allow of that call, no answer recorded.
  auto audit = Serve::client(*b, admin)->Get("/v1/audit");
  for (const json& record : json::parse(audit->body)) {
    if (record.value("ask", "") == id) ADD_FAILURE() << "an answer was audited: " << record;
    if (record.contains("args") && record["args"].is_object() &&
        record["args"].value("command", "") == command) {
      EXPECT_NE(record.value("verdict", ""), "allow") << record;
    }
  }
}

TEST_F(ServePostgres, AnAskIsAnsweredWhileItsCheckWaitsAndNotOnceItsInstanceDied) {
  answeredWhileAliveNotOnceDead(*this);
}

TEST_F(Serve, AnAskIsAnsweredWhileItsCheckWaitsAndNotOnceItsInstanceDied) {
  answeredWhileAliveNotOnceDead(*this);
}

}  // namespace serve_orphaned_ask_test
}  // namespace toolguard::testing
