// Type declarations of toolguard's Node.js binding (index.js).

/** The version of the toolguard library the addon is linked with. */
export declare const version: string;

/** The guard's options: the C API's options JSON (tg_guard_new). Every member is optional. */
export interface GuardOptions {
  /** Policy files (the explicit layer). */
  policy_files?: string[];
  /** Ready-made profiles on top of the default policy. */
  profiles?: string[];
  /** Load the built-in default policy. */
  builtin?: boolean;
  /** Load the user's policy file (as `toolguard check`). */
  user?: boolean;
  /** Load the project's policy file, found from each call's cwd. */
  project?: boolean;
  /** Load the managed policy file. */
  managed?: boolean;
  /** The project layer's workspace, whatever the call's cwd. */
  project_dir?: string;
  /** toolguard's home: remembered approvals and the audit log. */
  home?: string;
  /** Write every decision to the audit log. */
  audit?: boolean;
  /** The audit log (default HOME/audit.jsonl). */
  audit_log?: string;
  /** How long an ask waits for its answer, then deny (0: no limit). */
  approval_timeout_ms?: number;
  /** The cwd of calls that name none. */
  cwd?: string;
  /** Send asks to `toolguard serve`'s web queue instead of the asker. */
  ask_server?: { url: string; token?: string };
}

/** Where a call is made and by whom. */
export interface CallContext {
  cwd?: string;
  agent?: string;
  session?: string;
  model?: string;
  role?: string;
  mode?: 'interactive' | 'headless';
  /** More workspace roots. */
  roots?: string[];
}

/** A tool call, as `toolguard check` reads it. */
export interface ToolCall {
  tool: string;
  args?: Record<string, unknown>;
  context?: CallContext;
}

/** The final verdicts ('ask' only when no asker is set). */
export type Verdict = 'allow' | 'ask' | 'deny' | 'abort';

/**
 * A decision, as `toolguard check` prints it. verdict, reason, model_reason
 * and rule are the object's own properties; the other fields are getters
 * that parse the decision's JSON text once, on first use (so a spread or
 * Object.keys sees the main four only: use toJSON() for a plain object).
 */
export interface Decision {
  verdict: Verdict;
  /** The reason, for the person. */
  reason: string;
  /** The reason for the model (names the guard and the rule). */
  model_reason: string;
  /** The id of the deciding rule, null when no rule decided. */
  rule: string | null;
  source?: string;
  basis?: string;
  tool?: string;
  id?: string;
  policy_verdict?: string;
  resolution?: string;
  approval_key?: string;
  decided_on?: string;
  sanitized_args?: Record<string, unknown>;
  approval?: Record<string, string>;
  llm?: Record<string, unknown>;
  [field: string]: unknown;
  /** Every field as a plain object (what JSON.stringify writes). */
  toJSON(): Record<string, unknown>;
}

/** One way an always-allow answer can remember the approval. */
export interface ApprovalOption {
  binding: 'exact' | 'pattern' | 'tool';
  value: string;
  description: string;
}

/** What the asker is given when a call needs a person's approval. */
export interface AskRequest {
  id?: string;
  call: ToolCall;
  decision: Decision;
  options: ApprovalOption[];
  scopes: Array<'session' | 'project' | 'agent' | 'global'>;
  timeout_ms: number;
}

/** The asker's answer. */
export interface AskAnswer {
  outcome: 'allow-once' | 'always-allow' | 'deny';
  /** always-allow: an index into the request's options (default 0). */
  option?: number;
  /** always-allow: one of the request's scopes (default its first). */
  scope?: 'session' | 'project' | 'agent' | 'global';
  /** deny: the text the model reads. */
  reason?: string;
}

/** Who is asked: returns, or resolves to, the answer. A throw or a rejection denies. */
export type Asker = (request: AskRequest) => AskAnswer | Promise<AskAnswer>;

/** A guard: a policy, the approvals remembered for it, its audit log and its asker. */
export declare class Guard {
  /** Creates a guard; throws an Error with the C API's message. */
  constructor(options?: GuardOptions);
  /**
   * Judges a call now, on the JS thread. The asker (if any) must answer at
   * once; a promise denies the call: use checkAsync to wait for a person.
   */
  /** Runs a tool's command in the sandbox; its exit status (throws when nothing ran). */
  runSandboxed(
    command: string[],
    options?: { workspaces?: string[]; cwd?: string; rule?: string },
  ): number;
  check(call: ToolCall): Decision;
  check(tool: string, args?: Record<string, unknown>, context?: CallContext): Decision;
  /** Judges a call on a worker thread; an ask waits there for the asker. */
  checkAsync(call: ToolCall): Promise<Decision>;
  checkAsync(tool: string, args?: Record<string, unknown>, context?: CallContext): Promise<Decision>;
  /** Sets who is asked (null: nobody, decisions say 'ask'). */
  setAsker(asker: Asker | null): void;
  /** Frees the guard: waiting asks are denied; later calls throw. */
  close(): void;
}

/** multi-llm-ts's validation response. */
export interface ValidationResponse {
  decision: 'allow' | 'deny' | 'abort';
  /** meta: the whole decision as a plain object (Decision.toJSON()). */
  extra?: { reason: string; meta?: Record<string, unknown> };
}

/** The options of toolguardValidator. */
export interface ValidatorOptions {
  /** A ready guard (else one is made from guardOptions). */
  guard?: Guard;
  /** The options of the guard to make. */
  guardOptions?: GuardOptions;
  /** The calls' working directory (default process.cwd()). */
  cwd?: string;
  /** Asked when the guard says ask (set on the guard); without one an ask denies. */
  asker?: Asker;
  /** More call context (agent defaults to 'multi-llm-ts'). */
  context?: Omit<CallContext, 'cwd'>;
  /** The multi-llm-ts engine the callback is used with: the model is told why a call was denied (tellModelWhy). */
  engine?: { addHook(name: string, callback: (payload: any) => void | Promise<void>): () => void };
}

/** toolguardValidator's callback. */
export interface ToolguardValidator {
  (context: { model: string; abortSignal?: AbortSignal }, tool: string, args: any): Promise<ValidationResponse>;
  /** The reason for the model of the call with these arguments (the same object) the callback denied. */
  deniedReason(args: any): string | undefined;
}

/**
 * multi-llm-ts's `toolExecutionValidation` callback, judged by toolguard:
 * allow → allow, abort → abort, everything else → deny, with
 * `extra: {reason: decision.model_reason, meta: decision}`.
 */
export declare function toolguardValidator(options?: ValidatorOptions): ToolguardValidator;

/**
 * Makes a multi-llm-ts engine tell the model why toolguard denied a call: the
 * result of each call `validator` denied becomes `{error: decision.model_reason}`
 * (in the `beforeToolCallsResponse` hook). Returns the hook's remover.
 */
export declare function tellModelWhy(
  engine: { addHook(name: string, callback: (payload: any) => void | Promise<void>): () => void },
  validator: ToolguardValidator,
): () => void;
