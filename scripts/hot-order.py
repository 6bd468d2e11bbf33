#!/usr/bin/env python3
"""Writes cmake/toolguard-command.order: the functions and data a hook's
`toolguard check` touches, in the order it first touches them.

The release command is linked with lld and this list (CMakeLists.txt), so
that what every hook process runs sits together at the start of the
binary's text and data instead of spread over its 7 MiB: on a virtual
machine each page first touched at a distance from the last costs a
fault of its own (10-20 us here), and a check touched some 400 pages of
code scattered over the whole text.

The list is made by running the built command under valgrind's lackey
(every instruction and data address, in order) on the calls a hook sees
most, and naming the symbol of each address the first time it is met.
It only orders: a name that no longer exists is skipped by the linker, a
new function not in it is placed after the listed ones. Run it again after
large changes to the check path:

    scripts/hot-order.py [build/release/toolguard]
"""
import bisect
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "cmake" / "toolguard-command.order"
FLAGS = ["--no-user", "--no-project", "--no-managed"]

# A web fetch in session s1: untrusted input, the session's first labelled event.
WEB_FETCH = (["check", "--format", "claude", *FLAGS],
             '{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"WebFetch",'
             '"tool_input":{"url":"https://example.com/","prompt":"x"}}')

# (arguments, stdin): the calls a hook process judges most, in the agents'
# formats, with and without a session.
SCENARIOS = [
    (["check", *FLAGS],
     '{"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":{"cwd":"/w"}}'),
    WEB_FETCH,
    (["check", "--format", "claude", *FLAGS],
     '{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash",'
     '"tool_input":{"command":"git status && make -j4 test | tail -20"}}'),
    (["check", "--format", "claude", *FLAGS],
     '{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Read",'
     '"tool_input":{"file_path":"/root/.ssh/id_rsa"}}'),
    (["check", "--format", "claude", *FLAGS],
     '{"session_id":"s1","hook_event_name":"PostToolUse","cwd":"/w","tool_name":"Read",'
     '"tool_input":{"file_path":"src/a.cpp"},"tool_response":{"content":"int main() {}"}}'),
    (["check", *FLAGS],
     '{"tool":"Bash","args":{"command":"echo ok; rm -rf ~"},"context":{"cwd":"/w"}}'),
    (["check", "--format", "gemini-hook", *FLAGS],
     '{"session_id":"g1","hook_event_name":"BeforeTool","cwd":"/w","tool_name":"run_shell_command",'
     '"tool_input":{"command":"ls -la src | grep cpp"}}'),
    (["check", "--format", "claude", *FLAGS],
     '{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"mcp__fs__write_file",'
     '"tool_input":{"path":"/w/notes.txt","content":"x"}}'),
    (["--version"], ""),
]
# More calls than a session remembers by default (256 events): its file is
# rewritten with run lines (every 64 appends or so) and every load forgets
# its oldest calls while carrying the web fetch's labels, as in a long
# session.
LONG_SESSION_CALLS = 330


def symbols(binary):
    """The binary's code and data as (starts, ends, names): one entry per
    start address, with every name defined there. GCC folds identical
    functions into one body with several names, and the linker orders the
    body by whichever of them is listed, so all are listed."""
    out = subprocess.run(["nm", "-n", "-S", "--defined-only", binary], check=True,
                         capture_output=True, text=True).stdout
    by_start = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            start, size, kind, name = int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]
        elif len(parts) == 3:
            start, size, kind, name = int(parts[0], 16), 0, parts[1], parts[2]
        else:
            continue
        if kind.lower() not in "tdbrvw" or name.startswith("."):
            continue
        end, names = by_start.get(start, (start + 1, []))
        by_start[start] = (max(end, start + size), names + [name])
    starts = sorted(by_start)
    return starts, [by_start[s][0] for s in starts], [by_start[s][1] for s in starts]


def covering(starts, ends, address):
    """Index of the entry whose range holds `address`, or -1. A label without
    a size inside a function (glibc's string functions have them) does not
    hide the function around it."""
    i = bisect.bisect_right(starts, address) - 1
    for j in range(i, max(i - 8, -1), -1):
        if address < ends[j]:
            return j
    return -1


# glibc's string functions and nettle's hashes come in one body per CPU
# feature (chosen when the program starts); valgrind emulates fewer features
# than the machine has, so the trace names the SSE2 or AVX2 body where a
# hook runs the AVX-512 or SHA-NI one. Every variant of a function met is
# listed.
CPU_VARIANT = re.compile(
    r"^(?P<base>__\w+?)_(?:sse2|ssse3|sse4_1|sse42|avx|avx2|avx512|evex|evex512|erms|generic)"
    r"(?:_\w*)?$"
    r"|^(?P<nettle>_nettle_\w+?)_(?:c|x86_64|sha_ni|aesni|pclmul)$")


def variantBase(name):
    """The function a CPU variant is a body of ("__memmove" for
    "__memmove_avx512_unaligned_erms"), or None."""
    match = CPU_VARIANT.match(name)
    return (match.group("base") or match.group("nettle")) if match else None


