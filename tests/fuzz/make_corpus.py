#!/usr/bin/env python3
"""Writes the seed corpora of the libFuzzer targets, tests/fuzz/corpus/NAME/,
from the repository's test data and documentation (shell's seeds are kept in
tests/fuzz/seeds). Run from anywhere: python3 tests/fuzz/make_corpus.py

Each file is one input in the target's own layout (see each NAME_fuzz.cpp):
a selector byte first where the target takes one, parts split at NUL bytes.
Inputs the fuzzers found are kept as found-*.bin and never rewritten here.
Seeds are written as files only: nothing here is run by a shell.
"""
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fuzz" / "corpus"
MAX = 4096  # scripts/fuzz.sh runs with -max_len=4096


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    directory = OUT / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(data[:MAX])


def text(path):
    return (ROOT / path).read_text()


def yaml_blocks(path):
    return re.findall(r"```yaml\n(.*?)```", text(path), re.S)


# policy: toolguard policy files and a guard plugin, from the documentation.
for i, block in enumerate(yaml_blocks("docs/policy-files.md")):
    write("policy", f"policy-files-{i}.yaml", block)
for i, block in enumerate(yaml_blocks("docs/guard-plugins.md")):
    write("policy", f"guard-plugin-{i}.yaml", block)
write("policy", "rule-with-examples.yaml",
      "version: 1\ndefault: ask\nrules:\n  - id: no-force-push\n    tool: Bash\n"
      "    shell:\n      command: git\n      args_any: ['--force', '-f']\n"
      "    verdict: deny\n    reason: force pushes rewrite history\n"
      "    examples:\n      deny: ['git push --force']\n      allow: ['git status']\n")
write("policy", "anchors.yaml",
      "version: 1\nrules:\n  - &r {id: a, tool: Read, verdict: allow}\n"
      "  - {<<: *r, id: b, tool: Grep}\n")

# import: selector byte 0 Claude settings, 1 Gemini TOML, 2 Codex rules,
# 3 an approval store scope file.
for path in sorted((ROOT / "tests/data/claude").glob("permissions-*.json")):
    write("import", f"claude-{path.stem}.bin", b"\x00" + path.read_bytes())
for path in sorted((ROOT / "tests/data/gemini/policies").glob("*.toml")):
    write("import", f"gemini-{path.stem}.bin", b"\x01" + path.read_bytes())
for path in sorted((ROOT / "tests/data/codex").glob("*.rules")):
    write("import", f"codex-{path.stem}.bin", b"\x02" + path.read_bytes())
write("import", "store-plain.bin", b"\x03" + json.dumps(
    {"version": 1, "allowed_tools": ["Read", "Grep"]}).encode())
write("import", "store-scope.bin", b"\x03" + json.dumps(
    {"version": 1, "format": "toolguard-approvals", "scope": "project",
     "scope_id": "/work/proj",
     "entries": [{"tool": "Bash", "binding": "exact", "value": "make test",
                  "created": "2026-01-01T00:00:00Z"}]}, indent=2).encode())

# schema: selector byte (draft), then the schema, NUL, the instance.
schemas = [
    ({"type": "object", "properties": {"command": {"type": "string", "maxLength": 100}},
      "required": ["command"], "additionalProperties": False}, {"command": "ls -la"}),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema",
      "$defs": {"p": {"type": "string", "pattern": "^/work/"}},
      "properties": {"file_path": {"$ref": "#/$defs/p"}}, "unevaluatedProperties": False},
     {"file_path": "/etc/passwd", "x": 1}),
    ({"anyOf": [{"type": "integer", "minimum": 0}, {"enum": ["a", "b"]}],
      "not": {"const": 3}}, 3),
    ({"type": "array", "items": {"type": "number", "multipleOf": 0.5},
      "minItems": 1, "uniqueItems": True}, [1, 1.5, 1]),
    ({"$schema": "http://json-schema.org/draft-04/schema#", "id": "http://x/s",
      "definitions": {"n": {"type": "null"}}, "oneOf": [{"$ref": "#/definitions/n"},
                                                       {"type": "boolean"}]}, None),
    ({"dependentRequired": {"a": ["b"]}, "propertyNames": {"maxLength": 3},
      "patternProperties": {"^x": {"format": "email"}}}, {"a": 1, "xy": "not-mail"}),
    ({"$id": "https://example.com/tree", "$dynamicAnchor": "node", "type": "object",
      "properties": {"children": {"type": "array", "items": {"$dynamicRef": "#node"}}}},
     {"children": [{"children": []}]}),
]
for i, (schema, instance) in enumerate(schemas):
    write("schema", f"schema-{i}.bin",
          bytes([i % 6]) + json.dumps(schema).encode() + b"\x00" + json.dumps(instance).encode())

