// toolguard's Node.js addon: the C API (include/toolguard/toolguard.h) as one
// JS class, `Guard`, that index.js wraps. Calls go in as JSON text (index.js
// stringifies them); decisions come out as objects made by index.js's
// decision factory from the main fields (verdict, reasons, rule) and the
// whole decision's JSON text (tg_decision_json; parsed by JS only when
// another field is read), all copied out so the tg_decision is freed at once
// (no JS object holds a native handle, so there is no finalizer to run).
//
// Threads.
//  - check() runs tg_guard_decide on the JS thread.
//  - checkAsync() runs it on one of the addon's own threads (CheckPool), not
//    libuv's pool: a check waiting for a person would hold a libuv thread
//    (there are 4, shared with fs, dns and zlib) for minutes, and node waits
//    for libuv's requests before it runs the cleanup hooks that end the wait.
//    The decision comes back through the guard's thread-safe function.
//  - The C library calls the asker on the thread that decides. From a check
//    thread the ask reaches the JS asker through the same thread-safe
//    function, and the check waits for the answer. On the JS thread (a
//    synchronous check, which cannot wait for itself) the JS asker is called
//    directly; an answer that is not there when it returns (a promise)
//    denies the call, so check() never deadlocks.
// Lifetimes. The thread-safe function is unref'd unless a checkAsync is
// running, so an idle guard never keeps node alive. An env cleanup hook,
// registered after the function so it runs before node tears the function
// down, denies the asks still waiting and aborts the function
// (node-addon-api#1289). Every failure on the way denies (fail closed).
#include <napi.h>
#include <toolguard/toolguard.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>

namespace {

// `text` as a JSON string literal.
std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The answer that denies an ask, saying why (the model reads `reason`).
std::string DenyAnswer(const std::string& reason) {
  return "{\"outcome\":\"deny\",\"reason\":" + JsonString("toolguard: " + reason) + "}";
}

// A tg_error's message; frees the error.
std::string TakeMessage(tg_error* error, const char* fallback) {
  std::string message = error != nullptr ? tg_error_message(error) : fallback;
  tg_error_free(error);
  return message;
}

// Frees a tg_decision.
struct DecisionFree {
  void operator()(tg_decision* decision) const { tg_decision_free(decision); }
};
using DecisionPtr = std::unique_ptr<tg_decision, DecisionFree>;

// The addon's data in one env (node or a worker): index.js's decision
// factory, factory(verdictCode, reason, modelReason, rule|null, json).
struct AddonData {
  Napi::FunctionReference factory;
};

// What a JS decision is made of: the main fields and the whole decision as
// JSON text, read through the C API's accessors. Views: into a live
// tg_decision (check) or into a DecisionCopy (checkAsync).
struct DecisionText {
  int32_t verdict = 0;
  std::string_view reason;
  std::string_view model_reason;
  std::string_view rule;  // empty: none
  std::string_view json;
};

std::string_view View(const char* text) {
  return text != nullptr ? std::string_view(text) : std::string_view();
}

// Reads `decision`'s fields (valid while it lives); false when its JSON
// could not be rendered (memory ran out).
bool ReadDecision(tg_decision* decision, DecisionText* out) {
  const char* json = tg_decision_json(decision);
  if (json == nullptr) return false;
  out->verdict = static_cast<int32_t>(tg_decision_verdict(decision));
  out->reason = View(tg_decision_reason(decision));
  out->model_reason = View(tg_decision_model_reason(decision));
  out->rule = View(tg_decision_rule(decision));
  out->json = json;
  return true;
}

// A decision's fields copied out of it (checkAsync: read on the pool thread,
// the tg_decision freed there at once).
struct DecisionCopy {
  int32_t verdict = 0;
  std::string reason;
  std::string model_reason;
  std::string rule;
  std::string json;

