// The LLM validator and guard agent: one request, or a short loop in which
// the model may load skills; every failure ends in ask.
#include "toolguard/llm_validator.hpp"

#include "chat/chat_wire.hpp"
#include "deadline.hpp"
#include "toolguard/chat_client.hpp"

namespace toolguard {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Skills the model may ask for in one judgement: enough for any sensible
// use, few enough that a looping model ends quickly.
constexpr int kMaxSkillCallsPerReply = 4;

// The key the cache remembers an answer under: everything the model was
// shown about the call (tool, description, canonical arguments, cwd) and who
// answered, as one JSON array, so no two different calls share a key.
std::string verdictCacheKey(const CallView& view, const LlmSettings& settings) {
  json key = json::array({view.toolName(), view.tool().description, view.call().args,
                          view.call().context.cwd, settings.model, settings.base_url});
  return key.dump(-1, ' ', true, json::error_handler_t::strict);  // throws on bad UTF-8
}

// `text` with the API key and the base URL's credentials (user info,
// query) replaced: servers and proxies may echo them in errors.
std::string scrub(std::string text, const LlmSettings& settings) {
  auto replaceAll = [&text](const std::string& secret) {
    if (secret.size() < 4) return;
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at)) {
      text.replace(at, secret.size(), "[redacted]");
      at += 10;
    }
  };
  replaceAll(settings.api_key);
  const std::string& url = settings.base_url;
  if (url.find('@') != std::string::npos || url.find('?') != std::string::npos) replaceAll(url);
  return text;
}

json skillTool(const std::vector<const GuardSkill*>& offered) {
  json names = json::array();
  for (const GuardSkill* skill : offered) names.push_back(skill->name);
  return json::array({{{"type", "function"},
                       {"function",
                        {{"name", "skill"},
                         {"description",
                          "Read a guard skill: guidance on judging code in one language or on "
                          "simulating what a call does."},
                         {"parameters",
                          {{"type", "object"},
                           {"properties", {{"name", {{"type", "string"}, {"enum", names}}}}},
                           {"required", json::array({"name"})},
                           {"additionalProperties", false}}}}}}});
}

// The answer to one `skill` call, and the skill's name when one was loaded.
std::string answerSkillCall(const ChatToolCall& call, const GuardSkillLibrary& library,
                            const std::vector<const GuardSkill*>& offered, std::string& loaded) {
  if (call.name != "skill") return "error: there is no tool '" + call.name + "'; answer now.";
  json args = detail::parseServerJson(call.arguments);
  if (!args.is_object() || !args.contains("name") || !args["name"].is_string()) {
    return "error: call skill with {\"name\": NAME}.";
  }
  const std::string name = args["name"].get<std::string>();
  const GuardSkill* skill = library.find(name);
  bool is_offered = false;
  for (const GuardSkill* s : offered) is_offered = is_offered || s == skill;
  if (!skill || !is_offered) return "error: there is no skill '" + name + "'.";
  loaded = skill->name;
  return skill->body;
}

std::string failureReason(const ChatError& error, const detail::Deadline& deadline,
                          const CancellationToken& caller, const LlmSettings& settings) {
  if (caller.cancelled()) return "the LLM validator was cancelled";
  if (error.kind == ChatError::Kind::Cancelled || deadline.expired()) {
    return "the LLM validator did not answer within " + std::to_string(settings.timeout.count()) +
           " ms";
  }
  switch (error.kind) {
    case ChatError::Kind::Connection:
      return "the LLM validator could not be reached: " + error.message;
    case ChatError::Kind::Http:
      return "the LLM validator's endpoint answered HTTP " + std::to_string(error.http_status) +
             ": " + error.message;
    case ChatError::Kind::Protocol:
    case ChatError::Kind::Cancelled:
      break;
  }
  return "the LLM validator's reply was not a chat completion: " + error.message;
}

class Judging {
 public:
  Judging(const LlmSettings& settings, const GuardSkillLibrary& library, const CallView& view,
          const CancellationToken& cancellation)
      : settings_(settings), library_(library), view_(view), caller_(cancellation) {}

  LlmReview run() {
    judgement_.model = settings_.model;
    if (!settings_.usable()) {
      return fail("the LLM validator is not configured (enabled, base URL and model)");
    }
    std::vector<const GuardSkill*> skills = library_.autoInvoked(detectCallLanguages(view_));
    std::vector<const GuardSkill*> offered;
    if (settings_.max_turns > 1) {
      for (const GuardSkill& skill : library_.all()) {
        bool shown = false;
        for (const GuardSkill* s : skills) shown = shown || s == &skill;
        if (!shown) offered.push_back(&skill);
      }
    }
    for (const GuardSkill* skill : skills) judgement_.skills.push_back(skill->name);
    LlmPrompt prompt = buildLlmPrompt(view_, settings_, skills, offered);
    if (prompt.too_long) {
      return fail("the call is too long for the LLM validator (" +
                  std::to_string(prompt.call_bytes) + " bytes, limit " +
                  std::to_string(settings_.max_input_bytes) +
                  "): it is not shown in part, a person decides");
    }
    ChatRequest request;
    request.messages = {ChatMessage::system(prompt.system), ChatMessage::user(prompt.user)};
    if (!offered.empty()) request.tools = skillTool(offered);
    return converse(std::move(request), offered);
  }

