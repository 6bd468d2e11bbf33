package toolguard

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestExample runs example/main.go (the README's example) and checks what it prints.
func TestExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example")
	}
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", "./example")
	cmd.Env = append(os.Environ(), "TOOLGUARD_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run ./example: %v\n%s", err, out)
	}
	// README.md shows the example as it is.
	source, err := os.ReadFile(filepath.Join("example", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+string(source)+"```") {
		t.Error("README.md does not show example/main.go as it is")
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "git status: allow") ||
		!(strings.HasPrefix(lines[1], "rm -rf ~: deny ") || strings.HasPrefix(lines[1], "rm -rf ~: abort ")) {
		t.Fatalf("unexpected output:\n%s", out)
	}
}