  DecisionText Text() const { return {verdict, reason, model_reason, rule, json}; }
};

// A string as a JS string (raw Node-API: no throw).
napi_status Utf8(napi_env env, std::string_view text, napi_value* out) {
  return napi_create_string_utf8(env, text.data(), text.size(), out);
}

// The JS decision made of `text` (JS thread). On failure *result stays null
// and the exception, if any, is pending.
napi_status MakeDecision(napi_env env, const DecisionText& text, napi_value* result) {
  *result = nullptr;
  auto* data = static_cast<AddonData*>(nullptr);
  napi_status status = napi_get_instance_data(env, reinterpret_cast<void**>(&data));
  if (status != napi_ok) return status;
  if (data == nullptr || data->factory.IsEmpty()) return napi_generic_failure;
  napi_value args[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  napi_value factory = nullptr;
  napi_value receiver = nullptr;
  if ((status = napi_create_int32(env, text.verdict, &args[0])) != napi_ok ||
      (status = Utf8(env, text.reason, &args[1])) != napi_ok ||
      (status = Utf8(env, text.model_reason, &args[2])) != napi_ok ||
      (status = text.rule.empty() ? napi_get_null(env, &args[3])
                                  : Utf8(env, text.rule, &args[3])) != napi_ok ||
      (status = Utf8(env, text.json, &args[4])) != napi_ok ||
      (status = napi_get_reference_value(env, static_cast<napi_ref>(data->factory), &factory)) !=
          napi_ok ||
      (status = napi_get_undefined(env, &receiver)) != napi_ok) {
    return status;
  }
  return napi_call_function(env, receiver, factory, 5, args, result);
}

// setDecisionFactory(factory): who makes the decision objects.
void SetDecisionFactory(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsFunction()) {
    throw Napi::TypeError::New(info.Env(), "toolguard: the decision factory must be a function");
  }
  info.Env().GetInstanceData<AddonData>()->factory = Napi::Persistent(info[0].As<Napi::Function>());
}

class GuardLink;

// One ask waiting for its answer. Answered exactly once, from any thread;
// later answers do nothing.
class PendingAsk {
 public:
  PendingAsk(tg_ask* ask, std::string request, std::weak_ptr<GuardLink> link)
      : ask_(ask), request_(std::move(request)), link_(std::move(link)) {}

  // The request JSON the asker is given.
  const std::string& request() const { return request_; }

  // Whether the ask has its answer.
  bool answered() {
    std::lock_guard lock(mutex_);
    return ask_ == nullptr;
  }

  // Answers the ask with `answer_json`. Returns false when it was answered
  // already; sets *error to the C API's message for a bad answer (which
  // denies the call).
  bool Answer(const std::string& answer_json, std::string* error = nullptr);

