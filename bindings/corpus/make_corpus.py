#!/usr/bin/python3
"""Writes the shell corpus (tests/data/shell-corpus.yaml) as toolguard call
JSON, one per line, each with the decision the C++ engine gives it through
`toolguard check --batch` on the built-in policy alone. Every binding's test
judges the same calls through its binding and compares (bindings/README.md).

Usage: make_corpus.py TOOLGUARD_BINARY CORPUS_YAML OUTPUT_JSONL

The calls are made as `toolguard test` makes them (src/policy/policy_tests.cpp):
cwd /workspace, tool Bash for `command:`, `context:` fields set as given.
"""
import json
import os
import subprocess
import sys
import tempfile

import yaml


def calls_of(corpus_path):
    with open(corpus_path, encoding="utf-8") as f:
        text = f.read()
    # Scalars as text, as yaml-cpp's Scalar() reads them; `args:` as typed JSON.
    raw = yaml.load(text, Loader=yaml.BaseLoader)["tests"]
    typed = yaml.safe_load(text)["tests"]
    for case, typed_case in zip(raw, typed):
        call = {"tool": case.get("tool", "Bash" if "command" in case else ""), "args": {},
                "context": {"cwd": "/workspace"}}
        if "args" in case:
            call["args"] = typed_case["args"]
        if "command" in case:
            call["args"]["command"] = case["command"]
        for key, value in case.get("context", {}).items():
            call["context"][key] = value
        yield case["name"], call


def main():
    binary, corpus_path, output = sys.argv[1:4]
    cases = list(calls_of(corpus_path))
    lines = "".join(json.dumps(call) + "\n" for _, call in cases)
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, TOOLGUARD_HOME=home)
        result = subprocess.run(
            [binary, "check", "--batch", "--no-user", "--no-project", "--no-managed",
             "--no-audit"],
            input=lines, capture_output=True, text=True, env=env, check=False)
    if result.returncode != 0:
        sys.exit(f"toolguard check --batch failed ({result.returncode}): {result.stderr}")
    decisions = [json.loads(line) for line in result.stdout.splitlines()]
    if len(decisions) != len(cases):
        sys.exit(f"{len(cases)} calls but {len(decisions)} decisions")
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output, "w", encoding="utf-8") as out:
        for (name, call), decision in zip(cases, decisions):
            expected = {k: decision.get(k) for k in ("verdict", "rule", "reason", "model_reason")}
            out.write(json.dumps({"name": name, "call": call, "expected": expected}) + "\n")
    print(f"{len(cases)} calls written to {output}")


if __name__ == "__main__":
    main()
