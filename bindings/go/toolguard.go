// Package toolguard is the Go binding of toolguard: it decides whether an
// LLM agent's tool call is allowed, asked, denied or aborted, with the
// policy, approvals and audit log of the toolguard command. It calls the C
// API (libtoolguard_c, include/toolguard/toolguard.h) through cgo.
//
// A Guard is safe for concurrent use. Every failure fails closed: a call
// that cannot be judged is a deny, never an allow.
package toolguard

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"runtime/cgo"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Verdict is what a decision says about a call.
type Verdict string

// The verdicts. A Decision's Verdict is allow, ask, deny or abort; escalate
// appears only as a policy's verdict (DecisionDetails.PolicyVerdict): it
// becomes ask when no LLM validator is configured.
const (
	VerdictAllow    Verdict = "allow"    // run the call
	VerdictAsk      Verdict = "ask"      // a person must approve it (returned only without an asker)
	VerdictDeny     Verdict = "deny"     // do not run it; tell the model why (ModelReason)
	VerdictAbort    Verdict = "abort"    // do not run it and stop the agent's generation
	VerdictEscalate Verdict = "escalate" // the policy wants a second opinion (LLM or person)
)

// Error is an error of the C API, with its message (for a bad policy: file,
// line and column; for bad options: the field).
type Error struct {
	Message string
}

// Error implements error.
func (e *Error) Error() string { return "toolguard: " + e.Message }

// ErrClosed is returned by a Guard's methods after Close.
var ErrClosed = errors.New("toolguard: the guard is closed")

// Options configure a guard; they become the C API's options JSON (every
// field is optional: nil or empty leaves the C API's default).
type Options struct {
	PolicyFiles []string `json:"policy_files,omitempty"` // policy files (the explicit layer)
	Profiles    []string `json:"profiles,omitempty"`     // ready-made profiles on top of the default
	Builtin     *bool    `json:"builtin,omitempty"`      // load the built-in default policy (default true)
	User        *bool    `json:"user,omitempty"`         // load the user's policy files (default true)
	Project     *bool    `json:"project,omitempty"`      // load the project's, found from each call's cwd (default true)
	Managed     *bool    `json:"managed,omitempty"`      // load the managed policy files (default true)
	ProjectDir  string   `json:"project_dir,omitempty"`  // the project layer's workspace, whatever the call's cwd
	Home        string   `json:"home,omitempty"`         // approvals and audit log (default $TOOLGUARD_HOME, else ~/.toolguard)
	Audit       *bool    `json:"audit,omitempty"`        // write every decision to the audit log (default true)
	AuditLog    string   `json:"audit_log,omitempty"`    // the audit log (default HOME/audit.jsonl)
	// How long an ask waits for its answer, in milliseconds, before the call
	// is denied (default 300000; 0: no limit). See Millis.
	ApprovalTimeoutMS *uint64    `json:"approval_timeout_ms,omitempty"`
	Cwd               string     `json:"cwd,omitempty"`        // the cwd of calls that name none
	AskServer         *AskServer `json:"ask_server,omitempty"` // send asks to `toolguard serve`

	// OmitRaw leaves Decision.Raw nil (so Details() fails): the decision
	// JSON is not rendered, which saves several µs per check. Not part of
	// the C API's options. (bitcodeguard then cannot tell an escalated ask,
	// llm, from an ask.)
	OmitRaw bool `json:"-"`
}

// AskServer sends asks to `toolguard serve`'s web queue instead of an asker.
type AskServer struct {
	URL   string `json:"url"`
	Token string `json:"token,omitempty"`
}

// Bool returns a pointer to v, for Options' optional switches.
func Bool(v bool) *bool { return &v }

// Millis returns d in whole milliseconds, for Options.ApprovalTimeoutMS
// (a negative d is 0: no limit).
func Millis(d time.Duration) *uint64 {
	if d < 0 {
		d = 0
	}
	ms := uint64(d / time.Millisecond)
	return &ms
}

// Call is a tool call as `toolguard check` reads it.
type Call struct {
	Tool string `json:"tool"`
	// The arguments: a JSON object, e.g. map[string]any or json.RawMessage.
	Args    any         `json:"args,omitempty"`
	Context CallContext `json:"context"`
}

