package toolguard

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

// The hand-written call JSON says what encoding/json says of the same Call.
func TestCallJSONMatchesEncodingJSON(t *testing.T) {
	for _, call := range []Call{
		{Tool: "Bash", Args: map[string]any{"command": "git status"}, Context: CallContext{Cwd: "/workspace"}},
		{Tool: "Bash"},
		{Tool: `we"ird\tool` + "\n\t\r\x00\x1f\x7f <&> é 🦀 \u2028"},
		{Tool: "Read", Args: json.RawMessage(` {"file_path": "a"} `), Context: CallContext{
			Cwd: "/w", SessionID: "s", AgentID: "a", Model: "m", Role: "r", Mode: "headless",
			Roots: []string{"/x", `/y"`},
		}},
		{Tool: "Edit", Args: map[string]any{
			"s": "x\"y", "b": true, "f": false, "n": nil, "i": 42, "i64": int64(-7), "fl": 1.5e-7,
			"big": 1e21, "num": json.Number("12.50"), "list": []any{"a", 1, map[string]any{"k": []string{"v"}}},
			"m": map[string]string{"z": "1", "a": "2"}, "empty": map[string]any{}, "none": []any{},
			"u": "é\u2028<&>", "st": struct{ X int }{3},
		}},
		{Tool: "Nil", Args: map[string]any{"m": map[string]any(nil), "s": []any(nil), "ss": []string(nil),
			"ms": map[string]string(nil)}},
		{Tool: "NilArgs", Args: map[string]any(nil)},
		{Tool: "T", Args: struct {
			N int `json:"n"`
		}{5}, Context: CallContext{Roots: []string{"/only-roots"}}},
	} {
		got, err := appendCallJSON(nil, &call)
		if err != nil {
			t.Fatalf("%+v: %v", call, err)
		}
		want, err := json.Marshal(call)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%s: not JSON: %v", got, err)
		}
		json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}

// Args given as JSON text must be one JSON value: they cannot add members to the call.
func TestRawArgsCannotInject(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	for _, args := range []string{`{"command": "ls"}, "tool": "Read"`, `{"command": "ls"`, ``} {
		call := Call{Tool: "Bash", Args: json.RawMessage(args), Context: CallContext{Cwd: "/workspace"}}
		d, err := g.Check(context.Background(), call)
		if err == nil || d.Verdict != VerdictDeny {
			t.Errorf("args %q: %+v, %v; want an error and a deny", args, d, err)
		}
	}
}

// A command that is not UTF-8 is judged as it is: never allowed as another command.
func TestInvalidUTF8IsNotAllowed(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	d, err := g.Check(context.Background(), bash("git status\xff"))
	if err != nil || d.Verdict == VerdictAllow {
		t.Fatalf("%v, %v; want no allow", d, err)
	}
}

// A nested []byte would be judged as base64 text while the tool gets the bytes.
func TestEncodeRefusesBytes(t *testing.T) {
	args := map[string]any{"command": []byte("rm -rf /")}
	if _, err := appendCallJSON(nil, &Call{Tool: "Bash", Args: args}); err == nil {
		t.Fatal("a []byte argument was encoded")
	}
}