 private:
  std::mutex mutex_;
  tg_ask* ask_;  // null once answered
  const std::string request_;
  std::weak_ptr<GuardLink> link_;
};

// The JS asker's way to answer: answer(answerJson) returns null, the C API's
// message for a bad answer, or false when it was answered already. Raw
// Node-API here and below: nothing may throw while node is shutting down.
napi_value AnswerCallback(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg = nullptr;
  void* data = nullptr;
  napi_value result = nullptr;
  if (napi_get_cb_info(env, info, &argc, &arg, nullptr, &data) != napi_ok) return nullptr;
  const auto& pending = *static_cast<std::shared_ptr<PendingAsk>*>(data);
  std::string text;
  size_t length = 0;
  napi_valuetype type = napi_undefined;
  if (argc > 0 && napi_typeof(env, arg, &type) == napi_ok && type == napi_string &&
      napi_get_value_string_utf8(env, arg, nullptr, 0, &length) == napi_ok) {
    text.resize(length + 1);
    napi_get_value_string_utf8(env, arg, text.data(), text.size(), &length);
    text.resize(length);
  } else {
    text = DenyAnswer("the asker's answer is not JSON text");
  }
  std::string error;
  if (!pending->Answer(text, &error)) {
    napi_get_boolean(env, false, &result);
  } else if (!error.empty()) {
    napi_create_string_utf8(env, error.data(), error.size(), &result);
  } else {
    napi_get_null(env, &result);
  }
  return result;
}

// Frees the answer function's hold on its ask.
void FreeAnswerData(napi_env, void* data, void*) {
  delete static_cast<std::shared_ptr<PendingAsk>*>(data);
}

// Calls the JS dispatcher(requestJson, answer) with an ask (JS thread). A
// call that fails (index.js's dispatcher catches the asker's throws, so:
// node is shutting down) denies it.
void Dispatch(napi_env env, napi_value dispatcher, const std::shared_ptr<PendingAsk>& pending) {
  napi_handle_scope scope = nullptr;
  if (dispatcher == nullptr || napi_open_handle_scope(env, &scope) != napi_ok) {
    pending->Answer(DenyAnswer("the asker could not be called"));
    return;
  }
  napi_value args[2] = {nullptr, nullptr};
  napi_value receiver = nullptr;
  napi_value result = nullptr;
  auto* data = new std::shared_ptr<PendingAsk>(pending);
  bool ok = napi_create_function(env, "answer", NAPI_AUTO_LENGTH, AnswerCallback, data, &args[1]) ==
            napi_ok;
  if (!ok || napi_add_finalizer(env, args[1], data, FreeAnswerData, nullptr, nullptr) != napi_ok) {
    delete data;  // the function (if any) is never called: nothing else holds it
    ok = false;
  }
  ok = ok &&
       napi_create_string_utf8(env, pending->request().data(), pending->request().size(),
                               &args[0]) == napi_ok &&
       napi_get_undefined(env, &receiver) == napi_ok &&
       napi_call_function(env, receiver, dispatcher, 2, args, &result) == napi_ok;
  if (!ok) {
    napi_value exception = nullptr;
    napi_get_and_clear_last_exception(env, &exception);
    pending->Answer(DenyAnswer("the asker could not be called"));
  }
  napi_close_handle_scope(env, scope);
}

// Work for the JS thread sent from another thread.
class JsTask {
 public:
  virtual ~JsTask() = default;
  // Runs on the JS thread. `env` is null when node is tearing the
  // thread-safe function down: the task then fails closed. Never throws.
  virtual void Run(napi_env env) = 0;
};

// The thread-safe function's call: runs the task and frees it.
void RunTask(Napi::Env env, Napi::Function, std::nullptr_t*, JsTask* task) {
  std::unique_ptr<JsTask> owned(task);
  owned->Run(env);
}

using LinkFunction = Napi::TypedThreadSafeFunction<std::nullptr_t, JsTask, RunTask>;

// Runs checkAsync's checks on threads of its own, started on demand: at
// most one per core at work, plus one for each check waiting for a person
// (it holds its thread, and must not hold up the others). A thread leaves
// after 10 s without work. Never destroyed, so no static destructor races a
// thread at exit.
class CheckPool {
 public:
  static CheckPool& Instance() {
    static CheckPool* pool = new CheckPool;
    return *pool;
  }

  // Queues `work`; false when no thread could be started to run it.
  bool Submit(std::function<void()> work) {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(work));
    if (idle_ > 0) ready_.notify_one();
    if (!MaybeStartThread() && threads_ == 0) {  // nobody would ever run it
      jobs_.pop_back();
      return false;
    }
    return true;
  }

  // The calling pool thread waits for a person (from its ask to the end of
  // its check): another thread may start for the queued checks.
  static void EnterWait() {
    if (!in_pool_thread_ || waiting_here_) return;
    waiting_here_ = true;
    CheckPool& pool = Instance();
    std::lock_guard lock(pool.mutex_);
    ++pool.waiting_;
    pool.MaybeStartThread();
  }

  // The calling pool thread's check is done: it no longer waits.
  static void LeaveWait() {
    if (!waiting_here_) return;
    waiting_here_ = false;
    CheckPool& pool = Instance();
    std::lock_guard lock(pool.mutex_);
    --pool.waiting_;
  }

 private:
  CheckPool() : cores_(std::max(2u, std::thread::hardware_concurrency())) {}

  // Starts a thread if a job has no idle thread and a core has no thread at
  // work (mutex_ held). False when that was needed but failed.
  bool MaybeStartThread() {
    if (jobs_.size() <= idle_ || threads_ - waiting_ >= cores_) return true;
    try {
      std::thread(&CheckPool::Serve, this).detach();
      ++threads_;
      return true;
    } catch (const std::system_error&) {
      return false;
    }
  }

