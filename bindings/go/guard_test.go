package toolguard

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestVersion(t *testing.T) {
	if v := Version(); strings.Count(v, ".") != 2 {
		t.Fatalf("Version() = %q, want MAJOR.MINOR.PATCH", v)
	}
}

func TestCheckBasics(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	ctx := context.Background()

	d, err := g.Check(ctx, bash("git status"))
	if err != nil || d.Verdict != VerdictAllow {
		t.Fatalf("git status: %+v, %v; want allow", d, err)
	}
	details, err := d.Details()
	if err != nil || details.Tool != "Bash" || details.Verdict != VerdictAllow {
		t.Fatalf("git status details: %+v, %v", details, err)
	}

	d, err = g.Check(ctx, bash("rm -rf ~"))
	if err != nil || (d.Verdict != VerdictDeny && d.Verdict != VerdictAbort) || d.Rule == "" ||
		d.Reason == "" || d.ModelReason == "" {
		t.Fatalf("rm -rf ~: %+v, %v; want deny or abort by a rule", d, err)
	}

	// Arguments as raw JSON, and the same call as JSON text.
	raw := Call{Tool: "Bash", Args: json.RawMessage(`{"command":"git status"}`), Context: CallContext{Cwd: "/workspace"}}
	if d, err := g.Check(ctx, raw); err != nil || d.Verdict != VerdictAllow {
		t.Fatalf("raw args: %+v, %v", d, err)
	}
	text := `{"tool":"Bash","args":{"command":"git status"},"context":{"cwd":"/workspace"}}`
	if d, err := g.CheckJSON(ctx, []byte(text)); err != nil || d.Verdict != VerdictAllow {
		t.Fatalf("CheckJSON: %+v, %v", d, err)
	}

	// With no asker, a call that needs approval comes back as ask; headless, as deny.
	call := bash("terraform apply")
	if d, _ := g.Check(ctx, call); d.Verdict != VerdictAsk {
		t.Fatalf("terraform apply: %+v; want ask", d)
	}
	call.Context.Mode = "headless"
	if d, _ := g.Check(ctx, call); d.Verdict != VerdictDeny {
		t.Fatalf("headless terraform apply: %+v; want deny", d)
	}
}

func TestBadOptions(t *testing.T) {
	if _, err := NewFromJSON(`{"bogus": true}`); err == nil || !strings.Contains(err.Error(), `unknown member "bogus"`) {
		t.Fatalf("unknown member: %v", err)
	}
	if _, err := NewFromJSON("{\"audit\": false}\x00{\"bogus\": 1}"); err == nil {
		t.Fatal("options with a NUL: no error")
	}
	if _, err := NewFromJSON(`[1`); err == nil {
		t.Fatal("options that are not JSON: no error")
	}
	opts := builtinOptions(t)
	opts.Profiles = []string{"no-such-profile"}
	if _, err := New(opts); err == nil || !strings.Contains(err.Error(), "no-such-profile") {
		t.Fatalf("unknown profile: %v", err)
	}
	var tgErr *Error
	// A broken policy file: the error names the file and the line.
	path := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(path, []byte("version: 1\nrules:\n  - id: x\n    verdict: maybe\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	opts = builtinOptions(t)
	opts.PolicyFiles = []string{path}
	_, err := New(opts)
	if err == nil || !errors.As(err, &tgErr) || !strings.Contains(tgErr.Message, "broken.yaml:4") {
		t.Fatalf("broken policy: %v", err)
	}
}

func TestMalformedInputDenies(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	ctx := context.Background()
	for name, text := range map[string]string{
		"not JSON":          `{"tool": "Bash", "args": `,
		"empty":             ``,
		"args not object":   `{"tool": "Bash", "args": "rm"}`,
		"no tool":           `{"args": {}}`,
		"unknown field":     `{"tool": "Bash", "args": {}, "extra": 1}`,
		"relative cwd":      `{"tool": "Bash", "args": {"command": "ls"}, "context": {"cwd": "src"}}`,
		"unknown context":   `{"tool": "Bash", "args": {}, "context": {"user": "x"}}`,
		"not an object":     `[]`,
		"NUL in the middle": "{\"tool\": \"Bash\"\x00, \"args\": {}}",
	} {
		d, err := g.CheckJSON(ctx, []byte(text))
		if err != nil || d.Verdict != VerdictDeny || !strings.HasPrefix(d.Reason, "invalid call") {
			t.Errorf("%s: %+v, %v; want a deny saying the call is invalid", name, d, err)
		}
	}
	// Arguments that are not an object, through Call.
	d, err := g.Check(ctx, Call{Tool: "Bash", Args: []string{"rm"}})
	if err != nil || d.Verdict != VerdictDeny || !strings.Contains(d.Reason, "args") {
		t.Errorf("args as a list: %+v, %v", d, err)
	}
	// Arguments Go cannot write as JSON: an error and a deny.
	d, err = g.Check(ctx, Call{Tool: "Bash", Args: map[string]any{"f": func() {}}})
	if err == nil || d.Verdict != VerdictDeny {
		t.Errorf("unencodable args: %+v, %v", d, err)
	}
}

func TestClosedAndCancelled(t *testing.T) {
	g, err := New(builtinOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d, err := g.Check(ctx, bash("git status")); !errors.Is(err, context.Canceled) || d.Verdict != VerdictDeny {
		t.Fatalf("cancelled context: %+v, %v", d, err)
	}
	g.Close()
	g.Close() // twice is fine
	if d, err := g.Check(context.Background(), bash("git status")); err != ErrClosed || d.Verdict != VerdictDeny {
		t.Fatalf("after Close: %+v, %v", d, err)
	}
	if err := g.SetAsker(nil); err != ErrClosed {
		t.Fatalf("SetAsker after Close: %v", err)
	}
}

func TestConcurrentChecks(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	want := map[string]Verdict{"git status": VerdictAllow, "terraform apply": VerdictAsk}
	commands := []string{"git status", "terraform apply"}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				command := commands[(i+j)%2]
				d, err := g.Check(context.Background(), bash(command))
				if err != nil || d.Verdict != want[command] {
					errs <- command + ": " + string(d.Verdict) + " " + d.Reason
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestOmitRaw(t *testing.T) {
	opts := builtinOptions(t)
	opts.OmitRaw = true
	g := newGuard(t, opts)
	d, err := g.Check(context.Background(), bash("rm -rf ~"))
	if err != nil || d.Verdict != VerdictDeny || d.Rule == "" || d.Raw != nil {
		t.Fatalf("%+v, %v; want a deny by a rule and no Raw", d, err)
	}
	if _, err := d.Details(); err == nil {
		t.Fatal("Details without Raw: no error")
	}
}
