package toolguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tool's command run in the sandbox from Go: it writes in its workspace,
// not outside, and its exit status comes back; nothing runs when it cannot.
func TestRunSandboxedWritesOnlyInItsWorkspace(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	dir := t.TempDir()
	if _, err := g.RunSandboxed(SandboxRequest{Command: []string{"true"}, Cwd: dir}); err != nil &&
		strings.Contains(err.Error(), "cannot hold") {
		t.Skip(err.Error()) // a kernel that cannot hold the default sandbox
	}
	workspace := filepath.Join(dir, "ws")
	if err := os.Mkdir(workspace, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "outside.txt")
	status, err := g.RunSandboxed(SandboxRequest{
		Command:    []string{"sh", "-c", "echo in > inside.txt; echo x > '" + outside + "'; exit 4"},
		Workspaces: []string{workspace},
		Cwd:        workspace,
	})
	if err != nil || status != 4 {
		t.Fatalf("status %d, err %v", status, err)
	}
	if text, _ := os.ReadFile(filepath.Join(workspace, "inside.txt")); string(text) != "in\n" {
		t.Errorf("inside.txt: %q", text)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("the command wrote outside its workspace")
	}
	if _, err := g.RunSandboxed(SandboxRequest{Command: []string{"/no/such/program"}, Cwd: dir}); err == nil ||
		!strings.Contains(err.Error(), "cannot run") {
		t.Errorf("a missing program: %v", err)
	}
	// The rule that allowed a call is passed on; one the policy lacks runs nothing.
	if _, err := g.RunSandboxed(SandboxRequest{Command: []string{"true"}, Cwd: dir, Rule: "no-such-rule"}); err == nil ||
		!strings.Contains(err.Error(), `no rule "no-such-rule"`) {
		t.Errorf("an unknown rule: %v", err)
	}
}