  void Serve() {
    in_pool_thread_ = true;
    std::unique_lock lock(mutex_);
    for (;;) {
      ++idle_;
      const bool got =
          ready_.wait_for(lock, std::chrono::seconds(10), [&] { return !jobs_.empty(); });
      --idle_;
      if (!got) break;
      std::function<void()> work = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      work();
      lock.lock();
    }
    --threads_;
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  const size_t cores_;
  size_t idle_ = 0;     // threads waiting for a job
  size_t threads_ = 0;  // threads running
  size_t waiting_ = 0;  // threads whose check waits for a person
  static thread_local bool in_pool_thread_;
  static thread_local bool waiting_here_;
};
thread_local bool CheckPool::in_pool_thread_ = false;
thread_local bool CheckPool::waiting_here_ = false;

// A synchronous check in progress on this thread (the JS thread), so the C
// asker callback calls the JS asker directly instead of waiting for the
// thread it runs on.
struct SyncCheck {
  napi_env env;
  const GuardLink* link;
};
thread_local SyncCheck* current_sync_check = nullptr;

// Sets current_sync_check for its lifetime.
class SyncCheckScope {
 public:
  explicit SyncCheckScope(SyncCheck* check) : previous_(current_sync_check) {
    current_sync_check = check;
  }
  ~SyncCheckScope() { current_sync_check = previous_; }
  SyncCheckScope(const SyncCheckScope&) = delete;
  SyncCheckScope& operator=(const SyncCheckScope&) = delete;

 private:
  SyncCheck* previous_;
};

// A guard's way to its JS thread: the thread-safe function, the JS asker,
// and the asks sent to it that wait for an answer. It is what the C asker
// callback gets as user_data.
class GuardLink : public std::enable_shared_from_this<GuardLink> {
 public:
  // The C asker callback (tg_ask_fn), on the deciding thread.
  static void OnAsk(void* user_data, tg_ask* ask, const char* request_json) {
    static_cast<GuardLink*>(user_data)->Ask(ask, request_json);
  }

  // Creates the thread-safe function, unref'd, and the cleanup hook (JS thread).
  void Open(Napi::Env env) {
    function_ = LinkFunction::New(env, "toolguard", 0, 1);
    napi_unref_threadsafe_function(env, function_);
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    // Hooks run in reverse order of registration: registered after the
    // function, ours runs before node tears the function down.
    if (napi_add_env_cleanup_hook(env, &GuardLink::CleanupHook, this) == napi_ok) hook_env_ = env;
  }

  // Sends a task to the JS thread (any thread). False when the link is
  // closed: the task stays the caller's.
  bool Send(std::unique_ptr<JsTask>& task) {
    std::lock_guard lock(mutex_);
    if (!open_ || function_.NonBlockingCall(task.get()) != napi_ok) return false;
    task.release();
    return true;
  }

  // Whether node must stay alive for this link (JS thread): while checks run.
  void KeepAlive(napi_env env, bool alive) {
    std::lock_guard lock(mutex_);
    if (!open_) return;
    if (alive) {
      napi_ref_threadsafe_function(env, function_);
    } else {
      napi_unref_threadsafe_function(env, function_);
    }
  }

  // Sends asks to the JS function `dispatcher(requestJson, answer)`, or to
  // nobody when it is empty (JS thread).
  void SetDispatcher(const Napi::Function& dispatcher) {
    if (dispatcher.IsEmpty()) {
      dispatcher_.Reset();
    } else {
      dispatcher_ = Napi::Persistent(dispatcher);
    }
    std::lock_guard lock(mutex_);
    has_dispatcher_ = !dispatcher.IsEmpty();
  }

  // Denies every waiting ask and every later one; forgets the JS asker (JS thread).
  void CloseAsks(const char* why) {
    std::unordered_map<PendingAsk*, std::shared_ptr<PendingAsk>> waiting;
    {
      std::lock_guard lock(mutex_);
      asks_closed_ = true;
      has_dispatcher_ = false;
      waiting.swap(waiting_);
    }
    for (auto& entry : waiting) entry.second->Answer(DenyAnswer(why));
    dispatcher_.Reset();
  }

