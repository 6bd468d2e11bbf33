// The C++ approval handlers: a synchronous callback, an asynchronous one,
// and auto-deny.
#include <exception>
#include <thread>

#include "toolguard/approval.hpp"

namespace toolguard {
namespace {

class CallbackHandler final : public ApprovalHandler {
 public:
  explicit CallbackHandler(std::function<ApprovalAnswer(const ApprovalRequest&)> callback)
      : callback_(std::move(callback)) {}

  std::string name() const override { return "callback"; }

  std::future<ApprovalAnswer> ask(const ApprovalRequest& request) override {
    // The callback runs on its own thread so the Guard can stop waiting at
    // its timeout; the promise and the request copy live as long as it runs.
    auto promise = std::make_shared<std::promise<ApprovalAnswer>>();
    std::future<ApprovalAnswer> answer = promise->get_future();
    std::thread([promise, request, callback = callback_] {
      try {
        promise->set_value(callback(request));
      } catch (...) {
        promise->set_exception(std::current_exception());
      }
    }).detach();
    return answer;
  }

 private:
  std::function<ApprovalAnswer(const ApprovalRequest&)> callback_;
};

class AsyncHandler final : public ApprovalHandler {
 public:
  explicit AsyncHandler(std::function<std::future<ApprovalAnswer>(const ApprovalRequest&)> callback)
      : callback_(std::move(callback)) {}

  std::string name() const override { return "async-callback"; }

  std::future<ApprovalAnswer> ask(const ApprovalRequest& request) override {
    try {
      return callback_(request);
    } catch (...) {
      std::promise<ApprovalAnswer> failed;
      failed.set_exception(std::current_exception());
      return failed.get_future();
    }
  }

 private:
  std::function<std::future<ApprovalAnswer>(const ApprovalRequest&)> callback_;
};

class AutoDenyHandler final : public ApprovalHandler {
 public:
  explicit AutoDenyHandler(std::string reason) : reason_(std::move(reason)) {}

  std::string name() const override { return "auto-deny"; }

  std::future<ApprovalAnswer> ask(const ApprovalRequest&) override {
    std::promise<ApprovalAnswer> answer;
    answer.set_value(
        ApprovalAnswer{ApprovalOutcome::Deny, 0, ApprovalScope::Session, reason_, false, ""});
    return answer.get_future();
  }

 private:
  std::string reason_;
};

}  // namespace

std::shared_ptr<ApprovalHandler> callbackApprovalHandler(
    std::function<ApprovalAnswer(const ApprovalRequest&)> callback) {
  return std::make_shared<CallbackHandler>(std::move(callback));
}

std::shared_ptr<ApprovalHandler> asyncApprovalHandler(
    std::function<std::future<ApprovalAnswer>(const ApprovalRequest&)> callback) {
  return std::make_shared<AsyncHandler>(std::move(callback));
}

std::shared_ptr<ApprovalHandler> autoDenyApprovalHandler(std::string reason) {
  return std::make_shared<AutoDenyHandler>(std::move(reason));
}

}  // namespace toolguard
