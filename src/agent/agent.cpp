// The agent loop: ask the model, run the tool calls it wants through the
// registry, feed the outcomes back, until it stops.
#include "toolguard/agent.hpp"

#include <exception>

#include "core/counted.hpp"
#include "core/model_text.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard {
namespace {

std::string systemPromptOf(const AgentOptions& options) {
  if (options.system_prompt.empty()) return std::string(kGuardedToolsSystemPrompt);
  std::string prompt = options.system_prompt;
  prompt.append("\n\n").append(kGuardedToolsSystemPrompt);
  return prompt;
}

/// One generation: the conversation, the events handed out, and how it ends.
class Generation {
 public:
  Generation(const AgentOptions& options, ToolRegistry& registry, const ChatClient& client,
             const AgentEventCallback& on_event, const CancellationToken& cancellation)
      : options_(options),
        registry_(registry),
        client_(client),
        on_event_(on_event),
        cancellation_(cancellation) {}

  AgentResult run(std::vector<ChatMessage> conversation) {
    if (conversation.empty() || conversation.front().role != "system") {
      conversation.insert(conversation.begin(), ChatMessage::system(systemPromptOf(options_)));
    }
    result_.messages = std::move(conversation);
    while (!finished_) {
      if (result_.turns >= options_.max_turns) {
        finish(AgentStop::TurnLimit,
               "the model still wanted tools after " +
                   detail::counted(options_.max_turns, "request", "requests"));
        break;
      }
      if (cancellation_.cancelled()) {
        finish(AgentStop::Cancelled, "cancelled");
        break;
      }
      turn();
    }
    return std::move(result_);
  }

 private:
  void emit(AgentEvent event) {
    if (!on_event_ || callback_failed_) return;
    event.turn = result_.turns;
    try {
      on_event_(event);
    } catch (const std::exception& e) {
      callback_failed_ = true;
      callback_error_ = std::string("the event callback failed: ") + e.what();
    } catch (...) {
      callback_failed_ = true;
      callback_error_ = "the event callback failed";
    }
  }

  bool stopIfCallbackFailed() {
    if (callback_failed_) finish(AgentStop::Error, callback_error_);
    return finished_;
  }

  void finish(AgentStop stop, std::string reason, nlohmann::json extra = nullptr) {
    if (finished_) return;
    finished_ = true;
    result_.stop = stop;
    result_.reason = std::move(reason);
    result_.extra = std::move(extra);
    AgentEvent end;
    end.type = AgentEventType::End;
    end.stop = stop;
    if (stop != AgentStop::Completed) end.reason = result_.reason;
    end.extra = result_.extra;
    callback_failed_ = false;  // the End event is always delivered
    emit(std::move(end));
  }

  ChatStreamCallbacks streamCallbacks() {
    ChatStreamCallbacks callbacks;
    callbacks.on_content = [this](std::string_view text) {
      AgentEvent event;
      event.type = AgentEventType::Content;
      event.text = std::string(text);
      emit(std::move(event));
    };
    callbacks.on_tool_call_started = [this](size_t, const ChatToolCall& call) { preparing(call); };
    return callbacks;
  }

  void preparing(const ChatToolCall& call) {
    AgentEvent event;
    event.type = AgentEventType::ToolCallPreparing;
    event.tool_call_id = call.id;
    event.tool = call.name;
    emit(std::move(event));
  }

  void turn() {
    ++result_.turns;
    ChatRequest request;
    request.messages = result_.messages;
    request.tools = registry_.toolDefinitions();
    request.stream = options_.stream;
    ChatResult chat = client_.complete(request, streamCallbacks(), cancellation_);
    if (stopIfCallbackFailed()) return;
    if (!chat.ok()) {
      const ChatError error =
          chat.error ? *chat.error : ChatError{ChatError::Kind::Protocol, 0, "no reply"};
      result_.error = error;
      finish(error.kind == ChatError::Kind::Cancelled ? AgentStop::Cancelled : AgentStop::Error,
             error.message);
      return;
    }
    ChatMessage reply = std::move(chat.reply->message);
    reply.role = "assistant";
    for (size_t i = 0; i < reply.tool_calls.size(); ++i) {
      // Some servers leave ids out; the tool messages need one to answer.
      if (reply.tool_calls[i].id.empty()) reply.tool_calls[i].id = "call_" + std::to_string(i);
    }
    if (!options_.stream) {
      if (!reply.content.empty()) streamCallbacks().on_content(reply.content);
      for (const auto& call : reply.tool_calls) preparing(call);
      if (stopIfCallbackFailed()) return;
    }
    if (!reply.content.empty()) result_.text = reply.content;
    result_.messages.push_back(reply);
    if (reply.tool_calls.empty()) {
      finish(AgentStop::Completed, "");
      return;
    }
    for (const auto& call : reply.tool_calls) {
      if (!runToolCall(call) || stopIfCallbackFailed()) return;
    }
  }