  // Lets go of the thread-safe function (JS thread; more than once is fine).
  // `abort`: the tasks still queued run with no env (node is shutting down).
  void Close(bool abort) {
    LinkFunction function;
    {
      std::lock_guard lock(mutex_);
      if (!open_) return;
      open_ = false;
      function = function_;
    }
    if (abort) {
      function.Abort();
    } else {
      function.Release();
    }
    if (hook_env_ != nullptr) {
      napi_remove_env_cleanup_hook(hook_env_, &GuardLink::CleanupHook, this);
      hook_env_ = nullptr;
    }
  }

  // The JS asker dispatcher, or null when none is set (JS thread).
  napi_value DispatcherValue(napi_env env) const {
    napi_value value = nullptr;
    if (dispatcher_.IsEmpty() ||
        napi_get_reference_value(env, static_cast<napi_ref>(dispatcher_), &value) != napi_ok) {
      return nullptr;
    }
    return value;
  }

  // Drops an answered ask from the waiting ones.
  void Forget(PendingAsk* pending) {
    std::lock_guard lock(mutex_);
    waiting_.erase(pending);
  }

 private:
  // An ask for the JS asker.
  class AskTask : public JsTask {
   public:
    AskTask(std::shared_ptr<PendingAsk> pending, std::weak_ptr<GuardLink> link)
        : pending_(std::move(pending)), link_(std::move(link)) {}

    void Run(napi_env env) override {
      if (env == nullptr) {
        pending_->Answer(DenyAnswer("node is shutting down"));
        return;
      }
      if (pending_->answered()) return;  // denied while it was queued
      std::shared_ptr<GuardLink> link = link_.lock();
      napi_value dispatcher = link ? link->DispatcherValue(env) : nullptr;
      if (dispatcher == nullptr) {
        pending_->Answer(DenyAnswer("no asker is set"));
        return;
      }
      Dispatch(env, dispatcher, pending_);
    }

   private:
    std::shared_ptr<PendingAsk> pending_;
    std::weak_ptr<GuardLink> link_;
  };

  void Ask(tg_ask* ask, const char* request_json) {
    auto pending = std::make_shared<PendingAsk>(ask, request_json, weak_from_this());
    const SyncCheck* sync = current_sync_check;
    if (sync != nullptr && sync->link == this) {
      // The JS thread, inside check(): it cannot wait for itself.
      napi_value dispatcher = DispatcherValue(sync->env);
      if (dispatcher == nullptr) {
        pending->Answer(DenyAnswer("no asker is set"));
        return;
      }
      Dispatch(sync->env, dispatcher, pending);
      pending->Answer(
          DenyAnswer("a synchronous check cannot wait for the asker's promise; use checkAsync"));
      return;
    }
    CheckPool::EnterWait();  // until this check is done
    const char* refused = nullptr;
    {
      std::lock_guard lock(mutex_);
      if (asks_closed_) {
        refused = "the guard was closed";
      } else if (!has_dispatcher_) {
        refused = "no asker is set";
      } else if (!open_) {
        refused = "node is shutting down";
      } else {
        waiting_.emplace(pending.get(), pending);
        auto task = std::make_unique<AskTask>(pending, weak_from_this());
        if (function_.NonBlockingCall(task.get()) == napi_ok) {
          task.release();
        } else {
          waiting_.erase(pending.get());
          refused = "the asker could not be reached (node is shutting down)";
        }
      }
    }
    if (refused != nullptr) pending->Answer(DenyAnswer(refused));
  }

  static void CleanupHook(void* arg) {
    auto* link = static_cast<GuardLink*>(arg);
    link->hook_env_ = nullptr;  // node drops a hook once it ran
    link->CloseAsks("node is shutting down");
    link->Close(true);
  }

