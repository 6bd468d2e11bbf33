package toolguard

import (
	"testing"
)

// builtinOptions: the built-in policy alone, nothing written, a fresh home.
func builtinOptions(t testing.TB) Options {
	off := Bool(false)
	return Options{User: off, Project: off, Managed: off, Audit: off, Home: t.TempDir()}
}

// newGuard creates a guard with opts and closes it when the test ends.
func newGuard(t testing.TB, opts Options) *Guard {
	t.Helper()
	g, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// bash is a Bash call of command in /workspace.
func bash(command string) Call {
	return Call{Tool: "Bash", Args: map[string]any{"command": command}, Context: CallContext{Cwd: "/workspace"}}
}