 private:
  LlmReview converse(ChatRequest request, const std::vector<const GuardSkill*>& offered) {
    detail::Deadline deadline(caller_, settings_.timeout);
    for (int turn = 1; turn <= settings_.max_turns; ++turn) {
      ChatEndpoint endpoint{settings_.base_url, settings_.model, settings_.api_key,
                            std::max(deadline.remaining(), std::chrono::milliseconds(1)),
                            json{{"temperature", 0}}};
      LlmExchange exchange;
      // An unusable endpoint is the client's failure below; its request is then null.
      if (Expected<json> body = detail::chatRequestBody(endpoint, request)) {
        exchange.request = std::move(*body);
      }
      ChatResult result = ChatClient(endpoint).complete(request, {}, deadline.token());
      if (!result.ok()) {
        exchange.error = scrub(
            std::string(toString(result.error->kind)) + ": " + result.error->message, settings_);
        judgement_.exchanges.push_back(std::move(exchange));
        return fail(scrub(failureReason(*result.error, deadline, caller_, settings_), settings_));
      }
      const ChatMessage& reply = result.reply->message;
      exchange.reply = reply.toJson();
      exchange.reply["finish_reason"] = result.reply->finish_reason;
      judgement_.exchanges.push_back(std::move(exchange));
      if (caller_.cancelled()) return fail("the LLM validator was cancelled");
      const std::string& finish = result.reply->finish_reason;
      if (reply.tool_calls.empty() && !finish.empty() && finish != "stop") {
        // A reply cut short (length, content_filter) is not a whole answer.
        return fail("the LLM validator's reply ended with finish_reason '" + finish + "'");
      }
      if (reply.tool_calls.empty()) return read(reply.content);
      if (offered.empty()) {
        return fail("the LLM validator called a tool, but it has none: read as ASK");
      }
      if (turn == settings_.max_turns) break;
      if (reply.tool_calls.size() > static_cast<size_t>(kMaxSkillCallsPerReply)) {
        return fail("the guard agent asked for " + std::to_string(reply.tool_calls.size()) +
                    " skills at once (at most " + std::to_string(kMaxSkillCallsPerReply) + ")");
      }
      request.messages.push_back(reply);
      for (const ChatToolCall& call : reply.tool_calls) {
        std::string loaded;
        std::string answer = answerSkillCall(call, library_, offered, loaded);
        if (!loaded.empty()) judgement_.skills.push_back(loaded);
        request.messages.push_back(ChatMessage::tool(call.id, call.name, std::move(answer)));
      }
    }
    return fail("the guard agent gave no answer within " + std::to_string(settings_.max_turns) +
                " turns");
  }

  LlmReview read(const std::string& content) {
    LlmReplyReading reading = readLlmReply(content);
    judgement_.reading = reading.note;
    judgement_.verdict = reading.verdict;
    judgement_.answered = reading.well_formed;
    judgement_.reason = reading.reason;
    return finish();
  }

  LlmReview fail(std::string why) {
    judgement_.verdict = LlmVerdict::Ask;
    judgement_.answered = false;
    judgement_.reason = std::move(why);
    if (judgement_.reading.empty()) judgement_.reading = "no answer: read as ASK";
    return finish();
  }

  LlmReview finish() {
    judgement_.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started_);
    return std::move(judgement_);
  }

  const LlmSettings& settings_;
  const GuardSkillLibrary& library_;
  const CallView& view_;
  const CancellationToken& caller_;
  Clock::time_point started_ = Clock::now();
  LlmReview judgement_;
};

}  // namespace

LlmValidator::LlmValidator(LlmSettings settings, GuardSkillLibrary skills,
                           std::shared_ptr<LlmVerdictCache> cache)
    : settings_(std::move(settings)), skills_(std::move(skills)), cache_(std::move(cache)) {}

LlmReview LlmValidator::review(const CallView& view, const CancellationToken& cancellation,
                               bool use_cache) const {
  try {
    const std::string& session = view.call().context.session;
    std::string key;  // empty: not cached (no session, cancelled, or not valid UTF-8)
    if (use_cache && cache_ && !session.empty() && !cancellation.cancelled()) {
      try {
        key = verdictCacheKey(view, settings_);
      } catch (const nlohmann::json::exception&) {
      }
    }
    if (!key.empty()) {
      if (std::optional<LlmReview> hit = cache_->find(session, key)) return *hit;
    }
    LlmReview judgement = Judging(settings_, skills_, view, cancellation).run();
    if (!key.empty() && judgement.answered) cache_->store(session, key, judgement);
    return judgement;
  } catch (const std::exception& e) {
    LlmReview failed;
    failed.reason = std::string("the LLM validator failed: ") + e.what();
    return failed;
  } catch (...) {
    LlmReview failed;
    failed.reason = "the LLM validator failed";
    return failed;
  }
}

}  // namespace toolguard