  std::mutex mutex_;  // guards the four members below
  bool open_ = false;
  bool asks_closed_ = false;
  bool has_dispatcher_ = false;
  std::unordered_map<PendingAsk*, std::shared_ptr<PendingAsk>> waiting_;  // sent to JS
  LinkFunction function_;                                                 // set once by Open
  Napi::FunctionReference dispatcher_;                                    // JS thread only
  napi_env hook_env_ = nullptr;  // JS thread only: where CleanupHook is registered
};

bool PendingAsk::Answer(const std::string& answer_json, std::string* error) {
  tg_ask* ask = nullptr;
  {
    std::lock_guard lock(mutex_);
    std::swap(ask, ask_);
  }
  if (ask == nullptr) return false;
  tg_error* failure = nullptr;
  if (tg_ask_answer(ask, answer_json.c_str(), &failure) != 0) {
    std::string message = TakeMessage(failure, "tg_ask_answer failed");
    if (error != nullptr) *error = std::move(message);
  }
  if (std::shared_ptr<GuardLink> link = link_.lock()) link->Forget(this);
  return true;
}

// A tg_guard, shared by the JS object and the checks running on other
// threads: the last one to let go frees it. Its link outlives it (the C
// asker's user_data).
struct GuardCore {
  tg_guard* guard;
  std::shared_ptr<GuardLink> link;

  GuardCore(tg_guard* g, std::shared_ptr<GuardLink> l) : guard(g), link(std::move(l)) {}
  ~GuardCore() { tg_guard_free(guard); }
  GuardCore(const GuardCore&) = delete;
  GuardCore& operator=(const GuardCore&) = delete;
};

class NativeGuard;

// One checkAsync: the check on a pool thread, then the promise settled on
// the JS thread.
class CheckTask : public JsTask {
 public:
  CheckTask(NativeGuard* owner, napi_deferred deferred, std::shared_ptr<GuardCore> core,
            std::string call)
      : owner_(owner),
        deferred_(deferred),
        link_(core->link),
        core_(std::move(core)),
        call_(std::move(call)) {}

  // The check (a pool thread); then the task goes to the JS thread, or is
  // dropped when node is shutting down.
  static void Work(std::unique_ptr<JsTask> task) {
    auto* self = static_cast<CheckTask*>(task.get());
    tg_error* error = nullptr;
    DecisionPtr decision(
        tg_guard_decide(self->core_->guard, self->call_.data(), self->call_.size(), &error));
    CheckPool::LeaveWait();
    DecisionText text;
    if (!decision) {
      self->error_ = TakeMessage(error, "tg_guard_decide failed");
    } else if (!ReadDecision(decision.get(), &text)) {
      self->error_ = "toolguard: the decision could not be rendered";
    } else {
      DecisionCopy& copy = self->decision_.emplace();
      copy.verdict = text.verdict;
      copy.reason = text.reason;
      copy.model_reason = text.model_reason;
      copy.rule = text.rule;
      copy.json = text.json;
    }
    decision.reset();     // copied out: freed here, before the guard may be
    self->core_.reset();  // a guard closed meanwhile is freed by its last check
    const std::shared_ptr<GuardLink> link = self->link_;
    link->Send(task);
  }

  void Run(napi_env env) override;

 private:
  NativeGuard* owner_;  // alive while checks run (they hold a reference to it)
  napi_deferred deferred_;
  std::shared_ptr<GuardLink> link_;
  std::shared_ptr<GuardCore> core_;
  std::string call_;
  std::optional<DecisionCopy> decision_;  // the check's decision, once done
  std::string error_;                     // when the check failed
};

// The call JSON text of info[0] (index.js always passes a string).
std::string CallText(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsString()) {
    throw Napi::TypeError::New(info.Env(), "toolguard: the call must be JSON text");
  }
  return info[0].As<Napi::String>().Utf8Value();
}

