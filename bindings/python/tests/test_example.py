"""example.py (copied into the README) runs and prints what it says."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import BINDING_DIR


def test_example_runs(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(BINDING_DIR), TOOLGUARD_HOME=str(tmp_path))
    result = subprocess.run([sys.executable, str(BINDING_DIR / "example.py")], env=env,
                            cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "git status -> allow",
        "rm -rf / -> deny",
        "(would run git status)",
    ], result.stdout
    assert lines[3].startswith("denied: Blocked by toolguard (rule rm-recursive-protected)")
    assert len(lines) == 4
    assert (tmp_path / "audit.jsonl").exists()  # the example audits, into TOOLGUARD_HOME
