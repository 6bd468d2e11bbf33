// Asks through the C asker: the request goes out as JSON, the answer comes
// back through tg_ask_answer, from any thread, as JSON.
#include <chrono>
#include <future>
#include <optional>
#include <stdexcept>

#include "capi/capi_types.hpp"
#include "core/counted.hpp"
#include "front/call_json.hpp"
#include "toolguard/strict_json.hpp"

struct tg_ask {
  std::promise<toolguard::ApprovalAnswer> answer;
  /// Past this, an answer denies: the guard has stopped waiting (an asker
  /// that answers inside its callback is not interrupted, so its answer is
  /// checked here). Unset: no limit.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::chrono::milliseconds timeout{0};
  size_t option_count = 0;
  std::vector<toolguard::ApprovalScope> scopes;
};

namespace {

using namespace toolguard;
using nlohmann::json;

json requestJson(const ApprovalRequest& request) {
  json options = json::array();
  for (const ApprovalOption& o : request.options) {
    options.push_back(
        {{"binding", toString(o.binding)}, {"value", o.value}, {"description", o.description}});
  }
  json scopes = json::array();
  for (ApprovalScope scope : request.scopes) scopes.push_back(toString(scope));
  return {{"call", toJson(request.call)},
          {"decision", front::decisionToJson(request.decision, request.call.tool)},
          {"tool_metadata", toJson(request.tool)},
          {"options", std::move(options)},
          {"scopes", std::move(scopes)},
          {"timeout_ms", request.timeout.count()}};
}

// The answer the JSON gives; throws std::invalid_argument naming the field.
ApprovalAnswer readAnswer(const tg_ask& ask, const char* answer_json) {
  if (answer_json == nullptr) throw std::invalid_argument("answer: missing (NULL)");
  StrictJson parsed = parseStrictJson(answer_json);
  if (!parsed.value) throw std::invalid_argument("answer: " + parsed.error);
  const json& a = *parsed.value;
  if (!a.is_object()) throw std::invalid_argument("answer: must be a JSON object");
  ApprovalAnswer answer;
  std::string outcome;
  for (const auto& [name, value] : a.items()) {
    if (name == "outcome" && value.is_string()) {
      outcome = value.get<std::string>();
    } else if (name == "option" && value.is_number_unsigned()) {
      answer.option = value.get<size_t>();
      if (answer.option >= ask.option_count) {
        throw std::invalid_argument("answer: \"option\" " + std::to_string(answer.option) +
                                    " is not one of the request's " +
                                    detail::counted(ask.option_count, "option", "options"));
      }
    } else if (name == "scope" && value.is_string()) {
      std::optional<ApprovalScope> scope = parseApprovalScope(value.get<std::string>());
      if (!scope || std::find(ask.scopes.begin(), ask.scopes.end(), *scope) == ask.scopes.end()) {
        throw std::invalid_argument("answer: \"scope\" \"" + value.get<std::string>() +
                                    "\" is not one of the request's scopes");
      }
      answer.scope = *scope;
    } else if (name == "reason" && value.is_string()) {
      answer.reason = value.get<std::string>();
    } else if (name == "by_person" && value.is_boolean()) {
      answer.by_person = value.get<bool>();
    } else if (name == "outcome" || name == "option" || name == "scope" || name == "reason" ||
               name == "by_person") {
      throw std::invalid_argument("answer: \"" + name + "\" has the wrong type");
    } else {
      throw std::invalid_argument("answer: unknown member \"" + name + "\"");
    }
  }
  if (outcome == "allow-once") {
    answer.outcome = ApprovalOutcome::AllowOnce;
  } else if (outcome == "always-allow") {
    answer.outcome = ApprovalOutcome::AlwaysAllow;
    if (!a.contains("scope"))
      throw std::invalid_argument("answer: \"always-allow\" needs \"scope\"");
  } else if (outcome == "deny") {
    answer.outcome = ApprovalOutcome::Deny;
  } else {
    throw std::invalid_argument(
        "answer: \"outcome\" must be \"allow-once\", \"always-allow\" or \"deny\"");
  }
  if (!answer.by_person && answer.outcome != ApprovalOutcome::Deny) {
    throw std::invalid_argument("answer: \"by_person\": false goes only with \"deny\"");
  }
  return answer;
}

}  // namespace

std::shared_ptr<ApprovalHandler> cAskerHandler(tg_ask_fn asker, void* user_data) {
  return asyncApprovalHandler([asker, user_data](const ApprovalRequest& request) {
    auto* ask = new tg_ask;
    ask->option_count = request.options.size();
    ask->scopes = request.scopes;
    if (request.timeout.count() > 0) {
      ask->timeout = request.timeout;
      ask->deadline = std::chrono::steady_clock::now() + request.timeout;
    }
    std::future<ApprovalAnswer> answer = ask->answer.get_future();
    const std::string text =
        requestJson(request).dump(-1, ' ', false, json::error_handler_t::replace);
    asker(user_data, ask, text.c_str());  // from here on the ask is the asker's
    return answer;
  });
}

extern "C" int tg_ask_answer(tg_ask* ask, const char* answer_json, tg_error** error) {
  if (ask == nullptr) {
    setError(error, "tg_ask_answer: ask is NULL");
    return 1;
  }
  std::unique_ptr<tg_ask> owned(ask);
  try {
    ApprovalAnswer answer = readAnswer(*owned, answer_json);
    if (owned->deadline && std::chrono::steady_clock::now() > *owned->deadline) {
      answer = ApprovalAnswer{};  // deny
      answer.by_person = false;
      answer.reason = "the answer came after the approval timeout (" +
                      std::to_string(owned->timeout.count()) + " ms)";
    }
    owned->answer.set_value(std::move(answer));
    return 0;
  } catch (const std::invalid_argument& e) {
    ApprovalAnswer deny;
    deny.reason = std::string("the answer could not be read: ") + e.what();
    deny.by_person = false;
    owned->answer.set_value(std::move(deny));
    setError(error, e.what());
  } catch (const std::exception& e) {
    setError(error, std::string("tg_ask_answer: ") + e.what());
  }
  return 1;
}