// The JS class: new Guard(optionsJson), check(callJson) -> decision,
// checkAsync(callJson) -> Promise<decision>, setAsker(dispatcher|null),
// close().
class NativeGuard : public Napi::ObjectWrap<NativeGuard> {
 public:
  // The class, for the module's exports.
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Guard",
                       {InstanceMethod<&NativeGuard::Check>("check"),
                        InstanceMethod<&NativeGuard::CheckAsync>("checkAsync"),
                        InstanceMethod<&NativeGuard::SetAsker>("setAsker"),
                        InstanceMethod<&NativeGuard::Close>("close"),
                        InstanceMethod<&NativeGuard::BareDecide>("_bareDecide"),
                        InstanceMethod<&NativeGuard::RunSandboxed>("runSandboxed")});
  }

  // new Guard(optionsJson?): tg_guard_new; throws its message.
  explicit NativeGuard(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeGuard>(info) {
    std::string options;
    if (info.Length() > 0 && info[0].IsString()) {
      options = info[0].As<Napi::String>().Utf8Value();
    } else if (info.Length() > 0 && !info[0].IsUndefined() && !info[0].IsNull()) {
      throw Napi::TypeError::New(info.Env(), "toolguard: the options must be JSON text");
    }
    tg_error* error = nullptr;
    tg_guard* guard = tg_guard_new(options.c_str(), &error);
    if (guard == nullptr) {
      throw Napi::Error::New(info.Env(), TakeMessage(error, "tg_guard_new failed"));
    }
    core_ = std::make_shared<GuardCore>(guard, link_);
    link_->Open(info.Env());
  }

  ~NativeGuard() override {
    // GC (no check running: they hold a reference) or node's teardown.
    link_->CloseAsks("the guard was freed");
    link_->Close(true);
  }

  // A checkAsync settled its promise (JS thread).
  void CheckDone(napi_env env) {
    if (--running_ > 0) return;
    link_->KeepAlive(env, false);
    if (!core_) link_->Close(false);  // closed: nothing more will come
    Unref();
  }

 private:
  // The guard, or a throw when it is closed.
  std::shared_ptr<GuardCore> Core(Napi::Env env) const {
    if (!core_) throw Napi::Error::New(env, "toolguard: the guard is closed");
    return core_;
  }

  Napi::Value Check(const Napi::CallbackInfo& info) {
    const std::shared_ptr<GuardCore> core = Core(info.Env());
    const std::string call = CallText(info);
    SyncCheck sync{info.Env(), link_.get()};
    SyncCheckScope scope(&sync);
    tg_error* error = nullptr;
    DecisionPtr decision(tg_guard_decide(core->guard, call.data(), call.size(), &error));
    if (!decision) throw Napi::Error::New(info.Env(), TakeMessage(error, "tg_guard_decide failed"));
    DecisionText text;
    if (!ReadDecision(decision.get(), &text)) {
      throw Napi::Error::New(info.Env(), "toolguard: the decision could not be rendered");
    }
    napi_value result = nullptr;
    const napi_status status = MakeDecision(info.Env(), text, &result);
    decision.reset();  // the JS strings are copies
    if (status != napi_ok) {
      if (info.Env().IsExceptionPending()) throw info.Env().GetAndClearPendingException();
      throw Napi::Error::New(info.Env(), "toolguard: the decision object could not be made");
    }
    return Napi::Value(info.Env(), result);
  }

  // runSandboxed(requestJson): tg_guard_run_sandboxed on the JS thread (it
  // waits for the command); the exit status, or a throw saying why nothing ran.
  Napi::Value RunSandboxed(const Napi::CallbackInfo& info) {
    const std::shared_ptr<GuardCore> core = Core(info.Env());
    if (info.Length() < 1 || !info[0].IsString()) {
      throw Napi::TypeError::New(info.Env(), "toolguard: runSandboxed needs the request's JSON");
    }
    const std::string request = info[0].As<Napi::String>().Utf8Value();
    tg_error* error = nullptr;
    const int status = tg_guard_run_sandboxed(core->guard, request.c_str(), &error);
    if (status < 0) {
      throw Napi::Error::New(info.Env(), TakeMessage(error, "tg_guard_run_sandboxed failed"));
    }
    return Napi::Number::New(info.Env(), status);
  }

  // _bareDecide(callJson, n): n × (tg_guard_decide + tg_decision_free), the
  // C API's own cost in this process (bench.mjs only). Returns the last verdict.
  Napi::Value BareDecide(const Napi::CallbackInfo& info) {
    const std::shared_ptr<GuardCore> core = Core(info.Env());
    const std::string call = CallText(info);
    const int64_t n = info.Length() > 1 ? info[1].As<Napi::Number>().Int64Value() : 1;
    int verdict = -1;
    for (int64_t i = 0; i < n; ++i) {
      tg_decision* decision = tg_guard_decide(core->guard, call.data(), call.size(), nullptr);
      verdict = decision != nullptr ? tg_decision_verdict(decision) : -1;
      tg_decision_free(decision);
    }
    return Napi::Number::New(info.Env(), verdict);
  }

  Napi::Value CheckAsync(const Napi::CallbackInfo& info) {
    const Napi::Env env = info.Env();
    std::shared_ptr<GuardCore> core = Core(env);
    std::string call = CallText(info);
    napi_deferred deferred = nullptr;
    napi_value promise = nullptr;
    NAPI_THROW_IF_FAILED(env, napi_create_promise(env, &deferred, &promise), Napi::Value());
    // The deferred is settled (and freed) by CheckTask::Run.
    auto* task = new std::unique_ptr<JsTask>(
        std::make_unique<CheckTask>(this, deferred, std::move(core), std::move(call)));
    const bool queued = CheckPool::Instance().Submit([task] {
      std::unique_ptr<std::unique_ptr<JsTask>> owned(task);
      CheckTask::Work(std::move(*owned));
    });
    if (!queued) {
      delete task;
      napi_reject_deferred(
          env, deferred,
          Napi::Error::New(env, "toolguard: no thread could be started for the check").Value());
      return Napi::Value(env, promise);
    }
    if (running_++ == 0) {
      Ref();  // this object (and its asker) lives while checks run
      link_->KeepAlive(env, true);
    }
    return Napi::Value(env, promise);
  }

  void SetAsker(const Napi::CallbackInfo& info) {
    const std::shared_ptr<GuardCore> core = Core(info.Env());
    if (info.Length() < 1 || info[0].IsNull() || info[0].IsUndefined()) {
      tg_guard_set_asker(core->guard, nullptr, nullptr);
      link_->SetDispatcher(Napi::Function());
      return;
    }
    if (!info[0].IsFunction()) {
      throw Napi::TypeError::New(info.Env(), "toolguard: the asker must be a function");
    }
    link_->SetDispatcher(info[0].As<Napi::Function>());
    tg_guard_set_asker(core->guard, &GuardLink::OnAsk, link_.get());
  }

  // Denies waiting asks and lets go of the guard: freed now, or by the last
  // check still running.
  void Close(const Napi::CallbackInfo&) {
    if (!core_) return;
    link_->CloseAsks("the guard was closed before the asker answered");
    core_.reset();
    if (running_ == 0) link_->Close(false);
  }

  std::shared_ptr<GuardLink> link_ = std::make_shared<GuardLink>();
  std::shared_ptr<GuardCore> core_;
  size_t running_ = 0;  // checkAsync calls not settled yet
};

