#pragma once
// A guarded agent loop: talks to an OpenAI-compatible chat-completions
// endpoint, runs the tool calls the model asks for through a ToolRegistry,
// feeds the outcomes back, and loops until the model stops.

#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/chat_client.hpp"
#include "toolguard/tool_registry.hpp"

namespace toolguard {

/// The paragraph the agent adds to its system prompt so the model knows its
/// tool calls are guarded and how to behave when one is blocked.
inline constexpr std::string_view kGuardedToolsSystemPrompt =
    "Your tool calls are checked by a guard (toolguard) before they run. A call "
    "may be allowed, sent to a person for approval, or blocked. When a call is "
    "blocked, the tool result starts with \"Blocked by toolguard\" and says why. "
    "Do not retry a blocked call, and do not try to reach the same effect by "
    "rewording, splitting or disguising it: explain to the user what was blocked "
    "and why, and propose an alternative that stays within the rules.";

/// What happened during a generation, in order.
enum class AgentEventType {
  Content,            ///< a piece of the model's text (the whole text when not streaming)
  ToolCallPreparing,  ///< the model started a tool call (name known, arguments may still arrive)
  ToolCallRunning,    ///< the guard allowed the call and the tool is running
  ToolCallCompleted,  ///< the tool returned (a result, or an error outcome)
  ToolCallCanceled,   ///< the guard denied the call; `reason` is what the model was told
  ToolCallAborted,    ///< the guard aborted: nothing more runs; `reason` and `extra` say why
  End                 ///< the generation ended; `stop` says how
};

/// The lowercase, dash-separated name of an event type ("tool-call-running", ...).
std::string_view toString(AgentEventType type);

/// Why a generation ended.
enum class AgentStop {
  Completed,  ///< the model answered without asking for more tool calls
  TurnLimit,  ///< AgentOptions::max_turns requests were made and the model still wanted tools
  Aborted,    ///< a tool call was aborted (by the policy or the validator)
  Denied,     ///< not streaming: a tool call was denied, which ends the generation
  Cancelled,  ///< the caller cancelled
  Error       ///< the endpoint failed (connection, HTTP status, malformed reply)
};

/// The lowercase name of a stop ("completed", "turn-limit", "aborted", "denied",
/// "cancelled", "error").
std::string_view toString(AgentStop stop);

/// One event. Fields not meaningful for the type are empty.
struct AgentEvent {
  AgentEventType type = AgentEventType::End;
  size_t turn = 0;                     ///< request number, from 1
  std::string text;                    ///< Content: the text
  std::string tool_call_id;            ///< ToolCall*: the model's id of the call
  std::string tool;                    ///< ToolCall*: the tool's name
  nlohmann::json args;                 ///< Running/Completed/Canceled/Aborted: the arguments
  std::optional<ToolOutcome> outcome;  ///< Completed/Canceled/Aborted: what the registry said
  std::string reason;                  ///< Canceled/Aborted/End(error): why
  nlohmann::json extra;                ///< Aborted (and End after an abort): the extra data
  std::optional<AgentStop> stop;       ///< End only

