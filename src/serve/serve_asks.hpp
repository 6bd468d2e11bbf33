#pragma once
// Internal: asks through the store's queue. StoreAskHandler is the Guard's
// approval handler inside `toolguard serve`: it queues the ask and waits (to
// the request's own deadline) for an answer given on any instance. The
// /v1/asks routes list asks and take answers, checked against what was
// offered exactly as the terminal prompt's are.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "serve/ask_detail.hpp"
#include "serve/http_server.hpp"
#include "serve/serve_auth.hpp"
#include "serve/serve_metrics.hpp"
#include "store/service_store.hpp"
#include "toolguard/approval.hpp"
#include "toolguard/engine.hpp"

namespace toolguard::serve {

/// A token already has as many asks waiting as it may (429).
class TooManyAsks : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Who asks, from where, how long they wait, the engine that judged the
/// call and whether the client still waits, for the asks of one request on
/// this thread (the Guard calls its handler on the deciding thread).
class AskScope {
 public:
  AskScope(const Caller& caller, std::chrono::steady_clock::time_point deadline, AskOrigin origin,
           const Engine* engine, std::function<bool()> client_gone);
  ~AskScope();
  AskScope(const AskScope&) = delete;
  AskScope& operator=(const AskScope&) = delete;
};

/// The approval handler of the service and the /v1/asks routes.
class StoreAskHandler : public ApprovalHandler {
 public:
  /// `max_waiting_polls`: long polls held at once (each holds a connection's
  /// thread); past it, or past a quarter of it for one token, a poll is
  /// answered at once.
  /// `two_person`: an answer must come from a second person (see
  /// ServiceOptions::two_person).
  StoreAskHandler(store::ServiceStore& store, Metrics& metrics, size_t max_pending_per_token,
                  std::chrono::seconds max_wait, size_t max_waiting_polls, bool two_person);

  std::string name() const override { return "serve"; }

  /// Queues the ask and waits for its answer until the AskScope's deadline;
  /// then marks it expired and denies (unless an answer came first).
  std::future<ApprovalAnswer> ask(const ApprovalRequest& request) override;

  /// Queues an ask without waiting (?async=1): the caller polls it.
  /// Throws TooManyAsks, or StoreError.
  store::AskRecord queue(const ToolCall& call, const Decision& decision, const Engine& engine,
                         const Caller& caller, std::chrono::seconds lifetime,
                         const AskOrigin& origin);

  /// Called with each ask this instance queues (the webhook).
  void onNewAsk(std::function<void(const store::AskRecord&)> listener) {
    on_new_ask_ = std::move(listener);
  }

  /// GET /v1/asks (with ?wait=S and If-None-Match: a long poll until the
  /// list changes), POST /v1/asks (an ask from a program's own Guard:
  /// remoteApprovalHandler), GET /v1/asks/ID, POST /v1/asks/ID/answer.
  /// `engine` (the policy now serving) parses the call of a POSTed ask for
  /// the page: what the person sees of it is the service's reading, never
  /// what the asking program says of it.
  HttpResponse route(const HttpRequest& request, const Caller& caller, const Engine& engine,
                     const std::function<HttpResponse(const std::string&)>& forbidden);

 private:
  store::AskRecord record(const ApprovalRequest& request, const Caller& caller,
                          std::chrono::system_clock::time_point expires, const Engine* engine,
                          const AskOrigin& origin);
  HttpResponse answer(const std::string& id, const HttpRequest& request, const Caller& caller,
                      const std::function<HttpResponse(const std::string&)>& forbidden);
  HttpResponse askFromClient(const HttpRequest& request, const Caller& caller,
                             const Engine& engine);
  HttpResponse list(const HttpRequest& request, const Caller& caller);
  // Waits for the ask's answer until `deadline`, keeping it alive in the
  // store (heartbeatAsk), then expires it; returns it as it ended (an answer
  // given just as it expired wins). When `client_gone` says the client left,
  // the ask ends at once (kAskAskerGone): no answer may reach nobody.
  std::optional<store::AskRecord> awaitAnswer(const std::string& id,
                                              std::chrono::steady_clock::time_point deadline,
                                              const std::function<bool()>& client_gone);
  // Creates the ask and tells the long polls of this instance.
  void create(store::AskRecord& ask);
  // Wakes this instance's long polls: an ask came, was answered or expired.
  void changed();

  store::ServiceStore& store_;
  Metrics& metrics_;
  bool two_person_;
  size_t max_pending_;
  std::chrono::seconds max_wait_;
  // Requests of each token waiting for an answer on this instance: checked
  // and taken under one lock, so concurrent asks cannot pass the limit together.
  std::mutex waiting_mutex_;
  std::map<std::string, size_t> waiting_;
  bool takeWaitingPlace(const std::string& token);
  void releaseWaitingPlace(const std::string& token);
  // The queue's changes on this instance (other instances' are seen by
  // looking at the store every second).
  std::function<void(const store::AskRecord&)> on_new_ask_;
  // Long polls held now, in all and per token (under change_mutex_).
  size_t max_polls_;
  size_t polls_ = 0;
  std::map<std::string, size_t> polls_of_;
  bool takePollPlace(const std::string& token);
  void releasePollPlace(const std::string& token);
  std::mutex change_mutex_;
  std::condition_variable change_;
  unsigned long changes_ = 0;
};

}  // namespace toolguard::serve
