// The result cache: repeated calls of idempotent, read-only tools answered
// from memory, least recently used entries evicted, entries expiring.
#include <list>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "toolguard/engine.hpp"
#include "toolguard/tool_filters.hpp"

namespace toolguard {
namespace {

using Clock = std::chrono::steady_clock;

// Tool, canonical arguments (sorted keys), working directory and who asks
// (agent, session, role: results are not shared between them); nullopt
// when the arguments cannot be written as JSON (the call is not cached).
std::optional<std::string> resultCacheKey(const ToolCall& call) {
  try {
    nlohmann::json who = {call.context.cwd, call.context.agent, call.context.session,
                          call.context.role};
    std::string key = approvalKey(call);
    key.append("\n").append(who.dump());
    return key;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

// The mutex is never held while the tool runs, so two concurrent misses of
// the same key may both run it; the later result replaces the earlier one.
class ResultCacheFilter final : public InvocationFilter {
 public:
  explicit ResultCacheFilter(ResultCacheOptions options) : options_(options) {}

  std::string name() const override { return "result-cache"; }

  ToolOutcome invoke(const ToolInvocation& invocation, const InvocationNext& next) override {
    const ToolMetadata& metadata = invocation.tool.metadata;
    if (!metadata.idempotent || !metadata.read_only || !enabled()) return next(invocation);
    std::optional<std::string> key = resultCacheKey(invocation.call);
    if (!key) return next(invocation);
    if (std::optional<ToolOutcome> hit = lookup(*key)) {
      hit->cached = true;
      hit->decision = invocation.decision;
      return std::move(*hit);
    }
    ToolOutcome outcome = next(invocation);
    if (outcome.kind == OutcomeKind::Result) store(std::move(*key), outcome);
    return outcome;
  }

 private:
  struct Entry {
    std::string key;
    ToolOutcome outcome;
    Clock::time_point expires;
  };
  using Entries = std::list<Entry>;  // most recently used first

  // A cache without room or without time keeps nothing.
  bool enabled() const { return options_.max_entries > 0 && options_.ttl.count() > 0; }

  std::optional<ToolOutcome> lookup(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto found = index_.find(key);
    if (found == index_.end()) return std::nullopt;
    Entries::iterator entry = found->second;
    if (entry->expires <= Clock::now()) {
      entries_.erase(entry);
      index_.erase(found);
      return std::nullopt;
    }
    entries_.splice(entries_.begin(), entries_, entry);
    return entry->outcome;
  }

  void store(std::string key, const ToolOutcome& outcome) {
    Entry entry{key, outcome, Clock::now() + options_.ttl};
    entry.outcome.cached = false;
    entry.outcome.decision.reset();
    std::lock_guard lock(mutex_);
    if (auto found = index_.find(key); found != index_.end()) {
      *found->second = std::move(entry);
      entries_.splice(entries_.begin(), entries_, found->second);
      return;
    }
    entries_.push_front(std::move(entry));
    index_.emplace(std::move(key), entries_.begin());
    while (entries_.size() > options_.max_entries) {
      index_.erase(entries_.back().key);
      entries_.pop_back();
    }
  }

  const ResultCacheOptions options_;
  std::mutex mutex_;
  Entries entries_;
  std::unordered_map<std::string, Entries::iterator> index_;
};

}  // namespace

std::shared_ptr<InvocationFilter> resultCacheFilter(ResultCacheOptions options) {
  return std::make_shared<ResultCacheFilter>(options);
}

}  // namespace toolguard
