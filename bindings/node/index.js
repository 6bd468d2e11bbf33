// toolguard for Node.js: decides whether an LLM agent's tool call is allowed,
// asked, denied or aborted, through toolguard's C API (libtoolguard_c.so) in a
// Node-API addon (src/addon.cpp). See README.md.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// The addon: $TOOLGUARD_NODE_ADDON, else what `npm run build` (cmake-js) made.
function loadAddon() {
  const candidates = process.env.TOOLGUARD_NODE_ADDON
    ? [process.env.TOOLGUARD_NODE_ADDON]
    : [join(here, 'build', 'Release', 'toolguard.node'), join(here, 'build', 'Debug', 'toolguard.node')];
  const found = candidates.find((path) => existsSync(path));
  if (!found) {
    throw new Error(`toolguard: the addon is not built (looked for ${candidates.join(', ')}); ` +
      'run `npm run build` with TOOLGUARD_LIB_DIR set to the directory of libtoolguard_c.so');
  }
  return createRequire(import.meta.url)(found);
}

const addon = loadAddon();

/** The version of the toolguard library the addon is linked with. */
export const version = addon.version;

const message = (error) => (error instanceof Error ? error.message : String(error));

// The call JSON text of check(call) or check(tool, args, context). A call
// that cannot be written as JSON is passed on as text the C API cannot read,
// so it is denied (and audited as a malformed call) like any bad call.
function callText(call, args, context) {
  if (typeof call === 'string') call = { tool: call, args: args ?? {}, context: context ?? {} };
  try {
    const text = JSON.stringify(call);
    return text === undefined ? 'undefined' : text;
  } catch (error) {
    return `(the call is not JSON: ${message(error)})`;
  }
}

// The answer JSON text for what the asker returned; anything else than an
// answer object denies. always-allow without a scope takes the request's
// first (narrowest) scope.
function answerText(answer, request) {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    return denyText(`the asker gave no answer object (it gave ${String(answer)})`);
  }
  if (answer.outcome === 'always-allow' && answer.scope === undefined && request.scopes?.length) {
    answer = { ...answer, scope: request.scopes[0] };
  }
  try {
    return JSON.stringify(answer);
  } catch (error) {
    return denyText(`the asker's answer is not JSON: ${message(error)}`);
  }
}

// The verdicts by the C API's code (TG_VERDICT_*); any other code denies.
const VERDICTS = ['allow', 'deny', 'ask', 'deny', 'abort'];

// The decision's fields other than its main four, read from its JSON text
// (tg_decision_json) the first time one of them is asked for.
const LAZY_FIELDS = ['source', 'basis', 'tool', 'policy_verdict', 'resolution', 'approval_key',
  'decided_on', 'sanitized_args', 'id', 'approval', 'llm'];

/**
 * A decision, as `toolguard check` prints it. verdict, reason, model_reason
 * and rule are its own properties, read from the C API's decision object;
 * the other fields (source, basis, tool, id, approval, llm, ...) are getters
 * that parse the decision's JSON text (copied out with the main fields) once,
 * on first use. toJSON() (so JSON.stringify) gives every field as a plain
 * object.
 */
class Decision {
  #json;    // the decision's JSON text until it is parsed
  #fields;  // the parsed JSON after

  constructor(verdict, reason, modelReason, rule, json) {
    this.verdict = verdict;
    this.reason = reason;
    this.model_reason = modelReason;
    this.rule = rule;
    this.#json = json;
    this.#fields = undefined;
  }

  // The whole decision as the C API renders it (parsed once).
  #all() {
    if (this.#fields === undefined) {
      this.#fields = JSON.parse(this.#json);
      this.#json = undefined;
    }
    return this.#fields;
  }

  /** Every field of the decision, as a plain object (what JSON.stringify writes). */
  toJSON() {
    return { ...this.#all(), ...this };  // with what was set on the object since
  }

  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    return inspect(this.toJSON(), options);
  }

  static {
    for (const field of LAZY_FIELDS) {
      Object.defineProperty(Decision.prototype, field, {
        get() { return this.#all()[field]; },
        // Assigning a field makes it the object's own, as on a parsed object.
        set(value) {
          Object.defineProperty(this, field, { value, writable: true, enumerable: true, configurable: true });
        },
        enumerable: true,
        configurable: true,
      });
    }
  }
}

