// remoteApprovalHandler: a program's own Guard sends its asks to
// `toolguard serve` (POST /v1/asks), where they wait in the queue for a
// person; the answer comes back in the response. Any failure on the way is
// a deny.
#include <future>
#include <thread>

#include "http/plain_http.hpp"
#include "service_answer.hpp"

namespace toolguard {
namespace detail {

ApprovalAnswer serviceAnswer(const nlohmann::json& answer) {
  ApprovalAnswer result;
  const std::string kind = answer.is_object() ? answer.value("answer", "") : "";
  if (answer.is_object() && answer.contains("by") && answer["by"].is_string()) {
    result.person = answer["by"].get<std::string>();
  }
  if (kind == "allow_once") {
    result.outcome = ApprovalOutcome::AllowOnce;
  } else if (kind == "always" && answer.contains("option") &&
             answer["option"].is_number_unsigned()) {
    result.outcome = ApprovalOutcome::AlwaysAllow;
    result.option = answer["option"].get<size_t>();
    result.scope = parseApprovalScope(answer.value("scope", "")).value_or(ApprovalScope::Session);
  } else {
    result.outcome = ApprovalOutcome::Deny;
    result.reason = answer.is_object() && answer.contains("note") && answer["note"].is_string()
                        ? answer["note"].get<std::string>()
                        : "";
  }
  return result;
}

ApprovalAnswer noServiceAnswer(const std::string& why) {
  ApprovalAnswer a;
  a.outcome = ApprovalOutcome::Deny;
  a.by_person = false;
  a.reason = why;
  return a;
}

}  // namespace detail

namespace {

class RemoteApprovalHandler : public ApprovalHandler {
 public:
  RemoteApprovalHandler(std::string url, std::string token)
      : url_(std::move(url)), token_(std::move(token)) {}

  std::string name() const override { return "serve"; }

  std::future<ApprovalAnswer> ask(const ApprovalRequest& request) override {
    nlohmann::json bindings = nlohmann::json::array();
    for (const ApprovalOption& o : request.options) {
      bindings.push_back(
          {{"binding", toString(o.binding)}, {"value", o.value}, {"description", o.description}});
    }
    nlohmann::json scopes = nlohmann::json::array();
    for (ApprovalScope s : request.scopes) scopes.push_back(toString(s));
    const long wait_s = request.timeout.count() > 0
                            ? std::max<long>(1, (request.timeout.count() + 999) / 1000)
                            : 300;
    nlohmann::json body{{"call", toJson(request.call)},
                        {"decision",
                         {{"verdict", "ask"},
                          {"reason", request.decision.reason},
                          {"rule", request.decision.rule_id},
                          {"id", request.decision.id}}},
                        {"tool_metadata", toJson(request.tool)},
                        {"offer", {{"bindings", bindings}, {"scopes", scopes}}},
                        {"wait", wait_s}};
    std::string text = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    // A thread of its own, not std::async: the Guard stops waiting at its
    // timeout, and a std::async future would hold it until the request ended.
    auto promise = std::make_shared<std::promise<ApprovalAnswer>>();
    std::future<ApprovalAnswer> answer = promise->get_future();
    std::thread([promise, url = url_, token = token_, text, wait_s] {
      try {
        promise->set_value(exchange(url, token, text, wait_s));
      } catch (...) {
        promise->set_exception(std::current_exception());
      }
    }).detach();
    return answer;
  }

 private:
  static ApprovalAnswer exchange(const std::string& url, const std::string& token,
                                 const std::string& text, long wait_s) {
    const Expected<detail::PlainHttpResponse> r = detail::postToService(
        url, "/v1/asks",
        {{"Authorization", "Bearer " + token}, {"Content-Type", "application/json"}}, text,
        (wait_s + 10) * 1000);
    const std::string where = "the toolguard service at " + url;
    if (!r) return detail::noServiceAnswer(where + " could not be asked: " + r.error());
    nlohmann::json ask = nlohmann::json::parse(r->body, nullptr, false);
    if (r->status != 200 || !ask.is_object()) {
      const std::string message = ask.is_object() ? ask.value("error", "") : "";
      return detail::noServiceAnswer(where + " answered " + std::to_string(r->status) +
                                     (message.empty() ? "" : ": " + message));
    }
    if (ask.value("state", "") != "answered") {
      return detail::noServiceAnswer("no one answered in the service's queue within " +
                                     std::to_string(wait_s) + " s");
    }
    return detail::serviceAnswer(ask.value("answer", nlohmann::json::object()));
  }

  std::string url_;
  std::string token_;
};

}  // namespace

std::shared_ptr<ApprovalHandler> remoteApprovalHandler(std::string url, std::string token) {
  return std::make_shared<RemoteApprovalHandler>(std::move(url), std::move(token));
}

}  // namespace toolguard