// CallContext says where and for whom a call is made.
type CallContext struct {
	Cwd       string   `json:"cwd,omitempty"`     // the agent's working directory (absolute)
	SessionID string   `json:"session,omitempty"` // the agent's session (scopes session approvals)
	AgentID   string   `json:"agent,omitempty"`   // which agent makes the call
	Model     string   `json:"model,omitempty"`   // the model behind it
	Role      string   `json:"role,omitempty"`    // e.g. a subagent's role
	Mode      string   `json:"mode,omitempty"`    // "interactive" (default) or "headless": no one can approve
	Roots     []string `json:"roots,omitempty"`   // more workspace roots besides Cwd
}

// UnmarshalJSON reads a context; the roots may also be named
// "workspace_roots" (as versions before 0.1.0 wrote them in an AskRequest's call).
func (c *CallContext) UnmarshalJSON(data []byte) error {
	type plain CallContext // without this method
	var v struct {
		plain
		WorkspaceRoots []string `json:"workspace_roots"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*c = CallContext(v.plain)
	if len(c.Roots) == 0 {
		c.Roots = v.WorkspaceRoots
	}
	return nil
}

// Decision is toolguard's decision about one call.
type Decision struct {
	Verdict     Verdict         // allow, ask, deny or abort
	Reason      string          // for the person
	ModelReason string          // for the model: names the guard and the rule
	Rule        string          // the deciding rule's id; "" when no rule decided
	Raw         json.RawMessage // the whole decision as `toolguard check` prints it (nil with Options.OmitRaw)
}

// String is "verdict (rule): reason", for logs.
func (d Decision) String() string {
	rule := d.Rule
	if rule == "" {
		rule = "no rule"
	}
	return string(d.Verdict) + " (" + rule + "): " + d.Reason
}

// DecisionDetails is the whole decision JSON (Decision.Details).
type DecisionDetails struct {
	Verdict       Verdict          `json:"verdict"`
	PolicyVerdict Verdict          `json:"policy_verdict,omitempty"` // the policy's verdict, when Verdict differs
	Resolution    string           `json:"resolution,omitempty"`     // how PolicyVerdict became Verdict
	Reason        string           `json:"reason"`
	ModelReason   string           `json:"model_reason"`
	Rule          *string          `json:"rule"`
	Source        string           `json:"source"` // file:line:column of the deciding rule
	Basis         string           `json:"basis"`  // what decided: rule, tool, default, error, ...
	Tool          string           `json:"tool"`
	ID            string           `json:"id,omitempty"`
	ApprovalKey   string           `json:"approval_key,omitempty"`
	Approval      *json.RawMessage `json:"approval,omitempty"` // how an ask was settled
	LLM           *LLMJudgement    `json:"llm,omitempty"`      // the LLM validator's judgement, if it judged
}

// LLMJudgement is what the LLM validator said about an escalated call.
type LLMJudgement struct {
	Verdict  Verdict `json:"verdict"`
	Answered bool    `json:"answered"`
	Cached   bool    `json:"cached"`
	Reason   string  `json:"reason"`
	Model    string  `json:"model"`
	Requests int     `json:"requests"`
}

// Details reads the whole decision (Raw).
func (d Decision) Details() (DecisionDetails, error) {
	var out DecisionDetails
	err := json.Unmarshal(d.Raw, &out)
	return out, err
}

// denyDecision is the decision of a call the binding could not judge.
func denyDecision(reason string) Decision {
	return Decision{
		Verdict:     VerdictDeny,
		Reason:      reason,
		ModelReason: "Blocked by toolguard: " + reason,
	}
}

// Guard judges tool calls with a policy. Safe for concurrent use.
type Guard struct {
	mu      sync.RWMutex // Check holds it shared; Close and SetAsker exclusively
	c       *cGuard      // nil once closed
	state   *guardState
	handle  cgo.Handle // of state, passed to the C asker
	omitRaw bool       // Options.OmitRaw
}

// guardState is what the C asker reaches through its cgo.Handle.
type guardState struct {
	asker atomic.Pointer[askerFunc] // nil: no asker
}

type askerFunc = func(ctx context.Context, req AskRequest) AskAnswer

// checkState is what an ask reaches of the Check that caused it.
type checkState struct {
	ctx       context.Context // cancelled when Check's ctx is, or when Check returns
	cancelled atomic.Bool     // an ask was denied because ctx was done
}

// New creates a guard: the policy is loaded now, so a broken policy file is
// an error naming its file, line and column.
func New(opts Options) (*Guard, error) {
	text, err := json.Marshal(opts)
	if err != nil {
		return nil, err
	}
	g, err := NewFromJSON(string(text))
	if err == nil {
		g.omitRaw = opts.OmitRaw
	}
	return g, err
}

// NewFromJSON creates a guard from the C API's options JSON as text ("" :
// the defaults), for options this version's Options does not name.
func NewFromJSON(options string) (*Guard, error) {
	if strings.IndexByte(options, 0) >= 0 { // C would read only up to it
		return nil, &Error{Message: "options: hold a NUL character"}
	}
	c, err := newCGuard([]byte(options))
	if err != nil {
		return nil, err
	}
	g := &Guard{c: c, state: &guardState{}}
	g.handle = cgo.NewHandle(g.state)
	runtime.SetFinalizer(g, (*Guard).Close)
	return g, nil
}

// Close frees the guard. It waits for running checks to return; checks
// after Close return ErrClosed (and a deny).
func (g *Guard) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.c == nil {
		return nil
	}
	freeCGuard(g.c)
	g.c = nil
	g.handle.Delete()
	runtime.SetFinalizer(g, nil)
	return nil
}

// Check judges one call and settles it (remembered approvals, the asker,
// the audit log). A call that cannot be read (e.g. Args not an object) is a
// deny naming the field, not an error. On an error the Decision is a deny
// saying why. When ctx is cancelled while the asker is asked about the
// call, the ask is answered with deny and Check returns that deny with
// ctx.Err().
func (g *Guard) Check(ctx context.Context, call Call) (Decision, error) {
	text, err := appendCallJSON(make([]byte, 0, 256), &call)
	if err != nil {
		reason := "the call could not be written as JSON: " + err.Error()
		return denyDecision(reason), &Error{Message: reason}
	}
	return g.CheckJSON(ctx, text)
}

// CheckJSON is Check for a call given as JSON text:
// {"tool": "Bash", "args": {...}, "context": {"cwd": "/work", ...}}.
func (g *Guard) CheckJSON(ctx context.Context, call []byte) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return denyDecision("the check was cancelled: " + err.Error()), err
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.c == nil {
		return denyDecision(ErrClosed.Error()), ErrClosed
	}
	if g.state.asker.Load() == nil {
		return decide(g.c, call, 0, !g.omitRaw)
	}
	askCtx, cancel := context.WithCancel(ctx)
	defer cancel() // an ask still waiting (approval timeout) is answered now
	state := &checkState{ctx: askCtx}
	handle := cgo.NewHandle(state)
	defer handle.Delete()
	d, err := decide(g.c, call, uintptr(handle), !g.omitRaw)
	if err == nil && state.cancelled.Load() {
		err = ctx.Err()
	}
	return d, err
}

// SandboxRequest is a command to run for a tool in the sandbox.
type SandboxRequest struct {
	// Command is the program and its arguments.
	Command []string `json:"command"`
	// Workspaces are the directories it may write in (default: Cwd).
	Workspaces []string `json:"workspaces,omitempty"`
	// Cwd is where it runs, and whose policy applies (default: the guard's).
	Cwd string `json:"cwd,omitempty"`
	// Rule is the id of the rule that allowed the call: what its own
	// sandbox: adds (writable places, hosts) applies too (default: none).
	Rule string `json:"rule,omitempty"`
}

// RunSandboxed runs a tool's command where the kernel holds it, as
// `toolguard sandbox` does (docs/sandbox.md): writes only in the
// workspaces, secrets unreadable, the network as the policy's sandbox:
// section says. It waits for the command and returns its exit status (128 +
// the signal's number when a signal ended it), or an error when nothing was
// run: the sandbox could not be set up, or this kernel cannot hold what the
// policy asks for.
func (g *Guard) RunSandboxed(request SandboxRequest) (int, error) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.c == nil {
		return -1, ErrClosed
	}
	data, err := json.Marshal(request)
	if err != nil {
		return -1, &Error{Message: "the request could not be written as JSON: " + err.Error()}
	}
	return runSandboxed(g.c, data)
}