  /// Runs one tool call and appends its tool message. False when the
  /// generation ended (abort or cancellation).
  bool runToolCall(const ChatToolCall& requested) {
    if (cancellation_.cancelled()) {
      finish(AgentStop::Cancelled, "cancelled");
      return false;
    }
    ToolCall call;
    call.tool = requested.name;
    call.context = options_.context;
    if (call.context.model.empty()) call.context.model = options_.endpoint.model;
    ToolOutcome outcome;
    // Read strictly: a key twice would leave it open which value the tool gets.
    StrictJson args = parseStrictJson(requested.arguments.empty() ? "{}" : requested.arguments,
                                      kMaxArgumentDepth);
    call.args = args.value ? std::move(*args.value) : nlohmann::json();
    switch (args.problem) {
      case StrictJsonProblem::None:
        if (!call.args.is_object()) {
          outcome =
              ToolOutcome::denied(detail::blockedText("the arguments must be a JSON object, got " +
                                                      std::string(call.args.type_name()) + "."));
        }
        break;
      case StrictJsonProblem::TooDeep:
        // Refused before anything copies it: copies and dumps recurse.
        outcome = ToolOutcome::denied(detail::blockedText("the arguments are nested deeper than " +
                                                          std::to_string(kMaxArgumentDepth) +
                                                          " levels."));
        break;
      case StrictJsonProblem::DuplicateKey:
        outcome = ToolOutcome::denied(detail::blockedText(
            "the arguments are malformed: " + args.error + ". Send each key once."));
        break;
      case StrictJsonProblem::Syntax:
        outcome = ToolOutcome::denied(
            detail::blockedText("the arguments are not valid JSON; send them as a JSON object."));
        break;
    }
    const bool judged = outcome.kind != OutcomeKind::Denied;  // else malformed arguments
    if (judged) {
      outcome = registry_.executeTool(call, cancellation_, [&](const ToolInvocation& running) {
        AgentEvent event;
        event.type = AgentEventType::ToolCallRunning;
        event.tool_call_id = requested.id;
        event.tool = requested.name;
        event.args = running.call.args;
        emit(std::move(event));
      });
    }
    AgentEvent event;
    event.tool_call_id = requested.id;
    event.tool = requested.name;
    event.args = call.args;
    switch (outcome.kind) {
      case OutcomeKind::Result:
      case OutcomeKind::Error:
        event.type = AgentEventType::ToolCallCompleted;
        break;
      case OutcomeKind::Denied:
        event.type = AgentEventType::ToolCallCanceled;
        event.reason = outcome.modelContent();
        break;
      case OutcomeKind::Aborted:
        event.type = AgentEventType::ToolCallAborted;
        event.reason = outcome.reason;
        event.extra = outcome.extra;
        break;
    }
    event.outcome = outcome;
    emit(std::move(event));
    if (outcome.kind == OutcomeKind::Aborted) {
      finish(AgentStop::Aborted, outcome.reason, outcome.extra);
      return false;
    }
    result_.messages.push_back(
        ChatMessage::tool(requested.id, requested.name, outcome.modelContent()));
    // Not streaming, a deny stops the generation (the decision table of the
    // validation-callback model); streaming cancels the call and goes on.
    // Arguments that could not be read are the model's mistake to correct.
    if (judged && outcome.kind == OutcomeKind::Denied && !options_.stream) {
      finish(AgentStop::Denied, outcome.modelContent());
      return false;
    }
    return true;
  }

  const AgentOptions& options_;
  ToolRegistry& registry_;
  const ChatClient& client_;
  const AgentEventCallback& on_event_;
  CancellationToken cancellation_;
  AgentResult result_;
  bool finished_ = false;
  bool callback_failed_ = false;
  std::string callback_error_;
};

}  // namespace

Agent::Agent(AgentOptions options, ToolRegistry& registry)
    : options_(std::move(options)), registry_(registry), client_(options_.endpoint) {}

AgentResult Agent::run(const std::string& prompt, const AgentEventCallback& on_event,
                       const CancellationToken& cancellation) {
  return run(std::vector<ChatMessage>{ChatMessage::user(prompt)}, on_event, cancellation);
}

AgentResult Agent::run(std::vector<ChatMessage> conversation, const AgentEventCallback& on_event,
                       const CancellationToken& cancellation) {
  std::string failure;
  try {
    return Generation(options_, registry_, client_, on_event, cancellation)
        .run(std::move(conversation));
  } catch (const std::exception& e) {
    failure = std::string("the agent loop failed: ") + e.what();
  } catch (...) {
    failure = "the agent loop failed";
  }
  // Only reached when something outside the loop's own checks threw (out of
  // memory, say): still end with an End event and an error value.
  AgentResult failed;
  failed.stop = AgentStop::Error;
  failed.reason = failure;
  if (on_event) {
    AgentEvent end;
    end.type = AgentEventType::End;
    end.stop = AgentStop::Error;
    end.reason = failure;
    try {
      on_event(end);
    } catch (...) {  // nothing more can be reported
    }
  }
  return failed;
}

}  // namespace toolguard
