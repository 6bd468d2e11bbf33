/* toolguard's C API: the guard from any language that can call C (Node.js,
 * Python, Go, .NET, Rust). Plain C, opaque handles, JSON text in and out, so
 * the ABI stays the same when fields are added to calls or decisions.
 *
 * Link: -ltoolguard_c (libtoolguard_c.so; the C++ library is inside it).
 *
 * Rules every function follows:
 *  - Nothing here throws or aborts: a failure is a NULL result (or a
 *    non-zero status) and, when `error` is not NULL, *error is set to a
 *    tg_error the caller frees with tg_error_free.
 *  - Every string returned as `char*` is the caller's: free it with
 *    tg_string_free. A `const char*` belongs to the object it came from.
 *  - Strings are UTF-8 and NUL-terminated.
 *  - A tg_guard is thread-safe: any number of threads may check calls on it
 *    at once. Free it only once no call on it is running.
 */
#ifndef TOOLGUARD_TOOLGUARD_H
#define TOOLGUARD_TOOLGUARD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TG_API __attribute__((visibility("default")))
#else
#define TG_API
#endif

/* The version of the C API's library, "MAJOR.MINOR.PATCH". */
TG_API const char* tg_version(void);

/* An error: a message saying what failed (for a bad policy: file, line and
 * column; for bad options or a bad answer: the field). */
typedef struct tg_error tg_error;

/* The error's message; valid until tg_error_free. */
TG_API const char* tg_error_message(const tg_error* error);

/* Frees an error (NULL is fine). */
TG_API void tg_error_free(tg_error* error);

/* Frees a string this API returned (NULL is fine). */
TG_API void tg_string_free(char* text);

/* A guard: a policy, the approvals remembered for it, its audit log and who
 * is asked when a call needs approval. */
typedef struct tg_guard tg_guard;

/* Creates a guard. `options_json` is NULL, "" or a JSON object; every member
 * is optional and an unknown one is an error:
 *   "policy_files": ["FILE", ...]  policy files (the explicit layer)
 *   "profiles": ["NAME", ...]      ready-made profiles on top of the default
 *   "builtin": true                load the built-in default policy
 *   "user", "project", "managed": true   load the user's, the project's
 *                                  (found from each call's cwd) and the
 *                                  managed policy files, as `toolguard check`
 *   "project_dir": "DIR"           the project layer's workspace, whatever
 *                                  the call's cwd
 *   "home": "DIR"                  toolguard's home: remembered approvals
 *                                  and the audit log (default
 *                                  $TOOLGUARD_HOME, else ~/.toolguard)
 *   "audit": true                  write every decision to the audit log
 *   "audit_log": "FILE"            the audit log (default HOME/audit.jsonl)
 *   "approval_timeout_ms": 300000  how long an ask waits for its answer
 *                                  (then deny); 0: no limit
 *   "cwd": "DIR"                   the cwd of calls that name none (default:
 *                                  the process's)
 *   "ask_server": {"url": "...", "token": "..."}  send asks to `toolguard
 *                                  serve` (its web queue) instead of the
 *                                  asker set below
 * The policy is loaded now: a broken policy file is an error naming its
 * file, line and column. Returns NULL on error. */
TG_API tg_guard* tg_guard_new(const char* options_json, tg_error** error);

/* Frees a guard (NULL is fine). No call may be running on it. */
TG_API void tg_guard_free(tg_guard* guard);

/* Judges one call and settles it (remembered approvals, the asker, the
 * audit log). `call_json` is the call as `toolguard check` reads it:
 *   {"tool": "Bash", "args": {"command": "ls"},
 *    "context": {"cwd": "/work", "mode": "interactive", "session": "..."}}
 * Returns the decision as JSON text, as `toolguard check` prints it:
 *   {"verdict": "allow"|"ask"|"deny"|"abort", "reason": "...",
 *    "model_reason": "...", "rule": "..."|null, "source": "...",
 *    "basis": "...", "tool": "...", "id": "...", ...}
 * A call that cannot be read (not JSON, a missing or mistyped field) is not
 * an error: it is a deny whose reason names the field. "ask" is returned
 * only when the guard has no asker (nobody to ask: the caller asks its
 * user). Rate limits count every call; a policy's max_concurrent limits are
 * not held (the C API has no call to say a tool finished). Returns NULL only
 * for a NULL guard or call, or when memory runs out, with *error set. */
TG_API char* tg_guard_check(tg_guard* guard, const char* call_json, tg_error** error);

/* The final verdicts of a decision. */
typedef enum tg_verdict {
  TG_VERDICT_ALLOW = 0,
  TG_VERDICT_ASK = 2,
  TG_VERDICT_DENY = 3,
  TG_VERDICT_ABORT = 4
} tg_verdict;

