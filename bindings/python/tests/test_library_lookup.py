"""The README's Python example, run as a user runs it: with only the
documented environment (no TOOLGUARD_C_LIBRARY, no TOOLGUARD_LIB_DIR), from
the source tree after a release build, and from a prefix that
``scripts/install.sh PREFIX`` filled (TOOLGUARD_TEST_INSTALL_SH=1: ctest's
bindings.python.install, which runs alone)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict

import pytest

from conftest import BINDING_DIR

SOURCE_ROOT = BINDING_DIR.parent.parent
EXPECTED_LINES = ["git status -> allow", "rm -rf / -> deny", "(would run git status)"]


def user_environment(home: Path, pythonpath: Path) -> Dict[str, str]:
    """What a user's shell has, plus the one variable the README names. (And
    TOOLGUARD_AGENT_ENVIRONMENT=clean, as for every binding test: the guard
    would otherwise take this process's PYTHONPATH, which points into a temp
    directory here, for the agent's and ask about `git status`.)"""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "TOOLGUARD_HOME": str(home / ".toolguard"),
            "PYTHONPATH": str(pythonpath), "PYTHONDONTWRITEBYTECODE": "1",
            "TOOLGUARD_PYTHON_NATIVE": "0", "TOOLGUARD_AGENT_ENVIRONMENT": "clean"}


def run_readme_example(env: Dict[str, str], cwd: Path) -> str:
    """Runs the README's snippet (example.py, copied to `cwd` so that its own
    directory puts no package on the path) and the library lookup; the path loaded."""
    script = cwd / "readme_example.py"
    script.write_text((BINDING_DIR / "example.py").read_text(encoding="utf-8"), encoding="utf-8")
    example = subprocess.run([sys.executable, str(script)], env=env, cwd=cwd,
                             capture_output=True, text=True, timeout=60, check=False)
    assert example.returncode == 0, example.stderr
    lines = example.stdout.splitlines()
    assert lines[:3] == EXPECTED_LINES, example.stdout
    assert lines[3].startswith("denied: Blocked by toolguard"), example.stdout
    where = subprocess.run(
        [sys.executable, "-c", "import toolguard._capi as c; print(c.library_path)"], env=env,
        cwd=cwd, capture_output=True, text=True, timeout=60, check=False)
    assert where.returncode == 0, where.stderr
    return where.stdout.strip()


def test_the_readme_snippet_finds_the_source_trees_build(tmp_path: Path) -> None:
    built = SOURCE_ROOT / "build" / "release" / "libtoolguard_c.so"
    tested = os.environ.get("TOOLGUARD_C_LIBRARY", "")
    if not tested or Path(tested).resolve() != built.resolve():
        pytest.skip(f"the library under test ({tested or 'unknown'}) is not {built}")
    loaded = run_readme_example(user_environment(tmp_path, BINDING_DIR), tmp_path)
    assert Path(loaded).resolve() == built.resolve()


@pytest.mark.skipif(os.environ.get("TOOLGUARD_TEST_INSTALL_SH") != "1",
                    reason="runs scripts/install.sh: ctest's bindings.python.install")
def test_the_readme_snippet_finds_the_library_after_install_sh(tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    install = subprocess.run(["bash", str(SOURCE_ROOT / "scripts" / "install.sh"), str(prefix)],
                             capture_output=True, text=True, timeout=1800, check=False)
    assert install.returncode == 0, install.stdout + install.stderr
    packages = list(prefix.glob("lib*/toolguard/python/toolguard/__init__.py"))
    assert len(packages) == 1, sorted(str(p) for p in prefix.rglob("*"))
    package_root = packages[0].parent.parent
    home = tmp_path / "home"
    home.mkdir()
    # Outside the source tree, so that nothing of it is found by accident.
    loaded = run_readme_example(user_environment(home, package_root), home)
    assert Path(loaded).resolve().is_relative_to(prefix.resolve()), loaded
