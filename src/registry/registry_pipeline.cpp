// The part of a call after the guard allowed it: invocation filters, the
// tool's callback, result filters. Every exception becomes an error outcome.
#include <exception>

#include "registry_state.hpp"

namespace toolguard::detail {
namespace {

std::string failureText(const std::string& what, std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return what + ": " + e.what();
  } catch (...) {
    return what + ": unknown exception";
  }
}

void applyResultFilters(const ToolRegistry::Snapshot& snapshot, const ToolInvocation& invocation,
                        ToolOutcome& outcome) {
  for (const auto& filter : snapshot.result_filters) {
    if (outcome.kind != OutcomeKind::Result && outcome.kind != OutcomeKind::Error) return;
    try {
      filter->filter(invocation, outcome);
    } catch (...) {
      // A result filter that fails must not let unfiltered output through.
      outcome = ToolOutcome::error(
          failureText("result filter '" + filter->name() + "' failed", std::current_exception()));
    }
  }
}

ToolOutcome callTool(const ToolRegistry::Snapshot& snapshot, const ToolRegistry::Entry& entry,
                     const ToolInvocation& invocation) {
  ToolOutcome outcome;
  if (invocation.cancellation.cancelled()) {
    outcome = ToolOutcome::error("the generation was cancelled before the tool ran");
  } else {
    try {
      outcome = ToolOutcome::success(entry.function(invocation));
    } catch (...) {
      outcome = ToolOutcome::error(
          failureText("tool '" + entry.info.name + "' failed", std::current_exception()));
    }
  }
  applyResultFilters(snapshot, invocation, outcome);
  return outcome;
}

/// Runs filter `position` around the rest of the chain.
ToolOutcome runFrom(size_t position, const ToolRegistry::Snapshot& snapshot,
                    const ToolRegistry::Entry& entry, const ToolInvocation& invocation) {
  if (position == snapshot.invocation_filters.size()) {
    return callTool(snapshot, entry, invocation);
  }
  const auto& filter = snapshot.invocation_filters[position];
  InvocationNext next = [&, position](const ToolInvocation& inner) {
    // The tool runs with the call the guard judged, never another one.
    if (&inner.call != &invocation.call || &inner.decision != &invocation.decision) {
      return ToolOutcome::error("invocation filter '" + filter->name() +
                                "' passed on a different call than the one the guard judged");
    }
    return runFrom(position + 1, snapshot, entry, invocation);
  };
  try {
    return filter->invoke(invocation, next);
  } catch (...) {
    return ToolOutcome::error(
        failureText("invocation filter '" + filter->name() + "' failed", std::current_exception()));
  }
}

}  // namespace

ToolOutcome runAllowedCall(const ToolRegistry::Snapshot& snapshot, const ToolRegistry::Entry& entry,
                           const ToolInvocation& invocation) {
  return runFrom(0, snapshot, entry, invocation);
}

}  // namespace toolguard::detail
