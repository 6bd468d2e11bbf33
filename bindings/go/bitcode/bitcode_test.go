package bitcodeguard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	toolguard "github.com/toolguard/toolguard/bindings/go"
)

// A policy with one rule per verdict, for chosen commands.
const policy = `version: 1
default: ask
rules:
  - id: allow-echo
    shell: "echo *"
    verdict: allow
  - id: ask-deploy
    shell: "deploy *"
    verdict: ask
    reason: deploys need a person
  - id: escalate-fetch
    shell: "fetch *"
    verdict: escalate
    reason: fetching needs a second opinion
  - id: deny-dropdb
    shell: "dropdb *"
    verdict: deny
    reason: dropping databases is not done here
  - id: abort-wipe
    shell: "wipe *"
    verdict: abort
    reason: wiping disks stops the agent
`

// newAdapter is an Adapter on a guard with that policy alone.
func newAdapter(t *testing.T) *Adapter {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(path, []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	off := toolguard.Bool(false)
	g, err := toolguard.New(toolguard.Options{
		PolicyFiles: []string{path}, Builtin: off, User: off, Project: off, Managed: off,
		Audit: off, Home: filepath.Join(dir, "home"),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return New(g)
}

// bashInput is a Bash tool's input for command.
func bashInput(command string) json.RawMessage {
	data, _ := json.Marshal(map[string]string{"command": command})
	return data
}

func TestAdapterVerdicts(t *testing.T) {
	var rule Rule = newAdapter(t)
	for _, c := range []struct {
		command string
		verdict Verdict
		reason  string
	}{
		{"echo hello", VerdictAllow, ""},
		{"deploy prod", VerdictAsk, "deploys need a person"},
		{"fetch https://example.com", VerdictLLM, "fetching needs a second opinion"},
		{"dropdb main", VerdictDeny, "dropping databases is not done here"},
		{"wipe /dev/sda", VerdictDeny, "abort: wiping disks stops the agent"},
	} {
		d := rule.Evaluate(&EvalContext{ToolName: "Bash", Input: bashInput(c.command), WorkingDir: "/workspace"})
		if d == nil || d.Verdict != c.verdict || !strings.Contains(d.Reason, c.reason) {
			t.Errorf("%s: %+v; want %s with %q", c.command, d, c.verdict, c.reason)
		}
	}
}

func TestAdapterFailsClosed(t *testing.T) {
	a := newAdapter(t)
	ec := &EvalContext{ToolName: "Bash", Input: json.RawMessage(`{"command": `), WorkingDir: "/workspace"}
	if d := a.Evaluate(ec); d == nil || d.Verdict != VerdictDeny {
		t.Errorf("input not JSON: %+v", d)
	}
	ec = &EvalContext{ToolName: "Bash", Input: json.RawMessage(`"echo hi"`), WorkingDir: "/workspace"}
	if d := a.Evaluate(ec); d == nil || d.Verdict != VerdictDeny {
		t.Errorf("input not an object: %+v", d)
	}
	// Headless: no one can approve, so ask and escalate are deny.
	a.Mode = "headless"
	for _, command := range []string{"deploy prod", "fetch https://example.com"} {
		ec = &EvalContext{ToolName: "Bash", Input: bashInput(command), WorkingDir: "/workspace"}
		if d := a.Evaluate(ec); d == nil || d.Verdict != VerdictDeny {
			t.Errorf("headless %s: %+v", command, d)
		}
	}
	a.Guard.Close()
	ec = &EvalContext{ToolName: "Bash", Input: bashInput("echo hi"), WorkingDir: "/workspace"}
	if d := a.Evaluate(ec); d == nil || d.Verdict != VerdictDeny {
		t.Errorf("closed guard: %+v", d)
	}
	if d := (&Adapter{}).Evaluate(ec); d == nil || d.Verdict != VerdictDeny {
		t.Errorf("no guard: %+v", d)
	}
}

// TestEmptyInput: bitcode may send no input; it is judged as {} (not denied as malformed).
func TestEmptyInput(t *testing.T) {
	a := newAdapter(t)
	d := a.Evaluate(&EvalContext{ToolName: "Bash", WorkingDir: "/workspace"})
	if d == nil || d.Verdict == VerdictAllow {
		t.Errorf("empty input: %+v", d)
	}
}

// An escalated call an LLM validator already judged (and left to a person) is ask, not llm.
func TestMapEscalatedAndJudged(t *testing.T) {
	judged := toolguard.Decision{Verdict: toolguard.VerdictAsk, Reason: "r",
		Raw: json.RawMessage(`{"verdict":"ask","policy_verdict":"escalate","llm":{"verdict":"ask","answered":true}}`)}
	if d := Map(judged); d.Verdict != VerdictAsk {
		t.Errorf("judged by the validator: %+v", d)
	}
	notJudged := toolguard.Decision{Verdict: toolguard.VerdictAsk, Reason: "r",
		Raw: json.RawMessage(`{"verdict":"ask","policy_verdict":"escalate"}`)}
	if d := Map(notJudged); d.Verdict != VerdictLLM {
		t.Errorf("no validator: %+v", d)
	}
	if d := Map(toolguard.Decision{Verdict: "something new"}); d.Verdict != VerdictDeny {
		t.Errorf("unknown verdict: %+v", d)
	}
}
