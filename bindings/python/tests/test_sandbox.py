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