addon.setDecisionFactory((verdict, reason, modelReason, rule, json) =>
  new Decision(VERDICTS[verdict] ?? 'deny', reason, modelReason, rule, json));

const denyText = (reason) => JSON.stringify({ outcome: 'deny', reason: `toolguard: ${reason}` });

// What the addon calls for each ask (on the JS thread): runs the user's asker
// and answers exactly once; a throw or a rejected promise denies.
function dispatcherFor(asker) {
  return (requestText, answer) => {
    let request;
    let result;
    try {
      request = JSON.parse(requestText);
      result = asker(request);
    } catch (error) {
      answer(denyText(`the asker failed: ${message(error)}`));
      return;
    }
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
      Promise.resolve(result).then(
        (value) => answer(answerText(value, request)),
        (error) => answer(denyText(`the asker failed: ${message(error)}`)));
    } else {
      answer(answerText(result, request));
    }
  };
}

/**
 * A guard: a policy, the approvals remembered for it, its audit log and who
 * is asked when a call needs approval. Thread-safe in the C library; from JS,
 * check() decides on the JS thread and checkAsync() on a worker thread.
 */
export class Guard {
  #native;

  /**
   * Creates a guard. `options` are the C API's options (tg_guard_new), e.g.
   * {policy_files: ['p.yaml'], builtin: true, audit: false, home: '/tmp/h'}.
   * Throws an Error with the C API's message (a bad policy names its file,
   * line and column).
   */
  constructor(options = {}) {
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new TypeError('toolguard: the guard options must be an object');
    }
    this.#native = new addon.Guard(JSON.stringify(options));
  }

  /**
   * Judges a call now, on the JS thread: `check({tool, args, context: {cwd}})`
   * or `check(tool, args, context)`. Returns the decision object
   * ({verdict, reason, model_reason, rule, ...}). A call that cannot be read
   * is a deny naming the field. An ask cannot wait here: the asker is called
   * at once and must return its answer (not a promise), else the call is
   * denied; use checkAsync to wait for a person.
   */
  check(call, args, context) {
    return this.#native.check(callText(call, args, context));
  }

  /**
   * Judges a call on a worker thread; resolves to the decision object. An
   * ask waits there for the asker's answer (up to the guard's
   * approval_timeout_ms, then deny) without blocking the event loop.
   */
  async checkAsync(call, args, context) {
    return this.#native.checkAsync(callText(call, args, context));
  }

  /**
   * Sets who is asked when a call needs approval: `asker(request)` returns,
   * or resolves to, `{outcome: 'allow-once'|'always-allow'|'deny', option?,
   * scope?, reason?}`. The request is {id, call, decision, options, scopes,
   * timeout_ms}. A throw, a rejection or anything but an answer denies.
   * null: nobody is asked (decisions say 'ask').
   */
  setAsker(asker) {
    if (asker === null || asker === undefined) {
      this.#native.setAsker(null);
    } else if (typeof asker !== 'function') {
      throw new TypeError('toolguard: the asker must be a function');
    } else {
      this.#native.setAsker(dispatcherFor(asker));
    }
  }

  /**
   * Runs a tool's command where the kernel holds it, as `toolguard sandbox`
   * does (docs/sandbox.md), and waits for it (on the JS thread):
   * `runSandboxed(['make', 'test'], {workspaces: ['/abs/project'], cwd, rule})`
   * (rule: the id of the rule that allowed the call, whose own sandbox: adds).
   * Returns its exit status (128 + the signal's number when a signal ended
   * it); throws, running nothing, when the sandbox cannot be set up or this
   * kernel cannot hold what the policy asks for.
   */
  runSandboxed(command, { workspaces, cwd, rule } = {}) {
    if (!Array.isArray(command) || command.some((word) => typeof word !== 'string')) {
      throw new TypeError('toolguard: the command must be an array of strings');
    }
    const request = { command };
    if (workspaces !== undefined) request.workspaces = workspaces;
    if (cwd !== undefined) request.cwd = cwd;
    if (rule !== undefined) request.rule = rule;
    return this.#native.runSandboxed(JSON.stringify(request));
  }

  /**
   * Frees the guard: asks still waiting are denied, checks still running
   * finish first; later calls throw.
   */
  close() {
    this.#native.close();
  }
}