def cpuVariants(all_names):
    """{base name: every variant's name} for the variant families of all_names."""
    families = {}
    for name in all_names:
        base = variantBase(name)
        if base:
            families.setdefault(base, []).append(name)
    return families


def environment(home):
    """The environment of a traced call: toolguard's files under `home`, the
    user's policy where a hook finds it by default (home/.config/toolguard:
    none of the variables that move it, whose reading is other code)."""
    moved = {"TOOLGUARD_CONFIG_DIR", "XDG_CONFIG_HOME", "TOOLGUARD_MANAGED_DIR"}
    env = {name: value for name, value in os.environ.items() if name not in moved}
    return dict(env, HOME=home, TOOLGUARD_HOME=home + "/toolguard")


def withPolicies(home):
    """Writes a user policy (a shell, a files and an MCP rule) that trusts the
    project home/project, and the project's policy; returns the calls a hook
    makes there, policies loaded (their trees cached after the first)."""
    project = home + "/project"
    os.makedirs(home + "/.config/toolguard")
    os.makedirs(project + "/.toolguard")
    with open(home + "/.config/toolguard/policy.yaml", "w") as user:
        user.write(f"""version: 1
trusted_projects: [{json.dumps(project)}]
rules:
  - id: user-shell
    tool: Bash
    command: {{glob: 'deploy *'}}
    verdict: ask
  - id: user-files
    files: ['**/secrets/**', '*.key']
    verdict: deny
    reason: a secret
  - id: user-mcp
    tool: mcp__srv__*
    verdict: allow
""")
    with open(project + "/.toolguard/policy.yaml", "w") as own:
        own.write("version: 1\nrules:\n  - id: generated\n    files: ['./generated/**']\n"
                  "    verdict: deny\n")
    context = f'"session_id":"p1","hook_event_name":"PreToolUse","cwd":{json.dumps(project)}'
    arguments = ["check", "--format", "claude", "--no-managed"]
    return [
        (arguments, '{' + context + ',"tool_name":"Write",'
         '"tool_input":{"file_path":"src/a.cpp","content":"x"}}'),
        (arguments, '{' + context + ',"tool_name":"Bash",'
         '"tool_input":{"command":"git status && make -j4 test | tail -20"}}'),
    ]


def runUntraced(binary, arguments, stdin, home):
    """Runs the binary once outside valgrind, its output dropped."""
    subprocess.run([binary, *arguments], input=stdin.encode(), env=environment(home),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def seedLongSession(binary, home):
    """Runs a web fetch, then a Write (a call that brings no label) more times
    than a session file keeps lines for, in the scenarios' session and
    untraced, so that its file holds a run line: what a long session's every
    check loads."""
    arguments, fetch = WEB_FETCH
    runUntraced(binary, arguments, fetch, home)
    stdin = ('{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Write",'
             '"tool_input":{"file_path":"src/a.cpp","content":"x"}}')
    for _ in range(LONG_SESSION_CALLS):
        runUntraced(binary, ["check", "--format", "claude", *FLAGS], stdin, home)


def touched(binary, arguments, stdin, home):
    """Addresses in the order the process first touches them."""
    with tempfile.NamedTemporaryFile("r", suffix=".lackey") as trace:
        subprocess.run(["valgrind", "--tool=lackey", "--trace-mem=yes",
                        "--log-file=" + trace.name, binary, *arguments],
                       input=stdin.encode(), env=environment(home), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        seen = set()
        for line in trace:
            if line.startswith("=="):
                continue
            parts = line.split()
            if len(parts) != 2:
                continue
            # Each address once (not each cache line: a function that
            # shares its first line with one met before would be missed).
            address = int(parts[1].split(",")[0], 16)
            if address in seen:
                continue
            seen.add(address)
            yield address


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build/release/toolguard")
    starts, ends, names = symbols(binary)
    families = cpuVariants(n for group in names for n in group)
    order, named = [], set()

    def add(name):
        if name not in named:
            named.add(name)
            order.append(name)

    with tempfile.TemporaryDirectory() as home:
        seedLongSession(binary, home)
        # Each call twice in one home: the first may find no session file
        # or cached policy tree, the second (what a hook runs on every later
        # call) reads and extends them.
        runs = [scenario for scenario in SCENARIOS + withPolicies(home) for _ in range(2)]
        for arguments, stdin in runs:
            for address in touched(binary, arguments, stdin, home):
                i = covering(starts, ends, address)
                if i < 0 or names[i][0] in named:
                    continue
                for name in names[i]:
                    add(name)
                    for variant in families.get(variantBase(name), []):
                        add(variant)
    # __data_start (glibc's start files) first among the data: what a check
    # writes of .data then sits on the pages right after it.
    order = ["__data_start"] + [n for n in order if n != "__data_start"]
    OUTPUT.write_text("".join(name + "\n" for name in order))
    print(f"hot-order: {len(order)} symbols written to {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
