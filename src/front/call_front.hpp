#pragma once
// The front every surface calls (the command, the C API, the service): the
// bytes of one call in some format in, an audited decision out. The surfaces
// only say where their Guards come from and how they answer.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "front/call_json.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/guard.hpp"

namespace toolguard::front {

/// Where a surface's calls are decided.
struct GuardSource {
  /// The Guard that decides `call` (the policy of its project), held while
  /// it decides. May throw: a PolicyError when that policy does not load,
  /// any other exception when no Guard can be had; the call is then denied
  /// and audited here.
  std::function<std::shared_ptr<Guard>(const ToolCall& call)> guard_for;
  /// Where decisions made without a Guard are written (input that is not a
  /// call, a policy that does not load); nullptr: nowhere.
  std::shared_ptr<AuditSink> audit_log;
  /// Not empty: no Guard can be had at all (its approvals or audit log could
  /// not be set up), and every call is denied for this reason.
  std::string unavailable;
  /// Set by a surface that must not wait (the service's event thread):
  /// whether `guard` can decide `call` here without waiting for anything
  /// but the audit, asked before the call is assessed (`assessed` null) and
  /// after (its verdict). A call it says no to comes back Deferred: not
  /// decided, nothing written, to be decided again where waiting is allowed.
  std::function<bool(const Guard& guard, const ToolCall& call, const Decision* assessed)>
      decides_here;
};

/// How one surface reads its input.
struct InputOptions {
  CallFormat format = CallFormat::Toolguard;
  /// The format's name as the caller gave it, for the audit of malformed input.
  std::string format_name = "toolguard";
  /// Where a call without a cwd (or a relative one) was made.
  std::string default_cwd;
  /// Applied to each call read before it is decided (the service puts the
  /// caller's identity in its context). May be empty.
  std::function<void(ToolCall& call)> adjust;
};

/// What became of one input.
struct FrontDecision {
  enum class Outcome {
    Decided,    ///< a Guard decided the call
    Malformed,  ///< the input is not a call: denied
    NotJudged,  ///< a call, but no Guard could judge it (policy, setup): denied
    Deferred,   ///< GuardSource::decides_here said no: not decided, nothing written
  };
  Outcome outcome = Outcome::Malformed;
  /// The Guard's decision, or a deny that says why there is none; audited
  /// (a failed audit of a deny made here is added to its reason).
  Decision decision;
  /// The call as read (and adjusted); nullopt when the input is not a call.
  std::optional<ToolCall> call;
  /// Malformed: why the input does not read (with the audit's problem, if
  /// any); NotJudged: why no Guard judged it. Empty when decided.
  std::string error;
  /// The audit of a decision made here failed: why ("" otherwise).
  std::string audit_problem;
  /// Malformed: the text is not one JSON value at all.
  bool not_json = false;
};

/// Reads one call from `text` and has it decided. Never throws: anything
/// that goes wrong is a deny, audited.
FrontDecision decideInput(const std::string& text, const InputOptions& input,
                          const GuardSource& guards) noexcept;

/// Refuses input that was not read as a call (too large, say): a deny for
/// `input.error`, audited with the input's first bytes. Never throws.
FrontDecision refuseInput(MalformedCall input, const GuardSource& guards) noexcept;

}  // namespace toolguard::front