# paths: flags byte, then path NUL cwd NUL home.
paths = [
    ("~/.ssh/id_rsa", "/work/app", "/home/u"),
    ("../../etc/./passwd", "/work/app/src", "/home/u"),
    ("src//main.cpp/", "/work/app", "/home/u"),
    ("/tmp/../../..", "/", "/root"),
    ("~", "/work", "/home/u/"),
    ("~other/x", "work", "home"),
    ("./a/b/../../../c", "/w/x/y", "/h"),
    ("/proc/self/root/etc/shadow", "/work", "/home/u"),
    ("FILE.TXT", "/Users/u/Project", "/Users/u"),
]
for i, (path, cwd, home) in enumerate(paths):
    write("paths", f"path-{i}.bin", bytes([i % 4]) + f"{path}\0{cwd}\0{home}".encode())

# mcp: chunk-size byte, then JSON-RPC lines as a client and a server send them.
def lines(*messages):
    return "".join(json.dumps(m) + "\n" for m in messages)


call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "write_file", "arguments": {"path": "/etc/hosts", "content": "x"}}}
write("mcp", "session.bin", b"\x07" + lines(
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-03-26", "capabilities": {"elicitation": {}},
                "clientInfo": {"name": "c", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    call).encode())
write("mcp", "server.bin", b"\x40" + lines(
    {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-03-26",
                                           "capabilities": {"tools": {}}}},
    {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
        {"name": "read_file", "inputSchema": {"type": "object"},
         "annotations": {"readOnlyHint": True}}], "nextCursor": "p2"}},
    {"jsonrpc": "2.0", "id": "x", "error": {"code": -32601, "message": "no"}}).encode())
write("mcp", "batch.bin", b"\x00" + (json.dumps([call, {"jsonrpc": "2.0", "method": "n"}])
                                      + "\n" + json.dumps([]) + "\r\n").encode())
write("mcp", "odd.bin", b"\x02" + b'{"jsonrpc":"2.0","id":{"a":1},"method":5}\n'
      b'{"id":1,"id":2,"jsonrpc":"2.0","result":null}\n'
      b'[{"jsonrpc":"2.0","id":1,"result":{}}, nope]\n'
      b'{"jsonrpc":"2.0","id":1e400,"result":1}\nnot json\n')

# sse: selector byte (chunk size, cap), then a text/event-stream.
write("sse", "chat.bin", b"\x05" +
      b'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\n'
    b'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":'
    b'{"name":"Bash","arguments":"{\\"command\\":"}}]}}]}\n\n'
    b"data: [DONE]\n\n")
write("sse", "fields.bin", b"\x01" + b": comment\r\nevent: message\r\nid: 7\r\nretry: 10\r\n"
      b"data: one\r\ndata:two\rdata:  three\n\nerror: {\"message\":\"overloaded\"}\n\n"
      b"data: unterminated")
write("sse", "capped.bin", b"\x83" + b"data: " + b"x" * 100 + b"\n\ndata: short\n\n")

# hook: selector byte 0 toolguard's call JSON, 1 Claude Code PreToolUse,
# 2 Gemini CLI safety checker, 3 Gemini CLI BeforeTool.
for path in sorted((ROOT / "tests/data/claude").glob("*.json")):
    if not path.name.startswith("permissions-"):
        write("hook", f"claude-{path.stem}.bin", b"\x01" + path.read_bytes())
write("hook", "toolguard-call.bin", b"\x00" + json.dumps(
    {"tool": "Bash", "args": {"command": "git status && make -j2"},
     "context": {"cwd": "/work/app", "agent": "a", "session": "s", "interactive": False}}).encode())
write("hook", "gemini-checker.bin", b"\x02" + json.dumps(
    {"toolCall": {"name": "run_shell_command", "args": {"command": "ls ~/.ssh"}},
     "context": {"environment": {"cwd": "/work/app"}}}).encode())
write("hook", "gemini-before-tool.bin", b"\x03" + json.dumps(
    {"session_id": "s", "cwd": "/work/app", "hook_event_name": "BeforeTool",
     "tool_name": "write_file", "tool_input": {"file_path": "../.bashrc", "content": "x"},
     "mcp_context": None}).encode())
write("hook", "claude-mcp.bin", b"\x01" + json.dumps(
    {"hook_event_name": "PreToolUse", "cwd": "/work/app", "tool_name": "mcp__srv__lookup",
     "tool_input": {"word": "caf\u00e9"}}).encode())