/* A decision held as an object, for bindings that want its main fields
 * without reading JSON. */
typedef struct tg_decision tg_decision;

/* Like tg_guard_check, but returns the decision as an object (`call_json`
 * is `call_length` bytes, not necessarily NUL-terminated). Free it with
 * tg_decision_free. */
TG_API tg_decision* tg_guard_decide(tg_guard* guard, const char* call_json, size_t call_length,
                                    tg_error** error);

/* The decision's verdict. */
TG_API tg_verdict tg_decision_verdict(const tg_decision* decision);

/* The reason, for the person; valid while the decision lives. */
TG_API const char* tg_decision_reason(const tg_decision* decision);

/* The reason for the model (names the guard and the rule). */
TG_API const char* tg_decision_model_reason(const tg_decision* decision);

/* The id of the deciding rule, "" when no rule decided. */
TG_API const char* tg_decision_rule(const tg_decision* decision);

/* What the policy said before asks were settled: a TG_VERDICT_*, or
 * TG_POLICY_ESCALATE when the policy left the call to an LLM validator (and
 * none was configured, or it did not settle it: the verdict is then ask or
 * what the asker answered). */
TG_API int tg_decision_policy_verdict(const tg_decision* decision);

/* tg_decision_policy_verdict's value for "escalate to an LLM validator". */
#define TG_POLICY_ESCALATE 1

/* The whole decision as JSON text (what tg_guard_check returns); rendered
 * on first use, valid while the decision lives. NULL only when memory runs
 * out. */
TG_API const char* tg_decision_json(tg_decision* decision);

/* Frees a decision (NULL is fine). */
TG_API void tg_decision_free(tg_decision* decision);

/* A call waiting for a person's answer. */
typedef struct tg_ask tg_ask;

/* Called when a call needs approval and nothing remembered covers it, on the
 * thread that is checking the call. `request_json` (valid during the call):
 *   {"call": {...}, "decision": {...},   (the decision's "id" is this ask's)
 *    "tool_metadata": {"category": "...", "side_effect": "...", "risk": "...",
 *                      "read_only": false},
 *    "options": [{"binding": "exact"|"pattern"|"tool", "value": "...",
 *                 "description": "..."}, ...],
 *    "scopes": ["session", "project", "agent", "global"], "timeout_ms": N}
 * The asker must answer through tg_ask_answer exactly once, from any thread,
 * now or later; the checking thread waits for the answer until the guard's
 * approval timeout, then denies (a later answer is still required, to free
 * the ask, and changes nothing). */
typedef void (*tg_ask_fn)(void* user_data, tg_ask* ask, const char* request_json);

/* Sets who is asked (NULL: nobody, so the decision says ask). `user_data` is
 * passed to every call of `asker`. Session approvals and rate-limit counts
 * are kept. Checks already waiting for an answer keep the asker they had, so
 * free the old `user_data` only once they returned. */
TG_API void tg_guard_set_asker(tg_guard* guard, tg_ask_fn asker, void* user_data);

/* Answers an ask and frees it. `answer_json`:
 *   {"outcome": "allow-once"}
 *   {"outcome": "always-allow", "option": 0, "scope": "session"}
 *     (option: an index into the request's options; scope: one of its scopes)
 *   {"outcome": "deny", "reason": "text the model reads"}
 *   {"outcome": "deny", "by_person": false, "reason": "why nobody answered"}
 *     (nobody could answer: the wait was cancelled, the asker failed)
 * A bad answer denies the call and returns non-zero with *error naming the
 * field; the ask is freed either way. Returns 0 on success. */
TG_API int tg_ask_answer(tg_ask* ask, const char* answer_json, tg_error** error);

/* Runs a command for a tool where the kernel holds it, as `toolguard
 * sandbox` does (docs/sandbox.md), with the sandbox: section of the policy
 * the guard loads for `cwd`, and waits for it. `request_json`:
 *   {"command": ["make", "test"], "workspaces": ["/abs/project"],
 *    "cwd": "/abs/project", "rule": "allow-make-test"}
 * (workspaces: where it may write, default [cwd]; cwd: where it runs, and
 * whose policy applies, default the guard's; rule: the id of the rule that
 * allowed the call, whose own sandbox: adds its writable places and hosts,
 * default none). The command inherits this
 * process's environment and standard streams. Returns its exit status (128
 * + the signal's number when a signal ended it), or -1 with *error saying
 * why nothing was run: a bad request (naming the field), a policy that does
 * not load, a confinement that cannot be set up or that this kernel cannot
 * hold when the policy says to ask, a program that cannot be run. */
TG_API int tg_guard_run_sandboxed(tg_guard* guard, const char* request_json, tg_error** error);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGUARD_TOOLGUARD_H */
