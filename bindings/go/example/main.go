// The README's example: a guard on the built-in policy judges two commands.
package main

import (
	"context"
	"fmt"

	toolguard "github.com/toolguard/toolguard/bindings/go"
)

func main() {
	off := toolguard.Bool(false) // the built-in policy only, no audit log
	guard, err := toolguard.New(toolguard.Options{User: off, Project: off, Managed: off, Audit: off})
	if err != nil {
		panic(err)
	}
	defer guard.Close()
	for _, command := range []string{"git status", "rm -rf ~"} {
		call := toolguard.Call{Tool: "Bash", Args: map[string]any{"command": command},
			Context: toolguard.CallContext{Cwd: "/workspace"}}
		decision, _ := guard.Check(context.Background(), call)
		fmt.Printf("%s: %s %s\n", command, decision.Verdict, decision.Reason)
	}
}