void CheckTask::Run(napi_env env) {
  if (env == nullptr) return;  // node is shutting down: nobody awaits the promise
  napi_handle_scope scope = nullptr;
  if (napi_open_handle_scope(env, &scope) == napi_ok) {
    napi_value value = nullptr;
    if (decision_) {
      if (MakeDecision(env, decision_->Text(), &value) == napi_ok) {
        napi_resolve_deferred(env, deferred_, value);
      } else {
        bool pending = false;
        napi_value exception = nullptr;
        if (napi_is_exception_pending(env, &pending) != napi_ok || !pending ||
            napi_get_and_clear_last_exception(env, &exception) != napi_ok) {
          napi_value message = nullptr;
          Utf8(env, "toolguard: the decision object could not be made", &message);
          napi_create_error(env, nullptr, message, &exception);
        }
        napi_reject_deferred(env, deferred_, exception);
      }
    } else {
      napi_value message = nullptr;
      if (napi_create_string_utf8(env, error_.data(), error_.size(), &message) == napi_ok &&
          napi_create_error(env, nullptr, message, &value) == napi_ok) {
        napi_reject_deferred(env, deferred_, value);
      }
    }
    napi_close_handle_scope(env, scope);
  }
  owner_->CheckDone(env);
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new AddonData);
  exports.Set("Guard", NativeGuard::Define(env));
  exports.Set("setDecisionFactory",
              Napi::Function::New<SetDecisionFactory>(env, "setDecisionFactory"));
  exports.Set("version", Napi::String::New(env, tg_version()));
  return exports;
}

}  // namespace

NODE_API_MODULE(toolguard, Init)
