import toolguard

guard = toolguard.Guard(user=False, project=False, managed=False)  # the built-in policy
for command in ["git status", "rm -rf /"]:  # judged, never run
    print(command, "->", guard.check("Bash", {"command": command}, cwd="/workspace").verdict)

@guard.tool("Bash", cwd="/workspace")
def bash(command: str) -> str:
    return f"(would run {command})"

print(bash("git status"))
try:
    bash("rm -rf /")
except toolguard.ToolDenied as denied:
    print("denied:", denied)