const adapterVerdicts = { allow: 'allow', abort: 'abort' };  // all else denies

/**
 * multi-llm-ts's `toolExecutionValidation` callback, judged by toolguard:
 * `(context, tool, args) => Promise<{decision: 'allow'|'deny'|'abort', extra}>`
 * with `extra: {reason: decision.model_reason, meta: decision.toJSON()}` (a plain object).
 *
 * Options: `guard` (a ready Guard) or `guardOptions` (to make one); `cwd`
 * (the calls' working directory, default process.cwd(): multi-llm-ts gives
 * none); `asker` (asked when the guard says ask; set on the guard; without
 * one an ask denies); `context` (more call context: agent, session, role,
 * mode; agent defaults to 'multi-llm-ts', model to the callback's model);
 * `engine` (the multi-llm-ts engine the callback is used with: the model is
 * then told why a call was denied, see tellModelWhy).
 */
export function toolguardValidator(options = {}) {
  const guard = options.guard ?? new Guard(options.guardOptions ?? {});
  if (options.asker) guard.setAsker(options.asker);
  const cwd = options.cwd ?? process.cwd();
  const extraContext = options.context ?? {};
  // The reason of each denied call, by its arguments object: multi-llm-ts
  // passes the same object to the callback and records it with the result.
  const denied = new WeakMap();
  const refuse = (args, verdict) => {
    if (verdict.decision === 'deny' && args !== null && typeof args === 'object') {
      denied.set(args, verdict.extra.reason);
    }
    return verdict;
  };
  const validate = async (context, tool, args) => {
    const callContext = { cwd, agent: 'multi-llm-ts', ...extraContext };
    if (typeof context?.model === 'string' && callContext.model === undefined) {
      callContext.model = context.model;
    }
    let decision;
    try {
      decision = await guard.checkAsync({ tool, args: args ?? {}, context: callContext });
    } catch (error) {
      const reason = `Blocked by toolguard: the call could not be checked: ${message(error)}`;
      return refuse(args, { decision: 'deny', extra: { reason } });
    }
    return refuse(args, {
      decision: adapterVerdicts[decision.verdict] ?? 'deny',
      extra: { reason: decision.model_reason, meta: decision.toJSON() },
    });
  };
  validate.deniedReason = (args) => (args !== null && typeof args === 'object' ? denied.get(args) : undefined);
  if (options.engine) tellModelWhy(options.engine, validate);
  return validate;
}

/**
 * Makes a multi-llm-ts engine tell the model why toolguard denied a call:
 * multi-llm-ts (5.1) answers a refused call with the fixed text "Tool NAME
 * execution denied by validation function."; its `beforeToolCallsResponse`
 * hook runs before the tool results go back to the model, and there the
 * result of each call `validator` denied gets toolguard's reason for the
 * model instead (`{error: decision.model_reason}`). Returns the function that
 * removes the hook.
 */
export function tellModelWhy(engine, validator) {
  if (typeof engine?.addHook !== 'function') {
    throw new TypeError('toolguard: tellModelWhy needs a multi-llm-ts engine (addHook)');
  }
  if (typeof validator?.deniedReason !== 'function') {
    throw new TypeError('toolguard: tellModelWhy needs a validator made by toolguardValidator');
  }
  return engine.addHook('beforeToolCallsResponse', (context) => {
    for (const entry of context?.toolHistory ?? []) {
      const reason = validator.deniedReason(entry.args);
      if (reason === undefined || entry.result === null || typeof entry.result !== 'object') continue;
      entry.result.error = reason;
    }
  });
}