  /// The event as one JSON object: {"event": "<type>", ...non-empty fields}.
  nlohmann::json toJson() const;
};

/// Receives events as they happen, on the thread running the generation.
using AgentEventCallback = std::function<void(const AgentEvent& event)>;

/// How the agent talks to the model.
struct AgentOptions {
  ChatEndpoint endpoint;
  bool stream = false;    ///< ask for server-sent events (same events and outcome either way)
  size_t max_turns = 16;  ///< requests per generation, at most
  /// The system prompt; kGuardedToolsSystemPrompt is appended to it (or is
  /// all of it when this is empty).
  std::string system_prompt;
  /// The context of every tool call (cwd, agent, session, mode). The model
  /// id is filled in from the endpoint when empty.
  CallContext context;
};

/// How a generation ended, with the whole conversation.
struct AgentResult {
  AgentStop stop = AgentStop::Error;
  std::string text;                   ///< the model's last text
  std::vector<ChatMessage> messages;  ///< everything sent and received, system prompt first
  std::string reason;                 ///< Aborted/Denied/Error: why
  nlohmann::json extra;               ///< Aborted: the validator's (or policy's) extra data
  std::optional<ChatError> error;     ///< Error: the endpoint's failure
  size_t turns = 0;                   ///< requests made
};

class AgentEventStream;

/// The agent loop. For each request it sends the conversation and the
/// registry's tool definitions; for each tool call in the reply, in order,
/// it runs ToolRegistry::executeTool, each call judged on its own:
///  - result or error: the tool message carries it;
///  - denied, streaming: the tool does not run, the tool message carries the
///    reason, and the generation goes on (the other calls of the turn still
///    run): the call is cancelled and the stream continues;
///  - denied, not streaming: the tool does not run, the tool message carries
///    the reason, nothing more runs and the generation ends (stop Denied),
///    as the validation-callback model's decision table says;
///  - aborted: nothing more runs, the remaining calls of the turn get no
///    result, and the generation ends with an End event (stop Aborted) that
///    carries the reason and extra data.
/// Otherwise non-streaming and streaming runs give the same events (a
/// non-streamed reply's text arrives as one Content event). An abort or a
/// stopping deny is reported as a value (AgentResult::stop), never as an
/// exception. run() and stream() never throw (a thread that cannot be
/// started is an End event with stop Error).
class Agent {
 public:
  Agent(AgentOptions options, ToolRegistry& registry);

  /// Runs a generation for one user prompt and returns how it ended.
  AgentResult run(const std::string& prompt, const AgentEventCallback& on_event = {},
                  const CancellationToken& cancellation = {});

  /// Continues a conversation (the system prompt is added when the first
  /// message is not one).
  AgentResult run(std::vector<ChatMessage> conversation, const AgentEventCallback& on_event = {},
                  const CancellationToken& cancellation = {});

  /// Runs a generation on a background thread and hands its events out one
  /// by one, as an iterator. The agent and its registry must outlive the
  /// stream.
  AgentEventStream stream(const std::string& prompt);

  const AgentOptions& options() const { return options_; }

 private:
  AgentOptions options_;
  ToolRegistry& registry_;
  ChatClient client_;
};

/// The events of a generation running on a background thread:
///   for (const AgentEvent& e : agent.stream("...")) { ... }
/// The last event is always End; result() is valid after it. Destroying the
/// stream early cancels the generation and waits for the thread (up to the
/// endpoint's timeout while a request is being connected). Events queue up
/// until they are read; the generation does not wait for the reader. Move-only.
class AgentEventStream {
 public:
  AgentEventStream(AgentEventStream&&) noexcept;
  AgentEventStream& operator=(AgentEventStream&&) = delete;
  AgentEventStream(const AgentEventStream&) = delete;
  ~AgentEventStream();

  /// The next event, waiting for it; nullopt after End.
  std::optional<AgentEvent> next();

  /// How the generation ended (waits for it). Throws std::logic_error on
  /// a moved-from stream.
  const AgentResult& result();

  /// Stops the generation (the stream still ends with End).
  void cancel();

  /// A single-pass input iterator over next().
  class iterator {
   public:
    using value_type = AgentEvent;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(AgentEventStream* stream) : stream_(stream) { ++*this; }
    const AgentEvent& operator*() const { return *current_; }
    const AgentEvent* operator->() const { return &*current_; }
    iterator& operator++();
    void operator++(int) { ++*this; }
    bool operator==(const iterator& other) const { return stream_ == other.stream_; }

   private:
    AgentEventStream* stream_ = nullptr;
    std::optional<AgentEvent> current_;
  };
  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }

 private:
  friend class Agent;
  struct State;
  explicit AgentEventStream(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

}  // namespace toolguard
