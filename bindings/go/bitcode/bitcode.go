// Package bitcodeguard adapts a toolguard Guard to the guard interface of
// the Go coding agent bitcode (sazid/bitcode, internal/guard/guard.go): a
// Rule whose Evaluate(*EvalContext) *Decision gives allow, deny, ask or llm.
//
// The types here have the same shape as bitcode's, so bitcode can use the
// adapter through a one-line conversion (or by replacing its own types with
// these).
//
// How toolguard's decisions map to bitcode's verdicts:
//
//	toolguard allow                        -> VerdictAllow
//	toolguard ask, policy verdict escalate
//	  and no LLM validator judged it       -> VerdictLLM (bitcode's LLM guard judges it)
//	toolguard ask (any other)              -> VerdictAsk (bitcode asks its user)
//	toolguard deny                         -> VerdictDeny
//	toolguard abort                        -> VerdictDeny, the reason starting "abort: "
//	error (guard closed, call not JSON)    -> VerdictDeny
//
// A headless call that needs approval is a deny (no one can approve it),
// also when the policy escalated it. The reason is toolguard's reason for
// the person; bitcode shows a deny's reason to the model.
package bitcodeguard

import (
	"context"
	"encoding/json"
	"strings"

	toolguard "github.com/toolguard/toolguard/bindings/go"
)

// Verdict represents the outcome of a guard rule evaluation (bitcode's).
type Verdict string

// bitcode's verdicts.
const (
	VerdictAllow Verdict = "allow" // safe, proceed
	VerdictDeny  Verdict = "deny"  // blocked, return error to LLM
	VerdictAsk   Verdict = "ask"   // ask user for approval
	VerdictLLM   Verdict = "llm"   // escalate to LLM guard
)

// Decision contains a verdict and a human-readable reason (bitcode's).
type Decision struct {
	Verdict Verdict
	Reason  string
}

// EvalContext provides the context needed to evaluate a tool call
// (bitcode's): the tool's name, its JSON input and the working directory.
type EvalContext struct {
	ToolName   string
	Input      json.RawMessage
	WorkingDir string
}

// Rule evaluates a tool call and returns a Decision; nil abstains
// (bitcode's interface). *Adapter is a Rule.
type Rule interface {
	Evaluate(ctx *EvalContext) *Decision
}

// Adapter is a Rule that asks a toolguard Guard. It never abstains: the
// policy always decides (its default verdict covers what no rule names).
type Adapter struct {
	Guard   *toolguard.Guard
	Agent   string // the calls' context.agent (New: "bitcode")
	Session string // the calls' context.session (scopes session approvals)
	Mode    string // "" or "interactive"; "headless": asks become denies
}

var _ Rule = (*Adapter)(nil)

// New returns an Adapter on guard, for agent "bitcode". Leave the guard
// without an asker so that asks come back as VerdictAsk for bitcode's own
// permission handler.
func New(guard *toolguard.Guard) *Adapter {
	return &Adapter{Guard: guard, Agent: "bitcode"}
}

// Evaluate judges the call (never nil).
func (a *Adapter) Evaluate(ec *EvalContext) *Decision {
	return a.EvaluateContext(context.Background(), ec)
}

// EvaluateContext is Evaluate with a context (it cancels a pending ask of a
// guard that has an asker).
func (a *Adapter) EvaluateContext(ctx context.Context, ec *EvalContext) *Decision {
	if ec == nil {
		return &Decision{Verdict: VerdictDeny, Reason: "toolguard: no call to judge"}
	}
	if a == nil || a.Guard == nil {
		return &Decision{Verdict: VerdictDeny, Reason: "toolguard: no guard configured"}
	}
	input := ec.Input
	if len(strings.TrimSpace(string(input))) == 0 {
		input = json.RawMessage("{}")
	}
	call := toolguard.Call{
		Tool: ec.ToolName,
		Args: input,
		Context: toolguard.CallContext{
			Cwd: ec.WorkingDir, AgentID: a.Agent, SessionID: a.Session, Mode: a.Mode,
		},
	}
	d, err := a.Guard.Check(ctx, call)
	if err != nil && d.Verdict == toolguard.VerdictAllow {
		d.Verdict = toolguard.VerdictDeny // never allow a call whose check failed
	}
	return Map(d)
}

// Map turns a toolguard decision into bitcode's (see the package comment).
func Map(d toolguard.Decision) *Decision {
	switch d.Verdict {
	case toolguard.VerdictAllow:
		return &Decision{Verdict: VerdictAllow, Reason: d.Reason}
	case toolguard.VerdictAsk:
		if escalatedWithoutValidator(d) {
			return &Decision{Verdict: VerdictLLM, Reason: d.Reason}
		}
		return &Decision{Verdict: VerdictAsk, Reason: d.Reason}
	case toolguard.VerdictAbort:
		return &Decision{Verdict: VerdictDeny, Reason: "abort: " + d.Reason}
	default:
		return &Decision{Verdict: VerdictDeny, Reason: d.Reason}
	}
}

// escalatedWithoutValidator: the policy escalated the call and it became
// ask only because no LLM validator judged it.
func escalatedWithoutValidator(d toolguard.Decision) bool {
	details, err := d.Details()
	return err == nil && details.PolicyVerdict == toolguard.VerdictEscalate && details.LLM == nil
}
