"""Guard basics: decisions, options and their errors, malformed calls, close."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import toolguard
from conftest import BINDING_DIR, builtin_options

# Judged, never run.
DESTRUCTIVE = "rm -rf /"


def test_allowed_call(guard: toolguard.Guard) -> None:
    decision = guard.check("Bash", {"command": "git status"}, cwd="/workspace")
    assert decision.verdict is toolguard.Verdict.ALLOW
    assert decision.verdict == "allow" and str(decision.verdict) == "allow"
    assert decision.allowed
    assert decision.rule == "shell-safe"
    assert decision.reason.startswith("ordinary work")
    assert decision.model_reason == ""
    raw = decision.raw
    assert raw["verdict"] == "allow" and raw["tool"] == "Bash" and raw["rule"] == "shell-safe"
    assert raw["source"] == "<builtin:shell>"
    assert '"verdict":"allow"' in decision.json


def test_denied_call(guard: toolguard.Guard) -> None:
    decision = guard.check("Bash", {"command": DESTRUCTIVE}, cwd="/workspace")
    assert decision.verdict is toolguard.Verdict.DENY and not decision.allowed
    assert decision.rule == "rm-recursive-protected"
    assert "protected location" in decision.reason
    assert decision.model_reason.startswith("Blocked by toolguard (rule rm-recursive-protected)")


def test_ask_without_asker_is_reported(guard: toolguard.Guard) -> None:
    decision = guard.check("Bash", {"command": "git push --force"}, cwd="/workspace")
    assert decision.verdict is toolguard.Verdict.ASK
    assert decision.rule == "git-rewrite"


def test_headless_context_turns_ask_into_deny(guard: toolguard.Guard) -> None:
    decision = guard.check("Bash", {"command": "git push --force"}, cwd="/workspace",
                           mode="headless", session="s1", agent="a1")
    assert decision.verdict is toolguard.Verdict.DENY


def test_check_call_and_check_agree(guard: toolguard.Guard) -> None:
    call = {"tool": "Bash", "args": {"command": "git status"}, "context": {"cwd": "/workspace"}}
    by_dict = guard.check_call(call)
    by_text = guard.check_call(json.dumps(call))
    by_bytes = guard.check_call(json.dumps(call).encode())
    by_args = guard.check("Bash", {"command": "git status"}, cwd=Path("/workspace"))
    assert by_dict == by_text == by_bytes == by_args


def test_decision_is_frozen(guard: toolguard.Guard) -> None:
    decision = guard.check("Bash", {"command": "ls"}, cwd="/workspace")
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.verdict = toolguard.Verdict.DENY  # type: ignore[misc]
    assert decision.raw is not decision.raw  # a new dict each time: nothing shared to mutate


def test_decision_outlives_its_guard(home: Path) -> None:
    with toolguard.Guard(**builtin_options(home)) as g:
        decision = g.check("Bash", {"command": "git status"}, cwd="/workspace")
    assert decision.raw["verdict"] == "allow"


@pytest.mark.parametrize("options, field", [
    ({"profiles": ["no-such-profile"]}, '"profiles"'),
    ({"builtin": "yes"}, '"builtin"'),
    ({"policy_files": "one.yaml"}, '"policy_files"'),
    ({"approval_timeout": -1}, '"approval_timeout_ms"'),
    ({"ask_server": {"token": "t"}}, '"ask_server.url"'),
])
def test_bad_option_names_the_field(home: Path, options: dict, field: str) -> None:
    with pytest.raises(toolguard.GuardError) as error:
        toolguard.Guard(**builtin_options(home), **options)
    assert field in str(error.value)
    assert str(error.value).startswith("options:")


def test_broken_policy_file_names_file_and_line(home: Path, tmp_path: Path) -> None:
    policy = tmp_path / "broken.yaml"
    policy.write_text("version: 1\nrules:\n  - id: x\n    verdict: sometimes\n")
    with pytest.raises(toolguard.GuardError) as error:
        toolguard.Guard(**builtin_options(home), policy_files=[policy])
    assert "broken.yaml" in str(error.value) and ":4:" in str(error.value)


def test_options_that_cannot_be_json(home: Path) -> None:
    with pytest.raises(toolguard.GuardError, match="options"):
        toolguard.Guard(**builtin_options(home), profiles=[object()])  # type: ignore[list-item]


@pytest.mark.parametrize("call, field", [
    ("not json", ""),
    ('{"tool": "Bash", "args": {}, "tool": "Bash"}', ""),  # a key twice
    ({"args": {"command": "ls"}}, "tool"),
    ({"tool": "", "args": {}}, "tool"),
    ({"tool": "Bash", "args": "ls"}, "args"),
    ({"tool": "Bash", "args": {}, "context": {"mode": "sometimes"}}, "context.mode"),
    ({"tool": "Bash", "args": {}, "extra": 1}, "extra"),
    (b"\xff\xfe", ""),
])
def test_malformed_call_is_denied(guard: toolguard.Guard, call: object, field: str) -> None:
    decision = guard.check_call(call)  # type: ignore[arg-type]
    assert decision.verdict is toolguard.Verdict.DENY
    assert field in decision.reason
    assert decision.model_reason


def test_unserializable_arguments_raise(guard: toolguard.Guard) -> None:
    with pytest.raises(toolguard.GuardError, match="JSON"):
        guard.check("Bash", {"command": object()})
    # A lone surrogate is escaped, and the C API denies the text it cannot read.
    assert guard.check("Bash", {"command": "ls \ud800"}).verdict is toolguard.Verdict.DENY


def test_closed_guard_raises(home: Path) -> None:
    g = toolguard.Guard(**builtin_options(home))
    assert not g.closed
    g.close()
    g.close()  # idempotent
    assert g.closed
    with pytest.raises(toolguard.GuardError, match="closed"):
        g.check("Bash", {"command": "ls"})


def test_versions() -> None:
    assert toolguard.c_library_version().count(".") == 2
    assert os.path.basename(toolguard.library_path).startswith("libtoolguard_c.so")


def test_missing_library_is_an_import_error(tmp_path: Path) -> None:
    env = dict(os.environ, TOOLGUARD_C_LIBRARY=str(tmp_path / "libnothing.so"),
               PYTHONPATH=str(BINDING_DIR))
    result = subprocess.run([sys.executable, "-c", "import toolguard"], env=env,
                            capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "TOOLGUARD_C_LIBRARY" in result.stderr and "libnothing.so" in result.stderr


def test_audit_log_is_written(home: Path) -> None:
    options = dict(builtin_options(home), audit=True)
    with toolguard.Guard(**options) as g:
        g.check("Bash", {"command": "git status"}, cwd="/workspace")
    assert "git status" in (home / "audit.jsonl").read_text()
