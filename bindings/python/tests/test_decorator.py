"""The decorator: a guarded function's body runs only when the call is allowed."""
from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any, Dict, List

import pytest

import toolguard
from conftest import builtin_options

# Judged, never run: the tools below only touch a canary file.
DESTRUCTIVE = "rm -rf /"

ABORT_POLICY = """\
version: 1
rules:
  - id: no-self-destruct
    tool: self_destruct
    verdict: abort
    reason: the agent must stop when it tries to destroy itself
"""


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    path = tmp_path / "canary"
    path.write_text("alive")
    return path


def test_denied_body_never_runs(guard: toolguard.Guard, canary: Path) -> None:
    @guard.tool("Bash", cwd="/workspace")
    def bash(command: str) -> str:
        canary.unlink()
        return "ran"

    with pytest.raises(toolguard.ToolDenied) as denied:
        bash(DESTRUCTIVE)
    assert canary.exists()
    assert isinstance(denied.value, toolguard.ToolBlocked)
    assert isinstance(denied.value, toolguard.ToolguardError)
    assert denied.value.decision.verdict is toolguard.Verdict.DENY
    assert denied.value.decision.rule == "rm-recursive-protected"
    assert str(denied.value) == denied.value.decision.model_reason
    assert str(denied.value).startswith("Blocked by toolguard")


def test_allowed_body_runs(guard: toolguard.Guard, canary: Path) -> None:
    @toolguard.guarded(guard, tool="Bash", cwd="/workspace")
    def bash(command: str) -> str:
        canary.unlink()
        return f"ran {command}"

    assert bash(command="git status") == "ran git status"
    assert not canary.exists()
    assert bash.__name__ == "bash"  # functools.wraps


def test_ask_without_asker_raises_denied(guard: toolguard.Guard, canary: Path) -> None:
    @guard.tool("Bash", cwd="/workspace")
    def bash(command: str) -> None:
        canary.unlink()

    with pytest.raises(toolguard.ToolDenied) as denied:
        bash("git push --force")
    assert denied.value.decision.verdict is toolguard.Verdict.ASK
    assert "approval" in str(denied.value)
    assert canary.exists()


def test_abort_raises_aborted(home: Path, tmp_path: Path, canary: Path) -> None:
    policy = tmp_path / "abort.yaml"
    policy.write_text(ABORT_POLICY)
    with toolguard.Guard(**builtin_options(home), policy_files=[policy]) as guard:
        @guard.tool()  # the tool's name is the function's
        def self_destruct(countdown: int = 10) -> None:
            canary.unlink()

        with pytest.raises(toolguard.ToolAborted) as aborted:
            self_destruct()
        assert not isinstance(aborted.value, toolguard.ToolDenied)
        assert aborted.value.decision.verdict is toolguard.Verdict.ABORT
        assert aborted.value.decision.rule == "no-self-destruct"
        assert aborted.value.decision.raw["tool"] == "self_destruct"
        assert "destroy itself" in str(aborted.value)
    assert canary.exists()


def test_arguments_by_parameter_name(home: Path) -> None:
    seen: List[Dict[str, Any]] = []

    def asker(request: Dict[str, Any]) -> str:
        seen.append(request["call"]["args"])
        return "deny"

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        @guard.tool("deploy_service")
        def deploy(env: str, force: bool = False, *targets: str, **options: Any) -> None:
            raise AssertionError("ran")

        with pytest.raises(toolguard.ToolDenied):
            deploy("prod", True, "web", "db", region="eu")
    assert seen == [{"env": "prod", "force": True, "targets": ["web", "db"], "region": "eu"}]


def test_method_self_is_left_out(guard: toolguard.Guard) -> None:
    class Tools:
        @guard.tool("Bash", cwd="/workspace")
        def bash(self, command: str) -> str:
            return command

    assert Tools().bash("ls") == "ls"


def test_first_parameter_named_cls_holding_data_is_judged(home: Path) -> None:
    seen: List[Dict[str, Any]] = []

    def asker(request: Dict[str, Any]) -> str:
        seen.append(request["call"]["args"])
        return "deny"

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        @guard.tool("deploy_service")
        def deploy(cls: str, env: str) -> None:  # a plain function, not a method
            raise AssertionError("ran")

        with pytest.raises(toolguard.ToolDenied):
            deploy("prod", "staging")
    assert seen == [{"cls": "prod", "env": "staging"}]


def test_a_name_given_twice_is_refused(guard: toolguard.Guard, canary: Path) -> None:
    @guard.tool("Bash", cwd="/workspace")
    def bash(*command: str, **options: Any) -> None:
        canary.unlink()

    with pytest.raises(toolguard.GuardError):
        bash(DESTRUCTIVE, command="ls")
    assert canary.exists()


def test_async_function(guard: toolguard.Guard, canary: Path) -> None:
    @guard.tool("Bash", cwd="/workspace")
    async def bash(command: str) -> str:
        canary.unlink()
        return "ran"

    with pytest.raises(toolguard.ToolDenied):
        asyncio.run(bash(DESTRUCTIVE))
    assert canary.exists()
    assert asyncio.run(bash("git status")) == "ran"
    assert not canary.exists()


def test_async_ask_does_not_block_the_loop(home: Path) -> None:
    """The asker waits for the loop to tick: it would deadlock if the check
    ran on the loop's thread."""
    ticked = threading.Event()

    def asker(request: Dict[str, Any]) -> str:
        return "allow-once" if ticked.wait(timeout=10) else "deny"

    async def main(guard: toolguard.Guard) -> str:
        @guard.tool("Bash", cwd="/workspace")
        async def bash(command: str) -> str:
            return "ran"

        async def tick() -> None:
            await asyncio.sleep(0.05)
            ticked.set()

        result, _ = await asyncio.gather(bash("git push --force"), tick())
        return result

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        assert asyncio.run(main(guard)) == "ran"
