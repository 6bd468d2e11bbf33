"""Guard.run_sandboxed: a tool's command run where the kernel holds it, with
the guard's policy's sandbox section, from Python."""
from __future__ import annotations

from pathlib import Path

import pytest

import toolguard


def require_a_kernel_that_holds_it(guard: toolguard.Guard, where: Path) -> None:
    """Skips, saying why, on a kernel that cannot hold the default sandbox."""
    try:
        guard.run_sandboxed(["true"], cwd=str(where))
    except toolguard.GuardError as error:
        if "cannot hold" in str(error):
            pytest.skip(str(error))
        raise


def test_a_command_writes_only_in_its_workspace(guard: toolguard.Guard, tmp_path: Path) -> None:
    require_a_kernel_that_holds_it(guard, tmp_path)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("API_KEY=python-canary\n")
    outside = tmp_path / "outside.txt"
    status = guard.run_sandboxed(
        ["sh", "-c", f"echo in > inside.txt && cat .env; echo x > '{outside}'; exit 3"],
        workspaces=[str(workspace)], cwd=str(workspace))
    assert status == 3
    assert (workspace / "inside.txt").read_text() == "in\n"
    assert not outside.exists()


def test_a_sandbox_that_cannot_run_raises_and_runs_nothing(guard: toolguard.Guard,
                                                           tmp_path: Path) -> None:
    require_a_kernel_that_holds_it(guard, tmp_path)
    with pytest.raises(toolguard.GuardError, match="cannot run"):
        guard.run_sandboxed(["/no/such/program"], cwd=str(tmp_path))
    with pytest.raises(toolguard.GuardError, match="command"):
        guard.run_sandboxed([], cwd=str(tmp_path))
    with pytest.raises(toolguard.GuardError, match="is not a directory"):
        guard.run_sandboxed(["true"], workspaces=[str(tmp_path / "missing")])


def test_the_rule_that_allowed_a_call_adds_what_its_own_sandbox_names(home: Path,
                                                                       tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    extra = tmp_path / "extra"
    extra.mkdir()
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        "rules:\n"
        "  - id: make-assets\n"
        "    tool: make_assets\n"
        "    verdict: allow\n"
        f"    sandbox: {{writable: ['{extra}']}}\n")
    with toolguard.Guard(policy_files=[str(policy)], user=False, project=False, managed=False,
                         audit=False, home=home) as guard:
        require_a_kernel_that_holds_it(guard, workspace)
        decision = guard.check("make_assets", {}, cwd=str(workspace))
        assert decision.verdict == "allow" and decision.rule == "make-assets"
        write = ["sh", "-c", f"echo made > '{extra}/out'"]
        assert guard.run_sandboxed(write, cwd=str(workspace)) != 0
        assert not (extra / "out").exists()
        assert guard.run_sandboxed(write, cwd=str(workspace), rule=decision.rule) == 0
        assert (extra / "out").read_text() == "made\n"
        with pytest.raises(toolguard.GuardError, match="no rule"):
            guard.run_sandboxed(["true"], cwd=str(workspace), rule="no-such-rule")
