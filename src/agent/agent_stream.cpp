// AgentEventStream: a generation on a background thread, its events handed
// out one by one.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "toolguard/agent.hpp"

namespace toolguard {

struct AgentEventStream::State {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<AgentEvent> queue;
  bool done = false;       ///< the generation returned; `result` is set
  bool delivered = false;  ///< next() handed out the End event
  AgentResult result;
  CancellationToken cancellation;
  std::thread worker;
};

AgentEventStream::AgentEventStream(std::shared_ptr<State> state) : state_(std::move(state)) {}

AgentEventStream::AgentEventStream(AgentEventStream&& other) noexcept
    : state_(std::move(other.state_)) {}

AgentEventStream::~AgentEventStream() {
  if (!state_) return;
  state_->cancellation.cancel();
  if (state_->worker.joinable()) state_->worker.join();
}

std::optional<AgentEvent> AgentEventStream::next() {
  if (!state_) return std::nullopt;
  std::unique_lock lock(state_->mutex);
  if (state_->delivered) return std::nullopt;
  state_->changed.wait(lock, [&] { return !state_->queue.empty() || state_->done; });
  if (state_->queue.empty()) return std::nullopt;  // cannot happen: End is always queued
  AgentEvent event = std::move(state_->queue.front());
  state_->queue.pop_front();
  if (event.type == AgentEventType::End) state_->delivered = true;
  return event;
}

const AgentResult& AgentEventStream::result() {
  if (!state_) throw std::logic_error("AgentEventStream::result() on a moved-from stream");
  std::unique_lock lock(state_->mutex);
  state_->changed.wait(lock, [&] { return state_->done; });
  return state_->result;
}

void AgentEventStream::cancel() {
  if (state_) state_->cancellation.cancel();
}

AgentEventStream::iterator& AgentEventStream::iterator::operator++() {
  current_ = stream_ ? stream_->next() : std::nullopt;
  if (!current_) stream_ = nullptr;
  return *this;
}

AgentEventStream Agent::stream(const std::string& prompt) {
  auto state = std::make_shared<AgentEventStream::State>();
  auto generate = [this, prompt, raw = state.get()] {
    AgentResult result = run(
        prompt,
        [raw](const AgentEvent& event) {
          std::lock_guard lock(raw->mutex);
          raw->queue.push_back(event);
          raw->changed.notify_all();
        },
        raw->cancellation);
    std::lock_guard lock(raw->mutex);
    raw->result = std::move(result);
    raw->done = true;
    raw->changed.notify_all();
  };
  try {
    state->worker = std::thread(generate);
  } catch (const std::exception& e) {
    // No thread: the stream still ends with End and an error result.
    state->result.stop = AgentStop::Error;
    state->result.reason = std::string("could not start the generation: ") + e.what();
    AgentEvent end;
    end.type = AgentEventType::End;
    end.stop = AgentStop::Error;
    end.reason = state->result.reason;
    state->queue.push_back(std::move(end));
    state->done = true;
  }
  return AgentEventStream(std::move(state));
}

}  // namespace toolguard
